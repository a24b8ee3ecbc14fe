#include "memory.hpp"

#include <algorithm>
#include <cmath>

#include "areas.hpp"
#include "units.hpp"

namespace napkin {

// Seed 001 §6 (`calculate_memory_per_gpu`) and Rajbhandari et al. 2020 (ZeRO) §5.1–5.3 and
// Figure 1: TP and PP split every model state by tp·pp; ZeRO-1 (P_os) further shards the
// optimizer states over dp, ZeRO-2 (P_os+g) also the gradients, ZeRO-3 (P_os+g+p) also the
// weights. The seed's activations are a rule of thumb: 10 × (params/(tp·pp)) × weight bytes,
// 3 × with gradient checkpointing.
Result<MemTrainingOut> mem_training(const MemTrainingIn& in, Derivation& d) {
  MemTrainingOut o{};
  if (in.zero_stage < 0 || in.zero_stage > 3)
    return Error::inconsistent("zero_stage", in.zero_stage, "must be 0, 1, 2 or 3");
  if (in.activations == "explicit" && in.activation_bytes <= 0)
    d.warn("activations = explicit with activation_bytes = 0: no activation memory counted.");
  const double mp = double(in.tp) * in.pp, dp = in.dp;
  const double local = in.params / mp;
  d.step("Parameters held per model-parallel shard", "\\Psi_{\\text{local}}",
         "\\frac{$N}{$t \\cdot $p}",
         {{"N", "\\Psi", in.params, unit::params},
          {"t", "t", double(in.tp)},
          {"p", "p", double(in.pp)}},
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

  double act_per_param = 0;  // activation bytes that scale with the local parameters
  if (in.activations == "rule_of_thumb") {
    const double f = in.checkpointing ? in.checkpoint_factor : in.activation_factor;
    act_per_param = f * in.weight_bytes;
    o.activations = local * act_per_param;
    d.step(in.checkpointing ? "Activations (seed's rule of thumb, checkpointed)"
                            : "Activations (seed's rule of thumb)",
           "M_a", "$f \\cdot $P \\cdot $b",
           {{"f", "f", f},
            {"P", "\\Psi_{\\text{local}}", local, unit::params},
            {"b", "b_w", in.weight_bytes}},
           o.activations, unit::bytes);
    d.note("Assumption",
           "The rule of thumb scales activations with the model, not with batch or sequence "
           "length; use mem.activations for Korthikanti et al.'s per-layer count and enter it "
           "with activations = explicit.");
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
  const double fixed = in.activations == "explicit" ? in.activation_bytes : 0;
  o.max_params = std::max(0.0, in.gpu_memory - fixed) / o.bytes_per_param;
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

// Seed 004 (a)/(b). Model states: master weights + accumulated gradients + two Adam moments,
// all fp32 (4 + 4 + 8 bytes per parameter). Activations of the FFN-only model: each block
// keeps the inputs of its two linears, b·s·(d + d_ff) values. FSDP shards the model states
// and a fraction f of the activations over N devices; the rest is replicated:
// M(N) = (states + f·A)/N + (1 − f)·A.
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
  d.step("The seed's reading of (a): gradients in BF16 instead of FP32", "\\Delta_g",
         "$N \\cdot ($g - $h)",
         {{"N", "N", in.params, unit::params},
          {"g", "b_g", in.grad_bytes},
          {"h", "b_{g,\\text{bwd}}", in.backward_grad_bytes}},
         o.bf16_grad_saving, unit::bytes);
  d.note("Two readings of “memory saved for backward”",
         "Most likely the question asks for the activations saved for the backward pass (A, in "
         "BF16); the seed instead computed what BF16 gradients save over FP32. Both are outputs.");
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
    o.min_devices = 0;
    d.warn(
        "The replicated activations alone exceed device memory: no N_FSDP suffices "
        "(min_devices = 0). Shard more activations, checkpoint, or shrink the batch.");
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
    r.add(declare<In, Out>(
        {"mem.training", "Training memory per GPU", "memory",
         "Weights, gradients, optimizer states and activations per GPU under TP, PP, DP and "
         "ZeRO 0–3, whether that fits, and the largest model this configuration can hold.",
         "Rajbhandari et al. 2020 (ZeRO), §5 and Figure 1; seed 001 §6",
         "docs/memory.md#memtraining"},
        {num("params", &In::params, "Parameters", unit::params).positive(kMaxParams).required(),
         num("tp", &In::tp, "Tensor parallel").positive(kMaxDegree),
         num("pp", &In::pp, "Pipeline parallel").positive(kMaxDegree),
         num("dp", &In::dp, "Data parallel").positive(1e7),
         num("zero_stage", &In::zero_stage, "ZeRO stage")
             .range(0, 3)
             .help("0 none; 1 optimizer states; 2 + gradients; 3 + weights (sharded over dp)"),
         num("weight_bytes", &In::weight_bytes, "Bytes per weight").positive(64),
         num("grad_bytes", &In::grad_bytes, "Bytes per gradient").range(0, 64),
         num("optimizer_bytes", &In::optimizer_bytes, "Optimizer bytes per parameter")
             .range(0, 64)
             .help(
                 "8 = two fp32 Adam moments (the seed); 12 adds an fp32 master copy (ZeRO paper)"),
         choice("activations", &In::activations, "Activations",
                {"rule_of_thumb", "none", "explicit"}),
         num("activation_bytes", &In::activation_bytes, "Activation bytes per GPU (explicit)",
             unit::bytes)
             .range(0, kMaxBytes),
         flag("checkpointing", &In::checkpointing, "Gradient checkpointing"),
         num("gpu_memory", &In::gpu_memory, "GPU memory", unit::bytes).positive(1e13),
         num("activation_factor", &In::activation_factor, "Rule-of-thumb activation factor")
             .range(0, 1000)
             .help("seed: activations ≈ 10 × local params × weight bytes"),
         num("checkpoint_factor", &In::checkpoint_factor, "… with checkpointing").range(0, 1000)},
        {out("weights", &Out::weights, "Weights", unit::bytes),
         out("gradients", &Out::gradients, "Gradients", unit::bytes),
         out("optimizer", &Out::optimizer, "Optimizer states", unit::bytes),
         out("activations", &Out::activations, "Activations", unit::bytes),
         out("model_states", &Out::model_states, "Model states", unit::bytes),
         out("total", &Out::total, "Total per GPU", unit::bytes), out("fits", &Out::fits, "Fits"),
         out("max_params", &Out::max_params, "Largest model that fits", unit::params),
         out("headroom", &Out::headroom, "Headroom", unit::bytes),
         out("bytes_per_param", &Out::bytes_per_param, "Bytes per parameter per GPU")},
        &mem_training));
  }
  {
    using In = MemActivationsIn;
    using Out = MemActivationsOut;
    r.add(declare<In, Out>(
        {"mem.activations", "Activation memory (Korthikanti et al.)", "memory",
         "Activation bytes per transformer layer and per GPU with tensor and sequence "
         "parallelism, selective or full recomputation, and 1F1B pipelining.",
         "Korthikanti et al. 2022, Reducing Activation Recomputation, Table 2 and §4.2.3",
         "docs/memory.md#memactivations"},
        {num("seq_len", &In::seq_len, "Sequence length s", unit::tokens)
             .positive(1e7)
             .integer()
             .required(),
         num("micro_batch", &In::micro_batch, "Micro-batch b").positive(1e5).integer(),
         num("d_model", &In::d_model, "Hidden size h").positive(1e6).integer().required(),
         num("n_heads", &In::n_heads, "Attention heads a").positive(1e5).integer().required(),
         num("n_layers", &In::n_layers, "Layers L").positive(1e5).integer().required(),
         num("tp", &In::tp, "Tensor parallel t").positive(kMaxDegree),
         flag("sequence_parallel", &In::sequence_parallel, "Sequence parallelism"),
         choice("recompute", &In::recompute, "Recomputation", {"none", "selective", "full"}),
         num("pp", &In::pp, "Pipeline parallel p").positive(kMaxDegree),
         num("microbatches", &In::microbatches, "Microbatches in flight (0 = ≥ p)")
             .range(0, 1e6)
             .integer()},
        {out("per_layer", &Out::per_layer, "Per layer", unit::bytes),
         out("total", &Out::total, "Per GPU (first stage)", unit::bytes),
         out("saved_fraction", &Out::saved_fraction, "Saved by recomputation", unit::fraction),
         out("per_layer_no_recompute", &Out::per_layer_no_recompute, "Per layer, no recompute",
             unit::bytes),
         out("attention_term", &Out::attention_term, "5as/h"),
         out("layers_per_stage", &Out::layers_per_stage, "Layers per stage"),
         out("in_flight_microbatches", &Out::in_flight_microbatches, "Microbatches in flight")},
        &mem_activations));
  }
  {
    using In = MemFsdpIn;
    using Out = MemFsdpOut;
    r.add(declare<In, Out>(
        {"mem.fsdp", "FSDP memory per device", "memory",
         "FP32 model states plus activations of an FFN-only model sharded over N_FSDP devices, "
         "and how many devices it takes to fit (seed 004 (a), (b)).",
         "Seed 004 §2.4 (a)(b); Rajbhandari et al. 2020 (ZeRO-3 = FSDP)", "docs/memory.md#memfsdp"},
        {num("params", &In::params, "Parameters", unit::params).positive(kMaxParams).required(),
         num("master_bytes", &In::master_bytes, "Master weight bytes").range(0, 64),
         num("grad_bytes", &In::grad_bytes, "Accumulated gradient bytes").range(0, 64),
         num("optimizer_bytes", &In::optimizer_bytes, "Optimizer bytes").range(0, 64),
         num("n_layers", &In::n_layers, "Blocks L").positive(1e5).integer(),
         num("batch", &In::batch, "Batch b (sequences)").range(0, 1e7).integer(),
         num("seq_len", &In::seq_len, "Sequence length s", unit::tokens).positive(1e7).integer(),
         num("d_model", &In::d_model, "Model width d").positive(1e6).integer(),
         num("d_ff", &In::d_ff, "FFN width d_ff").range(0, 1e7).integer(),
         num("activation_bytes", &In::activation_bytes, "Activation bytes").positive(8),
         num("activation_sharded_fraction", &In::activation_sharded_fraction,
             "Sharded fraction of activations", unit::fraction)
             .range(0, 1),
         num("n_fsdp", &In::n_fsdp, "FSDP devices").positive(1e7).integer(),
         num("device_memory", &In::device_memory, "Device memory", unit::bytes).positive(1e13),
         num("reference_gpu_memory", &In::reference_gpu_memory, "Reference GPU memory", unit::bytes)
             .positive(1e13),
         num("backward_grad_bytes", &In::backward_grad_bytes, "Gradient bytes in backward")
             .range(0, 64)},
        {out("model_states", &Out::model_states, "Model states", unit::bytes),
         out("activations", &Out::activations, "Activations", unit::bytes),
         out("per_device", &Out::per_device, "Per device", unit::bytes),
         out("fits", &Out::fits, "Fits"), out("min_devices", &Out::min_devices, "Minimum N_FSDP"),
         out("min_devices_model_states_only", &Out::min_devices_model_states_only,
             "Minimum N_FSDP without activations"),
         out("reference_gpus", &Out::reference_gpus, "Reference GPUs' worth", unit::gpus),
         out("backward_activations", &Out::backward_activations, "Activations saved for backward",
             unit::bytes),
         out("bf16_grad_saving", &Out::bf16_grad_saving, "BF16-gradient saving (seed)",
             unit::bytes)},
        &mem_fsdp));
  }
  register_pipeline(r);
  register_memory_charts(r);
}

}  // namespace napkin
