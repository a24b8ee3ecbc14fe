// The layout (docs/architecture.md, The scenario): how a training (or serving) job is split over
// the cluster.
#pragma once

#include "scenario/cluster.hpp"

namespace napkin {

enum class Recompute : unsigned char { None, Selective, Full };

// The parallel groups whose ranks a placement orders. EP reuses the DP × CP ranks (Megatron).
enum class Group : unsigned char { Tp, Cp, Dp, Pp };

// Where the groups sit on the nodes: the rank order of Megatron-LM's `--order`
// (megatron/core/parallel_state.py, default "tp-cp-ep-dp-pp"). TP is innermost, its ranks on
// neighbouring GPUs; the other three follow in one of six orders, innermost first. A group's
// ranks lie as far apart as the product of the degrees placed inside it, so the inner groups
// share a node's NVLink and the outer ones cross the inter-node network. This is the network
// tier each parallelism lives on, as Calculon's per-group network choice (tensor_par_net, …)
// but as a rank order, which can always be built.
constexpr int kPlacements = 6;
inline constexpr Group kPlacementOrder[kPlacements][3] = {
    {Group::Cp, Group::Dp, Group::Pp},  // tp-cp-dp-pp: Megatron's default
    {Group::Cp, Group::Pp, Group::Dp},  // tp-cp-pp-dp: pipeline stages inside a node
    {Group::Dp, Group::Cp, Group::Pp},  // tp-dp-cp-pp
    {Group::Dp, Group::Pp, Group::Cp},  // tp-dp-pp-cp
    {Group::Pp, Group::Cp, Group::Dp},  // tp-pp-cp-dp
    {Group::Pp, Group::Dp, Group::Cp},  // tp-pp-dp-cp
};
inline constexpr const char* kPlacementNames[kPlacements] = {
    "tp-cp-dp-pp", "tp-cp-pp-dp", "tp-dp-cp-pp", "tp-dp-pp-cp", "tp-pp-cp-dp", "tp-pp-dp-cp"};
// The same names as one "|"-separated choice list, for the registry's declaration.
inline constexpr const char* kPlacementChoices =
    "tp-cp-dp-pp|tp-cp-pp-dp|tp-dp-cp-pp|tp-dp-pp-cp|tp-pp-cp-dp|tp-pp-dp-cp";
constexpr bool placement_choices_match() {
  const char* c = kPlacementChoices;
  for (int i = 0; i < kPlacements; ++i) {
    for (const char* n = kPlacementNames[i]; *n; ++n, ++c)
      if (*c != *n) return false;
    if (*c != (i + 1 < kPlacements ? '|' : '\0')) return false;
    ++c;
  }
  return true;
}
static_assert(placement_choices_match(), "kPlacementChoices lists kPlacementNames in order");

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
  unsigned char placement = 0;  // index into kPlacementOrder (0: Megatron's default order)
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

inline int group_degree(const Layout& l, Group g) {
  return g == Group::Tp ? l.tp : g == Group::Cp ? l.cp : g == Group::Dp ? l.dp : l.pp;
}

// The product of the degrees placed inside group g: how far apart its ranks are.
inline long long inner_span(const Layout& l, Group g) {
  if (g == Group::Tp) return 1;
  long long span = l.tp;
  for (Group x : kPlacementOrder[l.placement]) {
    if (x == g) break;
    span *= group_degree(l, x);
  }
  return span;
}

// Ranks of group g on one node of n GPUs (at least 1): all of them when the group and
// everything placed inside it fit in the node.
inline int ranks_per_node(const Layout& l, Group g, int n) {
  const long long inner = inner_span(l, g);
  if (inner >= n) return 1;
  const long long fit = n / inner, degree = group_degree(l, g);
  return static_cast<int>(fit < degree ? fit : degree);
}
inline bool within_node(const Layout& l, Group g, int n) {
  return ranks_per_node(l, g, n) == group_degree(l, g);
}

// GPUs the layout occupies (tp · pp · dp · cp; EP reuses the DP × CP ranks, as in Megatron).
inline long long layout_gpus(const Layout& l) {
  return static_cast<long long>(l.tp) * l.pp * l.dp * l.cp;
}

}  // namespace napkin
