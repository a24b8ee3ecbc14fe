// Presets and charts of the inference, serving and RL area: every scenario preset reproduces
// its seed's numbers, model presets give the published KV-cache sizes, and the charts' sweeps
// show what their titles claim.
#include <string>

#include "helpers.hpp"
#include "scenario/gpu_figures.hpp"

using namespace napkin;
using test::out;

namespace {
const Preset& preset(const std::string& id) {
  for (const auto& p : registry().presets())
    if (p.id == id) return p;
  FAIL("no preset " << id);
  static Preset none;
  return none;
}

// Runs a preset's values (only the inputs the estimator has) through the estimator.
RunResult run_preset(const std::string& id, const char* estimator, Json extra = Json::object()) {
  const Estimator* e = registry().find(estimator);
  REQUIRE(e != nullptr);
  Json in = Json::object();
  for (const auto& [k, v] : preset(id).values.members())
    if (e->input(k)) in.set(k, v);
  for (const auto& [k, v] : extra.members()) in.set(k, v);
  RunResult r = registry().run(estimator, in);
  CAPTURE(r.error.message);
  REQUIRE(r.ok);
  return r;
}

const ChartSpec& chart(const std::string& id) {
  for (const auto& c : registry().charts())
    if (c.id == id) return c;
  FAIL("no chart " << id);
  static ChartSpec none;
  return none;
}
}  // namespace

TEST_CASE("scenario presets reproduce seed 000's worked examples") {
  CHECK(out(run_preset("seed000-option-a", "serve.batching"), "avg_latency") ==
        doctest::Approx(0.06).epsilon(1e-12));
  CHECK(out(run_preset("seed000-option-a", "serve.batching"), "within_budget") == 0);
  CHECK(out(run_preset("seed000-option-b", "serve.batching"), "gpus_needed") == 45);
  CHECK(out(run_preset("seed000-option-c", "serve.batching"), "gpus_needed") == 48);
  CHECK(out(run_preset("seed000-section2", "serve.batching"), "avg_latency") ==
        doctest::Approx(0.15).epsilon(1e-12));
  auto p2 = run_preset("seed000-problem2", "serve.batching");
  CHECK(out(p2, "gpus_needed") == 80);
  CHECK(out(p2, "avg_latency") == doctest::Approx(0.12).epsilon(1e-12));
  auto ranking = run_preset("seed000-ranking", "serve.pipeline");
  CHECK(out(ranking, "total_latency") == doctest::Approx(0.155).epsilon(1e-12));
  CHECK(out(ranking, "total_gpus") == 90);
  auto p3 = run_preset("seed000-problem3", "serve.pipeline");
  CHECK(out(p3, "total_gpus") == 84);
  CHECK(out(p3, "within_budget") == 1);
  CHECK(out(run_preset("seed000-problem3-batched", "serve.pipeline"), "within_budget") == 0);
}

TEST_CASE("scenario presets reproduce seed 001's inference, serving and RL tables") {
  // Printed values, 0.1 ms resolution (tolerances as in inference_test.cpp).
  CHECK(out(run_preset("seed001-short-short", "infer.latency"), "total_time") ==
        doctest::Approx(2.1037).epsilon(5e-5));
  CHECK(out(run_preset("seed001-long-short", "infer.latency"), "total_time") ==
        doctest::Approx(2.3724).epsilon(5e-5));
  CHECK(out(run_preset("seed001-short-long", "infer.latency"), "total_time") ==
        doctest::Approx(20.9097).epsilon(5e-6));
  CHECK(out(run_preset("seed001-batched", "infer.latency"), "tokens_per_second") ==
        doctest::Approx(181.6).epsilon(5e-4));
  CHECK(out(run_preset("seed001-serve-low", "serve.llm_gpus"), "gpus_needed_seed") == 22);
  CHECK(out(run_preset("seed001-serve-medium", "serve.llm_gpus"), "gpus_needed_seed") == 211);
  CHECK(out(run_preset("seed001-serve-high", "serve.llm_gpus"), "gpus_needed_seed") == 1052);
  auto rl = run_preset("seed001-rl", "rl.throughput");
  CHECK(out(rl, "sync_iteration_time") == doctest::Approx(11.4342).epsilon(1e-5));
  CHECK(out(rl, "async_iteration_time") == doctest::Approx(10.4160).epsilon(1e-5));
}

TEST_CASE("model presets: Llama-3-70B and DeepSeek-V3 KV caches") {
  // Llama-3-70B: 2 · 80 · 8 · 128 · 2 = 327,680 B per token (Grattafiori et al. 2024, Table 3).
  CHECK(out(run_preset("llama3-70b", "infer.kv"), "bytes_per_token") == 327680);
  // DeepSeek-V3: 61 · (512 + 64) · 2 = 70,272 B (Zhao et al. 2025, Insights into DeepSeek-V3,
  // Table 1: 70.272 KB).
  CHECK(out(run_preset("deepseek-v3", "infer.kv"), "bytes_per_token") == 70272);
  auto v3 = run_preset("deepseek-v3", "infer.latency", [] {
    Json j = Json::object();
    j.set("prompt_len", 1000);
    j.set("gen_len", 100);
    return j;
  }());
  CHECK(out(v3, "kv_bytes_per_token") == 70272);
  CHECK(out(v3, "kv_bytes_per_sequence") == 1100 * 70272.0);
  // The decode preset value agrees with infer.kv.
  CHECK(preset("deepseek-v3").values.find("kv_bytes_per_token")->as_number() == 70272);
  CHECK(preset("llama3-70b").values.find("kv_bytes_per_token")->as_number() == 327680);
}

TEST_CASE("charts: KV cache by attention type and decode crossover") {
  const ChartSpec& kv = chart("kv-cache-vs-context");
  REQUIRE(kv.series.size() == 3);
  Json base = Json::object();
  base.set("n_layers", 80);
  std::vector<double> per_token;
  for (const auto& s : kv.series) {
    Json in = base;
    for (const auto& [k, v] : s.overrides.members()) in.set(k, v);
    SweepResult sw = registry().sweep("infer.kv", in, "seq_len", {1});
    REQUIRE(sw.ok);
    per_token.push_back(sw.columns[0].second[0]);
  }
  // MHA-shaped LLaMA-2-70B (the seed's 2·L·d·2), Llama-3-70B GQA, DeepSeek-V3 MLA.
  CHECK(per_token[0] == 2621440);
  CHECK(per_token[1] == 327680);
  CHECK(per_token[2] == 70272);
  // Decode throughput keeps rising through the ridge with no cache, then flattens: at 4096
  // sequences it is compute-bound at F / 2N tokens/s, at the achieved rates (60 % of the HBM
  // bandwidth, 50 % of the peak: serve.engine's, docs/serving.md).
  Json in = Json::object();
  in.set("params", 70e9);
  in.set("context", 0);
  SweepResult sw = registry().sweep("infer.decode", in, "batch", {1, 246, 4096});
  REQUIRE(sw.ok);
  const auto& tps = sw.columns[1].second;
  REQUIRE(sw.columns[1].first == "tokens_per_second");
  CHECK(tps[0] == doctest::Approx(0.6 * 3.35e12 / 140e9).epsilon(1e-12));
  CHECK(tps[2] == doctest::Approx(0.5 * figures::h100_bf16 / 140e9).epsilon(1e-12));
  CHECK(chart("batching-latency-vs-batch").hline_input == "latency_budget");
}
