// Scaling and pipelines: mixed FSDP + TP compute-bound batch (the XXL worked example, part (c);
// docs/memory.md), the notes' parallelism rule of thumb, and pipeline bubbles. Declarations in
// memory.hpp.
#include <algorithm>
#include <cmath>

#include "base/units.hpp"
#include "memory/memory.hpp"
#include "scenario/accelerator_inputs.hpp"
#include "training/search.hpp"

namespace napkin {

// How to Scale Your Model (Austin et al. 2025), "How to Parallelize a Transformer for
// Training", mixed FSDP + TP. Per layer of the FFN (two D×F matmuls), forward pass, with
// X-way FSDP and Y-way TP on N = X·Y chips:
//   T_math = 4·B·D·F / (N·C)
//   T_FSDP = 2·p·D·F / (Y·W·M_X)   (all-gather of this TP shard's weights over X)
//   T_TP   = 2·p·B·D / (X·W·M_Y)   (all-gather in + reduce-scatter out of activations)
// with p = 2 bytes (BF16). Compute-bound iff T_math > T_FSDP + T_TP, i.e. with α = C/W
//   B·F/(N·α) > F/(Y·M_X) + B/(X·M_Y)   (p = 2),
// so B > (F/(Y·M_X)) / (F/(N·α) − 1/(X·M_Y)). Minimising the communication over X·Y = N
// gives X_opt = √(B·N·M_X/(F·M_Y)) and then B/N > 4α²/(F·M_X·M_Y) (p = 2).
Result<ScaleFsdpTpOut> scale_fsdp_tp(const ScaleFsdpTpIn& in, Derivation& d) {
  ScaleFsdpTpOut o{};
  const double D = in.d_model, F = in.d_ff, X = in.fsdp, Y = in.tp, MX = in.fsdp_axes,
               MY = in.tp_axes, W = in.ici_bandwidth, C = in.peak_flops, p = in.bytes;
  const double N = X * Y;
  if (std::fmod(F, Y) != 0)
    return Error::inconsistent("tp", Y, "must divide d_ff (" + format_value(F, "") + ")");
  o.alpha = C / W;
  d.step("Critical intensity of the ICI", "\\alpha", "\\frac{$C}{$W}",
         {{"C", "C", C, unit::flops}, {"W", "W_{\\text{ici}}", W, unit::bytes_per_s}}, o.alpha,
         unit::flop_per_byte);
  // Coefficients of the condition, in units of p·D/W: per-token compute vs TP comm, and the
  // batch-independent FSDP comm.
  // With tp = 1 there are no TP collectives and with fsdp = 1 no weight gathers: their terms
  // vanish rather than costing one rank's worth of traffic.
  const double compute_coef = 2 * F / (p * N * o.alpha), tp_coef = Y > 1 ? 1 / (X * MY) : 0,
               fsdp_term = X > 1 ? F / (Y * MX) : 0;
  // TP so wide that its activation collectives outlast the matmuls at any batch: a verdict
  // (never compute-bound, with the times at the batch given), not an error.
  const bool never = compute_coef <= tp_coef;
  if (never) {
    o.min_batch_tokens = o.min_tokens_per_device = o.min_sequences = not_given;
    d.note("Never compute-bound",
           "At tp = " + format_value(Y, "") +
               " the TP activation collectives alone outlast the matmuls at any batch (this "
               "needs tp < " +
               format_value(2 * F * MY / (p * o.alpha), "") +
               "): no batch is large enough. Move devices from TP to FSDP.");
  } else {
    o.min_batch_tokens = fsdp_term / (compute_coef - tp_coef);
    d.step("Smallest compute-bound batch (tokens)", "B_{\\min}",
           "\\frac{$F / ($Y \\cdot $MX)}{2 \\cdot $F / ($p \\cdot $N \\cdot $a) - 1 / ($X \\cdot "
           "$MY)}",
           {{"F", "F", F},
            {"Y", "Y", Y},
            {"MX", "M_X", MX},
            {"p", "p", p},
            {"N", "N", N},
            {"a", "\\alpha", o.alpha},
            {"X", "X", X},
            {"MY", "M_Y", MY}},
           o.min_batch_tokens, unit::tokens);
    o.min_tokens_per_device = o.min_batch_tokens / N;
    d.step("Per device", "B_{\\min}/N", "\\frac{$B}{$N}",
           {{"B", "B_{\\min}", o.min_batch_tokens, unit::tokens}, {"N", "N", N}},
           o.min_tokens_per_device, unit::tokens);
    // Each FSDP (data) shard needs whole sequences; TP ranks share theirs.
    o.min_sequences = X * std::max(1.0, ceil_count(o.min_batch_tokens / (in.seq_len * X)));
    d.step("Whole sequences, a multiple of the FSDP degree", "n_{\\text{seq}}",
           "$X \\cdot \\left\\lceil \\frac{$B}{$s \\cdot $X} \\right\\rceil",
           {{"X", "X", X},
            {"B", "B_{\\min}", o.min_batch_tokens, unit::tokens},
            {"s", "s", in.seq_len}},
           o.min_sequences, unit::none);
  }
  o.eval_batch_tokens = in.batch_tokens > 0 ? in.batch_tokens
                        : never             ? in.seq_len * X  // one sequence per FSDP shard
                                            : o.min_sequences * in.seq_len;
  if (in.batch_tokens > 0 && in.batch_tokens < X)
    return Error::inconsistent(
        "batch_tokens", in.batch_tokens,
        "must give each of the fsdp = " + format_value(X, "") + " shards at least one token");
  const double B = o.eval_batch_tokens, L = in.n_layers;
  o.optimal_fsdp = std::sqrt(B * N * MX / (F * MY));
  d.step("FSDP degree that minimises communication at this batch", "X_{\\text{opt}}",
         "\\sqrt{\\frac{$B \\cdot $N \\cdot $MX}{$F \\cdot $MY}}",
         {{"B", "B", B, unit::tokens},
          {"N", "N", N},
          {"MX", "M_X", MX},
          {"F", "F", F},
          {"MY", "M_Y", MY}},
         o.optimal_fsdp, unit::none);
  o.min_tokens_per_device_optimal = p * p * o.alpha * o.alpha / (F * MX * MY);
  d.step("Per-device threshold at X_opt", "\\frac{B}{N}",
         "\\frac{$p^2 \\cdot $a^2}{$F \\cdot $MX \\cdot $MY}",
         {{"p", "p", p},
          {"a", "\\alpha", o.alpha},
          {"F", "F", F},
          {"MX", "M_X", MX},
          {"MY", "M_Y", MY}},
         o.min_tokens_per_device_optimal, unit::tokens);
  o.compute_time = L * 4 * B * D * F / (N * C);
  d.step("Forward matmuls, all layers", "T_{\\text{math}}",
         "$L \\cdot \\frac{4 \\cdot $B \\cdot $D \\cdot $F}{$N \\cdot $C}",
         {{"L", "L", L},
          {"B", "B", B, unit::tokens},
          {"D", "D", D},
          {"F", "F", F},
          {"N", "N", N},
          {"C", "C", C, unit::flops}},
         o.compute_time, unit::seconds);
  o.fsdp_comm_time = X > 1 ? L * 2 * p * D * F / (Y * W * MX) : 0;
  d.step("FSDP weight all-gathers", "T_{\\text{FSDP}}",
         "$L \\cdot \\frac{2 \\cdot $p \\cdot $D \\cdot $F}{$Y \\cdot $W \\cdot $MX}",
         {{"L", "L", L},
          {"p", "p", p},
          {"D", "D", D},
          {"F", "F", F},
          {"Y", "Y", Y},
          {"W", "W_{\\text{ici}}", W, unit::bytes_per_s},
          {"MX", "M_X", MX}},
         o.fsdp_comm_time, unit::seconds);
  o.tp_comm_time = Y > 1 ? L * 2 * p * B * D / (X * W * MY) : 0;
  d.step("TP activation collectives", "T_{\\text{TP}}",
         "$L \\cdot \\frac{2 \\cdot $p \\cdot $B \\cdot $D}{$X \\cdot $W \\cdot $MY}",
         {{"L", "L", L},
          {"p", "p", p},
          {"B", "B", B, unit::tokens},
          {"D", "D", D},
          {"X", "X", X},
          {"W", "W_{\\text{ici}}", W, unit::bytes_per_s},
          {"MY", "M_Y", MY}},
         o.tp_comm_time, unit::seconds);
  o.compute_bound = o.compute_time >= o.fsdp_comm_time + o.tp_comm_time;
  // docs/errata.md, the XXL worked example (c): shown where a student reproduces that problem.
  d.note("Where a worked example went wrong",
         "The worked example counts 3.488e12·b·s FLOPs per block, 1000× too many (2·2·D·F = "
         "3.488e9 per "
         "token), and so finds a 1,956 s step. With the right count the question is the Scaling "
         "Book's: the batch at which compute hides both collectives, B_min above.");
  d.note("Verdict", o.compute_bound
                        ? "Compute-bound at this batch: the collectives can hide under the matmuls."
                        : "Communication-bound at this batch: raise it to at least B_min tokens.");
  return o;
}

// The study notes' `recommend_parallelism` (docs/memory.md): a model "needs model parallelism" when
// 2 bytes × params × 20 exceeds one GPU; then TP fills a node, PP is 2 above 50B and min(4,
// nodes/2) above 100B, DP takes the rest, with ZeRO-2 and checkpointing (ZeRO-1 on a single node).
namespace {

Result<ParallelRecommendOut> recommend_rule(const ParallelRecommendIn& in, double params,
                                            Derivation& d) {
  ParallelRecommendOut o{};
  o.cp = o.ep = 1;
  o.microbatch = o.step_time = o.mfu = o.layouts_evaluated = not_given;
  const double G = in.gpus, gpn = in.gpus_per_node;
  const double model_bytes = 2 * params;
  const bool needs_mp = model_bytes * in.fit_factor > in.gpu_memory;
  d.step("Worked example's fit test: BF16 weights × factor", "M_{\\text{est}}",
         "2 \\cdot $N \\cdot $f", {{"N", "N", params, unit::params}, {"f", "f", in.fit_factor}},
         model_bytes * in.fit_factor, unit::bytes);
  if (G > gpn && std::fmod(G, gpn) != 0)
    return Error::inconsistent("gpus", G,
                               "must be a multiple of gpus_per_node (" + format_value(gpn, "") +
                                   ") when it spans several nodes");
  o.nodes = std::max(1.0, G / gpn);
  std::string why;
  if (!needs_mp) {
    o.tp = 1, o.pp = 1, o.dp = G, o.zero_stage = 2, o.checkpointing = false;
    why = "Model fits on a single GPU (2 bytes × params × " + format_value(in.fit_factor, "") +
          " < " + format_value(in.gpu_memory, unit::bytes) + "): pure DP with ZeRO-2";
  } else if (G <= gpn) {
    // Largest power of two up to 8 that divides the GPU count: TP within the node.
    double tp = 1;
    while (tp * 2 <= std::min(G, 8.0) && std::fmod(G, tp * 2) == 0) tp *= 2;
    o.tp = tp, o.pp = 1, o.dp = G / tp, o.zero_stage = 1, o.checkpointing = true;
    why = "Single node: TP = " + format_value(tp, "") +
          " within the node over NVLink, DP = " + format_value(o.dp, "") +
          " with ZeRO-1 and gradient checkpointing";
  } else {
    double pp = 1;
    if (params > 100e9)
      pp = std::max(1.0, std::min(4.0, std::floor(o.nodes / 2)));
    else if (params > 50e9)
      pp = 2;
    while (pp > 1 && std::fmod(o.nodes, pp) != 0) pp -= 1;  // whole nodes per stage
    o.tp = gpn, o.pp = pp, o.dp = G / (gpn * pp), o.zero_stage = 2, o.checkpointing = true;
    why = "Multi-node 3D parallelism: TP = " + format_value(o.tp, "") +
          " (within node), PP = " + format_value(pp, "") +
          " (across nodes), DP = " + format_value(o.dp, "") + ", ZeRO-2 and gradient checkpointing";
  }
  o.rationale = why;
  o.recompute = o.checkpointing ? "full" : "none";
  d.note("Recommendation", why + ".");
  d.step("GPUs used", "G", "$t \\cdot $p \\cdot $d",
         {{"t", "t", o.tp}, {"p", "p", o.pp}, {"d", "d", o.dp}}, o.tp * o.pp * o.dp, unit::gpus);
  // Check the recommendation with mem.training's model (seed rule-of-thumb activations).
  MemTrainingIn m;
  m.params = params, m.tp = int(o.tp), m.pp = int(o.pp), m.dp = int(o.dp);
  m.zero_stage = int(o.zero_stage), m.checkpointing = o.checkpointing, m.gpu_memory = in.gpu_memory;
  m.optimizer_bytes = 8, m.activations = "rule_of_thumb";  // the worked example's conventions
  Derivation quiet(false);
  Result<MemTrainingOut> mem = mem_training(m, quiet);
  if (!mem.ok()) return mem.error();
  o.memory_per_gpu = mem->total, o.fits = mem->fits;
  d.step("Memory per GPU (mem.training, rule-of-thumb activations)", "M", "$w + $g + $o + $a",
         {{"w", "M_w", mem->weights, unit::bytes},
          {"g", "M_g", mem->gradients, unit::bytes},
          {"o", "M_o", mem->optimizer, unit::bytes},
          {"a", "M_a", mem->activations, unit::bytes}},
         o.memory_per_gpu, unit::bytes);
  if (!o.fits)
    d.warn("The rule of thumb's configuration does not fit in " +
           format_value(in.gpu_memory, unit::bytes) + " per GPU by mem.training's estimate.");
  return o;
}

// The typed layout search (core/training/search.cpp) over a small space: TP (dividing the
// heads), PP (up to the layers), CP, EP (MoE), microbatch 1–4, recomputation none / selective
// / full, sequence parallelism and ZeRO 0–3, each layout timed by train_step() and sized by the
// shared training_memory(); the fastest that fits is the answer, so it fits by the same check
// train.step shows. Interleaving, overlap switches and offload stay at their defaults to keep
// one run quick.
constexpr double kMinCpSeq = 16384;

Result<ParallelRecommendOut> recommend_search(const ParallelRecommendIn& in, const Model& m,
                                              Derivation& d) {
  ParallelRecommendOut o{};
  SearchSpec spec;
  spec.model = m;
  spec.cluster.gpu.peak_bf16 = in.peak_flops;
  spec.cluster.gpu.hbm_bytes = in.gpu_memory;
  spec.cluster.gpu.hbm_bandwidth = in.mem_bandwidth;
  spec.cluster.gpu.matmul_fraction = in.matmul_fraction;
  spec.cluster.gpu.attention_fraction = in.attention_fraction;
  spec.cluster.gpus_per_node = static_cast<int>(in.gpus_per_node);
  spec.cluster.intra.bandwidth = in.intra_bandwidth;
  spec.cluster.intra.latency = in.intra_latency;
  spec.cluster.inter.bandwidth = in.inter_bandwidth;
  spec.cluster.inter.latency = in.inter_latency;
  spec.cluster.intra.efficiency = in.intra_efficiency;
  spec.cluster.inter.efficiency = in.inter_efficiency;
  spec.cluster.intra.launch = spec.cluster.inter.launch = in.launch_latency;
  spec.job.global_batch = in.global_batch;
  spec.job.seq_len = in.seq_len;
  spec.job.flash_attention = true;
  spec.gpus = static_cast<int>(in.gpus);
  spec.top = 1;
  spec.search_vpp = false;
  spec.search_overlap = false;
  spec.search_offload = false;
  spec.max_microbatch = 4;
  // Context parallelism only for long sequences, as Megatron-LM uses it (a smaller space for a
  // quick answer); train_step() charges short chunks their exposed ring and output merges.
  spec.search_cp = in.seq_len >= kMinCpSeq;
  const SearchResult r = search_layouts(spec);
  o.layouts_evaluated = static_cast<double>(r.total);
  if (r.top_count == 0)
    return Error::inconsistent(
        "gpus", in.gpus,
        "is too few: no layout of this model (TP, PP, CP, EP, ZeRO 0–3, recomputation) fits in " +
            format_value(in.gpu_memory, unit::bytes) + " per GPU at this batch and sequence");
  const Layout& l = r.top[0].layout;
  const StepTimes& t = r.top[0].times;
  o.tp = l.tp, o.pp = l.pp, o.dp = l.dp, o.cp = l.cp, o.ep = l.ep, o.zero_stage = l.zero_stage;
  o.microbatch = l.microbatch;
  o.recompute = l.recompute == Recompute::Full        ? "full"
                : l.recompute == Recompute::Selective ? "selective"
                                                      : "none";
  o.checkpointing = l.recompute != Recompute::None;
  o.sequence_parallel = l.sequence_parallel;
  o.nodes = std::ceil(in.gpus / in.gpus_per_node);
  o.memory_per_gpu = t.memory.total;
  o.fits = t.fits;
  o.step_time = t.step;
  o.mfu = t.mfu;
  const long long fit = r.valid;
  o.rationale = "Fastest of " + format_value(static_cast<double>(r.total), "") +
                " layouts searched (" + format_value(static_cast<double>(fit), "") + " fit): TP " +
                format_value(o.tp, "") + " × PP " + format_value(o.pp, "") + " × CP " +
                format_value(o.cp, "") + " × DP " + format_value(o.dp, "") +
                (m.experts > 0 ? ", EP " + format_value(o.ep, "") : std::string()) + ", ZeRO-" +
                format_value(o.zero_stage, "") + ", microbatch " + format_value(o.microbatch, "") +
                ", recomputation " + o.recompute + (o.sequence_parallel ? ", SP" : "") +
                "; a step of " + format_value(o.step_time, unit::seconds) + " at " +
                format_value(o.mfu * 100, "") + " % MFU, " +
                format_value(o.memory_per_gpu, unit::bytes) + " of " +
                format_value(in.gpu_memory, unit::bytes) + " per GPU";
  d.note("How it chose",
         "Every combination of TP (dividing the heads), PP (up to the layers), CP (from 16k "
         "tokens per sequence), EP (MoE experts), microbatch 1–4, recomputation (none, selective, "
         "full), sequence parallelism "
         "and ZeRO stage 0–3 on these GPUs, timed by train.step's model (compute, bubble, TP / "
         "CP / EP / PP / DP communication on their tiers) and sized by its memory (Korthikanti "
         "et al. 2022 activations, ZeRO states); layouts over the GPU's memory are rejected, and "
         "the fastest of the rest is kept.");
  d.note("Recommendation", o.rationale + ".");
  d.step("Memory per GPU of that layout (train.step's)", "M", "$w + $g + $o + $a",
         {{"w", "M_w", t.memory.weights, unit::bytes},
          {"g", "M_g", t.memory.gradients, unit::bytes},
          {"o", "M_o", t.memory.optimizer, unit::bytes},
          {"a", "M_a", t.memory.activations, unit::bytes}},
         o.memory_per_gpu, unit::bytes);
  d.note("Its step time", "train.step gives " + format_value(o.step_time, unit::seconds) +
                              " for that layout; its card shows the step's derivation.");
  return o;
}

}  // namespace

Result<ParallelRecommendOut> parallel_recommend(const ParallelRecommendIn& in, Derivation& d) {
  const bool rule = in.method == "rule_of_thumb";
  Model m;
  if (!rule || in.params <= 0) {
    Result<Model> mr = to_model(in);
    if (!mr.ok()) return mr.error();
    m = mr.value();
  }
  const double params = in.params > 0 ? in.params : model_params(m).total;
  if (!rule && in.params > 0 && std::fabs(model_params(m).total - params) > 0.1 * params)
    d.warn("params (" + format_value(params, unit::params) +
           ") differs by more than 10% from the model shape's " +
           format_value(model_params(m).total, unit::params) +
           ": the search uses the shape. Set the shape (or a model preset) to match.");
  if (rule) return recommend_rule(in, params, d);
  return recommend_search(in, m, d);
}

// Huang et al. 2019 (GPipe) §2.3 and Narayanan et al. 2021 §2.2: with N stages and M
// microbatches the pipeline idles (N−1) microbatch-slots out of M+N−1, so the bubble is
// (N−1)/(M+N−1) of the step; Narayanan's "bubble time fraction" divides by the ideal time
// instead, (N−1)/M. The interleaved schedule with v chunks per device divides the bubble by
// v (§2.2.2). Each microbatch crosses N−1 boundaries forward and backward: 2M(N−1) p2p ops
// (docs/memory.md, pipe.bubble), 2M(vN−1) with v chunks per device.
Result<PipeBubbleOut> pipe_bubble(const PipeBubbleIn& in, Derivation& d) {
  PipeBubbleOut o{};
  const double N = in.stages, M = in.microbatches, v = in.interleave;
  if (in.batch > 0 && std::fmod(in.batch, M) != 0)
    return Error::inconsistent("batch", in.batch,
                               "must be a multiple of microbatches (" + format_value(M, "") + ")");
  if (v > 1 && std::fmod(M, N) != 0)
    d.warn("Megatron's interleaved schedule needs microbatches to be a multiple of stages.");
  if (v > 1 && N == 1) d.warn("Interleaving needs more than one stage to change anything.");
  o.bubble_fraction = (N - 1) / (v * M + N - 1);
  d.step("Bubble, fraction of the step (exact)", "\\beta", "\\frac{$N - 1}{$v \\cdot $M + $N - 1}",
         {{"N", "N", N}, {"M", "M", M}, {"v", "v", v}}, o.bubble_fraction, unit::fraction);
  o.bubble_approx = (N - 1) / (v * M);
  d.step("Bubble relative to useful work (≈ for M ≫ N)", "\\beta_{\\approx}",
         "\\frac{$N - 1}{$v \\cdot $M}", {{"N", "N", N}, {"M", "M", M}, {"v", "v", v}},
         o.bubble_approx, unit::fraction);
  o.efficiency = 1 - o.bubble_fraction;
  o.microbatch_size = in.batch > 0 ? in.batch / M : not_given;
  o.min_microbatches = o.min_microbatches_approx = not_given;  // set below when a target is
  if (in.batch > 0)
    d.step("Microbatch size", "b", "\\frac{$B}{$M}", {{"B", "B", in.batch}, {"M", "M", M}},
           o.microbatch_size, unit::none);
  o.p2p_ops = 2 * M * (v * N - 1);
  d.step("Point-to-point sends per step", "n_{\\text{p2p}}",
         "2 \\cdot $M \\cdot ($v \\cdot $N - 1)", {{"M", "M", M}, {"v", "v", v}, {"N", "N", N}},
         o.p2p_ops, unit::none);
  if (in.target > 0) {
    o.min_microbatches = std::max(1.0, ceil_count((N - 1) * (1 - in.target) / (in.target * v)));
    d.step("Fewest microbatches for the target (exact)", "M_{\\min}",
           "\\left\\lceil \\frac{($N - 1)(1 - $t)}{$t \\cdot $v} \\right\\rceil",
           {{"N", "N", N}, {"t", "\\beta^*", in.target, unit::fraction}, {"v", "v", v}},
           o.min_microbatches, unit::none);
    o.min_microbatches_approx = std::max(1.0, ceil_count((N - 1) / (in.target * v)));
    d.step("… with the approximation", "M_{\\min,\\approx}",
           "\\left\\lceil \\frac{$N - 1}{$t \\cdot $v} \\right\\rceil",
           {{"N", "N", N}, {"t", "\\beta^*", in.target, unit::fraction}, {"v", "v", v}},
           o.min_microbatches_approx, unit::none);
  }
  if (M < N) d.warn("Fewer microbatches than stages: some stages never work at the same time.");
  return o;
}

void register_pipeline(Registry& r) {
  {
    using In = ScaleFsdpTpIn;
    using Out = ScaleFsdpTpOut;
    r.add(declare<scale_fsdp_tp>(
        {"scale.fsdp_tp", "Compute-bound batch with FSDP + TP", "memory",
         "The smallest batch at which a mixed FSDP × TP forward pass is compute-bound, per "
         "device and in whole sequences, the communication-optimal FSDP degree, and the times.",
         "Austin et al. 2025, How to Scale Your Model, “Training” (mixed FSDP and TP)",
         "docs/memory.md#scalefsdp_tp"},
        {num("d_model", NAPKIN_FIELD(In, d_model), "Model width D")
             .help("Hidden size D")
             .positive(1e6)
             .integer()
             .required(),
         num("d_ff", NAPKIN_FIELD(In, d_ff), "FFN width F")
             .help("Feed-forward width F")
             .positive(1e7)
             .integer()
             .required(),
         num("fsdp", NAPKIN_FIELD(In, fsdp), "FSDP degree X")
             .meaning("dp")  // the scenario's data-parallel degree: FSDP shards over it
             .help("FSDP degree X")
             .positive(1e6)
             .integer(),
         num("tp", NAPKIN_FIELD(In, tp), "TP degree Y")
             .help("Tensor-parallel degree Y")
             .positive(1e4)
             .integer(),
         num("peak_flops", NAPKIN_FIELD(In, peak_flops), "Peak FLOP/s per chip C", unit::flops)
             .help("Peak FLOP/s of one chip")
             .positive(1e17),
         num("ici_bandwidth", NAPKIN_FIELD(In, ici_bandwidth), "ICI bandwidth per axis W",
             unit::bytes_per_s)
             .help("Inter-chip bandwidth per mesh axis, one direction")
             .positive(1e14),
         num("fsdp_axes", NAPKIN_FIELD(In, fsdp_axes), "Mesh axes for FSDP M_X")
             .help("Mesh axes FSDP communicates over")
             .positive(3)
             .integer(),
         num("tp_axes", NAPKIN_FIELD(In, tp_axes), "Mesh axes for TP M_Y")
             .help("Mesh axes TP communicates over")
             .positive(3)
             .integer(),
         num("seq_len", NAPKIN_FIELD(In, seq_len), "Sequence length", unit::tokens)
             .help("Tokens per sequence")
             .positive(1e7)
             .integer(),
         num("batch_tokens", NAPKIN_FIELD(In, batch_tokens),
             "Batch (tokens; 0 = smallest compute-bound)", unit::tokens)
             .help("Tokens per batch to evaluate; 0 takes the smallest compute-bound batch")
             .range(0, 1e10),
         num("n_layers", NAPKIN_FIELD(In, n_layers), "Blocks L")
             .help("Transformer blocks")
             .positive(1e5)
             .integer(),
         num("bytes", NAPKIN_FIELD(In, bytes), "Bytes per value on the wire")
             .help("Bytes per value sent between chips")
             .positive(8)},
        {out("alpha", NAPKIN_FIELD(Out, alpha), "α = C/W", unit::flop_per_byte)
             .help("C ÷ W: FLOPs a chip does while one byte crosses a link"),
         out("min_batch_tokens", NAPKIN_FIELD(Out, min_batch_tokens), "Min batch", unit::tokens)
             .optional()
             .help("Smallest batch in tokens that keeps the chips compute-bound (absent: no batch "
                   "is enough)"),
         out("min_tokens_per_device", NAPKIN_FIELD(Out, min_tokens_per_device), "Min per device",
             unit::tokens)
             .optional()
             .help("The same per device (absent: no batch is enough)"),
         out("min_sequences", NAPKIN_FIELD(Out, min_sequences), "Min sequences")
             .optional()
             .help("The smallest batch in whole sequences (absent: no batch is enough)"),
         out("optimal_fsdp", NAPKIN_FIELD(Out, optimal_fsdp), "Optimal FSDP degree")
             .help("The FSDP degree that minimises the compute-bound batch"),
         out("min_tokens_per_device_optimal", NAPKIN_FIELD(Out, min_tokens_per_device_optimal),
             "Min per device at X_opt", unit::tokens)
             .help("Per-device batch at the optimal FSDP degree"),
         out("compute_time", NAPKIN_FIELD(Out, compute_time), "Forward compute", unit::seconds)
             .help("Forward compute of the evaluated batch"),
         out("fsdp_comm_time", NAPKIN_FIELD(Out, fsdp_comm_time), "FSDP comm", unit::seconds)
             .help("Time of FSDP's weight all-gathers"),
         out("tp_comm_time", NAPKIN_FIELD(Out, tp_comm_time), "TP comm", unit::seconds)
             .help("Time of TP's activation collectives"),
         out("eval_batch_tokens", NAPKIN_FIELD(Out, eval_batch_tokens), "Batch evaluated",
             unit::tokens)
             .help("The batch the times are for"),
         out("compute_bound", NAPKIN_FIELD(Out, compute_bound), "Compute-bound")
             .help("Whether compute takes longer than either communication")}));
  }
  {
    using In = ParallelRecommendIn;
    using Out = ParallelRecommendOut;
    r.add(with_model_inputs<In>(
        declare<parallel_recommend>(
            {"parallel.recommend", "Recommended parallel layout", "memory",
             "The fastest TP × PP × DP layout that fits, from the layout search over the "
             "whole-step model; or the worked example's rule of thumb (TP within a node, PP "
             "across nodes for big models, DP for the rest).",
             "Narayanan et al. 2021 §3 (TP within a node)", "docs/memory.md#parallelrecommend"},
            {choice("method", NAPKIN_FIELD(In, method), "Method", "search|rule_of_thumb")
                 .help("Search: the fastest layout that fits, by train.step's time and memory; "
                       "rule of thumb: the worked example's TP-in-node, PP-across rule")
                 .labels("Search the layouts|Rule of thumb (worked example)"),
             num("params", NAPKIN_FIELD(In, params), "Parameters (0 = from the model shape)",
                 unit::params)
                 .help("Model size for the rule of thumb; 0 counts it from the model's shape "
                       "(the search always reads the shape)")
                 .range(0, 1e15),
             num("gpus", NAPKIN_FIELD(In, gpus), "GPUs", unit::gpus)
                 .help("Accelerators available")
                 .positive(1e5)
                 .integer(),
             num("gpus_per_node", NAPKIN_FIELD(In, gpus_per_node), "GPUs per node", unit::gpus)
                 .help("Accelerators joined by NVLink in one node")
                 .positive(1e4)
                 .integer(),
             num("gpu_memory", NAPKIN_FIELD(In, gpu_memory), "GPU memory", unit::bytes)
                 .help("Memory of one accelerator (an 80 GB H100 has 80 GiB)")
                 .positive(1e13),
             num("global_batch", NAPKIN_FIELD(In, global_batch), "Global batch (sequences)")
                 .help("Sequences per optimizer step, for the search")
                 .positive(1e8)
                 .integer(),
             num("seq_len", NAPKIN_FIELD(In, seq_len), "Sequence length", unit::tokens)
                 .help("Tokens per sequence, for the search")
                 .positive(1e7)
                 .integer(),
             num("peak_flops", NAPKIN_FIELD(In, peak_flops), "Peak FLOP/s per GPU", unit::flops)
                 .help("Dense BF16 peak from the datasheet (no sparsity)")
                 .positive(1e17),
             hbm_bandwidth_input(NAPKIN_FIELD(In, mem_bandwidth), "HBM bandwidth per GPU", 1e14),
             matmul_fraction_input(NAPKIN_FIELD(In, matmul_fraction)),
             attention_fraction_input(NAPKIN_FIELD(In, attention_fraction)),
             num("intra_bandwidth", NAPKIN_FIELD(In, intra_bandwidth), "Intra-node bandwidth",
                 unit::bytes_per_s)
                 .help("NVLink bandwidth per GPU in one direction")
                 .positive(1e15),
             num("intra_latency", NAPKIN_FIELD(In, intra_latency), "Intra-node latency",
                 unit::seconds)
                 .help("Latency of one step of a collective inside a node")
                 .range(0, 1),
             num("inter_bandwidth", NAPKIN_FIELD(In, inter_bandwidth),
                 "Inter-node bandwidth per GPU", unit::bytes_per_s)
                 .help("Network bandwidth per GPU in one direction (NDR: 50 GB/s)")
                 .positive(1e15),
             num("inter_latency", NAPKIN_FIELD(In, inter_latency), "Inter-node latency",
                 unit::seconds)
                 .help("Latency of one step of a collective across nodes")
                 .range(0, 1),
             intra_efficiency_input(NAPKIN_FIELD(In, intra_efficiency)),
             inter_efficiency_input(NAPKIN_FIELD(In, inter_efficiency)),
             launch_latency_input(NAPKIN_FIELD(In, launch_latency)),
             num("fit_factor", NAPKIN_FIELD(In, fit_factor), "Fit factor (× BF16 weights)")
                 .help("Rule of thumb: training memory as a multiple of the BF16 weights")
                 .positive(1000)},
            {out("tp", NAPKIN_FIELD(Out, tp), "TP").help("Tensor-parallel degree"),
             out("pp", NAPKIN_FIELD(Out, pp), "PP").help("Pipeline stages"),
             out("dp", NAPKIN_FIELD(Out, dp), "DP").help("Data-parallel replicas: the GPUs left"),
             out("zero_stage", NAPKIN_FIELD(Out, zero_stage), "ZeRO stage")
                 .help("ZeRO stage: 3 shards the weights too (FSDP)"),
             out("checkpointing", NAPKIN_FIELD(Out, checkpointing), "Recompute activations")
                 .help("Whether activations are recomputed (selective or full)"),
             out("rationale", NAPKIN_FIELD(Out, rationale), "Rationale")
                 .help("How it chose, in one sentence"),
             out("nodes", NAPKIN_FIELD(Out, nodes), "Nodes").help("Nodes used"),
             out("memory_per_gpu", NAPKIN_FIELD(Out, memory_per_gpu), "Memory per GPU", unit::bytes)
                 .help("Training memory on the busiest GPU, by the same check that chose it"),
             out("fits", NAPKIN_FIELD(Out, fits), "Fits").help("Whether that is within GPU memory"),
             out("cp", NAPKIN_FIELD(Out, cp), "CP").help("Context-parallel degree"),
             out("ep", NAPKIN_FIELD(Out, ep), "EP").help("Expert-parallel degree (MoE)"),
             out("microbatch", NAPKIN_FIELD(Out, microbatch), "Microbatch")
                 .optional()
                 .help("Sequences per microbatch (search)"),
             out("recompute", NAPKIN_FIELD(Out, recompute), "Recomputation")
                 .help("None, selective (attention) or full"),
             out("sequence_parallel", NAPKIN_FIELD(Out, sequence_parallel), "Sequence parallelism")
                 .help("Whether TP also splits the sequence in norms and dropouts"),
             out("step_time", NAPKIN_FIELD(Out, step_time), "Step time", unit::seconds)
                 .optional()
                 .help("train.step's time for that layout (search)"),
             out("mfu", NAPKIN_FIELD(Out, mfu), "MFU", unit::fraction)
                 .optional()
                 .help("Model FLOPs utilisation of that layout (search)"),
             out("layouts_evaluated", NAPKIN_FIELD(Out, layouts_evaluated), "Layouts searched")
                 .optional()
                 .help("Layouts the search counted, evaluated or rejected")}),
        13));
  }
  {
    using In = PipeBubbleIn;
    using Out = PipeBubbleOut;
    r.add(declare<pipe_bubble>(
        {"pipe.bubble", "Pipeline bubble", "memory",
         "Idle fraction of a pipeline-parallel step (exact and approximate), interleaving, "
         "point-to-point sends, and the microbatches needed for a target bubble.",
         "Narayanan et al. 2021 §2.2; Huang et al. 2019 (GPipe) §2.3", "docs/memory.md#pipebubble"},
        {num("stages", NAPKIN_FIELD(In, stages), "Stages N")
             .help("Pipeline stages N")
             .positive(1e4)
             .integer()
             .required(),
         num("microbatches", NAPKIN_FIELD(In, microbatches), "Microbatches M")
             .help("Micro-batches M per step")
             .positive(1e6)
             .integer()
             .required(),
         num("batch", NAPKIN_FIELD(In, batch), "Batch (0 = not given)")
             .help("Global batch in sequences, for the micro-batch size")
             .range(0, 1e8)
             .integer(),
         num("interleave", NAPKIN_FIELD(In, interleave), "Chunks per device v")
             .help("Model chunks per device (Megatron interleaving)")
             .positive(64)
             .integer(),
         num("target", NAPKIN_FIELD(In, target), "Target bubble (0 = none)", unit::fraction)
             .help("A bubble fraction to stay under")
             .range(0, 0.99)},
        {out("bubble_fraction", NAPKIN_FIELD(Out, bubble_fraction), "Bubble (exact)",
             unit::fraction)
             .help("(N − 1) ÷ (vM + N − 1): idle share of the step"),
         out("bubble_approx", NAPKIN_FIELD(Out, bubble_approx), "Bubble ≈ (N−1)/M", unit::fraction)
             .help("(N − 1) ÷ vM: the usual approximation"),
         out("microbatch_size", NAPKIN_FIELD(Out, microbatch_size), "Microbatch size")
             .optional()
             .help("Batch ÷ microbatches; shown when the batch is given"),
         out("p2p_ops", NAPKIN_FIELD(Out, p2p_ops), "P2P sends per step")
             .help("Point-to-point sends between stages per step"),
         out("min_microbatches", NAPKIN_FIELD(Out, min_microbatches), "Min microbatches for target")
             .optional()
             .help("Fewest microbatches that keep the bubble under the target; needs a target"),
         out("min_microbatches_approx", NAPKIN_FIELD(Out, min_microbatches_approx),
             "Min microbatches (approx.)")
             .optional()
             .help("The same from the (N−1)/M approximation; needs a target"),
         out("efficiency", NAPKIN_FIELD(Out, efficiency), "Pipeline efficiency", unit::fraction)
             .help("1 − bubble")}));
  }
}

}  // namespace napkin
