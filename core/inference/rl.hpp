// RL (RLHF/PPO) iteration time and throughput, synchronous vs asynchronous (the study notes' model;
// docs/rl.md, docs/errata.md).
#pragma once

#include <string>

#include "inference/inference.hpp"
#include "registry/registry.hpp"
#include "scenario/gpu_figures.hpp"

namespace napkin {

// The policy's shape and counts are the shared ones (SizedModelInputs, default Llama 3 70B).
struct RlThroughputIn : SizedModelInputs {
  double batch = 512;
  double prompt_len = 100;
  double gen_len = 50;
  double ppo_epochs = 4;
  double total_gpus = 256;
  double peak_flops = figures::h100_bf16;
  double mem_bandwidth = figures::h100_hbm_bandwidth;
  // Generation's and scoring's shares of peak (serve.engine's); 1 and 1: the worked example's.
  double compute_efficiency = figures::serving_compute_share;
  double bandwidth_efficiency = figures::serving_bandwidth_share;
  double mfu = 0.5;
  double reward_model_fraction = 0.1;
  double async_train_fraction = 0.5;
  double generation_replicas = 1;
  double weight_bytes = 2;
  double gpu_memory = figures::h100_memory;
  double gpus_per_replica = 0;            // 0 = the smallest TP × PP shape that holds it
  double gpus_per_node = 8;               // the largest TP degree (one NVLink domain)
  std::string decode_model = "roofline";  // roofline | weights (the worked example's)
  std::string score_on = "all";           // all: the GPUs not training | one_gpu (worked example)
};
struct RlThroughputOut {
  double generate_time, score_time, train_time_sync, train_time_async, sync_iteration_time,
      async_iteration_time, sync_samples_per_second, async_samples_per_second,
      sync_tokens_per_second, async_tokens_per_second, speedup, train_gpus_sync, train_gpus_async,
      sequences_per_replica, gpus_per_replica, generation_memory, score_gpus, score_time_async;
};
Result<RlThroughputOut> rl_throughput(const RlThroughputIn& in, Derivation& d);

void register_rl(Registry& r);

}  // namespace napkin
