#include "scenario/model.hpp"

#include <algorithm>
#include <cmath>

namespace napkin {

namespace {

// Attention weights of one layer (and the norms inside MLA's low-rank paths).
double attention_params(const Model& m) {
  if (m.heads == 0) return 0;  // FFN-only blocks
  const double d = m.d_model, h = m.heads, hd = m.head_dim;
  if (m.attention == AttentionKind::Mla) {
    // DeepSeek-V2 §2.1.2 / DeepSeek-V3 config: queries through a rank-q_lora bottleneck (with
    // its RMSNorm), keys and values from a rank-kv_lora latent plus a shared RoPE key.
    const double vd = m.v_head_dim > 0 ? m.v_head_dim : hd;
    const double q = m.q_lora_rank > 0
                         ? d * m.q_lora_rank + m.q_lora_rank + m.q_lora_rank * h * (hd + m.rope_dim)
                         : d * h * (hd + m.rope_dim);
    const double kv =
        d * (m.kv_lora_rank + m.rope_dim) + m.kv_lora_rank + m.kv_lora_rank * h * (hd + vd);
    return q + kv + h * vd * d;
  }
  const double kv = m.kv_heads;
  double p = 2 * d * h * hd + 2 * d * kv * hd;  // Q and O, K and V
  if (m.biases || m.qkv_bias) p += h * hd + 2 * kv * hd;
  if (m.biases) p += d;
  // Transformer-XL (Dai et al. 2019, §3.3): keys for the relative position encodings go through
  // their own W_{k,R}, d×d per layer; with it Chinchilla's shape gives its stated 70B
  // (12·L·d² alone is 64.7B) and Gopher's 280B (Rae et al. 2021, Table 1).
  if (m.relative_positions) p += d * d;
  return p;
}

double dense_ffn_params(const Model& m, double width) {
  const double d = m.d_model;
  if (m.ffn == Ffn::Gated) return 3 * d * width + (m.biases ? 2 * width + d : 0);
  return 2 * d * width + (m.biases ? width + d : 0);
}

double norm_params(const Model& m) {
  return m.norms_per_layer * m.d_model * (m.norm_bias ? 2 : 1);
}

}  // namespace

bool is_moe_layer(const Model& m, int layer) {
  if (m.experts == 0 || layer < m.dense_layers) return false;
  return (layer - m.dense_layers) % (m.moe_every > 0 ? m.moe_every : 1) == 0;
}

int moe_layer_count(const Model& m) {
  int n = 0;
  for (int l = 0; l < m.layers; ++l) n += is_moe_layer(m, l);
  return n;
}

ModelParams model_params(const Model& m) {
  ModelParams p;
  const double d = m.d_model;
  const double attn = attention_params(m);
  const double dense = dense_ffn_params(m, m.d_ff);
  const double ew = m.expert_d_ff > 0 ? m.expert_d_ff : m.d_ff;
  const double expert = dense_ffn_params(m, ew);
  // The router: one logit per expert (DeepSeek-V3 adds a per-expert bias for load balancing).
  const double router = m.experts * d + (m.attention == AttentionKind::Mla ? m.experts : 0);
  const int n_moe = moe_layer_count(m);
  const int n_dense = m.layers - n_moe;
  p.attention = m.layers * attn;
  p.ffn_total = n_dense * dense + n_moe * ((m.experts + m.shared_experts) * expert + router);
  p.ffn_active = n_dense * dense + n_moe * ((m.top_k + m.shared_experts) * expert + router);
  // Every block's norms and the final one (none at all when a model is counted without norms).
  const double final_norm = m.norms_per_layer > 0 ? d * (m.norm_bias ? 2 : 1) : 0;
  const double norms = m.layers * norm_params(m) + final_norm;
  const double input_embedding = m.vocab * d + m.positions * d;
  const double head = m.tied_embeddings ? 0 : m.vocab * d;
  p.embedding = input_embedding + head;
  p.norms = norms;
  p.attention_per_layer = attn;
  p.dense_ffn_per_layer = dense;
  p.expert = m.experts > 0 ? expert : 0;
  p.router = m.experts > 0 ? router : 0;
  p.moe_layers = n_moe;
  p.head = m.vocab * d;
  p.total = p.attention + p.ffn_total + norms + p.embedding;
  p.active = p.attention + p.ffn_active + norms + p.embedding;
  p.non_embedding_active = p.active - input_embedding;
  return p;
}

// Kaplan et al. 2020 Table 1: 2 FLOPs per weight per token forward, plus 2·n_ctx·d_attn per
// layer for the attention scores and values each (4·ctx·d_attn in all), which causal masking
// halves on average. The output head is a weight like any other (non_embedding_active counts
// it when untied; a tied head still runs its matmul, so it is added here).
double forward_flops_per_token(const Model& m, double context, bool causal) {
  const ModelParams p = model_params(m);
  double flops = 2 * p.non_embedding_active;
  if (m.tied_embeddings) flops += 2 * p.head;
  return flops + attention_flops_per_token(m, context, causal);
}

double attention_flops_per_token(const Model& m, double context, bool causal) {
  const double vd =
      m.attention == AttentionKind::Mla && m.v_head_dim > 0 ? m.v_head_dim : m.head_dim;
  const double qk = m.head_dim + (m.attention == AttentionKind::Mla ? m.rope_dim : 0);
  double flops = 0;
  for (int l = 0; l < m.layers; ++l) {
    const bool windowed =
        m.window > 0 && (m.window_every == 0 || (l % m.window_every) != m.window_every - 1);
    double ctx = windowed ? std::fmin(context, m.window) : context;
    if (causal) ctx /= 2;
    flops += 2 * ctx * m.heads * (qk + vd);
  }
  return flops;
}

// Pope et al. 2022 §3.1 (and DeepSeek-V2 Table 1 for MLA): the cache holds, per token and
// layer, K and V for each KV head, or MLA's latent plus its RoPE key.
double kv_bytes_per_token(const Model& m, double bytes_per_element) {
  const double per_layer = m.attention == AttentionKind::Mla ? m.kv_lora_rank + m.rope_dim
                                                             : 2.0 * m.kv_heads * m.head_dim;
  return m.layers * per_layer * bytes_per_element;
}

double weight_bytes(const Model& m, double bytes_per_param, bool active_only) {
  const ModelParams p = model_params(m);
  return (active_only ? p.active : p.total) * bytes_per_param;
}

// Each token picks top_k of E experts; assuming uniform routing, an expert is missed by one
// token with probability 1 − k/E, by all `tokens` with (1 − k/E)^tokens. Tokens are whole
// (rounded up), and the power is taken by squaring: plain multiplications round the same
// natively and in wasm, where std::pow's last bits differ between the C libraries.
double expected_experts_touched(const Model& m, double tokens) {
  return expected_experts_touched(m.experts, m.top_k, tokens);
}

double expected_experts_touched(double experts, double top_k, double tokens) {
  if (experts <= 0 || tokens <= 0) return 0;
  const double e = experts, k = top_k;
  double base = 1 - k / e, miss = 1;
  for (double n = std::ceil(std::fmin(tokens, 9e15)); n > 0; n = std::floor(n / 2)) {
    if (std::fmod(n, 2) == 1) miss *= base;
    base *= base;
  }
  return e * (1 - miss);
}

// Austin et al. 2025, How to Scale Your Model, "All about transformer inference" (MoE): a step
// loads each expert some token in it was routed to, once; the shared weights (attention,
// embeddings, shared experts, routers) always. Uniform routing, as expected_experts_touched.
double params_read_per_step(double total, double active, double experts, double top_k,
                            double tokens) {
  if (experts <= 0 || top_k >= experts) return total;
  const double expert = (total - active) / (experts - top_k);
  const double touched = std::fmax(expected_experts_touched(experts, top_k, tokens), top_k);
  return std::fmin(total, active + (touched - top_k) * expert);
}

double checkpoint_tensors(const Model& m) {
  const double bias = m.biases ? 1 : 0;
  double attention = 0;
  if (m.heads > 0) {
    if (m.attention == AttentionKind::Mla)  // q (or q_a, its norm, q_b), kv_a, its norm, kv_b, o
      attention = (m.q_lora_rank > 0 ? 3 : 1) + 3 + 1;
    else  // q, k, v, o and their biases
      attention = 4 + (m.biases ? 4 : m.qkv_bias ? 3 : 0);
  }
  const double norms = m.norms_per_layer * (m.norm_bias ? 2 : 1);
  const double mats = m.ffn == Ffn::Gated ? 3 : 2;  // gate, up, down; or up, down
  const double dense_ffn = mats * (1 + bias);
  const double moe_ffn = 1 + m.experts * mats * (1 + bias) + (m.shared_experts > 0 ? mats : 0);
  const double moe = moe_layer_count(m);
  const double per_layers =
      m.layers * (attention + norms) + (m.layers - moe) * dense_ffn + moe * moe_ffn;
  const double global = 1 + (m.positions > 0 ? 1 : 0) + (m.norms_per_layer > 0 ? 1 : 0) +
                        (m.norm_bias ? 1 : 0) + (m.tied_embeddings ? 0 : 1);
  return per_layers + global;
}

}  // namespace napkin
