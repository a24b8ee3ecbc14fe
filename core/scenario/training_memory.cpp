// Training memory per GPU (docs/memory.md, docs/training.md); activations per layer are in
// activations.cpp. States: Rajbhandari et al. 2020, "ZeRO", §5 and Figure 1 (2Ψ weights, 2Ψ
// gradients, KΨ optimizer state, K = 12).
#include "training_memory.hpp"

#include <algorithm>

#include "scenario/model.hpp"

namespace napkin {

double expert_params(const Model& m) {
  if (m.experts <= 0) return 0;
  const int moe_layers =
      m.moe_every > 0 ? (m.layers - m.dense_layers + m.moe_every - 1) / m.moe_every : 0;
  const double dff = m.expert_d_ff > 0 ? m.expert_d_ff : m.d_ff;
  const double mats = m.ffn == Ffn::Gated ? 3 : 2;
  return static_cast<double>(moe_layers) * m.experts * mats * m.d_model * dff;
}

TrainingMemory training_memory(const Model& m, const Layout& l, double seq_len) {
  return training_memory(m, model_params(m), l, seq_len);
}

TrainingMemory training_memory(const Model& m, const ModelParams& p, const Layout& l,
                               double seq_len) {
  const double experts = expert_params(m);
  // The busiest GPU is the first stage: its layers' share plus the input (and position)
  // embedding; the output head too when tied or when there is one stage. Split over TP.
  const double layer_params = p.total - p.embedding - experts;
  const double embed_first =
      l.pp == 1 || m.tied_embeddings ? p.embedding : p.embedding - m.vocab * m.d_model;
  const double share = stage_share(m.layers, l);  // 1/pp when the stages are even
  // KV heads copied onto ranks when TP exceeds them: each rank holds a whole head's K and V.
  const double dense = (layer_params * share + embed_first) / l.tp +
                       replicated_kv_params_per_layer(m, l.tp) * m.layers * share;
  const double sharded = experts * share / (static_cast<double>(l.tp) * l.ep);
  const double n_dense = static_cast<double>(l.dp) * l.cp;
  const double n_expert = std::max(1.0, n_dense / l.ep);
  const double wb = dtype_bytes(l.weights), gb = dtype_bytes(l.grads);
  const double k = l.optimizer_bytes_per_param;
  auto part = [&](int stage, double bytes_per) {
    const double d = stage ? dense / n_dense : dense;
    const double e = stage ? sharded / n_expert : sharded;
    return (d + e) * bytes_per;
  };
  TrainingMemory r;
  r.optimizer = l.optimizer_offload ? 0 : part(l.zero_stage >= 1, k);
  r.gradients = part(l.zero_stage >= 2, gb);
  r.weights = part(l.zero_stage >= 3, wb);
  // 1F1B keeps min(pp, microbatches) microbatches in flight on the first stage, each of its
  // layers (layers/pp); interleaving with v stages adds (p−1)/(p·v) of that (Korthikanti §4.2.3).
  const double in_flight = std::min(l.pp, l.microbatches);
  double factor = in_flight * share;
  if (l.vpp > 1) factor *= 1 + (l.pp - 1.0) / (static_cast<double>(l.pp) * l.vpp);
  r.activations = activation_bytes_per_layer(m, l, seq_len) * m.layers * factor *
                  dtype_bytes(l.activations) / 2;
  r.total = r.weights + r.gradients + r.optimizer + r.activations;
  return r;
}

}  // namespace napkin
