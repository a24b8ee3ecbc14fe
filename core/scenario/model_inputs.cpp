#include "scenario/model_inputs.hpp"

#include <cmath>

#include "base/units.hpp"

namespace napkin {

ModelInputs::ModelInputs(const Model& m)
    : layers(m.layers),
      heads(m.heads),
      kv_heads(m.kv_heads),
      d_model(m.d_model),
      head_dim(m.head_dim),
      d_ff(m.d_ff),
      ffn(m.ffn == Ffn::Gated ? "swiglu" : "mlp"),
      vocab(m.vocab),
      tied_embeddings(m.tied_embeddings),
      positions(m.positions),
      biases(m.biases),
      qkv_bias(m.qkv_bias),
      norm_bias(m.norm_bias),
      relative_positions(m.relative_positions),
      norms_per_layer(m.norms_per_layer),
      attention(m.attention == AttentionKind::Mla ? "mla" : "standard"),
      q_lora_rank(m.q_lora_rank),
      latent_dim(m.kv_lora_rank),
      rope_dim(m.rope_dim),
      v_head_dim(m.v_head_dim),
      window(m.window),
      window_every(m.window_every),
      experts(m.experts),
      top_k(m.top_k),
      shared_experts(m.shared_experts),
      dense_layers(m.dense_layers),
      moe_every(m.moe_every),
      expert_d_ff(m.expert_d_ff) {}

std::vector<InputDecl<ModelInputs>> model_input_decls(const ModelInputNames& names) {
  using In = ModelInputs;
  return {
      num(names.layers, &In::layers, "Layers")
          .positive(1e5)
          .integer()
          .group("model")
          .meaning("n_layers")
          .help("Transformer blocks in the model."),
      num("d_model", &In::d_model, "Hidden size d")
          .positive(1e7)
          .integer()
          .group("model")
          .help("Width of the residual stream: each token's vector between layers."),
      num(names.heads, &In::heads, "Attention heads")
          .positive(1e5)
          .integer()
          .group("model")
          .meaning("n_heads")
          .help("Query heads per layer."),
      num(names.kv_heads, &In::kv_heads, "KV heads (0 = as many as heads)")
          .range(0, 1e5)
          .integer()
          .group("model")
          .meaning("n_kv_heads")
          .help("Key/value heads: as many as the query heads for multi-head attention, fewer "
                "for grouped-query, 1 for multi-query; 0 takes the query heads."),
      num("head_dim", &In::head_dim, "Head dimension (0 = d ÷ heads)")
          .range(0, 1e5)
          .integer()
          .group("model")
          .help("Width of one attention head; 0 takes the hidden size ÷ the heads."),
      num("d_ff", &In::d_ff, "FFN width (0 = usual)")
          .range(0, 1e7)
          .integer()
          .group("model")
          .help("Inner width of the feed-forward block (per branch for SwiGLU); 0 takes 4d for "
                "an MLP, 8d/3 rounded up to 256 for SwiGLU."),
      choice("ffn", &In::ffn, "Feed-forward kind", {"mlp", "swiglu"})
          .labels({"GELU MLP (2 matrices)", "SwiGLU (3 matrices)"})
          .group("model")
          .help("GPT-style MLPs have two weight matrices; Llama-style SwiGLU has three."),
      num("vocab", &In::vocab, "Vocabulary")
          .range(0, 1e8)
          .integer()
          .group("model")
          .help("Tokens in the vocabulary: the rows of the embedding and the output layer."),
      flag("tied_embeddings", &In::tied_embeddings, "Tied embeddings")
          .group("model")
          .help("The output layer reuses the input embedding matrix."),

      num("positions", &In::positions, "Learned positions")
          .range(0, 1e8)
          .integer()
          .group("model.detail")
          .help("Rows of a learned position-embedding table (GPT-2: 1,024); 0 for rotary "
                "positions, which have no weights."),
      flag("biases", &In::biases, "Biases on every linear layer")
          .group("model.detail")
          .help("Bias vectors in the attention and feed-forward layers (GPT-2 and GPT-3: yes; "
                "Llama: no)."),
      flag("qkv_bias", &In::qkv_bias, "Biases on Q, K, V only")
          .group("model.detail")
          .help("Bias vectors on the query, key and value projections only (Qwen2.5)."),
      num("norms_per_layer", &In::norms_per_layer, "Norm layers per block")
          .range(0, 16)
          .integer()
          .group("model.detail")
          .help("Normalization layers in each block, each with d gains (most models: 2; Gemma "
                "2: 4); 0 counts no norms at all, not even the final one."),
      flag("norm_bias", &In::norm_bias, "LayerNorm with bias")
          .group("model.detail")
          .help("Norms with a bias as well as a gain (LayerNorm: GPT-2, GPT-3) rather than "
                "RMSNorm's gain only."),
      flag("relative_positions", &In::relative_positions, "Relative-position projection")
          .group("model.detail")
          .help("Transformer-XL relative positions: one more d × d projection per block "
                "(Gopher, Chinchilla)."),
      choice("attention_type", &In::attention, "Attention kind", {"standard", "mla"})
          .labels({"Standard (MHA, GQA or MQA)", "Multi-head latent (MLA, DeepSeek)"})
          .group("model.detail")
          .help("Multi-head latent attention caches one compressed latent per token instead of "
                "keys and values per head (DeepSeek-V2 and V3)."),
      num("q_lora_rank", &In::q_lora_rank, "Query compression rank (MLA)")
          .range(0, 1e6)
          .integer()
          .group("model.detail")
          .help("Multi-head latent attention: width the queries are compressed to (DeepSeek-V3: "
                "1,536); 0 for no compression."),
      num("latent_dim", &In::latent_dim, "KV latent width (MLA; 0 = 4 × head dim)")
          .range(0, 1e6)
          .integer()
          .group("model.detail")
          .help("Multi-head latent attention: width of the compressed key/value latent cached "
                "per token and layer (DeepSeek-V3: 512); 0 takes 4 × the head dimension, as "
                "DeepSeek-V2 chose."),
      num("rope_dim", &In::rope_dim, "Rotary key width (MLA; 0 = head dim ÷ 2)")
          .range(0, 1e5)
          .integer()
          .group("model.detail")
          .help("Multi-head latent attention: width of the shared rotary key cached with the "
                "latent (DeepSeek-V3: 64); 0 takes half the head dimension, as DeepSeek-V2 "
                "chose."),
      num("v_head_dim", &In::v_head_dim, "Value head width (MLA; 0 = head dim)")
          .range(0, 1e5)
          .integer()
          .group("model.detail")
          .help("Multi-head latent attention: width of one value head; 0 takes the head "
                "dimension."),
      num("window", &In::window, "Sliding window", unit::tokens)
          .range(0, 1e9)
          .integer()
          .group("model.detail")
          .help("Tokens a windowed layer attends to (Mistral 7B: 4,096); 0 for full attention "
                "everywhere."),
      num("window_every", &In::window_every, "Full-attention layer every")
          .range(0, 1e4)
          .integer()
          .group("model.detail")
          .help("Every n-th layer attends to the whole context and the others to the window "
                "(Gemma 2: 2); 0 windows every layer."),

      num("experts", &In::experts, "Routed experts")
          .range(0, 1e5)
          .integer()
          .group("model.moe")
          .help("Experts per mixture-of-experts layer; 0 for a dense model."),
      num("top_k", &In::top_k, "Experts per token")
          .range(0, 1e3)
          .integer()
          .group("model.moe")
          .help("Routed experts each token uses (mixture of experts only)."),
      num("shared_experts", &In::shared_experts, "Shared experts")
          .range(0, 1e3)
          .integer()
          .group("model.moe")
          .help("Experts every token uses besides the routed ones (DeepSeek: 1)."),
      num("expert_d_ff", &In::expert_d_ff, "Expert FFN width")
          .range(0, 1e7)
          .integer()
          .group("model.moe")
          .help("Inner width of one expert; 0 means the same as the FFN width."),
      num("dense_layers", &In::dense_layers, "Leading dense layers")
          .range(0, 1e5)
          .integer()
          .group("model.moe")
          .help("Layers at the start that keep a dense feed-forward block (DeepSeek-V3: 3)."),
      num("moe_every", &In::moe_every, "Expert layer every")
          .positive(1e4)
          .integer()
          .group("model.moe")
          .help("A mixture-of-experts block every n-th layer after the dense ones, dense in "
                "between (Switch Transformer: 2); 1 for every layer."),
  };
}

Result<Model> to_model(const ModelInputs& in, const ModelInputNames& names) {
  const bool mla = in.attention == "mla";
  if (in.head_dim == 0 && std::fmod(in.d_model, in.heads) != 0)
    return Error::inconsistent(names.heads, in.heads,
                               "must divide the hidden size (" + format_value(in.d_model, "") +
                                   ") unless the head dimension is given");
  if (!mla && (in.kv_heads > in.heads || (in.kv_heads > 0 && in.heads % in.kv_heads != 0)))
    return Error::inconsistent(names.kv_heads, in.kv_heads,
                               "must divide the attention heads (" + std::to_string(in.heads) +
                                   "): each KV head serves a whole group of query heads");
  if (in.experts > 0 && (in.top_k < 1 || in.top_k > in.experts))
    return Error::inconsistent(
        "top_k", in.top_k,
        "must be between 1 and the experts (" + std::to_string(in.experts) + ")");
  if (in.experts > 0 && in.dense_layers > in.layers)
    return Error::inconsistent("dense_layers", in.dense_layers,
                               "must be at most the layers (" + std::to_string(in.layers) + ")");
  Model m;
  m.layers = in.layers;
  m.d_model = in.d_model;
  m.heads = in.heads;
  m.kv_heads = in.kv_heads > 0 ? in.kv_heads : in.heads;
  m.head_dim = in.head_dim > 0 ? in.head_dim : in.d_model / in.heads;
  m.ffn = in.ffn == "swiglu" ? Ffn::Gated : Ffn::Mlp;
  // The usual widths: 4d for an MLP (Vaswani et al. 2017), and LLaMA's SwiGLU width 2/3 of
  // 4d rounded up to a multiple of 256 (Touvron et al. 2023, §2.2; LLaMA's model.py).
  m.d_ff = in.d_ff > 0           ? in.d_ff
           : m.ffn == Ffn::Gated ? 256 * std::ceil(8 * in.d_model / 3 / 256)
                                 : 4 * in.d_model;
  m.vocab = in.vocab;
  m.tied_embeddings = in.tied_embeddings;
  m.positions = in.positions;
  m.biases = in.biases;
  m.qkv_bias = in.qkv_bias;
  m.norms_per_layer = in.norms_per_layer;
  m.norm_bias = in.norm_bias;
  m.relative_positions = in.relative_positions;
  m.attention = mla ? AttentionKind::Mla : AttentionKind::Standard;
  if (mla) {
    // DeepSeek-V2 (DeepSeek-AI 2024), Table 1 and §3.1.2: a latent of d_c = 4·d_h and a
    // decoupled rotary key of d_h^R = d_h / 2 per token, where the widths are not given.
    m.q_lora_rank = in.q_lora_rank;
    m.kv_lora_rank = in.latent_dim > 0 ? in.latent_dim : 4 * m.head_dim;
    m.rope_dim = in.rope_dim > 0 ? in.rope_dim : m.head_dim / 2;
    m.v_head_dim = in.v_head_dim;
  }
  m.window = in.window;
  m.window_every = in.window > 0 ? in.window_every : 0;
  if (in.experts > 0) {
    m.experts = in.experts;
    m.top_k = in.top_k;
    m.shared_experts = in.shared_experts;
    m.expert_d_ff = in.expert_d_ff;
    m.dense_layers = in.dense_layers;
    m.moe_every = in.moe_every;
  } else {
    m.experts = m.top_k = m.shared_experts = m.dense_layers = 0;
    m.expert_d_ff = 0;
    m.moe_every = 1;
  }
  return m;
}

}  // namespace napkin
