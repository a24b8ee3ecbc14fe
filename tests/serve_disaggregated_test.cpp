// serve.disaggregated against DistServe's published figures and first principles.
#include <cmath>

#include "helpers.hpp"

using namespace napkin;
using namespace napkin::test;

// Zhong et al. 2024 (DistServe, OSDI), §4.3: "the KV cache size of a single 512-token request
// on OPT-66B is approximately 1.13GB". OPT-66B (Zhang et al. 2022, Table 1): 64 layers, 72
// heads of 128 (d = 9,216), no GQA: 2 · 64 · 9,216 · 2 bytes = 2.36 MB per token; × 512 =
// 1.208e9 bytes = 1.125 GiB.
TEST_CASE("serve.disaggregated: DistServe's 1.13 GB of KV cache per 512-token OPT-66B request") {
  auto r = run("serve.disaggregated", {{"gpu", "a100"},
                                       {"params", 66e9},
                                       {"n_layers", 64},
                                       {"d_model", 9216},
                                       {"n_heads", 72},
                                       {"n_kv_heads", 72},
                                       {"head_dim", 128},
                                       {"d_ff", 36864},
                                       {"tp", 4},
                                       {"prompt_len", 512},
                                       {"output_len", 64},
                                       {"qps", 10},
                                       {"ttft_target", 2},
                                       {"tpot_target", 0.1}});
  REQUIRE(r.ok);
  CHECK(out(r, "kv_transfer_bytes") == 512 * 2 * 64 * 9216 * 2.0);
  CHECK(out(r, "kv_transfer_bytes") / 1073741824.0 == doctest::Approx(1.13).epsilon(0.01));
  // "Assuming an average arrival rate of 10 requests per second, we need to transfer 11.3GB
  // per second": 10 × 1.125 GiB.
  CHECK(10 * out(r, "kv_transfer_bytes") / 1073741824.0 == doctest::Approx(11.3).epsilon(0.01));
}

// The prefill pool is M/D/1 per instance (DistServe §3.1): with one prompt of D seconds at a
// time and λ_i = λ/n arrivals per instance, the wait is Pollaczek–Khinchine's
// W = λ_i·D² / (2(1 − λ_i·D)); a request waits with probability ρ = λ_i·D, then (counted
// exponential) for W/ρ on average, so W90 = W/ρ · ln(ρ / 0.1). TTFT90 = W90 + D + transfer.
TEST_CASE("serve.disaggregated: the prefill pool's p90 TTFT and instances, by hand") {
  auto r = run("serve.disaggregated",
               {{"model", "llama3-70b"}, {"gpu", "h100"}, {"qps", 50}, {"ttft_target", 0.5}});
  REQUIRE(r.ok);
  auto eng =
      run("serve.engine",
          {{"model", "llama3-70b"}, {"gpu", "h100"}, {"batch", 1}, {"chunked_prefill", false}});
  REQUIRE(eng.ok);
  const double d = out(eng, "ttft");  // the prompt alone
  const double x = out(r, "kv_transfer_time");
  // 2,048 tokens × 81,920 B per GPU (TP4 splits the 8 KV heads) at 50 GB/s.
  CHECK(x == doctest::Approx(2048 * 81920 / 50e9));
  auto ttft90 = [&](double n) {
    const double rho = 50 / n * d;
    const double w = 50 / n * d * d / (2 * (1 - rho));
    return std::max(0.0, w / rho * std::log(rho / 0.1)) + d + x;
  };
  const double n = out(r, "prefill_instances");
  CHECK(out(r, "ttft_p90") == doctest::Approx(ttft90(n)));
  CHECK(ttft90(n) <= 0.5);
  CHECK(ttft90(n - 1) > 0.5);  // one fewer misses the target
  CHECK(out(r, "prefill_gpus") == 4 * n);
}

// A decode instance runs serve.engine's decode step with no prefill in it: the largest batch
// whose step meets the TPOT target, and enough instances to keep its slots ≤ 80 % busy for
// λ requests of O − 1 decode steps each.
TEST_CASE("serve.disaggregated: decode pool at the largest batch under the TPOT target") {
  auto r = run("serve.disaggregated",
               {{"model", "llama3-70b"}, {"gpu", "h100"}, {"qps", 50}, {"tpot_target", 0.03}});
  REQUIRE(r.ok);
  const double b = out(r, "decode_batch");
  auto step = [](double batch) {
    auto e = run("serve.engine", {{"model", "llama3-70b"}, {"gpu", "h100"}, {"batch", batch}});
    return out(e, "decode_step");
  };
  CHECK(out(r, "tpot") <= 0.03);
  CHECK(step(b + 1) > 0.03);
  CHECK(out(r, "decode_instances") == std::ceil(50 * 255 * out(r, "tpot") / (b * 0.8)));
  // The colocated pool is serve.capacity's answer for the same inputs.
  auto c = run("serve.capacity",
               {{"model", "llama3-70b"}, {"gpu", "h100"}, {"qps", 50}, {"tpot_target", 0.03}});
  REQUIRE(c.ok);
  CHECK(out(r, "colocated_gpus") == out(c, "gpus"));
}

TEST_CASE("serve.disaggregated: targets no instance can meet are named") {
  auto e = error_of("serve.disaggregated",
                    {{"model", "llama3-70b"}, {"gpu", "h100"}, {"ttft_target", 0.1}});
  CHECK(e.input == "ttft_target");
  e = error_of("serve.disaggregated",
               {{"model", "llama3-70b"}, {"gpu", "h100"}, {"tpot_target", 0.005}});
  CHECK(e.input == "tpot_target");
}

// With prefix caching the decode instance already holds the shared prefix's KV blocks (they
// are stored once per instance), so a hit sends only its P − P_s uncached tokens; a miss sends
// all P. Llama 3 70B in BF16: 2 · 80 layers · 8 KV heads · 128 · 2 bytes = 327,680 bytes per
// token; half of a 2,048-token prompt shared is 1,024 tokens (64 whole blocks of 16).
TEST_CASE("serve.disaggregated: a cached prefix is not sent; hits and misses mix") {
  auto send = [](double h) {
    return run("serve.disaggregated", {{"model", "llama3-70b"},
                                       {"gpu", "h100"},
                                       {"tp", 4},
                                       {"prefix_fraction", 0.5},
                                       {"prefix_hit_rate", h}});
  };
  auto all = send(1), half = send(0.5), none = send(0);
  REQUIRE(all.ok);
  REQUIRE(half.ok);
  REQUIRE(none.ok);
  CHECK(out(all, "kv_transfer_bytes") == doctest::Approx(1024 * 327680.0));
  CHECK(out(half, "kv_transfer_bytes") == doctest::Approx((2048 - 512) * 327680.0));
  CHECK(out(none, "kv_transfer_bytes") == doctest::Approx(2048 * 327680.0));
}
