// Issue #30 items 5 and 8: an output that does not exist is absent, never 0; an emptied
// "0 = none" field is none; a time typed without a unit a million times above the usual asks.
#include <doctest/doctest.h>

#include "helpers.hpp"

using namespace napkin;
using namespace napkin::test;

namespace {
bool has(const RunResult& r, const char* name) {
  return r.outputs.find(name) != nullptr;
}
}  // namespace

TEST_CASE("outputs that do not exist are absent, not 0 (#30.8)") {
  // infer.kv without query heads: no MHA comparison to make.
  RunResult kv = run("infer.kv", {{"n_layers", 80},
                                  {"n_kv_heads", 8},
                                  {"head_dim", 128},
                                  {"seq_len", 4096},
                                  {"batch", 1},
                                  {"n_heads", 0}});
  REQUIRE(kv.ok);
  CHECK_FALSE(has(kv, "mha_bytes_per_token"));
  CHECK_FALSE(has(kv, "reduction_vs_mha"));
  // With 64 query heads (Llama 2 70B) the comparison is there: 8× smaller than MHA.
  RunResult kv64 = run("infer.kv", {{"n_layers", 80},
                                    {"n_kv_heads", 8},
                                    {"head_dim", 128},
                                    {"seq_len", 4096},
                                    {"batch", 1},
                                    {"n_heads", 64}});
  CHECK(out(kv64, "reduction_vs_mha") == doctest::Approx(8));

  // A roofline with no kernel placed: the ridge only.
  RunResult roof = run("hw.roofline", {});
  REQUIRE(roof.ok);
  CHECK(has(roof, "ridge_intensity"));
  CHECK_FALSE(has(roof, "time"));
  CHECK_FALSE(has(roof, "attainable_flops"));
  CHECK_FALSE(has(roof, "bound"));
  // An intensity alone places the kernel but gives it no size: no time.
  RunResult at = run("hw.roofline", {{"intensity", 100}});
  CHECK(has(at, "attainable_flops"));
  CHECK_FALSE(has(at, "time"));

  // Activations alone over the GPU's memory: no model fits, so no "largest model".
  RunResult mem = run("mem.training", {{"params", 7e9},
                                       {"activations", "explicit"},
                                       {"activation_bytes", 90e9},
                                       {"gpu_memory", 80e9}});
  REQUIRE(mem.ok);
  CHECK_FALSE(has(mem, "max_params"));

  // Decode where the cache read outweighs the FLOPs at any batch: no crossover batch.
  RunResult dec = run("infer.decode", {{"params", 7e9}, {"context", 1e6}});
  REQUIRE(dec.ok);
  CHECK_FALSE(has(dec, "crossover_batch"));
}

TEST_CASE("an emptied '0 = none' field means none (#30.8)") {
  RunResult t =
      run("train.time",
          {{"params", 70e9}, {"tokens", 2e12}, {"gpus", 512}, {"price_per_gpu_hour", ""}});
  REQUIRE(t.ok);
  CHECK_FALSE(has(t, "cost"));
  RunResult c = run("serve.capacity", {{"tpot_target", " "}});
  CHECK(c.ok);
  // An emptied field whose 0 is not allowed is still an error naming it.
  Error e = error_of("train.time", {{"params", 70e9}, {"tokens", 2e12}, {"gpus", ""}});
  CHECK(e.input == "gpus");
}

TEST_CASE("a time without a unit a million times the usual asks (#30.5)") {
  Error e = error_of("comm.collective", {{"latency", "5"}});
  CHECK(e.input == "latency");
  CHECK(e.code == "ambiguous");
  CHECK(e.message.find("did you mean 5 µs?") != std::string::npos);
  // With its unit it is what it says, and an ordinary value is not questioned.
  CHECK(run("comm.collective", {{"latency", "5 s"}}).ok);
  CHECK(run("comm.collective", {{"latency", "0.000005"}}).ok);
  CHECK(run("comm.tp_step", {{"compute_time", "5"}}).ok);
}
