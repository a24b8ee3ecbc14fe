// One optimizer step (docs/training.md, train.step): Narayanan et al. 2021 ("Efficient Large-Scale
// Language Model Training on GPU Clusters Using Megatron-LM") §3 for the pipeline bubble (p−1)/v of
// a microbatch's time per stage and §3.2 for the TP and PP volumes; Korthikanti et al. 2022 for
// recomputation; collectives and memory from the shared scenario functions.
#include "training/train_step.hpp"

#include <algorithm>

#include "scenario/collective.hpp"
#include "scenario/model.hpp"

namespace napkin {

StepModel step_model(const Model& m, double seq_len) {
  StepModel sm;
  sm.model = m;
  sm.forward_flops_per_token = forward_flops_per_token(m, seq_len, true);
  // Scores and values: 4·ctx·heads·head_dim per layer, causal-halved (model.hpp's definition).
  sm.attention_score_flops = attention_flops_per_token(m, seq_len, true);
  sm.params = model_params(m);
  sm.expert_params = expert_params(m);
  return sm;
}

namespace {
// A group's collectives run on the intra-node tier when all its ranks share a node (the
// placement decides, scenario/layout.hpp), on the inter-node tier otherwise.
const Tier& tier_of(const Cluster& c, const Layout& l, Group g) {
  return within_node(l, g, c.gpus_per_node) ? c.intra : c.inter;
}
}  // namespace

StepTimes train_step(const StepModel& sm, const Cluster& c, const Layout& in, const StepJob& job) {
  StepTimes r;
  const Model& m = sm.model;
  Layout l = in;
  l.flash_attention = job.flash_attention;
  const double seqs_per_pipe = job.global_batch / l.dp;
  l.microbatches = std::max(1, static_cast<int>(seqs_per_pipe / l.microbatch));
  const KernelRates rate = kernel_rates(c.gpu, job.math, job.compute_efficiency);
  const double s = job.seq_len, b = l.microbatch, h = m.d_model;
  // The busiest stage's share of the model (1/pp when PP × virtual stages divide the layers).
  const double share = stage_share(m.layers, l);
  const double tokens = s * b * share / (static_cast<double>(l.tp) * l.cp);
  // Forward of one microbatch on the busiest stage; backward is twice the forward. The
  // attention core runs at fused attention's rate (FlashAttention-2 on H100 reaches 35 % of
  // peak where GEMMs reach 80 %: kernel_rates); stored scores are batched GEMMs.
  const double attention =
      sm.attention_score_flops * tokens / (l.flash_attention ? rate.attention : rate.gemm);
  // KV heads copied when TP exceeds them: each rank projects its whole head's K and V.
  const double kv_copies = 2 * replicated_kv_params_per_layer(m, l.tp) * m.layers * share * s * b /
                           static_cast<double>(l.cp);
  const double fwd =
      ((sm.forward_flops_per_token - sm.attention_score_flops) * tokens + kv_copies) / rate.gemm +
      attention;
  const double mb = l.microbatches;
  r.compute = 3 * fwd * mb;
  // Selective recomputation repeats the attention core; FlashAttention's backward does the
  // same with recomputation off (it recomputes the scores it never stored).
  const bool attention_again =
      l.recompute == Recompute::Selective || (l.recompute == Recompute::None && l.flash_attention);
  const double recompute_one = l.recompute == Recompute::Full ? fwd
                               : attention_again              ? attention
                                                              : 0;
  r.recompute = recompute_one * mb;
  // Memory-bound kernels of the stage's layers at HBM bandwidth: the forward's traffic, twice
  // that in backward (each kernel's backward reads its saved input and the incoming gradient
  // and writes a gradient), and again what recomputation repeats (full: the whole forward;
  // selective: the stored scores' softmax and dropout).
  const double layers_here = m.layers * share;
  const double bw = c.gpu.hbm_bandwidth;
  double traffic_one = 0;
  if (bw > 0) {
    const LayerTraffic lt = layer_traffic(m, l, s);
    const double again = l.recompute == Recompute::Full        ? lt.forward
                         : l.recompute == Recompute::Selective ? lt.attention
                                                               : 0;
    traffic_one = (3 * lt.forward + again) * layers_here / bw;
  }
  r.elementwise = traffic_one * mb;
  r.bubble = (l.pp - 1.0) / l.vpp * (3 * fwd + recompute_one + traffic_one);

  // TP: 2 all-reduces forward and 2 backward per layer of s·b·h activations (Narayanan §3.2);
  // sequence parallelism turns each into a reduce-scatter + all-gather (Korthikanti §4.2.2):
  // the same bytes on a ring, but in-switch reduction (NVLS) speeds up only the all-reduce,
  // where each rank sends and receives its buffer at once; the pair runs one after the other.
  const double act_bytes = s / l.cp * b * h * dtype_bytes(l.activations);
  if (l.tp > 1) {
    const Tier& t = tier_of(c, l, Group::Tp);
    const double one = l.sequence_parallel
                           ? collective_time(Collective::ReduceScatter, act_bytes, l.tp, t).time +
                                 collective_time(Collective::AllGather, act_bytes, l.tp, t).time
                           : collective_time(Collective::AllReduce, act_bytes, l.tp, t).time;
    const double per_mb = 4 * one * layers_here * (l.recompute == Recompute::Full ? 1.5 : 1);
    r.tp_comm = per_mb * mb * (l.tp_overlap ? 0.3 : 1);  // overlap hides ~70 % (see docs)
  }
  // CP: ring exchange of K and V per layer (backward: twice, the K/V gradients return). Each
  // step's transfer hides only under that step's blockwise attention, not under the layer's
  // other GEMMs, which wait for its output: the ring is free only when a chunk's attention
  // outlasts its transfer, chunk length ≥ FLOP/s ÷ bytes/s (Liu et al. 2023, Ring Attention,
  // §3 and Table 2). Short chunks leave it exposed.
  // Each TP rank rings only its own KV heads with the same TP rank of the other CP ranks
  // (Megatron-Core builds one CP group per TP rank).
  if (l.cp > 1) {
    const double kv =
        2 * s / l.cp * b * kv_heads_per_rank(m, l.tp) * m.head_dim * dtype_bytes(l.activations);
    const Tier& t = tier_of(c, l, Group::Cp);
    const double x = collective_time(Collective::AllGather, kv * l.cp, l.cp, t).time;
    r.cp_comm = 3 * std::max(0.0, x * layers_here - attention) * mb;
  }
  // EP: dispatch and combine all-to-alls, forward and backward, per MoE layer.
  if (m.experts > 0 && l.ep > 1) {
    const double tokens = act_bytes / l.tp * std::max(1, m.top_k);
    // EP reuses DP × CP ranks: inside a node when that many of them share one.
    const int near = ranks_per_node(l, Group::Cp, c.gpus_per_node) *
                     ranks_per_node(l, Group::Dp, c.gpus_per_node);
    const Tier& t = l.ep <= near ? c.intra : c.inter;
    r.ep_comm = 4 * collective_time(Collective::AllToAll, tokens, l.ep, t).time * layers_here * mb;
  }
  // PP: one send per microbatch each way on the critical path's p−1 hops.
  if (l.pp > 1) {
    const double bytes = act_bytes / (l.sequence_parallel ? l.tp : 1);
    const Tier& t = tier_of(c, l, Group::Pp);
    r.pp_comm = 2 * (l.pp - 1.0) * l.vpp * collective_time(Collective::P2p, bytes, 2, t).time;
  }
  r.memory = training_memory(m, sm.params, l, s);
  // DP: gradients reduced over dp·cp ranks (ZeRO ≥ 2: reduce-scatter + all-gather, the same
  // bytes); ZeRO-3 gathers parameters again forward and backward (×1.5, ZeRO §7). A routed
  // expert lives on one rank of each EP group, so its weights travel only among the dp·cp/ep
  // ranks that hold it (Megatron-Core's expert-data-parallel group; the memory is split the
  // same way in training_memory), and only experts/ep of them per rank.
  const int dpr = l.dp * l.cp;
  const int edp = l.ep > 1 ? std::max(1, dpr / l.ep) : dpr;
  const double expert = l.ep > 1 ? sm.expert_params : 0;
  if (dpr > 1) {
    const double stage = static_cast<double>(l.tp) * l.pp;
    const double dense_params = (sm.params.total - expert) / stage;
    const double expert_params_here = expert / (stage * l.ep);
    // The DP × CP group's ranks that share a node reduce over NVLink first (hierarchical). The
    // expert group's ranks are ep apart within it.
    const int per_node = ranks_per_node(l, Group::Cp, c.gpus_per_node) *
                         ranks_per_node(l, Group::Dp, c.gpus_per_node);
    const int per_node_dense = std::min(per_node, dpr);
    const int per_node_expert = std::max(1, std::min(per_node / std::max(1, l.ep), edp));
    // One collective over each group: the dense weights over dp·cp ranks, the experts over
    // theirs (none when every expert has one holder).
    const auto both = [&](Collective op, double bytes_per_param) {
      double t = hierarchical_time(op, dense_params * bytes_per_param, dpr, per_node_dense, c).time;
      if (expert_params_here > 0 && edp > 1)
        t += hierarchical_time(op, expert_params_here * bytes_per_param, edp, per_node_expert, c)
                 .time;
      return t;
    };
    const double t = both(Collective::AllReduce, dtype_bytes(l.grads));
    // Overlapped with the backward pass of the last microbatch round (bucketed, PyTorch DDP):
    // what outlasts the window is exposed, and what it hides slows the compute beside it.
    const auto overlapped = [&](double comm, double window) {
      if (!l.dp_overlap) return comm;
      const double hidden = std::min(comm, window);
      r.dp_hidden += hidden;
      r.dp_outlasting += comm - hidden;
      return comm - hidden + job.overlap_slowdown * hidden;
    };
    r.dp_comm = overlapped(t, 2 * fwd * std::min(mb, 1.0 * l.pp));
    if (l.zero_stage >= 3) {
      // ZeRO-3 / FSDP gathers the stage's parameters before each microbatch's forward and
      // backward (ZeRO §5.3: 1.5× DP's volume per step without accumulation); prefetching hides
      // it under compute when overlap is on.
      const double gather = 2 * mb * both(Collective::AllGather, dtype_bytes(l.weights));
      r.dp_comm += overlapped(gather, r.compute);
    }
  }
  if (l.optimizer_offload) {
    // Optimizer state over PCIe both ways each step, not overlapped (ZeRO-Offload).
    r.dp_comm += 2 * r.memory.weights / 2 * l.optimizer_bytes_per_param / 25e9;
  }
  // The optimizer update is memory-bound: each parameter this GPU updates has its state read
  // and written (K bytes each way; ZeRO shards it), its gradient read and its weight written.
  // Megatron-LM's time includes it ("optimizer steps", Narayanan et al. 2021, §5.1).
  if (bw > 0 && l.optimizer_bytes_per_param > 0 && !l.optimizer_offload) {
    const double k = l.optimizer_bytes_per_param;
    r.optimizer =
        r.memory.optimizer / k * (2 * k + dtype_bytes(l.grads) + dtype_bytes(l.weights)) / bw;
  }
  r.step = r.compute + r.recompute + r.elementwise + r.bubble + r.tp_comm + r.cp_comm + r.ep_comm +
           r.pp_comm + r.dp_comm + r.optimizer;
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
