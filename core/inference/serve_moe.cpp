// serve.moe: one expert-parallel decode unit of `ep` GPUs (DeepSeek-AI 2024, DeepSeek-V3 §3.4:
// attention data-parallel, the MoE part EP32 for prefill and EP320 for decode). Each of the
// ep/TP attention groups decodes `batch` sequences; every token goes to top_k of E routed
// experts, each expert whole on one GPU. Parameter counts come from model_params, the experts a
// step touches from expected_experts_touched, the all-to-all from collective_time.
#include "inference/serve_moe.hpp"

#include <algorithm>
#include <cmath>

#include "base/counts.hpp"
#include "base/units.hpp"
#include "scenario/accelerator_inputs.hpp"
#include "scenario/cluster.hpp"
#include "scenario/collective.hpp"
#include "scenario/model.hpp"

namespace napkin {

ServeMoeIn::ServeMoeIn() : ModelInputs(find_model("deepseek-v3")->model) {}

Result<ServeMoeOut> serve_moe(const ServeMoeIn& in, Derivation& d) {
  ServeMoeOut o{};
  const auto model = to_model(in);
  if (!model.ok()) return model.error();
  const Model& m = model.value();
  if (m.experts <= 0)
    return Error::inconsistent("experts", m.experts,
                               "serve.moe needs a mixture of experts (serve.engine takes dense "
                               "models)");
  if (std::fmod(in.ep, in.tp) != 0 || in.tp > in.ep)
    return Error::inconsistent("tp", in.tp,
                               "must divide the EP GPUs (" + format_value(in.ep, unit::none) + ")");
  const ModelParams p = model_params(m);
  const double E = m.experts, k = m.top_k, layers = p.moe_layers;
  const double routed = E * layers * p.expert;
  const double shared = p.total - routed;
  // Precision: FP8 and INT8 weights run W8A8 (8-bit activations: DeepSeek-V3 dispatches in
  // FP8, §3.3.2); INT4 is weight-only at the BF16 peak.
  const Dtype wt = in.weight_dtype == "fp8"    ? Dtype::Fp8
                   : in.weight_dtype == "int8" ? Dtype::Int8
                   : in.weight_dtype == "int4" ? Dtype::Int4
                                               : Dtype::Bf16;
  const double b = quantized_bytes_per_param(wt, wt == Dtype::Int4 ? 128 : 0);
  Gpu g;
  g.peak_bf16 = in.peak_flops;
  g.peak_fp8 = g.peak_int8 = in.peak_fp8;
  double peak = peak_flops(g, wt == Dtype::Int4 ? Dtype::Bf16 : wt);
  if (peak <= 0) peak = in.peak_flops;
  const double act_bytes = wt == Dtype::Fp8 || wt == Dtype::Int8 ? 1 : 2;

  // Memory: shared weights (attention, embeddings, dense and shared-expert FFNs, routers)
  // split over TP; routed experts whole, E / EP per GPU.
  o.experts_per_gpu = ceil_count(E / in.ep);
  if (std::fmod(E, in.ep) != 0)
    d.warn(format_value(E, unit::none) + " experts do not split evenly over " +
           format_value(in.ep, unit::none) + " GPUs: the fullest holds " +
           format_value(o.experts_per_gpu, unit::none) +
           " (DeepSeek-V3 fills the rest with redundant copies of busy experts).");
  d.step("Routed experts per GPU", "E_g", "\\lceil $E / $p \\rceil",
         {{"E", "E", E}, {"p", "EP", in.ep}}, o.experts_per_gpu, unit::none);
  o.weights_per_gpu = shared * b / in.tp + o.experts_per_gpu * layers * p.expert * b;
  d.step("Weights per GPU", "W_g", "\\frac{$S \\cdot $b}{$t} + $e \\cdot $L \\cdot $x \\cdot $b",
         {{"S", "N_{shared}", shared, unit::params},
          {"b", "b_w", b, unit::bytes},
          {"t", "TP", in.tp},
          {"e", "E_g", o.experts_per_gpu},
          {"L", "L_{moe}", layers},
          {"x", "N_e", p.expert, unit::params}},
         o.weights_per_gpu, unit::bytes);
  o.memory_left_per_gpu = in.memory_utilization * in.gpu_memory - o.weights_per_gpu;
  if (o.memory_left_per_gpu <= 0)
    return Error::inconsistent("ep", in.ep,
                               "the weights (" + format_value(o.weights_per_gpu, unit::bytes) +
                                   " per GPU) do not fit: use more EP or TP GPUs");
  d.step("Memory left per GPU (KV cache, activations)", "M_{left}", "$u \\cdot $M - $W",
         {{"u", "u", in.memory_utilization, unit::fraction},
          {"M", "M", in.gpu_memory, unit::bytes},
          {"W", "W_g", o.weights_per_gpu, unit::bytes}},
         o.memory_left_per_gpu, unit::bytes);

  // One decode step: every attention group's batch routed together.
  const double tokens = in.batch * in.ep / in.tp;
  o.experts_touched = expected_experts_touched(m, tokens);
  d.step("Experts a step touches per MoE layer (uniform top-k routing)", "E_h",
         "$E \\cdot (1 - (1 - \\frac{$k}{$E})^{$T})",
         {{"E", "E", E}, {"k", "k", k}, {"T", "T", tokens, unit::tokens}}, o.experts_touched,
         unit::none);
  o.experts_touched_per_gpu = o.experts_touched * o.experts_per_gpu / E;
  const double read = shared * b / in.tp + o.experts_touched_per_gpu * layers * p.expert * b;
  o.weight_read_time = read / (in.bandwidth_efficiency * in.mem_bandwidth);
  d.step("Weight read per step per GPU", "t_W",
         "\\frac{$S \\cdot $b / $t + $h \\cdot $L \\cdot $x \\cdot $b}{$e \\cdot $B}",
         {{"S", "N_{shared}", shared, unit::params},
          {"b", "b_w", b, unit::bytes},
          {"t", "TP", in.tp},
          {"h", "E_h / EP", o.experts_touched_per_gpu},
          {"L", "L_{moe}", layers},
          {"x", "N_e", p.expert, unit::params},
          {"e", "e_{BW}", in.bandwidth_efficiency, unit::fraction},
          {"B", "BW", in.mem_bandwidth, unit::bytes_per_s}},
         o.weight_read_time, unit::seconds);
  // FLOPs: each GPU carries batch / TP tokens' worth of every active weight (the shared part
  // split over TP, the routed part spread over EP with the tokens).
  // The shared forward FLOPs at no context (this card has none: the weight matmuls, 2 per
  // active weight less the input embedding, a lookup).
  const double f_tok = forward_flops_per_token(m, 0, false);
  o.compute_time = in.batch / in.tp * f_tok / (in.compute_efficiency * peak);
  d.step("Matmul time per step per GPU", "t_C", "\\frac{$B / $t \\cdot 2 \\cdot $N}{$e \\cdot $F}",
         {{"B", "B", in.batch},
          {"t", "TP", in.tp},
          {"N", "N_{\\text{active}}", f_tok / 2, unit::params},
          {"e", "e_C", in.compute_efficiency, unit::fraction},
          {"F", "F", peak, unit::flops}},
         o.compute_time, unit::seconds);

  // All-to-all (Lepikhin et al. 2021, GShard): each MoE layer dispatches every token's hidden
  // state to its k experts and combines the k results back (BF16); (EP − 1)/EP of them leave
  // the GPU. Inside one node it runs on NVLink, across nodes on each GPU's NIC.
  const double d_model = m.d_model;
  o.alltoall_bytes_per_token = layers * k * d_model * (act_bytes + 2) * (in.ep - 1) / in.ep;
  d.step("All-to-all bytes per token (dispatch + combine, every MoE layer)", "V_t",
         "$L \\cdot $k \\cdot $d \\cdot ($a + 2) \\cdot \\frac{$p - 1}{$p}",
         {{"L", "L_{moe}", layers},
          {"k", "k", k},
          {"d", "d", d_model},
          {"a", "b_a", act_bytes, unit::bytes},
          {"p", "EP", in.ep}},
         o.alltoall_bytes_per_token, unit::bytes);
  // Decode dispatch and combine as DeepEP's low-latency kernels run them (DeepSeek-AI 2024,
  // DeepSeek-V3 §3.4: decode all-to-all by direct point-to-point IB transfers; DeepEP's README,
  // "low-latency kernels with pure RDMA"): every GPU posts its sends to all EP − 1 peers at
  // once, so the bandwidth term is its bytes over its own link and the latency one message's,
  // not EP − 1 in sequence (collective_time, Algorithm::Direct). Past one node every byte goes
  // over the GPU's NIC, as in those kernels; inside a node, over NVLink.
  Tier tier;
  tier.bandwidth = in.ep <= in.gpus_per_node ? in.intra_bandwidth : in.inter_bandwidth;
  tier.latency = in.ep <= in.gpus_per_node ? 3e-6 : 5e-6;
  const double per_gpu = in.batch / in.tp;  // tokens each GPU dispatches per step
  const int ranks = static_cast<int>(in.ep);
  const CollectiveCost dispatch = collective_time(
      Collective::AllToAll, per_gpu * k * d_model * act_bytes, ranks, tier, Algorithm::Direct);
  const CollectiveCost combine = collective_time(Collective::AllToAll, per_gpu * k * d_model * 2,
                                                 ranks, tier, Algorithm::Direct);
  o.alltoall_time = layers * (dispatch.time + combine.time);
  d.step("All-to-all time per step (sends to all peers at once; not overlapped)", "t_{A2A}",
         "$L \\cdot (t_{disp} + t_{comb})\\text{ over }$B",
         {{"L", "L_{moe}", layers}, {"B", "BW_{link}", tier.bandwidth, unit::bytes_per_s}},
         o.alltoall_time, unit::seconds);
  o.step_time = std::max(o.compute_time, o.weight_read_time) + o.alltoall_time;
  d.step("Decode step (KV read not counted)", "t_s", "\\max($C, $W) + $A",
         {{"C", "t_C", o.compute_time, unit::seconds},
          {"W", "t_W", o.weight_read_time, unit::seconds},
          {"A", "t_{A2A}", o.alltoall_time, unit::seconds}},
         o.step_time, unit::seconds);
  o.tokens_per_second_per_gpu = per_gpu / o.step_time;
  return o;
}

void register_serve_moe(Registry& r) {
  using In = ServeMoeIn;
  using Out = ServeMoeOut;
  r.add(with_model_inputs<In>(
      declare<serve_moe>(
          {"serve.moe", "MoE serving: experts touched, memory and all-to-all with EP", "inference",
           "Decoding a mixture of experts with its experts spread over EP GPUs: the experts a "
           "step touches, weights per GPU, the all-to-all per token and the step time.",
           "DeepSeek-AI 2024 (DeepSeek-V3) §3.4; Lepikhin et al. 2021 (GShard)",
           "docs/serving.md#servemoe"},
          {peak_flops_input(NAPKIN_FIELD(In, peak_flops), "Peak BF16 FLOP/s per GPU")
               .group("cluster"),
           num("peak_fp8", NAPKIN_FIELD(In, peak_fp8), "Peak FP8 FLOP/s per GPU", unit::flops)
               .help("Dense FP8 peak; 0 = none (BF16's is used)")
               .range(0, 1e17)
               .group("cluster"),
           hbm_bandwidth_input(NAPKIN_FIELD(In, mem_bandwidth), "Memory bandwidth", 1e15)
               .group("cluster"),
           gpu_memory_input(NAPKIN_FIELD(In, gpu_memory)).group("cluster"),
           num("gpus_per_node", NAPKIN_FIELD(In, gpus_per_node), "GPUs per node", unit::gpus)
               .help("GPUs on NVLink together; a larger EP crosses nodes")
               .positive(1e4)
               .integer()
               .group("cluster"),
           num("intra_bandwidth", NAPKIN_FIELD(In, intra_bandwidth), "Intra-node bandwidth",
               unit::bytes_per_s)
               .help("NVLink bandwidth per GPU, one direction")
               .positive(1e15)
               .group("cluster"),
           num("inter_bandwidth", NAPKIN_FIELD(In, inter_bandwidth), "Inter-node bandwidth per GPU",
               unit::bytes_per_s)
               .help("InfiniBand or RoCE bandwidth per GPU, one direction")
               .positive(1e15)
               .group("cluster"),
           choice("weight_dtype", NAPKIN_FIELD(In, weight_dtype), "Weights", "bf16|fp8|int8|int4")
               .labels("BF16|FP8 (W8A8)|INT8 (W8A8)|INT4 (weight-only)")
               .help("Storage of the weights; 8-bit also dispatches 8-bit activations")
               .group("engine"),
           num("ep", NAPKIN_FIELD(In, ep), "Expert parallel (EP)", unit::gpus)
               .help("GPUs the routed experts are spread over, whole")
               .range(1, 1e5)
               .integer()
               .group("layout"),
           num("tp", NAPKIN_FIELD(In, tp), "Attention TP")
               .help("GPUs splitting attention and shared weights; EP ÷ TP groups run in "
                     "parallel")
               .range(1, 1024)
               .integer()
               .group("layout"),
           num("batch", NAPKIN_FIELD(In, batch), "Batch per attention group")
               .help("Sequences each group decodes together")
               .range(1, 1e6)
               .integer()
               .group("job"),
           num("memory_utilization", NAPKIN_FIELD(In, memory_utilization), "GPU memory used",
               unit::fraction)
               .help("Share of GPU memory the engine may take")
               .range(0.01, 1)
               .group("engine"),
           compute_efficiency_input(NAPKIN_FIELD(In, compute_efficiency)).group("engine"),
           bandwidth_efficiency_input(NAPKIN_FIELD(In, bandwidth_efficiency)).group("engine")},
          {out("experts_touched", NAPKIN_FIELD(Out, experts_touched), "Experts touched per step")
               .help("Distinct routed experts per MoE layer one decode step reads"),
           out("experts_touched_per_gpu", NAPKIN_FIELD(Out, experts_touched_per_gpu),
               "Touched per GPU")
               .help("Of those, the ones on one GPU"),
           out("experts_per_gpu", NAPKIN_FIELD(Out, experts_per_gpu), "Experts per GPU")
               .help("Routed experts each GPU holds, per MoE layer"),
           out("weights_per_gpu", NAPKIN_FIELD(Out, weights_per_gpu), "Weights per GPU",
               unit::bytes)
               .help("Shared weights ÷ TP + this GPU's experts"),
           out("memory_left_per_gpu", NAPKIN_FIELD(Out, memory_left_per_gpu), "Memory left per GPU",
               unit::bytes)
               .help("For the KV cache and activations"),
           out("alltoall_bytes_per_token", NAPKIN_FIELD(Out, alltoall_bytes_per_token),
               "All-to-all per token", unit::bytes)
               .help("Bytes one token's dispatch and combine move off its GPU, all layers"),
           out("alltoall_time", NAPKIN_FIELD(Out, alltoall_time), "All-to-all per step",
               unit::seconds)
               .help("Dispatch + combine over every MoE layer"),
           out("weight_read_time", NAPKIN_FIELD(Out, weight_read_time), "Weight read per step",
               unit::seconds)
               .help("Shared weights and the touched experts on one GPU"),
           out("compute_time", NAPKIN_FIELD(Out, compute_time), "Matmuls per step", unit::seconds)
               .help("FLOPs of one GPU's tokens"),
           out("step_time", NAPKIN_FIELD(Out, step_time), "Decode step", unit::seconds)
               .help("max(matmuls, weight read) + all-to-all; the KV read is left out"),
           out("tokens_per_second_per_gpu", NAPKIN_FIELD(Out, tokens_per_second_per_gpu),
               "Tokens/s per GPU", unit::tokens_per_s)
               .help("Output tokens per second each GPU carries")}),
      0));
  r.add_chart({.id = "moe-experts-vs-batch",
               .title = "Experts touched per GPU and step time vs batch",
               .estimator = "serve.moe",
               .x = "batch",
               .x_label = "Batch per attention group",
               .y_label = "Time",
               .y_unit = unit::seconds,
               .x_min = 1,
               .x_max = 1024,
               .points = 30,
               .log_x = true,
               .log_y = true,
               .integer_x = true,
               .y = {"step_time", "weight_read_time", "alltoall_time"}});
}

}  // namespace napkin
