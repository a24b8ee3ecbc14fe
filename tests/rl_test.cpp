// rl.throughput: seed 001 §10's sync vs async comparison and its batch-size sweep.
#include "helpers.hpp"
#include "scenario/gpu_figures.hpp"

using namespace napkin;
using test::error_of;
using test::out;
using test::run;

namespace {
// The worked example's model: generation and scoring on one GPU, compute-only prefill and
// weight-only decode.
RunResult seed(double batch) {
  return run("rl.throughput", {{"compute_efficiency", 1},
                               {"bandwidth_efficiency", 1},
                               {"params", 70e9},
                               {"batch", batch},
                               {"prompt_len", 100},
                               {"gen_len", 50},
                               {"ppo_epochs", 4},
                               {"total_gpus", 256},
                               {"gpus_per_replica", 1},
                               {"n_kv_heads", 0},  // its multi-head cache, 2·L·d per token
                               {"decode_model", "weights"},
                               {"score_on", "one_gpu"},
                               // its GPU: 990 TFLOP/s, 3.35 TB/s, 80 GB in decimal bytes
                               {"peak_flops", 990e12},
                               {"gpu_memory", 80e9}});
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
  // 140 GB of weights and 512 × 150 tokens of 2.62 MB cache on one 80 GB GPU: said, by name.
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0].as_string().find("gpus_per_replica") != std::string::npos);
  CHECK(r.warnings[0].as_string().find("at least 8") != std::string::npos);
}

// The corrected default, on the shared model's Llama 3 70B shape (GQA: 8 KV heads of 128 over
// 80 layers, 327,680 B per token; Grattafiori et al. 2024, Table 3). Memory of the replica:
// 140 GB + 512 · 150 · 327,680 B = 165.2 GB, so 2 H100s of 80 GiB (171.8 GB; TP 2: the smallest TP
// that holds it and splits the 64 heads and 8 KV heads). The policy's forward FLOPs per token over
// 150 tokens (Kaplan et al. 2020 Table 1): 2 per weight a token multiplies (the Llama 3 shape's
// 69.50B of 70.55B, the input embedding being a lookup, scaled to the given 70e9) plus causal
// attention 2·75·64·256·80 = 138.1 GFLOP. Scoring, a reward model
// of 0.1 of it over 512 × 150 tokens (1.061e15 FLOPs), runs on every GPU in sync:
// 1.061e15 / (256 · 989.4e12) = 4.19 ms, above one read of its 14 GB (4.18 ms at 3.35 TB/s);
// async on the 128 GPUs not training, 8.37 ms. Generation on 2 GPUs: prefill
// 512 · 100 · 138.03e9 / (2 · 989.4e12) = 3.57 s (compute-bound), decode by the roofline step by
// step (Pope et al. 2022 §3). H100 figures: its datasheet.
TEST_CASE("rl.throughput: scoring on every GPU, generation on a replica that holds the model") {
  auto r = run("rl.throughput", {{"compute_efficiency", 1},
                                 {"bandwidth_efficiency", 1},
                                 {"params", 70e9},
                                 {"batch", 512},
                                 {"total_gpus", 256}});
  REQUIRE(r.ok);
  CHECK(r.warnings.size() == 0);
  CHECK(out(r, "generation_memory") == doctest::Approx(140e9 + 512 * 150 * 327680.0));
  CHECK(out(r, "gpus_per_replica") == 2);
  const double w = 2 * 69503033344.0 * 70e9 / 70553706496.0, att = 2 * 64 * 256 * 80.0;
  const double f_150 = w + 75 * att, f_100 = w + 50 * att;
  const double score_flops = 512 * 150 * 0.1 * f_150, peak = figures::h100_bf16;
  CHECK(out(r, "score_time") == doctest::Approx(score_flops / (256 * peak)).epsilon(1e-12));
  CHECK(out(r, "score_time_async") == doctest::Approx(score_flops / (128 * peak)).epsilon(1e-12));
  // The generation equals infer.latency on 2 GPUs' rates.
  auto g = run("infer.latency", {{"compute_efficiency", 1},
                                 {"bandwidth_efficiency", 1},
                                 {"params", 70e9},
                                 {"prompt_len", 100},
                                 {"gen_len", 50},
                                 {"batch", 512},
                                 {"peak_flops", 2 * peak},
                                 {"mem_bandwidth", 2 * figures::h100_hbm_bandwidth}});
  CHECK(out(r, "generate_time") == doctest::Approx(out(g, "total_time")).epsilon(1e-12));
  CHECK(out(g, "prefill_time") == doctest::Approx(512 * 100 * f_100 / (2 * peak)));
  CHECK(out(r, "train_time_sync") ==
        doctest::Approx(4 * 3 * f_150 * 512 * 150 / (256 * peak * 0.5)).epsilon(1e-12));
  CHECK(out(r, "sync_iteration_time") ==
        doctest::Approx(out(r, "generate_time") + out(r, "score_time") + out(r, "train_time_sync"))
            .epsilon(1e-12));
  // More generation GPUs than async leaves: 128 replicas of 4 sequences need 2 GPUs each
  // (140 GB + 4 · 150 · 0.33 MB), 256 GPUs > the 128 not training.
  CHECK(error_of(
            "rl.throughput",
            {{"params", 70e9}, {"batch", 512}, {"total_gpus", 256}, {"generation_replicas", 128}})
            .input == "generation_replicas");
  // Too small a replica, given by hand, is warned about by name.
  auto one = run("rl.throughput", {{"compute_efficiency", 1},
                                   {"bandwidth_efficiency", 1},
                                   {"params", 70e9},
                                   {"batch", 512},
                                   {"total_gpus", 256},
                                   {"gpus_per_replica", 1}});
  REQUIRE(one.ok);
  REQUIRE(one.warnings.size() == 1);
  CHECK(one.warnings[0].as_string().find("gpus_per_replica") != std::string::npos);
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
  auto r = run("rl.throughput", {{"compute_efficiency", 1},
                                 {"bandwidth_efficiency", 1},
                                 {"params", 70e9},
                                 {"batch", 512},
                                 {"total_gpus", 256},
                                 {"generation_replicas", 8},
                                 {"gpus_per_replica", 1},
                                 {"decode_model", "weights"}});
  REQUIRE(r.ok);
  CHECK(out(r, "sequences_per_replica") == 64);
  CHECK(out(r, "generate_time") ==
        doctest::Approx(64 * 100 * 2 * 70e9 / figures::h100_bf16 + 50 * 140e9 / 3.35e12)
            .epsilon(1e-12));
  // A different split: 3/4 of the GPUs training.
  auto q = run("rl.throughput", {{"compute_efficiency", 1},
                                 {"bandwidth_efficiency", 1},
                                 {"params", 70e9},
                                 {"batch", 512},
                                 {"total_gpus", 256},
                                 {"async_train_fraction", 0.75}});
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

// A mixture-of-experts policy trains with 3 forward passes' FLOPs per token, 2 per active weight
// each (Kaplan et al. 2020 §2.1: 6N on the weights a token uses) plus causal attention:
// Mixtral 8x7B, 12.88B of 46.70B active, less its 32,000 × 4,096 input embedding, and
// 2·75·32·256·32 over 150 tokens.
TEST_CASE("rl.throughput: an MoE policy trains and generates with its active parameters") {
  auto r = run("rl.throughput", {{"compute_efficiency", 1},
                                 {"bandwidth_efficiency", 1},
                                 {"model", "mixtral-8x7b"},
                                 {"gpu", "h100"},
                                 {"batch", 512},
                                 {"total_gpus", 256}});
  REQUIRE(r.ok);
  const double active = 12879925248;
  const double f = 2 * (active - 32000.0 * 4096) + 2 * 75.0 * 32 * 256 * 32;
  CHECK(out(r, "train_time_sync") ==
        doctest::Approx(4 * 3 * f * 512 * 150 / (256 * 989.4e12 * 0.5)).epsilon(1e-12));
}

// A generation replica is a TP × PP shape that can be built (core/scenario/replica.cpp, as
// serve.engine): Qwen2.5 7B has 28 query heads, 4 KV heads and 28 layers (Qwen2.5 technical
// report, Table 1), so TP is 1, 2 or 4. 200,000 sequences of 150 tokens at its 57,344 B per
// token (2 · 28 · 4 · 128 · 2) and 15.2 GB of weights need 1,735 GB: more than TP 4 × PP 4
// (1,280 GB), so TP 4 × PP 7 = 28 GPUs (7 divides 28 layers), not the 32 of the smallest
// power of two.
TEST_CASE("rl.throughput: the generation replica is a shape that can be built") {
  auto r = run("rl.throughput", {{"compute_efficiency", 1},
                                 {"bandwidth_efficiency", 1},
                                 {"model", "qwen2.5-7b"},
                                 {"batch", 200000},
                                 {"total_gpus", 256}});
  REQUIRE(r.ok);
  CHECK(out(r, "generation_memory") == doctest::Approx(2 * 7615616512.0 + 200000 * 150 * 57344.0));
  CHECK(out(r, "gpus_per_replica") == 28);
  // GPT-2's 12 layers cannot take 32 stages: 128 GPUs = TP 4 × PP 32 is refused by name.
  CHECK(
      error_of("rl.throughput",
               {{"model", "gpt2"}, {"batch", 512}, {"total_gpus", 1024}, {"gpus_per_replica", 128}})
          .input == "gpus_per_replica");
}
