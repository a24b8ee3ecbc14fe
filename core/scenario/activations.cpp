// Activation bytes per layer: Korthikanti et al. 2022, "Reducing Activation
// Recomputation in Large Transformer Models", §4 and Table 2, generalized from the GPT block
// (MHA, 4h MLP) to GQA and any FFN width, term by term.
#include <algorithm>

#include "scenario/model.hpp"
#include "training_memory.hpp"

namespace napkin {

double activation_bytes_per_layer(const Model& m, const Layout& l, double seq_len) {
  const double t = l.tp, s = seq_len / l.cp, b = l.microbatch, h = m.d_model;
  const double sbh = s * b * h;
  if (l.recompute == Recompute::Full) return 2 * sbh / (l.sequence_parallel ? t : 1);
  // Width of Q and of K (= V) relative to h: 1 and 1 for MHA at head_dim = h/heads.
  // K and V: the rank's own heads, whole copies when TP exceeds the KV heads (t × per rank).
  const double q = m.heads * m.head_dim / h,
               kv = kv_heads_per_rank(m, static_cast<int>(t)) * t * m.head_dim / h;
  // FFN: the MLP keeps its activation's input and output (2·2·d_ff); a gated FFN keeps gate,
  // up and their product (3·2·d_ff). MoE layers: each token's top_k (+ shared) experts.
  const bool moe = m.experts > 0;
  const double dff = moe && m.expert_d_ff > 0 ? m.expert_d_ff : m.d_ff;
  const double width = moe ? std::max(1, m.top_k + m.shared_experts) : 1;
  const double ffn = (m.ffn == Ffn::Gated ? 6 : 4) * dff / h * width;
  // Table 2's 10 (layer norms 4, QKV input 2, MLP input 2, two dropout masks 2): never split
  // by TP, split by t under sequence parallelism. Its 24 (Q, K 4; V 2; attention output 2;
  // MLP 16): split by t. Its 5·a·s/h (scores 2, dropout mask 1, dropout output 2, per head
  // and key): split by t, dropped by selective recomputation and by fused (flash) attention.
  const double replicated = 10;
  const double split = 2 * q + 2 * kv + 2 * kv + 2 * q + ffn;
  double per_sbh = replicated / (l.sequence_parallel ? t : 1) + split / t;
  if (l.recompute == Recompute::None && !l.flash_attention)
    per_sbh += 5.0 * m.heads * seq_len / (h * t);
  return sbh * per_sbh;
}

LayerTraffic layer_traffic(const Model& m, const Layout& l, double seq_len) {
  const double t = l.tp, s = seq_len / l.cp, b = l.microbatch, h = m.d_model;
  const double e = dtype_bytes(l.activations);
  const double tokens = s * b;
  // Each norm reads and writes the hidden state; each residual add (Megatron fuses bias,
  // dropout and add) reads two and writes one. Split by t under sequence parallelism, as
  // Korthikanti et al. 2022, §6.2 measure: "layer-norm and dropout ... on 1/t of the data".
  const double per_token_hidden = (2.0 * m.norms_per_layer + 3.0 * 2) * h * e;
  // The FFN's activation reads its input and writes its output (gated: reads gate and up,
  // writes their product); MoE tokens go through top_k (+ shared) experts. Split by t.
  const bool moe = m.experts > 0;
  const double dff = moe && m.expert_d_ff > 0 ? m.expert_d_ff : m.d_ff;
  const double width = moe ? std::max(1, m.top_k + m.shared_experts) : 1;
  const double ffn = (m.ffn == Ffn::Gated ? 3 : 2) * dff * width * e;
  LayerTraffic r;
  // Stored scores (Korthikanti et al. 2022, Figure 3): the QK^T GEMM writes them, the fused
  // scale-mask-softmax reads and writes them, dropout reads them and writes its output and a
  // one-byte mask, and the AV GEMM reads them: 6 passes of e bytes and a mask of e/2 per score.
  // FlashAttention keeps them on chip. Split by t (heads); queries per GPU s/cp over s keys.
  if (!l.flash_attention && m.heads > 0) r.attention = 6.5 * e * m.heads * tokens * seq_len / t;
  // Context parallelism's ring (Liu et al. 2023, Ring Attention, §3): each step after the
  // first yields a partial attention output that the online softmax (Milakov and Gimelshein
  // 2018) merges into the running one: read it, read and write the running output, over the
  // queries' width, split by t (heads).
  const double merge = (l.cp - 1.0) * 3 * tokens * m.heads * m.head_dim * e / t;
  r.forward =
      tokens * (per_token_hidden / (l.sequence_parallel ? t : 1) + ffn / t) + r.attention + merge;
  return r;
}

}  // namespace napkin
