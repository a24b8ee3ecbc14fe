// The weight GEMMs of a forward pass, by shape, and the share of peak they reach together: the
// one place every estimator that times a model's matmuls gets their achieved rate from
// (core/scenario/gemm.hpp times one GEMM). Small batches, narrow tensor-parallel slices and
// experts that receive a few tokens each reach a fraction of a large GEMM's rate (tile and wave
// quantization); a 4,096-token prefill of a 70B model reaches nearly all of it.
#pragma once

#include "scenario/gemm.hpp"
#include "scenario/model.hpp"

namespace napkin {

struct GemmShare {
  double flops = 0;    // the weight GEMMs' FLOPs on one rank, all layers
  double compute = 0;  // their compute time (tiles and waves), seconds
  double share = 0;    // flops ÷ (peak × compute): the share of the peak they reach
};

// The forward pass of `tokens` tokens on one of `tp` tensor-parallel ranks, as Megatron-LM splits
// a layer (Shoeybi et al. 2019, §3): Q, K, V and the FFN's first matrices by columns, the
// attention output and the FFN's last matrix by rows; KV heads replicated when TP exceeds them.
// A mixture of experts runs each MoE layer's routed experts as one grouped GEMM over the experts
// the tokens touch (each of its FFN widths split by TP, as vLLM's fused MoE does), shared
// experts as a dense FFN. The output head is left out (a prefill computes logits for one token
// per sequence). Only the compute side of gemm_time: the callers charge weight streaming
// themselves.
GemmShare forward_gemm_share(const Model& m, double tokens, int tp, double in_bytes,
                             const GemmMachine& g);

// Kernels one forward pass launches, all layers: per layer the Q/K/V GEMM, the rotary embedding,
// attention and the output GEMM; each norm; a dense FFN's first GEMM, activation and last GEMM,
// or a mixture of experts' router GEMM, top-k, two grouped GEMMs, activation and combine (and a
// shared expert's three). Fused as vLLM fuses them (gate and up in one GEMM; residual add into
// the norm). Each costs at least a fixed launch-and-ramp time whatever its size (kGemmLaunch,
// the fixed cost hw.gemm fits per kernel), which sets the floor of a small model's decode step
// at high TP.
double forward_kernels(const Model& m);

}  // namespace napkin
