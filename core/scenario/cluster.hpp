// The cluster (docs/architecture.md, The scenario): an accelerator and the two network tiers it
// sits on, typed, with named presets from vendor sheets. Estimators read peak FLOP/s, HBM and link
// figures from here; no file retypes them as literals.
#pragma once

#include <string_view>

namespace napkin {

enum class Dtype : unsigned char { Fp32, Tf32, Bf16, Fp16, Fp8, Int8, Int4, Fp4 };

// Bytes per element of a dtype (Int4/Fp4: 0.5; group-quantization overhead is separate).
double dtype_bytes(Dtype t);

// The share of BF16's achieved bandwidth at which weights in a weight-only quantized format
// stream through a decode step: the kernels that unpack them are bound by the dequantization.
// gpt-fast's batch-1 decode on A100 (pytorch-labs/gpt-fast README, "Memory Bandwidth"): BF16
// 1,397 GB/s, INT8 1,069 (0.77×), INT4 863 (0.62×). 1 for every other format (FP8 runs W8A8).
inline double dequantized_stream_share(Dtype weights) {
  return weights == Dtype::Int8 ? 1069.0 / 1397 : weights == Dtype::Int4 ? 863.0 / 1397 : 1;
}

// Bytes per weight stored in a dtype with group quantization: one FP16 scale per `group_size`
// weights on top of the element (AWQ, GPTQ: INT4 with groups of 128 = 0.5 + 2/128 bytes);
// group_size 0 = per-tensor or per-channel scales, negligible.
double quantized_bytes_per_param(Dtype t, double group_size);

struct Gpu {
  std::string_view id, label, source;
  // Dense peak FLOP/s (no structured sparsity) per dtype; 0 where the chip has no such path.
  double peak_fp32 = 0, peak_tf32 = 0, peak_bf16 = 0, peak_fp8 = 0, peak_int8 = 0, peak_fp4 = 0;
  double hbm_bytes = 0;      // capacity as vendors mean it: "80 GB" on an H100 is 80 GiB
  double hbm_bandwidth = 0;  // bytes/s
  double host_memory = 0;    // CPU memory per GPU for offload; 0 = not modelled
  // Measured shares of the BF16 peak (cluster.cpp cites them): the best large GEMM
  // (matmul_fraction) and FlashAttention-2 (attention_fraction); 0 where none is published.
  double matmul_fraction = 0, attention_fraction = 0;
  // Streaming multiprocessors (NVIDIA) or compute units (AMD) the GEMM tiles spread over
  // (core/scenario/gemm.hpp); 0 where the chip has none or none is modelled (TPUs).
  double sms = 0;
  // The best large FP8 GEMM over the FP8 peak (cluster.cpp cites it); 0 = the BF16 share.
  double matmul_fraction_fp8 = 0;
  // Board power (TDP) in watts, from the datasheet; 0 where none is published (TPUs).
  double power = 0;
};
// Peak for the dtype the math runs in (Fp16 → the BF16 figure; Int4 → Int8 where no Int4 path).
double peak_flops(const Gpu& g, Dtype math);

// Measured shares of peak (cluster.cpp cites them). The A100 SXM's best BF16 GEMM, 271.2 of
// 312 TFLOP/s, is also what an accelerator with no published measurement is assumed to reach.
inline constexpr double kA100MatmulFraction = 271.2 / 312;
inline constexpr double kH100MatmulFraction = 794.5 / 989.4;
inline constexpr double kH100Fp8MatmulFraction = 1402.6 / 1978.9;
inline constexpr double kH100AttentionFraction = 0.35;  // FlashAttention-2

// FLOP/s that a training step's kernels reach on one accelerator: its GEMMs `efficiency` of its
// measured best GEMM (matmul_fraction of peak), fused attention `efficiency` of FlashAttention-2's
// measured rate (attention_fraction of peak; the GEMMs' rate where none is published).
struct KernelRates {
  double gemm = 0, attention = 0;
};
KernelRates kernel_rates(const Gpu& g, Dtype math, double efficiency);

// One network tier: what a rank can push in one direction, the latency of one step, and
// whether the switch reduces in-network (NVLink SHARP / NVLS, InfiniBand SHARP).
struct Tier {
  std::string_view id, label, source;
  double bandwidth = 0;  // bytes/s per GPU, one direction
  double latency = 0;    // seconds per step
  bool in_switch_reduction = false;
  // Achieved, not line rate (nccl-tests' measurements, cluster.cpp cites them): the share of
  // `bandwidth` a ring, tree or direct collective reaches as bus bandwidth on large messages;
  // the share an in-switch (NVLS / SHARP) all-reduce reaches as algorithm bandwidth (each rank
  // sends and receives the buffer once); and the fixed time of one collective call (kernel
  // launch and the ranks' synchronisation), paid once whatever its size. 1, 1, 0: the textbook
  // α–β model at line rate, as the worked examples state it.
  double efficiency = 1, switch_efficiency = 1, launch = 0;
};

struct Cluster {
  Gpu gpu;
  int gpus_per_node = 8;  // the size of the fast (intra) domain; NVL72: 72
  Tier intra;             // NVLink / NVSwitch / ICI
  Tier inter;             // InfiniBand / RoCE / DCN, per GPU
};

const Gpu* find_gpu(std::string_view id);
const Tier* find_tier(std::string_view id);
// A GPU's usual cluster: its node size and the NVLink and NIC generation it ships with.
const Cluster* find_cluster(std::string_view id);
const Gpu* gpus_begin();
const Gpu* gpus_end();
const Tier* tiers_begin();
const Tier* tiers_end();

}  // namespace napkin
