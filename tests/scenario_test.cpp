// The scenario's shared descriptions (SPEC §8): real models from their released configs, with
// parameter counts pinned exactly where the released weights define them, and the one function
// per derived quantity that every estimator is to call.
#include <cmath>
#include <string>

#include "helpers.hpp"
#include "scenario/cluster.hpp"
#include "scenario/model.hpp"
#include "scenario/model_inputs.hpp"

using namespace napkin;

namespace {
const Model& preset(const char* id) {
  const ModelPreset* p = find_model(id);
  REQUIRE_MESSAGE(p != nullptr, id);
  return p->model;
}
}  // namespace

TEST_CASE("model presets: exact parameter counts of the released weights") {
  // Sums of the tensor sizes in each model's Hugging Face checkpoint (config.json shapes;
  // e.g. the Llama 2 paper's "7B" is 6,738,415,616 weights).
  struct Pin {
    const char* id;
    double total;
  };
  const Pin pins[] = {
      {"gpt2", 124439808},           {"llama2-7b", 6738415616},    {"llama2-13b", 13015864320},
      {"llama2-70b", 68976648192},   {"llama3-8b", 8030261248},    {"llama3-70b", 70553706496},
      {"llama3-405b", 405853388800}, {"mistral-7b", 7241732096},   {"mixtral-8x7b", 46702792704},
      {"qwen2.5-7b", 7615616512},    {"qwen2.5-72b", 72706203648}, {"gemma2-9b", 9241705984},
      {"gemma2-27b", 27227128320},
  };
  for (const Pin& p : pins) {
    CAPTURE(p.id);
    CHECK(model_params(preset(p.id)).total == p.total);
  }
}

// The tensors each released checkpoint stores: the entries of its model.safetensors.index.json
// weight map on Hugging Face (meta-llama/Meta-Llama-3-8B: 32 layers × 9 + embeddings, final norm
// and head; Qwen/Qwen2.5-7B: Q, K and V biases too; mistralai/Mixtral-8x7B-v0.1: 8 experts of
// 3 matrices and a router per layer).
TEST_CASE("model presets: tensors in the released checkpoints") {
  CHECK(checkpoint_tensors(preset("llama3-8b")) == 291);
  CHECK(checkpoint_tensors(preset("qwen2.5-7b")) == 339);
  CHECK(checkpoint_tensors(preset("mixtral-8x7b")) == 995);
}

TEST_CASE("model presets: published sizes where only a rounded figure exists") {
  // GPT-3 175B (Brown et al. 2020, Table 2.1): 174.6B from its shape, reported as 175.0B.
  CHECK(model_params(preset("gpt3")).total == doctest::Approx(175e9).epsilon(0.005));
  // MT-NLG 530B (Smith et al. 2022, Table 1: 105 layers, d = 20480, 128 heads).
  CHECK(model_params(preset("mt-nlg-530b")).total == doctest::Approx(530e9).epsilon(0.005));
  // Mixtral 8x22B: "141B total, 39B active" (Mistral AI, April 2024).
  CHECK(model_params(preset("mixtral-8x22b")).total == doctest::Approx(141e9).epsilon(0.005));
  CHECK(model_params(preset("mixtral-8x22b")).active == doctest::Approx(39e9).epsilon(0.01));
  // DeepSeek-V3 (DeepSeek-AI 2024, §1): 671B total, 37B activated per token, without the
  // 14B multi-token-prediction module.
  const ModelParams ds = model_params(preset("deepseek-v3"));
  CHECK(ds.total == doctest::Approx(671e9).epsilon(0.001));
  CHECK(ds.active == doctest::Approx(37e9).epsilon(0.02));
}

TEST_CASE("MoE: active parameters count top-k and shared experts only") {
  // Mixtral 8x7B (Jiang et al. 2024, §2): 47B parameters, 13B active per token.
  const ModelParams mx = model_params(preset("mixtral-8x7b"));
  CHECK(mx.active == 12879925248);
  CHECK(mx.active / mx.total == doctest::Approx(0.2758).epsilon(1e-3));
  // Dense models: active = total.
  const ModelParams l3 = model_params(preset("llama3-70b"));
  CHECK(l3.active == l3.total);
  // Expected distinct experts at batch B (uniform routing): E·(1 − (1 − k/E)^B).
  CHECK(expected_experts_touched(preset("mixtral-8x7b"), 1) == doctest::Approx(2));
  CHECK(expected_experts_touched(preset("mixtral-8x7b"), 16) ==
        doctest::Approx(8 * (1 - std::pow(0.75, 16))));
  CHECK(expected_experts_touched(preset("llama3-70b"), 16) == 0);
}

TEST_CASE("KV bytes per token: GQA, MQA-like and MLA from one function") {
  // Llama 2 70B, BF16: 2 · 80 layers · 8 KV heads · 128 · 2 B = 327,680 B.
  CHECK(kv_bytes_per_token(preset("llama2-70b"), 2) == 327680);
  // DeepSeek-V3 MLA: 61 layers · (512 + 64) · 2 B = 70,272 B (DeepSeek-V2 Table 1's rule).
  CHECK(kv_bytes_per_token(preset("deepseek-v3"), 2) == 70272);
  // GPT-3 (MHA): 2 · 96 · 12288 · 2 B = 4.72 MB per token.
  CHECK(kv_bytes_per_token(preset("gpt3"), 2) == 2.0 * 96 * 12288 * 2);
  // FP8 cache halves it.
  CHECK(kv_bytes_per_token(preset("llama3-8b"), 1) == 65536);
}

TEST_CASE("forward FLOPs per token: 2 per active weight plus causal attention") {
  // GPT-3 at a 2048 context (Kaplan et al. 2020, Table 1): 2N + 2·L·n_ctx·d_attn per token
  // forward without the causal halving; with it the attention term halves.
  const Model& g = preset("gpt3");
  const ModelParams p = model_params(g);
  const double n_non_embedding = p.total - 50257.0 * 12288 - 2048.0 * 12288;
  const double head = 2 * 50257.0 * 12288;
  CHECK(forward_flops_per_token(g, 2048, false) ==
        doctest::Approx(2 * n_non_embedding + head + 4 * 96 * 2048.0 * 12288));
  CHECK(forward_flops_per_token(g, 2048, true) ==
        doctest::Approx(2 * n_non_embedding + head + 2 * 96 * 2048.0 * 12288));
  // MoE: Mixtral costs what its 12.9B active weights cost, not 46.7B.
  const double mx = forward_flops_per_token(preset("mixtral-8x7b"), 1, true);
  CHECK(
      mx ==
      doctest::Approx(2 * model_params(preset("mixtral-8x7b")).non_embedding_active).epsilon(1e-4));
  // Sliding windows cap the attention term (Mistral 7B: 4,096 tokens).
  const Model& mi = preset("mistral-7b");
  CHECK(forward_flops_per_token(mi, 32768, false) == forward_flops_per_token(mi, 4096, false));
}

TEST_CASE("accelerators: dense peaks per dtype and capacities as vendors mean them") {
  const Gpu* h100 = find_gpu("h100");
  REQUIRE(h100);
  CHECK(peak_flops(*h100, Dtype::Bf16) == 989.4e12);  // H100 SXM datasheet, dense
  CHECK(peak_flops(*h100, Dtype::Fp8) == 1978.9e12);
  CHECK(h100->hbm_bytes == 80.0 * 1073741824);  // "80 GB" is 80 GiB (81,920 MiB)
  const Gpu* a100 = find_gpu("a100");
  REQUIRE(a100);
  CHECK(peak_flops(*a100, Dtype::Bf16) == 312e12);
  CHECK(peak_flops(*a100, Dtype::Fp8) == 0);  // no FP8 path on Ampere
  for (const char* id : {"a100", "a100-40gb", "h100", "h100-pcie", "h200", "b200", "gb200",
                         "mi300x", "tpu-v4", "tpu-v5e", "tpu-v5p", "l4", "rtx4090"}) {
    CAPTURE(id);
    const Gpu* g = find_gpu(id);
    REQUIRE(g);
    CHECK(g->peak_bf16 > 0);
    CHECK(g->hbm_bytes > 0);
    CHECK(g->hbm_bandwidth > 0);
    CHECK_FALSE(g->source.empty());
    REQUIRE(find_cluster(id));
  }
  CHECK(find_cluster("gb200")->gpus_per_node == 72);
  CHECK(find_tier("nvlink4")->in_switch_reduction);
  CHECK_FALSE(find_tier("nvlink3")->in_switch_reduction);
}

TEST_CASE("every model preset has a source, sensible shapes and a published size nearby") {
  int n = 0;
  for (const ModelPreset* p = model_presets_begin(); p != model_presets_end(); ++p, ++n) {
    CAPTURE(p->id);
    CHECK_FALSE(p->source.empty());
    CHECK(p->model.heads % p->model.kv_heads == 0);
    const double total = model_params(p->model).total;
    CHECK(std::fabs(total / p->published_params - 1) < 0.04);
  }
  CHECK(n >= 16);
}

TEST_CASE("consistency: every estimator reports a model preset's KV bytes per token alike") {
  // Driven by the registry: any estimator with a KV-bytes-per-token output, run on any model
  // preset through `model=`, must agree with the one function (BF16 cache by default).
  for (const ModelPreset* p = model_presets_begin(); p != model_presets_end(); ++p) {
    const double expected = kv_bytes_per_token(p->model, 2);
    const Preset* values = nullptr;
    for (const Preset& q : registry().presets())
      if (q.kind == "model" && q.id == p->id) values = &q;
    REQUIRE(values);
    int compared = 0;
    for (const Estimator& e : registry().estimators()) {
      for (const OutputSpec& o : e.outputs) {
        if (o.name != "kv_bytes_per_token" && !(o.name == "bytes_per_token" && o.unit == "B/tok"))
          continue;
        Json in = Json::object();
        for (const InputSpec& i : e.inputs)  // what the preset does not say, from the example
          if (i.required && !values->values.has(i.preset_key.empty() ? i.name : i.preset_key))
            in.set(i.name, i.example);
        in.set("model", std::string(p->id));
        RunResult r = registry().run(e.info.id, in);
        CAPTURE(p->id);
        CAPTURE(e.info.id);
        REQUIRE_MESSAGE(r.ok, r.error.message);
        CHECK(r.outputs.find(o.name)->as_number() == expected);
        ++compared;
      }
    }
    CHECK(compared >= 2);
  }
}

TEST_CASE("consistency: every estimator reports a model preset's active params and FLOPs alike") {
  // Driven by the registry: any estimator with an `active_params` or `forward_flops_per_token`
  // output, run on any model preset through `model=`, must agree with the one function. An
  // estimator whose required inputs the preset does not all give (moe.params on a dense model)
  // is not describing that model, and is skipped.
  int active_compared = 0, flops_compared = 0;
  for (const ModelPreset* p = model_presets_begin(); p != model_presets_end(); ++p) {
    const ModelParams expected = model_params(p->model);
    const Preset* values = nullptr;
    for (const Preset& q : registry().presets())
      if (q.kind == "model" && q.id == p->id) values = &q;
    REQUIRE(values);
    for (const Estimator& e : registry().estimators()) {
      bool has_active = false, has_flops = false;
      for (const OutputSpec& o : e.outputs) {
        has_active = has_active || o.name == "active_params";
        has_flops = has_flops || o.name == "forward_flops_per_token";
      }
      if (!has_active && !has_flops) continue;
      // A required input the preset does not give is taken from the example when it is not a
      // model quantity (a prompt length); one that other model presets give (moe.params' experts
      // on a dense model) means the estimator does not describe this model: skipped.
      bool from_preset = true;
      Json job = Json::object();
      for (const InputSpec& i : e.inputs) {
        const std::string key = i.preset_key.empty() ? i.name : i.preset_key;
        if (!i.required || values->values.has(key)) continue;
        bool model_quantity = false;
        for (const Preset& q : registry().presets())
          model_quantity = model_quantity || (q.kind == "model" && q.values.has(key));
        if (model_quantity)
          from_preset = false;
        else
          job.set(i.name, i.example);
      }
      if (!from_preset) continue;
      for (bool attention : {false, true}) {
        Json in = job;
        in.set("model", std::string(p->id));
        // Count attention wherever the estimator lets it be left out.
        if (attention && !e.input("include_attention")) continue;
        if (e.input("include_attention")) in.set("include_attention", attention);
        RunResult r = registry().run(e.info.id, in);
        CAPTURE(p->id);
        CAPTURE(e.info.id);
        REQUIRE_MESSAGE(r.ok, r.error.message);
        if (has_active) {
          CHECK(r.outputs.find("active_params")->as_number() ==
                doctest::Approx(expected.active).epsilon(1e-12));
          ++active_compared;
        }
        if (has_flops) {
          // The context the estimator used: its sequence length, unless attention is off.
          const Json* seq = r.inputs.find("seq_len");
          const Json* counted = r.inputs.find("include_attention");
          const Json* causal = r.inputs.find("causal");
          const double ctx = seq && (!counted || counted->as_bool()) ? seq->as_number() : 0;
          CHECK(r.outputs.find("forward_flops_per_token")->as_number() ==
                forward_flops_per_token(p->model, ctx, !causal || causal->as_bool()));
          ++flops_compared;
        }
      }
    }
  }
  // model.params, model.flops and infer.latency on every preset (and moe.params on the MoE
  // ones), at least.
  CHECK(active_compared >= 3 * 19);
  CHECK(flops_compared >= 2 * 19);
}

TEST_CASE("consistency: infer.latency, serve.llm_gpus and rl.throughput price FLOPs alike") {
  // Each shows the forward FLOPs per token it prices (F_fwd) in its derivation: over the prompt
  // (a prefill) or over prompt + response (rl.throughput's scoring and training). On every
  // model preset that number must be the one function's, causal attention included (Kaplan et
  // al. 2020 Table 1), as model.flops and train.step give; infer.latency's prefill FLOPs are
  // batch × prompt × it.
  struct Use {
    const char* id;
    bool response;  // the context is prompt + response
  };
  int compared = 0;
  for (const ModelPreset* p = model_presets_begin(); p != model_presets_end(); ++p) {
    for (Use u :
         {Use{"infer.latency", false}, Use{"serve.llm_gpus", false}, Use{"rl.throughput", true}}) {
      const std::string id = u.id;
      const Estimator* e = registry().find(id);
      REQUIRE(e);
      Json in = Json::object();
      for (const InputSpec& i : e->inputs)
        if (i.required) in.set(i.name, i.example);
      in.set("model", std::string(p->id));
      if (id == "rl.throughput") in.set("total_gpus", 4096);  // DeepSeek-V3 fits
      RunResult r = registry().run(u.id, in);
      CAPTURE(p->id);
      CAPTURE(id);
      REQUIRE_MESSAGE(r.ok, r.error.message);
      Json steps;  // the derivation is kept as raw JSON text: read it back
      std::string why;
      REQUIRE(Json::parse(r.steps.dump(), steps, why));
      const double prompt = r.inputs.find("prompt_len")->as_number();
      const double ctx = prompt + (u.response ? r.inputs.find("gen_len")->as_number() : 0);
      const double expected = forward_flops_per_token(p->model, ctx, true);
      int shown = 0;
      for (std::size_t k = 0; k < steps.size(); ++k) {
        const Json* f = steps[k].find("formula");
        if (!f || f->as_string().rfind("F_{\\text{fwd}} =", 0) != 0) continue;
        CHECK(steps[k].find("value")->as_number() == doctest::Approx(expected).epsilon(1e-12));
        ++shown;
      }
      CHECK(shown == 1);
      if (const Json* c = r.outputs.find("prefill_flops"))
        CHECK(c->as_number() ==
              doctest::Approx(r.inputs.find("batch")->as_number() * prompt * expected)
                  .epsilon(1e-12));
      ++compared;
    }
  }
  CHECK(compared >= 3 * 19);
}

TEST_CASE("model= runs: exact parameter counts of released checkpoints through the registry") {
  auto params = [](const char* id) { return test::run("model.params", {{"model", id}}); };
  // Meta-Llama-3-70B config.json (80 layers, d 8192, 64 heads, 8 KV heads, d_ff 28672, vocab
  // 128256, untied): the checkpoint's tensors sum to 70,553,706,496.
  CHECK(test::out(params("llama3-70b"), "params") == 70553706496.0);
  // GPT-2 small, Hugging Face gpt2 config.json (12 layers, d 768, 1024 learned positions, tied
  // 50257-token embedding, biases, LayerNorm with biases): 124,439,808 in the checkpoint.
  CHECK(test::out(params("gpt2"), "params") == 124439808.0);
  CHECK(test::out(params("gpt2"), "active_params") == 124439808.0);
  // Mixtral-8x7B-v0.1 config.json (32 layers, 8 experts of d_ff 14336, top-2): 46,702,792,704
  // weights, of which 12,879,925,248 act on each token (Jiang et al. 2024 §2: "47B", "13B").
  RunResult mx = params("mixtral-8x7b");
  CHECK(test::out(mx, "params") == 46702792704.0);
  CHECK(test::out(mx, "active_params") == 12879925248.0);
  // DeepSeek-V3 (DeepSeek-AI 2024, §1 and Table 1 of the report: 671B total, 37B activated;
  // config.json: MLA, 256 routed experts of 2048, top-8, 1 shared, 3 dense layers).
  RunResult ds = params("deepseek-v3");
  CHECK(test::out(ds, "params") == doctest::Approx(671.0e9).epsilon(0.0005));
  CHECK(test::out(ds, "active_params") == doctest::Approx(37.6e9).epsilon(0.002));
  // The derivation shows the MoE terms: one expert, the router, all experts and the active.
  const std::string text = RunResult(mx).to_json("model.params").dump();
  CHECK(text.find("One expert's weights per MoE layer") != std::string::npos);
  CHECK(text.find("Active parameters (what one token computes with)") != std::string::npos);
}

TEST_CASE("model.flops on Mixtral: 2 per active weight plus causal attention, 6N on active") {
  // Mixtral-8x7B at 4,096 tokens: 2 FLOPs per active weight less the input embedding (12.88B
  // − 32000·4096), and causal attention 2·(s/2)·32 heads·(128 + 128)·32 layers
  // (Kaplan et al. 2020, Table 1, halved for the causal mask).
  RunResult r = test::run(
      "model.flops", {{"model", "mixtral-8x7b"}, {"seq_len", 4096}, {"include_attention", true}});
  REQUIRE(r.ok);
  const double active = 12879925248.0, embedding = 32000.0 * 4096;
  const double attention = 2 * 2048.0 * 32 * 256 * 32;
  CHECK(test::out(r, "attention_flops_per_token") == attention);
  CHECK(test::out(r, "forward_flops_per_token") == 2 * (active - embedding) + attention);
  CHECK(test::out(r, "active_params") == active);
  // The 6N rule on the active weights (not the 46.7B total): a step is 3 forward passes.
  CHECK(test::out(r, "params_used") == active - embedding);
  CHECK(test::out(r, "ratio_to_6n") ==
        doctest::Approx(3 * (2 * (active - embedding) + attention) / (6 * (active - embedding))));
  // Compute estimators read the active count from the preset: 6·N·D on 12.9B, not 46.7B.
  RunResult t = test::run("train.chinchilla", {{"model", "mixtral-8x7b"}});
  REQUIRE(t.ok);
  CHECK(t.inputs.find("params")->as_number() == active);
}

TEST_CASE("a model, GPU or link preset fills an estimator's inputs by name; named inputs win") {
  Json in = Json::object();
  in.set("model", "llama3-70b");
  in.set("gpu", "h100");
  in.set("gpus", 1024);
  RunResult r = registry().run("train.time", in);
  REQUIRE(r.ok);
  CHECK(r.inputs.find("params")->as_number() == 70553706496);
  CHECK(r.inputs.find("tokens")->as_number() == 15e12);
  CHECK(r.inputs.find("peak_flops")->as_number() == 989.4e12);
  // The derivation says where the numbers came from.
  const std::string text = RunResult(r).to_json("train.time").dump();
  CHECK(text.find("\"title\":\"From Llama 3 70B\"") != std::string::npos);
  CHECK(text.find("params = 70.55B") != std::string::npos);
  in.set("params", "70B");  // an input given by name overrides the preset
  CHECK(registry().run("train.time", in).inputs.find("params")->as_number() == 70e9);
  in.set("model", "gpt-5");
  RunResult bad = registry().run("train.time", in);
  CHECK_FALSE(bad.ok);
  CHECK(bad.error.input == "model");
}

TEST_CASE("Chinchilla's 70B: Transformer-XL's relative-position projection completes the count") {
  // Hoffmann et al. 2022, Table 4: 80 layers, d 8192, 64 heads of 128, "70B". 12·L·d² plus the
  // tied 32k embedding is 64.7B; Transformer-XL attention (Rae et al. 2021 §3, Dai et al. 2019
  // §3.3) adds a d×d key projection for the relative positions per layer: 13·L·d² + 32000·d
  // + norms = 70.06B, within the stated rounding.
  const ModelPreset* c = find_model("chinchilla");
  REQUIRE(c != nullptr);
  const double total = model_params(c->model).total;
  CHECK(std::fabs(total - 70e9) < 0.5e9);
  CHECK(total == doctest::Approx(13.0 * 80 * 8192 * 8192 + 32000.0 * 8192).epsilon(1e-4));
}

TEST_CASE(
    "consistency: the inference cards take the shared model, and its shape alone sizes them") {
  // Every shape input of the one declaration (model_inputs.cpp), by its name, on the cards that
  // size a model's weights and cache.
  for (const char* id : {"infer.latency", "serve.llm_gpus", "rl.throughput", "serve.engine"}) {
    CAPTURE(id);
    const Estimator* e = registry().find(id);
    REQUIRE(e);
    for (const auto& d : model_input_decls({})) CHECK(e->input(d.name) != nullptr);
    CHECK(e->input("params") != nullptr);  // the old names still work
    CHECK(e->input("active_params") != nullptr);
  }
  // Mixtral 8x7B's shape alone, its counts left at 0: the shape's own active and total
  // parameters (46,702,792,704 and 12,879,925,248 in the released checkpoint) and its GQA cache
  // (32 layers · 8 KV heads · 128 · 2 · 2 B = 131,072 B per token; Jiang et al. 2024 §2).
  const Model& mx = find_model("mixtral-8x7b")->model;
  const ModelParams c = model_params(mx);
  RunResult r = test::run("infer.latency", {{"model", "mixtral-8x7b"},
                                            {"params", 0},
                                            {"active_params", 0},
                                            {"prompt_len", 100},
                                            {"gen_len", 50}});
  REQUIRE(r.ok);
  CHECK(test::out(r, "active_params") == c.active);
  CHECK(test::out(r, "active_params") == 12879925248.0);
  CHECK(test::out(r, "weights_memory") == 2 * 46702792704.0);
  CHECK(test::out(r, "kv_bytes_per_token") == kv_bytes_per_token(mx, 2));
  CHECK(test::out(r, "kv_bytes_per_token") == 131072);
  // serve.llm_gpus and rl.throughput hold the same cache per request as infer.latency.
  RunResult s =
      test::run("serve.llm_gpus",
                {{"model", "mixtral-8x7b"}, {"params", 0}, {"active_params", 0}, {"total_qps", 1}});
  REQUIRE(s.ok);
  CHECK(test::out(s, "kv_per_request") == test::out(r, "kv_bytes_per_sequence"));
  CHECK(test::out(s, "weight_memory") == test::out(r, "weights_memory"));
  // serve.engine reads the experts from the same shape: its weights per GPU and the experts
  // a decode step touches (8 · (1 − (6/8)^B) per layer at batch B).
  RunResult g = test::run("serve.engine", {{"model", "mixtral-8x7b"},
                                           {"gpu", "h100"},
                                           {"params", 0},
                                           {"active_params", 0},
                                           {"expert_params", 0},
                                           {"shared_params", 0},
                                           {"tp", 2},
                                           {"batch", 4}});
  REQUIRE(g.ok);
  CHECK(test::out(g, "weights_per_gpu") == 46702792704.0);
  CHECK(test::out(g, "kv_per_token") == 131072);
  CHECK(test::out(g, "experts_touched") == doctest::Approx(8 * (1 - std::pow(0.75, 4))));
}
