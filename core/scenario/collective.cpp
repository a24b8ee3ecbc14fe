// Collective times over one network tier (docs/communication.md). Bytes each rank moves follow
// NCCL's bus-bandwidth factors (nccl-tests doc/PERFORMANCE.md: all-reduce 2·(N−1)/N, all-gather,
// reduce-scatter and all-to-all (N−1)/N, broadcast and point-to-point 1); latency counts the
// algorithm's dependent steps: ring 2·(N−1) for all-reduce, N−1 for the others; NCCL's double
// binary tree 2·⌈log2 N⌉ steps at about the whole buffer per rank; in-switch reduction (NVLink
// SHARP / NVLS, InfiniBand SHARP) sends each byte once to the switch and reads the result once,
// so an all-reduce moves ~1× the buffer in two steps whatever N (NVIDIA, "Upgrading
// Multi-GPU Interconnectivity with the Third-Generation NVIDIA NVSwitch", 2022).
//
// Achieved, not line rate: the bandwidth term runs at the tier's measured share of its link
// (Tier::efficiency for ring, tree and direct, Tier::switch_efficiency for in-switch), and each
// call pays the tier's fixed launch time once (Tier::launch). With 1, 1 and 0 this is the
// textbook α–β model the worked examples use.
#include "collective.hpp"

#include <algorithm>

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

// `rate`: the bandwidth the bytes actually move at (link × its achieved share).
CollectiveCost make(double bytes_per_rank, double steps, double rate, double latency, double launch,
                    Algorithm a) {
  CollectiveCost c;
  c.rate = rate;
  c.step_latency = latency;
  c.launch = launch;
  c.bytes_per_rank = bytes_per_rank;
  c.steps = steps;
  c.bandwidth_time = rate > 0 ? bytes_per_rank / rate : 0;
  c.latency_time = steps * latency + launch;
  c.time = c.bandwidth_time + c.latency_time;
  c.used = a;
  return c;
}

// NCCL's own cost model (NVIDIA/nccl src/graph/tuning.cc, ncclTunerConstants: base latencies
// and per-step hardware latencies per protocol): the Simple protocol moves data at full bus
// bandwidth after an 8.4 µs base latency and ~3.4 µs per NVLink step; the LL (low-latency)
// protocol has a 6.6 µs base and ~0.6 µs per NVLink step (0.18 of Simple's) but carries a
// quarter of the bandwidth (flags inline with the data: `busBw *= 1.0/4.0` for all-reduce).
// NCCL picks the faster protocol for each size, so small messages ride LL and large ones
// Simple: the bend in nccl-tests' curves. Tier::launch is the Simple base latency; an ideal
// tier (launch 0) keeps the one α–β line of the textbook.
constexpr double kLlLaunch = 6.6e-6, kLlStepShare = 0.6 / 3.4, kLlBandwidthShare = 0.25;

CollectiveCost make(double bytes_per_rank, double steps, const Tier& t, Algorithm a) {
  if (a == Algorithm::InSwitch) {
    // NVLS: one push to the switch and one multicast pull, each crossing the switch's
    // reduction engine (two hops a step): 4 α plus the launch. With nvlink4's 3 µs and 8.4 µs
    // this is 20 µs at small sizes; nccl-tests on 8 H200 measure 25 µs at 1 MiB
    // (tests/validation), at 481 GB/s busbw for 16 GiB.
    // (The textbook tier, launch 0, keeps one α a step.)
    return make(bytes_per_rank, steps, t.bandwidth * t.switch_efficiency,
                t.launch > 0 ? 2 * t.latency : t.latency, t.launch, a);
  }
  const double rate = t.bandwidth * t.efficiency;
  if (t.launch <= 0 || rate <= 0) return make(bytes_per_rank, steps, rate, t.latency, t.launch, a);
  // The two protocols' times first (the layout search calls this millions of times), then
  // one cost for the faster.
  const double simple = t.launch + steps * t.latency + bytes_per_rank / rate;
  const double ll =
      kLlLaunch + steps * t.latency * kLlStepShare + bytes_per_rank / (rate * kLlBandwidthShare);
  if (simple <= ll) return make(bytes_per_rank, steps, rate, t.latency, t.launch, a);
  CollectiveCost c =
      make(bytes_per_rank, steps, rate * kLlBandwidthShare, t.latency * kLlStepShare, kLlLaunch, a);
  c.low_latency = true;
  return c;
}

}  // namespace

CollectiveCost collective_time(Collective op, double bytes, int ranks, const Tier& tier,
                               Algorithm algo) {
  if (ranks <= 1 || bytes <= 0) return make(0, 0, 0, 0, 0, Algorithm::Ring);
  const double n = ranks;
  const CollectiveCost ring =
      make(bytes * ring_factor(op, n), ring_steps(op, n), tier, Algorithm::Ring);
  if (algo == Algorithm::Ring || op == Collective::P2p) return ring;
  // Direct all-to-all: each rank posts its N − 1 sends together (NCCL's grouped send/recv, which
  // is how NCCL runs all-to-all; DeepEP's low-latency kernels, one RDMA queue pair per peer), so
  // the messages share the link: the same (N − 1)/N of the buffer, but one message latency, not
  // N − 1 in sequence. Checked against DeepEP's low-latency table (H800, CX7 400 Gb/s: 128
  // tokens × 7,168 × top-8, FP8 dispatch 194 µs and BF16 combine 360 µs at EP256).
  if (algo == Algorithm::Direct || (algo == Algorithm::Auto && op == Collective::AllToAll))
    return op == Collective::AllToAll ? make(bytes * ring_factor(op, n), 1, tier, Algorithm::Direct)
                                      : ring;
  // Tree: reduce up and broadcast down two binary trees, each carrying half the buffer: each
  // rank sends the whole buffer once per phase, 2× in all, without ring's (N−1)/N discount (Sanders
  // et al. 2009; NCCL 2.4). Two ranks are the exception: each tree is one edge, and a rank sends
  // its half up one and the other half down the other, 1× in all (= the ring's 2·(N−1)/N).
  const bool tree_ok = op == Collective::AllReduce || op == Collective::Broadcast;
  // In-switch: reductions and gathers are done by the switch; a rank sends its share once and
  // reads the result once (multicast), in a push and a pull step.
  const bool switch_ok =
      tier.in_switch_reduction && (op == Collective::AllReduce || op == Collective::AllGather ||
                                   op == Collective::ReduceScatter);
  // Only the algorithms asked for, or that Auto compares, are costed (the search's inner loop).
  auto tree = [&] {
    // ⌈log2 N⌉ in integers: exact, and no libm call in the layout search's inner loop.
    int log_n = 0;
    while ((1LL << log_n) < ranks) ++log_n;
    return make(op == Collective::AllReduce ? (ranks == 2 ? bytes : 2 * bytes) : bytes,
                op == Collective::AllReduce ? 2.0 * log_n : log_n, tier, Algorithm::Tree);
  };
  auto in_switch = [&] {
    return make(op == Collective::AllReduce ? bytes : bytes * (n - 1) / n, 2, tier,
                Algorithm::InSwitch);
  };
  if (algo == Algorithm::Tree) return tree_ok ? tree() : ring;
  if (algo == Algorithm::InSwitch) return switch_ok ? in_switch() : ring;
  CollectiveCost best = ring;
  if (tree_ok) {
    const CollectiveCost t = tree();
    if (t.time < best.time) best = t;
  }
  if (switch_ok) {
    const CollectiveCost s = in_switch();
    if (s.time < best.time) best = s;
  }
  return best;
}

CollectiveCost hierarchical_time(Collective op, double bytes, int ranks, int per_node,
                                 const Cluster& c, Algorithm algo) {
  if (per_node < 1) per_node = 1;
  if (ranks <= per_node) return collective_time(op, bytes, ranks, c.intra, algo);
  if (per_node == 1) return collective_time(op, bytes, ranks, c.inter, algo);
  if (bytes <= 0) return collective_time(op, bytes, ranks, c.intra, algo);
  const int nodes = (ranks + per_node - 1) / per_node;
  const double n = ranks;
  const double launch = std::max(c.intra.launch, c.inter.launch);
  // What the node's NICs carry together: each of its per_node ranks has a NIC of its own (rail-
  // optimised nodes), and NCCL runs one ring channel through each.
  const double nic_rate = per_node * c.inter.bandwidth * c.inter.efficiency;
  const double nvlink_rate = c.intra.bandwidth * c.intra.efficiency;
  if (op == Collective::AllReduce || op == Collective::AllGather ||
      op == Collective::ReduceScatter || op == Collective::Broadcast) {
    // A flat ring over all ranks, one channel per rail: bus bandwidth is the slower of the
    // in-node links and the node's NICs together. Checked against nccl-tests across two nodes:
    // 16 A100 on HDR, 8 GB all-reduce, busbw 188 GB/s = 8 NICs × 23.5 GB/s (Azure NDv4); 16 H100
    // on 8 × 200 Gb/s, 8 GB all-gather, busbw 189 GB/s (GCP A3 Mega) — tests/validation.
    Tier ring = c.inter;  // one ring through both tiers: the slower link, the longer step
    ring.bandwidth = std::min(nvlink_rate, nic_rate);
    ring.efficiency = 1;  // already in the two rates
    ring.latency = std::max(c.intra.latency, c.inter.latency);
    ring.launch = launch;
    const CollectiveCost flat =
        make(bytes * ring_factor(op, n), ring_steps(op, n), ring, Algorithm::Ring);
    if (op != Collective::AllReduce || algo == Algorithm::Ring || !c.intra.in_switch_reduction)
      return flat;
    // NVLS tree (NCCL 2.18+ where the node's switch reduces): reduce-scatter in the node, an
    // all-reduce of each 1/per_node shard across nodes on every rail at once, all-gather in the
    // node; chunks flow through the three phases together, so the slower of the node's two
    // phases and the network's sets the pace. Across nodes it is a tree (NCCL's NVLSTree
    // algorithm: NVLS in the node, a tree between nodes), so from three nodes on each NIC carries
    // 2× its shard, more than a ring's 2·(N−1)/N: NCCL then keeps the flat ring. Checked: 16 H100
    // on NDR, 8 GB, busbw 391 GB/s (the tree); 32 B200 on 4 nodes, 1 GiB, 366 GB/s (the ring).
    const CollectiveCost rs = collective_time(Collective::ReduceScatter, bytes, per_node, c.intra);
    const CollectiveCost ag = collective_time(Collective::AllGather, bytes, per_node, c.intra);
    const CollectiveCost across =
        collective_time(Collective::AllReduce, bytes / per_node, nodes, c.inter, Algorithm::Tree);
    CollectiveCost tree;
    tree.bytes_per_rank = rs.bytes_per_rank + across.bytes_per_rank + ag.bytes_per_rank;
    tree.steps = rs.steps + across.steps + ag.steps;
    tree.bandwidth_time = std::max(rs.bandwidth_time + ag.bandwidth_time, across.bandwidth_time);
    tree.latency_time = rs.steps * c.intra.latency + ag.steps * c.intra.latency +
                        across.steps * c.inter.latency + launch;
    tree.time = tree.bandwidth_time + tree.latency_time;
    tree.used = Algorithm::InSwitch;
    return tree.time < flat.time ? tree : flat;
  }
  // All-to-all across nodes, as grouped point-to-point: a rank's traffic to other nodes leaves by
  // its own NIC, to its node by NVLink, at once; the slower sets the time.
  const double off_node = bytes * (n - per_node) / n, on_node = bytes * (per_node - 1.0) / n;
  CollectiveCost a2a;
  a2a.bytes_per_rank = off_node + on_node;
  a2a.steps = 1;
  a2a.bandwidth_time =
      std::max(off_node / (c.inter.bandwidth * c.inter.efficiency), on_node / nvlink_rate);
  a2a.latency_time = c.inter.latency + launch;
  a2a.time = a2a.bandwidth_time + a2a.latency_time;
  a2a.used = Algorithm::Direct;
  return a2a;
}

}  // namespace napkin
