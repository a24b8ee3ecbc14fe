// Issue #30 items 1 and 6: the Start question about serving opens the engine an expert would
// size a fleet with; the scenario bar's DP reaches FSDP cards, sequence length and global batch
// are in the bar, and a TP too wide for a small model is a verdict, not an error.
#include <doctest/doctest.h>

#include <string>

#include "helpers.hpp"

using namespace napkin;
using namespace napkin::test;

TEST_CASE("the serving Start question opens serve.capacity (#30.1)") {
  bool found = false;
  for (const auto& q : registry().questions())
    if (std::string(q.text).find("serve") != std::string::npos) {
      found = true;
      CHECK(std::string(q.estimator) == "serve.capacity");
    }
  CHECK(found);
  // Llama 3 70B at 20 requests/s of 2k prompts and 300-token answers on H100s: a batching engine
  // needs tens of GPUs, not the single-stream model's hundreds.
  RunResult r = run("serve.capacity", {{"model", "llama3-70b"},
                                       {"gpu", "h100"},
                                       {"qps", 20},
                                       {"prompt_len", 2048},
                                       {"output_len", 300}});
  REQUIRE(r.ok);
  CHECK(out(r, "gpus") < 100);
}

TEST_CASE("the scenario bar's DP, sequence length and global batch reach the cards (#30.6)") {
  bool seq = false, batch = false;
  for (const auto& s : registry().scenario_inputs()) {
    seq = seq || s.name == "seq_len";
    batch = batch || s.name == "global_batch";
  }
  CHECK(seq);
  CHECK(batch);
  for (const char* id : {"mem.fsdp", "scale.fsdp_tp"}) {
    const Estimator* e = registry().find(id);
    REQUIRE(e);
    bool follows_dp = false;
    for (const auto& in : e->inputs) follows_dp = follows_dp || in.preset_key == "dp";
    CHECK_MESSAGE(follows_dp, id << " has an input the scenario's DP fills");
  }
  // Llama 3 8B at TP 8: never compute-bound, said as a verdict.
  RunResult r = run("scale.fsdp_tp", {{"model", "llama3-8b"}, {"tp", 8}});
  REQUIRE(r.ok);
  CHECK(r.outputs.find("compute_bound")->as_bool() == false);
  CHECK(r.outputs.find("min_batch_tokens") == nullptr);
}

TEST_CASE("the scenario bar's precision fills a dtype or bytes per value alike (#30.6)") {
  // FP8: serve.engine stores weights and cache in FP8, infer.latency reads 1 byte per weight
  // and per cached value; INT4 (AWQ, groups of 128) 0.5 + 2/128 bytes per weight.
  RunResult eng =
      run("serve.engine", {{"model", "llama3-70b"}, {"gpu", "h100"}, {"precision", "fp8"}});
  REQUIRE(eng.ok);
  CHECK(eng.inputs.find("weight_dtype")->as_string() == "fp8");
  CHECK(eng.inputs.find("kv_dtype")->as_string() == "fp8");
  RunResult lat =
      run("infer.latency",
          {{"model", "llama3-70b"}, {"precision", "int4"}, {"prompt_len", 100}, {"gen_len", 10}});
  REQUIRE(lat.ok);
  CHECK(lat.inputs.find("weight_bytes")->as_number() == doctest::Approx(0.5 + 2.0 / 128));
  CHECK(lat.inputs.find("kv_bytes")->as_number() == 2);
}
