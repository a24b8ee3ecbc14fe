// Collective times over one network tier (SPEC §8). Bytes each rank moves follow NCCL's
// bus-bandwidth factors (nccl-tests doc/PERFORMANCE.md: all-reduce 2·(N−1)/N, all-gather,
// reduce-scatter and all-to-all (N−1)/N, broadcast and point-to-point 1); latency counts the
// algorithm's dependent steps: ring 2·(N−1) for all-reduce, N−1 for the others; NCCL's double
// binary tree 2·⌈log2 N⌉ steps at about the whole buffer per rank; in-switch reduction (NVLink
// SHARP / NVLS, InfiniBand SHARP) sends each byte once to the switch and reads the result once,
// so an all-reduce moves ~1× the buffer in two steps whatever N (NVIDIA, "Upgrading
// Multi-GPU Interconnectivity with the Third-Generation NVIDIA NVSwitch", 2022).
#include "collective.hpp"

namespace napkin {
namespace {

double ring_factor(Collective op, double n) {
  switch (op) {
    case Collective::AllReduce: return 2 * (n - 1) / n;
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll: return (n - 1) / n;
    case Collective::Broadcast:
    case Collective::P2p: return 1;
  }
  return 1;
}

double ring_steps(Collective op, double n) {
  switch (op) {
    case Collective::AllReduce: return 2 * (n - 1);
    case Collective::P2p: return 1;
    default: return n - 1;
  }
}

CollectiveCost make(double bytes_per_rank, double steps, const Tier& t, Algorithm a) {
  CollectiveCost c;
  c.bytes_per_rank = bytes_per_rank;
  c.steps = steps;
  c.bandwidth_time = t.bandwidth > 0 ? bytes_per_rank / t.bandwidth : 0;
  c.latency_time = steps * t.latency;
  c.time = c.bandwidth_time + c.latency_time;
  c.used = a;
  return c;
}

}  // namespace

CollectiveCost collective_time(Collective op, double bytes, int ranks, const Tier& tier,
                               Algorithm algo) {
  if (ranks <= 1 || bytes <= 0) return make(0, 0, tier, Algorithm::Ring);
  const double n = ranks;
  const CollectiveCost ring =
      make(bytes * ring_factor(op, n), ring_steps(op, n), tier, Algorithm::Ring);
  if (algo == Algorithm::Ring || op == Collective::P2p) return ring;
  // Direct all-to-all: each rank posts its N − 1 sends together (NCCL's grouped send/recv;
  // DeepEP's low-latency kernels, one RDMA queue pair per peer), so the messages share the
  // link: the same (N − 1)/N of the buffer at link speed, but one message latency, not N − 1
  // in sequence. Checked against DeepEP's low-latency table (H800, CX7 400 Gb/s: 128 tokens ×
  // 7,168 × top-8, FP8 dispatch 194 µs and BF16 combine 360 µs at EP256).
  if (algo == Algorithm::Direct)
    return op == Collective::AllToAll ? make(bytes * ring_factor(op, n), 1, tier, Algorithm::Direct)
                                      : ring;
  // Tree: reduce up and broadcast down two binary trees, each carrying half the buffer: each
  // rank sends the whole buffer once per phase, 2× in all, without ring's (N−1)/N discount (Sanders
  // et al. 2009; NCCL 2.4).
  const bool tree_ok = op == Collective::AllReduce || op == Collective::Broadcast;
  // ⌈log2 N⌉ in integers: exact, and no libm call in the layout search's inner loop.
  int log_n = 0;
  while ((1LL << log_n) < ranks) ++log_n;
  const CollectiveCost tree =
      make(op == Collective::AllReduce ? 2 * bytes : bytes,
           op == Collective::AllReduce ? 2.0 * log_n : log_n, tier, Algorithm::Tree);
  // In-switch: reductions and gathers are done by the switch; a rank sends its share once and
  // reads the result once (multicast), in a push and a pull step.
  const bool switch_ok =
      tier.in_switch_reduction && (op == Collective::AllReduce || op == Collective::AllGather ||
                                   op == Collective::ReduceScatter);
  const CollectiveCost in_switch =
      make(op == Collective::AllReduce ? bytes : bytes * (n - 1) / n, 2, tier, Algorithm::InSwitch);
  if (algo == Algorithm::Tree) return tree_ok ? tree : ring;
  if (algo == Algorithm::InSwitch) return switch_ok ? in_switch : ring;
  CollectiveCost best = ring;
  if (tree_ok && tree.time < best.time) best = tree;
  if (switch_ok && in_switch.time < best.time) best = in_switch;
  return best;
}

CollectiveCost hierarchical_time(Collective op, double bytes, int ranks, int per_node,
                                 const Cluster& c, Algorithm algo) {
  if (per_node < 1) per_node = 1;
  if (ranks <= per_node) return collective_time(op, bytes, ranks, c.intra, algo);
  if (per_node == 1) return collective_time(op, bytes, ranks, c.inter, algo);
  const int nodes = (ranks + per_node - 1) / per_node;
  CollectiveCost total;
  auto add = [&](const CollectiveCost& x) {
    total.bytes_per_rank += x.bytes_per_rank;
    total.steps += x.steps;
    total.bandwidth_time += x.bandwidth_time;
    total.latency_time += x.latency_time;
    total.time += x.time;
  };
  if (op == Collective::AllReduce) {
    // Reduce-scatter in the node, all-reduce of the 1/per_node shard across nodes, all-gather.
    add(collective_time(Collective::ReduceScatter, bytes, per_node, c.intra, algo));
    add(collective_time(Collective::AllReduce, bytes / per_node, nodes, c.inter, algo));
    add(collective_time(Collective::AllGather, bytes, per_node, c.intra, algo));
  } else if (op == Collective::AllGather || op == Collective::ReduceScatter) {
    // The cross-node part carries the other nodes' shards; the node part its own node's.
    add(collective_time(op, bytes, nodes, c.inter, algo));
    add(collective_time(op, bytes / nodes, per_node, c.intra, algo));
  } else {
    // All-to-all and broadcast: the cross-node share dominates; each rank's traffic to other
    // nodes goes over its own NIC.
    add(collective_time(op, bytes, nodes, c.inter, algo));
    add(collective_time(op, bytes / nodes, per_node, c.intra, algo));
  }
  total.used = Algorithm::Ring;
  return total;
}

}  // namespace napkin
