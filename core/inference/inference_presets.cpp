// Charts and presets for the inference, serving and RL estimators. Model presets carry the
// input names these estimators use; scenario presets are the study notes' worked examples
// (docs/errata.md).
#include <initializer_list>
#include <utility>

#include "base/units.hpp"
#include "inference/inference.hpp"
#include "inference/serving.hpp"

namespace napkin {

namespace {

// The worked example's progressive ranking at 30k QPS and its problem (50k QPS, 200 ms budget).
constexpr const char* kRankingStages =
    R"([{"name": "Candidate generation", "latency": 0.02}, )"
    R"({"name": "Light ranking", "batch": 50, "inference": 0.05}, )"
    R"({"name": "Heavy ranking", "batch": 20, "inference": 0.04}])";
constexpr const char* kProblem3Stages =
    R"([{"name": "Stage 1", "latency": 0.02}, {"name": "Stage 2", "latency": 0.08}, )"
    R"({"name": "Stage 3", "batch": 30, "inference": 0.05}])";
constexpr const char* kProblem3Batched =
    R"([{"name": "Stage 1", "latency": 0.02}, {"name": "Stage 2", "batch": 50, "inference": 0.08}, )"
    R"({"name": "Stage 3", "batch": 30, "inference": 0.05}])";

void add_charts(Registry& r) {
  // Decode roofline vs batch: memory time grows slowly (one weight read shared by the batch,
  // plus each sequence's cache), compute grows linearly; the lines cross at crossover_batch.
  r.add_chart({.id = "decode-step-vs-batch",
               .title = "Decode step time vs batch (memory vs compute)",
               .estimator = "infer.decode",
               .x = "batch",
               .x_label = "Batch (sequences)",
               .y_label = "Time per decode step",
               .y_unit = unit::seconds,
               .x_min = 1,
               .x_max = 4096,
               .points = 60,
               .log_x = true,
               .log_y = true,
               .integer_x = true,
               .y = {"step_time", "memory_time", "compute_time"},
               .markers = {{"ridge on an H100 at the achieved rates (no cache): 246", 246.1}}});
  r.add_chart({.id = "decode-throughput-vs-batch",
               .title = "Decode tokens/s vs batch, by context length",
               .estimator = "infer.decode",
               .x = "batch",
               .x_label = "Batch (sequences)",
               .y_label = "Tokens per second",
               .y_unit = unit::tokens_per_s,
               .x_min = 1,
               .x_max = 4096,
               .points = 60,
               .log_x = true,
               .log_y = true,
               .integer_x = true,
               .y = {"tokens_per_second"},
               .series = {{"no cache (weights only)", object_of({{"context", 0}})},
                          {"1k context", object_of({{"context", 1024}})},
                          {"4k context", object_of({{"context", 4096}})},
                          {"32k context", object_of({{"context", 32768}})}},
               .markers = {{"ridge on an H100 at the achieved rates: 246", 246.1}}});
  r.add_chart({.id = "decode-latency-vs-batch",
               .title = "End-to-end latency vs batch (roofline decode)",
               .estimator = "infer.latency",
               .x = "batch",
               .x_label = "Batch (sequences)",
               .y_label = "Latency",
               .y_unit = unit::seconds,
               .x_min = 1,
               .x_max = 1024,
               .points = 50,
               .log_x = true,
               .integer_x = true,
               .y = {"total_time", "prefill_time", "decode_time"},
               .series = {{"roofline decode", object_of({{"decode_model", "roofline"}})}}});
  // KV cache vs context: one line per attention type (DeepSeek-V2 Table 1).
  r.add_chart(
      {.id = "kv-cache-vs-context",
       .title = "KV cache per sequence vs context, by attention type",
       .estimator = "infer.kv",
       .x = "seq_len",
       .x_label = "Context length",
       .y_label = "KV cache per sequence",
       .y_unit = unit::bytes,
       .x_min = 1024,
       .x_max = 131072,
       .points = 50,
       .log_x = true,
       .log_y = true,
       .integer_x = true,
       .y = {"bytes_per_sequence"},
       .series = {{"LLaMA-2-70B shape with MHA (64 KV heads)", object_of({{"n_layers", 80},
                                                                          {"n_heads", 64},
                                                                          {"n_kv_heads", 64},
                                                                          {"head_dim", 128},
                                                                          {"latent_dim", 0},
                                                                          {"rope_dim", 0}})},
                  {"Llama-3-70B, GQA (8 KV heads)", object_of({{"n_layers", 80},
                                                               {"n_heads", 64},
                                                               {"n_kv_heads", 8},
                                                               {"head_dim", 128},
                                                               {"latent_dim", 0},
                                                               {"rope_dim", 0}})},
                  {"DeepSeek-V3, MLA (512 + 64)",
                   object_of({{"n_layers", 61}, {"latent_dim", 512}, {"rope_dim", 64}})}},
       .mark_current = false});
  // The notes' mistake 4: at a fixed inference time per batch, a bigger batch needs fewer
  // GPUs but waits longer to fill.
  r.add_chart({.id = "batching-latency-vs-batch",
               .title = "Dynamic batching: latency vs batch size (fixed inference time)",
               .estimator = "serve.batching",
               .x = "batch_size",
               .x_label = "Batch size",
               .y_label = "Latency",
               .y_unit = unit::seconds,
               .x_min = 1,
               .x_max = 200,
               .points = 200,
               .integer_x = true,
               .y = {"avg_latency", "cold_start_latency"},
               .hline_input = "latency_budget"});
  r.add_chart({.id = "batching-gpus-vs-batch",
               .title = "Dynamic batching: GPUs needed vs batch size",
               .estimator = "serve.batching",
               .x = "batch_size",
               .x_label = "Batch size",
               .y_label = "GPUs",
               .y_unit = unit::gpus,
               .x_min = 1,
               .x_max = 200,
               .points = 200,
               .log_y = true,
               .integer_x = true,
               .y = {"gpus_needed"}});
  // The worked example's figure: sync vs async throughput at batch 128..1024, and the speedup.
  r.add_chart({.id = "rl-throughput-vs-batch",
               .title = "RL throughput vs batch: synchronous vs asynchronous",
               .estimator = "rl.throughput",
               .x = "batch",
               .x_label = "Batch (prompts per iteration)",
               .y_label = "Samples per second",
               .y_unit = unit::samples_per_s,
               .x_min = 64,
               .x_max = 4096,
               .points = 40,
               .log_x = true,
               .integer_x = true,
               .y = {"sync_samples_per_second", "async_samples_per_second"},
               .markers = {{"128", 128}, {"256", 256}, {"512", 512}, {"1024", 1024}}});
  r.add_chart({.id = "rl-speedup-vs-batch",
               .title = "Async speedup over sync vs batch",
               .estimator = "rl.throughput",
               .x = "batch",
               .x_label = "Batch (prompts per iteration)",
               .y_label = "Speedup",
               .y_unit = unit::times,
               .x_min = 64,
               .x_max = 4096,
               .points = 40,
               .log_x = true,
               .integer_x = true,
               .y = {"speedup"},
               .markers = {{"worked example: 1.10× at 512", 512}}});
}

void add_scenarios(Registry& r) {
  const char* s000 = "Worked example (stage 3 example)";
  r.add_preset(scenario("seed000-option-a", "Stage 3, option A: batch 20, 40 ms (60 ms, over)",
                        s000, "serve.batching",
                        {{"batch_size", 20},
                         {"inference_time", 0.04},
                         {"total_qps", 30000},
                         {"gpus", 0},
                         {"latency_budget", 0.05},
                         {"wait_model", "half_window"}}));
  r.add_preset(scenario("seed000-option-b", "Stage 3, option B: TensorRT 30 ms (45 GPUs, 45 ms)",
                        s000, "serve.batching",
                        {{"batch_size", 20},
                         {"inference_time", 0.03},
                         {"total_qps", 30000},
                         {"gpus", 0},
                         {"latency_budget", 0.05},
                         {"wait_model", "half_window"}}));
  r.add_preset(scenario("seed000-option-c", "Option C: skip stage 3, batch 50 at 80 ms (48 GPUs)",
                        s000, "serve.batching",
                        {{"batch_size", 50},
                         {"inference_time", 0.08},
                         {"total_qps", 30000},
                         {"gpus", 0},
                         {"latency_budget", 0},
                         {"wait_model", "half_window"}}));
  r.add_preset(scenario("seed000-section2", "500 QPS per GPU on 60 GPUs (150 ms)", "Worked example",
                        "serve.batching",
                        {{"batch_size", 50},
                         {"inference_time", 0.1},
                         {"total_qps", 30000},
                         {"gpus", 60},
                         {"latency_budget", 0},
                         {"wait_model", "half_window"}}));
  r.add_preset(scenario("seed000-problem2", "Problem 2: 50k QPS, batch 50, 80 ms (80 GPUs)",
                        "Worked example", "serve.batching",
                        {{"batch_size", 50},
                         {"inference_time", 0.08},
                         {"total_qps", 50000},
                         {"gpus", 0},
                         {"latency_budget", 0},
                         {"wait_model", "half_window"}}));
  r.add_preset(scenario("seed000-ranking", "Progressive ranking: 20 + 75 + 60 = 155 ms, 90 GPUs",
                        "Worked example (progressive ranking architecture)", "serve.pipeline",
                        {{"total_qps", 30000},
                         {"budget", 0.2},
                         {"stages", kRankingStages},
                         {"wait_model", "half_window"}}));
  r.add_preset(scenario("seed000-problem3", "Problem 3 as stated (stage 2 counted at 80 ms)",
                        "Worked example", "serve.pipeline",
                        {{"total_qps", 50000},
                         {"budget", 0.2},
                         {"stages", kProblem3Stages},
                         {"wait_model", "half_window"}}));
  r.add_preset(scenario("seed000-problem3-batched",
                        "Problem 3 with stage 2 batched (120 ms: over budget; see errata)",
                        "docs/errata.md", "serve.pipeline",
                        {{"total_qps", 50000},
                         {"budget", 0.2},
                         {"stages", kProblem3Batched},
                         {"wait_model", "half_window"}}));

  const char* s001 = "Worked example (LLaMA-2-70B inference on H100)";
  struct Row {
    const char *id, *label;
    double prompt, gen, batch;
  };
  for (Row row : {Row{"seed001-short-short", "Short prompt, short gen (100 → 50)", 100, 50, 1},
                  Row{"seed001-long-short", "Long prompt, short gen (2000 → 50)", 2000, 50, 1},
                  Row{"seed001-short-long", "Short prompt, long gen (100 → 500)", 100, 500, 1},
                  Row{"seed001-batched", "Batched, bs = 8 (100 → 50)", 100, 50, 8}})
    r.add_preset(scenario(row.id, row.label, s001, "infer.latency",
                          {{"params", 70e9},
                           {"prompt_len", row.prompt},
                           {"gen_len", row.gen},
                           {"batch", row.batch},
                           {"peak_flops", 990e12},
                           {"mem_bandwidth", 3.35e12},
                           // The worked example runs at the peaks (the ideal roofline).
                           {"compute_efficiency", 1},
                           {"bandwidth_efficiency", 1},
                           // The worked example's multi-head cache, 2·L·d per token: 64
                           // heads of 8,192 / 64, each its own KV head.
                           {"n_layers", 80},
                           {"d_model", 8192},
                           {"n_heads", 64},
                           {"n_kv_heads", 0},
                           {"head_dim", 0},
                           {"decode_model", "weights"}}));
  struct Load {
    const char *id, *label;
    double users, rps;
  };
  for (Load l : {Load{"seed001-serve-low", "Low load: 1,000 users × 0.01 req/s", 1000, 0.01},
                 Load{"seed001-serve-medium", "Medium load: 5,000 users × 0.02 req/s", 5000, 0.02},
                 Load{"seed001-serve-high", "High load: 10,000 users × 0.05 req/s", 10000, 0.05}})
    r.add_preset(scenario(l.id, l.label,
                          "Worked example (GPU requirements for serving LLaMA-2-70B)",
                          "serve.llm_gpus",
                          {{"params", 70e9},
                           {"users", l.users},
                           {"rps_per_user", l.rps},
                           {"prompt_len", 100},
                           {"gen_len", 50},
                           {"target_latency", 1.0},
                           {"gpu_memory", 80e9},
                           {"compute_efficiency", 1},
                           {"bandwidth_efficiency", 1},
                           {"n_layers", 80},
                           {"d_model", 8192},
                           {"n_heads", 64},
                           {"n_kv_heads", 0},
                           {"head_dim", 0},
                           {"gpus_per_replica", 0}}));
  r.add_preset(scenario("seed001-rl", "70B PPO, batch 512, 256 GPUs (sync vs async)",
                        "Worked example", "rl.throughput",
                        {{"params", 70e9},
                         {"batch", 512},
                         {"prompt_len", 100},
                         {"gen_len", 50},
                         {"ppo_epochs", 4},
                         {"total_gpus", 256},
                         {"peak_flops", 990e12},
                         {"mem_bandwidth", 3.35e12},
                         {"compute_efficiency", 1},
                         {"bandwidth_efficiency", 1},
                         {"mfu", 0.5},
                         {"reward_model_fraction", 0.1},
                         {"async_train_fraction", 0.5},
                         {"generation_replicas", 1},
                         {"gpus_per_replica", 1},
                         {"n_layers", 80},
                         {"d_model", 8192},
                         {"n_heads", 64},
                         {"n_kv_heads", 0},
                         {"head_dim", 0},
                         {"decode_model", "weights"},
                         {"score_on", "one_gpu"}}));
}

}  // namespace

void register_inference_extras(Registry& r) {
  add_charts(r);
  add_scenarios(r);
}

}  // namespace napkin
