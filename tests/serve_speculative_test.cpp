// serve.speculative against Leviathan et al. 2023's formulas and their limits.
#include <cmath>

#include "helpers.hpp"
#include "scenario/speculative.hpp"

using namespace napkin;
using namespace napkin::test;

// Leviathan et al. 2023, eq. 1: E = (1 − α^(k+1)) / (1 − α).
TEST_CASE("speculative: expected tokens per target step") {
  CHECK(speculative_tokens_per_step(0.8, 4) == doctest::Approx((1 - std::pow(0.8, 5)) / 0.2));
  CHECK(speculative_tokens_per_step(0.8, 4) == doctest::Approx(3.3616));
  // Nothing accepted: the target's own token. Everything accepted: k + 1.
  CHECK(speculative_tokens_per_step(0, 7) == 1);
  CHECK(speculative_tokens_per_step(1, 7) == 8);
  // As k grows the cap vanishes: the geometric mean 1 / (1 − α).
  CHECK(speculative_tokens_per_step(0.6, 200) == doctest::Approx(1 / 0.4));
}

TEST_CASE("speculative: speedup and the best draft length") {
  // Corollary 3.9: at γ = 1 the improvement is exactly (1 + α) / (1 + c), above 1 iff α > c.
  for (double a : {0.3, 0.6, 0.9})
    for (double c : {0.01, 0.1, 0.5}) {
      CAPTURE(a);
      CAPTURE(c);
      CHECK(speculative_speedup(a, 1, c) == doctest::Approx((1 + a) / (1 + c)));
    }
  // With a free draft (c = 0) the speedup is the tokens per step and grows with k.
  CHECK(speculative_speedup(0.8, 6, 0) == doctest::Approx(speculative_tokens_per_step(0.8, 6)));
  CHECK(best_draft_len(0.8, 0, 16) == 16);
  // The best k beats its neighbours.
  const int k = best_draft_len(0.8, 0.1, 16);
  CHECK(speculative_speedup(0.8, k, 0.1) > speculative_speedup(0.8, k - 1, 0.1));
  CHECK(speculative_speedup(0.8, k, 0.1) > speculative_speedup(0.8, k + 1, 0.1));
  // α = c: no draft length helps — (1 + α + … + α^k) / (1 + kα) ≤ 1, equality at k = 1.
  CHECK(speculative_speedup(0.2, best_draft_len(0.2, 0.2, 16), 0.2) == doctest::Approx(1));
}

// Llama 3 8B drafting for Llama 3 70B: a draft step reads 8.03 / 70.55 of the weights.
TEST_CASE("serve.speculative: Llama 3 8B drafting for Llama 3 70B") {
  auto r = run("serve.speculative", {{"model", "llama3-70b"}});
  REQUIRE(r.ok);
  const double c = 8030261248.0 / 70553706496.0;
  CHECK(out(r, "cost_ratio") == doctest::Approx(c));
  CHECK(out(r, "best_draft_len") == best_draft_len(0.8, c, 16));
  CHECK(out(r, "draft_len") == out(r, "best_draft_len"));
  CHECK(out(r, "speedup") == doctest::Approx(speculative_speedup(0.8, 5, c)));
  CHECK(out(r, "best_draft_len") == 5);
  CHECK(r.outputs.find("tpot_speculative") == nullptr);  // not asked for
  // A given draft length and a target TPOT (serve.engine's 17.6 ms at batch 1, TP4 BF16).
  auto k4 = run("serve.speculative", {{"draft_len", 4}, {"tpot", 0.0176}});
  REQUIRE(k4.ok);
  CHECK(out(k4, "expected_tokens_per_step") == doctest::Approx(3.3616));
  CHECK(out(k4, "speedup") == doctest::Approx(3.3616 / (4 * c + 1)));
  CHECK(out(k4, "tpot_speculative") == doctest::Approx(0.0176 / out(k4, "speedup")));
  // A poor draft (α below its cost) slows decoding, with a warning.
  auto poor = run("serve.speculative", {{"acceptance_rate", 0.05}});
  REQUIRE(poor.ok);
  CHECK(out(poor, "speedup") < 1);
  CHECK(poor.warnings.size() == 1);
  // Bad inputs name themselves.
  CHECK(error_of("serve.speculative", {{"draft_params", 1e12}}).input == "draft_params");
  CHECK(error_of("serve.speculative", {{"acceptance_rate", 1.5}}).input == "acceptance_rate");
  CHECK(error_of("serve.speculative", {{"draft_len", 20}}).input == "draft_len");
  CHECK(error_of("serve.speculative", {{"draft_len", 2.5}}).input == "draft_len");
}

// A mixture of experts decodes by reading the weights a token uses (Pope et al. 2022 §3; at
// batch 1 the active ones), so the draft's cost is the ratio of the active weights: Mistral 7B
// (7,241,732,096, dense) drafting for Mixtral 8x7B (12,879,925,248 of 46,702,792,704 active;
// Jiang et al. 2024 §2, the released checkpoints' counts) costs 0.562 of a target step, not
// the 0.155 of the total weights.
TEST_CASE("serve.speculative: an MoE target or draft costs its active weights") {
  auto r = run("serve.speculative", {{"model", "mixtral-8x7b"}, {"draft_params", 7241732096.0}});
  REQUIRE(r.ok);
  CHECK(out(r, "cost_ratio") == doctest::Approx(7241732096.0 / 12879925248.0).epsilon(1e-12));
  // An MoE draft: Mixtral 8x7B drafting for DeepSeek-V3 (37,552,297,472 active of 671B).
  auto moe = run("serve.speculative", {{"model", "deepseek-v3"},
                                       {"draft_params", 46702792704.0},
                                       {"draft_active_params", 12879925248.0}});
  REQUIRE(moe.ok);
  CHECK(out(moe, "cost_ratio") == doctest::Approx(12879925248.0 / 37552297472.0).epsilon(1e-12));
  CHECK(error_of("serve.speculative", {{"draft_active_params", 9e9}}).input ==
        "draft_active_params");
  CHECK(error_of("serve.speculative", {{"active_params", 80e9}}).input == "active_params");
}
