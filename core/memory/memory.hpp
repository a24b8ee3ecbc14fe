// Memory, sharding and pipelines: per-GPU training memory under TP/PP/DP/ZeRO, activation
// memory (Korthikanti et al. 2022), FSDP sizing and mixed FSDP + TP scaling (docs/memory.md),
// the study notes' parallelism rule of thumb, and pipeline bubbles (Narayanan et al. 2021).
// Sources are cited above each formula in memory.cpp / pipeline.cpp and in docs/memory.md.
#pragma once

#include <string>

#include "base/counts.hpp"
#include "registry/registry.hpp"
#include "scenario/cluster.hpp"
#include "scenario/gpu_figures.hpp"
#include "scenario/model_inputs.hpp"

namespace napkin {

// mem.training — the study notes' `calculate_memory_per_gpu` (docs/memory.md), generalised to any
// bytes per parameter (ZeRO paper, Rajbhandari et al. 2020 §3 and Figure 1), with activations from
// Korthikanti et al. 2022 through the shared training_memory (core/scenario/). The model shape
// (default Llama 3 70B) sets the activations and, with params = 0, the parameter count.
struct MemTrainingIn : ModelInputs {
  double params = 0;  // 0 = the model shape's total parameters
  int tp = 1;
  int pp = 1;
  int dp = 1;
  int zero_stage = 0;
  double weight_bytes = 2;
  double grad_bytes = 2;
  double optimizer_bytes = 12;  // fp32 master + Adam m + v: 16 B/param in all (ZeRO §3)
  std::string activations = "korthikanti";
  double activation_bytes = 0;               // per GPU, used when activations = explicit
  bool checkpointing = false;                // = full recomputation
  double gpu_memory = figures::h100_memory;  // an 80 GB H100 is 80 GiB
  double activation_factor = 10;  // seed: activations ≈ 10 × (params / (tp·pp)) × weight_bytes
  double checkpoint_factor = 3;   // … and 3 × with gradient checkpointing
  // Korthikanti et al.'s count: per microbatch, of the layers on the busiest stage.
  double seq_len = 4096;
  int micro_batch = 1;
  int microbatches = 0;  // per step per pipeline; 0 = pp (1F1B keeps min(pp, M) in flight)
  std::string recompute = "none";
  bool sequence_parallel = false;
  bool flash_attention = true;
};
struct MemTrainingOut {
  double weights, gradients, optimizer, activations, model_states, total;
  bool fits;
  double max_params, headroom, bytes_per_param;
};
Result<MemTrainingOut> mem_training(const MemTrainingIn& in, Derivation& d);

// mem.activations — Korthikanti et al. 2022, Table 2 and §4.2.3.
struct MemActivationsIn {
  double seq_len = 2048;
  double micro_batch = 1;
  double d_model = 12288;
  double n_heads = 96;
  double n_layers = 96;
  int tp = 1;
  bool sequence_parallel = false;
  std::string recompute = "none";
  int pp = 1;
  double microbatches = 0;  // in flight on the first stage; 0 = at least pp (steady 1F1B)
};
struct MemActivationsOut {
  double per_layer, total, saved_fraction, per_layer_no_recompute, attention_term, layers_per_stage,
      in_flight_microbatches;
};
Result<MemActivationsOut> mem_activations(const MemActivationsIn& in, Derivation& d);

// mem.fsdp — the XXL worked example, parts (a) and (b) (docs/memory.md): the FFN-only XXL model
// sharded over N_FSDP devices.
struct MemFsdpIn {
  double params = 219848638464;  // 126 × 2 × 16384 × 53248 (the XXL worked example)
  double master_bytes = 4;
  double grad_bytes = 4;
  double optimizer_bytes = 8;
  double n_layers = 126;
  double batch = 4;
  double seq_len = 2048;
  double d_model = 16384;
  double d_ff = 53248;
  double activation_bytes = 2;
  double activation_sharded_fraction = 0.5;
  double n_fsdp = 1;
  double device_memory = 95.0 * 1073741824;  // TPU v5p: 95 GiB of HBM
  double reference_gpu_memory = figures::h100_memory;
  double backward_grad_bytes =
      2;  // the worked example's reading of (a): BF16 gradients in backward
};
struct MemFsdpOut {
  double model_states, activations, per_device;
  bool fits;
  double min_devices, min_devices_model_states_only, reference_gpus, backward_activations,
      bf16_grad_saving;
};
Result<MemFsdpOut> mem_fsdp(const MemFsdpIn& in, Derivation& d);

// scale.fsdp_tp — How to Scale Your Model (Austin et al. 2025), "Training", mixed FSDP + TP.
struct ScaleFsdpTpIn {
  double d_model = 16384;
  double d_ff = 53248;
  double fsdp = 16;
  double tp = 4;
  double peak_flops = 4.6e14;
  double ici_bandwidth = 1.8e11;
  double fsdp_axes = 2;
  double tp_axes = 1;
  double seq_len = 2048;
  double batch_tokens = 0;  // 0 = evaluate the times at the smallest compute-bound batch
  double n_layers = 126;
  double bytes = 2;  // BF16 weights and activations on the wire
};
struct ScaleFsdpTpOut {
  double alpha, min_batch_tokens, min_tokens_per_device, min_sequences, optimal_fsdp,
      min_tokens_per_device_optimal, compute_time, fsdp_comm_time, tp_comm_time, eval_batch_tokens;
  bool compute_bound;
};
Result<ScaleFsdpTpOut> scale_fsdp_tp(const ScaleFsdpTpIn& in, Derivation& d);

// parallel.recommend — the fastest layout that fits, from the typed layout search over
// train.step (docs/training.md) on a small space; or the study notes' `recommend_parallelism` rule
// of thumb (docs/memory.md).
struct ParallelRecommendIn : ModelInputs {
  double params =
      0;  // the rule of thumb's model size; 0 = the shape's (the search reads the shape)
  double gpus = 512;
  double gpus_per_node = 8;
  double gpu_memory = figures::h100_memory;  // an 80 GB H100 is 80 GiB
  double fit_factor = 20;  // seed: the model "fits" one GPU if 2 bytes × params × 20 < memory
  std::string method = "search";
  // The job and the cluster the search times (defaults: H100 SXM nodes, NVLink 4, NDR).
  double global_batch = 1024;  // sequences per step
  double seq_len = 4096;
  double peak_flops = figures::h100_bf16, mem_bandwidth = figures::h100_hbm_bandwidth;
  double matmul_fraction = kH100MatmulFraction, attention_fraction = kH100AttentionFraction;
  double intra_bandwidth = 450e9, intra_latency = 3e-6;
  double inter_bandwidth = 50e9, inter_latency = 5e-6;
  // What NCCL achieves (core/scenario/cluster.cpp): NVLink 4's 82 %, NDR's 94 %, 8.4 µs launch.
  double intra_efficiency = figures::nvlink4_ring_share, inter_efficiency = figures::nic_share,
         launch_latency = figures::nccl_launch;
};
struct ParallelRecommendOut {
  double tp, pp, dp, zero_stage;
  bool checkpointing;
  std::string rationale;
  double nodes, memory_per_gpu;
  bool fits;
  double cp, ep, microbatch;
  std::string recompute;
  bool sequence_parallel;
  double step_time, mfu, layouts_evaluated;
};
Result<ParallelRecommendOut> parallel_recommend(const ParallelRecommendIn& in, Derivation& d);

// pipe.bubble — GPipe (Huang et al. 2019) and 1F1B / interleaved 1F1B (Narayanan et al. 2021).
struct PipeBubbleIn {
  double stages = 4;
  double microbatches = 16;
  double batch = 0;
  double interleave = 1;
  double target = 0;
};
struct PipeBubbleOut {
  double bubble_fraction, bubble_approx, microbatch_size, p2p_ops, min_microbatches,
      min_microbatches_approx, efficiency;
};
Result<PipeBubbleOut> pipe_bubble(const PipeBubbleIn& in, Derivation& d);

// pipeline.cpp registers scale.fsdp_tp, parallel.recommend and pipe.bubble.
void register_pipeline(Registry& r);
// memory_charts.cpp registers the area's charts and scenario presets.
void register_memory_charts(Registry& r);

}  // namespace napkin
