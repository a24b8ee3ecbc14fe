// serve.capacity and the queueing formulas under it, against closed forms and published
// numbers.
#include "inference/serve_capacity.hpp"

#include <cmath>

#include "base/portable_math.hpp"
#include "helpers.hpp"
#include "practice/problems.hpp"
#include "scenario/queueing.hpp"

using namespace napkin;
using namespace napkin::test;

namespace {
// Erlang C by its defining sum (Kleinrock 1975, Queueing Systems Vol. 1, eq. 3.40):
// C = (a^c/c! · c/(c − a)) / (Σ_{k<c} a^k/k! + a^c/c! · c/(c − a)) — independent of the
// recursion the code uses.
double erlang_c_sum(int c, double a) {
  double sum = 0, term = 1;
  for (int k = 0; k < c; ++k) {
    sum += term;
    term *= a / (k + 1);
  }
  const double top = term * c / (c - a);
  return top / (sum + top);
}
}  // namespace

TEST_CASE("queueing: Erlang C against its closed forms and the textbook table value") {
  // M/M/1: a request waits with probability ρ. M/M/2: C = 2ρ² / (1 + ρ); at ρ = 0.5, 1/3.
  CHECK(erlang_c(1, 0.5) == doctest::Approx(0.5));
  CHECK(erlang_c(2, 1) == doctest::Approx(1.0 / 3));
  CHECK(erlang_c(2, 1.8) == doctest::Approx(2 * 0.81 / 1.9));
  // The call-centre staple: 10 servers, 8 erlangs offered → 40.9 % wait.
  CHECK(erlang_c(10, 8) == doctest::Approx(0.4092).epsilon(1e-3));
  // The recursion agrees with the sum wherever the sum can be evaluated.
  for (int c : {3, 17, 53, 150})
    for (double rho : {0.1, 0.5, 0.8, 0.95}) {
      CAPTURE(c);
      CAPTURE(rho);
      CHECK(erlang_c(c, rho * c) == doctest::Approx(erlang_c_sum(c, rho * c)).epsilon(1e-10));
    }
  // Thousands of slots: the warm-started loop agrees with the full Erlang B recursion from 0.
  for (double a : {1900.0, 1990.0, 1500.0}) {
    double b = 1;
    for (int k = 1; k <= 2000; ++k) b = a * b / (k + a * b);
    CAPTURE(a);
    CHECK(erlang_c(2000, a) == doctest::Approx(b / (1 - a / 2000 * (1 - b))).epsilon(1e-12));
  }
  // Far below capacity nobody waits; a million slots cost a few thousand steps, not a million.
  CHECK(erlang_c(1e6, 1000) == 0);
  const double big = erlang_c(1e6, 0.99e6);
  CHECK(big > 0);
  CHECK(big < 1);
}

TEST_CASE("queueing: Allen–Cunneen reduces to M/M/c and to Pollaczek–Khinchine") {
  // c_s² = 1 is M/M/c exactly: W_q = C / (cμ − λ). c = 2, λ = 1, S = 1: (1/3) / (2 − 1).
  CHECK(mgc_mean_wait(2, 1, 1, 1) == doctest::Approx(1.0 / 3));
  // M/M/1 at ρ = 0.5, S = 1: W_q = ρ·S / (1 − ρ) = 1.
  CHECK(mgc_mean_wait(1, 0.5, 1, 1) == doctest::Approx(1.0));
  // c = 1 is Pollaczek–Khinchine, W_q = λ·E[S²] / (2(1 − ρ)) = ρ·S·(1 + c_s²) / (2(1 − ρ)):
  // M/D/1 at ρ = 0.5 waits S/2; at ρ = 0.9 with c_s² = 2, 0.9·3/(0.2) = 13.5 S.
  CHECK(mgc_mean_wait(1, 0.5, 1, 0) == doctest::Approx(0.5));
  CHECK(mgc_mean_wait(1, 0.9, 2, 2) == doctest::Approx(0.9 * 2 * 3 / 0.2));
  // Deterministic service halves the M/M/c wait at any c (the (1 + c_s²)/2 factor).
  CHECK(mgc_mean_wait(10, 8, 3, 0) == doctest::Approx(mgc_mean_wait(10, 8, 3, 1) / 2));
}

TEST_CASE("queueing: the wait's percentiles are M/M/c's exponential tail") {
  // M/M/1, ρ = 0.5, μ = 1: P(W > t) = ρ·e^{−(μ − λ)t}, so the p90 is ln(5) / 0.5 and the median
  // is 0 (half the requests find the server idle).
  const double w = mgc_mean_wait(1, 0.5, 1, 1);
  CHECK(wait_quantile(1, 0.5, w, 0.9) == doctest::Approx(std::log(5.0) / 0.5));
  CHECK(wait_quantile(1, 0.5, w, 0.5) == 0);
  // M/M/10 at 8 erlangs, S = 1: P(W > t) = C·e^{−(10 − 8)t}.
  const double c = erlang_c(10, 8);
  CHECK(wait_quantile(10, 8, mgc_mean_wait(10, 8, 1, 1), 0.9) ==
        doctest::Approx(std::log(c / 0.1) / 2));
}

TEST_CASE("queueing: a lognormal length through its mean and p90") {
  // Mean 256, p90 512: σ solves ln 2 = zσ − σ²/2; the fitted distribution returns the p90.
  const double s = lognormal_sigma(256, 512);
  const double z = 1.2815515655446004;
  CHECK(std::exp(std::log(256) - s * s / 2 + z * s) == doctest::Approx(512));
  CHECK(lognormal_cv2(s) == doctest::Approx(std::expm1(s * s)));
  CHECK(lognormal_sigma(256, 256) == 0);
  // No lognormal's p90 is more than e^{z²/2} = 2.273 times its mean.
  CHECK(lognormal_max_p90_ratio() == doctest::Approx(2.2732).epsilon(1e-4));
  CHECK(lognormal_sigma(100, 230) < 0);
}

// The worked example: Llama 3 70B on H100s (TP4, BF16), 50 QPS of 2,048-token prompts
// and 256-token outputs, p90 TTFT ≤ 500 ms, TPOT ≤ 50 ms, replicas at most 80 % busy.
TEST_CASE("serve.capacity: the replicas follow from serve.engine's times and the queue") {
  auto r = run("serve.capacity", {{"model", "llama3-70b"}, {"gpu", "h100"}, {"tp", 4}});
  REQUIRE(r.ok);
  const double b = out(r, "batch");
  // The times are serve.engine's at that batch.
  auto e = run("serve.engine", {{"model", "llama3-70b"}, {"gpu", "h100"}, {"tp", 4}, {"batch", b}});
  REQUIRE(e.ok);
  CHECK(out(r, "tpot_p50") == doctest::Approx(out(e, "tpot")));
  CHECK(out(r, "service_time") == doctest::Approx(out(e, "request_time")));
  CHECK(out(r, "tpot_p50") <= 0.05);
  // Utilisation λ·S / (R·B) under 80 %, and one replica fewer would exceed it.
  const double R = out(r, "replicas");
  // The smallest batch that needs this few replicas: one sequence fewer per replica would put
  // the slots over 80 % busy (λ · S(B − 1) / (R · (B − 1)) > 0.8).
  auto e0 =
      run("serve.engine", {{"model", "llama3-70b"}, {"gpu", "h100"}, {"tp", 4}, {"batch", b - 1}});
  CHECK(50 * out(e0, "request_time") / (R * (b - 1)) > 0.8);
  const double load = 50 * out(r, "service_time") / b;
  CHECK(out(r, "utilization") == doctest::Approx(load / R));
  CHECK(load / R <= 0.8);
  CHECK(load / (R - 1) > 0.8);
  CHECK(out(r, "gpus") == 4 * R);
  CHECK(out(r, "meets_targets") == 1);
  CHECK(out(r, "ttft_p90") <= 0.5);
  // With this many slots the queue is short: Erlang C at B slots and a = λ·S/R.
  CHECK(out(r, "wait_probability") ==
        doctest::Approx(erlang_c(b, 50 * out(r, "service_time") / R)));
  // Every request at the mean length: c_s² = 0, so TTFT is the wait plus one fixed prefill:
  // the median request does not wait (P(wait) < 50 %), and the p90 is the p90 wait later.
  CHECK(out(r, "service_cv2") == 0);
  CHECK(out(r, "wait_probability") < 0.5);
  CHECK(out(r, "ttft_p90") == doctest::Approx(out(r, "wait_p90") + out(r, "ttft_p50")));
}

TEST_CASE("serve.capacity: precision, load and spread move the answer the right way") {
  auto bf16 = run("serve.capacity", {{"model", "llama3-70b"}, {"gpu", "h100"}, {"tp", 4}});
  auto fp8 = run("serve.capacity", {{"model", "llama3-70b"},
                                    {"gpu", "h100"},
                                    {"tp", 4},
                                    {"weight_dtype", "fp8"},
                                    {"kv_dtype", "fp8"}});
  REQUIRE(bf16.ok);
  REQUIRE(fp8.ok);
  CHECK(out(fp8, "gpus") < out(bf16, "gpus"));
  // Twice the load, about twice the replicas (more slots queue a little better).
  auto twice =
      run("serve.capacity", {{"model", "llama3-70b"}, {"gpu", "h100"}, {"tp", 4}, {"qps", 100}});
  CHECK(out(twice, "replicas") >= 2 * out(bf16, "replicas") - 1);
  CHECK(out(twice, "replicas") <= 2 * out(bf16, "replicas"));
  // users × requests per user is the same load as QPS.
  auto users = run("serve.capacity", {{"model", "llama3-70b"},
                                      {"gpu", "h100"},
                                      {"tp", 4},
                                      {"qps", 0},
                                      {"users", 5000},
                                      {"rps_per_user", 0.01}});
  REQUIRE(users.ok);
  CHECK(out(users, "replicas") == out(bf16, "replicas"));
  // Lengths that vary: a p90 output twice the mean spreads the time in a slot
  // (c_s² = (TPOT·O)² · c_O² / S²) and a p90 prompt twice the mean lengthens the p90 TTFT.
  auto spread = run("serve.capacity", {{"model", "llama3-70b"},
                                       {"gpu", "h100"},
                                       {"tp", 4},
                                       {"prompt_len_p90", 4096},
                                       {"output_len_p90", 512}});
  REQUIRE(spread.ok);
  const double cv2_o = lognormal_cv2(lognormal_sigma(256, 512));
  const double cv2_p = lognormal_cv2(lognormal_sigma(2048, 4096));
  const double S = out(spread, "service_time"), t = out(spread, "tpot_p50");
  auto at_b =
      run("serve.engine",
          {{"model", "llama3-70b"}, {"gpu", "h100"}, {"tp", 4}, {"batch", out(spread, "batch")}});
  const double ttft_b = out(at_b, "ttft");  // a mean prompt's
  CHECK(out(spread, "service_cv2") ==
        doctest::Approx((t * t * 256 * 256 * cv2_o + ttft_b * ttft_b * cv2_p) / (S * S)));
  CHECK(out(spread, "ttft_p90") > out(spread, "ttft_p50"));
  CHECK(out(spread, "tpot_p90") > out(spread, "tpot_p50"));
}

// NVIDIA NIM 1.8.0, Llama 3.3 70B FP8 TP2 on 2 × H100, 5,000 → 500 tokens, concurrency 50:
// 814.37 output tok/s (tests/serve_engine_test.cpp cites the table). A closed loop of 50
// requests keeps 50 slots busy, so by Little's law the replica completes 814.37 / 500 = 1.63
// requests/s: what serve.capacity says one replica serves at batch 50 with every slot busy.
// (At 1.5 QPS only batches near 50 keep one replica's queue finite, so it runs at 50.)
TEST_CASE("serve.capacity: one replica's full-load rate matches NIM's concurrency-50 row") {
  auto r = run("serve.capacity", {{"model", "llama3-70b"},
                                  {"gpu", "h100"},
                                  {"tp", 2},
                                  {"weight_dtype", "fp8"},
                                  {"kv_dtype", "fp8"},
                                  {"prompt_len", 5000},
                                  {"output_len", 500},
                                  {"batch", 50},
                                  {"qps", 1.4},
                                  {"ttft_target", 0},
                                  {"tpot_target", 0},
                                  {"max_utilization", 1},
                                  {"replicas", 1}});
  REQUIRE(r.ok);
  CHECK(out(r, "batch") == 50);
  CHECK(out(r, "qps_per_replica") == doctest::Approx(814.37 / 500).epsilon(0.10));
}

// At the engine's earlier fixed rates (matmul efficiency 0.5, reads at 60 % of the bandwidth,
// no kernel overheads), the numbers this test of the queueing logic was built on.
TEST_CASE("serve.capacity: fixed replicas give the latency; too few are an error") {
  auto fixed = run("serve.capacity", {{"model", "llama3-70b"},
                                      {"gpu", "h100"},
                                      {"tp", 4},
                                      {"compute_efficiency", 0.5},
                                      {"kernel_overheads", false},
                                      {"bandwidth_efficiency", 0.6},
                                      {"replicas", 20}});
  REQUIRE(fixed.ok);
  CHECK(out(fixed, "replicas") == 20);
  CHECK(out(fixed, "meets_targets") == 1);
  // More replicas never lengthen the p90 TTFT at the same load.
  auto more = run("serve.capacity", {{"model", "llama3-70b"},
                                     {"gpu", "h100"},
                                     {"tp", 4},
                                     {"compute_efficiency", 0.5},
                                     {"kernel_overheads", false},
                                     {"bandwidth_efficiency", 0.6},
                                     {"replicas", 40}});
  CHECK(out(more, "ttft_p90") <= out(fixed, "ttft_p90"));
  // Close to saturation (16 replicas serve ~52 QPS with every slot busy) the queue shows.
  auto busy = run("serve.capacity", {{"model", "llama3-70b"},
                                     {"gpu", "h100"},
                                     {"tp", 4},
                                     {"compute_efficiency", 0.5},
                                     {"kernel_overheads", false},
                                     {"bandwidth_efficiency", 0.6},
                                     {"replicas", 16},
                                     {"qps", 50}});
  REQUIRE(busy.ok);
  CHECK(out(busy, "meets_targets") == 0);
  CHECK(busy.warnings.size() == 1);
  CHECK(out(busy, "wait_p90") > 0);
  Error e = error_of("serve.capacity", {{"model", "llama3-70b"},
                                        {"gpu", "h100"},
                                        {"tp", 4},
                                        {"compute_efficiency", 0.5},
                                        {"kernel_overheads", false},
                                        {"bandwidth_efficiency", 0.6},
                                        {"replicas", 4}});
  CHECK(e.input == "replicas");
  CHECK(e.message.find("too few") != std::string::npos);
}

TEST_CASE("serve.capacity: a target no batch can meet is a verdict naming it") {
  // 10 ms per token: one sequence alone reads 35 GB per GPU per token (17.6 ms).
  Error tpot =
      error_of("serve.capacity",
               {{"model", "llama3-70b"}, {"gpu", "h100"}, {"tp", 4}, {"tpot_target", 0.01}});
  CHECK(tpot.input == "tpot_target");
  CHECK(tpot.message.find("cannot be met at any batch") != std::string::npos);
  // 100 ms to first token: a 2,048-token prefill alone takes about 150 ms on TP4.
  Error ttft =
      error_of("serve.capacity",
               {{"model", "llama3-70b"}, {"gpu", "h100"}, {"tp", 4}, {"ttft_target", 0.1}});
  CHECK(ttft.input == "ttft_target");
  Error p90 = error_of("serve.capacity", {{"model", "llama3-70b"},
                                          {"gpu", "h100"},
                                          {"tp", 4},
                                          {"tpot_target", 0},
                                          {"tpot_p90_target", 0.01}});
  CHECK(p90.input == "tpot_p90_target");
}

TEST_CASE("serve.capacity: bad loads and lengths name the input") {
  CHECK(error_of("serve.capacity", {{"model", "llama3-70b"}, {"gpu", "h100"}, {"qps", 0}}).input ==
        "qps");
  CHECK(error_of("serve.capacity", {{"qps", -1}}).input == "qps");
  CHECK(error_of("serve.capacity",
                 {{"model", "llama3-70b"}, {"gpu", "h100"}, {"output_len_p90", 100}})
            .input == "output_len_p90");
  // A p90 no lognormal reaches (ShareGPT-like outputs: mean 256, p90 1,000) is counted at the
  // widest lognormal's spread, with a warning.
  auto wide =
      run("serve.capacity", {{"model", "llama3-70b"}, {"gpu", "h100"}, {"output_len_p90", 1000}});
  REQUIRE(wide.ok);
  CHECK(wide.warnings.size() == 1);
  const double z = 1.2815515655446004;
  const double t = out(wide, "tpot_p50"), S = out(wide, "service_time");
  CHECK(out(wide, "service_cv2") ==
        doctest::Approx(t * t * 256 * 256 * std::expm1(z * z) / (S * S)).epsilon(1e-9));
  CHECK(error_of("serve.capacity",
                 {{"model", "llama3-70b"}, {"gpu", "h100"}, {"prompt_len_p90", 1e6}})
            .input == "prompt_len_p90");
  CHECK(error_of("serve.capacity", {{"max_utilization", 0}}).input == "max_utilization");
  CHECK(error_of("serve.capacity", {{"model", "llama3-70b"}, {"gpu", "h100"}, {"tp", 1}}).input ==
        "tp");
  CHECK(error_of("serve.capacity", {{"model", "llama3-70b"}, {"gpu", "h100"}, {"batch", 1e6}})
            .input == "batch");
}

// The capacity problems' statements give the time in a slot; the hand formula from what the
// statement shows must be the estimator's answer for every draw.
TEST_CASE("serve.capacity problems: the statement's numbers give the estimator's answer") {
  for (std::int64_t seed = 0; seed < 12; ++seed) {
    CAPTURE(seed);
    auto rep = make_variant(*problem_bank().find("serve.capacity.replicas"), seed);
    REQUIRE(rep.ok());
    const Values& p = rep.value().params;
    CHECK(rep.value().answer ==
          std::ceil(p["qps"] * p["service_time"] / (p["batch"] * p["max_utilization"])));
    auto gpus = make_variant(*problem_bank().find("serve.capacity.gpus"), seed);
    REQUIRE(gpus.ok());
    const Values& g = gpus.value().params;
    CHECK(gpus.value().answer ==
          g["tp"] * std::ceil(g["users"] / g["interval"] * g["service_time"] /
                              (g["batch"] * g["max_utilization"])));
    auto wait = make_variant(*problem_bank().find("serve.capacity.wait"), seed);
    REQUIRE(wait.ok());
    const Values& w = wait.value().params;
    const double rho = w["qps"] / w["replicas"] * w["service_time"] / 2;
    CHECK(wait.value().answer == doctest::Approx(2 * rho * rho / (1 + rho)));
  }
}

// The portable log and exp (bit-identical natively and in wasm) against the C library's.
TEST_CASE("portable_log and portable_exp agree with the C library to a few ulp") {
  for (double x : {1e-300, 1e-9, 0.1, 0.5, 0.70710678, 0.9999999, 1.0, 1.0000001, 2.0, 10.0,
                   12345.678, 1e300}) {
    CAPTURE(x);
    CHECK(portable_log(x) == doctest::Approx(std::log(x)).epsilon(1e-15));
  }
  CHECK(portable_log(1.0) == 0);
  for (double x : {-700.0, -20.0, -1.0, -1e-10, 0.0, 1e-10, 0.5, 0.8211, 1.0, 3.3, 50.0, 700.0}) {
    CAPTURE(x);
    CHECK(portable_exp(x) == doctest::Approx(std::exp(x)).epsilon(1e-15));
  }
  CHECK(portable_exp(0) == 1);
}

// TTFT = W + T, the wait for a slot plus the request's own prefill, independent under FCFS
// (the wait is set by the requests ahead). With P(W > x) = C·e^{−x/w} and T two-point, by hand:
// C = 0.5, w = 0.1 s, T = 0.1 or 0.3 s (half each). For x ≥ 0.3,
//   P(W + T > x) = 0.25·e^{−(x − 0.1)/0.1} + 0.25·e^{−(x − 0.3)/0.1} = 0.1
//   ⇒ x = 0.3 + 0.1 · ln(2.5 · (1 + e^{−2})) = 0.40432 s,
// below the sum of the two p90s, W_90 + T_90 = 0.1 · ln 5 + 0.3 = 0.46094 s.
TEST_CASE("queueing: the p90 of wait + prefill is the sum's, not the sum of p90s") {
  const double t[] = {0.1, 0.3}, p[] = {0.5, 0.5};
  const double q = wait_plus_quantile(0.5, 0.1, t, p, 2, 0.9);
  CHECK(q == doctest::Approx(0.3 + 0.1 * std::log(2.5 * (1 + std::exp(-2.0)))));
  CHECK(q < 0.1 * std::log(5.0) + 0.3);
  // A constant prefill: exactly the wait's p90 plus it; no wait: the prefill's own quantile.
  const double one[] = {0.2}, all[] = {1};
  CHECK(wait_plus_quantile(0.5, 0.1, one, all, 1, 0.9) ==
        doctest::Approx(0.2 + wait_quantile(1, 0.5, 0.5 * 0.1, 0.9)));
  CHECK(wait_plus_quantile(0, 0, t, p, 2, 0.9) == 0.3);
  CHECK(wait_plus_quantile(0, 0, t, p, 2, 0.4) == 0.1);
}

// serve.capacity combines the wait and the prefill as one sum: with prompts that vary and a
// queue that waits (4 replicas at 12 QPS), the p90 TTFT is below the p90 wait plus a p90
// prompt's prefill (adding the two p90s assumes the longest prompts also wait longest).
// At the engine's earlier fixed rates (matmul efficiency 0.5, reads at 60 % of the bandwidth,
// no kernel overheads), the numbers this test of the queueing logic was built on.
TEST_CASE("serve.capacity: p90 TTFT of the sum, below the sum of the p90s") {
  auto r = run("serve.capacity", {{"model", "llama3-70b"},
                                  {"gpu", "h100"},
                                  {"tp", 4},
                                  {"compute_efficiency", 0.5},
                                  {"kernel_overheads", false},
                                  {"bandwidth_efficiency", 0.6},
                                  {"qps", 12},
                                  {"replicas", 4},
                                  {"prompt_len_p90", 4096}});
  REQUIRE(r.ok);
  auto e90 = run("serve.engine", {{"model", "llama3-70b"},
                                  {"gpu", "h100"},
                                  {"tp", 4},
                                  {"compute_efficiency", 0.5},
                                  {"kernel_overheads", false},
                                  {"bandwidth_efficiency", 0.6},
                                  {"prompt_len", 4096},
                                  {"batch", out(r, "batch")}});
  REQUIRE(e90.ok);
  CHECK(out(r, "wait_p90") > 0);
  CHECK(out(r, "ttft_p90") < out(r, "wait_p90") + out(e90, "ttft"));
  CHECK(out(r, "ttft_p90") > out(e90, "ttft"));
}

// A request hits the cached prefix or misses it whole. With half the requests hitting, more
// than 10 % miss, so the p90 TTFT is a miss's prefill (plus any wait) — not the prefill of a
// request with the expected h · P_s tokens cached. Here no request among the fastest 90 %
// waits, so it is serve.engine's TTFT with nothing cached, at the same batch.
TEST_CASE("serve.capacity: with half the requests hitting the prefix, p90 TTFT is a miss's") {
  auto r = run("serve.capacity", {{"model", "llama3-70b"},
                                  {"gpu", "h100"},
                                  {"tp", 4},
                                  {"prefix_fraction", 0.5},
                                  {"prefix_hit_rate", 0.5}});
  REQUIRE(r.ok);
  CHECK(out(r, "wait_p90") == 0);
  auto miss = run("serve.engine", {{"model", "llama3-70b"},
                                   {"gpu", "h100"},
                                   {"tp", 4},
                                   {"prefix_fraction", 0.5},
                                   {"prefix_hit_rate", 0},
                                   {"batch", out(r, "batch")}});
  REQUIRE(miss.ok);
  CHECK(out(r, "ttft_p90") == doctest::Approx(out(miss, "ttft")));
}

// The batch is searched over every integer, not a grid. Short prompts (512 → 128 tokens) at
// 16 QPS, slots up to 95 % busy, p90 TTFT ≤ 1.5 s, no TPOT target: one replica suffices from
// batch 125, where λ · S(B) / B first drops under 0.95 (S from serve.engine, by Little's law),
// until the prefills of larger batches push the p90 TTFT past the target. A geometric grid of
// 17 batches up to the largest feasible one stepped over that band and answered 2 replicas.
// At the engine's earlier fixed rates (matmul efficiency 0.5, reads at 60 % of the bandwidth,
// no kernel overheads), the numbers this test of the queueing logic was built on.
TEST_CASE("serve.capacity: the fewest replicas over every batch (a narrow band of batches)") {
  auto r = run("serve.capacity", {{"model", "llama3-70b"},
                                  {"gpu", "h100"},
                                  {"tp", 4},
                                  {"compute_efficiency", 0.5},
                                  {"kernel_overheads", false},
                                  {"bandwidth_efficiency", 0.6},
                                  {"qps", 16},
                                  {"prompt_len", 512},
                                  {"output_len", 128},
                                  {"ttft_target", 1.5},
                                  {"tpot_target", 0},
                                  {"max_utilization", 0.95}});
  REQUIRE(r.ok);
  CHECK(out(r, "replicas") == 1);
  CHECK(out(r, "meets_targets") == 1);
  CHECK(out(r, "batch") == 125);  // the smallest batch one replica serves
  auto at = [](double b) {
    return run("serve.engine", {{"model", "llama3-70b"},
                                {"gpu", "h100"},
                                {"tp", 4},
                                {"compute_efficiency", 0.5},
                                {"kernel_overheads", false},
                                {"bandwidth_efficiency", 0.6},
                                {"prompt_len", 512},
                                {"output_len", 128},
                                {"batch", b}});
  };
  CHECK(16 * out(at(125), "request_time") / 125 <= 0.95);
  CHECK(16 * out(at(124), "request_time") / 124 > 0.95);
}

TEST_CASE("serve.capacity: goodput is the most requests per GPU that still meet the targets") {
  // Zhong et al. 2024 (DistServe), §1: per-GPU goodput, "the maximum request rate that can be
  // served adhering to the SLO attainment goal (say, 90%) for each GPU provisioned". With the
  // p90 TTFT target, a replica fed at goodput × its GPUs meets it; 3 % faster, it does not.
  const Inputs base = {{"model", "llama3-70b"}, {"gpu", "h100"},      {"tp", 4}, {"qps", 50},
                       {"ttft_target", 0.5},    {"tpot_target", 0.05}};
  auto r = run("serve.capacity", base);
  REQUIRE(r.ok);
  const double g = out(r, "goodput"), b = out(r, "batch");
  REQUIRE(g > 0);
  auto at = [&](double rate) {
    return run("serve.capacity", {{"model", "llama3-70b"},
                                  {"gpu", "h100"},
                                  {"tp", 4},
                                  {"qps", rate},
                                  {"ttft_target", 0.5},
                                  {"tpot_target", 0.05},
                                  {"batch", b},
                                  {"replicas", 1},
                                  {"max_utilization", 1}});
  };
  CHECK(out(at(0.999 * 4 * g), "meets_targets") == 1);
  CHECK(out(at(1.03 * 4 * g), "meets_targets") == 0);
  // Without a TTFT target only stability bounds it: Little's law, B slots ÷ S per slot ÷ GPUs.
  auto little = run("serve.capacity", {{"model", "llama3-70b"},
                                       {"gpu", "h100"},
                                       {"tp", 4},
                                       {"qps", 50},
                                       {"ttft_target", 0},
                                       {"tpot_target", 0.05}});
  CHECK(out(little, "goodput") ==
        doctest::Approx(out(little, "batch") / out(little, "service_time") / 4).epsilon(1e-6));
}
