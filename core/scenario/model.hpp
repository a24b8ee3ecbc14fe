// The model (docs/architecture.md, The scenario): one typed description of a transformer's
// architecture, and the one function for each quantity derived from it. Every estimator that needs
// parameters, FLOPs per token, weight bytes or KV bytes per token calls these; none recomputes
// them.
#pragma once

#include <string_view>

namespace napkin {

enum class Ffn : unsigned char {
  Mlp,    // two matrices, d → d_ff → d (GELU/ReLU: GPT-2, GPT-3)
  Gated,  // three matrices, gate and up d → d_ff, down d_ff → d (SwiGLU/GeGLU: Llama, Gemma)
};

enum class AttentionKind : unsigned char {
  Standard,  // MHA, GQA or MQA: kv_heads says which (== heads, 1 < kv < heads, 1)
  Mla,       // multi-head latent attention (DeepSeek-V2/V3): a compressed KV latent is cached
};

struct Model {
  // Shape.
  int layers = 80;
  double d_model = 8192;
  int heads = 64;         // 0: no attention at all (FFN-only blocks)
  int kv_heads = 8;       // == heads: MHA; 1: MQA; otherwise GQA
  double head_dim = 128;  // may differ from d_model / heads (Gemma 2: 256 with 16 heads of 3584)
  double d_ff = 28672;    // dense FFN width (per gated branch for Ffn::Gated)
  Ffn ffn = Ffn::Gated;
  double vocab = 128256;
  bool tied_embeddings = false;
  double positions = 0;     // learned absolute position embeddings (GPT-2/3: 1024/2048); 0 = RoPE
  bool biases = false;      // linear-layer biases (GPT-2/3: yes; Llama: no)
  bool qkv_bias = false;    // biases on Q, K, V only (Qwen2.5)
  int norms_per_layer = 2;  // norm layers per block (Gemma 2: 4); each has d gains; 0: no
                            // norms at all, not even the final one
  bool norm_bias = false;   // LayerNorm with a bias (GPT-2/3) rather than RMSNorm (gain only)
  bool relative_positions = false;  // Transformer-XL relative positions: one more d×d
                                    // projection per layer (Gopher, Chinchilla)

  // Attention.
  AttentionKind attention = AttentionKind::Standard;
  double q_lora_rank = 0;   // MLA: query compression rank d_c' (0 = no query compression)
  double kv_lora_rank = 0;  // MLA: KV latent width d_c, cached per token and layer
  double rope_dim = 0;      // MLA: decoupled RoPE key width d_h^R, cached per token and layer
  double v_head_dim = 0;    // MLA: value head width (0 = head_dim)
  double window = 0;        // sliding-window length in tokens; 0 = full attention everywhere
  int window_every = 0;     // every n-th layer is global, the rest windowed (Gemma 2: 2); 0 = all

  // Mixture of experts (experts == 0: dense).
  int experts = 0;         // routed experts per MoE layer
  int top_k = 0;           // routed experts per token
  int shared_experts = 0;  // always-on experts (DeepSeek: 1)
  double expert_d_ff = 0;  // each expert's FFN width (0 = d_ff)
  int dense_layers = 0;    // leading layers that keep a dense FFN (DeepSeek-V3: 3)
  int moe_every = 1;       // an MoE FFN every n-th layer after the dense ones (Switch: 2)
};

// Parameter counts, exact to the published configs (tests pin them). Embeddings counted once
// when tied.
struct ModelParams {
  double total = 0;                 // every weight
  double active = 0;                // weights one token touches (MoE: top_k + shared experts only)
  double embedding = 0;             // token (+ position) embeddings and the untied output head
  double attention = 0;             // all layers
  double ffn_total = 0;             // all layers, all experts (and routers)
  double ffn_active = 0;            // all layers, experts one token uses
  double non_embedding_active = 0;  // `active` less the input embedding (what 6·N counts)
  double norms = 0;                 // norm gains (and biases), all blocks and the final norm
  // The terms above, per layer, for derivations that show each one.
  double attention_per_layer = 0;  // one block's attention projections (and their biases)
  double dense_ffn_per_layer = 0;  // one dense feed-forward block
  double expert = 0;               // one expert's feed-forward weights in one MoE layer
  double router = 0;               // one MoE layer's router
  int moe_layers = 0;              // layers with an MoE feed-forward
  double head = 0;  // the output layer's matmul, V·d, whether or not its weights are tied
};
ModelParams model_params(const Model& m);

// Layers whose feed-forward is a mixture of experts: after the dense_layers, every moe_every-th.
int moe_layer_count(const Model& m);

// KV heads one tensor-parallel rank holds: kv/tp when TP splits them; one whole head, replicated,
// when TP exceeds them (Megatron-LM's num_query_groups < tp; vLLM's QKVParallelLinear), so
// multi-query and GQA models run at TP above their KV heads, paying for the copies. MLA caches
// one latent, which every rank keeps whole.
// (Inline: the layout search's inner loop calls these for every layout, from its -O2 files.)
inline double kv_heads_per_rank(const Model& m, int tp) {
  if (m.attention == AttentionKind::Mla || tp <= 1) return m.kv_heads;
  const double share = static_cast<double>(m.kv_heads) / tp;
  return share > 1 ? share : 1;
}
// Weights per layer a rank holds beyond its 1/tp share because its KV heads are copies:
// the K and V projections (and their biases) of (heads per rank − kv/tp) heads.
inline double replicated_kv_params_per_layer(const Model& m, int tp) {
  if (m.attention == AttentionKind::Mla || tp <= m.kv_heads) return 0;
  const double extra_heads = kv_heads_per_rank(m, tp) - static_cast<double>(m.kv_heads) / tp;
  return extra_heads * 2.0 * m.head_dim * (m.d_model + (m.biases || m.qkv_bias ? 1 : 0));
}

// Forward FLOPs for one token at a given context (the tokens it attends to, before the causal
// halving): 2 per active non-embedding weight plus the output head, and the attention score
// and value products, 4·ctx·(heads·head_dim) per layer, halved when `causal` (each token of a
// sequence attends on average to half of it) and bounded by the window on windowed layers.
// PaLM Appendix B counts 6N + 12·L·H·Q·T for training (fwd + bwd) without the causal halving.
double forward_flops_per_token(const Model& m, double context, bool causal);

// The attention score and value products alone (the context-dependent part of the above):
// 2·ctx·heads·(qk + v width) per layer, halved when `causal`, bounded by the window.
double attention_flops_per_token(const Model& m, double context, bool causal);

// Bytes of the KV cache per token, over all layers: 2·kv_heads·head_dim per layer for MHA/GQA/
// MQA, (kv_lora_rank + rope_dim) for MLA; `bytes_per_element` from the KV dtype.
double kv_bytes_per_token(const Model& m, double bytes_per_element);

// Bytes of the weights at a given storage width (2 for BF16, 1 for FP8, 0.5 + group overhead
// for INT4); `active_only` for what one decode step must read per token (dense: everything).
double weight_bytes(const Model& m, double bytes_per_param, bool active_only);

// Tensors a Hugging Face checkpoint of the model stores (transformers' module layout): per layer
// the attention projections (Q, K, V, O; MLA's down- and up-projections and their norms) and
// their biases, the norms, and the FFN's matrices — each routed expert's own, a router and one
// fused shared expert per MoE layer; then the embeddings, the final norm and an untied head.
// A framework that sends weights tensor by tensor pays a fixed cost per tensor (rl.step).
double checkpoint_tensors(const Model& m);

// Distinct routed experts touched per MoE layer when `tokens` tokens are routed top_k each,
// uniformly at random: E·(1 − (1 − k/E)^tokens). Dense models: 0.
double expected_experts_touched(const Model& m, double tokens);
// The same from the counts alone (experts E, top_k k), for estimators that take a model's
// parameter counts rather than its shape; experts = 0: 0.
double expected_experts_touched(double experts, double top_k, double tokens);

// Parameters one forward step over `tokens` tokens reads from memory: every weight of a dense
// model; for a mixture of experts, the weights every token uses plus the routed experts those
// tokens touch, active + (touched − k) · (total − active) / (E − k) (all routed experts the same
// size). One token reads the active parameters; a large batch, all of them.
double params_read_per_step(double total, double active, double experts, double top_k,
                            double tokens);

// A named model with its source, for presets (`napkin models`, the page's scenario bar).
struct ModelPreset {
  std::string_view id, label, source;
  Model model;
  double trained_tokens = 0;    // published training set size; 0 = not published
  double published_params = 0;  // the count its authors state (for tests and labels)
  double context = 0;           // training sequence length
};
const ModelPreset* find_model(std::string_view id);
const ModelPreset* model_presets_begin();
const ModelPreset* model_presets_end();

}  // namespace napkin
