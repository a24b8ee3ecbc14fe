// A forward pass's weight GEMMs and their achieved share of peak (layer_gemms.hpp says how a
// layer is split).
#include "scenario/layer_gemms.hpp"

#include <algorithm>
#include <cmath>

namespace napkin {

namespace {

struct Sum {
  double flops = 0, compute = 0;
  const GemmMachine& g;
  double bytes;
  double sm_rate;  // calibrated once for every shape (gemm_sm_rate)
  // `count` layers each run a GEMM of this shape.
  void add(double count, double m, double n, double k, double groups = 1) {
    if (count <= 0 || m <= 0 || n <= 0 || k <= 0 || groups <= 0) return;
    const GemmTime t = gemm_time(GemmShape{m, n, k, groups, bytes, bytes}, g, sm_rate);
    flops += count * t.flops;
    compute += count * t.compute;
  }
};

}  // namespace

// A dense model's GEMMs cost the same compute time for every row count in (64(j − 1), 64j]:
// both tile heights (64, 128) divide 64j, so the tiles and waves do not change; only the FLOPs
// grow with the rows. Serving cards ask for hundreds of row counts (serve.capacity tries every
// batch) of a handful of such steps: the last few are kept, per thread, by what decides them.
namespace {
struct DenseKey {
  int layers = 0, heads = 0, kv_heads = 0, tp = 0;
  double d_model = 0, head_dim = 0, d_ff = 0, in_bytes = 0, peak = 0, sms = 0, best = 0, j = 0;
  Ffn ffn = Ffn::Mlp;
  AttentionKind attention = AttentionKind::Standard;
  bool operator==(const DenseKey& o) const {
    return layers == o.layers && heads == o.heads && kv_heads == o.kv_heads && tp == o.tp &&
           d_model == o.d_model && head_dim == o.head_dim && d_ff == o.d_ff &&
           in_bytes == o.in_bytes && peak == o.peak && sms == o.sms && best == o.best && j == o.j &&
           ffn == o.ffn && attention == o.attention;
  }
};
struct DenseEntry {
  DenseKey key;
  GemmShare share;  // at 64·j rows
};
GemmShare compute_share(const Model& m, double tokens, int tp, double in_bytes,
                        const GemmMachine& g);
}  // namespace

GemmShare forward_gemm_share(const Model& m, double tokens, int tp, double in_bytes,
                             const GemmMachine& g) {
  if (m.experts > 0 || tokens <= 0 || g.sms <= 0) return compute_share(m, tokens, tp, in_bytes, g);
  const double j = std::ceil(tokens / 64);
  const DenseKey key{m.layers,        m.heads, m.kv_heads, tp,         m.d_model,
                     m.head_dim,      m.d_ff,  in_bytes,   g.peak,     g.sms,
                     g.best_fraction, j,       m.ffn,      m.attention};
  thread_local DenseEntry cache[64];
  thread_local int next = 0;
  const DenseEntry* hit = nullptr;
  for (const DenseEntry& e : cache)
    if (e.key == key) hit = &e;
  if (!hit) {
    cache[next] = {key, compute_share(m, 64 * j, tp, in_bytes, g)};
    hit = &cache[next];
    next = (next + 1) % 64;
  }
  GemmShare r = hit->share;
  const double scale = tokens / (64 * j);
  r.flops *= scale;
  r.share *= scale;
  return r;
}

namespace {
GemmShare compute_share(const Model& m, double tokens, int tp, double in_bytes,
                        const GemmMachine& g) {
  GemmShare r;
  if (tokens <= 0 || g.peak <= 0) return r;
  const double t = std::max(1, tp);
  Sum s{0, 0, g, in_bytes, gemm_sm_rate(g, in_bytes, in_bytes)};
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
}  // namespace

double forward_kernels(const Model& m) {
  const double attention = m.heads > 0 ? 4 : 0;
  const double norms = m.norms_per_layer;
  const double moe = moe_layer_count(m);
  const double dense = m.layers - moe;
  const double shared = m.shared_experts > 0 ? 3 : 0;
  return m.layers * (attention + norms) + dense * 3 + moe * (6 + shared);
}

}  // namespace napkin
