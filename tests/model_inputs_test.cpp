// The shared model-shape inputs (core/scenario/model_inputs.hpp): one declaration, one
// to_model(), and model presets that fill every field, so `model=<id>` is the exact Model.
#include "scenario/model_inputs.hpp"

#include <string>

#include "helpers.hpp"
#include "scenario/model.hpp"
#include "training/train_step.hpp"

using namespace napkin;

namespace {

// Every field of the typed Model, for an exact comparison.
void check_same(const Model& a, const Model& b) {
  CHECK(a.layers == b.layers);
  CHECK(a.d_model == b.d_model);
  CHECK(a.heads == b.heads);
  CHECK(a.kv_heads == b.kv_heads);
  CHECK(a.head_dim == b.head_dim);
  CHECK(a.d_ff == b.d_ff);
  CHECK(a.ffn == b.ffn);
  CHECK(a.vocab == b.vocab);
  CHECK(a.tied_embeddings == b.tied_embeddings);
  CHECK(a.positions == b.positions);
  CHECK(a.biases == b.biases);
  CHECK(a.qkv_bias == b.qkv_bias);
  CHECK(a.norms_per_layer == b.norms_per_layer);
  CHECK(a.norm_bias == b.norm_bias);
  CHECK(a.relative_positions == b.relative_positions);
  CHECK(a.attention == b.attention);
  CHECK(a.q_lora_rank == b.q_lora_rank);
  CHECK(a.kv_lora_rank == b.kv_lora_rank);
  CHECK(a.rope_dim == b.rope_dim);
  CHECK(a.v_head_dim == b.v_head_dim);
  CHECK(a.window == b.window);
  CHECK(a.window_every == b.window_every);
  CHECK(a.experts == b.experts);
  CHECK(a.top_k == b.top_k);
  CHECK(a.shared_experts == b.shared_experts);
  CHECK(a.expert_d_ff == b.expert_d_ff);
  CHECK(a.dense_layers == b.dense_layers);
  CHECK(a.moe_every == b.moe_every);
}

// train.step's inputs as the registry fills them (presets, names, defaults), through to_model.
Result<Model> step_model_of(const Json& inputs) {
  const Estimator* e = registry().find("train.step");
  REQUIRE(e != nullptr);
  Json clean;
  Error err;
  if (!registry().validate("train.step", inputs, clean, err)) return err;
  TrainStepIn in;
  e->fill(&in, clean);
  return to_model(in, kStepModelNames);
}

}  // namespace

TEST_CASE("model=<preset> gives back the preset's exact Model through the shared inputs") {
  for (const ModelPreset* p = model_presets_begin(); p != model_presets_end(); ++p) {
    CAPTURE(p->id);
    Json in = Json::object();
    in.set("model", std::string(p->id));
    Result<Model> m = step_model_of(in);
    REQUIRE_MESSAGE(m.ok(), m.error().message);
    check_same(m.value(), p->model);
    // And the round trip through the struct alone.
    Result<Model> back = to_model(ModelInputs(p->model));
    REQUIRE(back.ok());
    check_same(back.value(), p->model);
  }
}

TEST_CASE("a shape input given by name overrides the model preset") {
  Json in = Json::object();
  in.set("model", "deepseek-v3");
  in.set("top_k", 4);
  Result<Model> m = step_model_of(in);
  REQUIRE(m.ok());
  CHECK(m.value().top_k == 4);
  CHECK(m.value().attention == AttentionKind::Mla);  // the rest stays DeepSeek-V3's
  CHECK(m.value().kv_lora_rank == 512);
  CHECK(m.value().dense_layers == 3);
}

TEST_CASE("to_model: defaults resolved, and inconsistent shapes are errors naming the input") {
  ModelInputs in;
  in.kv_heads = 0;  // multi-head attention
  in.head_dim = 0;  // d ÷ heads
  in.d_ff = 0;      // LLaMA's 8d/3 rounded up to 256: 4096 → 11008 (Touvron et al. 2023)
  in.d_model = 4096;
  in.heads = 32;
  Result<Model> m = to_model(in);
  REQUIRE(m.ok());
  CHECK(m.value().kv_heads == 32);
  CHECK(m.value().head_dim == 128);
  CHECK(m.value().d_ff == 11008);
  in.ffn = "mlp";
  CHECK(to_model(in).value().d_ff == 4 * 4096);

  ModelInputs gqa;
  gqa.kv_heads = 7;  // 64 heads: 7 does not divide them
  CHECK(to_model(gqa).error().input == "n_kv_heads");
  CHECK(to_model(gqa, kStepModelNames).error().input == "kv_heads");
  ModelInputs moe;
  moe.experts = 8;
  moe.top_k = 9;
  CHECK(to_model(moe).error().input == "top_k");
  // MLA without widths: DeepSeek-V2's, d_c = 4·d_h and d_h^R = d_h / 2 (DeepSeek-AI 2024,
  // DeepSeek-V2 Table 1: a cache of (d_c + d_h^R)·l = 9/2·d_h·l elements per token).
  ModelInputs mla;
  mla.attention = "mla";
  REQUIRE(to_model(mla).ok());
  CHECK(to_model(mla).value().kv_lora_rank == 4 * 128);
  CHECK(to_model(mla).value().rope_dim == 64);
  CHECK(kv_bytes_per_token(to_model(mla).value(), 1) == 4.5 * 128 * 80);
  ModelInputs odd;
  odd.head_dim = 0;
  odd.d_model = 1000;
  odd.heads = 3;
  odd.kv_heads = 3;
  CHECK(to_model(odd, kStepModelNames).error().input == "heads");
  // Through the registry, with train.step's names.
  auto e = test::error_of("train.step", {{"kv_heads", 5}});
  CHECK(e.input == "kv_heads");
}
