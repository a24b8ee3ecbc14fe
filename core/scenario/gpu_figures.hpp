// The datasheet figures of the two accelerators the cards start from (H100 SXM for serving and
// most cards, A100 SXM 80GB for the training step of the published runs), named once: the
// accelerator catalog (cluster.cpp) lists them, and the input structs take them as defaults.
#pragma once

namespace napkin::figures {

inline constexpr double kGiB = 1073741824.0;

// NVIDIA H100 Tensor Core GPU datasheet (SXM): 989.4 TF BF16 and 1,978.9 TF FP8 / TOPS INT8
// dense; 80 GB HBM3 (80 GiB: nvidia-smi shows 81,559 MiB usable of 81,920), 3.35 TB/s.
inline constexpr double h100_bf16 = 989.4e12;
inline constexpr double h100_fp8 = 1978.9e12;
inline constexpr double h100_hbm_bandwidth = 3.35e12;
inline constexpr double h100_memory = 80 * kGiB;

// NVIDIA A100 Tensor Core GPU datasheet (2021), SXM 80GB: 312 TF BF16 dense; 80 GB HBM2e,
// 2,039 GB/s.
inline constexpr double a100_bf16 = 312e12;
inline constexpr double a100_hbm_bandwidth = 2.039e12;
inline constexpr double a100_memory = 80 * kGiB;

// What NCCL achieves on the links those nodes ship with (cluster.cpp cites the measurements;
// tests/validation holds them): the ring's bus bandwidth on large messages as a share of the
// link (8 × H100 on NVLink 4: 370 of 450 GB/s; 4 × A100 on NVLink 3: 235 of 300; InfiniBand:
// 46-48 of 50 GB/s per NDR NIC), NVLS's algorithm bandwidth on NVLink 4 (480 GB/s busbw on 8
// GPUs = 274 GB/s, 61 % of 450), and the Simple protocol's launch latency (NVIDIA/nccl,
// src/graph/tuning.cc: 8.4 µs).
inline constexpr double nvlink4_ring_share = 370.0 / 450;
inline constexpr double nvlink4_nvls_share = 480.0 / 1.75 / 450;
inline constexpr double nvlink3_ring_share = 235.0 / 300;
inline constexpr double nic_share = 0.94;
inline constexpr double nccl_launch = 8.4e-6;
// Shares of peak a serving step reaches, set by NVIDIA NIM 1.8.0's Llama 3.3 70B FP8 rows on
// H100s (docs/serving.md, serve.engine). All in, for the cards that time a step as matmuls and
// reads alone (infer.latency, infer.decode, rl.throughput, serve.llm_gpus): matmuls 50 % of
// peak, HBM reads 60 %. serve.engine counts what those shares lump in (the kernels between the
// matmuls, each kernel's launch, the GEMMs' shapes) and streams its reads at 70 %: with them it
// meets NIM's inter-token latency at concurrency 1 within 1 % (18.65 against 18.58 ms) and
// gpt-fast's Llama 2 7B at TP 1–8 within 17 % (docs/validation.md).
inline constexpr double serving_compute_share = 0.5;
inline constexpr double serving_bandwidth_share = 0.6;
inline constexpr double engine_bandwidth_share = 0.7;
// Memory a serving engine's GPU holds outside its tensors, as vLLM's profiler reports it
// (vllm-project/vllm PR #10511, Llama 3 8B on an H100 80GB): "non_torch_memory" (CUDA context,
// cuBLAS workspaces; NCCL's buffers once TP > 1) 1.79 GiB at TP 1 and 3.58 GiB at TP 2, plus
// what the driver keeps out of CUDA's total (79.22 of 80 GiB) at the 0.9 utilisation: 0.70 GiB.
inline constexpr double engine_runtime_memory_tp1 = (1.79 + 0.70) * 1073741824.0;
inline constexpr double engine_runtime_memory_tp = (3.58 + 0.70) * 1073741824.0;

}  // namespace napkin::figures
