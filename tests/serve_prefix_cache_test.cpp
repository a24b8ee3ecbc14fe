// serve.prefix_cache and serve.engine's prefix caching, against first principles.
#include <cmath>

#include "helpers.hpp"

using namespace napkin;
using namespace napkin::test;

namespace {
// Llama 3 70B (Grattafiori et al. 2024, Table 3; config.json): 70,553,706,496 parameters,
// 80 layers, 64 query heads and 8 KV heads of width 128.
constexpr double kParams = 70553706496.0, kLayers = 80, kHeads = 64, kHeadDim = 128;
}  // namespace

// A cached prefix of c tokens skips 2N FLOPs per token (Kaplan et al. 2020, §2.1; N without the
// input embedding, 128,256 × 8,192, which is a lookup) and the
// causal attention of those tokens among themselves: c²/2 score-and-value pairs, each
// 2 · 2 · d_h FLOPs per head and layer (PaLM, Chowdhery et al. 2022, Appendix B). The rest of
// the prompt still attends to them. At 50 % of a 2,048-token prompt, c = 1,024.
TEST_CASE("serve.prefix_cache: prefill FLOPs saved = c·2N + the prefix's own attention") {
  auto r = run("serve.prefix_cache", {{"model", "llama3-70b"},
                                      {"gpu", "h100"},
                                      {"prompt_len", 2048},
                                      {"prefix_fraction", 0.5},
                                      {"prefix_hit_rate", 1}});
  REQUIRE(r.ok);
  const double c = 1024;
  const double attention = kLayers * kHeads * 2 * kHeadDim * 2 * c * c / 2;
  const double n = kParams - 128256.0 * 8192;
  CHECK(out(r, "cached_tokens") == c);
  CHECK(out(r, "prefill_flops_saved") == doctest::Approx(c * 2 * n + attention));
  // Just under half: the uncached half attends to the whole prompt, the cached half only to
  // itself.
  CHECK(out(r, "prefill_saved_fraction") == doctest::Approx(0.4953).epsilon(1e-3));
  // A 2,048-token prompt on 4 H100s is compute-bound, and the chunk is the whole prompt:
  // TTFT falls by the saved FLOPs at 4 · 50 % · 989.4 TFLOP/s (= 73.7 ms), plus a little
  // the running batch's share of the step.
  CHECK(out(r, "ttft_saved") ==
        doctest::Approx((c * 2 * n + attention) / (4 * 0.5 * 989.4e12)).epsilon(0.02));
}

// vLLM's automatic prefix caching hashes whole KV blocks: a block is shared only when full
// (vLLM docs, "Automatic Prefix Caching": blocks are identified by the tokens in the block and
// the prefix before it). The shared prefix is stored once; every hit saves c tokens of cache.
TEST_CASE("serve.prefix_cache: whole blocks, stored once, counted by hit rate") {
  auto r = run("serve.prefix_cache", {{"model", "llama3-70b"},
                                      {"gpu", "h100"},
                                      {"prompt_len", 2000},
                                      {"output_len", 256},
                                      {"prefix_fraction", 0.5},
                                      {"prefix_hit_rate", 1},
                                      {"batch", 100}});
  REQUIRE(r.ok);
  // 1,000 shared tokens fill 62 blocks of 16: 992 tokens are reused.
  CHECK(out(r, "cached_tokens") == 992);
  // 100 sequences store 99 fewer copies: (100 · 992 − 992) tokens × 327,680 B (80 · 2 · 8 ·
  // 128 · 2 bytes per token in BF16).
  CHECK(out(r, "kv_bytes_saved") == (100 * 992 - 992) * 327680.0);
  // The default 2,048 + 256 tokens: 455,456 cache tokens = 28,466 blocks (after the runtime's
  // 4.28 GiB per GPU); a sequence takes 144 blocks, 80 with 64 shared, and the prefix's 64 are
  // stored once: ⌊28,402 / 80⌋ = 355 instead of ⌊28,466 / 144⌋ = 197.
  auto full = run("serve.prefix_cache", {{"model", "llama3-70b"}, {"gpu", "h100"}});
  REQUIRE(full.ok);
  CHECK(out(full, "max_batch_uncached") == 197);
  CHECK(out(full, "max_batch") == 355);
  // Half the requests hit: half the tokens saved per request, in expectation.
  auto half = run("serve.prefix_cache",
                  {{"model", "llama3-70b"}, {"gpu", "h100"}, {"prefix_hit_rate", 0.5}});
  REQUIRE(half.ok);
  CHECK(out(half, "cached_tokens") == 512);
  // No hits: nothing saved, nothing stored.
  auto none =
      run("serve.prefix_cache", {{"model", "llama3-70b"}, {"gpu", "h100"}, {"prefix_hit_rate", 0}});
  REQUIRE(none.ok);
  CHECK(out(none, "prefill_flops_saved") == 0);
  CHECK(out(none, "ttft_saved") == 0);
  CHECK(out(none, "max_batch") == 197);
}

// The whole prompt shared: the last token is still computed (its logits give the first output
// token), so the cache holds at most P − 1 tokens, in whole blocks.
TEST_CASE("serve.prefix_cache: a fully shared prompt still prefills its last block") {
  auto r =
      run("serve.prefix_cache", {{"model", "llama3-70b"}, {"gpu", "h100"}, {"prefix_fraction", 1}});
  REQUIRE(r.ok);
  CHECK(out(r, "cached_tokens") == 2032);
  CHECK(out(r, "ttft") > 0);
}

// A request finds the whole shared prefix cached or none of it (vLLM matches whole blocks of
// a prefix from its first token). With hit rate h the per-request times are a two-point
// mixture: the mean TTFT is h · TTFT(hit) + (1 − h) · TTFT(miss), not the TTFT of a request
// with h · P_s cached tokens (the prefix's own attention, A(c) ∝ c², is not linear in c); and
// the 90th percentile is a miss's whenever fewer than 90 % hit (P(TTFT ≥ miss) = 1 − h > 10 %).
TEST_CASE("serve.prefix_cache: hits and misses mix; the p90 TTFT is a miss's below 90 % hits") {
  auto all = [](double h) {
    return run("serve.prefix_cache", {{"model", "llama3-70b"},
                                      {"gpu", "h100"},
                                      {"batch", 64},
                                      {"prefix_fraction", 0.5},
                                      {"prefix_hit_rate", h}});
  };
  auto hit = all(1), miss = all(0), half = all(0.5), most = all(0.95);
  REQUIRE(hit.ok);
  REQUIRE(miss.ok);
  REQUIRE(half.ok);
  REQUIRE(most.ok);
  const double t_hit = out(hit, "ttft"), t_miss = out(miss, "ttft");
  CHECK(t_hit < t_miss);
  CHECK(out(half, "ttft") == doctest::Approx(0.5 * t_hit + 0.5 * t_miss).epsilon(1e-9));
  CHECK(out(half, "ttft_p90") == doctest::Approx(t_miss).epsilon(1e-9));
  CHECK(out(most, "ttft_p90") == doctest::Approx(t_hit).epsilon(1e-9));
}
