// serve.moe against DeepSeek-V3's published deployment and first principles.
#include <cmath>

#include "helpers.hpp"

using namespace napkin;
using namespace napkin::test;

// DeepSeek-AI 2024 (DeepSeek-V3 technical report), §3.4.1: prefill "uses 32-way Expert
// Parallelism (EP32)" for the 256 routed experts of each MoE layer — 8 per GPU; §3.4.2: decode
// uses EP320 and "each GPU hosts only one expert" (256 routed, the rest redundant or shared).
// Its MoE layers: 58 of 61 (3 dense), 8 routed experts per token, hidden size 7,168 (§4.2).
TEST_CASE("serve.moe: DeepSeek-V3's EP32 prefill and EP320 decode layouts") {
  auto r32 = run("serve.moe", {{"model", "deepseek-v3"}, {"gpu", "h100"}, {"ep", 32}});
  REQUIRE(r32.ok);
  CHECK(out(r32, "experts_per_gpu") == 8);
  auto r320 = run("serve.moe", {{"model", "deepseek-v3"}, {"gpu", "h100"}, {"ep", 320}});
  REQUIRE(r320.ok);
  CHECK(out(r320, "experts_per_gpu") == 1);
  CHECK(r320.warnings.size() == 1);  // 256 experts do not split evenly over 320 GPUs
  // Weights per GPU in FP8 at EP32: the 17.1B shared parameters (671.0B − 256 · 58 · 44.04M
  // routed) whole, plus 8 experts × 58 layers × 3 · 7,168 · 2,048 parameters.
  const double expert = 3.0 * 7168 * 2048;
  const double routed = 256 * 58 * expert;
  auto p = run("model.params", {{"model", "deepseek-v3"}});
  REQUIRE(p.ok);
  const double shared = out(p, "params") - routed;
  CHECK(shared == doctest::Approx(17.1e9).epsilon(0.01));
  CHECK(out(r32, "weights_per_gpu") == doctest::Approx(shared + 8 * 58 * expert));
}

// Uniform top-k routing: an expert escapes one token with probability 1 − k/E, all T tokens
// with (1 − k/E)^T, so E · (1 − (1 − k/E)^T) are touched (the expectation every MoE serving
// analysis starts from; Austin et al. 2025, "Inference", MoE). One token touches exactly k.
TEST_CASE("serve.moe: experts touched per step, by batch") {
  auto one = run("serve.moe",
                 {{"model", "deepseek-v3"}, {"gpu", "h200"}, {"ep", 8}, {"batch", 1}, {"tp", 8}});
  REQUIRE(one.ok);
  CHECK(out(one, "experts_touched") == doctest::Approx(8));
  auto r = run("serve.moe",
               {{"model", "deepseek-v3"}, {"gpu", "h200"}, {"ep", 8}, {"batch", 32}, {"tp", 8}});
  REQUIRE(r.ok);
  CHECK(out(r, "experts_touched") == doctest::Approx(256 * (1 - std::pow(248.0 / 256, 32))));
  CHECK(out(r, "experts_touched_per_gpu") == doctest::Approx(out(r, "experts_touched") / 8));
}

// The all-to-all (GShard, Lepikhin et al. 2021 §2.2): per MoE layer a token's hidden state goes
// to its k experts (FP8 in DeepSeek-V3, §3.3.2) and k results come back (BF16); with experts
// spread uniformly (EP − 1)/EP of it leaves the GPU.
TEST_CASE("serve.moe: all-to-all bytes per token") {
  auto r = run("serve.moe", {{"model", "deepseek-v3"}, {"ep", 32}});
  REQUIRE(r.ok);
  CHECK(out(r, "alltoall_bytes_per_token") == doctest::Approx(58 * 8 * 7168 * 3.0 * 31 / 32));
  auto bf16 = run("serve.moe", {{"model", "deepseek-v3"}, {"ep", 64}, {"weight_dtype", "bf16"}});
  REQUIRE(bf16.ok);
  CHECK(out(bf16, "alltoall_bytes_per_token") == doctest::Approx(58 * 8 * 7168 * 4.0 * 63 / 64));
}

TEST_CASE("serve.moe: errors name the input") {
  CHECK(error_of("serve.moe", {{"model", "llama3-70b"}}).input == "experts");
  CHECK(error_of("serve.moe", {{"model", "deepseek-v3"}, {"ep", 8}, {"tp", 3}}).input == "tp");
  // 671B in BF16 over 8 GPUs does not fit in 80 GiB each.
  CHECK(error_of("serve.moe", {{"model", "deepseek-v3"}, {"ep", 8}, {"weight_dtype", "bf16"}})
            .input == "ep");
}

// DeepEP's README, "Low-latency kernels with pure RDMA" (H800, one CX7 400 Gb/s NIC per GPU,
// ~50 GB/s; 128 tokens per GPU, hidden 7,168, top-8, FP8 dispatch, BF16 combine), measured
// per MoE layer: dispatch + combine = 173 + 314 µs at EP64, 192 + 369 at EP128, 194 + 360 at
// EP256 — flat in EP, because every GPU sends to all its peers at once. A model that waits
// for EP − 1 messages in sequence adds 2 · 255 · 5 µs at EP256 (2.5 ms, 4.6 × the measurement).
TEST_CASE("serve.moe: decode all-to-all against DeepEP's low-latency kernels") {
  const double measured[][2] = {
      {64, 173e-6 + 314e-6}, {128, 192e-6 + 369e-6}, {256, 194e-6 + 360e-6}};
  for (const auto& row : measured) {
    const double ep = row[0], t = row[1];
    auto r = run("serve.moe", {{"model", "deepseek-v3"},
                               {"gpu", "h100"},
                               {"ep", ep},
                               {"tp", 1},
                               {"batch", 128},
                               {"inter_bandwidth", 50e9}});
    REQUIRE(r.ok);
    CAPTURE(ep);
    // Within 25 %: DeepEP reaches 39–46 GB/s of the NIC's 50 and carries FP8 scales.
    CHECK(out(r, "alltoall_time") / 58 == doctest::Approx(t).epsilon(0.25));
  }
}
