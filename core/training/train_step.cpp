// One optimizer step (SPEC §9): Narayanan et al. 2021 ("Efficient Large-Scale Language Model
// Training on GPU Clusters Using Megatron-LM") §3 for the pipeline bubble (p−1)/v of a
// microbatch's time per stage and §3.2 for the TP and PP volumes; Korthikanti et al. 2022 for
// recomputation; collectives and memory from the shared scenario functions.
#include "training/train_step.hpp"

#include <algorithm>

#include "scenario/collective.hpp"

namespace napkin {

StepModel step_model(const Model& m, double seq_len) {
  StepModel sm;
  sm.model = m;
  sm.forward_flops_per_token = forward_flops_per_token(m, seq_len, true);
  // Scores and values: 4·ctx·heads·head_dim per layer, causal-halved (model.hpp's definition).
  sm.attention_score_flops = 2.0 * seq_len * m.heads * m.head_dim * m.layers;
  sm.params = model_params(m);
  return sm;
}

namespace {
const Tier& tier_for(const Cluster& c, long long span) {
  return span <= c.gpus_per_node ? c.intra : c.inter;
}
}  // namespace

StepTimes train_step(const StepModel& sm, const Cluster& c, const Layout& in, const StepJob& job) {
  StepTimes r;
  const Model& m = sm.model;
  Layout l = in;
  const double seqs_per_pipe = job.global_batch / l.dp;
  l.microbatches = std::max(1, static_cast<int>(seqs_per_pipe / l.microbatch));
  const double peak = peak_flops(c.gpu, job.math) * job.compute_efficiency;
  const double s = job.seq_len, b = l.microbatch, h = m.d_model;
  const double shard = static_cast<double>(l.tp) * l.cp * l.pp;
  // Forward of one microbatch on one stage; backward is twice the forward.
  const double fwd = sm.forward_flops_per_token * s * b / shard / peak;
  const double mb = l.microbatches;
  r.compute = 3 * fwd * mb;
  const double recompute_one = l.recompute == Recompute::Full ? fwd
                               : l.recompute == Recompute::Selective
                                   ? sm.attention_score_flops * s * b / shard / peak
                                   : 0;
  r.recompute = recompute_one * mb;
  r.bubble = (l.pp - 1.0) / l.vpp * (3 * fwd + recompute_one);

  // TP: 2 all-reduces forward and 2 backward per layer of s·b·h activations (Narayanan §3.2);
  // sequence parallelism turns each into a reduce-scatter + all-gather of the same volume.
  const double act_bytes = s / l.cp * b * h * dtype_bytes(l.activations);
  const double layers_here = static_cast<double>(m.layers) / l.pp;
  if (l.tp > 1) {
    const Tier& t = tier_for(c, l.tp);
    const double one = collective_time(Collective::AllReduce, act_bytes, l.tp, t).time;
    const double per_mb = 4 * one * layers_here * (l.recompute == Recompute::Full ? 1.5 : 1);
    r.tp_comm = per_mb * mb * (l.tp_overlap ? 0.3 : 1);  // overlap hides ~70 % (see docs)
  }
  // CP: ring exchange of K and V per layer, overlapped with attention.
  if (l.cp > 1) {
    const double kv = 2 * s / l.cp * b * m.kv_heads * m.head_dim * dtype_bytes(l.activations);
    const Tier& t = tier_for(c, static_cast<long long>(l.tp) * l.cp);
    const double x = collective_time(Collective::AllGather, kv * l.cp, l.cp, t).time;
    r.cp_comm = std::max(0.0, 3 * x * layers_here * mb - r.compute / 2);
  }
  // EP: dispatch and combine all-to-alls, forward and backward, per MoE layer.
  if (m.experts > 0 && l.ep > 1) {
    const double tokens = act_bytes / l.tp * std::max(1, m.top_k);
    const Tier& t = tier_for(c, static_cast<long long>(l.tp) * l.ep);
    r.ep_comm = 4 * collective_time(Collective::AllToAll, tokens, l.ep, t).time * layers_here * mb;
  }
  // PP: one send per microbatch each way on the critical path's p−1 hops.
  if (l.pp > 1) {
    const double bytes = act_bytes / (l.sequence_parallel ? l.tp : 1);
    const Tier& t = tier_for(c, static_cast<long long>(l.tp) * l.cp * l.pp);
    r.pp_comm = 2 * (l.pp - 1.0) * l.vpp * collective_time(Collective::P2p, bytes, 2, t).time;
  }
  r.memory = training_memory(m, sm.params, l, s);
  // DP: gradients reduced over dp·cp ranks (ZeRO ≥ 2: reduce-scatter + all-gather, the same
  // bytes); ZeRO-3 gathers parameters again forward and backward (×1.5, ZeRO §7).
  const int dpr = l.dp * l.cp;
  if (dpr > 1) {
    const double grad_bytes =
        sm.params.total / (static_cast<double>(l.tp) * l.pp) * dtype_bytes(l.grads);
    const int per_node =
        std::max(1, static_cast<int>(c.gpus_per_node / (static_cast<long long>(l.tp) * 1)));
    double t =
        hierarchical_time(Collective::AllReduce, grad_bytes, dpr, std::min(per_node, dpr), c).time;
    // Overlapped with the backward pass of the last microbatch round (bucketed, PyTorch DDP).
    r.dp_comm = l.dp_overlap ? std::max(0.0, t - 2 * fwd * std::min(mb, 1.0 * l.pp)) : t;
    if (l.zero_stage >= 3) {
      // ZeRO-3 / FSDP gathers the stage's parameters before each microbatch's forward and
      // backward (ZeRO §5.3: 1.5× DP's volume per step without accumulation); prefetching hides
      // it under compute when overlap is on.
      const double w =
          sm.params.total / (static_cast<double>(l.tp) * l.pp) * dtype_bytes(l.weights);
      const double gather =
          2 * mb *
          hierarchical_time(Collective::AllGather, w, dpr, std::min(per_node, dpr), c).time;
      r.dp_comm += l.dp_overlap ? std::max(0.0, gather - r.compute) : gather;
    }
  }
  if (l.optimizer_offload) {
    // Optimizer state over PCIe both ways each step, not overlapped (ZeRO-Offload).
    r.dp_comm += 2 * r.memory.weights / 2 * l.optimizer_bytes_per_param / 25e9;
  }
  r.step = r.compute + r.recompute + r.bubble + r.tp_comm + r.cp_comm + r.ep_comm + r.pp_comm +
           r.dp_comm;
  const double gpus = static_cast<double>(layout_gpus(l));
  const double model_flops = 3 * sm.forward_flops_per_token * s * job.global_batch;
  // Hardware FLOPs add what recomputation repeats (Korthikanti §6: HFU vs MFU).
  const double hw_flops = model_flops * (1 + r.recompute / std::max(r.compute, 1e-30));
  r.tokens_per_second = s * job.global_batch / r.step;
  r.model_flops_per_gpu = model_flops / r.step / gpus;
  const double raw_peak = peak_flops(c.gpu, job.math);
  r.mfu = r.model_flops_per_gpu / raw_peak;
  r.hfu = hw_flops / r.step / gpus / raw_peak;
  r.fits = r.memory.total <= c.gpu.hbm_bytes;
  return r;
}

}  // namespace napkin

// ---------------------------------------------------------------------------------------
// The train.step estimator: explicit model, cluster and layout fields (named as the scenario
// contract's members) until the scenario's presets fill them.
#include "base/units.hpp"
#include "registry/registry.hpp"

namespace napkin {
namespace {

struct TrainStepIn {
  // Model (GPT-3 175B: Brown et al. 2020, Table 2.1).
  int layers = 96, heads = 96, kv_heads = 96, experts = 0, top_k = 0;
  double d_model = 12288, head_dim = 128, d_ff = 49152, vocab = 51200, expert_d_ff = 0;
  bool gated_ffn = false;
  // Cluster (A100 SXM 80 GB, NVLink 3 through NVSwitch, 8 × HDR 200 Gb/s per node).
  double peak_flops = 312e12, hbm_bytes = 80.0 * (1ull << 30), host_memory = 0;
  int gpus_per_node = 8;
  double intra_bandwidth = 300e9, intra_latency = 3e-6, inter_bandwidth = 25e9,
         inter_latency = 5e-6;
  // Layout (Megatron-LM's 175B layout: Narayanan et al. 2021, Table 1).
  int tp = 8, pp = 8, vpp = 1, dp = 8, cp = 1, ep = 1, zero_stage = 0, microbatch = 1;
  std::string recompute = "full";
  bool sequence_parallel = false, dp_overlap = true, tp_overlap = false, optimizer_offload = false;
  // Job.
  double global_batch = 1536, seq_len = 2048, compute_efficiency = 0.6;
};

struct TrainStepOut {
  double step_time, tokens_per_second, mfu, hfu, model_tflops_per_gpu, memory_per_gpu;
  bool fits;
  double compute_time, recompute_time, bubble_time, tp_comm_time, cp_comm_time, ep_comm_time,
      pp_comm_time, dp_comm_time;
  double weights_memory, gradients_memory, optimizer_memory, activations_memory;
};

Result<TrainStepOut> train_step_run(const TrainStepIn& in, Derivation& d) {
  Model m;
  m.layers = in.layers;
  m.d_model = in.d_model;
  m.heads = in.heads;
  m.kv_heads = in.kv_heads;
  m.head_dim = in.head_dim;
  m.d_ff = in.d_ff;
  m.ffn = in.gated_ffn ? Ffn::Gated : Ffn::Mlp;
  m.vocab = in.vocab;
  m.experts = in.experts;
  m.top_k = in.top_k;
  m.expert_d_ff = in.expert_d_ff;
  if (in.heads % in.tp != 0 || in.kv_heads % in.tp != 0)
    return Error::inconsistent("tp", in.tp, "must divide heads and kv_heads");
  if (in.layers % (in.pp * in.vpp) != 0)
    return Error::inconsistent("pp", in.pp, "× vpp must divide layers");
  const double per_pipe = static_cast<double>(in.dp) * in.microbatch;
  if (static_cast<long long>(in.global_batch) % static_cast<long long>(per_pipe) != 0)
    return Error::inconsistent("global_batch", in.global_batch,
                               "must be a multiple of dp × microbatch");
  Cluster c;
  c.gpu.peak_bf16 = in.peak_flops;
  c.gpu.hbm_bytes = in.hbm_bytes;
  c.gpu.host_memory = in.host_memory;
  c.gpus_per_node = in.gpus_per_node;
  c.intra.bandwidth = in.intra_bandwidth;
  c.intra.latency = in.intra_latency;
  c.inter.bandwidth = in.inter_bandwidth;
  c.inter.latency = in.inter_latency;
  Layout l;
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
  StepJob job;
  job.global_batch = in.global_batch;
  job.seq_len = in.seq_len;
  job.compute_efficiency = in.compute_efficiency;
  const StepTimes t = train_step(step_model(m, in.seq_len), c, l, job);
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
  d.step("Step time", "T", "$C + $R + $B + $X",
         {{"C", "T_{\\text{compute}}", t.compute, unit::seconds},
          {"R", "T_{\\text{recompute}}", t.recompute, unit::seconds},
          {"B", "T_{\\text{bubble}}", t.bubble, unit::seconds},
          {"X", "T_{\\text{comm}}", t.step - t.compute - t.recompute - t.bubble, unit::seconds}},
         t.step, unit::seconds);
  d.step("Model FLOPs utilization", "\\text{MFU}",
         "\\frac{3 F_{\\text{fwd}} B s}{$T \\cdot N \\cdot $P}",
         {{"T", "T", t.step, unit::seconds}, {"P", "P", in.peak_flops, unit::flops}}, t.mfu,
         unit::fraction);
  return o;
}

}  // namespace

void register_train_step(Registry& r) {
  using In = TrainStepIn;
  using Out = TrainStepOut;
  r.add(declare<In, Out>(
      {"train.step", "A whole training step", "training",
       "Time, throughput, MFU and memory per GPU of one optimizer step for a model, a cluster "
       "and a TP × PP × DP × CP × EP layout.",
       "Narayanan et al. 2021 (Megatron-LM); Korthikanti et al. 2022; Rajbhandari et al. 2020",
       "docs/training.md#trainstep"},
      {num("layers", &In::layers, "Layers").positive(1e4),
       num("d_model", &In::d_model, "Hidden size").positive(1e6),
       num("heads", &In::heads, "Attention heads").positive(1e4),
       num("kv_heads", &In::kv_heads, "KV heads").positive(1e4),
       num("head_dim", &In::head_dim, "Head dimension").positive(1e5),
       num("d_ff", &In::d_ff, "FFN width").positive(1e7),
       flag("gated_ffn", &In::gated_ffn, "Gated FFN (SwiGLU)"),
       num("vocab", &In::vocab, "Vocabulary").positive(1e8),
       num("experts", &In::experts, "Routed experts (0 = dense)").range(0, 1e5),
       num("top_k", &In::top_k, "Experts per token").range(0, 1e3),
       num("expert_d_ff", &In::expert_d_ff, "Expert FFN width (0 = same as FFN)").range(0, 1e7),
       num("peak_flops", &In::peak_flops, "Peak FLOP/s per GPU", unit::flops).positive(1e17),
       num("hbm_bytes", &In::hbm_bytes, "HBM per GPU", unit::bytes).positive(1e14),
       num("host_memory", &In::host_memory, "Host memory per GPU", unit::bytes).range(0, 1e15),
       num("gpus_per_node", &In::gpus_per_node, "GPUs per node").positive(1e4),
       num("intra_bandwidth", &In::intra_bandwidth, "Intra-node bandwidth", unit::bytes_per_s)
           .positive(1e15),
       num("intra_latency", &In::intra_latency, "Intra-node latency", unit::seconds).range(0, 1),
       num("inter_bandwidth", &In::inter_bandwidth, "Inter-node bandwidth per GPU",
           unit::bytes_per_s)
           .positive(1e15),
       num("inter_latency", &In::inter_latency, "Inter-node latency", unit::seconds).range(0, 1),
       num("tp", &In::tp, "Tensor parallel").positive(1e5),
       num("pp", &In::pp, "Pipeline stages").positive(1e5),
       num("vpp", &In::vpp, "Virtual stages").positive(1e3),
       num("dp", &In::dp, "Data parallel").positive(1e7),
       num("cp", &In::cp, "Context parallel").positive(1e5),
       num("ep", &In::ep, "Expert parallel").positive(1e5),
       num("zero_stage", &In::zero_stage, "ZeRO stage").range(0, 3),
       num("microbatch", &In::microbatch, "Microbatch (sequences)").positive(1e5),
       choice("recompute", &In::recompute, "Recomputation", {"none", "selective", "full"}),
       flag("sequence_parallel", &In::sequence_parallel, "Sequence parallelism"),
       flag("dp_overlap", &In::dp_overlap, "Overlap DP with backward"),
       flag("tp_overlap", &In::tp_overlap, "Overlap TP with GEMMs"),
       flag("optimizer_offload", &In::optimizer_offload, "Offload optimizer state"),
       num("global_batch", &In::global_batch, "Global batch (sequences)").positive(1e8),
       num("seq_len", &In::seq_len, "Sequence length", unit::tokens).positive(1e8),
       num("compute_efficiency", &In::compute_efficiency, "GEMM efficiency", unit::fraction)
           .positive(1)},
      {out("step_time", &Out::step_time, "Step time", unit::seconds),
       out("tokens_per_second", &Out::tokens_per_second, "Tokens per second", unit::tokens_per_s),
       out("mfu", &Out::mfu, "MFU", unit::fraction), out("hfu", &Out::hfu, "HFU", unit::fraction),
       out("model_tflops_per_gpu", &Out::model_tflops_per_gpu, "Model TFLOP/s per GPU"),
       out("memory_per_gpu", &Out::memory_per_gpu, "Memory per GPU", unit::bytes),
       out("fits", &Out::fits, "Fits"),
       out("compute_time", &Out::compute_time, "Compute", unit::seconds),
       out("recompute_time", &Out::recompute_time, "Recomputation", unit::seconds),
       out("bubble_time", &Out::bubble_time, "Pipeline bubble", unit::seconds),
       out("tp_comm_time", &Out::tp_comm_time, "TP communication (exposed)", unit::seconds),
       out("cp_comm_time", &Out::cp_comm_time, "CP communication (exposed)", unit::seconds),
       out("ep_comm_time", &Out::ep_comm_time, "EP communication (exposed)", unit::seconds),
       out("pp_comm_time", &Out::pp_comm_time, "PP communication (exposed)", unit::seconds),
       out("dp_comm_time", &Out::dp_comm_time, "DP communication (exposed)", unit::seconds),
       out("weights_memory", &Out::weights_memory, "Weights", unit::bytes),
       out("gradients_memory", &Out::gradients_memory, "Gradients", unit::bytes),
       out("optimizer_memory", &Out::optimizer_memory, "Optimizer state", unit::bytes),
       out("activations_memory", &Out::activations_memory, "Activations", unit::bytes)},
      &train_step_run));
}

}  // namespace napkin
