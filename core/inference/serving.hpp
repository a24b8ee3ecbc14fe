// Serving capacity: the study notes' LLM GPU estimate (weight-memory bug fixed: docs/errata.md),
// dynamic batching (QPS vs latency) and multi-stage ranking pipelines. Sources in serving.cpp and
// docs/serving.md.
#pragma once

#include <string>

#include "inference/inference.hpp"
#include "registry/registry.hpp"
#include "scenario/gpu_figures.hpp"

namespace napkin {

// The model's shape and counts are the shared ones (SizedModelInputs, default Llama 3 70B).
struct ServeLlmIn : SizedModelInputs {
  double users = 10000;
  double rps_per_user = 0.05;
  double prompt_len = 100;
  double gen_len = 50;
  double target_latency = 1.0;
  double gpu_memory = figures::h100_memory;
  double peak_flops = figures::h100_bf16;
  double mem_bandwidth = figures::h100_hbm_bandwidth;
  // Shares of peak the replica's kernels reach (serve.engine's); the worked example's outputs
  // (…_seed) keep its ideal rates.
  double compute_efficiency = figures::serving_compute_share;
  double bandwidth_efficiency = figures::serving_bandwidth_share;
  double weight_bytes = 2;
  double kv_bytes = 2;
  double gpus_per_replica = 0;  // 0 = the smallest TP × PP shape that holds weights + 1 request
  double total_qps = 0;         // 0 = users × rps_per_user
  double gpus_per_node = 8;     // the largest TP degree (one NVLink domain)
};
struct ServeLlmOut {
  double total_rps, requests_per_gpu, gpus_needed, max_concurrent, single_request_latency,
      weight_memory, weight_memory_seed, kv_per_request, gpus_per_replica, replicas,
      max_concurrent_memory, max_concurrent_latency, max_concurrent_seed, gpus_needed_seed, tp, pp,
      min_gpus_memory, single_request_latency_seed;
};
Result<ServeLlmOut> serve_llm_gpus(const ServeLlmIn& in, Derivation& d);

struct ServeBatchingIn {
  double batch_size = 50;
  double inference_time = 0.08;
  double total_qps = 50000;
  double gpus = 0;                  // 0 = as many as needed
  double latency_budget = 0.2;      // 0 = none; default: the worked example's 200 ms
  std::string wait_model = "fill";  // fill: (b − 1)/(2q); half_window: the worked example's b/(2q)
};
struct ServeBatchingOut {
  double qps_per_gpu, gpus_needed, gpus_used, per_gpu_qps, collection_time, avg_wait, avg_latency,
      cold_start_latency, utilization, avg_latency_half_window;
  bool within_budget;
};
Result<ServeBatchingOut> serve_batching(const ServeBatchingIn& in, Derivation& d);

struct ServePipelineIn {
  double total_qps = 30000;
  double budget = 0.2;
  std::string stages = R"([{"name": "Candidate generation", "latency": 0.02},)"
                       R"( {"name": "Light ranking", "batch": 50, "inference": 0.05},)"
                       R"( {"name": "Heavy ranking", "batch": 20, "inference": 0.04}])";
  std::string wait_model = "fill";  // as ServeBatchingIn
};
struct ServePipelineOut {
  double total_latency, remaining_budget, total_gpus, stage_count;
  bool within_budget;
  Json stages;
};
Result<ServePipelineOut> serve_pipeline(const ServePipelineIn& in, Derivation& d);

void register_serving(Registry& r);

}  // namespace napkin
