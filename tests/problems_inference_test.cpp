// The inference area's practice problems: seed 0 of each is the seed's worked example (or
// practice problem), and the seeds' common mistakes are recognised by name. The generic checks
// (own answer correct, every mistake named, seeds 0..5) are in problems_test.cpp.
#include "problem_helpers.hpp"

using namespace napkin;
using test::seed0;

TEST_CASE("the inference area has at least 12 problems, covering seed 000 and seed 001") {
  int n = 0;
  for (const auto& p : problem_bank().problems()) n += p.area == "inference";
  CHECK(n >= 12);
  for (const char* group :
       {"seed000.p2", "seed000.p3", "seed000.ranking", "seed001.latency", "seed001.rl"}) {
    bool found = false;
    for (const auto& p : problem_bank().problems()) found = found || p.group == group;
    CHECK_MESSAGE(found, group);
  }
}

// Exact counts compared exactly; times from exact inputs to 1e-12; printed seed values to
// their printed digits.
TEST_CASE("seed 0 answers are the seeds' numbers") {
  CHECK(seed0("serve.batching.gpus").answer == 80);  // problem 2 (a)
  CHECK(seed0("serve.batching.latency").answer == doctest::Approx(0.1192).epsilon(1e-12));
  CHECK(seed0("serve.batching.qps_per_gpu").answer == doctest::Approx(500).epsilon(1e-12));
  CHECK(seed0("serve.batching.collection").answer == doctest::Approx(0.1).epsilon(1e-12));
  CHECK(seed0("serve.batching.option_a").answer == doctest::Approx(0.059).epsilon(1e-12));
  CHECK(seed0("serve.batching.option_b").answer == 45);
  CHECK(seed0("serve.batching.option_c").answer == 48);
  CHECK(seed0("serve.pipeline.latency").answer == doctest::Approx(0.1535).epsilon(1e-12));
  CHECK(seed0("serve.pipeline.gpus").answer == 90);
  // The worked examples charge half the collection window (120 ms, 75.2 ms); the wait to fill a
  // batch of b at q per second is (b − 1)/(2q): 49 / 1250 = 39.2 ms, 29 / (2 · 595.24) =
  // 24.36 ms (serving_test.cpp).
  CHECK(seed0("serve.pipeline.stage3").answer == doctest::Approx(0.07436).epsilon(1e-12));
  // Problem 3 with stage 2 batched (erratum): 200 − 20 − 119.2 − 74.36 = −13.56 ms.
  CHECK(seed0("serve.pipeline.remaining").answer == doctest::Approx(-0.01356).epsilon(1e-9));
  CHECK(seed0("infer.latency.decode").answer == doctest::Approx(0.0418).epsilon(5e-3));
  // The seed's 14.1 ms prefill is compute only; 100 tokens are memory-bound: 140 GB / 3.35 TB/s.
  CHECK(seed0("infer.latency.prefill").answer == doctest::Approx(0.0418).epsilon(5e-3));
  CHECK(seed0("infer.latency.total").answer == doctest::Approx(51 * 140e9 / 3.35e12).epsilon(5e-5));
  CHECK(seed0("infer.kv.gqa").answer == 4096 * 327680.0);
  CHECK(seed0("infer.kv.mla").answer == 131072 * 70272.0);
  CHECK(seed0("serve.llm_gpus.replica").answer == 2);
  // The seed's 211 GPUs assumed 140 GB on an 80 GB H100; on H200s by the roofline: 149.
  CHECK(seed0("serve.llm_gpus.gpus").answer == 149);
  CHECK(seed0("rl.throughput.sync").answer == doctest::Approx(11.4342).epsilon(1e-5));
  CHECK(seed0("rl.throughput.speedup").answer == doctest::Approx(1.10).epsilon(5e-3));
  CHECK(seed0("infer.decode.crossover").answer == doctest::Approx(990 / 3.35).epsilon(1e-12));
}

TEST_CASE("the seeds' mistakes are recognised with their feedback") {
  // Seed 000 mistake 2: 50 / 30,000 = 1.7 ms collection from the total QPS.
  Judgement j = test::check_seed0("serve.batching.collection", "1.7 ms");
  CHECK(j.mistake == "total_qps_for_collection");
  CHECK(j.feedback.find("per-GPU") != std::string::npos);
  // Seed 000 mistake 1 / red flag: "100 ms wait + 100 ms inference = 200 ms → 5 QPS".
  CHECK(test::check_seed0("serve.batching.qps_per_gpu", "5 QPS").mistake ==
        "qps_is_one_over_latency");
  CHECK(test::check_seed0("serve.batching.qps_per_gpu", "250").mistake == "wait_time_in_qps");
  // Problem 2 with the wait counted in the throughput: 50 / 0.12 s = 416.7 QPS → 120 GPUs.
  CHECK(test::check_seed0("serve.batching.gpus", "120 GPUs").mistake == "wait_time_in_qps");
  // Problem 2 (b) with the total QPS: 50 / 50,000 / 2 + 80 ms = 80.5 ms.
  CHECK(test::check_seed0("serve.batching.latency", "80.5 ms").mistake ==
        "total_qps_for_collection");
  CHECK(test::check_seed0("serve.batching.latency", "160 ms").mistake == "full_collection_window");
  CHECK(test::check_seed0("serve.batching.latency", "120 ms").verdict == "correct");
  // Seed 000 problem 3's slip: stage 2 counted at its 80 ms inference time → 25.6 ms left.
  CHECK(test::check_seed0("serve.pipeline.remaining", "25.6 ms").mistake ==
        "stage2_inference_only");
  // Seed 001's serving bug: the 70B model "fits" on one GPU.
  CHECK(test::check_seed0("serve.llm_gpus.replica", "1").mistake == "params_b_over_1e9");
  // MHA instead of GQA for LLaMA-2-70B: 8× the cache (the seed's formula).
  CHECK(test::check_seed0("infer.kv.gqa", "10.74 GB").mistake == "mha_cache");
  // The seed's own prefill (compute only) is half the roofline.
  CHECK(test::check_seed0("infer.latency.prefill", "14.1 ms").mistake == "one_side_of_roofline");
  CHECK(test::check_seed0("rl.throughput.speedup", "1.23").mistake == "async_without_scoring");
  // Seed 000 mistake 4: batch 100 at 150 ms averages 224.25 ms (99 / (2 · 666.7) s of wait on 45
  // GPUs), not 1.5 ms per request.
  CHECK(seed0("serve.batching.bigger_batch").answer ==
        doctest::Approx(0.15 + 99 / (2 * 30000 / 45.0)).epsilon(1e-12));
  CHECK(test::check_seed0("serve.batching.bigger_batch", "1.5 ms").mistake == "per_request_time");
  // Batched stages counted at inference time only: the pipeline with full windows counted.
  CHECK(test::check_seed0("serve.pipeline.latency", "110 ms").mistake == "inference_only");
}
