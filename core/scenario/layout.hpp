// The layout of SPEC §8: how a training (or serving) job is split over the cluster.
#pragma once

#include "scenario/cluster.hpp"

namespace napkin {

enum class Recompute : unsigned char { None, Selective, Full };

struct Layout {
  int tp = 1, pp = 1, vpp = 1, dp = 1, cp = 1, ep = 1;  // vpp: virtual (interleaved) stages
  int zero_stage = 0;                                   // 0..3; 3 = FSDP (parameters sharded too)
  int microbatch = 1;                                   // sequences per microbatch
  int microbatches = 1;  // per optimizer step per pipeline (global batch / (dp · microbatch))
  Recompute recompute = Recompute::None;
  bool sequence_parallel = false;
  bool dp_overlap = true;   // gradient reduction bucketed under the backward pass
  bool tp_overlap = false;  // TP collectives overlapped with GEMMs
  bool optimizer_offload = false;
  // Fused attention (FlashAttention, Dao et al. 2022) never stores the s × s scores; its
  // backward recomputes them. Off keeps Korthikanti et al. 2022's Table 2 (scores stored).
  bool flash_attention = false;
  Dtype weights = Dtype::Bf16, grads = Dtype::Bf16, activations = Dtype::Bf16, kv = Dtype::Bf16;
  double optimizer_bytes_per_param = 12;  // fp32 master + Adam m and v (ZeRO paper: K = 12)
};

// The share of the layers on the busiest pipeline stage. Layers that PP × virtual stages do not
// divide are dealt out unevenly, ⌈L / (p·v)⌉ per chunk at most: Llama 3 405B's 126 layers on 16
// stages run 8 on the busiest (Dubey et al. 2024, §3.3.2, takes one layer off the first and the
// last stage). 1/p when the split is even.
inline int stage_layers(int layers, const Layout& l) {
  const int chunks = l.pp * l.vpp;
  return (layers + chunks - 1) / chunks * l.vpp;
}
inline double stage_share(int layers, const Layout& l) {
  return static_cast<double>(stage_layers(layers, l)) / layers;
}

// GPUs the layout occupies (tp · pp · dp · cp; EP reuses the DP × CP ranks, as in Megatron).
inline long long layout_gpus(const Layout& l) {
  return static_cast<long long>(l.tp) * l.pp * l.dp * l.cp;
}

}  // namespace napkin
