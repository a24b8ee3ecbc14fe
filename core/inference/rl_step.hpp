// rl.step: one step of RL post-training (GRPO or PPO) as NeMo-RL, veRL and OpenRLHF run it —
// rollout generation on a serving engine (serve_engine), the reward, the log-probability
// passes, the training update (train_step) and the weight transfer to the engine — in three
// placements: colocated (every GPU generates, then every GPU trains), disaggregated (separate
// GPU sets, one phase after another) and asynchronous (generation of step t + 1 overlaps the
// training of step t). Sources above each formula in rl_step.cpp and in docs/rl.md.
#pragma once

#include <string>

#include "registry/registry.hpp"
#include "scenario/cluster.hpp"
#include "scenario/gpu_figures.hpp"
#include "scenario/model_inputs.hpp"

namespace napkin {

// The policy is the shared model (SizedModelInputs). Defaults: Llama 3.1 8B, GRPO on 16 H100s,
// NeMo-RL's performance recipe (64 prompts × 32 responses, prompt + response within 4,096
// tokens; docs/about/performance-summary.md, v0.5).
struct RlStepIn : SizedModelInputs {
  RlStepIn() {
    layers = 32, heads = 32, kv_heads = 8, d_model = 4096, head_dim = 128, d_ff = 14336;
    vocab = 128256;
  }
  std::string placement = "colocated";  // colocated | disaggregated | async
  std::string algorithm = "grpo";       // grpo | ppo (a critic the policy's size)
  // The batch.
  double prompts = 64, group_size = 32;
  double prompt_len = 128, response_len_mean = 1024, response_len_max = 3968;
  double minibatches = 4;       // optimizer steps per RL step (NeMo-RL: 2,048 samples, T-GBS 512)
  double epochs = 1;            // passes over the samples (PPO's epochs)
  bool reference_model = true;  // a KL penalty against the initial policy
  bool recompute_logprobs = true;   // the policy's own log-probs before the update
  std::string reward = "verifier";  // verifier | model
  double reward_model_params = 0;   // 0 = the policy's size
  double critic_params = 0;         // PPO: 0 = the policy's size
  double verifier_time = 0;         // CPU seconds per step the checkers add
  double staleness = 1;             // async: steps generation may run ahead
  // GPUs.
  double total_gpus = 16, generation_gpus = 0;  // 0 = half (disaggregated, async)
  int gpus_per_node = 8;
  double peak_flops = figures::h100_bf16, peak_fp8 = figures::h100_fp8;
  double mem_bandwidth = figures::h100_hbm_bandwidth, gpu_memory = figures::h100_memory;
  double matmul_fraction = kH100MatmulFraction, matmul_fraction_fp8 = kH100Fp8MatmulFraction;
  double sms = 132;  // H100 SXM: the GEMMs' waves (core/scenario/gemm.hpp)
  double intra_bandwidth = 450e9, intra_latency = 3e-6, inter_bandwidth = 50e9,
         inter_latency = 5e-6, intra_efficiency = figures::nvlink4_ring_share,
         inter_efficiency = figures::nic_share, launch_latency = figures::nccl_launch;
  // What the frameworks' host copies achieve per GPU (many tensors, not PCIe's 64 GB/s peak):
  // vLLM's level-1 wake-up moves Qwen3-8B's 16.4 GB back in 2.19 s on an A100 (vLLM PR #48337),
  // 7.5 GB/s; NeMo-RL's refit of Llama 3.1 8B on 8 H100s (grads, optimizer and model out, the
  // engine's weights in, about 52 GB per GPU in 5 s) implies 10 GB/s.
  double host_bandwidth = 10e9;
  // Colocated: what leaves the GPUs while the engine runs. "full" (NeMo-RL): the trainer's
  // weights, gradients and optimizer go to host memory and come back, the engine's weights wake
  // from host memory, and the reference model's weights are swapped in for its pass;
  // "optimizer": the optimizer state alone; "none": nothing moves.
  std::string colocated_offload = "full";
  // Generation engine (vLLM).
  int gen_tp = 1;
  std::string gen_dtype = "bf16";
  double gpu_memory_utilization = 0;  // 0 = 0.6 colocated (NeMo-RL's), else vLLM's 0.9
  double compute_efficiency = 0,      // 0: the engine's matmuls by their shapes
      bandwidth_efficiency = figures::engine_bandwidth_share;
  // The engine's own work per decode step that the GPU waits for (vLLM inside an RL framework:
  // offline generate with log-probs, no async scheduling). NeMo-RL v0.3's Llama 3.1 8B
  // generation on 8 GPUs (2,048 rollouts, the longest 4,096 tokens) took 58 s where the steps'
  // GPU work comes to 37 s: 5.3 ms for each of its ~3,976 steps (docs/rl.md).
  double step_overhead = 5e-3;
  // Trainer.
  int train_tp = 1, train_pp = 1, train_ep = 1, zero_stage = 3;
  std::string recompute = "full";
  bool optimizer_offload = false;
  double train_efficiency = 0;       // 0 = train.step's default
  double weight_sync_bandwidth = 0;  // 0 = from the links
  // How the weights travel: "bucketed" (NeMo-RL's refit, verl's checkpoint engine: large buffers
  // from every shard at once) or "per_tensor" (verl's and slime's NCCL baseline: one rank
  // broadcasts each checkpoint tensor to every trainer and engine rank, one after another).
  std::string weight_sync = "bucketed";
  double tensor_overhead = 0;  // per_tensor: the framework's own cost per tensor, beyond NCCL
};

struct RlStepOut {
  double step_time, generation_time, logprob_time, reward_time, train_time, weight_sync_time,
      samples_per_second, tokens_per_second, memory_per_gpu;
  bool fits;
  double speedup_vs_sync, best_sync_step_time;
  double generation_gpus, training_gpus, replicas, sequences_per_replica, concurrent_sequences,
      decode_steps, tail_time, generation_utilization, training_utilization, offload_time,
      best_generation_gpus, best_split_step_time;
};

Result<RlStepOut> rl_step(const RlStepIn& in, Derivation& d);

void register_rl_step(Registry& r);

}  // namespace napkin
