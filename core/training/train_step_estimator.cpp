// The train.step estimator (docs/training.md, train.step): one optimizer step of a model on a
// cluster in a layout, declared over TrainStepIn so that the scenario bar's model and accelerator
// presets fill its inputs by meaning, and the layout search reads the same declaration
// (search_inputs.cpp).
#include "base/units.hpp"
#include "registry/registry.hpp"
#include "scenario/accelerator_inputs.hpp"
#include "scenario/replica.hpp"
#include "training/train_step.hpp"

namespace napkin {

Result<StepScenario> step_scenario(const TrainStepIn& in) {
  Result<Model> model = to_model(in, kStepModelNames);
  if (!model.ok()) return model.error();
  StepScenario s;
  s.model = model.value();
  Cluster& c = s.cluster;
  c.gpu.peak_bf16 = in.peak_flops;
  c.gpu.hbm_bytes = in.gpu_memory;
  c.gpu.hbm_bandwidth = in.mem_bandwidth;
  c.gpu.host_memory = in.host_memory;
  c.gpu.matmul_fraction = in.matmul_fraction;
  c.gpu.attention_fraction = in.attention_fraction;
  c.gpus_per_node = in.gpus_per_node;
  c.intra.bandwidth = in.intra_bandwidth;
  c.intra.latency = in.intra_latency;
  c.inter.bandwidth = in.inter_bandwidth;
  c.inter.latency = in.inter_latency;
  c.intra.efficiency = in.intra_efficiency;
  c.inter.efficiency = in.inter_efficiency;
  c.intra.launch = c.inter.launch = in.launch_latency;
  Layout& l = s.layout;
  l.tp = in.tp;
  l.pp = in.pp;
  l.vpp = in.vpp;
  l.dp = in.dp;
  l.cp = in.cp;
  l.ep = in.ep;
  l.zero_stage = in.zero_stage;
  l.microbatch = in.microbatch;
  l.recompute = in.recompute == "full"        ? Recompute::Full
                : in.recompute == "selective" ? Recompute::Selective
                                              : Recompute::None;
  l.sequence_parallel = in.sequence_parallel;
  l.dp_overlap = in.dp_overlap;
  l.tp_overlap = in.tp_overlap;
  l.optimizer_offload = in.optimizer_offload;
  for (int i = 0; i < kPlacements; ++i)
    if (in.placement == kPlacementNames[i]) l.placement = static_cast<unsigned char>(i);
  s.job.global_batch = in.global_batch;
  s.job.seq_len = in.seq_len;
  s.job.compute_efficiency = in.compute_efficiency;
  s.job.overlap_slowdown = in.overlap_slowdown;
  s.job.flash_attention = in.flash_attention;
  return s;
}

namespace {

struct TrainStepOut {
  double step_time, tokens_per_second, mfu, hfu, model_tflops_per_gpu, memory_per_gpu;
  bool fits;
  double compute_time, recompute_time, elementwise_time, optimizer_time, bubble_time, tp_comm_time,
      cp_comm_time, ep_comm_time, pp_comm_time, dp_comm_time;
  double weights_memory, gradients_memory, optimizer_memory, activations_memory;
};

// The cross-input checks a layout must pass to be built at all (the model's own are to_model's).
std::optional<Error> layout_error(const TrainStepIn& in, const Model& m) {
  // Megatron-LM's rule, shared with serving (scenario/replica.cpp): TP divides the query heads
  // and divides the KV heads or is a multiple of them (each rank then holds a copy of one).
  if (std::string why = tp_split_problem(m, in.tp); !why.empty())
    return Error::inconsistent("tp", in.tp, why);
  // A chunk holds at least one layer, or only the embedding or only the output head: Llama 3
  // 405B runs 126 layers in 16 × 8 chunks, the first and the last holding no layer (Dubey et
  // al. 2024, §3.3.2).
  if (static_cast<long long>(in.pp) * in.vpp > in.layers + 2LL)
    return Error::inconsistent("pp", in.pp,
                               "times the virtual stages (" + std::to_string(in.vpp) +
                                   ") is more than the layers (" + std::to_string(in.layers) +
                                   ") + 2; each stage needs a layer, the embedding or the output "
                                   "head");
  // train_step() counts the DP × CP ranks in an int; no cluster comes near 10 million GPUs.
  if (static_cast<long long>(in.tp) * in.pp * in.dp * in.cp > 10'000'000)
    return Error::inconsistent("dp", in.dp, "times TP, PP and CP must be at most 10 million GPUs");
  const long long per_pipe = static_cast<long long>(in.dp) * in.microbatch;
  const long long batch = static_cast<long long>(in.global_batch);
  if (batch != in.global_batch || batch % per_pipe != 0)
    return Error::inconsistent(
        "global_batch", in.global_batch,
        "must be a whole multiple of DP × microbatch (" + std::to_string(per_pipe) + ")");
  if (in.vpp > 1 && (batch / per_pipe) % in.pp != 0)
    return Error::inconsistent("vpp", in.vpp,
                               "interleaving needs the microbatches per pipeline (" +
                                   std::to_string(batch / per_pipe) + ") divisible by PP");
  if (in.ep > 1 && (in.experts == 0 || in.experts % in.ep != 0 ||
                    (static_cast<long long>(in.dp) * in.cp) % in.ep != 0))
    return Error::inconsistent("ep", in.ep,
                               "must divide the experts and DP × CP (EP reuses those ranks)");
  return std::nullopt;
}

Result<TrainStepOut> train_step_run(const TrainStepIn& in, Derivation& d) {
  Result<StepScenario> scenario = step_scenario(in);
  if (!scenario.ok()) return scenario.error();
  const StepScenario& sc = scenario.value();
  if (auto e = layout_error(in, sc.model)) return *e;
  const StepModel sm = step_model(sc.model, in.seq_len);
  const StepTimes t = train_step(sm, sc.cluster, sc.layout, sc.job);
  TrainStepOut o{};
  o.step_time = t.step;
  o.tokens_per_second = t.tokens_per_second;
  o.mfu = t.mfu;
  o.hfu = t.hfu;
  o.model_tflops_per_gpu = t.model_flops_per_gpu / 1e12;
  o.memory_per_gpu = t.memory.total;
  o.fits = t.fits;
  o.compute_time = t.compute;
  o.recompute_time = t.recompute;
  o.elementwise_time = t.elementwise;
  o.optimizer_time = t.optimizer;
  o.bubble_time = t.bubble;
  o.tp_comm_time = t.tp_comm;
  o.cp_comm_time = t.cp_comm;
  o.ep_comm_time = t.ep_comm;
  o.pp_comm_time = t.pp_comm;
  o.dp_comm_time = t.dp_comm;
  o.weights_memory = t.memory.weights;
  o.gradients_memory = t.memory.gradients;
  o.optimizer_memory = t.memory.optimizer;
  o.activations_memory = t.memory.activations;
  if (!d.recording()) return o;

  const double gpus = static_cast<double>(layout_gpus(sc.layout));
  // train_step() derives the microbatches from the job; the layout's own field is not set here.
  const double mb = in.global_batch / (static_cast<double>(in.dp) * in.microbatch);
  d.step("Model FLOPs per token (forward)", "F_{\\text{fwd}}",
         "2 N_{\\text{active}} + \\text{attention}",
         {{"N", "N_{\\text{active}}", sm.params.active, unit::params}}, sm.forward_flops_per_token,
         unit::flop_per_token);
  // Uneven stages (Llama 3 405B: 126 layers on 16): the busiest stage sets the pace.
  const int busiest = stage_layers(in.layers, sc.layout);
  if (busiest * in.pp != in.layers)
    d.step("Layers on the busiest GPU (uneven stages)", "L_{\\text{stage}}",
           "\\lceil $L / ($p \\cdot $v) \\rceil \\cdot $v",
           {{"L", "L", static_cast<double>(in.layers), unit::none},
            {"p", "PP", static_cast<double>(in.pp), unit::none},
            {"v", "v", static_cast<double>(in.vpp), unit::none}},
           static_cast<double>(busiest), unit::none);
  // The placement: which groups' collectives stay on NVLink and which cross nodes.
  {
    std::string inside, across;
    const Group groups[] = {Group::Tp, kPlacementOrder[sc.layout.placement][0],
                            kPlacementOrder[sc.layout.placement][1],
                            kPlacementOrder[sc.layout.placement][2]};
    for (Group g : groups) {
      const int n = group_degree(sc.layout, g);
      if (n == 1) continue;
      const char* name = g == Group::Tp   ? "TP"
                         : g == Group::Cp ? "CP"
                         : g == Group::Dp ? "DP"
                                          : "PP";
      std::string& to = within_node(sc.layout, g, in.gpus_per_node) ? inside : across;
      to += (to.empty() ? "" : ", ") + std::string(name) + " " + std::to_string(n);
    }
    if (!inside.empty() || !across.empty())
      d.note("Where the groups sit (rank order " + in.placement + ")",
             (inside.empty() ? ""
                             : "inside a node of " + std::to_string(in.gpus_per_node) +
                                   " GPUs (intra-node link): " + inside) +
                 (!inside.empty() && !across.empty() ? "; " : "") +
                 (across.empty() ? "" : "across nodes (inter-node link): " + across) + ".");
  }
  // Megatron-LM's microbatch count per pipeline: B / (DP · b).
  d.step("Microbatches per pipeline", "m", "\\frac{$B}{$D \\cdot $b}",
         {{"B", "B", in.global_batch, unit::none},
          {"D", "DP", static_cast<double>(in.dp), unit::none},
          {"b", "b", static_cast<double>(in.microbatch), unit::none}},
         mb, unit::none);
  // Forward + backward = 3 forward passes of the microbatches on each GPU's shard.
  d.step("Compute", "T_{\\text{compute}}",
         "\\frac{3 F_{\\text{fwd}} \\cdot B s}{N \\cdot $P \\cdot $f \\cdot $e} \\cdot \\text{PP}",
         {{"P", "P", in.peak_flops, unit::flops},
          {"f", "f_{\\text{GEMM}}", in.matmul_fraction, unit::fraction},
          {"e", "e", in.compute_efficiency, unit::fraction}},
         t.compute, unit::seconds);
  // Memory-bound kernels at HBM bandwidth (scenario/training_memory.hpp: layer_traffic).
  d.step("Memory-bound kernels", "T_{\\text{mem}}",
         "\\frac{(3 Q_{\\text{fwd}} + Q_{\\text{again}}) \\cdot L_{\\text{stage}} \\cdot m}{$W}",
         {{"W", "W_{\\text{HBM}}", in.mem_bandwidth, unit::bytes_per_s}}, t.elementwise,
         unit::seconds);
  // Optimizer update: the state read and written once, the gradient read, the weight written.
  d.step(
      "Optimizer update", "T_{\\text{opt}}", "\\frac{M_{\\text{opt}} / K \\cdot (2K + 2 + 2)}{$W}",
      {{"W", "W_{\\text{HBM}}", in.mem_bandwidth, unit::bytes_per_s}}, t.optimizer, unit::seconds);
  // 1F1B bubble: (p − 1)/v microbatch slots (Narayanan et al. 2021, §2.2).
  d.step("Pipeline bubble", "T_{\\text{bubble}}",
         "\\frac{$p - 1}{$v} \\cdot t_{\\text{microbatch}}",
         {{"p", "p", static_cast<double>(in.pp), unit::none},
          {"v", "v", static_cast<double>(in.vpp), unit::none}},
         t.bubble, unit::seconds);
  // Hidden DP / ZeRO-3 communication still slows the compute beside it (Lee et al. 2025).
  if (t.dp_hidden > 0)
    d.step("DP communication (exposed)", "T_{\\text{DP}}", "$e + $s \\cdot $h",
           {{"e", "T_{\\text{DP,exposed}}", t.dp_outlasting, unit::seconds},
            {"s", "s", in.overlap_slowdown, unit::fraction},
            {"h", "T_{\\text{DP,hidden}}", t.dp_hidden, unit::seconds}},
           t.dp_comm, unit::seconds);
  d.step("Exposed communication", "T_{\\text{comm}}", "$a + $c + $x + $q + $g",
         {{"a", "T_{\\text{TP}}", t.tp_comm, unit::seconds},
          {"c", "T_{\\text{CP}}", t.cp_comm, unit::seconds},
          {"x", "T_{\\text{EP}}", t.ep_comm, unit::seconds},
          {"q", "T_{\\text{PP}}", t.pp_comm, unit::seconds},
          {"g", "T_{\\text{DP}}", t.dp_comm, unit::seconds}},
         t.tp_comm + t.cp_comm + t.ep_comm + t.pp_comm + t.dp_comm, unit::seconds);
  d.step(
      "Step time", "T", "$C + $R + $M + $O + $U + $X",
      {{"C", "T_{\\text{compute}}", t.compute, unit::seconds},
       {"R", "T_{\\text{recompute}}", t.recompute, unit::seconds},
       {"M", "T_{\\text{mem}}", t.elementwise, unit::seconds},
       {"O", "T_{\\text{opt}}", t.optimizer, unit::seconds},
       {"U", "T_{\\text{bubble}}", t.bubble, unit::seconds},
       {"X", "T_{\\text{comm}}",
        t.step - t.compute - t.recompute - t.elementwise - t.optimizer - t.bubble, unit::seconds}},
      t.step, unit::seconds);
  // MFU counts the model's FLOPs only (PaLM, Chowdhery et al. 2022, Appendix B); HFU adds what
  // recomputation repeats (Korthikanti et al. 2022, §6).
  d.step("Model FLOPs utilization", "\\text{MFU}",
         "\\frac{3 F_{\\text{fwd}} \\cdot B s}{$T \\cdot $N \\cdot $P}",
         {{"T", "T", t.step, unit::seconds},
          {"N", "N", gpus, unit::gpus},
          {"P", "P", in.peak_flops, unit::flops}},
         t.mfu, unit::fraction);
  d.step("Memory per GPU", "M", "$W + $G + $O + $A",
         {{"W", "M_{\\text{weights}}", t.memory.weights, unit::bytes},
          {"G", "M_{\\text{grads}}", t.memory.gradients, unit::bytes},
          {"O", "M_{\\text{optimizer}}", t.memory.optimizer, unit::bytes},
          {"A", "M_{\\text{act}}", t.memory.activations, unit::bytes}},
         t.memory.total, unit::bytes);
  if (!t.fits)
    d.warn("This layout needs " + format_value(t.memory.total, unit::bytes) +
           " per GPU, more than the " + format_value(in.gpu_memory, unit::bytes) +
           " each GPU has: raise TP, PP or the ZeRO stage, or recompute activations.");
  return o;
}

}  // namespace

void register_train_step(Registry& r) {
  using In = TrainStepIn;
  using Out = TrainStepOut;
  r.add(with_model_inputs<In>(
      declare<train_step_run>(
          {"train.step", "A whole training step", "training",
           "Time, throughput, MFU and memory per GPU of one optimizer step for a model, a cluster "
           "and a TP × PP × DP × CP × EP layout.",
           "Narayanan et al. 2021 (Megatron-LM); Korthikanti et al. 2022; Rajbhandari et al. 2020",
           "docs/training.md#trainstep"},
          {num("peak_flops", NAPKIN_FIELD(In, peak_flops), "Peak FLOP/s per GPU", unit::flops)
               .positive(1e17)
               .group("cluster")
               .help("Dense BF16 peak from the datasheet (no sparsity)."),
           matmul_fraction_input(NAPKIN_FIELD(In, matmul_fraction)).group("cluster"),
           attention_fraction_input(NAPKIN_FIELD(In, attention_fraction)).group("cluster"),
           hbm_bandwidth_input(NAPKIN_FIELD(In, mem_bandwidth), "HBM bandwidth per GPU", 1e14)
               .group("cluster"),
           num("gpu_memory", NAPKIN_FIELD(In, gpu_memory), "Memory per GPU", unit::bytes)
               .positive(1e14)
               .group("cluster")
               .help("HBM capacity of one GPU."),
           num("host_memory", NAPKIN_FIELD(In, host_memory), "Host memory per GPU", unit::bytes)
               .range(0, 1e15)
               .group("cluster")
               .help("CPU memory per GPU for optimizer offload; 0 when not used."),
           num("gpus_per_node", NAPKIN_FIELD(In, gpus_per_node), "GPUs per node", unit::gpus)
               .positive(1e4)
               .group("cluster")
               .help("GPUs on the fast intra-node network (NVLink domain)."),
           num("intra_bandwidth", NAPKIN_FIELD(In, intra_bandwidth), "Intra-node bandwidth",
               unit::bytes_per_s)
               .positive(1e15)
               .group("cluster")
               .help("NVLink bandwidth per GPU in one direction."),
           num("intra_latency", NAPKIN_FIELD(In, intra_latency), "Intra-node latency",
               unit::seconds)
               .range(0, 1)
               .group("cluster")
               .help("Latency of one step of a collective inside a node."),
           num("inter_bandwidth", NAPKIN_FIELD(In, inter_bandwidth), "Inter-node bandwidth per GPU",
               unit::bytes_per_s)
               .positive(1e15)
               .group("cluster")
               .help("InfiniBand or RoCE bandwidth per GPU in one direction."),
           num("inter_latency", NAPKIN_FIELD(In, inter_latency), "Inter-node latency",
               unit::seconds)
               .range(0, 1)
               .group("cluster")
               .help("Latency of one step of a collective between nodes."),
           intra_efficiency_input(NAPKIN_FIELD(In, intra_efficiency)).group("cluster"),
           inter_efficiency_input(NAPKIN_FIELD(In, inter_efficiency)).group("cluster"),
           launch_latency_input(NAPKIN_FIELD(In, launch_latency)).group("cluster"),
           num("tp", NAPKIN_FIELD(In, tp), "Tensor parallel (TP)")
               .positive(1e5)
               .group("layout")
               .help("GPUs that split each layer's matrices."),
           num("pp", NAPKIN_FIELD(In, pp), "Pipeline parallel (PP)")
               .positive(1e5)
               .group("layout")
               .help("Pipeline stages the layers are split into."),
           num("vpp", NAPKIN_FIELD(In, vpp), "Virtual stages")
               .positive(1e3)
               .group("layout")
               .help("Interleaved stages per GPU; divides the bubble by this."),
           num("dp", NAPKIN_FIELD(In, dp), "Data parallel (DP)")
               .positive(1e7)
               .group("layout")
               .help("Model replicas, each on its own slice of the batch."),
           num("cp", NAPKIN_FIELD(In, cp), "Context parallel (CP)")
               .positive(1e5)
               .group("layout")
               .help("GPUs that split each sequence (ring attention)."),
           num("ep", NAPKIN_FIELD(In, ep), "Expert parallel (EP)")
               .positive(1e5)
               .group("layout")
               .help("GPUs the experts are spread over (MoE only)."),
           num("zero_stage", NAPKIN_FIELD(In, zero_stage), "ZeRO stage")
               .range(0, 3)
               .group("layout")
               .help("0 none; 1 shards optimizer state; 2 also gradients; 3 also weights (FSDP)."),
           num("microbatch", NAPKIN_FIELD(In, microbatch), "Microbatch (sequences)")
               .positive(1e5)
               .group("layout")
               .help("Sequences per forward/backward pass on one pipeline."),
           choice("recompute", NAPKIN_FIELD(In, recompute), "Recomputation", "none|selective|full")
               .labels("None|Selective (attention)|Full (every layer)")
               .group("layout")
               .help("Activations recomputed in the backward pass to save memory."),
           flag("sequence_parallel", NAPKIN_FIELD(In, sequence_parallel), "Sequence parallelism")
               .group("layout")
               .help("Split norms and dropout over the TP group (Korthikanti et al. 2022)."),
           flag("dp_overlap", NAPKIN_FIELD(In, dp_overlap), "Overlap DP with backward")
               .group("layout")
               .help("Reduce gradients in buckets while the backward pass runs."),
           flag("tp_overlap", NAPKIN_FIELD(In, tp_overlap), "Overlap TP with GEMMs")
               .group("layout")
               .help("Hide most TP collectives under matrix multiplies."),
           flag("optimizer_offload", NAPKIN_FIELD(In, optimizer_offload), "Offload optimizer state")
               .group("layout")
               .help("Keep the optimizer state in host memory (ZeRO-Offload)."),
           choice("placement", NAPKIN_FIELD(In, placement), "Rank order (placement)",
                  kPlacementChoices)
               .labels("TP, CP, DP, PP (Megatron's default)|TP, CP, PP, DP|TP, DP, CP, PP|TP, DP, "
                       "PP, CP|TP, PP, CP, DP|TP, PP, DP, CP")
               .group("layout")
               .help("Which groups sit inside a node, innermost first: a group whose ranks and "
                     "the groups inside it fit in a node talks over NVLink, the rest over the "
                     "inter-node network (Megatron-LM's --order)."),
           num("global_batch", NAPKIN_FIELD(In, global_batch), "Global batch (sequences)")
               .positive(1e8)
               .group("job")
               .help("Sequences per optimizer step over all replicas."),
           num("seq_len", NAPKIN_FIELD(In, seq_len), "Sequence length", unit::tokens)
               .positive(1e8)
               .group("job")
               .help("Tokens per training sequence."),
           num("compute_efficiency", NAPKIN_FIELD(In, compute_efficiency), "GEMM efficiency",
               unit::fraction)
               .positive(1)
               .group("job")
               .help("Share of the best GEMM's rate the step's kernels reach; the default fits "
                     "Megatron-LM's published runs."),
           num("overlap_slowdown", NAPKIN_FIELD(In, overlap_slowdown),
               "Slowdown under overlapped communication", unit::fraction)
               .range(0, 1)
               .group("job")
               .help("How much slower compute runs while DP or ZeRO-3 communication it hides "
                     "runs beside it (the collectives take SMs and memory bandwidth): hidden "
                     "communication still costs this share of its time. The default is the mean "
                     "Lee et al. 2025 (arXiv 2507.03114) measured on A100, H100 and MI250; 0 "
                     "hides it for free."),
           flag("flash_attention", NAPKIN_FIELD(In, flash_attention), "Fused (flash) attention")
               .group("job")
               .help("Attention that never stores the sequence × sequence scores (FlashAttention, "
                     "Dao et al. 2022) and recomputes them in the backward pass; off stores them, "
                     "as Korthikanti et al. 2022 count.")},
          {out("step_time", NAPKIN_FIELD(Out, step_time), "Step time", unit::seconds)
               .help("Wall time of one optimizer step."),
           out("tokens_per_second", NAPKIN_FIELD(Out, tokens_per_second), "Tokens per second",
               unit::tokens_per_s)
               .help("Training tokens processed per second by the whole job."),
           out("mfu", NAPKIN_FIELD(Out, mfu), "MFU", unit::fraction)
               .help("Model FLOPs utilization: the model's FLOPs per second over the peak."),
           out("hfu", NAPKIN_FIELD(Out, hfu), "HFU", unit::fraction)
               .help("Hardware FLOPs utilization: MFU plus the recomputed FLOPs."),
           out("model_tflops_per_gpu", NAPKIN_FIELD(Out, model_tflops_per_gpu),
               "Model TFLOP/s per GPU")
               .help("The model's FLOPs per second on each GPU, in TFLOP/s."),
           out("memory_per_gpu", NAPKIN_FIELD(Out, memory_per_gpu), "Memory per GPU", unit::bytes)
               .help("Weights, gradients, optimizer state and activations on one GPU."),
           out("fits", NAPKIN_FIELD(Out, fits), "Fits")
               .help("Whether that memory fits in the GPU's memory."),
           out("compute_time", NAPKIN_FIELD(Out, compute_time), "Compute", unit::seconds)
               .help("Forward and backward passes of all microbatches on one GPU."),
           out("recompute_time", NAPKIN_FIELD(Out, recompute_time),
               "Attention and activation recompute", unit::seconds)
               .help("Forward work repeated in the backward pass: the recomputation chosen, and "
                     "FlashAttention's backward recompute of the attention scores even with "
                     "recomputation None."),
           out("elementwise_time", NAPKIN_FIELD(Out, elementwise_time), "Memory-bound kernels",
               unit::seconds)
               .help("Norms, residual adds, activation functions and stored-score softmax, at HBM "
                     "bandwidth."),
           out("optimizer_time", NAPKIN_FIELD(Out, optimizer_time), "Optimizer update",
               unit::seconds)
               .help("Reading and writing the optimizer state once, at HBM bandwidth."),
           out("bubble_time", NAPKIN_FIELD(Out, bubble_time), "Pipeline bubble", unit::seconds)
               .help("Time stages sit idle while the pipeline fills and drains."),
           out("tp_comm_time", NAPKIN_FIELD(Out, tp_comm_time), "TP communication (exposed)",
               unit::seconds)
               .help("Tensor-parallel all-reduces not hidden under compute."),
           out("cp_comm_time", NAPKIN_FIELD(Out, cp_comm_time), "CP communication (exposed)",
               unit::seconds)
               .help("Context-parallel key/value exchange not hidden under attention."),
           out("ep_comm_time", NAPKIN_FIELD(Out, ep_comm_time), "EP communication (exposed)",
               unit::seconds)
               .help("Expert-parallel all-to-alls (dispatch and combine)."),
           out("pp_comm_time", NAPKIN_FIELD(Out, pp_comm_time), "PP communication (exposed)",
               unit::seconds)
               .help("Activations sent between pipeline stages."),
           out("dp_comm_time", NAPKIN_FIELD(Out, dp_comm_time), "DP communication (exposed)",
               unit::seconds)
               .help("Gradient reduction (and ZeRO-3 gathers) not hidden under backward."),
           out("weights_memory", NAPKIN_FIELD(Out, weights_memory), "Weights", unit::bytes)
               .help("Weights held on one GPU."),
           out("gradients_memory", NAPKIN_FIELD(Out, gradients_memory), "Gradients", unit::bytes)
               .help("Gradients held on one GPU."),
           out("optimizer_memory", NAPKIN_FIELD(Out, optimizer_memory), "Optimizer state",
               unit::bytes)
               .help("FP32 master weights and Adam moments on one GPU."),
           out("activations_memory", NAPKIN_FIELD(Out, activations_memory), "Activations",
               unit::bytes)
               .help("Activations kept for the backward pass on one GPU.")}),
      0, kStepModelNames));
}

}  // namespace napkin
