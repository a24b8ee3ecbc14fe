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

namespace {

// A choice input's values and what the page shows for each, "|"-separated in the same order.
struct Choices {
  const char* values;
  const char* labels;
};
const Choices kFfn{"mlp|swiglu", "GELU MLP (2 matrices)|SwiGLU (3 matrices)"};
const Choices kAttention{"standard|mla",
                         "Standard (MHA, GQA or MQA)|Multi-head latent (MLA, DeepSeek)"};

// One row per input, in the order the card shows them: data and one loop rather than a chain of
// builder calls per input, which cost several kilobytes of wasm. `alias` picks a name an
// estimator may have kept (ModelInputNames: 1 layers, 2 heads, 3 KV heads).
struct Row {
  const char *name, *label, *unit, *group, *meaning;
  double lo, hi;
  bool above, integer;
  const Choices* choices;
  unsigned char alias;
  const char* help;
};
const Row kRows[] = {
    {nullptr, "Layers", "", "model", "n_layers", 0, 1e5, true, true, nullptr, 1,
     "Transformer blocks in the model."},
    {"d_model", "Hidden size d", "", "model", nullptr, 0, 1e7, true, true, nullptr, 0,
     "Width of the residual stream: each token's vector between layers."},
    {nullptr, "Attention heads", "", "model", "n_heads", 0, 1e5, true, true, nullptr, 2,
     "Query heads per layer."},
    {nullptr, "KV heads (0 = as many as heads)", "", "model", "n_kv_heads", 0, 1e5, false, true,
     nullptr, 3,
     "Key/value heads: as many as the query heads for multi-head attention, fewer "
     "for grouped-query, 1 for multi-query; 0 takes the query heads."},
    {"head_dim", "Head dimension (0 = d ÷ heads)", "", "model", nullptr, 0, 1e5, false, true,
     nullptr, 0, "Width of one attention head; 0 takes the hidden size ÷ the heads."},
    {"d_ff", "FFN width (0 = usual)", "", "model", nullptr, 0, 1e7, false, true, nullptr, 0,
     "Inner width of the feed-forward block (per branch for SwiGLU); 0 takes 4d for "
     "an MLP, 8d/3 rounded up to 256 for SwiGLU."},
    {"ffn", "Feed-forward kind", "", "model", nullptr, 0, 1e30, false, false, &kFfn, 0,
     "GPT-style MLPs have two weight matrices; Llama-style SwiGLU has three."},
    {"vocab", "Vocabulary", "", "model", nullptr, 0, 1e8, false, true, nullptr, 0,
     "Tokens in the vocabulary: the rows of the embedding and the output layer."},
    {"tied_embeddings", "Tied embeddings", "", "model", nullptr, 0, 1e30, false, false, nullptr, 0,
     "The output layer reuses the input embedding matrix."},
    {"positions", "Learned positions", "", "model.detail", nullptr, 0, 1e8, false, true, nullptr, 0,
     "Rows of a learned position-embedding table (GPT-2: 1,024); 0 for rotary "
     "positions, which have no weights."},
    {"biases", "Biases on every linear layer", "", "model.detail", nullptr, 0, 1e30, false, false,
     nullptr, 0,
     "Bias vectors in the attention and feed-forward layers (GPT-2 and GPT-3: yes; "
     "Llama: no)."},
    {"qkv_bias", "Biases on Q, K, V only", "", "model.detail", nullptr, 0, 1e30, false, false,
     nullptr, 0, "Bias vectors on the query, key and value projections only (Qwen2.5)."},
    {"norms_per_layer", "Norm layers per block", "", "model.detail", nullptr, 0, 16, false, true,
     nullptr, 0,
     "Normalization layers in each block, each with d gains (most models: 2; Gemma "
     "2: 4); 0 counts no norms at all, not even the final one."},
    {"norm_bias", "LayerNorm with bias", "", "model.detail", nullptr, 0, 1e30, false, false,
     nullptr, 0,
     "Norms with a bias as well as a gain (LayerNorm: GPT-2, GPT-3) rather than "
     "RMSNorm's gain only."},
    {"relative_positions", "Relative-position projection", "", "model.detail", nullptr, 0, 1e30,
     false, false, nullptr, 0,
     "Transformer-XL relative positions: one more d × d projection per block "
     "(Gopher, Chinchilla)."},
    {"attention_type", "Attention kind", "", "model.detail", nullptr, 0, 1e30, false, false,
     &kAttention, 0,
     "Multi-head latent attention caches one compressed latent per token instead of "
     "keys and values per head (DeepSeek-V2 and V3)."},
    {"q_lora_rank", "Query compression rank (MLA)", "", "model.detail", nullptr, 0, 1e6, false,
     true, nullptr, 0,
     "Multi-head latent attention: width the queries are compressed to (DeepSeek-V3: "
     "1,536); 0 for no compression."},
    {"latent_dim", "KV latent width (MLA; 0 = 4 × head dim)", "", "model.detail", nullptr, 0, 1e6,
     false, true, nullptr, 0,
     "Multi-head latent attention: width of the compressed key/value latent cached "
     "per token and layer (DeepSeek-V3: 512); 0 takes 4 × the head dimension, as "
     "DeepSeek-V2 chose."},
    {"rope_dim", "Rotary key width (MLA; 0 = head dim ÷ 2)", "", "model.detail", nullptr, 0, 1e5,
     false, true, nullptr, 0,
     "Multi-head latent attention: width of the shared rotary key cached with the "
     "latent (DeepSeek-V3: 64); 0 takes half the head dimension, as DeepSeek-V2 "
     "chose."},
    {"v_head_dim", "Value head width (MLA; 0 = head dim)", "", "model.detail", nullptr, 0, 1e5,
     false, true, nullptr, 0,
     "Multi-head latent attention: width of one value head; 0 takes the head "
     "dimension."},
    {"window", "Sliding window", unit::tokens, "model.detail", nullptr, 0, 1e9, false, true,
     nullptr, 0,
     "Tokens a windowed layer attends to (Mistral 7B: 4,096); 0 for full attention "
     "everywhere."},
    {"window_every", "Full-attention layer every", "", "model.detail", nullptr, 0, 1e4, false, true,
     nullptr, 0,
     "Every n-th layer attends to the whole context and the others to the window "
     "(Gemma 2: 2); 0 windows every layer."},
    {"experts", "Routed experts", "", "model.moe", nullptr, 0, 1e5, false, true, nullptr, 0,
     "Experts per mixture-of-experts layer; 0 for a dense model."},
    {"top_k", "Experts per token", "", "model.moe", nullptr, 0, 1e3, false, true, nullptr, 0,
     "Routed experts each token uses (mixture of experts only)."},
    {"shared_experts", "Shared experts", "", "model.moe", nullptr, 0, 1e3, false, true, nullptr, 0,
     "Experts every token uses besides the routed ones (DeepSeek: 1)."},
    {"expert_d_ff", "Expert FFN width", "", "model.moe", nullptr, 0, 1e7, false, true, nullptr, 0,
     "Inner width of one expert; 0 means the same as the FFN width."},
    {"dense_layers", "Leading dense layers", "", "model.moe", nullptr, 0, 1e5, false, true, nullptr,
     0, "Layers at the start that keep a dense feed-forward block (DeepSeek-V3: 3)."},
    {"moe_every", "Expert layer every", "", "model.moe", nullptr, 0, 1e4, true, true, nullptr, 0,
     "A mixture-of-experts block every n-th layer after the dense ones, dense in "
     "between (Switch Transformer: 2); 1 for every layer."},
};

}  // namespace

// "d_model|<the heads' name>": static strings for the three spellings estimators use.
const char* head_dim_leaders(const ModelInputNames& names) {
  const std::string_view h = names.heads;
  return h == "heads" ? "d_model|heads" : "d_model|n_heads";
}

std::vector<InputDecl<ModelInputs>> model_input_decls(const ModelInputNames& names) {
  using In = ModelInputs;
  const FieldRef fields[] = {field_ref(NAPKIN_FIELD(In, layers)),
                             field_ref(NAPKIN_FIELD(In, d_model)),
                             field_ref(NAPKIN_FIELD(In, heads)),
                             field_ref(NAPKIN_FIELD(In, kv_heads)),
                             field_ref(NAPKIN_FIELD(In, head_dim)),
                             field_ref(NAPKIN_FIELD(In, d_ff)),
                             field_ref(NAPKIN_FIELD(In, ffn)),
                             field_ref(NAPKIN_FIELD(In, vocab)),
                             field_ref(NAPKIN_FIELD(In, tied_embeddings)),
                             field_ref(NAPKIN_FIELD(In, positions)),
                             field_ref(NAPKIN_FIELD(In, biases)),
                             field_ref(NAPKIN_FIELD(In, qkv_bias)),
                             field_ref(NAPKIN_FIELD(In, norms_per_layer)),
                             field_ref(NAPKIN_FIELD(In, norm_bias)),
                             field_ref(NAPKIN_FIELD(In, relative_positions)),
                             field_ref(NAPKIN_FIELD(In, attention)),
                             field_ref(NAPKIN_FIELD(In, q_lora_rank)),
                             field_ref(NAPKIN_FIELD(In, latent_dim)),
                             field_ref(NAPKIN_FIELD(In, rope_dim)),
                             field_ref(NAPKIN_FIELD(In, v_head_dim)),
                             field_ref(NAPKIN_FIELD(In, window)),
                             field_ref(NAPKIN_FIELD(In, window_every)),
                             field_ref(NAPKIN_FIELD(In, experts)),
                             field_ref(NAPKIN_FIELD(In, top_k)),
                             field_ref(NAPKIN_FIELD(In, shared_experts)),
                             field_ref(NAPKIN_FIELD(In, expert_d_ff)),
                             field_ref(NAPKIN_FIELD(In, dense_layers)),
                             field_ref(NAPKIN_FIELD(In, moe_every))};
  static_assert(sizeof fields / sizeof fields[0] == sizeof kRows / sizeof kRows[0]);
  const char* aliases[] = {nullptr, names.layers, names.heads, names.kv_heads};
  std::vector<InputDecl<In>> out(sizeof kRows / sizeof kRows[0]);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const Row& r = kRows[i];
    InputRow& s = out[i];
    s.field = fields[i];
    s.name = r.alias ? aliases[r.alias] : r.name;
    s.label = r.label;
    s.unit = r.unit;
    s.help = r.help;
    s.group = r.group;
    s.preset_key = r.meaning;
    // KV heads not given follow the query heads given: multi-head unless said otherwise.
    if (r.alias == 3) s.follows = names.heads;
    // Widths the shape derives (0 = from d and the heads) are derived again when d or the
    // heads are typed without them. (The names of this input list: d_model, and the heads'.)
    if (r.name && (std::string_view(r.name) == "head_dim" || std::string_view(r.name) == "d_ff"))
      s.derived_when = std::string_view(r.name) == "d_ff" ? "d_model" : head_dim_leaders(names);
    s.kind = fields[i].type == FieldType::Bool ? InputKind::Boolean
             : r.choices                       ? InputKind::Choice
                                               : InputKind::Number;
    s.min = r.lo;
    s.max = r.hi;
    s.min_exclusive = r.above;
    s.integer = r.integer;
    if (r.choices) {
      s.choices = r.choices->values;
      s.choice_labels = r.choices->labels;
    }
  }
  return out;
}

void insert_model_inputs(Estimator& e, std::size_t at, const void* defaults, const Via& via,
                         const ModelInputNames& names) {
  std::vector<InputSpec> specs;
  std::vector<FieldRef> fields;
  for (auto& d : model_input_decls(names)) {
    d.field.via = via;
    specs.push_back(input_spec(d, defaults));
    fields.push_back(d.field);
  }
  e.inputs.insert(e.inputs.begin() + static_cast<std::ptrdiff_t>(at),
                  std::make_move_iterator(specs.begin()), std::make_move_iterator(specs.end()));
  e.input_fields.insert(e.input_fields.begin() + static_cast<std::ptrdiff_t>(at), fields.begin(),
                        fields.end());
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

void insert_sized_model_inputs(Estimator& e, std::size_t at, const void* defaults, const Via& via) {
  using S = SizedModelInputs;
  insert_model_inputs(e, at, defaults, via.then(&base_at<S, ModelInputs>), {});
  const InputDecl<S> rows[] = {
      num("params", NAPKIN_FIELD(S, params), "Parameters (0 = from the model shape)", unit::params)
          .help("Every weight, all experts included (what memory holds); 0 counts the shape's")
          .range(0, 1e15)
          .group("model"),
      num("active_params", NAPKIN_FIELD(S, active_params), "Active parameters (0 = from the shape)",
          unit::params)
          .help("Weights each token computes with (Mixtral 8x7B: 12.9B of 46.7B); 0 counts "
                "the shape's; a dense model uses all of them")
          .range(0, 1e15)
          .group("model.moe")};
  std::vector<InputSpec> specs;
  std::vector<FieldRef> fields;
  for (InputRow r : rows) {
    r.field.via = via;
    specs.push_back(input_spec(r, defaults));
    fields.push_back(r.field);
  }
  e.inputs.insert(e.inputs.begin() + static_cast<std::ptrdiff_t>(at), specs.begin(), specs.end());
  e.input_fields.insert(e.input_fields.begin() + static_cast<std::ptrdiff_t>(at), fields.begin(),
                        fields.end());
}

void parameter_count_step(Derivation& d, const ModelParams& p, const char* symbol) {
  d.step(
      "Parameters of the model shape: embeddings and head, attention, feed-forward (every "
      "expert), norms",
      symbol, "$E + $A + $F + $R",
      {{"E", "P_{\\text{emb}}", p.embedding, unit::params},
       {"A", "P_{\\text{attn}}", p.attention, unit::params},
       {"F", "P_{\\text{ffn}}", p.ffn_total, unit::params},
       {"R", "P_{\\text{norm}}", p.norms, unit::params}},
      p.total, unit::params);
}

Result<SizedModel> to_sized_model(const SizedModelInputs& in, Derivation& d) {
  Result<Model> built = to_model(in);
  if (!built.ok()) return built.error();
  SizedModel s{built.value()};
  const ModelParams p = model_params(s.model);
  s.shape_active = p.active;
  s.total = in.params > 0 ? in.params : p.total;
  if (in.params <= 0) parameter_count_step(d, p, "N");
  if (s.model.experts == 0) {
    // Dense: every weight acts on every token. An active count typed below the total (a
    // mixture of experts whose routing the shape does not describe: Mixtral as 46.7B with
    // 12.9B active) is what the user asked for, and is used (issue #27: it was ignored); one at
    // or above the total is a dense model's own count.
    if (in.active_params > 0 && in.active_params < s.total) {
      s.active = in.active_params;
      d.note("Active parameters, as given",
             "N_a = " + format_value(s.active, unit::params) +
                 ": the weights one token computes with (the shape describes no experts).");
    } else {
      s.active = s.total;
    }
    return s;
  }
  s.active = in.active_params > 0 ? in.active_params : p.active;
  if (s.active > s.total)
    return Error::inconsistent(
        "active_params", s.active,
        "must be at most params (" + format_value(s.total, unit::params) +
            "): the active parameters are a part of all of them" +
            (in.active_params > 0 ? "" : " (this is the shape's count; give active_params)"));
  if (in.active_params > 0) {
    d.note("Active parameters, as given",
           "N_a = " + format_value(s.active, unit::params) +
               ": the weights one token computes with (the routed experts it uses).");
    return s;
  }
  // The shape's count: every weight but the routed experts a token does not use.
  d.step("Active parameters (mixture of experts: the weights one token computes with)", "N_a",
         "$E + $A + $F + $R",
         {{"E", "P_{\\text{emb}}", p.embedding, unit::params},
          {"A", "P_{\\text{attn}}", p.attention, unit::params},
          {"F", "P_{\\text{ffn,active}}", p.ffn_active, unit::params},
          {"R", "P_{\\text{norm}}", p.norms, unit::params}},
         s.active, unit::params);
  return s;
}

// Kaplan et al. 2020 Table 1 (C_forward = 2N + 2·n_layer·n_ctx·d_attn), through the one
// function: a count given by name (params = 1B on a shape of another size) scales the shape's
// weight term by given ÷ shape's active parameters; the shape keeps the attention term.
double forward_flops_per_token(const SizedModel& s, double context, bool causal) {
  if (s.active == s.shape_active) return forward_flops_per_token(s.model, context, causal);
  return attention_flops_per_token(s.model, context, causal) +
         forward_flops_per_token(s.model, 0, causal) * s.active / s.shape_active;
}

double forward_flops_step(const SizedModel& s, double context, bool causal, Derivation& d) {
  const Model& m = s.model;
  const double f = forward_flops_per_token(s, context, causal);
  const double attn = attention_flops_per_token(m, context, causal);
  const double vd =
      m.attention == AttentionKind::Mla && m.v_head_dim > 0 ? m.v_head_dim : m.head_dim;
  const double qk = m.head_dim + (m.attention == AttentionKind::Mla ? m.rope_dim : 0);
  d.step(causal ? "Forward FLOPs per token: weights + causal attention"
                : "FLOPs of a decoded token: weights + attention to s cached",
         causal ? "F_{\\text{fwd}}" : "F_{\\text{dec}}",
         causal ? "2 \\cdot $N + 2 \\cdot \\frac{$s}{2} \\cdot $h \\cdot ($q + $v) \\cdot $L"
                : "2 \\cdot $N + 2 \\cdot $s \\cdot $h \\cdot ($q + $v) \\cdot $L",
         {{"N", "N_{\\text{active}}", (f - attn) / 2, unit::params},
          {"s", "s", context, unit::tokens},
          {"h", "h", double(m.heads)},
          {"q", "d_{qk}", qk},
          {"v", "d_v", vd},
          {"L", "L", double(m.layers)}},
         f, unit::flop_per_token);
  if (m.window > 0 && context > m.window)
    d.note("Sliding window", "Windowed layers attend to their window only.");
  return f;
}

}  // namespace napkin
