// serve.moe: decoding a mixture of experts with expert parallelism (DeepSeek-V3's deployment):
// attention and shared weights split over TP inside each data-parallel group, routed experts
// spread whole over EP GPUs. Experts touched per step, memory per GPU, the all-to-all per token
// and the step time. Shape from the shared model inputs; quantities from core/scenario.
#pragma once

#include <string>

#include "registry/registry.hpp"
#include "scenario/gpu_figures.hpp"
#include "scenario/model_inputs.hpp"

namespace napkin {

struct ServeMoeIn : ModelInputs {
  ServeMoeIn();  // DeepSeek-V3's shape (the deepseek-v3 preset)
  // Accelerator and links: H100 SXM, NVLink 4 inside a node of 8, NDR InfiniBand across.
  double peak_flops = figures::h100_bf16, peak_fp8 = figures::h100_fp8,
         mem_bandwidth = figures::h100_hbm_bandwidth, gpu_memory = figures::h100_memory;
  double gpus_per_node = 8, intra_bandwidth = 450e9, inter_bandwidth = 50e9;
  std::string weight_dtype = "fp8";
  double ep = 32, tp = 1, batch = 128;
  double memory_utilization = 0.9, compute_efficiency = 0.5, bandwidth_efficiency = 0.6;
};

struct ServeMoeOut {
  double experts_touched, experts_touched_per_gpu, experts_per_gpu, weights_per_gpu,
      memory_left_per_gpu, alltoall_bytes_per_token, alltoall_time, weight_read_time, compute_time,
      step_time, tokens_per_second_per_gpu;
};

Result<ServeMoeOut> serve_moe(const ServeMoeIn& in, Derivation& d);

void register_serve_moe(Registry& r);

}  // namespace napkin
