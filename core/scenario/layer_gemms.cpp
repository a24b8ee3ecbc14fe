// A forward pass's weight GEMMs and their achieved share of peak (layer_gemms.hpp says how a
// layer is split).
#include "scenario/layer_gemms.hpp"

#include <algorithm>

namespace napkin {

namespace {

struct Sum {
  double flops = 0, compute = 0;
  const GemmMachine& g;
  double bytes;
  // `count` layers each run a GEMM of this shape.
  void add(double count, double m, double n, double k, double groups = 1) {
    if (count <= 0 || m <= 0 || n <= 0 || k <= 0 || groups <= 0) return;
    const GemmTime t = gemm_time(GemmShape{m, n, k, groups, bytes, bytes}, g);
    flops += count * t.flops;
    compute += count * t.compute;
  }
};

}  // namespace

GemmShare forward_gemm_share(const Model& m, double tokens, int tp, double in_bytes,
                             const GemmMachine& g) {
  GemmShare r;
  if (tokens <= 0 || g.peak <= 0) return r;
  const double t = std::max(1, tp);
  Sum s{0, 0, g, in_bytes};
  const double layers = m.layers;
  // Attention projections. MLA's per-head up-projections are counted as multi-head ones of the
  // query heads' width (its latent down-projections are narrow and small).
  if (m.heads > 0) {
    const bool mla = m.attention == AttentionKind::Mla;
    const double q = m.heads / t * m.head_dim;
    const double kv = mla ? 2 * q : 2 * kv_heads_per_rank(m, tp) * m.head_dim;
    s.add(layers, tokens, q + kv, m.d_model);
    s.add(layers, tokens, m.d_model, q);
  }
  // Feed-forward: dense layers, then MoE layers.
  const double branches = m.ffn == Ffn::Gated ? 2 : 1;
  const int moe_layers = moe_layer_count(m);
  const double dense = layers - moe_layers;
  s.add(dense, tokens, branches * m.d_ff / t, m.d_model);
  s.add(dense, tokens, m.d_model, m.d_ff / t);
  if (moe_layers > 0) {
    const double e_ff = m.expert_d_ff > 0 ? m.expert_d_ff : m.d_ff;
    const double touched = std::max(1.0, expected_experts_touched(m, tokens));
    const double per_expert = tokens * m.top_k / touched;
    s.add(moe_layers, per_expert, branches * e_ff / t, m.d_model, touched);
    s.add(moe_layers, per_expert, m.d_model, e_ff / t, touched);
    if (m.shared_experts > 0) {
      s.add(moe_layers, tokens, branches * m.shared_experts * e_ff / t, m.d_model);
      s.add(moe_layers, tokens, m.d_model, m.shared_experts * e_ff / t);
    }
  }
  r.flops = s.flops;
  r.compute = s.compute;
  r.share = s.compute > 0 ? s.flops / (g.peak * s.compute) : 0;
  return r;
}

double forward_kernels(const Model& m) {
  const double attention = m.heads > 0 ? 4 : 0;
  const double norms = m.norms_per_layer;
  const double moe = moe_layer_count(m);
  const double dense = m.layers - moe;
  const double shared = m.shared_experts > 0 ? 3 : 0;
  return m.layers * (attention + norms) + dense * 3 + moe * (6 + shared);
}

}  // namespace napkin
