// The TP bill (docs/communication.md, comm.tp_step), the expert-parallel all-to-all bill, the
// roofline, and the charts and worked-example scenarios of the communication area.
#include <algorithm>
#include <cmath>

#include "base/units.hpp"
#include "comm/comm.hpp"
#include "scenario/accelerator_inputs.hpp"
#include "scenario/cluster.hpp"
#include "scenario/collective.hpp"

namespace napkin {

// The study notes' TP model: payload = batch_tokens × hidden × dtype_bytes, all-reduced
// allreduces_per_layer × layers times per step (Megatron: after the attention out-projection
// and the MLP down-projection, Shoeybi et al. 2019 §3). Each all-reduce is timed by the shared
// collective_time (core/scenario/collective.cpp): a ring moves 2(N−1)/N × payload per rank
// over 2(N−1) sequential hops (nccl-tests PERFORMANCE.md, AllReduce); a tree or in-switch
// reduction where faster.
Result<TpStepOut> comm_tp_step(const TpStepIn& in, Derivation& d) {
  TpStepOut o{};
  const double n = in.tp;
  if (in.algorithm == "in_switch" && !in.in_switch_reduction)
    return Error{"inconsistent", "algorithm",
                 "algorithm = in_switch needs a switch that reduces (in_switch_reduction on)",
                 Json("in_switch"), "ring, tree or auto on this link"};
  o.payload_bytes = in.tokens * in.hidden * in.dtype_bytes;
  d.step("All-reduce payload: one activation row per token", "P", "$t \\cdot $h \\cdot $b",
         {{"t", "\\text{tokens}", in.tokens},
          {"h", "h", in.hidden},
          {"b", "b", in.dtype_bytes, unit::bytes}},
         o.payload_bytes, unit::bytes);
  const Tier link{"link", "link", "", in.bandwidth, in.latency, in.in_switch_reduction};
  const Algorithm algo = in.algorithm == "ring"        ? Algorithm::Ring
                         : in.algorithm == "tree"      ? Algorithm::Tree
                         : in.algorithm == "in_switch" ? Algorithm::InSwitch
                                                       : Algorithm::Auto;
  const CollectiveCost one =
      collective_time(Collective::AllReduce, o.payload_bytes, static_cast<int>(n), link, algo);
  const char* used = one.used == Algorithm::InSwitch ? "in-switch reduction"
                     : one.used == Algorithm::Tree   ? "tree"
                                                     : "ring";
  o.bytes_per_rank = one.bytes_per_rank;
  if (one.used == Algorithm::Ring)
    d.step("Ring traffic per rank per all-reduce", "V", "\\frac{2($N - 1)}{$N} \\cdot $P",
           {{"N", "N", n}, {"P", "P", o.payload_bytes, unit::bytes}}, o.bytes_per_rank,
           unit::bytes);
  else
    d.step(std::string("Traffic per rank per all-reduce (") + used + ")", "V", "V", {},
           o.bytes_per_rank, unit::bytes);
  o.allreduces = n > 1 ? in.allreduces_per_layer * in.layers : 0;
  d.step("All-reduces per step", "k", "$a \\cdot $L",
         {{"a", "a", in.allreduces_per_layer}, {"L", "L", in.layers}}, o.allreduces, unit::none);
  o.latency_time = o.allreduces * one.latency_time;
  d.step(std::string("Latency: ") + used + " steps per all-reduce × latency", "T_{\\alpha}",
         "$k \\cdot $s \\cdot $a",
         {{"k", "k", o.allreduces},
          {"s", "s", one.steps},
          {"a", "\\alpha", in.latency, unit::seconds}},
         o.latency_time, unit::seconds);
  o.bandwidth_time = o.allreduces * one.bandwidth_time;
  d.step("Bandwidth: traffic over the link", "T_{\\beta}", "\\frac{$k \\cdot $V}{$B}",
         {{"k", "k", o.allreduces},
          {"V", "V", o.bytes_per_rank, unit::bytes},
          {"B", "\\beta", in.bandwidth, unit::bytes_per_s}},
         o.bandwidth_time, unit::seconds);
  o.comm_time = o.latency_time + o.bandwidth_time;
  d.step("Communication per step", "T_{\\text{comm}}", "$A + $B",
         {{"A", "T_{\\alpha}", o.latency_time, unit::seconds},
          {"B", "T_{\\beta}", o.bandwidth_time, unit::seconds}},
         o.comm_time, unit::seconds);
  o.regime = o.latency_time > o.bandwidth_time ? "latency" : "bandwidth";

  o.compute_time = in.compute_time;
  if (o.compute_time == 0 && in.params > 0) {
    // Roofline of one TP rank (Williams et al. 2009): stream its 1/N of the weights, or do its
    // 1/N of 2·params·tokens FLOPs, whichever is slower.
    const double mem = in.params * in.weight_bytes / (n * in.mem_bandwidth);
    const double flops = 2 * in.params * in.tokens / (n * in.peak_flops);
    o.compute_time = std::max(mem, flops);
    d.step("Compute per step (roofline of one rank)", "T_{\\text{comp}}",
           "\\max\\left(\\frac{$N_p \\cdot $w}{$n \\cdot $M}, \\frac{2 $N_p \\cdot $t}{$n \\cdot "
           "$F}\\right)",
           {{"N_p", "N", in.params, unit::params},
            {"w", "b_w", in.weight_bytes, unit::bytes},
            {"n", "N_{tp}", n},
            {"M", "BW_{mem}", in.mem_bandwidth, unit::bytes_per_s},
            {"t", "\\text{tokens}", in.tokens},
            {"F", "F_{peak}", in.peak_flops, unit::flops}},
           o.compute_time, unit::seconds);
  }
  double hidden = 0;
  if (in.overlap_model == "fraction") {
    // An overlap fraction of the communication hides under compute
    // (never more than the compute there is to hide under).
    hidden = std::min(in.overlap * o.comm_time, o.compute_time);
    if (in.overlap > 0)
      d.step("Hidden under compute (the fraction given)", "T_{\\text{hid}}",
             "\\min($o \\cdot $C, $K)",
             {{"o", "o", in.overlap, unit::fraction},
              {"C", "T_{\\text{comm}}", o.comm_time, unit::seconds},
              {"K", "T_{\\text{comp}}", o.compute_time, unit::seconds}},
             hidden, unit::seconds);
  } else {
    // Megatron-LM's default (megatron/core/tensor_parallel/layers.py,
    // LinearWithGradAccumulationAndAsyncCommunication): in backward, the input-gradient
    // all-reduce of each column-parallel layer is launched asynchronously before the
    // weight-gradient GEMM and waited for after it; the forward all-reduces block.
    // --tp-comm-overlap (Transformer Engine userbuffers, which also hides forward TP
    // communication) is off by default. So the all-reduces beyond the forward's 2 per layer
    // hide, up to the weight-gradient GEMMs' share of compute: one third of a training step
    // (forward, input gradient, weight gradient: 2 + 2 + 2 FLOPs per parameter per token).
    const double fwd = std::min(2.0, in.allreduces_per_layer);
    const double bwd_share =
        in.allreduces_per_layer > 0 ? (in.allreduces_per_layer - fwd) / in.allreduces_per_layer : 0;
    hidden = std::min(bwd_share * o.comm_time, o.compute_time / 3);
    if (bwd_share > 0)
      d.step("Hidden (Megatron-LM default): backward all-reduces under the weight-gradient GEMM",
             "T_{\\text{hid}}", "\\min\\left($f \\cdot $C, \\frac{$K}{3}\\right)",
             {{"f", "f_{\\text{bwd}}", bwd_share, unit::fraction},
              {"C", "T_{\\text{comm}}", o.comm_time, unit::seconds},
              {"K", "T_{\\text{comp}}", o.compute_time, unit::seconds}},
             hidden, unit::seconds);
    else
      d.note("Overlap",
             "Megatron-LM's default hides no forward all-reduce (and inference has "
             "no backward): all of it is exposed.");
  }
  o.exposed_comm_time = o.comm_time - hidden;
  if (hidden > 0)
    d.step("Exposed communication", "T_{\\text{exp}}", "$C - $H",
           {{"C", "T_{\\text{comm}}", o.comm_time, unit::seconds},
            {"H", "T_{\\text{hid}}", hidden, unit::seconds}},
           o.exposed_comm_time, unit::seconds);
  o.step_time = o.compute_time + o.exposed_comm_time;
  o.comm_fraction = o.step_time > 0 ? o.exposed_comm_time / o.step_time : 0;
  d.step("Share of the step spent communicating", "f", "\\frac{$E}{$K + $E}",
         {{"E", "T_{\\text{exp}}", o.exposed_comm_time, unit::seconds},
          {"K", "T_{\\text{comp}}", o.compute_time, unit::seconds}},
         o.comm_fraction, unit::fraction);
  d.note("Regime", o.regime == "latency"
                       ? "Latency-bound (decode-like): halving the per-hop latency helps more "
                         "than doubling bandwidth."
                       : "Bandwidth-bound (prefill-like): more link bandwidth helps more than "
                         "lower latency.");
  if (o.step_time > 0)
    d.note("Verdict", o.comm_fraction < 0.1 ? "Under 10% of the step: the communication is noise."
                      : o.comm_fraction > 0.4
                          ? "Over 40% of the step: TP over this link is fatal."
                          : "Between 10% and 40%: TP over this link is a real tax.");
  if (n == 1) d.note("No tensor parallelism", "tp = 1: nothing to all-reduce.");
  return o;
}

// Expert parallelism (Lepikhin et al. 2021, GShard §2.2): each token
// is dispatched to top_k experts and combined back, two all-to-alls per MoE layer. With
// uniform routing over ep ranks, (ep−1)/ep of the dispatched rows leave the rank
// (nccl-tests PERFORMANCE.md, AlltoAll factor (n−1)/n); pairwise exchange takes ep−1 steps.
Result<EpAlltoallOut> comm_ep_alltoall(const EpAlltoallIn& in, Derivation& d) {
  EpAlltoallOut o{};
  const double n = in.ep;
  if (in.top_k > in.experts)
    return Error::inconsistent("top_k", in.top_k,
                               "at most the experts (" + format_value(in.experts, "") + ")");
  o.expert_capacity = not_given;
  if (in.capacity_factor > 0) {
    // Fedus et al. 2022 (Switch Transformer), eq. 3: capacity = tokens ÷ experts × capacity
    // factor, per expert and batch; with k experts per token, k times that (DeepSpeed-MoE's
    // top-k gate: ⌈tokens·k·f ÷ E⌉). Dispatch buffers are padded to it, and tokens beyond it
    // dropped (passed on by the residual connection).
    o.expert_capacity = std::ceil(in.tokens * in.top_k * in.capacity_factor / in.experts);
    d.step("Expert capacity: rows each expert takes from this rank", "C",
           "\\left\\lceil \\frac{$t \\cdot $k \\cdot $f}{$E} \\right\\rceil",
           {{"t", "\\text{tokens}", in.tokens},
            {"k", "k", in.top_k},
            {"f", "f_{\\text{cap}}", in.capacity_factor},
            {"E", "E", in.experts}},
           o.expert_capacity, unit::tokens);
    o.payload_bytes = in.experts * o.expert_capacity * in.hidden * in.dtype_bytes;
    d.step("Rows dispatched by one rank per all-to-all, padded to capacity", "P",
           "$E \\cdot $C \\cdot $h \\cdot $b",
           {{"E", "E", in.experts},
            {"C", "C", o.expert_capacity, unit::tokens},
            {"h", "h", in.hidden},
            {"b", "b", in.dtype_bytes, unit::bytes}},
           o.payload_bytes, unit::bytes);
    if (in.capacity_factor < 1)
      d.warn("A capacity factor below 1 drops tokens even when routing is perfectly balanced.");
  } else {
    o.payload_bytes = in.tokens * in.top_k * in.hidden * in.dtype_bytes;
    d.step("Rows dispatched by one rank per all-to-all", "P", "$t \\cdot $k \\cdot $h \\cdot $b",
           {{"t", "\\text{tokens}", in.tokens},
            {"k", "k", in.top_k},
            {"h", "h", in.hidden},
            {"b", "b", in.dtype_bytes, unit::bytes}},
           o.payload_bytes, unit::bytes);
  }
  const Tier link{"link", "link", "", in.bandwidth, in.latency, false};
  const CollectiveCost one =
      collective_time(Collective::AllToAll, o.payload_bytes, static_cast<int>(n), link);
  o.bytes_per_rank = one.bytes_per_rank;
  d.step("Leaving the rank (uniform routing)", "V", "\\frac{$N - 1}{$N} \\cdot $P",
         {{"N", "N_{ep}", n}, {"P", "P", o.payload_bytes, unit::bytes}}, o.bytes_per_rank,
         unit::bytes);
  o.alltoalls = n > 1 ? 2 * in.moe_layers : 0;
  d.step("All-to-alls per step: dispatch + combine per MoE layer", "a", "2 \\cdot $L",
         {{"L", "L_{moe}", in.moe_layers}}, o.alltoalls, unit::none);
  o.step_bytes_per_rank = o.alltoalls * o.bytes_per_rank;
  o.latency_time = o.alltoalls * one.latency_time;
  // One latency per all-to-all, not N − 1: every rank posts its sends to all peers at once
  // (grouped point-to-point, as NCCL's all-to-all and DeepEP issue them; collective.cpp).
  d.step("Latency: one step per all-to-all (all the pairwise sends go out at once)", "T_{\\alpha}",
         "$a \\cdot $l",
         {{"a", "a", o.alltoalls}, {"l", "t_{\\alpha}", one.latency_time, unit::seconds}},
         o.latency_time, unit::seconds);
  o.bandwidth_time = o.alltoalls * one.bandwidth_time;
  d.step("Bandwidth term", "T_{\\beta}", "\\frac{$a \\cdot $V}{$B}",
         {{"a", "a", o.alltoalls},
          {"V", "V", o.bytes_per_rank, unit::bytes},
          {"B", "\\beta", in.bandwidth, unit::bytes_per_s}},
         o.bandwidth_time, unit::seconds);
  o.time = o.latency_time + o.bandwidth_time;
  d.step("All-to-all time per step (forward)", "T", "$A + $B",
         {{"A", "T_{\\alpha}", o.latency_time, unit::seconds},
          {"B", "T_{\\beta}", o.bandwidth_time, unit::seconds}},
         o.time, unit::seconds);
  o.regime = o.latency_time > o.bandwidth_time ? "latency" : "bandwidth";
  d.note("Compared with TP",
         "Each all-to-all moves top-k rows per token, where a TP all-reduce "
         "moves about two: MoE dispatch is k/2 times TP's bytes, across "
         "ranks that are often in other nodes.");
  return o;
}

// Roofline (Williams, Waterman & Patterson 2009, CACM 52(4), eq. 1):
// attainable = min(peak, bandwidth × intensity); the ridge is peak / bandwidth.
Result<RooflineOut> hw_roofline(const RooflineIn& in, Derivation& d) {
  RooflineOut o{};
  o.ridge_intensity = in.peak_flops / in.mem_bandwidth;
  d.step("Ridge point", "I^{*}", "\\frac{$F}{$M}",
         {{"F", "F_{peak}", in.peak_flops, unit::flops},
          {"M", "BW_{mem}", in.mem_bandwidth, unit::bytes_per_s}},
         o.ridge_intensity, unit::flop_per_byte);
  double flops = in.flops, bytes = in.bytes, I = in.intensity;
  if (I > 0 && flops > 0 && bytes > 0 && std::fabs(flops / bytes - I) > 1e-9 * I)
    return Error::inconsistent("intensity", I,
                               "must equal flops / bytes (" + format_value(flops / bytes, "") +
                                   ") when all three are given; set it to 0");
  if (I == 0 && bytes > 0) I = flops / bytes;
  if (I > 0 && bytes == 0 && flops > 0) bytes = flops / I;
  if (I > 0 && flops == 0 && bytes > 0) flops = I * bytes;
  o.intensity_used = I;
  if (in.intensity == 0 && in.bytes > 0)
    d.step("Arithmetic intensity", "I", "\\frac{$W}{$Q}",
           {{"W", "W", flops, unit::flop}, {"Q", "Q", bytes, unit::bytes}}, I, unit::flop_per_byte);
  if (I == 0) {
    // Nothing placed on the roofline: only the ridge is an answer; the rest is absent, not 0.
    d.note("No intensity", "Give an intensity, or FLOPs and bytes, to place a kernel.");
    o.intensity_used = o.attainable_flops = o.fraction_of_peak = not_given;
    o.compute_time = o.memory_time = o.time = not_given;
    o.bound = "";
    return o;
  }
  o.attainable_flops = std::min(in.peak_flops, in.mem_bandwidth * I);
  d.step("Attainable throughput", "F", "\\min\\left($P, $M \\cdot $I\\right)",
         {{"P", "F_{peak}", in.peak_flops, unit::flops},
          {"M", "BW_{mem}", in.mem_bandwidth, unit::bytes_per_s},
          {"I", "I", I, unit::flop_per_byte}},
         o.attainable_flops, unit::flops);
  o.bound = I < o.ridge_intensity ? "memory" : "compute";
  o.fraction_of_peak = o.attainable_flops / in.peak_flops;
  d.step(
      "Fraction of peak", "u", "\\frac{$F}{$P}",
      {{"F", "F", o.attainable_flops, unit::flops}, {"P", "F_{peak}", in.peak_flops, unit::flops}},
      o.fraction_of_peak, unit::fraction);
  d.note("Bound", o.bound == "memory" ? "Left of the ridge: memory-bound; the tensor cores wait "
                                        "for HBM."
                                      : "At or right of the ridge: compute-bound.");
  if (!(flops > 0 || bytes > 0)) {  // an intensity alone has no size: no time to give
    o.compute_time = o.memory_time = o.time = not_given;
    return o;
  }
  o.compute_time = flops / in.peak_flops;
  o.memory_time = bytes / in.mem_bandwidth;
  o.time = std::max(o.compute_time, o.memory_time);
  d.step("Kernel time: the slower of compute and memory", "T",
         "\\max\\left(\\frac{$W}{$P}, \\frac{$Q}{$M}\\right)",
         {{"W", "W", flops, unit::flop},
          {"P", "F_{peak}", in.peak_flops, unit::flops},
          {"Q", "Q", bytes, unit::bytes},
          {"M", "BW_{mem}", in.mem_bandwidth, unit::bytes_per_s}},
         o.time, unit::seconds);
  return o;
}

namespace {

// A roofline chart line for one catalog accelerator: its dense BF16 peak and HBM bandwidth.
Json roofline_of(std::string_view gpu) {
  const Gpu* g = find_gpu(gpu);
  return object_of({{"peak_flops", g->peak_bf16}, {"mem_bandwidth", g->hbm_bandwidth}});
}

}  // namespace

void register_comm_tp(Registry& r) {
  constexpr double kMaxBw = 1e14;
  {
    using In = TpStepIn;
    using Out = TpStepOut;
    r.add(declare<comm_tp_step>(
        {"comm.tp_step", "The tensor-parallel communication bill", "comm",
         "Payload, ring traffic, all-reduce count, latency versus bandwidth time and the share "
         "of a step spent in TP all-reduces (worked example).",
         "Shoeybi et al. 2019 §3; Pope et al. 2022 §3; nccl-tests PERFORMANCE.md",
         "docs/communication.md#commtp_step"},
        {num("hidden", NAPKIN_FIELD(In, hidden), "Hidden size h")
             .help("Hidden size of the residual stream")
             .positive(1e6)
             .integer(),
         num("dtype_bytes", NAPKIN_FIELD(In, dtype_bytes), "Bytes per activation", unit::bytes)
             .help("2 for BF16 activations")
             .positive(16),
         num("tokens", NAPKIN_FIELD(In, tokens), "Tokens in the step (batch × new tokens)",
             unit::tokens)
             .help("Tokens processed in this step: batch × new tokens (1 per sequence in decode)")
             .meaning("step_tokens")
             .positive(1e8)
             .integer(),
         num("layers", NAPKIN_FIELD(In, layers), "Layers")
             .help("Transformer blocks")
             .positive(1e5)
             .integer(),
         num("allreduces_per_layer", NAPKIN_FIELD(In, allreduces_per_layer),
             "All-reduces per layer")
             .range(0, 100)
             .integer()
             .help("2 in inference (attention and MLP); 4 for a training step (2 forward, 2 "
                   "backward)"),
         num("tp", NAPKIN_FIELD(In, tp), "TP ranks N")
             .help("Tensor-parallel ranks")
             .positive(1e4)
             .integer(),
         num("bandwidth", NAPKIN_FIELD(In, bandwidth), "Link bandwidth per rank (one direction)",
             unit::bytes_per_s)
             .help("Per-rank link bandwidth, one direction")
             .positive(kMaxBw),
         num("latency", NAPKIN_FIELD(In, latency), "Latency per hop", unit::seconds)
             .help("Fixed cost of one hop")
             .range(0, 10),
         num("compute_time", NAPKIN_FIELD(In, compute_time),
             "Compute time of the step (0 = roofline)", unit::seconds)
             .help("Compute of the step; 0 estimates it from the roofline")
             .range(0, 1e5),
         choice("overlap_model", NAPKIN_FIELD(In, overlap_model), "Overlap", "megatron|fraction")
             .help("Megatron-LM's default: forward all-reduces exposed, backward ones hidden "
                   "under the weight-gradient GEMM; or a fraction you set")
             .labels("Megatron-LM default|A fraction you set"),
         num("overlap", NAPKIN_FIELD(In, overlap), "Communication hidden under compute",
             unit::fraction)
             .help("Share of communication hidden under compute (when overlap is a fraction)")
             .range(0, 1),
         flag("in_switch_reduction", NAPKIN_FIELD(In, in_switch_reduction),
              "Switch reduces in-network")
             .help("NVLink SHARP (NVLS) or InfiniBand SHARP: the switch sums the data"),
         choice("algorithm", NAPKIN_FIELD(In, algorithm), "All-reduce algorithm",
                "auto|ring|tree|in_switch")
             .help("Auto picks the fastest; ring: 2(N − 1) hops, as the worked examples assume")
             .labels("Auto (fastest)|Ring|Tree|In-switch reduction"),
         num("params", NAPKIN_FIELD(In, params), "Parameters for the roofline compute (0 = none)",
             unit::params)
             .help("Parameters, for the roofline compute time; 0 = none")
             .range(0, 1e15),
         num("weight_bytes", NAPKIN_FIELD(In, weight_bytes), "Bytes per weight", unit::bytes)
             .help("2 for BF16 weights")
             .positive(16),
         peak_flops_input(NAPKIN_FIELD(In, peak_flops), "Peak FLOP/s per GPU"),
         hbm_bandwidth_input(NAPKIN_FIELD(In, mem_bandwidth), "HBM bandwidth per GPU", kMaxBw)},
        {out("payload_bytes", NAPKIN_FIELD(Out, payload_bytes), "Payload per all-reduce",
             unit::bytes)
             .help("Tokens × hidden × bytes: what one all-reduce sums"),
         out("bytes_per_rank", NAPKIN_FIELD(Out, bytes_per_rank), "Traffic per rank per all-reduce",
             unit::bytes)
             .help("2(N − 1)/N × payload on a ring; 1× with in-switch reduction, 2× on a tree"),
         out("allreduces", NAPKIN_FIELD(Out, allreduces), "All-reduces per step")
             .help("All-reduces per layer × layers"),
         out("latency_time", NAPKIN_FIELD(Out, latency_time), "Latency time", unit::seconds)
             .help("All-reduces × the algorithm's steps (ring: 2(N − 1)) × latency"),
         out("bandwidth_time", NAPKIN_FIELD(Out, bandwidth_time), "Bandwidth time", unit::seconds)
             .help("All-reduces × bytes per rank ÷ bandwidth"),
         out("comm_time", NAPKIN_FIELD(Out, comm_time), "Communication time", unit::seconds)
             .help("Latency time + bandwidth time"),
         out("exposed_comm_time", NAPKIN_FIELD(Out, exposed_comm_time), "Exposed communication",
             unit::seconds)
             .help("Communication not hidden under compute"),
         out("compute_time", NAPKIN_FIELD(Out, compute_time), "Compute time used", unit::seconds)
             .help("The compute time the step used"),
         out("step_time", NAPKIN_FIELD(Out, step_time), "Step time", unit::seconds)
             .help("Compute + exposed communication"),
         out("comm_fraction", NAPKIN_FIELD(Out, comm_fraction), "Communication share",
             unit::fraction)
             .help("Exposed communication ÷ step time"),
         out("regime", NAPKIN_FIELD(Out, regime), "Regime")
             .help("Whether latency or bandwidth dominates")}));
  }
  {
    using In = EpAlltoallIn;
    using Out = EpAlltoallOut;
    r.add(declare<comm_ep_alltoall>(
        {"comm.ep_alltoall", "The expert-parallel all-to-all bill", "comm",
         "Bytes each rank sends in MoE dispatch and combine, the number of all-to-alls and their "
         "time per step.",
         "Lepikhin et al. 2021 (GShard) §2.2; nccl-tests "
         "PERFORMANCE.md",
         "docs/communication.md#commep_alltoall"},
        {num("tokens", NAPKIN_FIELD(In, tokens), "Tokens per rank", unit::tokens)
             .help("Tokens each rank routes per step")
             .meaning("tokens_per_rank")
             .positive(1e8)
             .integer(),
         num("hidden", NAPKIN_FIELD(In, hidden), "Hidden size h")
             .help("Hidden size of the residual stream")
             .positive(1e6)
             .integer(),
         num("dtype_bytes", NAPKIN_FIELD(In, dtype_bytes), "Bytes per activation", unit::bytes)
             .positive(16)
             .help("2 for BF16; 1 for FP8 dispatch (DeepSeek-V3)"),
         num("top_k", NAPKIN_FIELD(In, top_k), "Experts per token")
             .help("Experts each token goes to")
             .positive(1e3)
             .integer(),
         num("ep", NAPKIN_FIELD(In, ep), "Expert-parallel ranks")
             .help("Ranks the experts are spread over")
             .positive(1e5)
             .integer(),
         num("moe_layers", NAPKIN_FIELD(In, moe_layers), "MoE layers")
             .help("Layers with experts")
             .positive(1e5)
             .integer(),
         num("bandwidth", NAPKIN_FIELD(In, bandwidth), "Link bandwidth per rank", unit::bytes_per_s)
             .help("Per-rank link bandwidth")
             .positive(kMaxBw),
         num("latency", NAPKIN_FIELD(In, latency), "Latency per step", unit::seconds)
             .help("Fixed cost of one step")
             .range(0, 10),
         num("experts", NAPKIN_FIELD(In, experts), "Routed experts")
             .help("Experts per MoE layer (DeepSeek-V3: 256; Switch-Base: 128)")
             .meaning("num_experts")
             .positive(1e5)
             .integer(),
         num("capacity_factor", NAPKIN_FIELD(In, capacity_factor), "Capacity factor (0 = dropless)")
             .help(
                 "Slots per expert as a multiple of a perfectly balanced share (Switch: 1.0–1.25; "
                 "GShard: 2); buffers are padded to it and overflowing tokens dropped. 0: "
                 "dropless routing, rows sent as routed (Megatron-Core's default)")
             .range(0, 64)},
        {out("expert_capacity", NAPKIN_FIELD(Out, expert_capacity), "Expert capacity", unit::tokens)
             .optional()
             .help("⌈tokens × top-k × capacity factor ÷ experts⌉: rows each expert accepts from "
                   "one rank; shown when a capacity factor is given"),
         out("payload_bytes", NAPKIN_FIELD(Out, payload_bytes), "Dispatched per all-to-all",
             unit::bytes)
             .help("Tokens × top-k × hidden × bytes sent by one all-to-all (with a capacity "
                   "factor: experts × capacity × hidden × bytes, padding included)"),
         out("bytes_per_rank", NAPKIN_FIELD(Out, bytes_per_rank), "Sent per rank per all-to-all",
             unit::bytes)
             .help("The share that leaves the rank: (N − 1)/N"),
         out("alltoalls", NAPKIN_FIELD(Out, alltoalls), "All-to-alls per step")
             .help("Dispatch + combine, forward and backward, per MoE layer"),
         out("step_bytes_per_rank", NAPKIN_FIELD(Out, step_bytes_per_rank),
             "Sent per rank per step", unit::bytes)
             .help("Per all-to-all × all-to-alls"),
         out("latency_time", NAPKIN_FIELD(Out, latency_time), "Latency time", unit::seconds)
             .help("All-to-alls × steps × latency"),
         out("bandwidth_time", NAPKIN_FIELD(Out, bandwidth_time), "Bandwidth time", unit::seconds)
             .help("Bytes per rank per step ÷ bandwidth"),
         out("time", NAPKIN_FIELD(Out, time), "Time per step", unit::seconds)
             .help("Latency time + bandwidth time"),
         out("regime", NAPKIN_FIELD(Out, regime), "Regime")
             .help("Whether latency or bandwidth dominates")}));
  }
  {
    using In = RooflineIn;
    using Out = RooflineOut;
    r.add(declare<hw_roofline>(
        {"hw.roofline", "Roofline", "comm",
         "Ridge intensity, attainable FLOP/s, memory- or compute-bound, and the time of a "
         "kernel from its FLOPs and bytes.",
         "Williams, Waterman & Patterson 2009, Roofline (CACM 52(4)), eq. 1",
         "docs/communication.md#hwroofline"},
        {peak_flops_input(NAPKIN_FIELD(In, peak_flops), "Peak FLOP/s"),
         hbm_bandwidth_input(NAPKIN_FIELD(In, mem_bandwidth), "Memory bandwidth", kMaxBw),
         num("intensity", NAPKIN_FIELD(In, intensity), "Arithmetic intensity (0 = flops/bytes)",
             unit::flop_per_byte)
             .help("FLOPs per byte moved; 0 takes FLOPs ÷ bytes")
             .range(0, 1e9)
             // The page starts on a kernel (a BF16 matmul over 128 tokens) so the roofline
             // shows a point; the API default stays 0 = "from flops / bytes".
             .example(128),
         num("flops", NAPKIN_FIELD(In, flops), "FLOPs of the kernel", unit::flop)
             .help("Arithmetic of the kernel")
             .range(0, 1e30),
         num("bytes", NAPKIN_FIELD(In, bytes), "Bytes moved", unit::bytes)
             .help("Bytes the kernel moves to and from memory")
             .range(0, 1e20)},
        {out("ridge_intensity", NAPKIN_FIELD(Out, ridge_intensity), "Ridge intensity",
             unit::flop_per_byte)
             .help("Peak ÷ bandwidth: the intensity where the roof bends"),
         out("intensity_used", NAPKIN_FIELD(Out, intensity_used), "Intensity", unit::flop_per_byte)
             .optional()
             .help("The arithmetic intensity used"),
         out("attainable_flops", NAPKIN_FIELD(Out, attainable_flops), "Attainable FLOP/s",
             unit::flops)
             .optional()
             .help("min(peak, intensity × bandwidth)"),
         out("bound", NAPKIN_FIELD(Out, bound), "Bound")
             .optional()
             .help("Memory-bound below the ridge, compute-bound above"),
         out("fraction_of_peak", NAPKIN_FIELD(Out, fraction_of_peak), "Fraction of peak",
             unit::fraction)
             .optional()
             .help("Attainable ÷ peak"),
         out("compute_time", NAPKIN_FIELD(Out, compute_time), "Compute time", unit::seconds)
             .optional()
             .help("FLOPs ÷ peak"),
         out("memory_time", NAPKIN_FIELD(Out, memory_time), "Memory time", unit::seconds)
             .optional()
             .help("Bytes ÷ bandwidth"),
         out("time", NAPKIN_FIELD(Out, time), "Time", unit::seconds)
             .optional()
             .help("The larger of compute and memory time")}));
  }

  // Charts (docs/architecture.md, The registry).
  // The lines' links come from the typed tiers (core/scenario/cluster.cpp), not literals.
  const auto tier_link = [](const char* id) {
    const Tier* t = find_tier(id);
    // The switch's in-network reduction travels with the link (NVLink 4 has NVLS, the
    // networks here do not), and every rank stays on that one link.
    return object_of({{"bandwidth", t->bandwidth},
                      {"latency", t->latency},
                      {"in_switch_reduction", Json(t->in_switch_reduction)}});
  };
  const Json nvlink4 = tier_link("nvlink4");
  const Json ib_ndr = tier_link("ib-ndr");
  const Json eth100 = tier_link("eth100");
  const Json eth10 =
      object_of({{"bandwidth", 1.25e9}, {"latency", 50e-6}, {"in_switch_reduction", Json(false)}});
  // comm.collective's series: one link each, no second tier.
  auto one_tier = [](Json link) {
    link.set("gpus_per_node", 0);
    return link;
  };
  r.add_chart({.id = "collective-time-vs-size",
               .title = "Collective time vs message size",
               .estimator = "comm.collective",
               .x = "bytes",
               .x_label = "Message size",
               .y_label = "Time",
               .y_unit = unit::seconds,
               .x_min = 1e3,
               .x_max = 1e10,
               .points = 57,
               .log_x = true,
               .log_y = true,
               .y = {"time"},
               .series = {{"NVLink 4 + NVLS (450 GB/s, 3 µs)", one_tier(nvlink4)},
                          {"InfiniBand NDR (50 GB/s, 5 µs)", one_tier(ib_ndr)},
                          {"100 GbE (12.5 GB/s, 10 µs)", one_tier(eth100)},
                          {"10 GbE (1.25 GB/s, 50 µs)", one_tier(eth10)}}});
  // TP comm share vs batch for an 8B model on H100s, compute from the roofline so it grows
  // with the batch.
  auto tp_series = [](Json link) {
    link.set("compute_time", 0);
    link.set("params", 8e9);
    return link;
  };
  r.add_chart({.id = "tp-comm-fraction-vs-tokens",
               .title = "TP communication share vs batch tokens (8B model, H100 roofline)",
               .estimator = "comm.tp_step",
               .x = "tokens",
               .x_label = "Tokens per step",
               .y_label = "Share of step",
               .y_unit = unit::fraction,
               .x_min = 1,
               .x_max = 16384,
               .points = 57,
               .log_x = true,
               .integer_x = true,
               .y = {"comm_fraction"},
               .series = {{"NVLink 4", tp_series(nvlink4)},
                          {"InfiniBand NDR", tp_series(ib_ndr)},
                          {"100 GbE", tp_series(eth100)},
                          {"10 GbE", tp_series(eth10)}}});
  const Json gpt3 = object_of({{"params", 175e9},
                               {"grad_bytes", 2},
                               {"d_model", 12288},
                               {"n_layers", 96},
                               {"seq_len", 2048},
                               {"activation_bytes", 2},
                               {"tp", 8},
                               {"pp", 8},
                               {"dp", 16},
                               {"microbatches", 1}});
  r.add_chart({.id = "gpt3-volumes-vs-batch",
               .title = "GPT-3 175B: DP, FSDP, TP and PP volume per step vs batch (worked example)",
               .estimator = "comm.parallelism",
               .x = "batch",
               .x_label = "Batch (sequences of 2048)",
               .y_label = "Bytes per step",
               .y_unit = unit::bytes,
               .x_min = 1,
               .x_max = 1024,
               .points = 41,
               .log_x = true,
               .log_y = true,
               .integer_x = true,
               .y = {"dp_bytes", "fsdp_bytes", "tp_bytes", "pp_bytes"},
               .series = {{"GPT-3 175B, TP 8, PP 8", gpt3}},
               .markers = {{"B = 32 (worked example's TP ≈ 1.2 TB)", 32}},
               .mark_current = false});
  r.add_chart({.id = "roofline",
               .title = "Roofline: attainable FLOP/s vs arithmetic intensity",
               .estimator = "hw.roofline",
               .x = "intensity",
               .x_label = "Arithmetic intensity",
               .y_label = "Attainable",
               .y_unit = unit::flops,
               .x_min = 0.1,
               .x_max = 10000,
               .points = 81,
               .log_x = true,
               .log_y = true,
               .y = {"attainable_flops"},
               // The catalog's datasheet figures (scenario/cluster.cpp), not retyped.
               .series = {{"H100 SXM", roofline_of("h100")},
                          {"A100 SXM 80GB", roofline_of("a100")},
                          {"B200", roofline_of("b200")}},
               .markers = {{"Decode GEMV, BF16 (≈1 FLOP/B)", 1}}});

  // The seeds' worked examples as scenarios.
  r.add_preset(
      scenario("seed002-allreduce-1gb", "Worked example: 1 GB ring all-reduce on 4 GPUs",
               "Worked example (2P(N−1)/N = 1.5 GB per device)", "comm.collective",
               {{"op", "all_reduce"}, {"bytes", 1e9}, {"ranks", 4}, {"algorithm", "ring"}}));
  r.add_preset(scenario("seed000-problem1", "Worked example: 13B, TP 8, DP 64 (its units)",
                        "Worked example: FP32 gradients, activations counted as elements",
                        "comm.parallelism",
                        {{"params", 13e9},
                         {"grad_bytes", 4},
                         {"batch", 32},
                         {"seq_len", 4096},
                         {"d_model", 5120},
                         {"n_layers", 40},
                         {"activation_bytes", 1},
                         {"tp", 8},
                         {"pp", 1},
                         {"dp", 64},
                         {"microbatches", 1}}));
  r.add_preset(
      scenario("seed000-tp-example", "Worked example: B 16, S 2048, H 4096, L 32, 4 stages",
               "Worked example (elements counted as bytes: 17.2 G / 34.4 G)", "comm.parallelism",
               {{"batch", 16},
                {"seq_len", 2048},
                {"d_model", 4096},
                {"n_layers", 32},
                {"activation_bytes", 1},
                {"tp", 8},
                {"pp", 4},
                {"microbatches", 1}}));
  Json gpt3_full = gpt3;
  gpt3_full.set("batch", 32);
  gpt3_full.set("microbatches", 32);
  gpt3_full.set("bandwidth", 200e9);
  r.add_preset(Preset{"seed002-gpt3",
                      "Worked example: GPT-3 175B, TP 8, PP 8, M 32, IB 200 GB/s",
                      "scenario",
                      "Worked example (B·S not given; B = 32 × 2048 reproduces its TP figure)",
                      gpt3_full,
                      {"comm.parallelism"}});
  r.add_preset(scenario("seed001-zero",
                        "Worked example: ZeRO on 70B, 80 layers, DP 64, 400 GB/s, 2 µs",
                        "Worked example", "comm.zero",
                        {{"params", 70e9},
                         {"n_layers", 80},
                         {"dp", 64},
                         {"bytes", 2},
                         {"bandwidth", 400e9},
                         {"latency", 2e-6}}));
  r.add_preset(scenario("seed003-decode-10gbe", "Worked example: 8B decode, TP 2 over 10 GbE",
                        "Worked example (64 × 2 × 50 µs = 6.4 ms of latency)", "comm.tp_step",
                        {{"hidden", 4096},
                         {"tokens", 1},
                         {"layers", 32},
                         {"tp", 2},
                         {"bandwidth", 1.25e9},
                         {"latency", 50e-6},
                         {"compute_time", 8e-3}}));
  r.add_preset(scenario("seed003-decode-nvlink", "Worked example: 8B decode, TP 2 over NVLink",
                        "Worked example (3 µs NVLink hop; A100 NVLink 3 300 GB/s)", "comm.tp_step",
                        {{"hidden", 4096},
                         {"tokens", 1},
                         {"layers", 32},
                         {"tp", 2},
                         {"bandwidth", 300e9},
                         {"latency", 3e-6},
                         {"compute_time", 8e-3}}));
  r.add_preset(scenario("seed003-prefill-10gbe", "Worked example: 2048-token prefill, TP 2, 10 GbE",
                        "Worked example (16 MB payload)", "comm.tp_step",
                        {{"hidden", 4096},
                         {"tokens", 2048},
                         {"layers", 32},
                         {"tp", 2},
                         {"bandwidth", 1.25e9},
                         {"latency", 50e-6}}));
}

}  // namespace napkin
