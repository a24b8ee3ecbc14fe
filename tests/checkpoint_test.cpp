// train.checkpoint: failures, Young's and Daly's checkpoint intervals, and goodput, against the
// formulas' own worked numbers and Llama 3's published reliability figures.
#include <cmath>

#include "helpers.hpp"

using namespace napkin;
using test::out;
using test::run;

TEST_CASE(
    "train.checkpoint: Llama 3's 54-day snapshot — 7.76 interruptions a day, above 90 % trained") {
  // Dubey et al. 2024 (The Llama 3 Herd of Models), §3.3.4: 419 unexpected interruptions in a
  // 54-day snapshot of pre-training on 16,384 H100s, and "higher than 90% effective training
  // time". The defaults are that job; a 10 s checkpoint (the paper's 1 MB–4 GB per GPU at 2 TB/s
  // sustained) and a 10-minute restart (MegaScale, Jiang et al. 2024: recovery "within 15
  // minutes") land above 90 %.
  auto r = run("train.checkpoint", {{"gpu_mtbf", 54.0 * 86400 * 16384 / 419}});
  REQUIRE(r.ok);
  CHECK(out(r, "interruptions_per_day") == doctest::Approx(419.0 / 54).epsilon(1e-12));
  CHECK(out(r, "job_mtbf") == doctest::Approx(54.0 * 86400 / 419).epsilon(1e-12));  // 3.09 h
  CHECK(out(r, "goodput") > 0.90);
  CHECK(out(r, "goodput") < 0.95);
  // The default rounds that rate to 2,112 days per GPU: within 0.03 %.
  auto d = run("train.checkpoint", {});
  CHECK(out(d, "interruptions_per_day") == doctest::Approx(419.0 / 54).epsilon(3e-4));
}

TEST_CASE("train.checkpoint: Young's interval √(2δM) and Daly's correction") {
  // δ = 5 min, M = 24 h: √(2 · 300 · 86,400) = 7,200 s exactly (Young 1974).
  auto r = run("train.checkpoint",
               {{"gpus", 1}, {"gpu_mtbf", 86400}, {"checkpoint_time", 300}, {"restart_time", 0}});
  REQUIRE(r.ok);
  CHECK(out(r, "young_interval") == doctest::Approx(7200).epsilon(1e-12));
  // Daly 2006: √(2δM)·(1 + ⅓√(δ/2M) + (δ/2M)/9) − δ, with δ/2M = 1/576: 7,200·(1 + 1/72 +
  // 1/5184) − 300 = 7,001.39 s.
  CHECK(out(r, "optimal_interval") ==
        doctest::Approx(7200 * (1 + 1.0 / 72 + 1.0 / 5184) - 300).epsilon(1e-12));
  // Goodput at the optimum, Daly's exact model: τ / (M·(e^{(τ+δ)/M} − 1)) with R = 0.
  const double tau = out(r, "optimal_interval");
  CHECK(out(r, "goodput") == doctest::Approx(tau / (86400 * std::expm1((tau + 300) / 86400))));
  // The first-order waste δ/τ + τ/2M at Young's τ is √(2δ/M) = 8.3 %: the exact goodput is near.
  CHECK(out(r, "goodput") == doctest::Approx(1 - std::sqrt(2.0 * 300 / 86400)).epsilon(0.01));
}

TEST_CASE("train.checkpoint: four times the GPUs halves the interval; a given interval is used") {
  auto one = run("train.checkpoint", {{"gpus", 4096}});
  auto four = run("train.checkpoint", {{"gpus", 16384}});
  CHECK(out(four, "young_interval") == doctest::Approx(out(one, "young_interval") / 2));
  CHECK(out(four, "goodput") < out(one, "goodput"));
  auto fixed = run("train.checkpoint", {{"interval", 3600}});
  CHECK(out(fixed, "interval") == 3600);
  CHECK(out(fixed, "goodput") < out(four, "goodput"));  // hourly is far from the 8-minute optimum
  CHECK(fixed.steps.size() > 4);
}

TEST_CASE("train.checkpoint: a checkpoint longer than 2M is warned about; bad inputs are named") {
  auto r = run("train.checkpoint", {{"gpus", 100000}, {"checkpoint_time", 7200}});
  REQUIRE(r.ok);
  CHECK(out(r, "optimal_interval") == doctest::Approx(out(r, "job_mtbf")));
  CHECK(r.warnings.size() == 1);
  CHECK(test::error_of("train.checkpoint", {{"gpu_mtbf", 0}}).input == "gpu_mtbf");
  CHECK(test::error_of("train.checkpoint", {{"restart_time", -1}}).input == "restart_time");
}
