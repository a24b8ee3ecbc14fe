#include "memory/memory.hpp"

#include <algorithm>
#include <cmath>

#include "base/units.hpp"
#include "root/areas.hpp"
#include "scenario/training_memory.hpp"

namespace napkin {

// The study notes' `calculate_memory_per_gpu` (docs/memory.md) and Rajbhandari et al. 2020 (ZeRO)
// §3, §5.1–5.3 and Figure 1: mixed-precision Adam keeps 2Ψ of BF16 weights, 2Ψ of BF16 gradients
// and KΨ of optimizer state with K = 12 (fp32 master copy, momentum, variance): 16Ψ in all. TP and
// PP split every model state by tp·pp; ZeRO-1 (P_os) further shards the optimizer states over dp,
// ZeRO-2 (P_os+g) also the gradients, ZeRO-3 (P_os+g+p) also the weights. Activations by
// default are Korthikanti et al. 2022's per-layer count (Table 2, generalised to GQA and gated
// FFNs) for the microbatch, sequence and recomputation, times the layers and microbatches in
// flight on the busiest stage (the shared training_memory); the notes' rule of thumb,
// 10 × (params/(tp·pp)) × weight bytes (3 × with checkpointing), stays an option.
Result<MemTrainingOut> mem_training(const MemTrainingIn& in, Derivation& d) {
  MemTrainingOut o{};
  if (in.zero_stage < 0 || in.zero_stage > 3)
    return Error::inconsistent("zero_stage", in.zero_stage, "must be 0, 1, 2 or 3");
  if (in.activations == "explicit" && in.activation_bytes <= 0)
    d.warn("activations = explicit with activation_bytes = 0: no activation memory counted.");
  const bool shape_needed = in.activations == "korthikanti" || in.params <= 0;
  Model m;
  if (shape_needed) {
    Result<Model> mr = to_model(in);
    if (!mr.ok()) return mr.error();
    m = mr.value();
    if (in.pp > m.layers)
      return Error::inconsistent(
          "pp", in.pp,
          "at most the layers (" + std::to_string(m.layers) + "): each stage needs a layer");
  }
  const double params = in.params > 0 ? in.params : model_params(m).total;
  if (in.params <= 0)
    parameter_count_step(d, model_params(m), "\\Psi");
  else if (in.activations == "korthikanti") {
    const double shape = model_params(m).total;
    if (std::fabs(shape - params) > 0.1 * params)
      d.warn("params (" + format_value(params, unit::params) +
             ") differs by more than 10% from the model shape's " +
             format_value(shape, unit::params) +
             ": the states use params, the activations the shape. Set the shape (or a model "
             "preset) to match, or params = 0 to take it from the shape.");
  }
  const double mp = double(in.tp) * in.pp, dp = in.dp;
  const double local = params / mp;
  d.step(
      "Parameters held per model-parallel shard", "\\Psi_{\\text{local}}",
      "\\frac{$N}{$t \\cdot $p}",
      {{"N", "\\Psi", params, unit::params}, {"t", "t", double(in.tp)}, {"p", "p", double(in.pp)}},
      local, unit::params);
  const double sw = in.zero_stage >= 3 ? dp : 1, sg = in.zero_stage >= 2 ? dp : 1,
               so = in.zero_stage >= 1 ? dp : 1;
  o.weights = local * in.weight_bytes / sw;
  d.step(in.zero_stage >= 3 ? "Weights (ZeRO-3 shards them over dp)" : "Weights", "M_w",
         in.zero_stage >= 3 ? "\\frac{$P \\cdot $b}{$d}" : "$P \\cdot $b",
         {{"P", "\\Psi_{\\text{local}}", local, unit::params},
          {"b", "b_w", in.weight_bytes},
          {"d", "N_d", dp}},
         o.weights, unit::bytes);
  o.gradients = local * in.grad_bytes / sg;
  d.step(in.zero_stage >= 2 ? "Gradients (ZeRO-2/3 shard them over dp)" : "Gradients", "M_g",
         in.zero_stage >= 2 ? "\\frac{$P \\cdot $b}{$d}" : "$P \\cdot $b",
         {{"P", "\\Psi_{\\text{local}}", local, unit::params},
          {"b", "b_g", in.grad_bytes},
          {"d", "N_d", dp}},
         o.gradients, unit::bytes);
  o.optimizer = local * in.optimizer_bytes / so;
  d.step(in.zero_stage >= 1 ? "Optimizer states (ZeRO-1+ shards them over dp)" : "Optimizer states",
         "M_o", in.zero_stage >= 1 ? "\\frac{$P \\cdot $K}{$d}" : "$P \\cdot $K",
         {{"P", "\\Psi_{\\text{local}}", local, unit::params},
          {"K", "K", in.optimizer_bytes},
          {"d", "N_d", dp}},
         o.optimizer, unit::bytes);
  o.model_states = o.weights + o.gradients + o.optimizer;

  const bool full = in.checkpointing || in.recompute == "full";
  double act_per_param = 0;  // activation bytes that scale with the local parameters
  if (in.activations == "korthikanti") {
    Layout l;
    l.tp = in.tp;
    l.pp = in.pp;
    l.dp = in.dp;
    l.zero_stage = in.zero_stage;
    l.microbatch = in.micro_batch;
    l.microbatches = in.microbatches > 0 ? in.microbatches : in.pp;
    l.recompute = full                          ? Recompute::Full
                  : in.recompute == "selective" ? Recompute::Selective
                                                : Recompute::None;
    l.sequence_parallel = in.sequence_parallel;
    l.flash_attention = in.flash_attention;
    const double per_layer = activation_bytes_per_layer(m, l, in.seq_len);
    d.step(full ? "Activations per layer, full recomputation: the layer input only (Korthikanti "
                  "et al. 2022)"
                : "Activations per layer and microbatch (Korthikanti et al. 2022, Table 2, for "
                  "this attention and FFN)",
           "A_{\\text{layer}}", "A(s = $s,\\ b = $b,\\ h = $h,\\ a = $a,\\ t = $t)",
           {{"s", "s", in.seq_len, unit::tokens},
            {"b", "b", double(in.micro_batch)},
            {"h", "h", m.d_model},
            {"a", "a", double(m.heads)},
            {"t", "t", double(l.tp)}},
           per_layer, unit::bytes);
    o.activations = training_memory(m, l, in.seq_len).activations;
    const double stage = stage_layers(m.layers, l);
    const double flight = std::min(l.pp, l.microbatches);
    d.step("Activations on the busiest GPU: its layers × microbatches in flight (1F1B)", "M_a",
           "$A \\cdot $L \\cdot $m",
           {{"A", "A_{\\text{layer}}", per_layer, unit::bytes},
            {"L", "L_{\\text{stage}}", stage},
            {"m", "m", flight}},
           o.activations, unit::bytes);
    if (in.flash_attention && !full && in.recompute != "selective")
      d.note("Fused attention",
             "FlashAttention never stores the s × s scores (it recomputes them in backward), so "
             "Table 2's 5as/h term is left out; turn fused attention off for the paper's count.");
  } else if (in.activations == "rule_of_thumb") {
    const double f = full ? in.checkpoint_factor : in.activation_factor;
    act_per_param = f * in.weight_bytes;
    o.activations = local * act_per_param;
    d.step(full ? "Activations (worked example's rule of thumb, checkpointed)"
                : "Activations (worked example's rule of thumb)",
           "M_a", "$f \\cdot $P \\cdot $b",
           {{"f", "f", f},
            {"P", "\\Psi_{\\text{local}}", local, unit::params},
            {"b", "b_w", in.weight_bytes}},
           o.activations, unit::bytes);
    d.note("Assumption",
           "The rule of thumb scales activations with the model, not with batch or sequence "
           "length; activations = Korthikanti counts them per layer for the batch and sequence.");
  } else if (in.activations == "explicit") {
    o.activations = in.activation_bytes;
    d.step("Activations (given)", "M_a", "$A", {{"A", "A", in.activation_bytes, unit::bytes}},
           o.activations, unit::bytes);
  }
  o.total = o.model_states + o.activations;
  d.step("Total per GPU", "M", "$w + $g + $o + $a",
         {{"w", "M_w", o.weights, unit::bytes},
          {"g", "M_g", o.gradients, unit::bytes},
          {"o", "M_o", o.optimizer, unit::bytes},
          {"a", "M_a", o.activations, unit::bytes}},
         o.total, unit::bytes);
  o.fits = o.total <= in.gpu_memory;
  o.headroom = in.gpu_memory - o.total;
  d.note("Verdict", o.fits ? "Fits in " + format_value(in.gpu_memory, unit::bytes) + " with " +
                                 format_value(o.headroom, unit::bytes) + " to spare."
                           : "Does not fit: " + format_value(-o.headroom, unit::bytes) + " over " +
                                 format_value(in.gpu_memory, unit::bytes) + ".");

  // Every term but explicit activations is linear in the parameter count, so the largest
  // model that fits is (memory − fixed bytes) / (bytes per parameter per GPU).
  o.bytes_per_param =
      (in.weight_bytes / sw + in.grad_bytes / sg + in.optimizer_bytes / so + act_per_param) / mp;
  const double fixed = in.activations == "explicit"      ? in.activation_bytes
                       : in.activations == "korthikanti" ? o.activations
                                                         : 0;
  o.max_params = in.gpu_memory > fixed ? (in.gpu_memory - fixed) / o.bytes_per_param : not_given;
  if (std::isnan(o.max_params))
    d.note("Largest model that fits",
           "None: the activations alone fill the GPU's memory, whatever the parameter count.");
  else
    d.step("Largest model that fits this configuration", "\\Psi_{\\max}", "\\frac{$M - $A}{$c}",
           {{"M", "M_{\\text{GPU}}", in.gpu_memory, unit::bytes},
            {"A", "A", fixed, unit::bytes},
            {"c", "c", o.bytes_per_param}},
           o.max_params, unit::params);
  if (in.zero_stage > 0 && in.dp == 1)
    d.warn("ZeRO with dp = 1 shards nothing: every state stays on the one replica.");
  return o;
}

// Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models":
// bytes of activations per transformer layer with 16-bit activations (§4.1, eq. 1),
// with tensor parallelism (§4.2.1), with sequence parallelism (§4.2.2) — all in Table 2.
// Selective recomputation (§5) drops the attention-score term 5as/h; full recomputation keeps
// only each layer's input, 2sbh. With pipeline parallelism the first stage of a 1F1B schedule
// holds p microbatches of L/p layers in flight (§4.2.3), i.e. L layers' worth.
Result<MemActivationsOut> mem_activations(const MemActivationsIn& in, Derivation& d) {
  MemActivationsOut o{};
  const double s = in.seq_len, b = in.micro_batch, h = in.d_model, a = in.n_heads, L = in.n_layers,
               t = in.tp;
  if (std::fmod(a, t) != 0)
    return Error::inconsistent("tp", t,
                               "must divide n_heads (" + format_value(a, "") +
                                   ") so each rank "
                                   "holds whole heads");
  if (std::fmod(L, in.pp) != 0)
    return Error::inconsistent("pp", in.pp,
                               "must divide n_layers (" + format_value(L, "") +
                                   ") so each stage "
                                   "holds whole layers");
  if (in.sequence_parallel && in.tp == 1)
    d.warn("Sequence parallelism only splits activations across a tensor-parallel group (tp > 1).");
  const double sbh = s * b * h;
  o.attention_term = 5 * a * s / h;
  d.step("Attention-score term", "\\frac{5as}{h}", "\\frac{5 \\cdot $a \\cdot $s}{$h}",
         {{"a", "a", a}, {"s", "s", s}, {"h", "h", h}}, o.attention_term, unit::none);
  const bool sp = in.sequence_parallel;
  if (sp)
    o.per_layer_no_recompute = sbh / t * (34 + o.attention_term);
  else
    o.per_layer_no_recompute = sbh * (10 + 24 / t + o.attention_term / t);
  if (sp)
    d.step("Per layer, TP + sequence parallel, no recomputation", "A_0",
           "\\frac{$s \\cdot $b \\cdot $h}{$t} \\left(34 + $x\\right)",
           {{"s", "s", s},
            {"b", "b", b},
            {"h", "h", h},
            {"t", "t", t},
            {"x", "\\frac{5as}{h}", o.attention_term}},
           o.per_layer_no_recompute, unit::bytes);
  else
    d.step("Per layer, no recomputation", "A_0",
           "$s \\cdot $b \\cdot $h \\left(10 + \\frac{24}{$t} + \\frac{$x}{$t}\\right)",
           {{"s", "s", s},
            {"b", "b", b},
            {"h", "h", h},
            {"t", "t", t},
            {"x", "\\frac{5as}{h}", o.attention_term}},
           o.per_layer_no_recompute, unit::bytes);
  if (in.recompute == "selective") {
    o.per_layer = sp ? sbh * 34 / t : sbh * (10 + 24 / t);
    d.step("Per layer, selective recomputation (attention scores recomputed)", "A",
           sp ? "\\frac{34 \\cdot $s \\cdot $b \\cdot $h}{$t}"
              : "$s \\cdot $b \\cdot $h \\left(10 + \\frac{24}{$t}\\right)",
           {{"s", "s", s}, {"b", "b", b}, {"h", "h", h}, {"t", "t", t}}, o.per_layer, unit::bytes);
  } else if (in.recompute == "full") {
    // Korthikanti et al. 2022, Table 2: only the layer input is kept, 2sbh.
    o.per_layer = 2 * sbh;
    d.step("Per layer, full recomputation (only the layer input is kept)", "A",
           "2 \\cdot $s \\cdot $b \\cdot $h", {{"s", "s", s}, {"b", "b", b}, {"h", "h", h}},
           o.per_layer, unit::bytes);
    // At extreme tensor parallelism with sequence parallelism the sharded activations are
    // already smaller than one unsharded layer input: nobody would recompute then.
    if (o.per_layer > o.per_layer_no_recompute) {
      o.per_layer = o.per_layer_no_recompute;
      d.warn(
          "At this tensor parallelism the sharded activations are smaller than the 2sbh "
          "input full recomputation keeps: it saves nothing, so none is assumed.");
    }
  } else {
    o.per_layer = o.per_layer_no_recompute;
  }
  o.saved_fraction = 1 - o.per_layer / o.per_layer_no_recompute;
  d.step(
      "Saved by recomputation", "\\text{saved}", "1 - \\frac{$A}{$Z}",
      {{"A", "A", o.per_layer, unit::bytes}, {"Z", "A_0", o.per_layer_no_recompute, unit::bytes}},
      o.saved_fraction, unit::fraction);
  o.layers_per_stage = L / in.pp;
  o.in_flight_microbatches =
      in.microbatches > 0 ? std::min<double>(in.pp, in.microbatches) : double(in.pp);
  o.total = o.per_layer * o.layers_per_stage * o.in_flight_microbatches;
  d.step("First pipeline stage holds", "A_{\\text{total}}", "$A \\cdot \\frac{$L}{$p} \\cdot $m",
         {{"A", "A", o.per_layer, unit::bytes},
          {"L", "L", L},
          {"p", "p", double(in.pp)},
          {"m", "m_{\\text{in flight}}", o.in_flight_microbatches}},
         o.total, unit::bytes);
  if (in.pp > 1)
    d.note("Pipeline",
           "In 1F1B the first stage has p microbatches in flight, each with L/p "
           "layers of activations: L layers' worth, whatever p is (Korthikanti et "
           "al. §4.2.3). Embedding and output-layer activations are not counted.");
  return o;
}

// The XXL worked example, parts (a) and (b) (docs/memory.md). Model states: master weights +
// accumulated gradients + two Adam moments, all fp32 (4 + 4 + 8 bytes per parameter). Activations
// of the FFN-only model: each block keeps the inputs of its two linears, b·s·(d + d_ff) values.
// FSDP shards the model states and a fraction f of the activations over N devices; the rest is
// replicated: M(N) = (states + f·A)/N + (1 − f)·A.
Result<MemFsdpOut> mem_fsdp(const MemFsdpIn& in, Derivation& d) {
  MemFsdpOut o{};
  const double per_param = in.master_bytes + in.grad_bytes + in.optimizer_bytes;
  o.model_states = in.params * per_param;
  d.step("Master weights, gradients and optimizer states", "S", "$N \\cdot ($m + $g + $o)",
         {{"N", "N", in.params, unit::params},
          {"m", "b_m", in.master_bytes},
          {"g", "b_g", in.grad_bytes},
          {"o", "b_o", in.optimizer_bytes}},
         o.model_states, unit::bytes);
  o.reference_gpus = ceil_count(o.model_states / in.reference_gpu_memory);
  d.step("Reference GPUs' worth of memory", "G", "\\left\\lceil \\frac{$S}{$M} \\right\\rceil",
         {{"S", "S", o.model_states, unit::bytes},
          {"M", "M_{\\text{ref}}", in.reference_gpu_memory, unit::bytes}},
         o.reference_gpus, unit::gpus);
  o.activations =
      in.n_layers * in.batch * in.seq_len * (in.d_model + in.d_ff) * in.activation_bytes;
  d.step("Activations saved for backward", "A", "$L \\cdot $b \\cdot $s \\cdot ($d + $f) \\cdot $p",
         {{"L", "L", in.n_layers},
          {"b", "b", in.batch},
          {"s", "s", in.seq_len},
          {"d", "d", in.d_model},
          {"f", "d_{ff}", in.d_ff},
          {"p", "b_a", in.activation_bytes}},
         o.activations, unit::bytes);
  o.backward_activations = o.activations;
  o.bf16_grad_saving = in.params * std::max(0.0, in.grad_bytes - in.backward_grad_bytes);
  d.step("The worked example's reading of (a): gradients in BF16 instead of FP32", "\\Delta_g",
         "$N \\cdot ($g - $h)",
         {{"N", "N", in.params, unit::params},
          {"g", "b_g", in.grad_bytes},
          {"h", "b_{g,\\text{bwd}}", in.backward_grad_bytes}},
         o.bf16_grad_saving, unit::bytes);
  d.note("Two readings of “memory saved for backward”",
         "Most likely the question asks for the activations saved for the backward pass (A, in "
         "BF16); the worked example instead computed what BF16 gradients save over FP32. Both are "
         "outputs.");
  const double f = in.activation_sharded_fraction;
  const double sharded = o.model_states + f * o.activations, replicated = (1 - f) * o.activations;
  o.per_device = sharded / in.n_fsdp + replicated;
  d.step("Per device with FSDP", "M", "\\frac{$S + $f \\cdot $A}{$n} + (1 - $f) \\cdot $A",
         {{"S", "S", o.model_states, unit::bytes},
          {"f", "f", f},
          {"A", "A", o.activations, unit::bytes},
          {"n", "N_{\\text{FSDP}}", in.n_fsdp}},
         o.per_device, unit::bytes);
  o.fits = o.per_device <= in.device_memory;
  if (replicated < in.device_memory) {
    o.min_devices = ceil_count(sharded / (in.device_memory - replicated));
    d.step("Smallest N_FSDP that fits", "N_{\\min}",
           "\\left\\lceil \\frac{$S + $f \\cdot $A}{$M - (1 - $f) \\cdot $A} \\right\\rceil",
           {{"S", "S", o.model_states, unit::bytes},
            {"f", "f", f},
            {"A", "A", o.activations, unit::bytes},
            {"M", "M_{\\text{dev}}", in.device_memory, unit::bytes}},
           o.min_devices, unit::none);
  } else {
    o.min_devices = not_given;  // no device count is enough: absent, not 0
    d.warn(
        "The replicated activations alone exceed device memory: no N_FSDP suffices, "
        "so there is no minimum. Shard more activations, checkpoint, or shrink the batch.");
  }
  o.min_devices_model_states_only = ceil_count(o.model_states / in.device_memory);
  d.step("Smallest N_FSDP ignoring activations", "N_{\\min,0}",
         "\\left\\lceil \\frac{$S}{$M} \\right\\rceil",
         {{"S", "S", o.model_states, unit::bytes},
          {"M", "M_{\\text{dev}}", in.device_memory, unit::bytes}},
         o.min_devices_model_states_only, unit::none);
  if (in.n_fsdp > 1 && in.activation_sharded_fraction > 0 && in.n_layers < 2)
    d.warn("Sharding a fraction of the activations assumes several layers to alternate over.");
  return o;
}

void register_memory(Registry& r) {
  constexpr double kMaxParams = 1e15, kMaxBytes = 1e15, kMaxDegree = 1e5;
  {
    using In = MemTrainingIn;
    using Out = MemTrainingOut;
    r.add(with_model_inputs<In>(
        declare<mem_training>(
            {"mem.training", "Training memory per GPU", "memory",
             "Weights, gradients, optimizer states and activations per GPU under TP, PP, DP and "
             "ZeRO 0–3, whether that fits, and the largest model this configuration can hold.",
             "Rajbhandari et al. 2020 (ZeRO), §5 and Figure 1", "docs/memory.md#memtraining"},
            {num("params", NAPKIN_FIELD(In, params), "Parameters (0 = from the model shape)",
                 unit::params)
                 .help("Model size N: the number of trainable parameters; 0 counts them from "
                       "the model's shape")
                 .range(0, kMaxParams),
             num("tp", NAPKIN_FIELD(In, tp), "Tensor parallel")
                 .help("Tensor-parallel degree: each GPU holds 1/tp of every layer")
                 .positive(kMaxDegree),
             num("pp", NAPKIN_FIELD(In, pp), "Pipeline parallel")
                 .help("Pipeline stages: each GPU holds 1/pp of the layers")
                 .positive(kMaxDegree),
             num("dp", NAPKIN_FIELD(In, dp), "Data parallel")
                 .help("Data-parallel replicas, over which ZeRO shards its states")
                 .positive(1e7)
                 .example(8),  // the page starts where ZeRO stages differ (at DP = 1 they cannot)
             num("zero_stage", NAPKIN_FIELD(In, zero_stage), "ZeRO stage")
                 .range(0, 3)
                 .help("0 none; 1 optimizer states; 2 + gradients; 3 + weights (sharded over dp)"),
             num("weight_bytes", NAPKIN_FIELD(In, weight_bytes), "Bytes per weight")
                 .help("2 for BF16 or FP16 weights, 4 for FP32")
                 .positive(64),
             num("grad_bytes", NAPKIN_FIELD(In, grad_bytes), "Bytes per gradient")
                 .help("2 for BF16 gradients, 4 for FP32")
                 .range(0, 64),
             num("optimizer_bytes", NAPKIN_FIELD(In, optimizer_bytes),
                 "Optimizer bytes per parameter")
                 .range(0, 64)
                 .help("12 = mixed-precision Adam: fp32 master copy 4 + momentum 4 + variance 4, "
                       "16 bytes per parameter with BF16 weights and gradients (ZeRO paper); "
                       "8 = the two moments only (the worked example)"),
             choice("activations", NAPKIN_FIELD(In, activations), "Activations",
                    "korthikanti|rule_of_thumb|none|explicit")
                 .help("Korthikanti et al.: per layer for this batch, sequence and "
                       "recomputation; or the worked example's 10× local weights")
                 .labels("Per layer (Korthikanti et al.)|Rule of thumb (10× local "
                         "weights)|None|Given explicitly"),
             num("activation_bytes", NAPKIN_FIELD(In, activation_bytes),
                 "Activation bytes per GPU (explicit)", unit::bytes)
                 .help("Activation memory per GPU when given explicitly")
                 .range(0, kMaxBytes),
             num("seq_len", NAPKIN_FIELD(In, seq_len), "Sequence length", unit::tokens)
                 .help("Tokens per sequence")
                 .positive(1e8)
                 .integer(),
             num("micro_batch", NAPKIN_FIELD(In, micro_batch), "Microbatch (sequences)")
                 .help("Sequences per microbatch on one GPU")
                 .positive(1e6),
             num("microbatches", NAPKIN_FIELD(In, microbatches), "Microbatches per step (0 = PP)")
                 .help("Microbatches per step per pipeline; 1F1B keeps min(PP, this) in flight "
                       "on the first stage; 0 takes PP")
                 .range(0, 1e6),
             choice("recompute", NAPKIN_FIELD(In, recompute), "Activation recomputation",
                    "none|selective|full")
                 .help("Selective re-runs attention in backward; full keeps only each layer's "
                       "input")
                 .labels("None|Selective (attention)|Full"),
             flag("sequence_parallel", NAPKIN_FIELD(In, sequence_parallel), "Sequence parallelism")
                 .help("Splits the layer norms' and dropouts' activations over the TP group too"),
             flag("flash_attention", NAPKIN_FIELD(In, flash_attention), "Fused (flash) attention")
                 .help("Never stores the attention scores: drops Korthikanti et al.'s 5as/h "
                       "term"),
             flag("checkpointing", NAPKIN_FIELD(In, checkpointing), "Gradient checkpointing")
                 .help("Keep only layer inputs and recompute the rest (full recomputation)"),
             num("gpu_memory", NAPKIN_FIELD(In, gpu_memory), "GPU memory", unit::bytes)
                 .help("Memory of one accelerator, to check the fit (an 80 GB H100 has 80 GiB)")
                 .positive(1e13),
             num("activation_factor", NAPKIN_FIELD(In, activation_factor),
                 "Rule-of-thumb activation factor")
                 .range(0, 1000)
                 .help("Worked example: activations ≈ 10 × local params × weight bytes"),
             num("checkpoint_factor", NAPKIN_FIELD(In, checkpoint_factor), "… with checkpointing")
                 .help("The rule-of-thumb factor when checkpointing is on")
                 .range(0, 1000)},
            {out("weights", NAPKIN_FIELD(Out, weights), "Weights", unit::bytes)
                 .help("Parameters on this GPU × bytes per weight"),
             out("gradients", NAPKIN_FIELD(Out, gradients), "Gradients", unit::bytes)
                 .help("Gradients on this GPU (sharded from ZeRO-2)"),
             out("optimizer", NAPKIN_FIELD(Out, optimizer), "Optimizer states", unit::bytes)
                 .help("Adam moments and master weights on this GPU (sharded from ZeRO-1)"),
             out("activations", NAPKIN_FIELD(Out, activations), "Activations", unit::bytes)
                 .help("Activations kept for the backward pass"),
             out("model_states", NAPKIN_FIELD(Out, model_states), "Model states", unit::bytes)
                 .help("Weights + gradients + optimizer states"),
             out("total", NAPKIN_FIELD(Out, total), "Total per GPU", unit::bytes)
                 .help("Model states + activations on one GPU"),
             out("fits", NAPKIN_FIELD(Out, fits), "Fits")
                 .help("Whether the total is within GPU memory"),
             out("max_params", NAPKIN_FIELD(Out, max_params), "Largest model that fits",
                 unit::params)
                 .optional()
                 .help("The largest model this layout fits in GPU memory (absent: none fits)"),
             out("headroom", NAPKIN_FIELD(Out, headroom), "Headroom", unit::bytes)
                 .help("GPU memory left after the total (negative: over)"),
             out("bytes_per_param", NAPKIN_FIELD(Out, bytes_per_param),
                 "Bytes per parameter per GPU")
                 .help("Model-state bytes (and rule-of-thumb activations) per parameter of the "
                       "whole model, on one GPU: 16 for mixed-precision Adam without sharding")}),
        20));
  }
  {
    using In = MemActivationsIn;
    using Out = MemActivationsOut;
    r.add(declare<mem_activations>(
        {"mem.activations", "Activation memory (Korthikanti et al.)", "memory",
         "Activation bytes per transformer layer and per GPU with tensor and sequence "
         "parallelism, selective or full recomputation, and 1F1B pipelining.",
         "Korthikanti et al. 2022, Reducing Activation Recomputation, Table 2 and §4.2.3",
         "docs/memory.md#memactivations"},
        {num("seq_len", NAPKIN_FIELD(In, seq_len), "Sequence length s", unit::tokens)
             .help("Tokens per sequence")
             .positive(1e7)
             .integer()
             .required(),
         num("micro_batch", NAPKIN_FIELD(In, micro_batch), "Micro-batch b")
             .help("Sequences in one micro-batch")
             .positive(1e5)
             .integer(),
         num("d_model", NAPKIN_FIELD(In, d_model), "Hidden size h")
             .help("Hidden size of the residual stream")
             .positive(1e6)
             .integer()
             .required(),
         num("n_heads", NAPKIN_FIELD(In, n_heads), "Attention heads a")
             .help("Attention heads")
             .positive(1e5)
             .integer()
             .required(),
         num("n_layers", NAPKIN_FIELD(In, n_layers), "Layers L")
             .help("Transformer blocks")
             .positive(1e5)
             .integer()
             .required(),
         num("tp", NAPKIN_FIELD(In, tp), "Tensor parallel t")
             .help("Tensor-parallel degree")
             .positive(kMaxDegree),
         flag("sequence_parallel", NAPKIN_FIELD(In, sequence_parallel), "Sequence parallelism")
             .help("Shard the norm and dropout activations over the TP ranks too"),
         choice("recompute", NAPKIN_FIELD(In, recompute), "Recomputation", "none|selective|full")
             .help("Recompute attention (selective) or whole layers (full) instead of storing them")
             .labels("None|Selective (attention only)|Full (per layer)"),
         num("pp", NAPKIN_FIELD(In, pp), "Pipeline parallel p")
             .help("Pipeline stages")
             .positive(kMaxDegree),
         num("microbatches", NAPKIN_FIELD(In, microbatches), "Microbatches in flight (0 = ≥ p)")
             .help("Micro-batches the first stage holds at once; 0 takes p (1F1B)")
             .range(0, 1e6)
             .integer()},
        {out("per_layer", NAPKIN_FIELD(Out, per_layer), "Per layer", unit::bytes)
             .help("Activation bytes of one layer with these settings"),
         out("total", NAPKIN_FIELD(Out, total), "Per GPU (first stage)", unit::bytes)
             .help("Per layer × layers per stage × micro-batches in flight"),
         out("saved_fraction", NAPKIN_FIELD(Out, saved_fraction), "Saved by recomputation",
             unit::fraction)
             .help("Memory saved by recomputation"),
         out("per_layer_no_recompute", NAPKIN_FIELD(Out, per_layer_no_recompute),
             "Per layer, no recompute", unit::bytes)
             .help("Activation bytes of one layer with nothing recomputed"),
         out("attention_term", NAPKIN_FIELD(Out, attention_term), "5as/h")
             .help("The 5as/h term of Korthikanti's formula: attention's share"),
         out("layers_per_stage", NAPKIN_FIELD(Out, layers_per_stage), "Layers per stage")
             .help("Layers ÷ pipeline stages"),
         out("in_flight_microbatches", NAPKIN_FIELD(Out, in_flight_microbatches),
             "Microbatches in flight")
             .help("Micro-batches whose activations the first stage keeps")}));
  }
  {
    using In = MemFsdpIn;
    using Out = MemFsdpOut;
    r.add(declare<mem_fsdp>(
        {"mem.fsdp", "FSDP memory per device", "memory",
         "FP32 model states plus activations of an FFN-only model sharded over N_FSDP devices, "
         "and how many devices it takes to fit (worked example).",
         "Rajbhandari et al. 2020 (ZeRO-3 = FSDP)", "docs/memory.md#memfsdp"},
        {num("params", NAPKIN_FIELD(In, params), "Parameters", unit::params)
             .help("Model size N: the number of trainable parameters")
             .positive(kMaxParams)
             .required(),
         num("master_bytes", NAPKIN_FIELD(In, master_bytes), "Master weight bytes")
             .help("Bytes per parameter of the FP32 master weights")
             .range(0, 64),
         num("grad_bytes", NAPKIN_FIELD(In, grad_bytes), "Accumulated gradient bytes")
             .help("Bytes per parameter of the accumulated gradients")
             .range(0, 64),
         num("optimizer_bytes", NAPKIN_FIELD(In, optimizer_bytes), "Optimizer bytes")
             .help("Bytes per parameter of the optimizer states")
             .range(0, 64),
         num("n_layers", NAPKIN_FIELD(In, n_layers), "Blocks L")
             .help("Transformer blocks")
             .positive(1e5)
             .integer(),
         num("batch", NAPKIN_FIELD(In, batch), "Batch b (sequences)")
             .help("Sequences per device")
             .range(0, 1e7)
             .integer(),
         num("seq_len", NAPKIN_FIELD(In, seq_len), "Sequence length s", unit::tokens)
             .help("Tokens per sequence")
             .positive(1e7)
             .integer(),
         num("d_model", NAPKIN_FIELD(In, d_model), "Model width d")
             .help("Hidden size of the residual stream")
             .positive(1e6)
             .integer(),
         num("d_ff", NAPKIN_FIELD(In, d_ff), "FFN width")
             .help("Inner width of the feed-forward")
             .range(0, 1e7)
             .integer(),
         num("activation_bytes", NAPKIN_FIELD(In, activation_bytes), "Activation bytes")
             .help("Bytes per stored activation value")
             .positive(8),
         num("activation_sharded_fraction", NAPKIN_FIELD(In, activation_sharded_fraction),
             "Sharded fraction of activations", unit::fraction)
             .help("Share of activations that FSDP can shard")
             .range(0, 1),
         num("n_fsdp", NAPKIN_FIELD(In, n_fsdp), "FSDP devices")
             .meaning("dp")  // the scenario's data-parallel degree: FSDP shards over it
             .help("Devices the model states are sharded over")
             .positive(1e7)
             .integer(),
         num("device_memory", NAPKIN_FIELD(In, device_memory), "Device memory", unit::bytes)
             .help("Memory of one device")
             .positive(1e13),
         num("reference_gpu_memory", NAPKIN_FIELD(In, reference_gpu_memory), "Reference GPU memory",
             unit::bytes)
             .help("Memory of a reference GPU, to express the total in GPUs")
             .positive(1e13),
         num("backward_grad_bytes", NAPKIN_FIELD(In, backward_grad_bytes),
             "Gradient bytes in backward")
             .help("Bytes per gradient value during the backward pass")
             .range(0, 64)},
        {out("model_states", NAPKIN_FIELD(Out, model_states), "Model states", unit::bytes)
             .help("Master weights, gradients and optimizer states on one device"),
         out("activations", NAPKIN_FIELD(Out, activations), "Activations", unit::bytes)
             .help("Activations on one device"),
         out("per_device", NAPKIN_FIELD(Out, per_device), "Per device", unit::bytes)
             .help("Model states + activations"),
         out("fits", NAPKIN_FIELD(Out, fits), "Fits")
             .help("Whether the per-device total is within device memory"),
         out("min_devices", NAPKIN_FIELD(Out, min_devices), "Minimum N_FSDP")
             .optional()
             .help("Fewest FSDP devices that fit (absent: no count is enough)"),
         out("min_devices_model_states_only", NAPKIN_FIELD(Out, min_devices_model_states_only),
             "Minimum N_FSDP without activations")
             .help("The same, ignoring activations"),
         out("reference_gpus", NAPKIN_FIELD(Out, reference_gpus), "Reference GPUs' worth",
             unit::gpus)
             .help("The whole model's memory in reference GPUs"),
         out("backward_activations", NAPKIN_FIELD(Out, backward_activations),
             "Activations saved for backward", unit::bytes)
             .help("Activations saved for the backward pass"),
         out("bf16_grad_saving", NAPKIN_FIELD(Out, bf16_grad_saving),
             "BF16-gradient saving (worked example's reading)", unit::bytes)
             .help("What BF16 instead of FP32 gradients saves")}));
  }
}

}  // namespace napkin
