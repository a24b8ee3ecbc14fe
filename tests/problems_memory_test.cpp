// Practice problems of the memory area: seed 0 is the seed's worked example or the paper's
// published number, and the seeds' own slips are recognised as named mistakes. (The generic
// checks of every problem — own answer correct, wrong answer wrong, every mistake named, for
// seeds 0..5 — live in problems_test.cpp.)
#include <string>

#include "problem_helpers.hpp"

using namespace napkin;
using test::seed0;

namespace {

double answer_of(const char* id) {
  return test::seed0(id).answer;
}

}  // namespace

TEST_CASE("the memory area has at least 12 problems") {
  int memory = 0;
  for (const auto& p : problem_bank().problems()) memory += p.area == "memory";
  CHECK(memory >= 12);
}

// Tolerances: integer counts exactly; products of round numbers to 1e-12; the papers' and
// seeds' rounded figures to their printed precision.
TEST_CASE("seed 0 of each memory problem is the seed's or the paper's number") {
  // ZeRO Figure 1: 7.5B on 64 GPUs, K = 12 → 31.4 / 16.6 / 1.9 GB.
  CHECK(answer_of("mem.zero.stage1") == doctest::Approx(31.4e9).epsilon(2e-3));
  CHECK(answer_of("mem.zero.stage2") == doctest::Approx(16.6e9).epsilon(3e-3));
  CHECK(answer_of("mem.zero.stage3") == doctest::Approx(1.9e9).epsilon(2e-2));
  CHECK(answer_of("mem.zero.max_params") == doctest::Approx(320e9).epsilon(1e-12));
  // Seed 001 §6: TP=8 + ZeRO-3 row, 188.13 GB.
  CHECK(answer_of("mem.training.notebook") == doctest::Approx(188.125e9).epsilon(1e-12));
  // Korthikanti et al. 2022: GPT-3 layer s·b·h·(34 + 80); 70% saved; 34·sbh/8.
  CHECK(answer_of("mem.activations.layer") == doctest::Approx(2048.0 * 12288 * 114).epsilon(1e-12));
  CHECK(answer_of("mem.activations.selective") == doctest::Approx(0.70).epsilon(5e-3));
  CHECK(answer_of("mem.activations.tp_sp") ==
        doctest::Approx(2048.0 * 12288 * 34 / 8).epsilon(1e-12));
  // Seed 004 (a), (b), (c) as corrected.
  CHECK(answer_of("mem.fsdp.states") == doctest::Approx(3.52e12).epsilon(1e-12));
  CHECK(answer_of("mem.fsdp.gpus") == 44);
  CHECK(answer_of("mem.fsdp.backward") == doctest::Approx(143.7e9).epsilon(1e-3));
  CHECK(answer_of("mem.fsdp.min_devices") == 156);
  CHECK(answer_of("scale.fsdp_tp.per_device") == doctest::Approx(395).epsilon(1e-3));
  CHECK(answer_of("scale.fsdp_tp.sequences") == 16);
  // Seed 002 bubbles and sends; seed 004 (d) corrected.
  CHECK(answer_of("pipe.bubble.exact") == doctest::Approx(3.0 / 19).epsilon(1e-12));
  CHECK(answer_of("pipe.bubble.seed004d") == doctest::Approx(3.0 / 11).epsilon(1e-12));
  CHECK(answer_of("pipe.bubble.min_microbatches") == 9);
  CHECK(answer_of("pipe.bubble.p2p") == 448);
  CHECK(answer_of("pipe.bubble.microbatch_size") == 16);
  CHECK(answer_of("parallel.recommend.dp") == 32);
}

TEST_CASE("the seeds' own slips and common mistakes are named") {
  // Seed 002: 18.75% is the approximation, 3/19 the exact bubble.
  CHECK(test::check_seed0("pipe.bubble.exact", "18.75%").mistake == "approximate_vs_exact");
  CHECK(test::check_seed0("pipe.bubble.exact", "15.8%").verdict == "correct");
  CHECK(test::check_seed0("pipe.bubble.exact", "3/19").verdict == "correct");
  // Seed 004 (d)'s 12.5%.
  CHECK(test::check_seed0("pipe.bubble.seed004d", "12.5%").mistake == "one_over_microbatches");
  // Seed 004 (a)'s reading of "saved for backward": 440 GB of BF16-gradient saving.
  CHECK(test::check_seed0("mem.fsdp.backward", "440 GB").mistake == "bf16_gradient_saving");
  // Seed 004 (b)'s lower bound that ignores activations.
  CHECK(test::check_seed0("mem.fsdp.min_devices", "38").mistake == "ignored_activations");
  CHECK(test::check_seed0("mem.fsdp.min_devices", "156").verdict == "correct");
  // Seed 004 (c): the whole batch instead of per device; 16 sequences is right.
  CHECK(test::check_seed0("scale.fsdp_tp.per_device", "25300").mistake == "total_not_per_device");
  CHECK(test::check_seed0("scale.fsdp_tp.sequences", "13").mistake == "not_multiple_of_fsdp");
  // Seed 002's pitfall: microbatch = B/N.
  CHECK(test::check_seed0("pipe.bubble.microbatch_size", "64").mistake == "divided_by_stages");
  // Seed 002's "M ≥ 4N" is a rule of thumb, not the minimum.
  CHECK(test::check_seed0("pipe.bubble.min_microbatches", "16").mistake == "rule_of_thumb_4n");
  // ZeRO: a forgotten shard; GB vs GiB comes for free.
  CHECK(test::check_seed0("mem.zero.stage3", "120 GB").mistake == "not_sharded");
  CHECK(test::check_seed0("mem.zero.stage3", "1.746 GB").mistake == "gb_vs_gib");
  CHECK(test::check_seed0("mem.fsdp.states", "2640 GB").mistake == "adam_one_state");
}
