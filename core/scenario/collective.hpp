// One function for the time of a collective, over the tier a parallelism lives on
// (docs/architecture.md, The scenario): ring, tree, hierarchical (intra-node then inter-node) and
// in-switch reduction (NVLS/SHARP).
#pragma once

#include "scenario/cluster.hpp"

namespace napkin {

enum class Collective : unsigned char {
  AllReduce,
  AllGather,
  ReduceScatter,
  AllToAll,
  Broadcast,
  P2p
};
// Direct: every rank posts its N − 1 sends at once (all-to-all only; never chosen by Auto).
enum class Algorithm : unsigned char { Auto, Ring, Tree, InSwitch, Direct };

struct CollectiveCost {
  double bytes_per_rank = 0;  // what each rank sends (ring all-reduce: 2·P·(N−1)/N)
  double steps = 0;           // latency-bound steps
  double bandwidth_time = 0, latency_time = 0, time = 0;
  // What the terms were computed with: the bandwidth the bytes moved at (link × achieved
  // share), the latency of one step and the fixed launch; low_latency: NCCL's LL protocol.
  double rate = 0, step_latency = 0, launch = 0;
  bool low_latency = false;
  Algorithm used = Algorithm::Ring;
};

// `bytes` is the payload each rank holds (all-reduce: the whole buffer; all-gather: the
// gathered result). Auto picks the fastest algorithm the tier supports.
CollectiveCost collective_time(Collective op, double bytes, int ranks, const Tier& tier,
                               Algorithm algo = Algorithm::Auto);

// Ranks spread over nodes of `per_node` ranks on the intra tier: reduce-scatter inside the
// node, the operation across nodes on the inter tier, all-gather inside (NCCL's hierarchy).
// `algo` applies on each tier where that tier supports it (Auto: the fastest on each).
CollectiveCost hierarchical_time(Collective op, double bytes, int ranks, int per_node,
                                 const Cluster& c, Algorithm algo = Algorithm::Auto);

}  // namespace napkin
