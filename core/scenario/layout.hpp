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
  Dtype weights = Dtype::Bf16, grads = Dtype::Bf16, activations = Dtype::Bf16, kv = Dtype::Bf16;
  double optimizer_bytes_per_param = 12;  // fp32 master + Adam m and v (ZeRO paper: K = 12)
};

// GPUs the layout occupies (tp · pp · dp · cp; EP reuses the DP × CP ranks, as in Megatron).
inline long long layout_gpus(const Layout& l) {
  return static_cast<long long>(l.tp) * l.pp * l.dp * l.cp;
}

}  // namespace napkin
