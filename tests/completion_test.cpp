// Issue #27 item 5: no input ignored, no value inherited in silence. A typed active count is
// used; a shape typed in part is completed by a stated rule (KV heads = query heads unless
// given), and the derivation says what came from where.
#include <doctest/doctest.h>

#include <string>

#include "helpers.hpp"

using namespace napkin;
using namespace napkin::test;

namespace {
// The steps are kept as JSON text (the derivation writes them once): search the text.
bool has_note(const RunResult& r, const char* text) {
  return r.steps.dump().find(std::string("\"note\":\"") + text) != std::string::npos;
}
}  // namespace

TEST_CASE("a typed active parameter count is charged, dense shape or not (#27.5)") {
  // Mixtral 8x7B as counts only: 46.7B weights, 12.9B active (Jiang et al. 2024, §2).
  RunResult r = run("infer.latency", {{"compute_efficiency", 1},
                                      {"bandwidth_efficiency", 1},
                                      {"params", 46.7e9},
                                      {"active_params", 12.9e9},
                                      {"n_layers", 32},
                                      {"d_model", 4096},
                                      {"prompt_len", 1000},
                                      {"gen_len", 100}});
  REQUIRE(r.ok);
  CHECK(out(r, "active_params") == 12.9e9);
  // Prefill FLOPs per token: 2 × 12.9B plus attention, not 2 × 46.7B.
  CHECK(out(r, "prefill_flops") / 1000 < 2 * 13.5e9);
  // DeepSeek-V3 as 671B with 37B active: decode's FLOPs are 2 × 37B per token.
  RunResult d = run("infer.decode", {{"compute_efficiency", 1},
                                     {"bandwidth_efficiency", 1},
                                     {"params", 671e9},
                                     {"active_params", 37e9}});
  REQUIRE(d.ok);
  CHECK(out(d, "compute_time") == doctest::Approx(2 * 37e9 / 989.4e12).epsilon(1e-6));
}

TEST_CASE("KV heads not given follow the query heads given (#27.5)") {
  // Llama 2 7B typed by shape (Touvron et al. 2023: 32 layers, 32 heads of 128, MHA): its
  // cache is 2 · 32 · 32 · 128 · 2 B = 512 KiB per token, not the default model's 8 KV heads.
  RunResult kv =
      run("infer.kv",
          {{"n_layers", 32}, {"n_heads", 32}, {"head_dim", 128}, {"seq_len", 4096}, {"batch", 1}});
  REQUIRE(kv.ok);
  CHECK(out(kv, "bytes_per_token") == 2.0 * 32 * 32 * 128 * 2);
  CHECK(has_note(kv, "n_kv_heads = 32, as n_heads"));
  // Given explicitly, they stay.
  RunResult gqa = run("infer.kv", {{"n_layers", 32},
                                   {"n_heads", 32},
                                   {"n_kv_heads", 8},
                                   {"head_dim", 128},
                                   {"seq_len", 4096},
                                   {"batch", 1}});
  CHECK(out(gqa, "bytes_per_token") == 2.0 * 32 * 8 * 128 * 2);
  // GPT-2 medium typed by shape (Radford et al. 2019: 24 layers, d 1024, 16 heads): multi-head,
  // and its heads 1024 / 16 = 64 wide, not the default model's 128 (nor its 8 KV heads).
  RunResult gpt = run("infer.latency", {{"compute_efficiency", 1},
                                        {"bandwidth_efficiency", 1},
                                        {"params", 355e6},
                                        {"n_layers", 24},
                                        {"d_model", 1024},
                                        {"n_heads", 16},
                                        {"prompt_len", 100},
                                        {"gen_len", 10}});
  REQUIRE(gpt.ok);
  CHECK(out(gpt, "kv_bytes_per_token") == 2.0 * 24 * 16 * 64 * 2);
  CHECK(has_note(gpt, "head_dim from the shape given"));
  // A model preset gives its own KV heads: nothing follows.
  RunResult preset = run("infer.latency", {{"compute_efficiency", 1},
                                           {"bandwidth_efficiency", 1},
                                           {"model", "llama3-70b"},
                                           {"prompt_len", 100},
                                           {"gen_len", 10}});
  CHECK(out(preset, "kv_bytes_per_token") == 2.0 * 80 * 8 * 128 * 2);
}

TEST_CASE("TP above the KV heads copies them, as Megatron-LM and vLLM do (#27.4)") {
  // StarCoder 15.5B (Li et al. 2023, §5.1: 40 layers, d 6144, 48 heads, multi-query attention,
  // a GELU MLP of 4d, vocabulary 49,152, 8,192 learned positions) at TP 4: accepted, each rank
  // holding a copy of the one KV head.
  auto star = [](int kv) {
    return run("train.step", {{"layers", 40},
                              {"d_model", 6144},
                              {"heads", 48},
                              {"kv_heads", kv},
                              {"head_dim", 128},
                              {"d_ff", 24576},
                              {"ffn", "mlp"},
                              {"vocab", 49152},
                              {"positions", 8192},
                              {"biases", true},
                              {"tp", 4},
                              {"pp", 1},
                              {"dp", 16},
                              {"global_batch", 512},
                              {"seq_len", 8192},
                              {"gpu", "a100"}});
  };
  RunResult mqa = star(1);
  REQUIRE(mqa.ok);
  // Each rank holds one KV head either way: MQA with copies at TP 4 holds the same weights per
  // GPU as 4 KV heads split 4 ways.
  RunResult gqa = star(4);
  REQUIRE(gqa.ok);
  CHECK(out(mqa, "weights_memory") == doctest::Approx(out(gqa, "weights_memory")).epsilon(1e-9));
  // A TP that neither divides nor is a multiple of the KV heads is still refused, by name.
  CHECK(error_of("train.step", {{"model", "llama3-8b"},
                                {"tp", 16},
                                {"pp", 1},
                                {"dp", 1},
                                {"global_batch", 16},
                                {"kv_heads", 3},
                                {"heads", 48}})
            .input != "");
}
