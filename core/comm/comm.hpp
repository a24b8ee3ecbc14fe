// Communication and hardware: collectives under the α–β model, per-step volumes of DP, FSDP,
// TP and PP, ZeRO communication, the TP and expert-parallel bills, and the roofline.
// Sources are cited above each formula in comm.cpp / comm_tp.cpp and in docs/communication.md.
#pragma once

#include <string>

#include "registry/registry.hpp"
#include "scenario/gpu_figures.hpp"

namespace napkin {

// ---------------------------------------------------------------------------------------
struct CollectiveIn {
  std::string op = "all_reduce";
  double bytes = 1e9;               // P: the full tensor (all-gather: the gathered result)
  double ranks = 4;                 // N
  double bandwidth = 450e9;         // per-rank link, one direction (H100 NVLink 4)
  double latency = 3e-6;            // per step (the worked example's NVLink hop)
  bool in_switch_reduction = true;  // third-generation NVSwitch: NVLink SHARP (NVLS)
  std::string algorithm = "auto";
  // Two tiers: ranks beyond gpus_per_node sit in other nodes, reached over the inter link
  // (0 = every rank on the one link above).
  double gpus_per_node = 0;
  double inter_bandwidth = 50e9;  // InfiniBand NDR, one NIC per GPU
  double inter_latency = 5e-6;
  // Achieved, not line rate (core/scenario/cluster.cpp cites them): NVLink 4's measured ring
  // share and NVLS share, NCCL's launch latency, and NDR's share; 1, 1, 0 for the textbook model.
  double efficiency = figures::nvlink4_ring_share, switch_efficiency = figures::nvlink4_nvls_share,
         launch_latency = figures::nccl_launch, inter_efficiency = figures::nic_share;
};
struct CollectiveOut {
  double bytes_per_rank, bytes_per_rank_approx, total_bytes, steps, bandwidth_time, latency_time,
      time, algorithm_bandwidth, bus_bandwidth, crossover_bytes, ring_time;
  std::string regime, algorithm_used;
};
Result<CollectiveOut> comm_collective(const CollectiveIn& in, Derivation& d);

// ---------------------------------------------------------------------------------------
// Defaults: the worked example (13B, d 5120, 40 layers, B 32, S 4096, TP 8, DP 64) in real
// bytes (BF16 gradients and activations).
struct ParallelismIn {
  double params = 13e9;
  double grad_bytes = 2;
  double batch = 32;
  double seq_len = 4096;
  double d_model = 5120;
  double n_layers = 40;
  double activation_bytes = 2;
  double tp = 8;
  double pp = 1;
  double dp = 64;
  double microbatches = 1;
  double bandwidth = 0;
  double latency = 0;
  std::string recompute = "none";
  std::string algorithm = "ring";
};
struct ParallelismOut {
  double dp_bytes, dp_bytes_exact, dp_bytes_per_device, dp_total_traffic, dp_total_traffic_approx,
      fsdp_bytes, fsdp_bytes_exact, tp_bytes_per_layer, tp_bytes_per_layer_exact,
      tp_logical_bytes_per_layer, tp_bytes, tp_bytes_exact, tp_logical_bytes, pp_bytes_per_boundary,
      pp_bytes, pp_bytes_per_device, dp_ops, fsdp_ops, tp_ops, pp_ops, dp_time, fsdp_time, tp_time,
      pp_time, tp_recompute_bytes;
};
Result<ParallelismOut> comm_parallelism(const ParallelismIn& in, Derivation& d);

// ---------------------------------------------------------------------------------------
// Defaults: the worked example's comparison (70B, 80 layers, dp 64, InfiniBand 400 GB/s, 2 µs).
struct ZeroIn {
  double params = 70e9;
  double n_layers = 80;
  double dp = 64;
  double zero_stage = 1;
  double bytes = 2;
  double bandwidth = 400e9;
  double latency = 2e-6;
};
struct ZeroOut {
  std::string collective;
  double bytes, time, time_per_layer, collectives, bytes_paper, time_paper;
};
Result<ZeroOut> comm_zero(const ZeroIn& in, Derivation& d);

// ---------------------------------------------------------------------------------------
// Defaults: the worked example's fatal case — an 8B model (hidden 4096, 32 layers) decoding one
// token with TP=2 over 10 GbE (1.25 GB/s, 50 µs), against the 8 ms decode step.
struct TpStepIn {
  double hidden = 4096;
  double dtype_bytes = 2;
  double tokens = 1;
  double layers = 32;
  double allreduces_per_layer = 2;
  double tp = 2;
  double bandwidth = 1.25e9;
  double latency = 50e-6;
  double compute_time = 8e-3;
  // Megatron-LM's default: forward all-reduces exposed; backward ones (the input-gradient
  // all-reduce of each column-parallel layer) launched asynchronously under the weight-gradient
  // GEMM. "fraction" hides `overlap` of all of it instead.
  std::string overlap_model = "megatron";
  double overlap = 0;
  bool in_switch_reduction = false;
  std::string algorithm = "auto";
  // Optional roofline compute model, used when compute_time = 0 and params > 0.
  double params = 0;
  double weight_bytes = 2;
  double peak_flops = figures::h100_bf16;
  double mem_bandwidth = figures::h100_hbm_bandwidth;
};
struct TpStepOut {
  double payload_bytes, bytes_per_rank, allreduces, latency_time, bandwidth_time, comm_time,
      exposed_comm_time, compute_time, step_time, comm_fraction;
  std::string regime;
};
Result<TpStepOut> comm_tp_step(const TpStepIn& in, Derivation& d);

// ---------------------------------------------------------------------------------------
// Defaults: a DeepSeek-V3-shaped MoE layer stack (hidden 7168, top-8, 58 MoE layers) with
// 4096 tokens per rank, EP 8 over InfiniBand NDR (50 GB/s per direction).
struct EpAlltoallIn {
  double tokens = 4096;
  double hidden = 7168;
  double dtype_bytes = 2;
  double top_k = 8;
  double ep = 8;
  double moe_layers = 58;
  double bandwidth = 50e9;
  double latency = 5e-6;
  double experts = 256;        // routed experts (DeepSeek-V3), for the capacity
  double capacity_factor = 0;  // 0 = dropless: rows sent as routed, no padding
};
struct EpAlltoallOut {
  double expert_capacity, payload_bytes, bytes_per_rank, alltoalls, step_bytes_per_rank,
      latency_time, bandwidth_time, time;
  std::string regime;
};
Result<EpAlltoallOut> comm_ep_alltoall(const EpAlltoallIn& in, Derivation& d);

// ---------------------------------------------------------------------------------------
struct RooflineIn {
  double peak_flops = figures::h100_bf16;
  double mem_bandwidth = figures::h100_hbm_bandwidth;
  double intensity = 0;  // FLOP/B; 0 = flops / bytes
  double flops = 0;
  double bytes = 0;
};
struct RooflineOut {
  double ridge_intensity, intensity_used, attainable_flops, fraction_of_peak, compute_time,
      memory_time, time;
  std::string bound;
};
Result<RooflineOut> hw_roofline(const RooflineIn& in, Derivation& d);

// comm_tp.cpp: tp_step, ep_alltoall, roofline and the area's charts and scenarios.
void register_comm_tp(Registry& r);

}  // namespace napkin
