#include "comm/comm.hpp"

#include <cmath>
#include <vector>

#include "base/units.hpp"
#include "root/areas.hpp"
#include "scenario/accelerator_inputs.hpp"
#include "scenario/collective.hpp"

namespace napkin {

namespace {

// Below this much traffic per link a bandwidth of 0 means "no time asked for".
bool has_link(double bandwidth) {
  return bandwidth > 0;
}

}  // namespace

// α–β model (Hockney 1994; Thakur, Rabenseifner & Gropp 2005, "Optimization of Collective
// Communication Operations in MPICH", §2): time = steps·α + bytes_per_rank/β. The algorithms
// and their bytes and steps are the shared collective_time (core/scenario/collective.cpp):
// ring with NCCL's bus-bandwidth factors (nccl-tests doc/PERFORMANCE.md "Summary": all-reduce
// 2(n−1)/n over 2(n−1) steps, all-gather, reduce-scatter and all-to-all (n−1)/n over n−1,
// broadcast 1); NCCL's double binary tree (2·⌈log2 n⌉ steps, 2P per rank); in-switch reduction
// (NVLink SHARP / NVLS: P per rank in two steps whatever n); and the two-tier hierarchy
// (reduce-scatter in the node, all-reduce across nodes, all-gather in the node).
Result<CollectiveOut> comm_collective(const CollectiveIn& in, Derivation& d) {
  CollectiveOut o{};
  const double p = in.bytes, n = in.ranks;
  const std::string& a = in.algorithm;
  if (in.op != "p2p" && n < 2)
    return Error::inconsistent("ranks", n, "a collective needs at least 2 ranks");
  if (a == "tree" && in.op != "all_reduce" && in.op != "broadcast") {
    const std::string what = "the tree algorithm is modelled for all_reduce and broadcast only";
    return Error{"inconsistent", "algorithm", "algorithm = tree: " + what + " (op = " + in.op + ")",
                 Json("tree"), what};
  }
  if (a == "in_switch" &&
      (!in.in_switch_reduction ||
       (in.op != "all_reduce" && in.op != "all_gather" && in.op != "reduce_scatter"))) {
    const std::string what =
        "in-switch reduction needs a switch that reduces (in_switch_reduction on) and an "
        "all_reduce, all_gather or reduce_scatter";
    return Error{"inconsistent", "algorithm", "algorithm = in_switch: " + what, Json("in_switch"),
                 what};
  }
  const Collective op = in.op == "all_reduce"       ? Collective::AllReduce
                        : in.op == "all_gather"     ? Collective::AllGather
                        : in.op == "reduce_scatter" ? Collective::ReduceScatter
                        : in.op == "all_to_all"     ? Collective::AllToAll
                        : in.op == "broadcast"      ? Collective::Broadcast
                                                    : Collective::P2p;
  const Algorithm algo = a == "ring"        ? Algorithm::Ring
                         : a == "tree"      ? Algorithm::Tree
                         : a == "in_switch" ? Algorithm::InSwitch
                                            : Algorithm::Auto;
  const Tier link{"link",
                  "link",
                  "",
                  in.bandwidth,
                  in.latency,
                  in.in_switch_reduction,
                  in.efficiency,
                  in.switch_efficiency,
                  in.launch_latency};
  const Tier inter{"inter",
                   "inter",
                   "",
                   in.inter_bandwidth,
                   in.inter_latency,
                   false,
                   in.inter_efficiency,
                   1,
                   in.launch_latency};
  const int ranks = op == Collective::P2p ? 2 : static_cast<int>(n);
  const int per_node = static_cast<int>(in.gpus_per_node);
  const bool two_tier = per_node > 0 && ranks > per_node && op != Collective::P2p;
  const Cluster cluster{{}, per_node, link, inter};

  // The ring on the same link(s), for comparison (and the worked examples' 2(N−1) steps).
  const CollectiveCost ring =
      two_tier ? hierarchical_time(op, p, ranks, per_node, cluster, Algorithm::Ring)
               : collective_time(op, p, ranks, link, Algorithm::Ring);
  o.ring_time = ring.time;
  if (two_tier) {
    const int nodes = (ranks + per_node - 1) / per_node;
    const CollectiveCost c = hierarchical_time(op, p, ranks, per_node, cluster, algo);
    o.bytes_per_rank = c.bytes_per_rank;
    o.steps = c.steps;
    o.latency_time = c.latency_time;
    o.bandwidth_time = c.bandwidth_time;
    o.time = c.time;
    o.total_bytes = o.bytes_per_rank * n;
    const std::string where = std::to_string(ranks) + " ranks in " + std::to_string(nodes) +
                              " nodes of " + std::to_string(per_node);
    if (c.used == Algorithm::Ring) {
      // One ring through every rank (NCCL's default across nodes): a channel per NIC, so the
      // ring's bus bandwidth is the slower of the node's links and its NICs together.
      o.algorithm_used = "ring";
      d.note("Two tiers", where +
                              ": one ring through all of them, a channel through each NIC "
                              "(NCCL's ring across nodes).");
      d.step("Bus bandwidth of the ring: the slower tier", "\\beta_{\\text{ring}}",
             "\\min\\left($B \\cdot $e, $k \\cdot $I \\cdot $f\\right)",
             {{"B", "\\beta_{\\text{node}}", in.bandwidth, unit::bytes_per_s},
              {"e", "\\eta", in.efficiency},
              {"k", "k", static_cast<double>(per_node)},
              {"I", "\\beta_{\\text{NIC}}", in.inter_bandwidth, unit::bytes_per_s},
              {"f", "\\eta_{\\text{NIC}}", in.inter_efficiency}},
             c.rate, unit::bytes_per_s);
      d.step("Latency: launch and sequential steps at the slower tier's α", "T_{\\alpha}",
             "$L + $s \\cdot $a",
             {{"L", "t_{\\text{launch}}", c.launch, unit::seconds},
              {"s", "s", c.steps},
              {"a", "\\alpha", c.step_latency, unit::seconds}},
             o.latency_time, unit::seconds);
      d.step("Bandwidth term", "T_{\\beta}", "\\frac{$V}{$B}",
             {{"V", "V_{\\text{rank}}", o.bytes_per_rank, unit::bytes},
              {"B", "\\beta_{\\text{ring}}", c.rate, unit::bytes_per_s}},
             o.bandwidth_time, unit::seconds);
    } else if (c.used == Algorithm::InSwitch) {
      // NVLS tree: reduce-scatter in the node, all-reduce of each shard across nodes on every
      // rail, all-gather in the node, pipelined: the slower of node and network sets the pace.
      o.algorithm_used = "hierarchical";
      d.note("Two tiers",
             where + ": reduce-scatter inside each node, all-reduce of each 1/" +
                 std::to_string(per_node) +
                 " shard across the nodes on every NIC at once, all-gather inside (NCCL's NVLS "
                 "tree; Jia et al. 2018, hierarchical all-reduce). Chunks flow through the phases "
                 "together, so the slower of the node and the network sets the pace.");
      const CollectiveCost rs =
          collective_time(Collective::ReduceScatter, p, per_node, link, Algorithm::Auto);
      const CollectiveCost ag =
          collective_time(Collective::AllGather, p, per_node, link, Algorithm::Auto);
      const CollectiveCost across =
          collective_time(Collective::AllReduce, p / per_node, nodes, inter, Algorithm::Auto);
      d.step("Inside the node: reduce-scatter and all-gather", "T_{\\text{node}}",
             "\\frac{$V}{$B} + \\frac{$W}{$C}",
             {{"V", "V_{\\text{RS}}", rs.bytes_per_rank, unit::bytes},
              {"B", "\\beta_{\\text{RS}}", rs.rate, unit::bytes_per_s},
              {"W", "V_{\\text{AG}}", ag.bytes_per_rank, unit::bytes},
              {"C", "\\beta_{\\text{AG}}", ag.rate, unit::bytes_per_s}},
             rs.bandwidth_time + ag.bandwidth_time, unit::seconds);
      d.step("Across the nodes: all-reduce of the shard", "T_{\\text{net}}", "\\frac{$V}{$B}",
             {{"V", "V_{\\text{net}}", across.bytes_per_rank, unit::bytes},
              {"B", "\\beta_{\\text{net}}", across.rate, unit::bytes_per_s}},
             across.bandwidth_time, unit::seconds);
      d.step("Pipelined: the slower sets the pace", "T_{\\beta}", "\\max\\left($A, $B\\right)",
             {{"A", "T_{\\text{node}}", rs.bandwidth_time + ag.bandwidth_time, unit::seconds},
              {"B", "T_{\\text{net}}", across.bandwidth_time, unit::seconds}},
             o.bandwidth_time, unit::seconds);
    } else {
      o.algorithm_used = "direct";
      d.note("Two tiers", where +
                              ": every rank sends to every other at once; traffic to other "
                              "nodes leaves by its own NIC, to its node by NVLink.");
      d.step("Bandwidth term: the slower of NIC and NVLink traffic", "T_{\\beta}", "$T",
             {{"T", "T_{\\beta}", o.bandwidth_time, unit::seconds}}, o.bandwidth_time,
             unit::seconds);
    }
  } else {
    const CollectiveCost c = collective_time(op, p, ranks, link, algo);
    o.algorithm_used = c.used == Algorithm::InSwitch ? "in-switch"
                       : c.used == Algorithm::Tree   ? "tree"
                                                     : "ring";
    o.bytes_per_rank = c.bytes_per_rank;
    o.steps = c.steps;
    o.latency_time = c.latency_time;
    o.bandwidth_time = c.bandwidth_time;
    o.time = c.time;
    const double links = op == Collective::P2p                                          ? 1
                         : op == Collective::Broadcast && c.used != Algorithm::InSwitch ? n - 1
                                                                                        : n;
    o.total_bytes = o.bytes_per_rank * links;
    if (algo == Algorithm::Auto) {
      std::string why = "Fastest on this link: ";
      const CollectiveCost tree = collective_time(op, p, ranks, link, Algorithm::Tree);
      const CollectiveCost sw = collective_time(op, p, ranks, link, Algorithm::InSwitch);
      why += "ring " + format_value(ring.time, unit::seconds);
      if (tree.used == Algorithm::Tree) why += ", tree " + format_value(tree.time, unit::seconds);
      if (sw.used == Algorithm::InSwitch)
        why += ", in-switch reduction " + format_value(sw.time, unit::seconds);
      d.note("Algorithm",
             why + " → " +
                 (c.used == Algorithm::InSwitch ? "in-switch reduction" : o.algorithm_used) + ".");
    }
    // The formula of the algorithm used, with its bytes factor and step count.
    const char* f_tex = "1";
    const char* s_tex = "1";
    const char* what = "Point-to-point: one send";
    if (c.used == Algorithm::InSwitch) {
      f_tex = op == Collective::AllReduce ? "1" : "\\frac{$N - 1}{$N}";
      s_tex = "2";
      what =
          "In-switch reduction (NVLS / SHARP): each rank pushes its data to the switch, "
          "which reduces it and multicasts the result";
    } else if (c.used == Algorithm::Tree) {
      f_tex = op == Collective::AllReduce ? "2" : "1";
      s_tex = op == Collective::AllReduce ? "2 \\lceil \\log_2 $N \\rceil"
                                          : "\\lceil \\log_2 $N \\rceil";
      what = "Double binary tree: reduce up and broadcast down, about log₂ N steps each";
    } else if (op == Collective::AllReduce) {
      f_tex = "\\frac{2($N - 1)}{$N}", s_tex = "2($N - 1)";
      what = "Ring: reduce-scatter then all-gather, N − 1 steps each";
    } else if (op != Collective::Broadcast && op != Collective::P2p) {
      f_tex = "\\frac{$N - 1}{$N}", s_tex = "$N - 1";
      what = "Ring: N − 1 steps of P/N each";
    } else if (op == Collective::Broadcast) {
      s_tex = "$N - 1";
      // Pipelined ring broadcast: every rank but the root receives P once; the root's link is
      // the bottleneck (nccl-tests PERFORMANCE.md, Broadcast: t = S/B).
      what = "Pipelined ring broadcast: the root's link carries P once";
    }
    d.note("How", what);
    d.step("Bytes each rank sends (exact)", "V_{\\text{rank}}", std::string(f_tex) + " \\cdot $P",
           {{"P", "P", p, unit::bytes}, {"N", "N", n}}, o.bytes_per_rank, unit::bytes);
    if (c.launch > 0)
      d.note(
          "Protocol",
          c.low_latency
              ? "NCCL's LL (low-latency) protocol: a 6.6 µs launch and short steps, at a quarter "
                "of the bandwidth; faster than Simple at this size (NVIDIA/nccl, tuning.cc)."
              : "NCCL's Simple protocol: full bandwidth after an 8.4 µs launch; faster than LL "
                "at this size (NVIDIA/nccl, tuning.cc).");
    d.step("Latency: launch and sequential steps", "T_{\\alpha}",
           std::string("$L + (") + s_tex + ") \\cdot $a",
           {{"L", "t_{\\text{launch}}", c.launch, unit::seconds},
            {"N", "N", n},
            {"a", "\\alpha", c.step_latency, unit::seconds}},
           o.latency_time, unit::seconds);
    const double share = c.rate / in.bandwidth;
    d.step(share < 1 ? "Bandwidth term, at the achieved share of the link (nccl-tests)"
                     : "Bandwidth term",
           "T_{\\beta}", "\\frac{$V}{$B \\cdot $e}",
           {{"V", "V_{\\text{rank}}", o.bytes_per_rank, unit::bytes},
            {"B", "\\beta", in.bandwidth, unit::bytes_per_s},
            {"e", "\\eta", share}},
           o.bandwidth_time, unit::seconds);
  }
  const double approx = op == Collective::AllReduce ? 2 : 1;
  o.bytes_per_rank_approx = approx * p;
  if (op == Collective::AllReduce && o.algorithm_used == "ring")
    d.step("The large-N approximation", "V_{\\text{approx}}", "2 $P", {{"P", "P", p, unit::bytes}},
           o.bytes_per_rank_approx, unit::bytes);
  d.step(
      "Traffic summed over all ranks (switch / bisection load): each rank's bytes times the "
      "ranks (or links) that send them",
      "V_{\\text{total}}", "$v \\cdot $n",
      {{"v", "V_{\\text{rank}}", o.bytes_per_rank},
       {"n", "n", o.bytes_per_rank > 0 ? o.total_bytes / o.bytes_per_rank : 0}},
      o.total_bytes, unit::bytes);
  d.step("Collective time", "T", "$A + $B",
         {{"A", "T_{\\alpha}", o.latency_time, unit::seconds},
          {"B", "T_{\\beta}", o.bandwidth_time, unit::seconds}},
         o.time, unit::seconds);
  if (o.algorithm_used != "ring" && d.recording())
    d.note("The same on a ring, for comparison",
           "A ring takes " + format_value(o.ring_time, unit::seconds) + " (the time on a ring).");
  o.regime = o.latency_time > o.bandwidth_time ? "latency" : "bandwidth";
  d.note("Regime", o.regime == "latency"
                       ? "Latency-bound: the step count dominates. Fewer, larger messages (or a "
                         "lower-latency link) help; more bandwidth barely does."
                       : "Bandwidth-bound: bytes over the link dominate. A faster link helps; "
                         "shaving latency barely does.");
  // nccl-tests' definitions (doc/PERFORMANCE.md): algbw = size / time; busbw = algbw × the
  // ring's factor for the operation (all-reduce 2(n−1)/n), whatever algorithm ran, so that
  // busbw compares with the link's speed.
  o.algorithm_bandwidth = o.time > 0 ? p / o.time : 0;
  const double bus_factor = op == Collective::AllReduce                            ? 2 * (n - 1) / n
                            : op == Collective::Broadcast || op == Collective::P2p ? 1
                                                                                   : (n - 1) / n;
  d.step("Algorithm bandwidth (nccl-tests' algbw)", "\\text{algbw}", "\\frac{$P}{$T}",
         {{"P", "P", p, unit::bytes}, {"T", "T", o.time, unit::seconds}}, o.algorithm_bandwidth,
         unit::bytes_per_s);
  o.bus_bandwidth = o.algorithm_bandwidth * bus_factor;
  d.step("Bus bandwidth (what nccl-tests reports as busbw)", "\\text{busbw}", "$A \\cdot $f",
         {{"A", "\\text{algbw}", o.algorithm_bandwidth, unit::bytes_per_s},
          {"f", "f_{\\text{op}}", bus_factor}},
         o.bus_bandwidth, unit::bytes_per_s);
  // Where the latency and bandwidth terms meet: P* = T_α / (T_β / P).
  const double beta_per_byte = p > 0 ? o.bandwidth_time / p : 0;
  o.crossover_bytes = beta_per_byte > 0 ? o.latency_time / beta_per_byte : 0;
  if (beta_per_byte > 0)
    d.step("Message size where latency and bandwidth terms are equal", "P^{*}",
           "\\frac{$A \\cdot $P}{$B}",
           {{"A", "T_{\\alpha}", o.latency_time, unit::seconds},
            {"P", "P", p, unit::bytes},
            {"B", "T_{\\beta}", o.bandwidth_time, unit::seconds}},
           o.crossover_bytes, unit::bytes);
  return o;
}

// Per-step communication of the four parallelisms (docs/communication.md, comm.parallelism).
// DP: one all-reduce of the gradients, 2P(N−1)/N per rank (ring; nccl-tests factor).
// FSDP / ZeRO-3: all-gather in forward, all-gather + reduce-scatter in backward, 3P(N−1)/N
//   (Rajbhandari et al. 2020, ZeRO, §7.2.2: "3Ψ", 1.5× DP).
// TP: Megatron's 2 all-reduces of B·S·H in forward and 2 in backward per layer (Shoeybi et al.
//   2019, §3 and Fig. 4), each 2(t−1)/t per rank on a ring: 8·B·S·H·(t−1)/t per layer per device
//   (Narayanan et al. 2021, §3.3).
// PP: one point-to-point send of B·S·H per stage boundary each way (Narayanan et al. 2021, §3.3).
Result<ParallelismOut> comm_parallelism(const ParallelismIn& in, Derivation& d) {
  ParallelismOut o{};
  if (in.pp > in.n_layers)
    return Error::inconsistent("pp", in.pp, "at most n_layers (each stage needs a layer)");
  if (in.microbatches > in.batch)
    return Error::inconsistent("microbatches", in.microbatches,
                               "at most batch (each microbatch holds at least one sequence)");
  const double P = in.params, L = in.n_layers, gb = in.grad_bytes, ab = in.activation_bytes;
  const double tp = in.tp, pp = in.pp, dp = in.dp, M = in.microbatches;
  const double bsh = in.batch * in.seq_len * in.d_model;
  const double shard = 1 / (tp * pp);  // a device holds 1/(tp·pp) of the parameters
  const bool link = has_link(in.bandwidth);
  if (!link) o.dp_time = o.fsdp_time = o.tp_time = o.pp_time = not_given;
  // Times come from the shared collective_time on one link; the worked examples' ring unless
  // another algorithm is asked for.
  const Tier tier{"link", "link", "", in.bandwidth, in.latency, false};
  const Algorithm algo = in.algorithm == "auto"   ? Algorithm::Auto
                         : in.algorithm == "tree" ? Algorithm::Tree
                                                  : Algorithm::Ring;
  const auto ranks = [](double x) { return static_cast<int>(x); };
  if (ab == 1 || gb == 1)
    d.note("Convention",
           "A byte count of 1 counts elements as bytes (the worked examples' convention): "
           "multiply by the real width (2 for BF16) for bytes on the wire.");

  if (dp > 1) {
    o.dp_bytes = 2 * P * gb;
    d.step("DP: all-reduce of the gradients (the worked examples' 2P)", "V_{DP}",
           "2 \\cdot $P \\cdot $b", {{"P", "P", P, unit::params}, {"b", "b_{g}", gb, unit::bytes}},
           o.dp_bytes, unit::bytes);
    o.dp_bytes_exact = o.dp_bytes * (dp - 1) / dp;
    d.step("DP exact, ring all-reduce per rank", "V_{DP}^{\\text{exact}}",
           "2 \\cdot $P \\cdot $b \\cdot \\frac{$N - 1}{$N}",
           {{"P", "P", P, unit::params}, {"b", "b_{g}", gb, unit::bytes}, {"N", "N_{dp}", dp}},
           o.dp_bytes_exact, unit::bytes);
    o.dp_bytes_per_device = o.dp_bytes_exact * shard;
    if (shard < 1)
      d.step("DP per device: each GPU reduces only its TP×PP shard", "V_{DP}^{\\text{dev}}",
             "\\frac{$V}{$t \\cdot $p}",
             {{"V", "V_{DP}^{\\text{exact}}", o.dp_bytes_exact, unit::bytes},
              {"t", "t", tp},
              {"p", "p", pp}},
             o.dp_bytes_per_device, unit::bytes);
    o.dp_total_traffic = o.dp_bytes_exact * dp;
    o.dp_total_traffic_approx = o.dp_bytes * dp;
    d.step("DP traffic over all ranks (switch capacity, not step time)", "V_{DP}^{\\text{total}}",
           "$V \\cdot $N",
           {{"V", "V_{DP}^{\\text{exact}}", o.dp_bytes_exact, unit::bytes}, {"N", "N_{dp}", dp}},
           o.dp_total_traffic, unit::bytes);
    o.dp_ops = 1;
    o.fsdp_bytes = 3 * P * gb;
    d.step("FSDP: all-gather (fwd) + all-gather and reduce-scatter (bwd)", "V_{FSDP}",
           "3 \\cdot $P \\cdot $b", {{"P", "P", P, unit::params}, {"b", "b", gb, unit::bytes}},
           o.fsdp_bytes, unit::bytes);
    o.fsdp_bytes_exact = o.fsdp_bytes * (dp - 1) / dp;
    d.step("FSDP exact", "V_{FSDP}^{\\text{exact}}",
           "3 \\cdot $P \\cdot $b \\cdot \\frac{$N - 1}{$N}",
           {{"P", "P", P, unit::params}, {"b", "b", gb, unit::bytes}, {"N", "N_{dp}", dp}},
           o.fsdp_bytes_exact, unit::bytes);
    o.fsdp_ops = 3 * L;
    if (link) {
      o.dp_time =
          collective_time(Collective::AllReduce, P * gb * shard, ranks(dp), tier, algo).time;
      if (algo == Algorithm::Ring)
        d.step("DP time per step", "T_{DP}", "2($N - 1) \\cdot $a + \\frac{$V}{$B}",
               {{"N", "N_{dp}", dp},
                {"a", "\\alpha", in.latency, unit::seconds},
                {"V", "V_{DP}^{\\text{dev}}", o.dp_bytes_per_device, unit::bytes},
                {"B", "\\beta", in.bandwidth, unit::bytes_per_s}},
               o.dp_time, unit::seconds);
      else
        d.step("DP time per step (shared collective time, " + in.algorithm + ")", "T", "T", {},
               o.dp_time, unit::seconds);
      // Per layer: all-gather (forward), all-gather (backward), reduce-scatter of its shard.
      const double layer = P * gb * shard / L;
      o.fsdp_time =
          L * (2 * collective_time(Collective::AllGather, layer, ranks(dp), tier, algo).time +
               collective_time(Collective::ReduceScatter, layer, ranks(dp), tier, algo).time);
      if (algo == Algorithm::Ring)
        d.step("FSDP time per step (3L collectives of N−1 steps)", "T_{FSDP}",
               "$k ($N - 1) \\cdot $a + \\frac{$V}{$t \\cdot $p \\cdot $B}",
               {{"k", "3L", o.fsdp_ops},
                {"N", "N_{dp}", dp},
                {"a", "\\alpha", in.latency, unit::seconds},
                {"V", "V_{FSDP}^{\\text{exact}}", o.fsdp_bytes_exact, unit::bytes},
                {"t", "t", tp},
                {"p", "p", pp},
                {"B", "\\beta", in.bandwidth, unit::bytes_per_s}},
               o.fsdp_time, unit::seconds);
      else
        d.step("FSDP time per step (shared collective time, " + in.algorithm + ")", "T", "T", {},
               o.fsdp_time, unit::seconds);
    }
  }

  if (tp > 1) {
    o.tp_logical_bytes_per_layer = 4 * bsh * ab;
    d.step("TP logical: 4 all-reduces of B·S·H per layer", "V_{TP}^{\\text{log}}",
           "4 \\cdot $B \\cdot $S \\cdot $H \\cdot $b",
           {{"B", "B", in.batch},
            {"S", "S", in.seq_len},
            {"H", "H", in.d_model},
            {"b", "b_{a}", ab, unit::bytes}},
           o.tp_logical_bytes_per_layer, unit::bytes);
    o.tp_bytes_per_layer = 8 * bsh * ab;
    d.step("TP physical per layer (ring 2×, the worked examples' 8·B·S·H)", "V_{TP}",
           "8 \\cdot $B \\cdot $S \\cdot $H \\cdot $b",
           {{"B", "B", in.batch},
            {"S", "S", in.seq_len},
            {"H", "H", in.d_model},
            {"b", "b_{a}", ab, unit::bytes}},
           o.tp_bytes_per_layer, unit::bytes);
    o.tp_bytes_per_layer_exact = o.tp_bytes_per_layer * (tp - 1) / tp;
    d.step("TP exact per layer (Narayanan et al. 2021 §3.3)", "V_{TP}^{\\text{exact}}",
           "8 \\cdot $B \\cdot $S \\cdot $H \\cdot $b \\cdot \\frac{$t - 1}{$t}",
           {{"B", "B", in.batch},
            {"S", "S", in.seq_len},
            {"H", "H", in.d_model},
            {"b", "b_{a}", ab, unit::bytes},
            {"t", "t", tp}},
           o.tp_bytes_per_layer_exact, unit::bytes);
    // Full recomputation re-runs each layer's forward in the backward pass, its two TP
    // all-reduces included (Korthikanti et al. 2022 §4): 6 all-reduces per layer, not 4.
    // Selective recomputation re-runs only the attention core, which has no collective.
    const double passes = in.recompute == "full" ? 1.5 : 1;
    o.tp_logical_bytes = o.tp_logical_bytes_per_layer * L * passes;
    o.tp_bytes = o.tp_bytes_per_layer * L * passes;
    o.tp_bytes_exact = o.tp_bytes_per_layer_exact * L * passes;
    o.tp_recompute_bytes = o.tp_bytes_exact - o.tp_bytes_per_layer_exact * L;
    o.tp_ops = 4 * L * passes;
    if (passes > 1) {
      d.step("Full recomputation: the forward's 2 all-reduces per layer again", "n_{TP}",
             "(4 + 2) \\cdot $L", {{"L", "L", L}}, o.tp_ops, unit::none);
      d.step("TP physical over all layers, recomputed forward included", "V_{TP}^{\\text{step}}",
             "\\frac{6}{4} \\cdot $V \\cdot $L",
             {{"V", "V_{TP}", o.tp_bytes_per_layer, unit::bytes}, {"L", "L", L}}, o.tp_bytes,
             unit::bytes);
    } else {
      d.step("TP physical over all layers", "V_{TP}^{\\text{step}}", "$V \\cdot $L",
             {{"V", "V_{TP}", o.tp_bytes_per_layer, unit::bytes}, {"L", "L", L}}, o.tp_bytes,
             unit::bytes);
      d.step("TP all-reduces per step", "n_{TP}", "4 \\cdot $L", {{"L", "L", L}}, o.tp_ops,
             unit::none);
    }
    if (pp > 1)
      d.note("Pipeline stages",
             "With pp stages a device runs only n_layers/pp of these layers: "
             "divide the TP step totals by pp for one device.");
    if (link) {
      o.tp_time =
          o.tp_ops * collective_time(Collective::AllReduce, bsh * ab, ranks(tp), tier, algo).time;
      if (algo == Algorithm::Ring)
        d.step("TP time per step", "T_{TP}", "$n \\cdot 2($t - 1) \\cdot $a + \\frac{$V}{$B}",
               {{"n", "n_{TP}", o.tp_ops},
                {"t", "t", tp},
                {"a", "\\alpha", in.latency, unit::seconds},
                {"V", "V_{TP}^{\\text{exact}} L", o.tp_bytes_exact, unit::bytes},
                {"B", "\\beta", in.bandwidth, unit::bytes_per_s}},
               o.tp_time, unit::seconds);
      else
        d.step("TP time per step (shared collective time, " + in.algorithm + ")", "T", "T", {},
               o.tp_time, unit::seconds);
    }
  }

  if (pp > 1) {
    o.pp_bytes_per_boundary = bsh * ab;
    d.step("PP per stage boundary (p2p, no ring factor)", "V_{PP}^{\\text{bnd}}",
           "$B \\cdot $S \\cdot $H \\cdot $b",
           {{"B", "B", in.batch},
            {"S", "S", in.seq_len},
            {"H", "H", in.d_model},
            {"b", "b_{a}", ab, unit::bytes}},
           o.pp_bytes_per_boundary, unit::bytes);
    o.pp_bytes = (pp - 1) * o.pp_bytes_per_boundary;
    d.step("PP over the pp − 1 boundaries (one direction)", "V_{PP}", "($p - 1) \\cdot $V",
           {{"p", "p", pp}, {"V", "V_{PP}^{\\text{bnd}}", o.pp_bytes_per_boundary, unit::bytes}},
           o.pp_bytes, unit::bytes);
    o.pp_bytes_per_device = 2 * o.pp_bytes_per_boundary;
    d.step("PP per device: activations forward + gradients backward", "V_{PP}^{\\text{dev}}",
           "2 \\cdot $V", {{"V", "V_{PP}^{\\text{bnd}}", o.pp_bytes_per_boundary, unit::bytes}},
           o.pp_bytes_per_device, unit::bytes);
    o.pp_ops = 2 * M * (pp - 1);
    d.step("PP sends per step", "n_{PP}", "2 \\cdot $M ($p - 1)", {{"M", "M", M}, {"p", "p", pp}},
           o.pp_ops, unit::none);
    if (link) {
      o.pp_time = 2 * M * collective_time(Collective::P2p, bsh * ab / M, 2, tier, algo).time;
      if (algo == Algorithm::Ring)
        d.step("PP send time of one middle stage", "T_{PP}", "2 $M \\cdot $a + \\frac{$V}{$B}",
               {{"M", "M", M},
                {"a", "\\alpha", in.latency, unit::seconds},
                {"V", "V_{PP}^{\\text{dev}}", o.pp_bytes_per_device, unit::bytes},
                {"B", "\\beta", in.bandwidth, unit::bytes_per_s}},
               o.pp_time, unit::seconds);
      else
        d.step("PP send time of one middle stage (shared collective time, " + in.algorithm + ")",
               "T", "T", {}, o.pp_time, unit::seconds);
    }
  }
  if (!link) d.note("Times", "Give a link bandwidth (and latency) to turn volumes into times.");
  return o;
}

// The study notes' `analyze_fsdp_communication`: each collective costs one latency plus its bytes
// over the bandwidth. ZeRO-0/1: all-reduce of BF16 gradients counted as 2P; ZeRO-2: one
// reduce-scatter, P(N−1)/N; ZeRO-3: all-gather + reduce-scatter of each layer's parameters.
// The ZeRO paper's volumes (Rajbhandari et al. 2020, §7.2.1–7.2.2): stages 1 and 2 move 2Ψ like
// DP (reduce-scatter of gradients + all-gather of updated parameters), stage 3 moves 3Ψ
// (an all-gather in forward and one in backward, plus the reduce-scatter).
Result<ZeroOut> comm_zero(const ZeroIn& in, Derivation& d) {
  ZeroOut o{};
  const double P = in.params * in.bytes, n = in.dp, L = in.n_layers, a = in.latency;
  const double f = (n - 1) / n;
  const int stage = static_cast<int>(in.zero_stage);
  if (stage <= 1) {
    o.collective = "AllReduce";
    o.bytes = 2 * P;
    o.collectives = 1;
    o.time = a + o.bytes / in.bandwidth;
    d.step("Worked example's ZeRO-1 volume: all-reduce of the gradients, 2P", "V", "2 \\cdot $P",
           {{"P", "P", P, unit::bytes}}, o.bytes, unit::bytes);
    d.step("Worked example's time: one latency plus the bytes over the link", "T",
           "$a + \\frac{$V}{$B}",
           {{"a", "\\alpha", a, unit::seconds},
            {"V", "V", o.bytes, unit::bytes},
            {"B", "\\beta", in.bandwidth, unit::bytes_per_s}},
           o.time, unit::seconds);
  } else if (stage == 2) {
    o.collective = "ReduceScatter";
    o.bytes = f * P;
    o.collectives = 1;
    o.time = a + o.bytes / in.bandwidth;
    d.step("Worked example's ZeRO-2 volume: reduce-scatter of the gradients", "V",
           "\\frac{$N - 1}{$N} \\cdot $P", {{"N", "N", n}, {"P", "P", P, unit::bytes}}, o.bytes,
           unit::bytes);
    d.step("Worked example's time", "T", "$a + \\frac{$V}{$B}",
           {{"a", "\\alpha", a, unit::seconds},
            {"V", "V", o.bytes, unit::bytes},
            {"B", "\\beta", in.bandwidth, unit::bytes_per_s}},
           o.time, unit::seconds);
    d.note("What the worked example leaves out",
           "ZeRO-2 must also all-gather the updated parameters "
           "after the optimizer step: the ZeRO paper's volume is 2Ψ, "
           "the same as DP (see bytes_paper).");
  } else {
    o.collective = "AllGather + ReduceScatter";
    const double layer = P / L;
    const double per_coll = a + f * layer / in.bandwidth;
    o.collectives = 2 * L;
    o.bytes = 2 * f * P;
    o.time = 2 * per_coll * L;
    d.step("Per layer: one all-gather of its parameters", "T_{AG}",
           "$a + \\frac{$N - 1}{$N} \\cdot \\frac{$P / $L}{$B}",
           {{"a", "\\alpha", a, unit::seconds},
            {"N", "N", n},
            {"P", "P", P, unit::bytes},
            {"L", "L", L},
            {"B", "\\beta", in.bandwidth, unit::bytes_per_s}},
           per_coll, unit::seconds);
    d.step("Worked example's ZeRO-3 time: AG + RS per layer, all layers", "T",
           "2 \\cdot $t \\cdot $L", {{"t", "T_{AG}", per_coll, unit::seconds}, {"L", "L", L}},
           o.time, unit::seconds);
    d.step("Worked example's ZeRO-3 volume", "V", "2 \\cdot \\frac{$N - 1}{$N} \\cdot $P",
           {{"N", "N", n}, {"P", "P", P, unit::bytes}}, o.bytes, unit::bytes);
    d.note("What the worked example leaves out",
           "The backward pass all-gathers the parameters again: "
           "the ZeRO paper's volume is 3Ψ (see bytes_paper).");
  }
  o.time_per_layer = o.time / L;
  d.step("Per layer", "T_{\\text{layer}}", "\\frac{$T}{$L}",
         {{"T", "T", o.time, unit::seconds}, {"L", "L", L}}, o.time_per_layer, unit::seconds);
  // Paper volumes on a ring with its 2(N−1) or 3L·(N−1) latency steps.
  // Timed by the shared collective_time on a ring: stages 1–2 as one all-reduce's worth
  // (reduce-scatter + all-gather), stage 3 as per layer two all-gathers and a reduce-scatter.
  const Tier ring_link{"link", "link", "", in.bandwidth, a, false};
  const int ranks = static_cast<int>(n);
  if (stage <= 2) {
    o.bytes_paper = 2 * f * P;
    o.time_paper =
        collective_time(Collective::AllReduce, P, ranks, ring_link, Algorithm::Ring).time;
  } else {
    o.bytes_paper = 3 * f * P;
    o.time_paper =
        L *
        (2 * collective_time(Collective::AllGather, P / L, ranks, ring_link, Algorithm::Ring).time +
         collective_time(Collective::ReduceScatter, P / L, ranks, ring_link, Algorithm::Ring).time);
  }
  d.step("ZeRO paper's volume per rank (§7.2)", "V_{\\text{paper}}",
         stage <= 2 ? "2 \\cdot \\frac{$N - 1}{$N} \\cdot $P"
                    : "3 \\cdot \\frac{$N - 1}{$N} \\cdot $P",
         {{"N", "N", n}, {"P", "P", P, unit::bytes}}, o.bytes_paper, unit::bytes);
  d.step("Its time on a ring (every step pays a latency)", "T_{\\text{paper}}",
         stage <= 2 ? "2($N - 1) $a + \\frac{$V}{$B}" : "3 $L ($N - 1) $a + \\frac{$V}{$B}",
         {{"N", "N", n},
          {"L", "L", L},
          {"a", "\\alpha", a, unit::seconds},
          {"V", "V_{\\text{paper}}", o.bytes_paper, unit::bytes},
          {"B", "\\beta", in.bandwidth, unit::bytes_per_s}},
         o.time_paper, unit::seconds);
  return o;
}

void register_comm(Registry& r) {
  constexpr double kMaxBytes = 1e16, kMaxBw = 1e14, kMaxRanks = 1e6, kMaxParams = 1e15;
  {
    using In = CollectiveIn;
    using Out = CollectiveOut;
    r.add(declare<comm_collective>(
        {"comm.collective", "Collective communication time", "comm",
         "Bytes each rank sends, total traffic, latency and bandwidth terms of a collective "
         "(all-reduce, all-gather, reduce-scatter, all-to-all, broadcast, p2p) on N ranks.",
         "nccl-tests doc/PERFORMANCE.md (bus-bandwidth factors); Thakur et al. 2005 (α–β "
         "model)",
         "docs/communication.md#commcollective"},
        {choice("op", NAPKIN_FIELD(In, op), "Operation",
                "all_reduce|all_gather|reduce_scatter|all_to_all|broadcast|p2p")
             .help("The collective: how data moves between the ranks")
             .labels(
                 "All-reduce|All-gather|Reduce-scatter|All-to-all|Broadcast|Point-to-point send"),
         num("bytes", NAPKIN_FIELD(In, bytes), "Message size P", unit::bytes)
             .positive(kMaxBytes)
             .help("The full tensor; for all-gather the gathered result, for reduce-scatter "
                   "the input before scattering"),
         num("ranks", NAPKIN_FIELD(In, ranks), "Ranks N")
             .help("GPUs taking part")
             .positive(kMaxRanks)
             .integer(),
         num("bandwidth", NAPKIN_FIELD(In, bandwidth), "Link bandwidth per rank (one direction)",
             unit::bytes_per_s)
             .help("Per-rank bandwidth in one direction (vendor totals are often both directions)")
             .positive(kMaxBw),
         num("latency", NAPKIN_FIELD(In, latency), "Latency per step α", unit::seconds)
             .help("Fixed cost of one step of the algorithm")
             .range(0, 10),
         flag("in_switch_reduction", NAPKIN_FIELD(In, in_switch_reduction),
              "Switch reduces in-network")
             .help("NVLink SHARP (NVLS) on H100/B200 NVSwitch, or InfiniBand SHARP: the switch "
                   "sums the data, so each rank sends it once"),
         choice("algorithm", NAPKIN_FIELD(In, algorithm), "Algorithm", "auto|ring|tree|in_switch")
             .help("Auto picks the fastest; ring: 2(N − 1) steps; tree: about 2 log₂ N steps; "
                   "in-switch: 2 steps")
             .labels("Auto (fastest)|Ring|Tree|In-switch reduction"),
         num("gpus_per_node", NAPKIN_FIELD(In, gpus_per_node), "GPUs per node (0 = one link)")
             .help("Ranks beyond this many are in other nodes, reached over the inter-node "
                   "link; 0 puts every rank on the link above")
             .range(0, kMaxRanks)
             .integer(),
         num("inter_bandwidth", NAPKIN_FIELD(In, inter_bandwidth), "Inter-node bandwidth per GPU",
             unit::bytes_per_s)
             .help("Each GPU's network bandwidth to other nodes, one direction (NDR: 50 GB/s)")
             .positive(kMaxBw),
         num("inter_latency", NAPKIN_FIELD(In, inter_latency), "Inter-node latency per step",
             unit::seconds)
             .help("Fixed cost of one step across nodes")
             .range(0, 10),
         num("efficiency", NAPKIN_FIELD(In, efficiency), "Achieved share of the link",
             unit::fraction)
             .meaning("bus_efficiency")
             .help("Bus bandwidth NCCL reaches on large messages ÷ the link's speed (nccl-tests: "
                   "82 % on H100 NVLink); 1 = line rate, the textbook model")
             .range(0.01, 1),
         num("switch_efficiency", NAPKIN_FIELD(In, switch_efficiency), "Achieved share, in-switch",
             unit::fraction)
             .help("An in-switch (NVLS) all-reduce's algorithm bandwidth ÷ the link's speed "
                   "(nccl-tests: 61 % on H100); 1 = line rate")
             .range(0.01, 1),
         launch_latency_input(NAPKIN_FIELD(In, launch_latency)),
         inter_efficiency_input(NAPKIN_FIELD(In, inter_efficiency))},
        {out("bytes_per_rank", NAPKIN_FIELD(Out, bytes_per_rank), "Bytes per rank (exact)",
             unit::bytes)
             .help("Bytes each rank sends, exactly, for this collective"),
         out("bytes_per_rank_approx", NAPKIN_FIELD(Out, bytes_per_rank_approx),
             "Bytes per rank (≈ 2P / P)", unit::bytes)
             .help("The large-N approximation"),
         out("total_bytes", NAPKIN_FIELD(Out, total_bytes), "Total traffic, all ranks", unit::bytes)
             .help("Bytes on the wire over all ranks"),
         out("steps", NAPKIN_FIELD(Out, steps), "Sequential steps")
             .help("Sequential communication steps, each paying the latency"),
         out("bandwidth_time", NAPKIN_FIELD(Out, bandwidth_time), "Bandwidth term", unit::seconds)
             .help("Bytes per rank ÷ bandwidth"),
         out("latency_time", NAPKIN_FIELD(Out, latency_time), "Latency term", unit::seconds)
             .help("Steps × latency"),
         out("time", NAPKIN_FIELD(Out, time), "Time", unit::seconds)
             .help("Latency term + bandwidth term (α–β model)"),
         out("regime", NAPKIN_FIELD(Out, regime), "Regime").help("Which term dominates"),
         out("algorithm_bandwidth", NAPKIN_FIELD(Out, algorithm_bandwidth),
             "Algorithm bandwidth (P/T)", unit::bytes_per_s)
             .help("Message size ÷ time, as nccl-tests report it"),
         out("bus_bandwidth", NAPKIN_FIELD(Out, bus_bandwidth), "Bus bandwidth", unit::bytes_per_s)
             .help("Algorithm bandwidth × the collective's factor: comparable with link speed"),
         out("crossover_bytes", NAPKIN_FIELD(Out, crossover_bytes), "Latency = bandwidth at",
             unit::bytes)
             .help("Message size where the latency and bandwidth terms are equal"),
         out("algorithm_used", NAPKIN_FIELD(Out, algorithm_used), "Algorithm used")
             .help("The algorithm timed: ring, tree, in-switch reduction, or two tiers"),
         out("ring_time", NAPKIN_FIELD(Out, ring_time), "Time on a ring", unit::seconds)
             .help("The same collective on a ring, for comparison")}));
  }
  {
    using In = ParallelismIn;
    using Out = ParallelismOut;
    r.add(declare<comm_parallelism>(
        {"comm.parallelism", "Communication volume of DP, FSDP, TP and PP", "comm",
         "Per-step bytes, operation counts and times of data, fully sharded, tensor and pipeline "
         "parallelism — logical and physical, exact and the worked examples' approximations.",
         "Narayanan et al. 2021 §3.3; Shoeybi et al. 2019 §3; Rajbhandari et al. 2020 §7",
         "docs/communication.md#commparallelism"},
        {num("params", NAPKIN_FIELD(In, params), "Parameters P", unit::params)
             .help("Model size N: the number of trainable parameters")
             .positive(kMaxParams),
         num("grad_bytes", NAPKIN_FIELD(In, grad_bytes), "Bytes per gradient", unit::bytes)
             .positive(16)
             .help("2 for BF16, 4 for FP32; 1 counts elements (the worked examples' convention)"),
         num("batch", NAPKIN_FIELD(In, batch), "Batch B (sequences per model replica)")
             .help("Sequences per model replica per step")
             .positive(1e7)
             .integer(),
         num("seq_len", NAPKIN_FIELD(In, seq_len), "Sequence length S", unit::tokens)
             .help("Tokens per sequence")
             .positive(1e8)
             .integer(),
         num("d_model", NAPKIN_FIELD(In, d_model), "Hidden size H")
             .help("Hidden size of the residual stream")
             .positive(1e6)
             .integer(),
         num("n_layers", NAPKIN_FIELD(In, n_layers), "Layers L")
             .help("Transformer blocks")
             .positive(1e5)
             .integer(),
         num("activation_bytes", NAPKIN_FIELD(In, activation_bytes), "Bytes per activation",
             unit::bytes)
             .positive(16)
             .help("2 for BF16; 1 counts elements as bytes (a worked example's TP numbers)"),
         num("tp", NAPKIN_FIELD(In, tp), "Tensor-parallel size")
             .help("Tensor-parallel degree")
             .positive(1e4)
             .integer(),
         num("pp", NAPKIN_FIELD(In, pp), "Pipeline stages")
             .help("Pipeline stages")
             .positive(1e4)
             .integer(),
         num("dp", NAPKIN_FIELD(In, dp), "Data-parallel size")
             .help("Data-parallel replicas")
             .positive(kMaxRanks)
             .integer(),
         num("microbatches", NAPKIN_FIELD(In, microbatches), "Microbatches M")
             .help("Micro-batches per step (pipeline)")
             .positive(1e6)
             .integer(),
         num("bandwidth", NAPKIN_FIELD(In, bandwidth), "Link bandwidth (0 = volumes only)",
             unit::bytes_per_s)
             .help("Per-rank link bandwidth, one direction; 0 gives volumes only")
             .range(0, kMaxBw),
         num("latency", NAPKIN_FIELD(In, latency), "Latency per step", unit::seconds)
             .help("Fixed cost of one communication step")
             .range(0, 10),
         choice("recompute", NAPKIN_FIELD(In, recompute), "Activation recomputation",
                "none|selective|full")
             .help("Full recomputation re-runs each layer's forward in backward, its TP "
                   "all-reduces too; selective re-runs only attention, with no collective")
             .labels("None|Selective (attention only)|Full"),
         choice("algorithm", NAPKIN_FIELD(In, algorithm), "Collective algorithm", "ring|auto|tree")
             .help("Ring, as the worked examples assume; auto picks the faster of ring and tree "
                   "for each collective")
             .labels("Ring|Auto (fastest)|Tree")},
        {out("dp_bytes", NAPKIN_FIELD(Out, dp_bytes), "DP per step (2P)", unit::bytes)
             .help("Gradient all-reduce, the 2P rule"),
         out("dp_bytes_exact", NAPKIN_FIELD(Out, dp_bytes_exact), "DP exact 2P(N−1)/N", unit::bytes)
             .help("Ring all-reduce per rank: 2P(N − 1)/N"),
         out("dp_bytes_per_device", NAPKIN_FIELD(Out, dp_bytes_per_device),
             "DP per device (TP×PP shard)", unit::bytes)
             .help("The same for the 1/(TP × PP) shard one device holds"),
         out("dp_total_traffic", NAPKIN_FIELD(Out, dp_total_traffic), "DP traffic, all ranks",
             unit::bytes)
             .help("Over all data-parallel ranks"),
         out("dp_total_traffic_approx", NAPKIN_FIELD(Out, dp_total_traffic_approx),
             "DP traffic, all ranks (2P·N)", unit::bytes)
             .help("2P × N"),
         out("fsdp_bytes", NAPKIN_FIELD(Out, fsdp_bytes), "FSDP per step (3P)", unit::bytes)
             .help("All-gathers and reduce-scatter: 3P"),
         out("fsdp_bytes_exact", NAPKIN_FIELD(Out, fsdp_bytes_exact), "FSDP exact", unit::bytes)
             .help("3P(N − 1)/N per rank"),
         out("tp_bytes_per_layer", NAPKIN_FIELD(Out, tp_bytes_per_layer), "TP per layer (8BSH)",
             unit::bytes)
             .help("Four all-reduces of B·S·H per layer on a ring: 8BSH"),
         out("tp_bytes_per_layer_exact", NAPKIN_FIELD(Out, tp_bytes_per_layer_exact),
             "TP per layer, exact", unit::bytes)
             .help("8BSH(t − 1)/t"),
         out("tp_logical_bytes_per_layer", NAPKIN_FIELD(Out, tp_logical_bytes_per_layer),
             "TP logical per layer (4BSH)", unit::bytes)
             .help("The data the all-reduces carry: 4BSH"),
         out("tp_bytes", NAPKIN_FIELD(Out, tp_bytes), "TP per step", unit::bytes)
             .help("Per layer × layers (× 6/4 under full recomputation: the forward runs twice)"),
         out("tp_recompute_bytes", NAPKIN_FIELD(Out, tp_recompute_bytes),
             "TP bytes of the recomputed forward", unit::bytes)
             .help("Exact bytes the recomputed forward's all-reduces add per step (full "
                   "recomputation only)"),
         out("tp_bytes_exact", NAPKIN_FIELD(Out, tp_bytes_exact), "TP per step, exact", unit::bytes)
             .help("Exact per layer × layers"),
         out("tp_logical_bytes", NAPKIN_FIELD(Out, tp_logical_bytes), "TP logical per step",
             unit::bytes)
             .help("Logical per layer × layers"),
         out("pp_bytes_per_boundary", NAPKIN_FIELD(Out, pp_bytes_per_boundary), "PP per boundary",
             unit::bytes)
             .help("Activations B·S·H sent across one stage boundary"),
         out("pp_bytes", NAPKIN_FIELD(Out, pp_bytes), "PP, all boundaries", unit::bytes)
             .help("Over the N − 1 boundaries, one direction"),
         out("pp_bytes_per_device", NAPKIN_FIELD(Out, pp_bytes_per_device),
             "PP per device (fwd + bwd)", unit::bytes)
             .help("Activations forward + gradients backward"),
         out("dp_ops", NAPKIN_FIELD(Out, dp_ops), "DP collectives")
             .help("Collectives per step for DP"),
         out("fsdp_ops", NAPKIN_FIELD(Out, fsdp_ops), "FSDP collectives")
             .help("Collectives per step for FSDP (3 per layer)"),
         out("tp_ops", NAPKIN_FIELD(Out, tp_ops), "TP all-reduces")
             .help("All-reduces per step for TP (4 per layer; 6 with full recomputation)"),
         out("pp_ops", NAPKIN_FIELD(Out, pp_ops), "PP sends").help("Sends per step for PP"),
         out("dp_time", NAPKIN_FIELD(Out, dp_time), "DP time", unit::seconds)
             .optional()
             .help("Latency plus bytes over the link; shown when a link bandwidth is given"),
         out("fsdp_time", NAPKIN_FIELD(Out, fsdp_time), "FSDP time", unit::seconds)
             .optional()
             .help("Latency plus bytes over the link; shown when a link bandwidth is given"),
         out("tp_time", NAPKIN_FIELD(Out, tp_time), "TP time", unit::seconds)
             .optional()
             .help("Latency plus bytes over the link; shown when a link bandwidth is given"),
         out("pp_time", NAPKIN_FIELD(Out, pp_time), "PP time", unit::seconds)
             .optional()
             .help("Latency plus bytes over the link; shown when a link bandwidth is given")}));
  }
  {
    using In = ZeroIn;
    using Out = ZeroOut;
    r.add(declare<comm_zero>(
        {"comm.zero", "ZeRO communication per step", "comm",
         "A worked example's ZeRO-1/2/3 communication cost model side by side with the ZeRO "
         "paper's "
         "volumes.",
         "Rajbhandari et al. 2020 (ZeRO) §7.2", "docs/communication.md#commzero"},
        {num("params", NAPKIN_FIELD(In, params), "Parameters", unit::params)
             .help("Model size N: the number of trainable parameters")
             .positive(kMaxParams),
         num("n_layers", NAPKIN_FIELD(In, n_layers), "Layers")
             .help("Transformer blocks (ZeRO-3 gathers per layer)")
             .positive(1e5)
             .integer(),
         num("dp", NAPKIN_FIELD(In, dp), "Data-parallel ranks N")
             .help("Data-parallel ranks the states are sharded over")
             .range(2, kMaxRanks)
             .integer(),
         num("zero_stage", NAPKIN_FIELD(In, zero_stage), "ZeRO stage")
             .help("1 shards optimizer states, 2 also gradients, 3 also weights")
             .range(0, 3)
             .integer(),
         num("bytes", NAPKIN_FIELD(In, bytes), "Bytes per value", unit::bytes)
             .help("Bytes per communicated value")
             .positive(16),
         num("bandwidth", NAPKIN_FIELD(In, bandwidth), "Link bandwidth", unit::bytes_per_s)
             .help("Per-rank link bandwidth")
             .positive(kMaxBw),
         num("latency", NAPKIN_FIELD(In, latency), "Latency per collective", unit::seconds)
             .help("Fixed cost of one collective")
             .range(0, 10)},
        {out("collective", NAPKIN_FIELD(Out, collective), "Collective")
             .help("The collective this stage uses"),
         out("bytes", NAPKIN_FIELD(Out, bytes), "Bytes per rank (worked example's model)",
             unit::bytes)
             .help("Bytes per rank per step as the worked example counts them"),
         out("time", NAPKIN_FIELD(Out, time), "Time per step (worked example's model)",
             unit::seconds)
             .help("Time per step in the worked example's model"),
         out("time_per_layer", NAPKIN_FIELD(Out, time_per_layer), "Time per layer", unit::seconds)
             .help("ZeRO-3: time of one layer's gather and scatter"),
         out("collectives", NAPKIN_FIELD(Out, collectives), "Collectives per step")
             .help("Collectives per step"),
         out("bytes_paper", NAPKIN_FIELD(Out, bytes_paper), "Bytes per rank (ZeRO paper)",
             unit::bytes)
             .help("Bytes per rank from the ZeRO paper's volumes"),
         out("time_paper", NAPKIN_FIELD(Out, time_paper), "Time (ZeRO paper volume, ring)",
             unit::seconds)
             .help("Time for the paper's volume on a ring")}));
  }
}

}  // namespace napkin
