// Practice problems of the inference area: dynamic batching and multi-stage ranking (seed 000),
// LLM latency, KV cache, serving and RL (seed 001), and the decode roofline. Seed 0 of each is
// the seed's worked example or practice problem, as `source` says; the mistakes are the seeds'
// "Common mistakes" and "Red flags".
#include <algorithm>
#include <cmath>
#include <string>

#include "base/counts.hpp"
#include "base/units.hpp"
#include "inference/inference.hpp"
#include "practice/problems.hpp"
#include "practice/variant_presets.hpp"
#include "scenario/cluster.hpp"
#include "scenario/model.hpp"

namespace napkin {

namespace {

const std::vector<double> kQps = {10000, 20000, 30000, 50000, 100000};
const std::vector<double> kBatches = {10, 20, 25, 50, 100};
const std::vector<double> kInference = {0.02, 0.03, 0.04, 0.05, 0.08, 0.1};

const char* kQpsHint =
    "One GPU serves (batch size) / (time per batch) requests per second: only GPU "
    "time counts, never the wait to fill a batch.";
const char* kPerGpuHint =
    "Each GPU has its own queue after load balancing: its arrival rate is "
    "total QPS / number of GPUs.";
const char* kLatencyHint =
    "Average latency = wait + inference time. The i-th request of a batch of b waits for the "
    "b − i after it, so the mean wait is (b − 1) / (2 × per-GPU QPS): just under half the "
    "collection window, and nothing for a batch of one.";

// Seed 000 mistake 2: the batch fills from the whole load instead of one GPU's share.
Mistake total_qps_for_collection() {
  return {"total_qps_for_collection",
          "You used the total QPS instead of the per-GPU QPS for the collection time: each GPU "
          "has its own queue and receives total / GPUs requests per second.",
          [](const Values& p, const Values&) {
            return (p["batch_size"] - 1) / p["total_qps"] / 2 + p["inference_time"];
          },
          0};
}

Mistake full_window() {
  return {"full_collection_window",
          "That counts the whole collection window; a request arrives on average halfway "
          "through it, so it waits about half the window (the whole window is the first "
          "request's wait).",
          [](const Values&, const Values& out) {
            return out["collection_time"] + out["avg_latency"] - out["avg_wait"];
          },
          0};
}

// Seed 000 mistake 1 and red flag "QPS = 1 / total_latency": GPU count from a rate that
// counts waiting or ignores the batch.
Mistake gpus_from_latency() {
  return {"wait_time_in_qps",
          "You counted the wait in the throughput: QPS per GPU is batch / inference time (GPU "
          "time only), not batch / latency.",
          [](const Values& p, const Values& out) {
            return ceil_count(p["total_qps"] / (p["batch_size"] / out["avg_latency"]));
          },
          0};
}

Mistake gpus_qps_one_over_latency() {
  return {"qps_is_one_over_latency",
          "QPS is not 1 / latency: a GPU finishes a whole batch per inference time, so it "
          "serves batch / inference time requests per second.",
          [](const Values& p, const Values&) {
            return ceil_count(p["total_qps"] * p["inference_time"]);
          },
          0};
}

bool sensible_gpus(const Values& p) {
  double g = p["total_qps"] * p["inference_time"] / p["batch_size"];
  return g >= 2 && g <= 5000;
}

// "How many GPUs does this batched stage need?": seed 000 asks it three times (problem 2 (a),
// options B and C) with other numbers.
Problem gpus_problem(const char* id, const char* title, const char* source, const char* group,
                     const char* statement, double qps, double batch, double inference,
                     const char* rounding_hint) {
  return {.id = id,
          .area = "inference",
          .title = title,
          .source = source,
          .group = group,
          .statement = statement,
          .params = {{"total_qps", qps, kQps},
                     {"batch_size", batch, kBatches},
                     {"inference_time", inference, kInference}},
          .valid = sensible_gpus,
          .estimator = "serve.batching",
          .output = "gpus_needed",
          .unit = answer_in::gpus(),
          .integer = true,
          .bound = Bound::at_least,
          .hints = {kQpsHint, rounding_hint},
          .mistakes = {gpus_from_latency(), gpus_qps_one_over_latency()},
          .difficulty = 1,
          .tags = "batching,GPU count"};
}

void batching(ProblemBank& bank) {
  const char* gpus_statement =
      "A ranking stage receives {total_qps} QPS in total. It runs batches of {batch_size} requests "
      "and each batch takes {inference_time} on a GPU. How many GPUs are needed?";
  bank.add(gpus_problem("serve.batching.gpus", "GPUs for a batched serving stage",
                        "the worked example §8, practice problem 2 (a): 625 QPS per GPU, 80 GPUs",
                        "seed000.p2", gpus_statement, 50000, 50, 0.08,
                        "GPUs = total QPS / QPS per GPU, rounded up."));

  bank.add({
      .id = "serve.batching.latency",
      .area = "inference",
      .title = "Average latency with dynamic batching",
      .source = "the worked example §8, practice problem 2 (b): 80 ms collection; its 120 ms "
                "charges half the window, the wait to fill is 49 / (2 × 625) s: 119.2 ms",
      .group = "seed000.p2",
      .statement = "A stage receives {total_qps} QPS in total, runs batches of {batch_size} with "
                   "{inference_time} per batch, and has just enough GPUs for the load. What is "
                   "the average latency of a request?",
      // The latency is 1.5 × the batch time when the GPUs divide the load exactly, so the
      // variants need many batch times to differ.
      .params = {{"total_qps", 50000, kQps},
                 {"batch_size", 50, kBatches},
                 {"inference_time",
                  0.08,
                  {0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.045, 0.05, 0.06, 0.07, 0.08, 0.09,
                   0.1, 0.12, 0.15, 0.2}}},
      .valid = sensible_gpus,
      .estimator = "serve.batching",
      .output = "avg_latency",
      .unit = answer_in::ms(),
      .hints = {"First the GPUs: total QPS / (batch / inference time), rounded up.", kPerGpuHint,
                "Collection time = batch / per-GPU QPS.", kLatencyHint},
      .mistakes = {total_qps_for_collection(), full_window()},
      .difficulty = 2,
      .tags = "batching,latency",
  });

  bank.add({
      .id = "serve.batching.qps_per_gpu",
      .area = "inference",
      .title = "Throughput of one GPU with batching",
      .source = "the worked example §2: batch 50 in 100 ms → 500 QPS (mistake 1: not 5 QPS)",
      .statement = "A GPU runs batches of {batch_size} requests; each batch takes "
                   "{inference_time}. Under continuous load, how many queries per second does "
                   "it serve?",
      .params = {{"batch_size", 50, kBatches},
                 {"inference_time", 0.1, kInference},
                 {"total_qps", 30000, {}}},
      .estimator = "serve.batching",
      .output = "qps_per_gpu",
      .unit = answer_in::count(unit::requests_per_s, "QPS"),
      .hints = {kQpsHint, "QPS per GPU = batch size / time per batch."},
      .mistakes = {{"wait_time_in_qps",
                    "You added the wait to fill the batch to the time: throughput counts GPU "
                    "time only (at steady state the next batch is already waiting).",
                    [](const Values& p, const Values&) {
                      return p["batch_size"] / (2 * p["inference_time"]);
                    },
                    0},
                   {"qps_is_one_over_latency",
                    "QPS = 1 / latency confuses throughput with latency (a classic slip): "
                    "100 ms wait + 100 ms inference is not 5 QPS.",
                    [](const Values& p, const Values&) { return 1 / (2 * p["inference_time"]); },
                    0},
                   {"ignored_batch", "Each inference serves a whole batch, not one request.",
                    [](const Values& p, const Values&) { return 1 / p["inference_time"]; }, 0}},
      .difficulty = 1,
      .tags = "batching,throughput",
  });

  bank.add({
      .id = "serve.batching.collection",
      .area = "inference",
      .title = "Batch collection time",
      .source = "the worked example §2: 30,000 QPS over 60 GPUs, batch 50 → 100 ms (mistake 2: not "
                "1.7 ms)",
      .statement =
          "{total_qps} QPS are spread evenly over {gpus:raw} GPUs, each collecting batches "
          "of {batch_size} requests. How long does one GPU take to collect a batch?",
      .params = {{"total_qps", 30000, kQps},
                 {"gpus", 60, {20, 40, 50, 60, 100, 200}},
                 {"batch_size", 50, kBatches}},
      // The GPUs just keep up: each batch runs in the time the next one takes to fill.
      .derive =
          [](Values& p) { p.set("inference_time", p["batch_size"] * p["gpus"] / p["total_qps"]); },
      .valid = [](const Values& p) { return p["inference_time"] <= 1; },
      .estimator = "serve.batching",
      .output = "collection_time",
      .unit = answer_in::ms(),
      .hints = {kPerGpuHint, "Collection time = batch / per-GPU QPS."},
      .mistakes = {{"total_qps_for_collection",
                    "You used the total QPS instead of the per-GPU QPS: each GPU has its own "
                    "queue, fed total / GPUs requests per second.",
                    [](const Values& p, const Values&) { return p["batch_size"] / p["total_qps"]; },
                    0},
                   times("halved_window", 0.5,
                         "Half the window is the average wait, not the collection time.")},
      .difficulty = 1,
      .tags = "batching,latency",
  });

  bank.add({
      .id = "serve.batching.bigger_batch",
      .area = "inference",
      .title = "Does a bigger batch lower latency?",
      .source = "the worked example §4, mistake 4 (bigger batch: higher throughput, longer wait)",
      .statement = "A stage serves {total_qps} QPS. To save GPUs the team raises the batch to "
                   "{batch_size} requests, which take {inference_time} per batch, on just "
                   "enough GPUs. What is the average latency now?",
      .params = {{"total_qps", 30000, kQps},
                 {"batch_size", 100, {50, 100, 200}},
                 {"inference_time",
                  0.15,
                  {0.06, 0.07, 0.08, 0.09, 0.1, 0.11, 0.12, 0.13, 0.14, 0.15, 0.16, 0.18, 0.2, 0.22,
                   0.25, 0.3}}},
      .valid = sensible_gpus,
      .estimator = "serve.batching",
      .output = "avg_latency",
      .unit = answer_in::ms(),
      .hints = {"A bigger batch raises throughput per GPU, so fewer GPUs are needed — and each "
                "GPU's queue fills a batch more slowly.",
                kLatencyHint},
      .mistakes =
          {{"per_request_time",
            "Inference time / batch is the GPU time per request (the inverse of "
            "throughput), not anyone's latency: a bigger batch does not make a request "
            "faster, it makes it wait longer.",
            [](const Values& p, const Values&) { return p["inference_time"] / p["batch_size"]; },
            0},
           {"ignored_collection",
            "The batch has to fill first: add the mean wait, (batch − 1) / (2 × per-GPU QPS).",
            [](const Values& p, const Values&) { return p["inference_time"]; }, 0}},
      .difficulty = 2,
      .tags = "batching,latency",
  });

  // The latency is about 1.5 × the batch time on just enough GPUs: many batch times.
  const std::vector<Param> stage3 = {{"total_qps", 30000, kQps},
                                     {"batch_size", 20, kBatches},
                                     {"inference_time",
                                      0.04,
                                      {0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.045, 0.05,
                                       0.06, 0.07, 0.08, 0.09, 0.1, 0.12, 0.15}}};
  bank.add({
      .id = "serve.batching.option_a",
      .area = "inference",
      .title = "Does a batched stage meet its latency budget?",
      .source =
          "the worked example §3, stage 3 option A: 60 GPUs, 40 ms collection, 60 ms with half "
          "the window; 19 / 1000 s of wait makes 59 ms (over 50 ms)",
      .statement = "Stage 3 of a ranking system receives {total_qps} QPS, batches {batch_size} "
                   "requests and needs {inference_time} per batch, on just enough GPUs. What is "
                   "its average latency (is it within a 50 ms budget)?",
      .params = stage3,
      .valid = sensible_gpus,
      .estimator = "serve.batching",
      .output = "avg_latency",
      .unit = answer_in::ms(),
      .hints = {kQpsHint, kPerGpuHint, kLatencyHint},
      .mistakes = {total_qps_for_collection(), full_window()},
      .difficulty = 2,
      .tags = "batching,latency",
  });

  bank.add(
      gpus_problem("serve.batching.option_b", "GPUs after optimizing the model",
                   "the worked example §3, stage 3 option B: 30,000 / (20 / 0.03) = 45 GPUs", "",
                   "A TensorRT-optimized stage runs batches of {batch_size} in {inference_time} "
                   "and must serve {total_qps} QPS. How many GPUs does it need?",
                   30000, 20, 0.03,
                   "GPUs = total QPS / QPS per GPU; round up only a real fraction: when the "
                   "load is a whole multiple of one GPU's rate, no extra GPU is needed."));

  bank.add(gpus_problem(
      "serve.batching.option_c", "GPUs for a heavier stage 2 (skip stage 3)",
      "the worked example §3, option C: batch 50 at 80 ms → 625 QPS per GPU, 48 GPUs", "",
      gpus_statement, 30000, 50, 0.08, "GPUs = total QPS / QPS per GPU, rounded up."));
}

std::string stages_json(const Values& p, bool stage2_batched) {
  auto num = [](double v) {
    std::string s;
    append_number(s, v);
    return s;
  };
  std::string s2 = stage2_batched
                       ? R"({"name": "Stage 2", "batch": )" + num(p["s2_batch"]) +
                             R"(, "inference": )" + num(p["s2_inference"]) + "}"
                       : R"({"name": "Stage 2", "latency": )" + num(p["s2_inference"]) + "}";
  return R"([{"name": "Stage 1", "latency": )" + num(p["s1_latency"]) + "}, " + s2 +
         R"(, {"name": "Stage 3", "batch": )" + num(p["s3_batch"]) + R"(, "inference": )" +
         num(p["s3_inference"]) + "}]";
}

// One batched stage with just enough GPUs, by hand (seed 000 §5): the mean wait for a batch
// to fill, (b − 1) / (2q) at q requests per second per GPU.
double fill_wait(double total_qps, double batch, double inference) {
  const double gpus = ceil_count(total_qps * inference / batch);
  return (batch - 1) / (2 * total_qps / gpus);
}
double stage2_wait(const Values& p) {
  return fill_wait(p["total_qps"], p["s2_batch"], p["s2_inference"]);
}
// Budget left of 200 ms with stage 2 and stage 3 batched.
double remaining(const Values& p) {
  const double w3 = fill_wait(p["total_qps"], p["s3_batch"], p["s3_inference"]);
  return 0.2 - p["s1_latency"] - (stage2_wait(p) + p["s2_inference"]) - (w3 + p["s3_inference"]);
}

void pipeline(ProblemBank& bank) {
  const std::vector<Param> ranking = {{"total_qps", 30000, {10000, 20000, 30000, 50000}},
                                      {"s1_latency", 0.02, {0.01, 0.02, 0.03}, unit::seconds},
                                      {"s2_batch", 50, {20, 50, 100}, unit::none},
                                      {"s2_inference", 0.05, {0.03, 0.05, 0.08}, unit::seconds},
                                      {"s3_batch", 20, {10, 20, 30}, unit::none},
                                      {"s3_inference", 0.04, {0.03, 0.04, 0.05}, unit::seconds}};
  const char* ranking_statement =
      "A ranking pipeline serves {total_qps} QPS. Stage 1 (ANN retrieval) takes {s1_latency} with "
      "no batching. Stage 2 batches {s2_batch} requests with {s2_inference} per batch; stage 3 "
      "batches {s3_batch} with {s3_inference} per batch; each batched stage has just enough "
      "GPUs. ";
  auto inputs = [](const Values& p) {
    Json j = Json::object();
    j.set("total_qps", p["total_qps"]);
    j.set("budget", 0.2);
    j.set("stages", stages_json(p, true));
    return j;
  };
  bank.add({
      .id = "serve.pipeline.latency",
      .area = "inference",
      .title = "End-to-end latency of a ranking pipeline",
      .source = "the worked example §3, progressive ranking: 20 + 75 + 60 = 155 ms with half "
                "the collection windows; the wait to fill gives 20 + 74.5 + 59 = 153.5 ms",
      .group = "seed000.ranking",
      .setup = ranking_statement,
      .statement = "What is the average end-to-end latency?",
      .params = ranking,
      .estimator = "serve.pipeline",
      .inputs = inputs,
      .output = "total_latency",
      .unit = answer_in::ms(),
      .hints = {"Stages run one after another: their latencies add.", kLatencyHint,
                "A batched stage with just enough GPUs collects a batch in about its inference "
                "time."},
      .mistakes = {{"inference_only",
                    "You added inference times only: each batched stage also makes a request "
                    "wait for its batch to fill, about half its collection window.",
                    [](const Values& p, const Values&) {
                      return p["s1_latency"] + p["s2_inference"] + p["s3_inference"];
                    },
                    0},
                   {"full_collection_window",
                    "That counts the whole collection window of each batched stage; the "
                    "average request waits about half of it.",
                    [](const Values& p, const Values& out) {
                      return 2 * out["total_latency"] - p["s1_latency"] - p["s2_inference"] -
                             p["s3_inference"];
                    },
                    0}},
      .difficulty = 3,
      .tags = "batching,latency",
  });
  bank.add({
      .id = "serve.pipeline.gpus",
      .area = "inference",
      .title = "GPUs of a ranking pipeline",
      .source = "the worked example §3, progressive ranking: 30 + 60 = 90 GPUs",
      .group = "seed000.ranking",
      .setup = ranking_statement,
      .statement = "How many GPUs do the batched stages need?",
      .params = ranking,
      .estimator = "serve.pipeline",
      .inputs = inputs,
      .output = "total_gpus",
      .unit = answer_in::gpus(),
      .integer = true,
      .bound = Bound::at_least,
      .hints = {kQpsHint,
                "Every request goes through every stage: size each batched stage for "
                "the full QPS, then add."},
      .mistakes = {{"qps_is_one_over_latency",
                    "A GPU serves batch / inference time requests per second, not "
                    "1 / inference time.",
                    [](const Values& p, const Values&) {
                      return ceil_count(p["total_qps"] * p["s2_inference"]) +
                             ceil_count(p["total_qps"] * p["s3_inference"]);
                    },
                    0}},
      .difficulty = 2,
      .tags = "batching,GPU count",
  });

  const std::vector<Param> p3 = {{"total_qps", 50000, {20000, 30000, 50000}},
                                 {"s1_latency", 0.02, {0.01, 0.02}, unit::seconds},
                                 {"s2_batch", 50, {20, 50}, unit::none},
                                 {"s2_inference", 0.08, {0.04, 0.05, 0.08}, unit::seconds},
                                 {"s3_batch", 30, {10, 20, 25, 30, 40}, unit::none},
                                 {"s3_inference",
                                  0.05,
                                  {0.02, 0.025, 0.03, 0.035, 0.04, 0.045, 0.05, 0.06, 0.07, 0.08},
                                  unit::seconds}};
  bank.add({
      .id = "serve.pipeline.stage3",
      .area = "inference",
      .title = "Latency of a batched stage under a budget",
      .source =
          "the worked example §8, practice problem 3: batch 30, 50 ms at 50k QPS → 84 GPUs, 75 ms "
          "(74.4 ms with the wait to fill, 29 / (2 × 595) s)",
      .group = "seed000.p3",
      .statement =
          "At {total_qps} QPS, stage 3 batches {s3_batch} requests with {s3_inference} per "
          "batch, on just enough GPUs. What is its average latency?",
      .params = p3,
      .estimator = "serve.batching",
      .inputs =
          [](const Values& p) {
            Json j = Json::object();
            j.set("total_qps", p["total_qps"]);
            j.set("batch_size", p["s3_batch"]);
            j.set("inference_time", p["s3_inference"]);
            return j;
          },
      .output = "avg_latency",
      .unit = answer_in::ms(),
      .hints = {kQpsHint, "GPUs: round up; then per-GPU QPS = total / GPUs.", kLatencyHint},
      .mistakes = {{"total_qps_for_collection",
                    "You used the total QPS instead of the per-GPU QPS for the collection time.",
                    [](const Values& p, const Values&) {
                      return (p["s3_batch"] - 1) / p["total_qps"] / 2 + p["s3_inference"];
                    },
                    0},
                   full_window()},
      .difficulty = 2,
      .tags = "batching,latency",
  });
  bank.add({
      .id = "serve.pipeline.remaining",
      .area = "inference",
      .title = "Latency budget left for stage 3",
      .source = "the worked example §8, practice problem 3 (with stage 2 batched as in problem 2: "
                "60.8 ms left for stage 3, not the worked example's 100 ms; see docs/errata.md)",
      .group = "seed000.p3",
      .statement = "A 200 ms budget covers three stages at {total_qps} QPS. Stage 1 takes "
                   "{s1_latency}; stage 2 batches {s2_batch} requests with {s2_inference} per "
                   "batch on just enough GPUs; stage 3 batches {s3_batch} with {s3_inference}. "
                   "How much of the budget is left after stages 1, 2 and 3 (negative if over)?",
      .params = p3,
      .valid = [](const Values& p) { return std::fabs(remaining(p)) >= 0.01; },
      .estimator = "serve.pipeline",
      .inputs =
          [](const Values& p) {
            Json j = Json::object();
            j.set("total_qps", p["total_qps"]);
            j.set("budget", 0.2);
            j.set("stages", stages_json(p, true));
            return j;
          },
      .output = "remaining_budget",
      .unit = answer_in::ms(),
      .hints = {"Stage latencies add; a batched stage's latency is the wait for its batch to fill, "
                "(b − 1) / (2 × per-GPU QPS), plus its inference time.",
                "Stage 2 is problem 2's stage: batch 50 at 80 ms averages 119.2 ms, not 80 ms."},
      .mistakes = {{"stage2_inference_only",
                    "Stage 2 is batched: its requests also wait for the batch to fill, so it "
                    "takes more than its inference time (a worked example makes this slip).",
                    [](const Values& p, const Values& out) {
                      return 0.2 - out["total_latency"] + stage2_wait(p);
                    },
                    0}},
      .difficulty = 3,
      .tags = "batching,latency",
  });
}

const char* kDecodeHint =
    "Decode is memory-bound at small batch: every step reads every weight once, N × bytes per "
    "weight, at the memory bandwidth.";
const char* kPrefillHint =
    "Prefill does two things at once: the FLOPs of every prompt token, and one read of every "
    "weight. Which takes longer for this prompt?";
const char* kPrefillFormula =
    "T = max(prompt tokens · 2N / peak, N · 2 bytes / bandwidth): a short prompt is "
    "memory-bound.";

// One request alone (batch 1) through the shared latency function, core/inference/inference.cpp,
// with the roofline prefill (Pope et al. 2022 §3: the prompt's FLOPs at peak or one read of the
// weights, whichever is longer) and the worked example's decode (one read of the weights per
// generated token): what the statements give a student to compute.
struct OneRequest {
  double prefill = std::nan(""), decode_step = std::nan("");
  double total(double gen_len) const { return prefill + gen_len * decode_step; }
};
OneRequest one_request(const Values& p) {
  InferLatencyIn in;
  in.params = p["params"];
  in.prompt_len = p["prompt_len"];
  in.gen_len = p["gen_len"];
  in.peak_flops = p["peak_flops"];
  in.mem_bandwidth = p["mem_bandwidth"];
  Derivation quiet(false);
  in.decode_model = "roofline";
  Result<InferLatencyOut> roofline = infer_latency(in, quiet);
  in.decode_model = "weights";
  Result<InferLatencyOut> weights = infer_latency(in, quiet);
  OneRequest r;
  if (roofline.ok() && weights.ok()) {
    r.prefill = roofline->prefill_time;
    r.decode_step = weights->decode_time_per_token;
  }
  return r;
}

// Seed 0 is the worked example's LLaMA-2-70B on an H100 (990 TFLOP/s, 3.35 TB/s; gpu = -1);
// variants take a real dense model's exact size and a real accelerator's BF16 peak and HBM
// bandwidth together (scenario presets), on one that holds the BF16 weights.
std::vector<double> single_gpu_model_sizes() {
  std::vector<double> v;
  for (const ModelPreset* m : dense_model_presets()) {
    const double n = model_params(m->model).total;
    if (n >= 1e9 && n <= 1e11 && std::find(v.begin(), v.end(), n) == v.end()) v.push_back(n);
  }
  return v;
}

double h200_index() {
  const auto& gpus = accelerator_presets();
  for (std::size_t i = 0; i < gpus.size(); ++i)
    if (gpus[i]->id == "h200") return static_cast<double>(i);
  return -1;
}

bool weights_fit_one_gpu(const Values& p) {
  return p["gpu"] < 0 || 2 * p["params"] <= p["gpu_memory"];  // BF16: 2 bytes per weight
}

// The problem's numbers as inputs, with the worked example's weight-only decode: the
// statements ask for N · 2 bytes / bandwidth per token (the cache read of a 150-token request
// is 0.2 % of it).
Json weights_decode_inputs(const Values& p) {
  Json j = Json::object();
  for (const auto& [name, value] : p.items())
    if (name != "gpu") j.set(name, value);  // an index into the presets, not an input
  j.set("decode_model", "weights");
  return j;
}

std::vector<Param> latency_params() {
  return {{"params", 70e9, single_gpu_model_sizes()},
          {"prompt_len", 100, {100, 500, 1000, 2000}},
          {"gen_len", 50, {50, 100, 200, 500}},
          {"gpu", -1, indices(accelerator_presets().size())},
          {"peak_flops", 990e12, {}, unit::flops},
          {"mem_bandwidth", 3.35e12, {}, unit::bytes_per_s},
          {"gpu_memory", 80e9, {}, unit::bytes}};
}

void llm(ProblemBank& bank) {
  const char* setup =
      "A {params}-parameter dense model in BF16 serves one request ({prompt_len} prompt tokens, "
      "{gen_len} generated) on an accelerator with {peak_flops} and {mem_bandwidth}. ";
  const char* setup_fixed =
      "LLaMA-2-70B ({params} parameters, BF16) serves one request ({prompt_len} prompt tokens, "
      "{gen_len} generated) on an H100 ({peak_flops}, {mem_bandwidth}). ";
  bank.add({
      .id = "infer.latency.decode",
      .area = "inference",
      .title = "Time per generated token",
      .source = "the worked example §9 (LLaMA-2-70B on H100: 41.8 ms per token)",
      .group = "seed001.latency",
      .setup = setup,
      .statement = "How long does each decode step take?",
      .fixed_setup = setup_fixed,
      .fixed_statement = "How long does each decode step take?",
      .params = latency_params(),
      .derive = accelerator_of_preset,
      .valid = weights_fit_one_gpu,
      .estimator = "infer.latency",
      .inputs = weights_decode_inputs,
      .output = "decode_time_per_token",
      .unit = answer_in::ms(),
      .hints = {kDecodeHint, "t = N · 2 bytes / bandwidth."},
      .mistakes =
          {times("forgot_bytes_per_weight", 0.5,
                 "A BF16 weight is 2 bytes: the step reads 2·N bytes, not N."),
           {"compute_bound_decode",
            "2·N / peak FLOP/s is the compute time; at batch 1 decode waits on memory, "
            "reading every weight per token.",
            [](const Values& p, const Values&) { return 2 * p["params"] / p["peak_flops"]; }, 0}},
      .difficulty = 1,
      .tags = "decode,roofline,latency",
  });
  bank.add({
      .id = "infer.latency.prefill",
      .area = "inference",
      .title = "Prefill time of a prompt",
      .source = "the worked example §9 (LLaMA-2-70B on H100, 100 tokens: the worked example's 14.1 "
                "ms is compute "
                "only; reading 140 GB at 3.35 TB/s takes 41.8 ms)",
      .group = "seed001.latency",
      .setup = setup,
      .statement = "How long does the prefill take?",
      .fixed_setup = setup_fixed,
      .fixed_statement = "How long does the prefill take?",
      .params = latency_params(),
      .derive = accelerator_of_preset,
      .valid = weights_fit_one_gpu,
      .estimator = "infer.latency",
      // The roofline model, so the worked solution shows max(compute, one read of the weights)
      // and agrees with the key.
      .inputs =
          [](const Values& p) {
            Json j = Json::object();
            for (const auto& [name, value] : p.items())
              if (name != "gpu") j.set(name, value);  // an index into the presets, not an input
            j.set("decode_model", "roofline");
            return j;
          },
      .output = "prefill_time",
      .unit = answer_in::ms(),
      .hints = {kPrefillHint, kPrefillFormula},
      .mistakes =
          {{"one_side_of_roofline",
            "Prefill needs both the prompt's FLOPs at peak and one read of every weight; the "
            "time is the longer of the two, and for a short prompt that is the weight read.",
            [](const Values& p, const Values&) {
              return std::min(p["prompt_len"] * 2 * p["params"] / p["peak_flops"],
                              2 * p["params"] / p["mem_bandwidth"]);
            },
            0},
           {"one_token_only", "That is one token's prefill; the prompt has many tokens.",
            [](const Values& p, const Values&) { return 2 * p["params"] / p["peak_flops"]; }, 0}},
      .difficulty = 2,
      .tags = "prefill,roofline,latency",
  });
  bank.add({
      .id = "infer.latency.total",
      .area = "inference",
      .title = "End-to-end latency of a request",
      .source = "the worked example §9 (LLaMA-2-70B on H100; its 14.1 ms prefill is compute only: "
                "41.8 + 50 × 41.8 = 2,131.6 ms)",
      .group = "seed001.latency",
      .setup = setup,
      .statement = "What is the end-to-end latency?",
      .fixed_setup = setup_fixed,
      .fixed_statement = "What is the end-to-end latency?",
      .params = latency_params(),
      .derive = accelerator_of_preset,
      .valid = weights_fit_one_gpu,
      .estimator = "infer.latency",
      .inputs = weights_decode_inputs,
      .output = "total_time",
      .answer =
          [](const Values& p, const Values& out) {
            return one_request(p).prefill + p["gen_len"] * out["decode_time_per_token"];
          },
      .unit = answer_in::ms(),
      .hints = {kPrefillHint, kDecodeHint, "Total = prefill + generated tokens × decode step."},
      .mistakes = {{"one_decode_step",
                    "Each generated token needs its own decode step: multiply the step time by "
                    "the generated tokens.",
                    [](const Values& p, const Values& out) {
                      return one_request(p).prefill + out["decode_time_per_token"];
                    },
                    0},
                   {"compute_bound_decode",
                    "Decode at batch 1 is memory-bound: each step reads all the weights.",
                    [](const Values& p, const Values&) {
                      return one_request(p).prefill +
                             p["gen_len"] * 2 * p["params"] / p["peak_flops"];
                    },
                    0}},
      .explain = "The prefill step above counts FLOPs only. A prompt also reads every weight "
                 "once, so the prefill takes the longer of its FLOPs at peak and the weight "
                 "bytes at the memory bandwidth; add the decode steps to that.",
      .difficulty = 2,
      .tags = "prefill,decode,latency",
  });

  bank.add({
      .id = "infer.kv.gqa",
      .area = "inference",
      .title = "KV cache of a GQA model",
      .source = "Touvron et al. 2023 (LLaMA 2) §2.2: 80 layers, 8 KV heads of 128 → 327,680 B "
                "per token; the worked example §9 counts it as MHA",
      .statement = "A model has {n_layers} layers, {n_heads} query heads and {n_kv_heads} KV "
                   "heads of dimension {head_dim} (grouped-query attention). How much BF16 KV "
                   "cache does one sequence of {seq_len} tokens hold?",
      .fixed_statement = "LLaMA-2-70B has {n_layers} layers, {n_heads} query heads and "
                         "{n_kv_heads} KV heads of dimension {head_dim} (GQA). How much BF16 KV "
                         "cache does one sequence of {seq_len} tokens hold?",
      .params = {{"n_layers", 80, {32, 40, 80}},
                 {"n_heads", 64, {32, 64}},
                 {"n_kv_heads", 8, {1, 4, 8}},
                 {"head_dim", 128, {64, 128}},
                 {"seq_len", 4096, {2048, 4096, 8192, 32768}}},
      .estimator = "infer.kv",
      .output = "bytes_per_sequence",
      .unit = answer_in::gb(),
      .hints = {"Per token and layer the cache holds a key and a value for each KV head.",
                "Bytes per token = 2 · layers · KV heads · head dim · 2 bytes; times the "
                "tokens."},
      .mistakes = {{"mha_cache",
                    "That is the cache of full multi-head attention: with GQA only the KV heads "
                    "are cached, not every query head.",
                    [](const Values& p, const Values& out) {
                      return out["bytes_per_sequence"] * p["n_heads"] / p["n_kv_heads"];
                    },
                    0},
                   times("forgot_k_and_v", 0.5,
                         "Both keys and values are cached: the factor 2 in 2 · L · h_kv · d_h.")},
      .difficulty = 2,
      .tags = "KV cache,attention,memory",
  });
  bank.add({
      .id = "infer.kv.mla",
      .area = "inference",
      .title = "KV cache with multi-head latent attention",
      .source = "DeepSeek-V2 Table 1: (d_c + d_h^R) · l elements per token; DeepSeek-V3 "
                "(61 layers, 512 + 64): 70,272 B per token (Zhao et al. 2025, Table 1)",
      .statement = "A model with {n_layers} layers uses MLA with a KV latent of {latent_dim} and "
                   "a decoupled RoPE key of {rope_dim} per token and layer ({n_heads} heads of "
                   "{head_dim}). How much BF16 cache does one sequence of {seq_len} tokens hold?",
      .fixed_statement = "DeepSeek-V3 has {n_layers} layers and MLA with a KV latent of "
                         "{latent_dim} and a decoupled RoPE key of {rope_dim} ({n_heads} heads of "
                         "{head_dim}). How much BF16 cache does one sequence of {seq_len} tokens "
                         "hold?",
      .params = {{"n_layers", 61, {27, 60, 61}},
                 {"latent_dim", 512, {256, 512}},
                 {"rope_dim", 64, {32, 64}},
                 {"n_heads", 128, {}},
                 {"head_dim", 128, {}},
                 {"seq_len", 131072, {4096, 32768, 131072}}},
      .estimator = "infer.kv",
      .output = "bytes_per_sequence",
      .unit = answer_in::gb(),
      .hints = {"MLA caches one compressed latent per token and layer, shared by keys and values "
                "of every head, plus the small RoPE key.",
                "Bytes = layers · (latent + rope) · 2 bytes · tokens."},
      .mistakes = {{"mha_cache",
                    "That is multi-head attention's cache (2 · heads · head dim per layer); MLA "
                    "caches only the latent and the RoPE key.",
                    [](const Values& p, const Values& out) {
                      return out["mha_bytes_per_token"] * p["seq_len"];
                    },
                    0},
                   {"forgot_rope_key",
                    "MLA caches the decoupled RoPE key beside the latent (RoPE cannot be folded "
                    "into it): d_c + d_h^R per layer.",
                    [](const Values& p, const Values&) {
                      return p["n_layers"] * p["latent_dim"] * 2 * p["seq_len"];
                    },
                    0},
                   times("latent_for_k_and_v", 2,
                         "One latent serves both keys and values: there is no factor 2 in MLA.")},
      .difficulty = 2,
      .tags = "KV cache,attention,memory",
  });

  bank.add({
      .id = "serve.llm_gpus.replica",
      .area = "inference",
      .title = "GPUs for one replica of an LLM",
      .source = "the worked example §9 estimate_serving_gpus, with its weight-memory bug fixed "
                "(70B in BF16 = 140 GB: two 80 GB GPUs)",
      .statement = "How many GPUs of {gpu_memory} does one replica of a {params}-parameter model "
                   "in BF16 need, to hold its weights and one request's KV cache ({prompt_len} + "
                   "{gen_len} tokens, {n_layers} layers, d = {d_model}, MHA)?",
      // Variants: a real dense model's exact size, depth and width (never a 405B model with
      // 70B's 80 layers of 8,192), on the memory sizes accelerators ship with.
      .params = {{"model", -1, indices(dense_model_presets().size())},
                 {"params", 70e9, {}},
                 {"gpu_memory", 80e9, {24e9, 40e9, 48e9, 80e9, 94e9, 141e9, 192e9}},
                 {"prompt_len", 100, {}},
                 {"gen_len", 50, {}},
                 {"n_layers", 80, {}},
                 {"d_model", 8192, {}},
                 // The statement's multi-head cache, 2·L·d per token: every head its own KV
                 // head, of width d ÷ heads.
                 {"n_heads", 64, {}},
                 {"n_kv_heads", 0, {}},
                 {"head_dim", 0, {}},
                 {"users", 1000, {}},
                 {"rps_per_user", 0.01, {}}},
      .derive =
          [](Values& p) {
            const auto& models = dense_model_presets();
            const double i = p["model"];
            if (i < 0 || i >= static_cast<double>(models.size())) return;
            const Model& m = models[static_cast<std::size_t>(i)]->model;
            p.set("params", model_params(m).total);
            p.set("n_layers", m.layers);
            p.set("d_model", m.d_model);
            p.set("n_heads", m.heads);
          },
      .estimator = "serve.llm_gpus",
      .output = "min_gpus_memory",
      .unit = answer_in::gpus(),
      .integer = true,
      .bound = Bound::at_least,
      .hints = {"Weights: parameters × 2 bytes (params in billions × 2 = GB).",
                "Add one request's KV cache, divide by one GPU's memory, round up."},
      .mistakes = {{"params_b_over_1e9",
                    "The worked example's bug: (parameters in billions) × 2 / 1e9 'GB' is bytes, "
                    "not GB. A 70B model's "
                    "BF16 weights take 140 GB.",
                    [](const Values&, const Values&) { return 1.0; }, 0}},
      .difficulty = 2,
      .tags = "memory,KV cache,GPU count",
  });
  bank.add({
      .id = "serve.llm_gpus.gpus",
      .area = "inference",
      .title = "GPUs for an LLM request load (single-stream)",
      .source = "the worked example §9 (5,000 users × 0.02 req/s = 100 req/s; the worked example's "
                "211 GPUs put a "
                "70B BF16 model, 140 GB, on one 80 GB H100, which cannot hold it: here on "
                "141 GB H200s)",
      .statement = "{users:raw} users each send {rps_per_user} requests/s to a {params}-parameter "
                   "BF16 model ({prompt_len} prompt tokens, {gen_len} generated) on H200s "
                   "(141 GB each, enough for the weights; {peak_flops}, {mem_bandwidth}). "
                   "If each GPU serves one request at a time at single-request speed, how many "
                   "GPUs are needed (count GPUs individually)?",
      .params = {{"users", 5000, {1000, 5000, 10000}},
                 {"rps_per_user", 0.02, {0.01, 0.02, 0.05}},
                 {"params", 70e9, {7e9, 13e9, 70e9}},
                 {"prompt_len", 100, {}},
                 {"gen_len", 50, {50, 100}},
                 // The H200 preset (NVIDIA datasheet: 141 GB HBM3e, 4.8 TB/s, 989.4 TFLOP/s
                 // dense BF16); derive fills the three from it.
                 {"gpu", h200_index(), {}},
                 {"gpu_memory", 0, {}, unit::bytes},
                 {"peak_flops", 0, {}, unit::flops},
                 {"mem_bandwidth", 0, {}, unit::bytes_per_s}},
      .derive = accelerator_of_preset,
      .estimator = "serve.llm_gpus",
      .output = "gpus_needed_seed",
      // One request = infer.latency at batch 1 with the roofline prefill (one_request), not
      // this estimator's compute-only prefill, which reproduces the worked example.
      .answer =
          [](const Values& p, const Values& out) {
            return ceil_count(out["total_rps"] * one_request(p).total(p["gen_len"]));
          },
      .unit = answer_in::gpus(),
      .integer = true,
      .bound = Bound::at_least,
      .hints = {"One request takes its prefill plus one decode step per generated token, alone on "
                "the GPU.",
                "Requests per GPU per second = 1 / that latency; GPUs = load / that, rounded "
                "up."},
      .mistakes = {{"tokens_not_requests",
                    "Tokens per second is not requests per second: each request generates "
                    "its generated tokens, so divide the GPU's tokens/s by them.",
                    [](const Values& p, const Values& out) {
                      return ceil_count(out["total_rps"] * one_request(p).total(p["gen_len"]) /
                                        p["gen_len"]);
                    },
                    0},
                   {"decode_only", "The prefill is part of each request's time on the GPU too.",
                    [](const Values& p, const Values& out) {
                      return ceil_count(out["total_rps"] * p["gen_len"] *
                                        one_request(p).decode_step);
                    },
                    0}},
      .explain = "The steps above use a compute-only prefill and whole replicas. One request "
                 "alone takes the roofline prefill (the longer of its FLOPs and one read of the "
                 "weights) plus its decode steps; GPUs = request rate × that time, rounded up.",
      .difficulty = 3,
      .tags = "latency,throughput,GPU count",
  });
}

std::vector<Param> rl_params() {
  return {{"params", 70e9, {7e9, 13e9, 70e9}},
          {"batch", 512, {128, 256, 512, 1024}},
          {"prompt_len", 100, {}},
          {"gen_len", 50, {}},
          {"ppo_epochs", 4, {1, 2, 4}},
          {"total_gpus", 256, {64, 128, 256, 512}}};
}

// The worked example's RL model, which the statements spell out: generation and scoring on one
// GPU (prefill at peak, decode reading only the weights).
Json rl_worked_example_inputs(const Values& p) {
  Json j = Json::object();
  for (const auto& [name, value] : p.items()) j.set(name, value);
  j.set("gpus_per_replica", 1);
  j.set("decode_model", "weights");
  j.set("score_on", "one_gpu");
  j.set("peak_flops", 990e12);  // the statement's GPU
  return j;
}

void rl(ProblemBank& bank) {
  const char* setup =
      "PPO on a {params}-parameter policy: each iteration generates {gen_len} tokens for "
      "{batch:raw} prompts of {prompt_len} tokens on one GPU, as the worked example assumes "
      "(prefill at 990 TFLOP/s, decode reading the BF16 weights at 3.35 TB/s per token), scores "
      "them on that GPU with a reward model 1/10 the size (a prefill over prompt + generation), "
      "and trains {ppo_epochs:raw} epochs at 6·N FLOPs per token (prompt and generation) on "
      "{total_gpus:raw} GPUs at 50% MFU. ";
  bank.add({
      .id = "rl.throughput.sync",
      .area = "inference",
      .title = "Synchronous RL iteration time",
      .source = "the worked example §10 (70B, batch 512, 256 GPUs: 11,434 ms)",
      .group = "seed001.rl",
      .setup = setup,
      .statement = "How long is one synchronous iteration (generate, then "
                   "score, then train on all GPUs)?",
      .params = rl_params(),
      .estimator = "rl.throughput",
      .inputs = rl_worked_example_inputs,
      .output = "sync_iteration_time",
      .unit = answer_in::seconds(),
      .hints = {"Generation = prefill (batch · prompt · 2N / F) + one decode step per generated "
                "token (2N bytes "
                "/ BW each).",
                "Scoring = batch · (prompt + gen) · 2 · N/10 / F.",
                "Training = epochs · 6N · batch · (prompt + gen) / (GPUs · F · MFU); sync adds "
                "all three."},
      .mistakes = {{"forgot_scoring",
                    "The reward model's scoring pass is on the critical path "
                    "too in synchronous RL.",
                    [](const Values&, const Values& out) {
                      return out["generate_time"] + out["train_time_sync"];
                    },
                    0},
                   {"one_epoch",
                    "PPO trains several epochs on each batch: multiply the "
                    "training time by the epochs.",
                    [](const Values& p, const Values& out) {
                      return out["generate_time"] + out["score_time"] +
                             out["train_time_sync"] / p["ppo_epochs"];
                    },
                    0}},
      .difficulty = 3,
      .tags = "RL,decode,training time",
  });
  bank.add({
      .id = "rl.throughput.speedup",
      .area = "inference",
      .title = "Async RL speedup",
      .source = "the worked example §10 (1.10×; the worked example's summary promises 1.5–2×)",
      .group = "seed001.rl",
      .setup = setup,
      .statement = "Asynchronous RL trains on half the GPUs while the next batch is generated "
                   "and scored. What is the speedup of async over sync per iteration?",
      .params = rl_params(),
      .estimator = "rl.throughput",
      .inputs = rl_worked_example_inputs,
      .output = "speedup",
      .unit = answer_in::count(unit::times, "×"),
      .hints = {"Async iteration = max(generation + scoring, training on its half of the GPUs).",
                "Speedup = sync iteration / async iteration."},
      .mistakes = {{"async_without_scoring",
                    "Scoring runs on the generation side: async = max(generate + score, "
                    "train), not max(generate, train).",
                    [](const Values&, const Values& out) {
                      return out["sync_iteration_time"] /
                             std::fmax(out["generate_time"], out["train_time_async"]);
                    },
                    0},
                   {"async_adds_up",
                    "In async mode training overlaps generation: take the max of the two "
                    "branches, not the sum.",
                    [](const Values&, const Values& out) {
                      return out["sync_iteration_time"] /
                             (out["generate_time"] + out["score_time"] + out["train_time_async"]);
                    },
                    0}},
      .difficulty = 3,
      .tags = "RL,training time",
  });

  bank.add({
      .id = "infer.decode.crossover",
      .area = "inference",
      .title = "Batch where decode turns compute-bound",
      .source = "Pope et al. 2022 §3; H100 (990 TFLOP/s, 3.35 TB/s) in BF16: ≈ 296 sequences",
      .statement = "A dense model with {weight_bytes:raw}-byte weights decodes on an accelerator "
                   "with {peak_flops} and {mem_bandwidth}. Ignoring the KV cache, from what batch "
                   "size does a decode step become compute-bound?",
      .params = {{"weight_bytes", 2, {0.5, 1, 2}},                    // INT4, FP8, BF16 weights
                 {"gpu", -1, indices(accelerator_presets().size())},  // real pairs
                 {"peak_flops", 990e12, {}, unit::flops},
                 {"mem_bandwidth", 3.35e12, {}, unit::bytes_per_s},
                 {"gpu_memory", 80e9, {}, unit::bytes}},
      .derive = accelerator_of_preset,
      .estimator = "infer.decode",
      .inputs =
          [](const Values& p) {
            Json j = Json::object();
            j.set("params", 70e9);
            j.set("context", 0);
            j.set("weight_bytes", p["weight_bytes"]);
            j.set("peak_flops", p["peak_flops"]);
            j.set("mem_bandwidth", p["mem_bandwidth"]);
            return j;
          },
      .output = "crossover_batch",
      .unit = answer_in::count("", "sequences"),
      .hints = {"A step reads N · bytes per weight once for the whole batch and does 2N FLOPs "
                "per sequence.",
                "Compute-bound when B · 2N / F > N · b / BW, i.e. B > (F / BW) · (b / 2)."},
      .mistakes =
          {{"one_flop_per_weight", "Each weight costs 2 FLOPs per token (a multiply and an add).",
            [](const Values& p, const Values&) {
              return p["peak_flops"] / p["mem_bandwidth"] * p["weight_bytes"];
            },
            0},
           {"one_byte_per_weight",
            "A step reads every weight's bytes, and a BF16 weight is 2 bytes, not 1.",
            [](const Values& p, const Values&) { return p["peak_flops"] / p["mem_bandwidth"] / 2; },
            0}},
      .difficulty = 2,
      .tags = "decode,roofline,batching,quantization",
  });
}

// serve.engine on Llama 3 70B and H100s, its numbers from the typed presets (core/scenario).
const Model& llama3_70b() {
  return find_model("llama3-70b")->model;
}
double h100_memory() {
  return find_gpu("h100")->hbm_bytes;
}

// Sequences of prompt + output tokens in the KV cache left by BF16 weights: the engine's own
// rule with activations left out, for the mistakes' wrong versions of it.
double engine_batch(const Values& p, double memory, double util, double kv_split) {
  const Model& m = llama3_70b();
  const double weights = model_params(m).total * 2 / p["tp"];
  const double per_seq = kv_bytes_per_token(m, p["kv_bytes"]) / kv_split *
                         std::ceil((p["prompt_len"] + p["output_len"]) / 16) * 16;
  return std::floor((util * memory - weights) / per_seq);
}

Json engine_inputs(const Values& p) {
  Json j = Json::object();
  j.set("model", "llama3-70b");
  j.set("gpu", "h100");
  for (const auto& [k, v] : p.items())
    if (k != "kv_bytes" && k != "weight_bytes") j.set(k, v);
  if (p.has("kv_bytes")) j.set("kv_dtype", p["kv_bytes"] == 1 ? "fp8" : "bf16");
  if (p.has("weight_bytes")) j.set("weight_dtype", p["weight_bytes"] == 1 ? "fp8" : "bf16");
  return j;
}

void engine(ProblemBank& bank) {
  bank.add({
      .id = "serve.engine.max_batch",
      .area = "inference",
      .title = "Sequences the KV cache holds",
      .source = "vLLM's KV-cache accounting (Kwon et al. 2023): Llama 3 70B on 4 H100s in BF16, "
                "2,048 + 256 tokens: 222 sequences",
      .statement = "Llama 3 70B (70.55B parameters, 80 layers, 8 KV heads of width 128) is served "
                   "with BF16 weights on {tp:raw} H100s (80 GiB each) with tensor parallelism. The "
                   "engine may use 90 % of each GPU's memory; ignore activations. The KV cache "
                   "stores {kv_bytes:raw}-byte elements in blocks of 16 tokens. How many "
                   "sequences of {prompt_len} + {output_len} fit at once?",
      .params = {{"tp", 4, {4, 8}},
                 {"kv_bytes", 2, {1, 2}},
                 {"prompt_len", 2048, {1024, 2048, 4096}},
                 {"output_len", 256, {256, 512, 1024}}},
      .estimator = "serve.engine",
      .inputs = engine_inputs,
      .output = "max_batch",
      .unit = answer_in::count(unit::none, "sequences"),
      .integer = true,
      .bound = Bound::at_most,  // one more sequence does not fit
      .hints = {"The cache gets what the weights leave of the memory the engine may use, on "
                "every GPU of the replica.",
                "Per GPU: 90 % of 80 GiB, less an equal share of the 141 GB of weights.",
                "A token caches 2 · 80 · 8 · 128 elements; TP splits the 8 KV heads, so each GPU "
                "holds 1/TP of them.",
                "A sequence takes whole 16-token blocks: divide the cache by (prompt + output) "
                "tokens × bytes per token on one GPU."},
      .mistakes = {{"kv_not_split_over_tp",
                    "Each GPU holds only its own KV heads: the cache per token on one GPU is "
                    "the model's divided by TP.",
                    [](const Values& p, const Values&) {
                      return engine_batch(p, h100_memory(), 0.9, 1);
                    },
                    0},
                   {"gb_not_gib",
                    "An \"80 GB\" H100 holds 80 GiB (85.9e9 bytes): vendors' GB on HBM are "
                    "binary.",
                    [](const Values& p, const Values&) {
                      return engine_batch(p, 80e9, 0.9, std::fmin(p["tp"], 8));
                    },
                    0},
                   {"no_reserve",
                    "The engine keeps 10 % of memory for its runtime: only 90 % holds weights "
                    "and cache.",
                    [](const Values& p, const Values&) {
                      return engine_batch(p, h100_memory(), 1, std::fmin(p["tp"], 8));
                    },
                    0}},
      .difficulty = 3,
      .tags = "KV cache,memory,tensor parallel",
  });
  bank.add({
      .id = "serve.engine.tpot",
      .area = "inference",
      .title = "Time per output token of one sequence",
      .source = "the Scaling Book's roofline per decode step (Austin et al. 2025); NVIDIA NIM "
                "measures 18.6 ms for Llama 3.3 70B FP8 on 2 H100s",
      .statement = "Llama 3 70B (70.55B parameters) runs with {weight_bytes:raw}-byte weights on "
                   "{tp:raw} H100s (3.35 TB/s each) with tensor parallelism, and decode reaches "
                   "{bandwidth_efficiency} of the memory bandwidth. One sequence is running. "
                   "Ignoring its KV cache, how long does each output token take?",
      .params = {{"tp", 2, {2, 4, 8}},
                 {"weight_bytes", 1, {1, 2}},
                 {"bandwidth_efficiency", 0.6, {0.6, 0.7, 0.8}},
                 {"batch", 1, {}},
                 {"prompt_len", 1024, {}},
                 {"output_len", 128, {}}},
      .estimator = "serve.engine",
      .inputs = engine_inputs,
      .output = "tpot",
      .unit = answer_in::ms(),
      .hints = {"At batch 1 a step is bound by reading the weights, not by FLOPs.",
                "Each GPU reads its 1/TP share of the weights once per token, at the achieved "
                "bandwidth: N · bytes / (TP · efficiency · 3.35 TB/s)."},
      .mistakes = {{"not_split_over_tp",
                    "With tensor parallelism every GPU reads only its share of the weights, in "
                    "parallel: divide by TP.",
                    [](const Values& p, const Values& out) { return out["tpot"] * p["tp"]; }, 0},
                   {"peak_bandwidth",
                    "Decode does not reach the datasheet's bandwidth: divide by the achieved "
                    "share.",
                    [](const Values& p, const Values& out) {
                      return out["tpot"] * p["bandwidth_efficiency"];
                    },
                    0},
                   {"flops_bound",
                    "One sequence does 2 FLOPs per weight per token, far below what the GPUs "
                    "can do: the weight read sets the time.",
                    [](const Values& p, const Values&) {
                      const double peak = p["weight_bytes"] == 1 ? find_gpu("h100")->peak_fp8
                                                                 : find_gpu("h100")->peak_bf16;
                      return 2 * model_params(llama3_70b()).total / (p["tp"] * peak);
                    },
                    0}},
      .difficulty = 2,
      .tags = "decode,roofline,tensor parallel",
  });
  bank.add({
      .id = "serve.engine.crossover",
      .area = "inference",
      .title = "Batch where FP8 decode turns compute-bound",
      .source = "the Scaling Book's critical batch (Austin et al. 2025): 0.5 · 1,979 TFLOP/s "
                "/ (0.6 · 3.35 TB/s) · 1/2 ≈ 246 sequences",
      .statement = "A dense model with 1-byte FP8 weights decodes on GPUs with an FP8 peak of "
                   "{peak_fp8} and {mem_bandwidth}; its matmuls reach {compute_efficiency} of "
                   "the peak and decode reaches {bandwidth_efficiency} of the bandwidth. "
                   "Ignoring attention and the KV cache, from what batch is a decode step "
                   "compute-bound?",
      .params = {{"peak_fp8", 1978.9e12, {1978.9e12, 4500e12}},
                 {"mem_bandwidth", 3.35e12, {3.35e12, 4.8e12, 7.7e12}},
                 {"compute_efficiency", 0.5, {0.4, 0.5, 0.6}},
                 {"bandwidth_efficiency", 0.6, {0.6, 0.7, 0.8}},
                 {"weight_bytes", 1, {}},
                 {"tp", 8, {}},
                 {"prompt_len", 128, {}},
                 {"output_len", 128, {}}},
      .estimator = "serve.engine",
      .inputs = engine_inputs,
      .output = "crossover_batch",
      .unit = answer_in::count(unit::none, "sequences"),
      .tolerance = 0.03,
      .hints = {"A step reads each weight once for the whole batch and does 2 FLOPs per weight "
                "per sequence.",
                "Compute-bound when B · 2 / (e_C · F) > bytes / (e_BW · BW): B* = (e_C · F) / "
                "(e_BW · BW) · bytes / 2."},
      .mistakes = {times("bf16_peak", 0.5,
                         "FP8 weights run W8A8 on the FP8 path: use the FP8 peak, twice the "
                         "BF16 one."),
                   times("two_bytes", 2,
                         "FP8 stores each weight in 1 byte; 2 bytes is BF16, which this model is "
                         "not served in."),
                   {"no_efficiencies",
                    "Neither peak is reached: scale the FLOPs and the bandwidth by their "
                    "efficiencies.",
                    [](const Values& p, const Values&) {
                      return p["peak_fp8"] / p["mem_bandwidth"] / 2;
                    },
                    0}},
      .difficulty = 2,
      .tags = "decode,roofline,quantization",
  });
}

// serve.capacity: a replica's batch slots are the servers of a queue. The time a request holds
// a slot comes from serve.engine (Llama 3 70B or 8B on H100s), run here so the statement can
// give it; the answer is serve.capacity's.
double slot_time(const char* model, const Values& p, double batch) {
  Json in = Json::object();
  in.set("model", model);
  in.set("gpu", "h100");
  in.set("tp", p["tp"]);
  in.set("weight_dtype", p.has("weight_bytes") && p["weight_bytes"] == 1 ? "fp8" : "bf16");
  in.set("prompt_len", p["prompt_len"]);
  in.set("output_len", p["output_len"]);
  in.set("batch", batch);
  const RunResult r = registry().run("serve.engine", in, false);
  return r.ok ? r.outputs.find("request_time")->as_number() : -1;
}

Json capacity_inputs(const char* model, const Values& p) {
  Json j = Json::object();
  j.set("model", model);
  j.set("gpu", "h100");
  for (const char* k : {"tp", "batch", "prompt_len", "output_len", "max_utilization", "qps",
                        "users", "rps_per_user", "replicas"})
    if (p.has(k)) j.set(k, p[k]);
  if (p.has("weight_bytes")) j.set("weight_dtype", p["weight_bytes"] == 1 ? "fp8" : "bf16");
  // No latency targets: the utilisation limit (or the queue itself) sets the answer.
  j.set("ttft_target", 0);
  j.set("tpot_target", 0);
  return j;
}

// Slots busy on average = λ · S (Little's law), which must stay under B · ρ per replica. A draw
// whose count sits within 0.3 % of a whole number would hang on how S is rounded: refused.
double slots_needed(const Values& p) {
  const double qps = p.has("users") ? p["users"] * p["rps_per_user"] : p["qps"];
  return qps * p["service_time"] / (p["batch"] * p["max_utilization"]);
}
bool clear_count(const Values& p) {
  const double x = slots_needed(p);
  return p["service_time"] > 0 && std::fabs(x - std::round(x)) > 0.003 * x && x < 5000;
}

void capacity(ProblemBank& bank) {
  bank.add({
      .id = "serve.capacity.replicas",
      .area = "inference",
      .title = "Replicas for a request rate",
      .source = "Little's law on a continuous-batching replica (Llama 3 70B, BF16, on H100s; "
                "the time in a slot from serve.engine)",
      .statement =
          "Llama 3 70B is served in BF16 by replicas of {tp:raw} H100s. Each replica runs "
          "at most {batch} sequences at once; at that batch a request of {prompt_len} "
          "+ {output_len} tokens holds its slot for {service_time}. Requests arrive at {qps} "
          "per second and a replica's slots may be at most {max_utilization} busy on "
          "average. How many replicas are needed?",
      .params = {{"tp", 4, {4, 8}},
                 {"batch", 32, {16, 32, 64}},
                 {"qps", 50, {20, 50, 100, 200}},
                 {"max_utilization", 0.8, {0.6, 0.7, 0.8, 0.9}},
                 {"prompt_len", 2048, {1024, 2048}},
                 {"output_len", 256, {128, 256, 512}},
                 {"service_time", 0, {}, unit::seconds}},
      .derive = [](Values& p) { p.set("service_time", slot_time("llama3-70b", p, p["batch"])); },
      .valid = clear_count,
      .estimator = "serve.capacity",
      .inputs = [](const Values& p) { return capacity_inputs("llama3-70b", p); },
      .output = "replicas",
      .unit = answer_in::count(unit::none, "replicas"),
      .integer = true,
      .bound = Bound::at_least,  // fewer cannot carry the load
      .hints = {"Little's law: the slots busy on average across the deployment are the arrival "
                "rate times the time each request holds one.",
                "Each replica offers batch × utilisation limit of them: divide, and round up."},
      .mistakes = {{"no_headroom",
                    "Replicas run at most the utilisation limit busy, so that bursts find free "
                    "slots: divide by batch × limit, not by the batch alone.",
                    [](const Values& p, const Values&) {
                      return ceil_count(slots_needed(p) * p["max_utilization"]);
                    },
                    0},
                   {"one_request_per_replica",
                    "A continuous-batching replica serves its whole batch at once: each request "
                    "takes one slot, not the whole replica.",
                    [](const Values& p, const Values&) {
                      return ceil_count(slots_needed(p) * p["batch"]);
                    },
                    0},
                   {"rounded_down", "A fraction of a replica still needs a whole one: round up.",
                    [](const Values& p, const Values&) { return std::floor(slots_needed(p)); }, 0}},
      .explain = "R replicas offer R × B slots; the slots busy on average are the arrival rate × "
                 "the time in a slot. The fewest R that keeps their ratio at or below the limit: "
                 "R = rate × time / (limit × B), rounded up.",
      .difficulty = 2,
      .tags = "queueing,GPU count",
  });
  bank.add({
      .id = "serve.capacity.wait",
      .area = "inference",
      .title = "Share of requests that wait for a slot",
      .source = "Erlang C for two servers, C = 2ρ² / (1 + ρ) (Kleinrock 1975, §3.5), on Llama 3 "
                "8B replicas that run two sequences at a time",
      .statement =
          "Llama 3 8B is served in BF16 by {replicas} replicas, each on one H100 and "
          "running at most 2 sequences at once; at that batch a request of {prompt_len} "
          "+ {output_len} tokens holds its slot for {service_time}. Requests arrive at random "
          "(Poisson) at {qps} per second, spread evenly over the replicas. What share of "
          "requests find both slots of their replica busy and must wait?",
      .params = {{"replicas", 4, {2, 4, 8, 10}},
                 {"qps", 2, {1, 2, 3, 4, 5, 6}},
                 {"prompt_len", 512, {256, 512, 1024}},
                 {"output_len", 256, {128, 256, 512}},
                 {"tp", 1, {}},
                 {"batch", 2, {}},
                 {"max_utilization", 1, {}},
                 {"service_time", 0, {}, unit::seconds}},
      .derive = [](Values& p) { p.set("service_time", slot_time("llama3-8b", p, 2)); },
      // One slot alone could not keep up (so the replica runs both), two can.
      .valid =
          [](const Values& p) {
            const double per = p["qps"] / p["replicas"];
            return per * slot_time("llama3-8b", p, 1) > 1.02 && per * p["service_time"] < 1.9;
          },
      .estimator = "serve.capacity",
      .inputs = [](const Values& p) { return capacity_inputs("llama3-8b", p); },
      .output = "wait_probability",
      .unit = answer_in::percent(),
      .hints = {"Per replica, the offered load is a = (QPS / replicas) × time in a slot, and "
                "each slot is busy ρ = a / 2 of the time.",
                "With Poisson arrivals and 2 servers (M/M/2, Erlang C) the chance an arrival "
                "waits is 2ρ² / (1 + ρ)."},
      .mistakes = {{"utilization",
                    "The utilisation is how busy one slot is; a request waits only when both "
                    "are busy at once.",
                    [](const Values&, const Values& out) { return out["utilization"]; }, 0},
                   {"independent_slots",
                    "The two slots are not busy independently (ρ²): when one is busy, arrivals "
                    "go to the other, so both fill more often than that.",
                    [](const Values&, const Values& out) {
                      return out["utilization"] * out["utilization"];
                    },
                    0},
                   {"erlang_b",
                    "That is Erlang B, the share turned away when nobody may wait; here requests "
                    "queue, which keeps the slots busier (Erlang C).",
                    [](const Values&, const Values& out) {
                      const double a = 2 * out["utilization"];
                      return a * a / 2 / (1 + a + a * a / 2);
                    },
                    0}},
      .difficulty = 3,
      .tags = "queueing,latency",
  });
  bank.add({
      .id = "serve.capacity.gpus",
      .area = "inference",
      .title = "GPUs for a user base",
      .source = "Little's law on continuous-batching replicas of Llama 3 70B (BF16 or FP8) on "
                "H100s; the time in a slot from serve.engine",
      .statement = "{users:raw} active users each send a request every {interval} on average. "
                   "Llama 3 70B runs with {weight_bytes:raw}-byte weights on replicas of "
                   "{tp:raw} H100s; each replica runs at most {batch} sequences, and at that "
                   "batch a request of {prompt_len} + {output_len} tokens holds its slot for "
                   "{service_time}. With a replica's slots at most {max_utilization} busy on "
                   "average, how many GPUs does the deployment need?",
      .params = {{"users", 10000, {2000, 5000, 10000, 20000}},
                 {"interval", 60, {30, 60, 120}, unit::seconds},
                 {"weight_bytes", 2, {1, 2}},
                 {"tp", 4, {2, 4, 8}},
                 {"batch", 64, {32, 64, 128}},
                 {"max_utilization", 0.8, {0.7, 0.8}},
                 {"prompt_len", 1024, {1024, 2048}},
                 {"output_len", 256, {256, 512}},
                 {"rps_per_user", 0, {}},
                 {"service_time", 0, {}, unit::seconds}},
      .derive =
          [](Values& p) {
            p.set("rps_per_user", 1 / p["interval"]);
            p.set("qps", 0);
            p.set("service_time", slot_time("llama3-70b", p, p["batch"]));
          },
      .valid = clear_count,
      .estimator = "serve.capacity",
      .inputs = [](const Values& p) { return capacity_inputs("llama3-70b", p); },
      .output = "gpus",
      .unit = answer_in::gpus(),
      .integer = true,
      .bound = Bound::at_least,  // fewer cannot carry the load
      .hints = {"The request rate is users / interval; slots busy on average = rate × time in a "
                "slot (Little's law).",
                "Replicas = ⌈busy slots / (batch × utilisation limit)⌉, and each replica is TP "
                "GPUs."},
      .mistakes = {{"replicas_not_gpus", "That is the replicas: each one runs on TP GPUs.",
                    [](const Values& p, const Values&) { return ceil_count(slots_needed(p)); }, 0},
                   {"no_headroom",
                    "Replicas run at most the utilisation limit busy: divide by batch × limit.",
                    [](const Values& p, const Values&) {
                      return ceil_count(slots_needed(p) * p["max_utilization"]) * p["tp"];
                    },
                    0},
                   {"rounded_down", "A fraction of a replica still needs a whole one: round up.",
                    [](const Values& p, const Values&) {
                      return std::floor(slots_needed(p)) * p["tp"];
                    },
                    0}},
      .difficulty = 3,
      .tags = "queueing,GPU count",
  });
}

// serve.speculative (Leviathan et al. 2023): a draft proposes k tokens, the target keeps the
// accepted prefix and adds one of its own.
double spec_tokens(const Values& p) {
  double sum = 0, term = 1;
  for (int i = 0; i <= static_cast<int>(p["draft_len"]); ++i)
    sum += term, term *= p["acceptance_rate"];
  return sum;
}

void speculative(ProblemBank& bank) {
  bank.add({
      .id = "serve.speculative.tokens",
      .area = "inference",
      .title = "Tokens per target step with a draft model",
      .source = "Leviathan et al. 2023, eq. 1: (1 − α^(k+1)) / (1 − α)",
      .statement = "A draft model proposes {draft_len:raw} tokens at a time. The target model "
                   "checks them in one step, accepting each with probability "
                   "{acceptance_rate:raw} independently; it keeps the tokens up to the first "
                   "rejection and then adds one token of its own. On average, how many tokens "
                   "does one target step produce?",
      .params = {{"draft_len", 4, {2, 3, 4, 5, 6}},
                 {"acceptance_rate", 0.8, {0.7, 0.75, 0.8, 0.85, 0.9, 0.95}},
                 {"cost_ratio", 0.1, {}}},
      .estimator = "serve.speculative",
      .output = "expected_tokens_per_step",
      .unit = answer_in::count(unit::none, "tokens"),
      .hints = {"The i-th drafted token survives only if it and every token before it are "
                "accepted: probability α^i.",
                "Tokens = 1 (the target's own) + α + α² + … + α^k = (1 − α^(k+1)) / (1 − α)."},
      .mistakes = {{"independent_tokens",
                    "A drafted token after a rejection is thrown away even if it was right: "
                    "the i-th survives with probability α^i, not α.",
                    [](const Values& p, const Values&) {
                      return 1 + p["draft_len"] * p["acceptance_rate"];
                    },
                    0},
                   {"uncapped",
                    "The draft has only k tokens: the run of accepted tokens stops at k, so the "
                    "series stops at α^k.",
                    [](const Values& p, const Values&) { return 1 / (1 - p["acceptance_rate"]); },
                    0},
                   {"no_bonus_token",
                    "The target's step always yields one token of its own (the correction, or "
                    "one more after a fully accepted draft): add 1.",
                    [](const Values& p, const Values&) { return spec_tokens(p) - 1; }, 0}},
      .difficulty = 2,
      .tags = "speculative decoding,decode",
  });
  bank.add({
      .id = "serve.speculative.speedup",
      .area = "inference",
      .title = "Speedup from speculative decoding",
      .source = "Leviathan et al. 2023, Theorem 3.8: (1 − α^(k+1)) / ((1 − α)(k·c + 1))",
      .statement = "A draft model whose step takes {cost_ratio:raw} of the target's proposes "
                   "{draft_len:raw} tokens per target step, each accepted with probability "
                   "{acceptance_rate:raw} (up to the first rejection, then the target adds one "
                   "token). Checking the draft costs the target one ordinary step. How many "
                   "times faster is decoding than without a draft?",
      .params = {{"draft_len", 4, {2, 3, 4, 5, 6}},
                 {"acceptance_rate", 0.8, {0.6, 0.7, 0.8, 0.9}},
                 {"cost_ratio", 0.114, {0.02, 0.05, 0.1, 0.2}}},
      .estimator = "serve.speculative",
      .output = "speedup",
      .unit = answer_in::output(),
      .hints = {"One cycle yields (1 − α^(k+1)) / (1 − α) tokens on average.",
                "It takes k draft steps and one target step: k·c + 1 target steps of time. "
                "Speedup = tokens per cycle ÷ that."},
      .mistakes = {{"free_draft", "The draft's k steps take time too: divide by k·c + 1.",
                    [](const Values& p, const Values&) { return spec_tokens(p); }, 0},
                   {"one_draft_step",
                    "The draft runs once per drafted token, k times per cycle: k·c, not c.",
                    [](const Values& p, const Values&) {
                      return spec_tokens(p) / (1 + p["cost_ratio"]);
                    },
                    0},
                   {"all_accepted",
                    "Not every drafted token is accepted: the expected run is capped geometric.",
                    [](const Values& p, const Values&) {
                      return (p["draft_len"] + 1) / (p["draft_len"] * p["cost_ratio"] + 1);
                    },
                    0}},
      .difficulty = 2,
      .tags = "speculative decoding,decode",
  });
  bank.add({
      .id = "serve.speculative.best",
      .area = "inference",
      .title = "The best draft length",
      .source = "Leviathan et al. 2023, Theorem 3.8 and Figure 3 (the optimal γ for α and c)",
      .statement = "A draft model's step takes {cost_ratio:raw} of the target's, and the target "
                   "accepts each drafted token with probability {acceptance_rate:raw} (up to "
                   "the first rejection, then it adds one token of its own). How many tokens "
                   "should the draft propose per target step to decode fastest?",
      .params = {{"acceptance_rate", 0.8, {0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95}},
                 {"cost_ratio", 0.114, {0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5}}},
      .estimator = "serve.speculative",
      .output = "best_draft_len",
      .unit = answer_in::count(unit::none, "tokens"),
      .integer = true,
      .hints = {"Speedup(k) = (1 − α^(k+1)) / ((1 − α)(k·c + 1)): each extra drafted token adds "
                "α^k expected tokens and c of time.",
                "Evaluate k = 1, 2, 3, … and stop when the speedup falls."},
      .mistakes = {{"free_draft",
                    "Longer drafts cost time (c per token): past some k the extra tokens, "
                    "accepted with probability α^k, are not worth it.",
                    [](const Values&, const Values&) { return 16.0; }, 0},
                   {"expected_run",
                    "The mean run of accepted tokens, α / (1 − α), ignores the draft's cost.",
                    [](const Values& p, const Values&) {
                      return std::round(p["acceptance_rate"] / (1 - p["acceptance_rate"]));
                    },
                    0}},
      .explain = "Each extra drafted token adds α^k expected tokens and costs c of a target "
                 "step: the speedup rises while that trade pays, then falls. The answer is the k "
                 "with the largest speedup.",
      // The best length is a whole number from 1 to 15 (16, the longest draft, is the
      // free_draft mistake's): 14 besides the worked example's 5.
      .variety = 14,
      .difficulty = 3,
      .tags = "speculative decoding,decode",
  });
}

// serve.prefix_cache and serve.disaggregated on Llama 3 70B and H100s. The inputs: the named
// parameters only (others are shown in the statement), no latency targets unless named.
Json serve_inputs(const Values& p, std::initializer_list<const char*> keys,
                  const char* model = "llama3-70b", const char* gpu = "h100") {
  Json j = Json::object();
  j.set("model", model);
  j.set("gpu", gpu);
  for (const char* k : keys)
    if (p.has(k)) j.set(k, p[k]);
  if (p.has("kv_bytes")) j.set("kv_dtype", p["kv_bytes"] == 1 ? "fp8" : "bf16");
  if (p.has("weight_bytes")) j.set("weight_dtype", p["weight_bytes"] == 1 ? "fp8" : "bf16");
  return j;
}
double engine_output(const Values& p, std::initializer_list<const char*> keys, const char* name) {
  const RunResult r = registry().run("serve.engine", serve_inputs(p, keys), false);
  return r.ok ? r.outputs.find(name)->as_number() : -1;
}
double params_70b() {
  return model_params(llama3_70b()).total;
}

void prefix_cache(ProblemBank& bank) {
  bank.add({
      .id = "serve.prefix_cache.flops",
      .area = "inference",
      .title = "Prefill FLOPs a shared prefix saves",
      .source = "vLLM's automatic prefix caching, SGLang's RadixAttention (Zheng et al. 2024): a "
                "cached prefix is not prefilled again",
      .statement = "Llama 3 70B (70.55B parameters) serves prompts of {prompt_len} whose first "
                   "{prefix_fraction} is a system prompt shared by every request. With prefix "
                   "caching, {prefix_hit_rate} of requests find it cached and skip its prefill. "
                   "Counting 2 FLOPs per parameter per token (attention adds about 1 %), how "
                   "many prefill FLOPs does the cache save per request on average?",
      .params = {{"prompt_len", 2048, {512, 1024, 1536, 2048}},
                 {"prefix_fraction", 0.5, {0.1, 0.25, 0.5, 0.75, 0.9}},
                 {"prefix_hit_rate", 0.8, {0.5, 0.6, 0.8, 0.9, 1}}},
      .estimator = "serve.prefix_cache",
      .inputs =
          [](const Values& p) {
            return serve_inputs(p, {"prompt_len", "prefix_fraction", "prefix_hit_rate"});
          },
      .output = "prefill_flops_saved",
      .tolerance = 0.025,
      .hints = {"A request that hits skips the prefill of the shared tokens: f · P of them.",
                "Each skipped token saves 2 · N FLOPs; on average h of the requests hit."},
      .mistakes = {times("six_n", 3,
                         "Prefill is a forward pass: 2 FLOPs per parameter per token, not "
                         "training's 6."),
                   {"ignored_hit_rate",
                    "Only the requests that find the prefix cached skip it: multiply by the "
                    "hit rate.",
                    [](const Values& p, const Values&) {
                      return p["prefix_fraction"] * p["prompt_len"] * 2 * params_70b();
                    },
                    0},
                   {"whole_prompt",
                    "Only the shared prefix is skipped; the rest of the prompt is prefilled.",
                    [](const Values& p, const Values&) {
                      return p["prefix_hit_rate"] * p["prompt_len"] * 2 * params_70b();
                    },
                    0}},
      .difficulty = 1,
      .tags = "prefix caching,prefill,FLOPs",
  });
  bank.add({
      .id = "serve.prefix_cache.max_batch",
      .area = "inference",
      .title = "Sequences that fit when the prefix is stored once",
      .source = "vLLM's paged KV blocks shared across requests (Kwon et al. 2023, §4.4)",
      .statement =
          "Llama 3 70B runs on {tp:raw} H100s; the KV cache left after the weights "
          "holds {capacity} in blocks of 16 tokens. Each request has a {prompt_len} "
          "prompt and {output_len} of output, and the first {prefix_fraction} of every "
          "prompt is one system prompt shared by all. With prefix caching its blocks are stored "
          "once and every request reuses them. How many sequences fit at full length?",
      .params = {{"tp", 4, {4, 8}},
                 {"kv_bytes", 2, {1, 2}},
                 {"prompt_len", 2048, {1024, 2048, 4096}},
                 {"output_len", 256, {256, 512}},
                 {"prefix_fraction", 0.5, {0.25, 0.5, 0.75}},
                 {"capacity", 0, {}, unit::tokens}},
      .derive =
          [](Values& p) {
            p.set("capacity",
                  engine_output(p, {"tp", "prompt_len", "output_len"}, "kv_capacity_tokens"));
          },
      .estimator = "serve.prefix_cache",
      .inputs =
          [](const Values& p) {
            return serve_inputs(p, {"tp", "prompt_len", "output_len", "prefix_fraction"});
          },
      .output = "max_batch",
      .unit = answer_in::count(unit::none, "sequences"),
      .integer = true,
      .bound = Bound::at_most,
      .hints = {"A sequence takes ⌈(prompt + output) / 16⌉ blocks, less the shared prefix's "
                "f · P / 16 blocks, which are stored once for everyone.",
                "Take the prefix's blocks off the cache first, then divide by a sequence's own "
                "blocks."},
      .mistakes = {{"no_sharing",
                    "With prefix caching the shared blocks are not stored per sequence.",
                    [](const Values& p, const Values&) {
                      return std::floor(p["capacity"] / 16 /
                                        std::ceil((p["prompt_len"] + p["output_len"]) / 16));
                    },
                    0},
                   {"prefix_not_stored",
                    "The shared prefix is still stored once: take its blocks off the cache.",
                    [](const Values& p, const Values&) {
                      const double shared = p["prefix_fraction"] * p["prompt_len"] / 16;
                      return std::floor(
                          p["capacity"] / 16 /
                          (std::ceil((p["prompt_len"] + p["output_len"]) / 16) - shared));
                    },
                    0}},
      .difficulty = 2,
      .tags = "prefix caching,KV cache,memory",
  });
  bank.add({
      .id = "serve.prefix_cache.ttft",
      .area = "inference",
      .title = "Time to first token a cached prefix saves",
      .source = "a compute-bound prefill (Austin et al. 2025) with the cached tokens skipped",
      .statement = "Llama 3 70B (70.55B parameters) with {weight_bytes:raw}-byte weights prefills "
                   "a {prompt_len} prompt on {tp:raw} H100s with tensor parallelism (989 TFLOP/s "
                   "each in BF16, 1,979 in FP8); its matmuls reach 50 % of peak and the prefill "
                   "is compute-bound. The first {prefix_fraction} of the prompt is found in the "
                   "prefix cache. Ignoring attention, how much sooner does the first token come?",
      .params = {{"tp", 4, {2, 4, 8}},
                 {"weight_bytes", 1, {1, 2}},
                 {"prompt_len", 2048, {1024, 2048, 3072, 4096}},
                 {"prefix_fraction", 0.5, {0.25, 0.5, 0.75}},
                 {"batch", 1, {}},
                 {"output_len", 128, {}}},
      // Cached prefixes up to 2,048 tokens (attention within 2 %), at least 512 tokens left to
      // prefill (compute-bound).
      .valid =
          [](const Values& p) {
            const double c = p["prompt_len"] * p["prefix_fraction"];
            return c <= 2048 && p["prompt_len"] - c >= 512;
          },
      .estimator = "serve.prefix_cache",
      .inputs =
          [](const Values& p) {
            return serve_inputs(p, {"tp", "prompt_len", "prefix_fraction", "batch", "output_len"});
          },
      .output = "ttft_saved",
      .unit = answer_in::ms(),
      .tolerance = 0.03,
      .hints = {"The cached tokens are not prefilled: 2 · N FLOPs each are saved.",
                "Divide by what the TP group computes: TP · 50 % · the peak of the weights' "
                "precision."},
      .mistakes = {times("six_n", 3, "Prefill is forward only: 2 FLOPs per parameter per token."),
                   times("full_peak", 0.5, "The matmuls reach 50 % of peak, not all of it."),
                   {"one_gpu", "The TP group's GPUs share the prefill: divide by TP.",
                    [](const Values& p, const Values& out) { return out["ttft_saved"] * p["tp"]; },
                    0},
                   {"bf16_peak", "FP8 weights run the matmuls at the FP8 peak, twice BF16's.",
                    [](const Values& p, const Values& out) {
                      return out["ttft_saved"] * (p["weight_bytes"] == 1 ? 2 : 1);
                    },
                    0}},
      .difficulty = 2,
      .tags = "prefix caching,prefill,latency",
  });
}

void disaggregated(ProblemBank& bank) {
  bank.add({
      .id = "serve.disaggregated.kv_bytes",
      .area = "inference",
      .title = "KV cache sent from prefill to decode",
      .source = "DistServe (Zhong et al. 2024, §4.3): a 512-token OPT-66B request sends 1.13 GB",
      .group = "disagg.kv",
      .statement = "In disaggregated serving of Llama 3 70B (80 layers, 8 KV heads of width 128), "
                   "the prefill GPUs send each prompt's KV cache to the decode GPUs. With "
                   "{kv_bytes:raw}-byte cache elements, how many bytes does a {prompt_len} prompt "
                   "send?",
      .params = {{"prompt_len",
                  2048,
                  {512, 768, 1024, 1500, 2000, 2048, 3000, 4096, 6000, 8192, 12000, 16384, 24576,
                   32768}},
                 {"kv_bytes", 2, {1, 2}},
                 {"qps", 1, {}},
                 {"ttft_target", 0, {}},
                 {"tpot_target", 0, {}}},
      .estimator = "serve.disaggregated",
      .inputs =
          [](const Values& p) {
            return serve_inputs(p, {"prompt_len", "qps", "ttft_target", "tpot_target"});
          },
      .output = "kv_transfer_bytes",
      .unit = answer_in::gb(),
      .hints = {"Each token caches a key and a value per KV head per layer.",
                "Bytes = P · 2 · layers · KV heads · head width · bytes per element."},
      .mistakes = {times("query_heads", 8,
                         "Only the 8 KV heads are cached, not the 64 query heads."),
                   times("keys_only", 0.5, "Keys and values are both cached: 2 per head."),
                   times("one_layer", 1.0 / 80, "Every one of the 80 layers has its own cache.")},
      .difficulty = 1,
      .tags = "disaggregation,KV cache",
  });
  bank.add({
      .id = "serve.disaggregated.transfer_time",
      .area = "inference",
      .title = "Time to send the KV cache to a decode instance",
      .source = "Splitwise (Patel et al. 2024, §4.2): KV transfer over InfiniBand per GPU",
      .group = "disagg.kv",
      .statement = "A prefill instance of Llama 3 70B (80 layers, 8 KV heads of width 128) runs "
                   "on {tp:raw} GPUs with tensor parallelism, the KV heads split among them. Each "
                   "GPU sends its own share of a {prompt_len} prompt's BF16 KV cache over its own "
                   "{bandwidth} link. How long does the transfer take?",
      .params = {{"prompt_len", 2048, {1000, 1024, 1500, 2048, 3000, 4096, 6000, 8192}},
                 {"tp", 4, {2, 4, 8}},
                 {"bandwidth", 50e9, {12.5e9, 25e9, 50e9, 100e9}},
                 {"qps", 1, {}},
                 {"ttft_target", 0, {}},
                 {"tpot_target", 0, {}}},
      .estimator = "serve.disaggregated",
      .inputs =
          [](const Values& p) {
            return serve_inputs(
                p, {"prompt_len", "tp", "bandwidth", "qps", "ttft_target", "tpot_target"});
          },
      .output = "kv_transfer_time",
      .unit = answer_in::ms(),
      .hints = {"Each GPU holds 1/TP of the prompt's cache and sends it while the others send "
                "theirs.",
                "The prompt's cache is P · 2 · layers · KV heads · head width · 2 bytes; divide "
                "by TP, then by the link's bandwidth."},
      .mistakes =
          {{"one_link", "Every prefill GPU sends its share at once, over its own link.",
            [](const Values& p, const Values& out) { return out["kv_transfer_time"] * p["tp"]; },
            0},
           times("bits", 8, "The link's figure is bytes per second here, not bits."),
           times("query_heads", 8, "Only the 8 KV heads are cached, not the 64 query heads.")},
      .difficulty = 2,
      .tags = "disaggregation,KV cache,network",
  });
  bank.add({
      .id = "serve.disaggregated.prefill_instances",
      .area = "inference",
      .title = "Prefill instances for a request rate",
      .source = "DistServe (Zhong et al. 2024, §3.1): a prefill instance as an M/D/1 queue",
      .statement = "A prefill instance of {tp:raw} H100s prefills one {prompt_len} prompt of "
                   "Llama 3 70B (BF16) at a time, in {prefill_time}. Requests arrive at {qps} "
                   "per second, and each instance may be busy at most {max_utilization} of the "
                   "time. How many prefill instances are needed?",
      .params = {{"tp", 4, {4, 8}},
                 {"prompt_len", 2048, {1024, 2048, 4096}},
                 {"qps", 50, {10, 20, 50, 100, 200}},
                 {"max_utilization", 0.8, {0.6, 0.7, 0.8, 0.9}},
                 {"ttft_target", 0, {}},
                 {"tpot_target", 0, {}},
                 {"prefill_time", 0, {}, unit::seconds}},
      .derive =
          [](Values& p) {
            Values q = p;
            q.set("batch", 1);
            p.set("prefill_time", engine_output(q, {"tp", "prompt_len", "batch"}, "ttft"));
          },
      .valid =
          [](const Values& p) {
            const double x = p["qps"] * p["prefill_time"] / p["max_utilization"];
            return p["prefill_time"] > 0 && std::fabs(x - std::round(x)) > 0.003 * x;
          },
      .estimator = "serve.disaggregated",
      .inputs =
          [](const Values& p) {
            return serve_inputs(
                p, {"tp", "prompt_len", "qps", "max_utilization", "ttft_target", "tpot_target"});
          },
      .output = "prefill_instances",
      .unit = answer_in::count(unit::none, "instances"),
      .integer = true,
      .bound = Bound::at_least,
      .hints = {"The prompts bring λ · t_p seconds of prefill work every second.",
                "Each instance may do at most ρ of a second of it: ⌈λ · t_p / ρ⌉."},
      .mistakes = {{"no_headroom",
                    "An instance busy all the time has an unbounded queue: keep it at the "
                    "utilisation limit.",
                    [](const Values& p, const Values&) {
                      return std::ceil(p["qps"] * p["prefill_time"]);
                    },
                    0}},
      .difficulty = 2,
      .tags = "disaggregation,queueing,GPU count",
  });
  bank.add({
      .id = "serve.disaggregated.decode_instances",
      .area = "inference",
      .title = "Decode instances for a request rate",
      .source = "DistServe (Zhong et al. 2024): decode instances sized by Little's law",
      .statement = "Decode instances of Llama 3 70B on 4 H100s each run up to {batch} sequences "
                   "at once, and a decode step takes {decode_step}. A request arrives with its "
                   "first token from the prefill pool and needs {output_len} output tokens in "
                   "all. At {qps} requests per second, with each instance's slots at most "
                   "{max_utilization} busy, how many decode instances are needed?",
      .params = {{"batch", 64, {32, 64, 128}},
                 {"output_len", 256, {128, 256, 512}},
                 {"qps", 50, {10, 20, 50, 100, 200}},
                 {"max_utilization", 0.8, {0.6, 0.7, 0.8, 0.9}},
                 {"ttft_target", 0, {}},
                 {"tpot_target", 0, {}},
                 {"decode_step", 0, {}, unit::seconds}},
      .derive =
          [](Values& p) {
            p.set("decode_step", engine_output(p, {"batch", "output_len"}, "decode_step"));
          },
      .valid =
          [](const Values& p) {
            const double x = p["qps"] * (p["output_len"] - 1) * p["decode_step"] /
                             (p["batch"] * p["max_utilization"]);
            return p["decode_step"] > 0 && std::fabs(x - std::round(x)) > 0.003 * x;
          },
      .estimator = "serve.disaggregated",
      .inputs =
          [](const Values& p) {
            return serve_inputs(
                p, {"batch", "output_len", "qps", "max_utilization", "ttft_target", "tpot_target"});
          },
      .output = "decode_instances",
      .unit = answer_in::count(unit::none, "instances"),
      .integer = true,
      .bound = Bound::at_least,
      .hints = {"A request holds a decode slot for O − 1 steps: its first token came from the "
                "prefill.",
                "Slots busy on average = λ · (O − 1) · t_step (Little's law); each instance has "
                "batch · ρ of them to give."},
      .mistakes = {{"one_slot",
                    "An instance decodes a whole batch at once: it has batch · ρ slots.",
                    [](const Values& p, const Values&) {
                      return std::ceil(p["qps"] * (p["output_len"] - 1) * p["decode_step"] /
                                       p["max_utilization"]);
                    },
                    0},
                   {"no_headroom", "Keep each instance's slots at the utilisation limit.",
                    [](const Values& p, const Values&) {
                      return std::ceil(p["qps"] * (p["output_len"] - 1) * p["decode_step"] /
                                       p["batch"]);
                    },
                    0}},
      .difficulty = 2,
      .tags = "disaggregation,decode,GPU count",
  });
}

// serve.moe on DeepSeek-V3 (H200s: 141 GB each), from the deepseek-v3 preset.
double dsv3_routed() {
  const ModelParams mp = model_params(find_model("deepseek-v3")->model);
  return mp.moe_layers * 256.0 * mp.expert;
}
double dsv3_shared() {
  return model_params(find_model("deepseek-v3")->model).total - dsv3_routed();
}
Json moe_inputs(const Values& p) {
  return serve_inputs(p, {"experts", "top_k", "batch", "ep", "tp"}, "deepseek-v3", "h200");
}

void moe(ProblemBank& bank) {
  bank.add({
      .id = "serve.moe.experts_touched",
      .area = "inference",
      .title = "Experts one decode step reads",
      .source = "uniform top-k routing: E · (1 − (1 − k/E)^T) (Austin et al. 2025, MoE serving)",
      .statement = "A mixture of experts has {experts:raw} routed experts per layer and sends each "
                   "token to {top_k:raw} of them, at random. One decode step routes {batch:raw} "
                   "tokens. On average, how many distinct experts does one MoE layer read?",
      .params = {{"experts", 256, {64, 128, 256}},
                 {"top_k", 8, {2, 4, 6, 8}},
                 {"batch", 32, {4, 8, 16, 32, 64}},
                 {"ep", 8, {}},
                 {"tp", 8, {}}},
      .estimator = "serve.moe",
      .inputs = moe_inputs,
      .output = "experts_touched",
      .unit = answer_in::count(unit::none, "experts"),
      .hints = {"Find the chance that one expert is read by none of the tokens.",
                "An expert escapes one token with probability 1 − k/E, all T with (1 − k/E)^T; "
                "touched = E · (1 − (1 − k/E)^T)."},
      .mistakes = {{"no_overlap", "Tokens pick the same experts: k · T counts many twice.",
                    [](const Values& p, const Values&) {
                      return std::fmin(p["experts"], p["top_k"] * p["batch"]);
                    },
                    0},
                   {"one_token", "Every token picks its own k: the batch touches more.",
                    [](const Values& p, const Values&) { return p["top_k"]; }, 0}},
      .difficulty = 2,
      .tags = "MoE,decode",
  });
  bank.add({
      .id = "serve.moe.weights_per_gpu",
      .area = "inference",
      .title = "Weights per GPU with expert parallelism",
      .source = "DeepSeek-V3 §3.4 (DeepSeek-AI 2024): experts spread whole over EP GPUs, the "
                "rest split over TP",
      .statement = "DeepSeek-V3 has 17.1B shared parameters (attention, embeddings, dense and "
                   "shared-expert layers) and 256 routed experts in each of 58 MoE layers, "
                   "44.0M parameters each. It is served with {weight_bytes:raw}-byte weights: "
                   "the routed experts spread whole over {ep} GPUs, the shared weights split "
                   "over groups of {tp:raw}. How many bytes of weights does each GPU hold?",
      .params = {{"ep", 32, {16, 32, 64, 128, 256}},
                 {"tp", 1, {1, 2, 4, 8}},
                 {"weight_bytes", 1, {1, 2}}},
      .estimator = "serve.moe",
      .inputs = moe_inputs,
      .output = "weights_per_gpu",
      .unit = answer_in::gb(),
      .hints = {"Split the two kinds of weights separately: the experts by EP, the rest by TP.",
                "W = shared · b / TP + (256 / EP) · 58 · 44.0M · b."},
      .mistakes = {{"all_over_ep", "The shared weights are not spread over EP: only over TP.",
                    [](const Values& p, const Values&) {
                      return (dsv3_shared() + dsv3_routed()) * p["weight_bytes"] / p["ep"];
                    },
                    0},
                   {"experts_only", "Every GPU also holds its share of the shared weights.",
                    [](const Values& p, const Values&) {
                      return dsv3_routed() * p["weight_bytes"] / p["ep"];
                    },
                    0}},
      .difficulty = 1,
      .tags = "MoE,expert parallel,memory",
  });
  bank.add({
      .id = "serve.moe.alltoall",
      .area = "inference",
      .title = "All-to-all traffic per token",
      .source = "GShard's dispatch and combine (Lepikhin et al. 2021, §2.2); DeepSeek-V3 "
                "dispatches in FP8 (§3.3.2)",
      .statement = "In a DeepSeek-V3-shaped model each token's hidden state (7,168 values) goes "
                   "to {top_k:raw} routed experts in each of its 58 MoE layers and their results "
                   "come back. The "
                   "experts are spread evenly over {ep} GPUs; dispatch sends {weight_bytes:raw} "
                   "byte(s) per value, the combine 2. How many bytes per token leave a GPU?",
      .params = {{"ep", 32, {8, 12, 16, 24, 32, 48, 64, 96, 128, 256}},
                 {"weight_bytes", 1, {1, 2}},
                 {"top_k", 8, {2, 4, 6, 8}},
                 {"tp", 1, {}}},
      .valid = [](const Values& p) { return p["weight_bytes"] == 1 || p["ep"] >= 16; },
      .estimator = "serve.moe",
      .inputs = moe_inputs,
      .output = "alltoall_bytes_per_token",
      .unit = answer_in::mb(),
      .hints = {"Count one token's trip to its experts and back, in every MoE layer.",
                "Bytes = 58 · k · 7,168 · (dispatch + combine bytes) · (EP − 1)/EP: the share "
                "of experts on other GPUs."},
      .mistakes = {{"dispatch_only", "The results come back too: add the combine.",
                    [](const Values& p, const Values& out) {
                      return out["alltoall_bytes_per_token"] * p["weight_bytes"] /
                             (p["weight_bytes"] + 2);
                    },
                    0},
                   {"all_leave", "Experts on the token's own GPU need no transfer: × (EP − 1)/EP.",
                    [](const Values& p, const Values& out) {
                      return out["alltoall_bytes_per_token"] * p["ep"] / (p["ep"] - 1);
                    },
                    0},
                   times("one_layer", 1.0 / 58, "Every one of the 58 MoE layers routes again.")},
      .difficulty = 2,
      .tags = "MoE,expert parallel,network",
  });
}

}  // namespace

void register_inference_problems(ProblemBank& bank) {
  batching(bank);
  pipeline(bank);
  llm(bank);
  rl(bank);
  engine(bank);
  capacity(bank);
  speculative(bank);
  prefix_cache(bank);
  disaggregated(bank);
  moe(bank);
}

}  // namespace napkin
