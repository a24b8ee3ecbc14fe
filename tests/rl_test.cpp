// rl.throughput: seed 001 §10's sync vs async comparison and its batch-size sweep.
#include "helpers.hpp"

using namespace napkin;
using test::error_of;
using test::out;
using test::run;

namespace {
RunResult seed(double batch) {
  return run("rl.throughput", {{"params", 70e9},
                               {"batch", batch},
                               {"prompt_len", 100},
                               {"gen_len", 50},
                               {"ppo_epochs", 4},
                               {"total_gpus", 256}});
}
}  // namespace

// The seed prints times to 0.1 ms and throughputs to 0.1/s: 1e-5 relative keeps every digit
// of 11,434.2 ms; the speedup is printed as 1.10×.
TEST_CASE("rl.throughput: seed 001 — 70B, batch 512, 256 GPUs: 11,434 ms sync vs 10,416 ms async") {
  auto r = seed(512);
  REQUIRE(r.ok);
  CHECK(out(r, "generate_time") == doctest::Approx(9.3300).epsilon(1e-5));
  CHECK(out(r, "score_time") == doctest::Approx(1.0861).epsilon(5e-5));
  CHECK(out(r, "train_time_sync") == doctest::Approx(1.0182).epsilon(5e-5));
  CHECK(out(r, "train_time_async") == doctest::Approx(2.0364).epsilon(5e-5));
  CHECK(out(r, "sync_iteration_time") == doctest::Approx(11.4342).epsilon(1e-5));
  CHECK(out(r, "async_iteration_time") == doctest::Approx(10.4160).epsilon(1e-5));
  CHECK(out(r, "sync_samples_per_second") == doctest::Approx(44.8).epsilon(1e-3));
  CHECK(out(r, "async_samples_per_second") == doctest::Approx(49.2).epsilon(1e-3));
  CHECK(out(r, "sync_tokens_per_second") == doctest::Approx(2238.9).epsilon(5e-5));
  CHECK(out(r, "async_tokens_per_second") == doctest::Approx(2457.8).epsilon(5e-5));
  CHECK(out(r, "speedup") == doctest::Approx(1.10).epsilon(5e-3));
  CHECK(out(r, "train_gpus_async") == 128);
}

TEST_CASE("rl.throughput: seed 001's batch sweep (128, 256, 512, 1024) — async always ahead") {
  // Speedups from the seed's own code: 1.061, 1.081, 1.098, 1.109 (mean 1.09×).
  const double batches[] = {128, 256, 512, 1024};
  const double speedups[] = {1.0610, 1.0814, 1.0978, 1.1086};
  double mean = 0;
  for (int i = 0; i < 4; ++i) {
    CAPTURE(batches[i]);
    auto r = seed(batches[i]);
    REQUIRE(r.ok);
    CHECK(out(r, "speedup") == doctest::Approx(speedups[i]).epsilon(1e-4));
    CHECK(out(r, "async_samples_per_second") > out(r, "sync_samples_per_second"));
    mean += out(r, "speedup") / 4;
  }
  CHECK(mean == doctest::Approx(1.09).epsilon(5e-3));
}

TEST_CASE("rl.throughput: generation replicas and the GPU split") {
  // Eight replicas: 64 sequences each, prefill 8× shorter, decode unchanged (weight-bound).
  auto r = run("rl.throughput",
               {{"params", 70e9}, {"batch", 512}, {"total_gpus", 256}, {"generation_replicas", 8}});
  REQUIRE(r.ok);
  CHECK(out(r, "sequences_per_replica") == 64);
  CHECK(out(r, "generate_time") ==
        doctest::Approx(64 * 100 * 2 * 70e9 / 990e12 + 50 * 140e9 / 3.35e12).epsilon(1e-12));
  // A different split: 3/4 of the GPUs training.
  auto q =
      run("rl.throughput",
          {{"params", 70e9}, {"batch", 512}, {"total_gpus", 256}, {"async_train_fraction", 0.75}});
  CHECK(out(q, "train_gpus_async") == 192);
  CHECK(error_of("rl.throughput",
                 {{"params", 70e9}, {"batch", 8}, {"total_gpus", 256}, {"generation_replicas", 16}})
            .input == "generation_replicas");
  CHECK(error_of("rl.throughput", {{"params", 70e9}, {"batch", 8}, {"total_gpus", 1}}).input ==
        "async_train_fraction");
  CHECK(error_of("rl.throughput",
                 {{"params", 70e9}, {"batch", 8}, {"total_gpus", 4}, {"async_train_fraction", 0.1}})
            .input == "async_train_fraction");
}
