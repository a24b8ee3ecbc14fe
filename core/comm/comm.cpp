#include "comm/comm.hpp"

#include <cmath>

#include "base/units.hpp"
#include "registry/areas.hpp"

namespace napkin {

namespace {

// Below this much traffic per link a bandwidth of 0 means "no time asked for".
bool has_link(double bandwidth) {
  return bandwidth > 0;
}

}  // namespace

// α–β model (Hockney 1994; Thakur, Rabenseifner & Gropp 2005, "Optimization of Collective
// Communication Operations in MPICH", §2): time = steps·α + bytes_per_rank/β.
// Bytes per rank for the ring algorithms are NCCL's bus-bandwidth factors (nccl-tests
// doc/PERFORMANCE.md "Summary"): all-reduce 2(n−1)/n, all-gather and reduce-scatter (n−1)/n,
// all-to-all (n−1)/n, broadcast 1. Ring all-reduce = reduce-scatter + all-gather, each n−1
// sequential steps, hence 2(n−1) latency steps (seed 003 "How").
Result<CollectiveOut> comm_collective(const CollectiveIn& in, Derivation& d) {
  CollectiveOut o{};
  const double p = in.bytes, n = in.ranks;
  const bool tree = in.algorithm == "tree";
  if (in.op != "p2p" && n < 2)
    return Error::inconsistent("ranks", n, "a collective needs at least 2 ranks");
  if (tree && in.op != "all_reduce" && in.op != "broadcast") {
    const std::string what = "the tree algorithm is modelled for all_reduce and broadcast only";
    return Error{"inconsistent", "algorithm", "algorithm = tree: " + what + " (op = " + in.op + ")",
                 Json("tree"), what};
  }
  double factor = 1, approx = 1, total_links = n;
  const char* factor_tex = "1";
  if (in.op == "all_reduce") {
    factor = 2 * (n - 1) / n, approx = 2, factor_tex = "\\frac{2($N - 1)}{$N}";
    o.steps = tree ? 2 * std::ceil(std::log2(n)) : 2 * (n - 1);
  } else if (in.op == "all_gather" || in.op == "reduce_scatter" || in.op == "all_to_all") {
    factor = (n - 1) / n, factor_tex = "\\frac{$N - 1}{$N}";
    o.steps = n - 1;
  } else if (in.op == "broadcast") {
    // Pipelined ring broadcast: every rank but the root receives P once; the root's link is
    // the bottleneck (nccl-tests PERFORMANCE.md, Broadcast: t = S/B).
    o.steps = tree ? std::ceil(std::log2(n)) : n - 1;
    total_links = n - 1;
  } else {  // p2p: one send between two ranks
    o.steps = 1, total_links = 1;
  }
  if (tree && in.op == "all_reduce") factor = 2, factor_tex = "2";  // up and down the tree
  o.bytes_per_rank = factor * p;
  o.bytes_per_rank_approx = approx * p;
  o.total_bytes = o.bytes_per_rank * total_links;
  std::string rhs = std::string(factor_tex) + " \\cdot $P";
  d.step("Bytes each rank sends (exact)", "V_{\\text{rank}}", rhs,
         {{"P", "P", p, unit::bytes}, {"N", "N", n}}, o.bytes_per_rank, unit::bytes);
  if (approx != factor)
    d.step("The large-N approximation", "V_{\\text{approx}}", approx == 2 ? "2 $P" : "$P",
           {{"P", "P", p, unit::bytes}}, o.bytes_per_rank_approx, unit::bytes);
  d.step("Traffic summed over all ranks (switch / bisection load)", "V_{\\text{total}}",
         "$V \\cdot $k",
         {{"V", "V_{\\text{rank}}", o.bytes_per_rank, unit::bytes}, {"k", "k", total_links}},
         o.total_bytes, unit::bytes);
  o.latency_time = o.steps * in.latency;
  d.step(tree ? "Latency: tree depth, up and down" : "Latency: sequential ring steps",
         "T_{\\alpha}", "$s \\cdot $a",
         {{"s", "s", o.steps}, {"a", "\\alpha", in.latency, unit::seconds}}, o.latency_time,
         unit::seconds);
  o.bandwidth_time = o.bytes_per_rank / in.bandwidth;
  d.step("Bandwidth term", "T_{\\beta}", "\\frac{$V}{$B}",
         {{"V", "V_{\\text{rank}}", o.bytes_per_rank, unit::bytes},
          {"B", "\\beta", in.bandwidth, unit::bytes_per_s}},
         o.bandwidth_time, unit::seconds);
  o.time = o.latency_time + o.bandwidth_time;
  d.step("Collective time", "T", "$A + $B",
         {{"A", "T_{\\alpha}", o.latency_time, unit::seconds},
          {"B", "T_{\\beta}", o.bandwidth_time, unit::seconds}},
         o.time, unit::seconds);
  o.regime = o.latency_time > o.bandwidth_time ? "latency" : "bandwidth";
  d.note("Regime", o.regime == "latency"
                       ? "Latency-bound: the step count dominates. Fewer, larger messages (or a "
                         "lower-latency link) help; more bandwidth barely does."
                       : "Bandwidth-bound: bytes over the link dominate. A faster link helps; "
                         "shaving latency barely does.");
  o.algorithm_bandwidth = o.time > 0 ? p / o.time : 0;
  o.bus_bandwidth = o.time > 0 ? o.bytes_per_rank / o.time : 0;
  d.step(
      "Bus bandwidth (what nccl-tests reports as busbw)", "\\text{busbw}", "\\frac{$V}{$T}",
      {{"V", "V_{\\text{rank}}", o.bytes_per_rank, unit::bytes}, {"T", "T", o.time, unit::seconds}},
      o.bus_bandwidth, unit::bytes_per_s);
  const double f = o.bytes_per_rank > 0 ? factor : 0;
  o.crossover_bytes = f > 0 ? o.latency_time * in.bandwidth / f : 0;
  if (f > 0)
    d.step("Message size where latency and bandwidth terms are equal", "P^{*}",
           "\\frac{$A \\cdot $B}{$f}",
           {{"A", "T_{\\alpha}", o.latency_time, unit::seconds},
            {"B", "\\beta", in.bandwidth, unit::bytes_per_s},
            {"f", "f", f}},
           o.crossover_bytes, unit::bytes);
  return o;
}

// Per-step communication of the four parallelisms (seed 000 §1, seed 002 §3–4 and §11).
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
      o.dp_time = 2 * (dp - 1) * in.latency + o.dp_bytes_per_device / in.bandwidth;
      d.step("DP time per step", "T_{DP}", "2($N - 1) \\cdot $a + \\frac{$V}{$B}",
             {{"N", "N_{dp}", dp},
              {"a", "\\alpha", in.latency, unit::seconds},
              {"V", "V_{DP}^{\\text{dev}}", o.dp_bytes_per_device, unit::bytes},
              {"B", "\\beta", in.bandwidth, unit::bytes_per_s}},
             o.dp_time, unit::seconds);
      o.fsdp_time = o.fsdp_ops * (dp - 1) * in.latency + o.fsdp_bytes_exact * shard / in.bandwidth;
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
    o.tp_logical_bytes = o.tp_logical_bytes_per_layer * L;
    o.tp_bytes = o.tp_bytes_per_layer * L;
    o.tp_bytes_exact = o.tp_bytes_per_layer_exact * L;
    d.step("TP physical over all layers", "V_{TP}^{\\text{step}}", "$V \\cdot $L",
           {{"V", "V_{TP}", o.tp_bytes_per_layer, unit::bytes}, {"L", "L", L}}, o.tp_bytes,
           unit::bytes);
    o.tp_ops = 4 * L;
    d.step("TP all-reduces per step", "n_{TP}", "4 \\cdot $L", {{"L", "L", L}}, o.tp_ops,
           unit::none);
    if (pp > 1)
      d.note("Pipeline stages",
             "With pp stages a device runs only n_layers/pp of these layers: "
             "divide the TP step totals by pp for one device.");
    if (link) {
      o.tp_time = o.tp_ops * 2 * (tp - 1) * in.latency + o.tp_bytes_exact / in.bandwidth;
      d.step("TP time per step", "T_{TP}", "$n \\cdot 2($t - 1) \\cdot $a + \\frac{$V}{$B}",
             {{"n", "n_{TP}", o.tp_ops},
              {"t", "t", tp},
              {"a", "\\alpha", in.latency, unit::seconds},
              {"V", "V_{TP}^{\\text{exact}} L", o.tp_bytes_exact, unit::bytes},
              {"B", "\\beta", in.bandwidth, unit::bytes_per_s}},
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
      o.pp_time = 2 * M * in.latency + o.pp_bytes_per_device / in.bandwidth;
      d.step("PP send time of one middle stage", "T_{PP}", "2 $M \\cdot $a + \\frac{$V}{$B}",
             {{"M", "M", M},
              {"a", "\\alpha", in.latency, unit::seconds},
              {"V", "V_{PP}^{\\text{dev}}", o.pp_bytes_per_device, unit::bytes},
              {"B", "\\beta", in.bandwidth, unit::bytes_per_s}},
             o.pp_time, unit::seconds);
    }
  }
  if (!link) d.note("Times", "Give a link bandwidth (and latency) to turn volumes into times.");
  return o;
}

// Seed 001 `analyze_fsdp_communication`: each collective costs one latency plus its bytes over
// the bandwidth. ZeRO-0/1: all-reduce of BF16 gradients counted as 2P; ZeRO-2: one
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
  if (stage <= 2) {
    o.bytes_paper = 2 * f * P;
    o.time_paper = 2 * (n - 1) * a + o.bytes_paper / in.bandwidth;
  } else {
    o.bytes_paper = 3 * f * P;
    o.time_paper = 3 * L * (n - 1) * a + o.bytes_paper / in.bandwidth;
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
    r.add(declare<In, Out>(
        {"comm.collective", "Collective communication time", "comm",
         "Bytes each rank sends, total traffic, latency and bandwidth terms of a collective "
         "(all-reduce, all-gather, reduce-scatter, all-to-all, broadcast, p2p) on N ranks.",
         "nccl-tests doc/PERFORMANCE.md (bus-bandwidth factors); Thakur et al. 2005 (α–β "
         "model)",
         "docs/communication.md#commcollective"},
        {choice("op", &In::op, "Operation",
                {"all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "p2p"})
             .help("The collective: how data moves between the ranks")
             .labels({"All-reduce", "All-gather", "Reduce-scatter", "All-to-all", "Broadcast",
                      "Point-to-point send"}),
         num("bytes", &In::bytes, "Message size P", unit::bytes)
             .positive(kMaxBytes)
             .help("The full tensor; for all-gather the gathered result, for reduce-scatter "
                   "the input before scattering"),
         num("ranks", &In::ranks, "Ranks N").help("GPUs taking part").positive(kMaxRanks).integer(),
         num("bandwidth", &In::bandwidth, "Link bandwidth per rank (one direction)",
             unit::bytes_per_s)
             .help("Per-rank bandwidth in one direction (vendor totals are often both directions)")
             .positive(kMaxBw),
         num("latency", &In::latency, "Latency per step α", unit::seconds)
             .help("Fixed cost of one step of the algorithm")
             .range(0, 10),
         choice("algorithm", &In::algorithm, "Algorithm", {"ring", "tree"})
             .help("Ring: N − 1 steps; tree: about log₂ N steps")
             .labels({"Ring", "Tree"})},
        {out("bytes_per_rank", &Out::bytes_per_rank, "Bytes per rank (exact)", unit::bytes)
             .help("Bytes each rank sends, exactly, for this collective"),
         out("bytes_per_rank_approx", &Out::bytes_per_rank_approx, "Bytes per rank (≈ 2P / P)",
             unit::bytes)
             .help("The large-N approximation"),
         out("total_bytes", &Out::total_bytes, "Total traffic, all ranks", unit::bytes)
             .help("Bytes on the wire over all ranks"),
         out("steps", &Out::steps, "Sequential steps")
             .help("Sequential communication steps, each paying the latency"),
         out("bandwidth_time", &Out::bandwidth_time, "Bandwidth term", unit::seconds)
             .help("Bytes per rank ÷ bandwidth"),
         out("latency_time", &Out::latency_time, "Latency term", unit::seconds)
             .help("Steps × latency"),
         out("time", &Out::time, "Time", unit::seconds)
             .help("Latency term + bandwidth term (α–β model)"),
         out("regime", &Out::regime, "Regime").help("Which term dominates"),
         out("algorithm_bandwidth", &Out::algorithm_bandwidth, "Algorithm bandwidth (P/T)",
             unit::bytes_per_s)
             .help("Message size ÷ time, as nccl-tests report it"),
         out("bus_bandwidth", &Out::bus_bandwidth, "Bus bandwidth", unit::bytes_per_s)
             .help("Algorithm bandwidth × the collective's factor: comparable with link speed"),
         out("crossover_bytes", &Out::crossover_bytes, "Latency = bandwidth at", unit::bytes)
             .help("Message size where the latency and bandwidth terms are equal")},
        &comm_collective));
  }
  {
    using In = ParallelismIn;
    using Out = ParallelismOut;
    r.add(declare<In, Out>(
        {"comm.parallelism", "Communication volume of DP, FSDP, TP and PP", "comm",
         "Per-step bytes, operation counts and times of data, fully sharded, tensor and pipeline "
         "parallelism — logical and physical, exact and the worked examples' approximations.",
         "Narayanan et al. 2021 §3.3; Shoeybi et al. 2019 §3; Rajbhandari et al. 2020 §7",
         "docs/communication.md#commparallelism"},
        {num("params", &In::params, "Parameters P", unit::params)
             .help("Model size N: the number of trainable parameters")
             .positive(kMaxParams),
         num("grad_bytes", &In::grad_bytes, "Bytes per gradient", unit::bytes)
             .positive(16)
             .help("2 for BF16, 4 for FP32; 1 counts elements (the worked examples' convention)"),
         num("batch", &In::batch, "Batch B (sequences per model replica)")
             .help("Sequences per model replica per step")
             .positive(1e7)
             .integer(),
         num("seq_len", &In::seq_len, "Sequence length S", unit::tokens)
             .help("Tokens per sequence")
             .positive(1e8)
             .integer(),
         num("d_model", &In::d_model, "Hidden size H")
             .help("Hidden size of the residual stream")
             .positive(1e6)
             .integer(),
         num("n_layers", &In::n_layers, "Layers L")
             .help("Transformer blocks")
             .positive(1e5)
             .integer(),
         num("activation_bytes", &In::activation_bytes, "Bytes per activation", unit::bytes)
             .positive(16)
             .help("2 for BF16; 1 counts elements as bytes (a worked example's TP numbers)"),
         num("tp", &In::tp, "Tensor-parallel size")
             .help("Tensor-parallel degree")
             .positive(1e4)
             .integer(),
         num("pp", &In::pp, "Pipeline stages").help("Pipeline stages").positive(1e4).integer(),
         num("dp", &In::dp, "Data-parallel size")
             .help("Data-parallel replicas")
             .positive(kMaxRanks)
             .integer(),
         num("microbatches", &In::microbatches, "Microbatches M")
             .help("Micro-batches per step (pipeline)")
             .positive(1e6)
             .integer(),
         num("bandwidth", &In::bandwidth, "Link bandwidth (0 = volumes only)", unit::bytes_per_s)
             .help("Per-rank link bandwidth, one direction; 0 gives volumes only")
             .range(0, kMaxBw),
         num("latency", &In::latency, "Latency per step", unit::seconds)
             .help("Fixed cost of one communication step")
             .range(0, 10)},
        {out("dp_bytes", &Out::dp_bytes, "DP per step (2P)", unit::bytes)
             .help("Gradient all-reduce, the 2P rule"),
         out("dp_bytes_exact", &Out::dp_bytes_exact, "DP exact 2P(N−1)/N", unit::bytes)
             .help("Ring all-reduce per rank: 2P(N − 1)/N"),
         out("dp_bytes_per_device", &Out::dp_bytes_per_device, "DP per device (TP×PP shard)",
             unit::bytes)
             .help("The same for the 1/(TP × PP) shard one device holds"),
         out("dp_total_traffic", &Out::dp_total_traffic, "DP traffic, all ranks", unit::bytes)
             .help("Over all data-parallel ranks"),
         out("dp_total_traffic_approx", &Out::dp_total_traffic_approx,
             "DP traffic, all ranks (2P·N)", unit::bytes)
             .help("2P × N"),
         out("fsdp_bytes", &Out::fsdp_bytes, "FSDP per step (3P)", unit::bytes)
             .help("All-gathers and reduce-scatter: 3P"),
         out("fsdp_bytes_exact", &Out::fsdp_bytes_exact, "FSDP exact", unit::bytes)
             .help("3P(N − 1)/N per rank"),
         out("tp_bytes_per_layer", &Out::tp_bytes_per_layer, "TP per layer (8BSH)", unit::bytes)
             .help("Four all-reduces of B·S·H per layer on a ring: 8BSH"),
         out("tp_bytes_per_layer_exact", &Out::tp_bytes_per_layer_exact, "TP per layer, exact",
             unit::bytes)
             .help("8BSH(t − 1)/t"),
         out("tp_logical_bytes_per_layer", &Out::tp_logical_bytes_per_layer,
             "TP logical per layer (4BSH)", unit::bytes)
             .help("The data the all-reduces carry: 4BSH"),
         out("tp_bytes", &Out::tp_bytes, "TP per step", unit::bytes).help("Per layer × layers"),
         out("tp_bytes_exact", &Out::tp_bytes_exact, "TP per step, exact", unit::bytes)
             .help("Exact per layer × layers"),
         out("tp_logical_bytes", &Out::tp_logical_bytes, "TP logical per step", unit::bytes)
             .help("Logical per layer × layers"),
         out("pp_bytes_per_boundary", &Out::pp_bytes_per_boundary, "PP per boundary", unit::bytes)
             .help("Activations B·S·H sent across one stage boundary"),
         out("pp_bytes", &Out::pp_bytes, "PP, all boundaries", unit::bytes)
             .help("Over the N − 1 boundaries, one direction"),
         out("pp_bytes_per_device", &Out::pp_bytes_per_device, "PP per device (fwd + bwd)",
             unit::bytes)
             .help("Activations forward + gradients backward"),
         out("dp_ops", &Out::dp_ops, "DP collectives").help("Collectives per step for DP"),
         out("fsdp_ops", &Out::fsdp_ops, "FSDP collectives")
             .help("Collectives per step for FSDP (3 per layer)"),
         out("tp_ops", &Out::tp_ops, "TP all-reduces")
             .help("All-reduces per step for TP (4 per layer)"),
         out("pp_ops", &Out::pp_ops, "PP sends").help("Sends per step for PP"),
         out("dp_time", &Out::dp_time, "DP time", unit::seconds)
             .optional()
             .help("Latency plus bytes over the link; shown when a link bandwidth is given"),
         out("fsdp_time", &Out::fsdp_time, "FSDP time", unit::seconds)
             .optional()
             .help("Latency plus bytes over the link; shown when a link bandwidth is given"),
         out("tp_time", &Out::tp_time, "TP time", unit::seconds)
             .optional()
             .help("Latency plus bytes over the link; shown when a link bandwidth is given"),
         out("pp_time", &Out::pp_time, "PP time", unit::seconds)
             .optional()
             .help("Latency plus bytes over the link; shown when a link bandwidth is given")},
        &comm_parallelism));
  }
  {
    using In = ZeroIn;
    using Out = ZeroOut;
    r.add(declare<In, Out>(
        {"comm.zero", "ZeRO communication per step", "comm",
         "A worked example's ZeRO-1/2/3 communication cost model side by side with the ZeRO "
         "paper's "
         "volumes.",
         "Rajbhandari et al. 2020 (ZeRO) §7.2", "docs/communication.md#commzero"},
        {num("params", &In::params, "Parameters", unit::params)
             .help("Model size N: the number of trainable parameters")
             .positive(kMaxParams),
         num("n_layers", &In::n_layers, "Layers")
             .help("Transformer blocks (ZeRO-3 gathers per layer)")
             .positive(1e5)
             .integer(),
         num("dp", &In::dp, "Data-parallel ranks N")
             .help("Data-parallel ranks the states are sharded over")
             .range(2, kMaxRanks)
             .integer(),
         num("zero_stage", &In::zero_stage, "ZeRO stage")
             .help("1 shards optimizer states, 2 also gradients, 3 also weights")
             .range(0, 3)
             .integer(),
         num("bytes", &In::bytes, "Bytes per value", unit::bytes)
             .help("Bytes per communicated value")
             .positive(16),
         num("bandwidth", &In::bandwidth, "Link bandwidth", unit::bytes_per_s)
             .help("Per-rank link bandwidth")
             .positive(kMaxBw),
         num("latency", &In::latency, "Latency per collective", unit::seconds)
             .help("Fixed cost of one collective")
             .range(0, 10)},
        {out("collective", &Out::collective, "Collective").help("The collective this stage uses"),
         out("bytes", &Out::bytes, "Bytes per rank (worked example's model)", unit::bytes)
             .help("Bytes per rank per step as the worked example counts them"),
         out("time", &Out::time, "Time per step (worked example's model)", unit::seconds)
             .help("Time per step in the worked example's model"),
         out("time_per_layer", &Out::time_per_layer, "Time per layer", unit::seconds)
             .help("ZeRO-3: time of one layer's gather and scatter"),
         out("collectives", &Out::collectives, "Collectives per step").help("Collectives per step"),
         out("bytes_paper", &Out::bytes_paper, "Bytes per rank (ZeRO paper)", unit::bytes)
             .help("Bytes per rank from the ZeRO paper's volumes"),
         out("time_paper", &Out::time_paper, "Time (ZeRO paper volume, ring)", unit::seconds)
             .help("Time for the paper's volume on a ring")},
        &comm_zero));
  }
}

}  // namespace napkin
