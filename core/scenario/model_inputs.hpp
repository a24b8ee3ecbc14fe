// The model-shape inputs, declared once (docs/architecture.md, The scenario): every estimator that
// takes a model's shape derives its input struct from ModelInputs, adds the shape inputs to its
// declaration with with_model_inputs<In>(declare<In, Out>(…), at), and builds the one typed Model
// with to_model(). Labels, help, ranges, preset meanings and groups live in model_inputs.cpp only;
// a model preset (catalog.cpp) fills every one of them.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "registry/registry.hpp"
#include "scenario/model.hpp"

namespace napkin {

// Members mirror Model's; the input names are the preset meanings (n_layers, n_heads, …)
// unless an estimator kept older names (ModelInputNames). Defaults: Llama 3 70B.
struct ModelInputs {
  // Shape (group "model").
  int layers = 80, heads = 64;
  int kv_heads = 8;       // 0 = heads
  double d_model = 8192;  //
  double head_dim = 128;  // 0 = d_model / heads
  double d_ff = 28672;    // 0 = 4·d (MLP) or 8d/3 rounded up to 256 (SwiGLU)
  std::string ffn = "swiglu";
  double vocab = 128256;
  bool tied_embeddings = false;
  // Details most models share (group "model.detail", folded on the page).
  double positions = 0;
  bool biases = false, qkv_bias = false, norm_bias = false, relative_positions = false;
  int norms_per_layer = 2;
  std::string attention = "standard";  // standard | mla
  double q_lora_rank = 0, latent_dim = 0, rope_dim = 0, v_head_dim = 0;
  double window = 0;
  int window_every = 0;
  // Mixture of experts (group "model.moe", folded on the page).
  int experts = 0, top_k = 0, shared_experts = 0, dense_layers = 0, moe_every = 1;
  double expert_d_ff = 0;

  ModelInputs() = default;
  explicit ModelInputs(const Model& m);  // the inputs that give back m
};

// Input names an estimator kept from before the shared declaration (train.step: layers, heads,
// kv_heads). The preset meanings stay n_layers, n_heads, n_kv_heads whatever the names.
struct ModelInputNames {
  const char* layers = "n_layers";
  const char* heads = "n_heads";
  const char* kv_heads = "n_kv_heads";
};

// The declaration of every shape input over ModelInputs (non-template: one copy in wasm).
std::vector<InputDecl<ModelInputs>> model_input_decls(const ModelInputNames& names);

// Inserts the shape inputs into a declared estimator at position `at` (after its first `at`
// inputs), their defaults read from `defaults`, an object of the estimator's input struct, whose
// ModelInputs base `via` reaches. Not a template: one copy in wasm for every estimator.
void insert_model_inputs(Estimator& e, std::size_t at, const void* defaults, const Via& via,
                         const ModelInputNames& names);

// An estimator declared over In (derived from ModelInputs) with the shape inputs inserted after
// its first `at` inputs: r.add(with_model_inputs<In>(declare<In, Out>(…), 0)).
template <class In>
Estimator with_model_inputs(Estimator e, std::size_t at, const ModelInputNames& names = {}) {
  static_assert(std::is_base_of_v<ModelInputs, In>, "In must derive from ModelInputs");
  const In defaults{};
  insert_model_inputs(e, at, &defaults, Via{}.then(&base_at<In, ModelInputs>), names);
  return e;
}

// The one conversion from the inputs to the typed Model: defaults resolved (0 KV heads = MHA,
// 0 head dim = d ÷ heads, 0 FFN width = the usual multiple), MoE fields ignored for a dense
// model, and the cross-input checks (KV heads divide the heads, top-k within the experts, …)
// as errors naming the input under the estimator's `names`. MLA without widths takes
// DeepSeek-V2's (a latent of 4 head widths, a rotary key of half one).
Result<Model> to_model(const ModelInputs& in, const ModelInputNames& names = {});

// The shape and the two counts of an estimator that sizes weights from a model (infer.latency,
// serve.llm_gpus, rl.throughput): `params` all weights, `active_params` the weights one token
// computes with; 0 takes each from the shape's one count (model_params), which a model preset
// also gives. Inserted before the shape inputs by with_sized_model_inputs.
struct SizedModelInputs : ModelInputs {
  double params = 0;
  double active_params = 0;
};

// The typed model and its counts: the shape's (model_params), or those given. A dense model
// computes with every weight; a mixture of experts with active_params, or the shape's active
// count. Errors name the input: active parameters beyond all of them.
struct SizedModel {
  Model model;
  double total = 0, active = 0;
  double shape_active = 0;  // the shape's own active count (model_params)
};
Result<SizedModel> to_sized_model(const SizedModelInputs& in, Derivation& d);

// The derivation step of a model's parameter count from its shape, as the sum of its parts
// (embeddings and output head, attention, feed-forward with every expert, norms), under the
// estimator's own symbol for it (N, \Psi).
void parameter_count_step(Derivation& d, const ModelParams& p, const char* symbol);

// Forward FLOPs per token of a sized model at a context: model.hpp's forward_flops_per_token on
// the shape, its weight term scaled by the given active count ÷ the shape's when one is given.
double forward_flops_per_token(const SizedModel& s, double context, bool causal);

// The same as a derivation step (symbol F_fwd causal, F_dec not), the attention term's numbers
// shown: 2·N + 2·(s/2)·h·(d_qk + d_v)·L.
double forward_flops_step(const SizedModel& s, double context, bool causal, Derivation& d);

// The sized model's inputs (params, active_params, then the shape's), their struct reached by
// `via` from the estimator's.
void insert_sized_model_inputs(Estimator& e, std::size_t at, const void* defaults, const Via& via);
template <class In>
Estimator with_sized_model_inputs(Estimator e, std::size_t at) {
  static_assert(std::is_base_of_v<SizedModelInputs, In>, "In must derive from SizedModelInputs");
  const In defaults{};
  insert_sized_model_inputs(e, at, &defaults, Via{}.then(&base_at<In, SizedModelInputs>));
  return e;
}

}  // namespace napkin
