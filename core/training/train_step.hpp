// One optimizer step of training (docs/training.md, train.step), typed: the function train.step's
// estimator and the layout search both call, so the search ranks layouts by exactly the numbers the
// card shows.
#pragma once

#include <string>

#include "scenario/cluster.hpp"
#include "scenario/gpu_figures.hpp"
#include "scenario/layout.hpp"
#include "scenario/model.hpp"
#include "scenario/model_inputs.hpp"
#include "scenario/training_memory.hpp"

namespace napkin {

// The fraction of the accelerator's measured best-GEMM rate (kernel_rates: Gpu::matmul_fraction
// of peak) that a step's kernels reach, one figure for every run the tests compare against: on
// the A100 (best GEMM 86.9 % of peak) it gives 0.6215 of peak, inside the 0.615–0.625 that puts
// Narayanan et al. 2021, Table 1 (10 rows) and Korthikanti et al. 2022, Table 5 (4 rows) within
// 10 %; the same figure puts Llama 3 405B on H100s (Dubey et al. 2024, Table 4) within 10 %
// (docs/training.md, train.step, says how it was chosen and what it leaves out).
inline constexpr double kDefaultComputeEfficiency = 0.715;

// How much slower compute runs while a collective runs beside it (NCCL's kernels take SMs and
// HBM bandwidth from the GEMMs): Lee et al. 2025, "Characterizing Compute-Communication Overlap
// in GPU-Accelerated Distributed Deep Learning" (arXiv 2507.03114), measured 18.9 % on average
// (up to 40 %) over GPT and Llama training on 4 A100s, H100s, MI250s and MI210s. Communication
// that overlap hides still costs this share of its own time.
inline constexpr double kOverlapSlowdown = 0.189;

struct StepJob {
  double global_batch = 1536;  // sequences per optimizer step
  double seq_len = 2048;
  double compute_efficiency = kDefaultComputeEfficiency;  // of the best GEMM's rate
  double overlap_slowdown = kOverlapSlowdown;             // of the hidden communication's time
  Dtype math = Dtype::Bf16;
  // FlashAttention (Dao et al. 2022): no stored scores, which its backward recomputes, so no
  // recomputation level costs less than the selective one (Korthikanti et al. 2022, §5).
  bool flash_attention = false;
};

struct StepTimes {
  double step = 0, compute = 0, recompute = 0, bubble = 0;
  // Memory-bound time: the layers' norms, residual adds, activation functions and stored-score
  // softmax (HBM traffic, scenario/training_memory.hpp: layer_traffic), and the optimizer update.
  double elementwise = 0, optimizer = 0;
  double tp_comm = 0, cp_comm = 0, ep_comm = 0, pp_comm = 0, dp_comm = 0;  // exposed parts
  // The DP and ZeRO-3 communication that ran under compute: dp_comm holds what stayed exposed
  // plus the slowdown this hidden part caused (StepJob::overlap_slowdown × dp_hidden).
  double dp_hidden = 0;
  double dp_outlasting = 0;  // the part of dp_comm that outlasted its window (no slowdown term)
  double tokens_per_second = 0, mfu = 0, hfu = 0, model_flops_per_gpu = 0;
  TrainingMemory memory;
  bool fits = false;
};

// Per-model constants the search hoists out of its loop: FLOPs per token and parameters.
struct StepModel {
  Model model;
  double forward_flops_per_token = 0;  // causal attention at the job's sequence length
  double attention_score_flops = 0;    // the part selective recomputation repeats
  ModelParams params;
  double expert_params = 0;  // routed experts' weights (training_memory.hpp), EP-sharded
};
StepModel step_model(const Model& m, double seq_len);

// Time and memory of one step. The layout's microbatches field is derived from the job.
StepTimes train_step(const StepModel& sm, const Cluster& c, const Layout& l, const StepJob& job);

}  // namespace napkin

namespace napkin {

// train.step's inputs, typed: the registry fills this struct from names (with units, ranges and
// the scenario bar's presets), and the layout search fills it the same way, so the two read one
// declaration. Defaults: GPT-3 175B (Brown et al. 2020, Table 2.1) on A100 SXM 80 GB nodes
// (NVLink 3, 8 × HDR 200 Gb/s), in Megatron-LM's 175B layout (Narayanan et al. 2021, Table 1).
// The model's shape is the shared declaration (scenario/model_inputs.hpp), under the names
// train.step has always used for three of them (kStepModelNames).
struct TrainStepIn : ModelInputs {
  TrainStepIn() {
    // GPT-3 175B as Megatron-LM trains it: the vocabulary padded to 51,200, no biases counted.
    layers = 96, heads = kv_heads = 96, d_model = 12288, head_dim = 128, d_ff = 49152;
    vocab = 51200, ffn = "mlp", tied_embeddings = true;
  }
  // Cluster.
  double peak_flops = figures::a100_bf16, mem_bandwidth = figures::a100_hbm_bandwidth,
         gpu_memory = figures::a100_memory, host_memory = 0, matmul_fraction = kA100MatmulFraction,
         attention_fraction = 0;
  int gpus_per_node = 8;
  double intra_bandwidth = 300e9, intra_latency = 3e-6, inter_bandwidth = 25e9,
         inter_latency = 5e-6;
  // What NCCL achieves on each tier (core/scenario/cluster.cpp): NVLink 3's 78 %, HDR's 94 %,
  // NCCL's 8.4 µs launch; 1, 1 and 0 give the line-rate α–β model.
  double intra_efficiency = figures::nvlink3_ring_share, inter_efficiency = figures::nic_share,
         launch_latency = figures::nccl_launch;
  // Layout.
  int tp = 8, pp = 8, vpp = 1, dp = 8, cp = 1, ep = 1, zero_stage = 0, microbatch = 1;
  std::string recompute = "full";
  bool sequence_parallel = false, dp_overlap = true, tp_overlap = false, optimizer_offload = false;
  std::string placement = kPlacementNames[0];
  // Job.
  double global_batch = 1536, seq_len = 2048, compute_efficiency = kDefaultComputeEfficiency,
         overlap_slowdown = kOverlapSlowdown;
  bool flash_attention = true;
};

inline constexpr ModelInputNames kStepModelNames{"layers", "heads", "kv_heads"};

// The typed scenario of those inputs.
struct StepScenario {
  Model model;
  Cluster cluster;
  Layout layout;
  StepJob job;
};
// The model through to_model() (its errors name train.step's inputs), the cluster, the layout
// and the job.
Result<StepScenario> step_scenario(const TrainStepIn& in);

class Registry;
void register_train_step(Registry& r);  // the train.step estimator
}  // namespace napkin
