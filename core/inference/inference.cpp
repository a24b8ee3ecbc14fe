#include "inference/inference.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "base/counts.hpp"
#include "base/units.hpp"
#include "inference/moe_counts.hpp"
#include "inference/rl.hpp"
#include "inference/serving.hpp"
#include "root/areas.hpp"
#include "scenario/accelerator_inputs.hpp"
#include "scenario/cluster.hpp"
#include "scenario/model.hpp"

namespace napkin {

namespace {

std::string count_text(double v) {
  return format_value(v, unit::none);
}

// Sum over decode steps t = 0..g−1 of max(a + c·t, k + e·t): the memory time grows by c per
// step as the cache grows, the compute time by e (attention to one more cached token); two
// lines cross at most once, so the max switches at most once.
double sum_of_max_linear(double a, double c, double k, double e, double g) {
  // Σ_{t=t0}^{t1−1} (a + c·t) = (t1 − t0)·a + c·(t0 + t1 − 1)·(t1 − t0)/2
  auto sum = [](double a0, double c0, double t0, double t1) {
    return (t1 - t0) * a0 + c0 * (t0 + t1 - 1) * (t1 - t0) / 2;
  };
  if (c == e) return sum(std::max(a, k), c, 0, g);
  const double x = (k - a) / (c - e);  // where the two lines cross
  if (c > e) {
    const double s = std::clamp(std::ceil(x), 0.0, g);  // memory from step s on
    return sum(k, e, 0, s) + sum(a, c, s, g);
  }
  const double s = std::clamp(std::floor(x) + 1, 0.0, g);  // memory up to step s
  return sum(a, c, 0, s) + sum(k, e, s, g);
}

}  // namespace

// The study notes' `calculate_inference_latency` (docs/inference.md): prefill = b·p·2N / F
// (compute-bound), decode = N·2 bytes / BW per token (weight reads only), KV cache 2·L·d·2 bytes
// per token (MHA; here the shared model's cache, which GQA, MQA and MLA shrink). The roofline
// option follows Pope et al. 2022 §2 (Efficiently Scaling Transformer Inference): a decode step
// reads the weights once and every sequence's cache, and costs max(bytes / BW, b·F_dec / F). Its
// FLOPs are the shared forward FLOPs (Kaplan et al. 2020 Table 1: 2N plus attention): the prefill's
// with causal attention over the p prompt tokens, a decode step's at context p + t with no halving
// (the new token attends to every cached one). The worked example's model keeps 2N per token.
Result<InferLatencyOut> infer_latency(const InferLatencyIn& in, Derivation& d) {
  // The model, its counts and its KV cache from the shared scenario (core/scenario/): a model
  // preset gives the same numbers here as on every other card.
  Result<SizedModel> sized = to_sized_model(in, d);
  if (!sized.ok()) return sized.error();
  const Model& m = sized->model;
  InferLatencyOut o{};
  const double n = sized->total, b = in.batch, p = in.prompt_len, g = in.gen_len;
  const double na = sized->active;
  o.active_params = na;
  const bool roofline = in.decode_model == "roofline";
  const bool moe = m.experts > 0;
  const double experts = m.experts, top_k = m.top_k;

  o.kv_bytes_per_token = kv_bytes_per_token(m, in.kv_bytes);
  // MLA (DeepSeek-V2 Table 1): one latent plus the decoupled RoPE key per token and layer; MHA,
  // GQA (Ainslie et al. 2023) or MQA: K and V of each KV head, every layer.
  const bool mla = m.attention == AttentionKind::Mla;
  d.step(mla ? "KV cache per token (MLA: latent + RoPE key, every layer)"
             : "KV cache per token (K and V of each KV head, every layer)",
         "m_{kv}",
         mla ? "$L \\cdot ($c + $r) \\cdot $k" : "2 \\cdot $L \\cdot $hkv \\cdot $dh \\cdot $k",
         {{"L", "L", double(m.layers)},
          {"c", "d_c", m.kv_lora_rank},
          {"r", "d_h^R", m.rope_dim},
          {"hkv", "h_{kv}", double(m.kv_heads)},
          {"dh", "d_h", m.head_dim},
          {"k", "b_{kv}", in.kv_bytes, unit::bytes}},
         o.kv_bytes_per_token, unit::bytes_per_token);

  const double f_prefill = roofline ? forward_flops_step(sized.value(), p, true, d) : 2 * na;
  o.prefill_flops = b * p * f_prefill;
  d.step(roofline ? "Prefill FLOPs" : "Prefill FLOPs (2 per parameter)", "C_{\\text{prefill}}",
         "$b \\cdot $p \\cdot $F",
         {{"b", "b", b},
          {"p", "p", p, unit::tokens},
          {"F", roofline ? "F_{\\text{fwd}}" : "2 N", f_prefill, unit::flop_per_token}},
         o.prefill_flops, unit::flop);
  // Achieved, not peak, rates (the serving engines' shares, docs/serving.md: NVIDIA NIM's
  // Llama 3.3 70B rows); 1 and 1 give the roofline's ideal, as the worked examples use.
  const double F = in.peak_flops * in.compute_efficiency;
  const double BW = in.mem_bandwidth * in.bandwidth_efficiency;
  if (in.compute_efficiency < 1 || in.bandwidth_efficiency < 1) {
    d.step("Achieved matmul rate", "F", "$e \\cdot $P",
           {{"e", "e_C", in.compute_efficiency, unit::fraction},
            {"P", "F_{\\text{peak}}", in.peak_flops, unit::flops}},
           F, unit::flops);
    d.step("Achieved memory bandwidth", "BW", "$e \\cdot $P",
           {{"e", "e_{BW}", in.bandwidth_efficiency, unit::fraction},
            {"P", "BW_{\\text{peak}}", in.mem_bandwidth, unit::bytes_per_s}},
           BW, unit::bytes_per_s);
  }
  const double prefill_compute = o.prefill_flops / F;
  o.weights_memory = n * in.weight_bytes;
  // What a step reads (core/scenario/model.cpp): every weight of a dense model; for an MoE,
  // the shared weights and the experts the step's tokens touch.
  const double prefill_read = params_read_per_step(n, na, experts, top_k, b * p) * in.weight_bytes;
  const double decode_read = params_read_per_step(n, na, experts, top_k, b) * in.weight_bytes;
  const double weight_read = decode_read / BW;
  if (moe) {
    d.step("Weights a decode step reads (shared + the experts the batch touches)", "W_r",
           "$A + ($E (1 - (1 - \\frac{$k}{$E})^{$b}) - $k) \\cdot \\frac{$N - $A}{$E - $k}",
           {{"A", "N_a", na, unit::params},
            {"E", "E", experts},
            {"k", "k", top_k},
            {"b", "b", b},
            {"N", "N", n, unit::params}},
           decode_read / in.weight_bytes, unit::params);
  }
  if (roofline) {
    // Pope et al. 2022 §3: a forward pass over the prompt also reads every weight once, so a
    // short prefill is bound by that read, not by its FLOPs.
    d.step("Weight bytes (read once by the prefill and by every decode step)", "W", "$N \\cdot $w",
           {{"N", "N", n, unit::params}, {"w", "b_w", in.weight_bytes, unit::bytes}},
           o.weights_memory, unit::bytes);
    o.prefill_time = std::max(prefill_compute, prefill_read / BW);
    d.step("Prefill time (compute or one read of the weights, whichever is longer)",
           "T_{\\text{prefill}}", "\\max\\left(\\frac{$C}{$F},\\ \\frac{$W}{$B}\\right)",
           {{"C", "C_{\\text{prefill}}", o.prefill_flops, unit::flop},
            {"F", "F", F, unit::flops},
            {"W", moe ? "W_{\\text{prefill}}" : "W", prefill_read, unit::bytes},
            {"B", "BW", BW, unit::bytes_per_s}},
           o.prefill_time, unit::seconds);
  } else {
    o.prefill_time = prefill_compute;
    d.step("Prefill time (compute-bound, as the worked example)", "T_{\\text{prefill}}",
           "\\frac{$C}{$F}",
           {{"C", "C_{\\text{prefill}}", o.prefill_flops, unit::flop}, {"F", "F", F, unit::flops}},
           o.prefill_time, unit::seconds);
    d.step("Weight bytes read per decode step", "W", "$N \\cdot $w",
           {{"N", "N", n, unit::params}, {"w", "b_w", in.weight_bytes, unit::bytes}},
           o.weights_memory, unit::bytes);
  }
  if (!roofline) {
    o.decode_time_per_token = weight_read;
    d.step("Decode time per token (memory-bound: read the weights once)", "t_{\\text{tok}}",
           "\\frac{$W}{$B}",
           {{"W", moe ? "W_r" : "W", decode_read, unit::bytes}, {"B", "BW", BW, unit::bytes_per_s}},
           o.decode_time_per_token, unit::seconds);
    o.decode_time = g * o.decode_time_per_token;
    o.decode_bound = "memory";
    d.note("Assumption (the worked example's model)",
           "Decode reads only the weights: the KV cache reads and the batch's FLOPs are "
           "ignored, so batching costs nothing per token. Choose the roofline decode model to "
           "count them.");
  } else {
    // Step t reads W plus the cache of b sequences holding p + t tokens each.
    const double a = (decode_read + b * p * o.kv_bytes_per_token) / BW;
    const double c = b * o.kv_bytes_per_token / BW;
    // Compute time of step t: b tokens at context p + t. Linear in t, with one kink where the
    // context passes a sliding window (windowed layers stop growing): two linear pieces.
    auto compute = [&](double t) {
      return b * forward_flops_per_token(sized.value(), p + t, false) / F;
    };
    const double f_dec = forward_flops_step(sized.value(), p, false, d);
    const double k = b * f_dec / F;
    d.step("First decode step, compute time", "t_{\\text{comp}}", "\\frac{$b \\cdot $f}{$F}",
           {{"b", "b", b},
            {"f", "F_{\\text{dec}}", f_dec, unit::flop_per_token},
            {"F", "F", F, unit::flops}},
           k, unit::seconds);
    o.decode_time = 0;
    double t0 = 0;
    for (const double end : {m.window > 0 ? std::clamp(m.window - p, 0.0, g) : g, g}) {
      if (end > t0)
        o.decode_time +=
            sum_of_max_linear(a + c * t0, c, compute(t0), compute(t0 + 1) - compute(t0), end - t0);
      t0 = end;
    }
    d.step("Decode time, step by step as the cache grows", "T_{\\text{decode}}",
           "\\sum_{t=0}^{$g - 1} \\max\\left(t_{\\text{mem}} + t \\cdot \\frac{$b \\cdot "
           "$m}{$B},\\ \\frac{$b \\cdot F_{\\text{dec}}($p + t)}{$F}\\right)",
           {{"g", "g", g},
            {"b", "b", b},
            {"m", "m_{kv}", o.kv_bytes_per_token, unit::bytes_per_token},
            {"B", "BW", BW, unit::bytes_per_s},
            {"p", "p", p, unit::tokens},
            {"F", "F", F, unit::flops}},
           o.decode_time, unit::seconds);
    o.decode_time_per_token = o.decode_time / g;
    d.step("Average time per decode step", "t_{\\text{tok}}", "\\frac{$T}{$g}",
           {{"T", "T_{\\text{decode}}", o.decode_time, unit::seconds}, {"g", "g", g}},
           o.decode_time_per_token, unit::seconds);
    const bool first_memory = a >= k, last_memory = a + c * (g - 1) >= compute(g - 1);
    o.decode_bound = first_memory == last_memory ? (first_memory ? "memory" : "compute")
                     : first_memory              ? "memory, then compute"
                                                 : "compute, then memory";
    d.note("Bound", "Decode is " + o.decode_bound + "-bound: memory time " +
                        format_value(a, unit::seconds) + " per step at the start vs compute " +
                        format_value(k, unit::seconds) + ".");
  }
  if (!roofline)
    d.step("Decode time", "T_{\\text{decode}}", "$g \\cdot $t",
           {{"g", "g", g, unit::tokens},
            {"t", "t_{\\text{tok}}", o.decode_time_per_token, unit::seconds}},
           o.decode_time, unit::seconds);
  o.total_time = o.prefill_time + o.decode_time;
  d.step("Total latency", "T", "$P + $D",
         {{"P", "T_{\\text{prefill}}", o.prefill_time, unit::seconds},
          {"D", "T_{\\text{decode}}", o.decode_time, unit::seconds}},
         o.total_time, unit::seconds);
  o.tokens_per_second = b * g / o.total_time;
  d.step("Throughput (generated tokens)", "\\text{tok/s}", "\\frac{$b \\cdot $g}{$T}",
         {{"b", "b", b}, {"g", "g", g, unit::tokens}, {"T", "T", o.total_time, unit::seconds}},
         o.tokens_per_second, unit::tokens_per_s);
  o.kv_bytes_per_sequence = (p + g) * o.kv_bytes_per_token;
  d.step("KV cache per sequence", "M_{\\text{seq}}", "($p + $g) \\cdot $m",
         {{"p", "p", p, unit::tokens},
          {"g", "g", g, unit::tokens},
          {"m", "m_{kv}", o.kv_bytes_per_token, unit::bytes_per_token}},
         o.kv_bytes_per_sequence, unit::bytes);
  o.kv_bytes_total = b * o.kv_bytes_per_sequence;
  d.step("KV cache for the batch", "M_{kv}", "$b \\cdot $M",
         {{"b", "b", b}, {"M", "M_{\\text{seq}}", o.kv_bytes_per_sequence, unit::bytes}},
         o.kv_bytes_total, unit::bytes);
  o.memory_needed = o.weights_memory + o.kv_bytes_total;
  d.step(
      "Memory needed (weights + cache)", "M", "$W + $K",
      {{"W", "W", o.weights_memory, unit::bytes}, {"K", "M_{kv}", o.kv_bytes_total, unit::bytes}},
      o.memory_needed, unit::bytes);
  if (o.memory_needed > in.gpu_memory)
    d.warn("Weights and cache (" + format_value(o.memory_needed, unit::bytes) +
           ") do not fit in one GPU's " + format_value(in.gpu_memory, unit::bytes) +
           ": the single-GPU latency is a lower bound for a model that needs several GPUs.");
  return o;
}

// KV cache size per token (DeepSeek-AI 2024, DeepSeek-V2, Table 1): MHA 2·n_h·d_h·l,
// GQA 2·n_g·d_h·l, MQA 2·d_h·l elements; MLA caches the compressed latent and the decoupled
// RoPE key, (d_c + d_h^R)·l elements.
Result<InferKvOut> infer_kv(const InferKvIn& in, Derivation& d) {
  if (in.rope_dim > 0 && in.latent_dim == 0)
    return Error::inconsistent("rope_dim", in.rope_dim,
                               "is an MLA width: set latent_dim (MLA's d_c) too, or rope_dim = 0");
  const bool mla = in.latent_dim > 0;
  // Without MLA the cache is the KV heads' K and V: zero KV heads would be a zero-byte cache.
  if (!mla && in.n_kv_heads < 1)
    return Error::inconsistent("n_kv_heads", in.n_kv_heads,
                               "must be at least 1 unless latent_dim (MLA) is given");
  if (!mla && in.n_heads > 0 && in.n_kv_heads > in.n_heads)
    return Error::inconsistent("n_kv_heads", in.n_kv_heads,
                               "must be at most n_heads (" + count_text(in.n_heads) + ")");
  InferKvOut o{};
  if (mla) {
    o.attention = "MLA";
    o.elements_per_token_per_layer = in.latent_dim + in.rope_dim;
    d.step("Cached elements per token per layer (MLA: latent + RoPE key)", "e", "$c + $r",
           {{"c", "d_c", in.latent_dim}, {"r", "d_h^R", in.rope_dim}},
           o.elements_per_token_per_layer, unit::none);
  } else {
    o.attention = in.n_kv_heads == 1            ? "MQA"
                  : in.n_heads == 0             ? "MHA or GQA"
                  : in.n_kv_heads == in.n_heads ? "MHA"
                                                : "GQA";
    o.elements_per_token_per_layer = 2 * in.n_kv_heads * in.head_dim;
    d.step("Cached elements per token per layer (K and V of each KV head)", "e",
           "2 \\cdot $h \\cdot $dh", {{"h", "h_{kv}", in.n_kv_heads}, {"dh", "d_h", in.head_dim}},
           o.elements_per_token_per_layer, unit::none);
  }
  // The bytes from the one KV function (core/scenario/model.cpp), as every other card.
  Model shape;
  shape.layers = static_cast<int>(in.n_layers);
  shape.kv_heads = static_cast<int>(in.n_kv_heads);
  shape.head_dim = in.head_dim;
  if (mla) {
    shape.attention = AttentionKind::Mla;
    shape.kv_lora_rank = in.latent_dim;
    shape.rope_dim = in.rope_dim;
  }
  o.bytes_per_token = kv_bytes_per_token(shape, in.kv_bytes);
  d.step("KV cache per token (" + o.attention + ")", "m_{kv}", "$e \\cdot $L \\cdot $k",
         {{"e", "e", o.elements_per_token_per_layer},
          {"L", "L", in.n_layers},
          {"k", "b_{kv}", in.kv_bytes, unit::bytes}},
         o.bytes_per_token, unit::bytes_per_token);
  o.bytes_per_sequence = in.seq_len * o.bytes_per_token;
  d.step("Per sequence", "M_{\\text{seq}}", "$s \\cdot $m",
         {{"s", "s", in.seq_len, unit::tokens},
          {"m", "m_{kv}", o.bytes_per_token, unit::bytes_per_token}},
         o.bytes_per_sequence, unit::bytes);
  o.bytes_total = in.batch * o.bytes_per_sequence;
  d.step("For the batch", "M_{kv}", "$b \\cdot $M",
         {{"b", "b", in.batch}, {"M", "M_{\\text{seq}}", o.bytes_per_sequence, unit::bytes}},
         o.bytes_total, unit::bytes);
  if (in.n_heads > 0) {
    // Full multi-head attention with the same head width: every query head has its own K, V.
    Model mha = shape;
    mha.attention = AttentionKind::Standard;
    mha.kv_heads = static_cast<int>(in.n_heads);
    o.mha_bytes_per_token = kv_bytes_per_token(mha, in.kv_bytes);
    d.step("Same model with full multi-head attention", "m_{\\text{MHA}}",
           "2 \\cdot $h \\cdot $dh \\cdot $L \\cdot $k",
           {{"h", "n_h", in.n_heads},
            {"dh", "d_h", in.head_dim},
            {"L", "L", in.n_layers},
            {"k", "b_{kv}", in.kv_bytes, unit::bytes}},
           o.mha_bytes_per_token, unit::bytes_per_token);
    o.reduction_vs_mha = o.mha_bytes_per_token / o.bytes_per_token;
    d.step("Reduction against MHA", "r", "\\frac{$M}{$m}",
           {{"M", "m_{\\text{MHA}}", o.mha_bytes_per_token, unit::bytes_per_token},
            {"m", "m_{kv}", o.bytes_per_token, unit::bytes_per_token}},
           o.reduction_vs_mha, unit::times);
  }
  if (mla && in.n_kv_heads > 0)
    d.note("MLA",
           "n_kv_heads is not used: MLA caches one latent per token and layer, shared by "
           "every head.");
  return o;
}

// One decode step on `chips` chips holding the weights and cache sharded evenly (Pope et al.
// 2022 §2–3; Austin et al. 2025, How to Scale Your Model, "All about transformer inference"):
// memory time = (W_r + B·S·m_kv) / (chips·BW), compute time = 2·N_a·B / (chips·F), and the
// step costs the larger (perfect overlap, no communication). W_r is what the step reads: every
// weight of a dense model; for a mixture of experts the shared weights and the experts the
// batch touches (params_read_per_step), and N_a the active parameters.
Result<InferDecodeOut> infer_decode(const InferDecodeIn& in, Derivation& d) {
  Result<double> active = moe_active_params(in, in.params, d);
  if (!active.ok()) return active.error();
  const double na = active.value();
  const bool moe = is_moe(in);
  InferDecodeOut o{};
  // Achieved, not peak, rates (serve.engine's shares, docs/serving.md); 1 and 1: the ideal.
  const double F = in.peak_flops * in.compute_efficiency;
  const double BW = in.mem_bandwidth * in.bandwidth_efficiency;
  if (in.compute_efficiency < 1 || in.bandwidth_efficiency < 1) {
    d.step("Achieved matmul rate per chip", "F", "$e \\cdot $P",
           {{"e", "e_C", in.compute_efficiency, unit::fraction},
            {"P", "F_{\\text{peak}}", in.peak_flops, unit::flops}},
           F, unit::flops);
    d.step("Achieved memory bandwidth per chip", "BW", "$e \\cdot $P",
           {{"e", "e_{BW}", in.bandwidth_efficiency, unit::fraction},
            {"P", "BW_{\\text{peak}}", in.mem_bandwidth, unit::bytes_per_s}},
           BW, unit::bytes_per_s);
  }
  const double bw = in.chips * BW, f = in.chips * F;
  // Weight-only quantized weights stream at the share their dequantizing kernels reach
  // (dequantized_stream_share: gpt-fast's INT8 and INT4 on A100); the ideal (efficiency 1) and
  // FP8's W8A8 stream as BF16 does.
  const Dtype packed = in.weight_bytes < 0.75 ? Dtype::Int4 : Dtype::Int8;
  const double q = in.weight_only && in.weight_bytes < 2 && in.bandwidth_efficiency < 1
                       ? dequantized_stream_share(packed)
                       : 1;
  if (q < 1)
    d.note("Quantized weights", "At " + format_value(in.weight_bytes, unit::bytes) +
                                    " per weight (" + (packed == Dtype::Int4 ? "INT4" : "INT8") +
                                    ", weight-only) the weights stream at " +
                                    format_value(q, unit::fraction) +
                                    " of BF16's achieved bandwidth (gpt-fast on A100: 1,397, "
                                    "1,069 and 863 GB/s for BF16, INT8 and INT4).");
  const double wbw = bw * q;  // the weights' streaming rate
  const double w = in.params * in.weight_bytes;
  auto read_bytes = [&](double batch) {
    return params_read_per_step(in.params, na, in.experts, in.top_k, batch) * in.weight_bytes;
  };
  o.weights_read = read_bytes(in.batch);
  if (moe) {
    o.experts_touched = expected_experts_touched(in.experts, in.top_k, in.batch);
    d.step("Experts the batch touches per MoE layer (uniform routing)", "E_h",
           "$E \\cdot \\left(1 - \\left(1 - \\frac{$k}{$E}\\right)^{$b}\\right)",
           {{"E", "E", in.experts}, {"k", "k", in.top_k}, {"b", "B", in.batch}}, o.experts_touched,
           unit::none);
    d.step("Weights a step reads (shared + touched experts)", "W_r",
           "\\left($A + ($h - $k) \\cdot \\frac{$N - $A}{$E - $k}\\right) \\cdot $w",
           {{"A", "N_a", na, unit::params},
            {"h", "E_h", o.experts_touched},
            {"k", "k", in.top_k},
            {"N", "N", in.params, unit::params},
            {"E", "E", in.experts},
            {"w", "b_w", in.weight_bytes, unit::bytes}},
           o.weights_read, unit::bytes);
  } else {
    o.experts_touched = not_given;
  }
  o.weight_time = o.weights_read / wbw;
  if (moe)
    d.step("Weight read time", "t_W", "\\frac{$W}{$c \\cdot $q \\cdot $B}",
           {{"W", "W_r", o.weights_read, unit::bytes},
            {"c", "n_{\\text{chips}}", in.chips},
            {"q", "q_w", q},
            {"B", "BW", BW, unit::bytes_per_s}},
           o.weight_time, unit::seconds);
  else
    d.step("Weight read time", "t_W", "\\frac{$N \\cdot $w}{$c \\cdot $q \\cdot $B}",
           {{"N", "N", in.params, unit::params},
            {"w", "b_w", in.weight_bytes, unit::bytes},
            {"c", "n_{\\text{chips}}", in.chips},
            {"q", "q_w", q},
            {"B", "BW", BW, unit::bytes_per_s}},
           o.weight_time, unit::seconds);
  const double kv = in.batch * in.context * in.kv_bytes_per_token;
  o.kv_time = kv / bw;
  d.step("KV cache read time", "t_{KV}", "\\frac{$b \\cdot $S \\cdot $m}{$c \\cdot $B}",
         {{"b", "B", in.batch},
          {"S", "S", in.context, unit::tokens},
          {"m", "m_{kv}", in.kv_bytes_per_token, unit::bytes_per_token},
          {"c", "n_{\\text{chips}}", in.chips},
          {"B", "BW", BW, unit::bytes_per_s}},
         o.kv_time, unit::seconds);
  o.memory_time = o.weight_time + o.kv_time;
  o.compute_time = 2 * na * in.batch / f;
  d.step(moe ? "Compute time (2 FLOPs per active parameter per sequence)" : "Compute time", "t_C",
         "\\frac{2 \\cdot $N \\cdot $b}{$c \\cdot $F}",
         {{"N", moe ? "N_a" : "N", na, unit::params},
          {"b", "B", in.batch},
          {"c", "n_{\\text{chips}}", in.chips},
          {"F", "F", F, unit::flops}},
         o.compute_time, unit::seconds);
  o.step_time = std::max(o.memory_time, o.compute_time);
  d.step("Step time", "t_{\\text{step}}", "\\max($W + $K,\\ $C)",
         {{"W", "t_W", o.weight_time, unit::seconds},
          {"K", "t_{KV}", o.kv_time, unit::seconds},
          {"C", "t_C", o.compute_time, unit::seconds}},
         o.step_time, unit::seconds);
  o.bound = o.memory_time >= o.compute_time ? "memory" : "compute";
  o.tokens_per_second = in.batch / o.step_time;
  d.step("Tokens per second (one per sequence per step)", "\\text{tok/s}", "\\frac{$b}{$t}",
         {{"b", "B", in.batch}, {"t", "t_{\\text{step}}", o.step_time, unit::seconds}},
         o.tokens_per_second, unit::tokens_per_s);
  // Crossover: 2N·B/F = (W + B·S·m)/BW ⇒ B* = (W/BW) / (2N/F − S·m/BW). When the cache read
  // per sequence costs more than its FLOPs, more batch never makes the step compute-bound.
  const double per_seq_compute = 2 * na / f, per_seq_kv = in.context * in.kv_bytes_per_token / bw;
  if (per_seq_compute <= per_seq_kv) {
    o.crossover_batch = not_given;  // never: absent, not a batch of 0
  } else if (!moe) {
    o.crossover_batch = (w / wbw) / (per_seq_compute - per_seq_kv);
  } else {
    // MoE: the weight read grows with the batch (more experts touched) until every expert is
    // read; find the batch where compute catches up by bisection.
    auto memory_ahead = [&](double b) {
      return read_bytes(b) / wbw > b * (per_seq_compute - per_seq_kv);
    };
    double lo = 0, hi = 1;
    while (hi < 1e12 && memory_ahead(hi)) lo = hi, hi *= 2;
    for (int i = 0; i < 60; ++i) {
      const double mid = (lo + hi) / 2;
      (memory_ahead(mid) ? lo : hi) = mid;
    }
    o.crossover_batch = hi;
  }
  if (!std::isnan(o.crossover_batch) && !moe)
    d.step("Batch where compute catches up with memory", "B^*",
           "\\frac{$W}{\\frac{2 \\cdot $N}{$c \\cdot $F} - \\frac{$S \\cdot $m}{$c \\cdot $B}}",
           {{"W", "t_W", w / wbw, unit::seconds},
            {"N", "N", in.params, unit::params},
            {"c", "n_{\\text{chips}}", in.chips},
            {"F", "F", F, unit::flops},
            {"S", "S", in.context, unit::tokens},
            {"m", "m_{kv}", in.kv_bytes_per_token, unit::bytes_per_token},
            {"B", "BW", BW, unit::bytes_per_s}},
           o.crossover_batch, unit::none);
  else if (!std::isnan(o.crossover_batch))
    d.step("Batch where compute catches up with memory (the experts read grow with the batch)",
           "B^*", "2 N_a B^* / F = (W_r(B^*) + B^* S m_{kv}) / BW", {}, o.crossover_batch,
           unit::none);
  else
    d.note("Crossover",
           "At this context the cache read per sequence outweighs its FLOPs: no "
           "batch size makes decode compute-bound, so there is no crossover batch.");
  d.note("Bound", "The step is " + o.bound + "-bound.");
  o.memory_per_chip = (w + kv) / in.chips;
  d.step("Memory per chip (all weights + cache)", "M", "\\frac{$W + $K}{$c}",
         {{"W", "W", w, unit::bytes},
          {"K", "M_{kv}", kv, unit::bytes},
          {"c", "n_{\\text{chips}}", in.chips}},
         o.memory_per_chip, unit::bytes);
  return o;
}

void register_inference(Registry& r) {
  constexpr double kMaxParams = 1e15, kMaxPeak = 1e17, kMaxBw = 1e15, kMaxTokens = 1e8;
  {
    using In = InferLatencyIn;
    using Out = InferLatencyOut;
    r.add(with_sized_model_inputs<In>(
        declare<infer_latency>(
            {"infer.latency", "Inference latency: prefill and decode", "inference",
             "Time to process a prompt and generate tokens, each step bound by its FLOPs or by "
             "reading the weights and the KV cache, throughput, and the KV cache the requests "
             "hold.",
             "Pope et al. 2022 §2 (roofline option); Ainslie et al. 2023 (GQA)",
             "docs/inference.md#inferlatency"},
            {num("prompt_len", NAPKIN_FIELD(In, prompt_len), "Prompt length", unit::tokens)
                 .help("Tokens in the prompt")
                 .range(1, kMaxTokens)
                 .integer()
                 .required(),
             num("gen_len", NAPKIN_FIELD(In, gen_len), "Generated tokens", unit::tokens)
                 .help("Tokens to generate")
                 .range(1, kMaxTokens)
                 .integer()
                 .required(),
             num("batch", NAPKIN_FIELD(In, batch), "Batch (sequences)")
                 .help("Sequences served together")
                 .range(1, 1e6)
                 .integer(),
             peak_flops_input(NAPKIN_FIELD(In, peak_flops), "Peak FLOP/s"),
             hbm_bandwidth_input(NAPKIN_FIELD(In, mem_bandwidth), "Memory bandwidth", kMaxBw),
             compute_efficiency_input(NAPKIN_FIELD(In, compute_efficiency)),
             bandwidth_efficiency_input(NAPKIN_FIELD(In, bandwidth_efficiency)),
             num("weight_bytes", NAPKIN_FIELD(In, weight_bytes), "Bytes per weight", unit::bytes)
                 .help("2 for BF16 weights, 1 for FP8")
                 .positive(8),
             num("kv_bytes", NAPKIN_FIELD(In, kv_bytes), "Bytes per cached element", unit::bytes)
                 .help("2 for a BF16 cache")
                 .positive(8),
             choice("decode_model", NAPKIN_FIELD(In, decode_model), "Model", "roofline|weights")
                 .labels("Roofline (weights, KV cache and FLOPs)|Weights only (worked example)")
                 .help("roofline: prefill and decode steps take the longer of FLOPs (2N + "
                       "attention) and memory reads; weights: the worked example's 2N prefill and "
                       "N·2 bytes / BW per token"),
             gpu_memory_input(NAPKIN_FIELD(In, gpu_memory), "GPU memory (for the fit warning)")},
            {out("prefill_time", NAPKIN_FIELD(Out, prefill_time), "Prefill", unit::seconds)
                 .help("FLOPs at peak; roofline: or one read of the weights, if longer"),
             out("decode_time_per_token", NAPKIN_FIELD(Out, decode_time_per_token),
                 "Decode per token", unit::seconds)
                 .help("Reading the weights (and cache) once per token"),
             out("decode_time", NAPKIN_FIELD(Out, decode_time), "Decode, all tokens", unit::seconds)
                 .help("Per token × generated tokens"),
             out("total_time", NAPKIN_FIELD(Out, total_time), "Total latency", unit::seconds)
                 .help("Prefill + decode"),
             out("tokens_per_second", NAPKIN_FIELD(Out, tokens_per_second), "Throughput",
                 unit::tokens_per_s)
                 .help("Generated tokens per second for the batch"),
             out("kv_bytes_per_token", NAPKIN_FIELD(Out, kv_bytes_per_token), "KV cache per token",
                 unit::bytes_per_token)
                 .help("Cache bytes one token adds"),
             out("kv_bytes_per_sequence", NAPKIN_FIELD(Out, kv_bytes_per_sequence),
                 "KV cache per sequence", unit::bytes)
                 .help("Per token × (prompt + generated)"),
             out("kv_bytes_total", NAPKIN_FIELD(Out, kv_bytes_total), "KV cache, batch",
                 unit::bytes)
                 .help("Per sequence × batch"),
             out("prefill_flops", NAPKIN_FIELD(Out, prefill_flops), "Prefill FLOPs", unit::flop)
                 .help("(2N + attention) × prompt tokens × batch"),
             out("weights_memory", NAPKIN_FIELD(Out, weights_memory), "Weights", unit::bytes)
                 .help("Parameters × bytes per weight"),
             out("memory_needed", NAPKIN_FIELD(Out, memory_needed), "Weights + cache", unit::bytes)
                 .help("Weights + KV cache of the batch"),
             out("decode_bound", NAPKIN_FIELD(Out, decode_bound), "Decode bound")
                 .help("Whether decode is memory- or compute-bound"),
             out("active_params", NAPKIN_FIELD(Out, active_params), "Active parameters",
                 unit::params)
                 .help("Parameters one token computes with (all of them for a dense model)")}),
        0));
  }
  {
    using In = InferKvIn;
    using Out = InferKvOut;
    r.add(declare<infer_kv>(
        {"infer.kv", "KV cache size (MHA, GQA, MQA, MLA)", "inference",
         "Bytes of keys and values cached per token, per sequence and per batch, for multi-head, "
         "grouped-query, multi-query and multi-head latent attention.",
         "DeepSeek-AI 2024 (DeepSeek-V2), Table 1; Ainslie et al. 2023 (GQA); Shazeer 2019 (MQA)",
         "docs/inference.md#inferkv"},
        {num("n_layers", NAPKIN_FIELD(In, n_layers), "Layers L")
             .help("Transformer blocks; each caches its own keys and values")
             .range(1, 1e4)
             .integer()
             .required(),
         num("n_kv_heads", NAPKIN_FIELD(In, n_kv_heads), "KV heads")
             .range(0, 1e4)
             .integer()
             .follows("n_heads")
             .help("= heads for MHA, groups for GQA, 1 for MQA; unused with MLA; when not given, "
                   "the query heads given (multi-head)"),
         num("head_dim", NAPKIN_FIELD(In, head_dim), "Head dimension")
             .help("Size of one attention head")
             .range(1, 1e5)
             .integer(),
         num("kv_bytes", NAPKIN_FIELD(In, kv_bytes), "Bytes per cached element", unit::bytes)
             .help("2 for a BF16 cache, 1 for FP8")
             .positive(8),
         num("seq_len", NAPKIN_FIELD(In, seq_len), "Sequence length", unit::tokens)
             .help("Tokens held in the cache per sequence (prompt + generated)")
             .range(1, 1e8)
             .integer(),
         num("batch", NAPKIN_FIELD(In, batch), "Batch (sequences)")
             .help("Sequences cached at once")
             .range(1, 1e7)
             .integer(),
         num("latent_dim", NAPKIN_FIELD(In, latent_dim), "MLA latent width (0 = not MLA)")
             .range(0, 1e6)
             .integer()
             .help("DeepSeek-V2/V3: 512"),
         num("rope_dim", NAPKIN_FIELD(In, rope_dim), "MLA RoPE key width")
             .range(0, 1e5)
             .integer()
             .help("DeepSeek-V2/V3: 64"),
         num("n_heads", NAPKIN_FIELD(In, n_heads), "Query heads (0 = no MHA comparison)")
             .help("Query heads, to compare with a full multi-head cache")
             .range(0, 1e5)
             .integer()},
        {out("bytes_per_token", NAPKIN_FIELD(Out, bytes_per_token), "Per token",
             unit::bytes_per_token)
             .help("Cache bytes one token adds over all layers"),
         out("bytes_per_sequence", NAPKIN_FIELD(Out, bytes_per_sequence), "Per sequence",
             unit::bytes)
             .help("Per token × sequence length"),
         out("bytes_total", NAPKIN_FIELD(Out, bytes_total), "Batch", unit::bytes)
             .help("Per sequence × batch"),
         out("elements_per_token_per_layer", NAPKIN_FIELD(Out, elements_per_token_per_layer),
             "Elements per token per layer")
             .help("Numbers cached per token in one layer"),
         out("mha_bytes_per_token", NAPKIN_FIELD(Out, mha_bytes_per_token),
             "MHA per token (same heads)", unit::bytes_per_token)
             .optional()
             .help("The cache per token if every query head had its own keys and values"),
         out("reduction_vs_mha", NAPKIN_FIELD(Out, reduction_vs_mha), "Reduction vs MHA",
             unit::times)
             .optional()
             .help("How many times smaller than a full multi-head cache"),
         out("attention", NAPKIN_FIELD(Out, attention), "Attention type")
             .help("Multi-head, grouped-query, multi-query or multi-head latent attention")}));
  }
  {
    using In = InferDecodeIn;
    using Out = InferDecodeOut;
    r.add(declare<infer_decode>(
        {"infer.decode", "Decode step roofline", "inference",
         "One decode step: time to read the weights and the KV cache versus the batch's FLOPs, "
         "tokens per second, and the batch where decode turns compute-bound.",
         "Pope et al. 2022 §2–3; Austin et al. 2025, How to Scale Your Model (inference chapter)",
         "docs/inference.md#inferdecode"},
        [] {
          std::vector<InputRow> ins = {
              num("params", NAPKIN_FIELD(In, params), "Parameters", unit::params)
                  .help("Model size N: every weight, all experts included (what memory holds)")
                  .positive(kMaxParams)
                  .required(),
              num("weight_bytes", NAPKIN_FIELD(In, weight_bytes), "Bytes per weight", unit::bytes)
                  .help("2 for BF16 weights, 1 for FP8 or INT8, 0.5 for INT4")
                  .positive(8),
              flag("weight_only", NAPKIN_FIELD(In, weight_only), "Weight-only quantization")
                  .help("Below 2 bytes per weight: INT8 or INT4 weights that the kernel "
                        "dequantizes, streaming at gpt-fast's measured 77 % and 62 % of BF16's "
                        "bandwidth; off for FP8 (W8A8), which streams as BF16 does"),
              num("batch", NAPKIN_FIELD(In, batch), "Batch (sequences)")
                  .help("Sequences decoded together")
                  .range(1, 1e6)
                  .integer(),
              num("context", NAPKIN_FIELD(In, context), "Context per sequence", unit::tokens)
                  .help("Tokens in each sequence's KV cache")
                  .range(0, kMaxTokens)
                  .integer(),
              num("kv_bytes_per_token", NAPKIN_FIELD(In, kv_bytes_per_token), "KV cache per token",
                  unit::bytes_per_token)
                  .range(0, 1e9)
                  .help("from infer.kv; LLaMA-2-70B: 327,680 B"),
              num("chips", NAPKIN_FIELD(In, chips), "Chips (weights and cache split evenly)")
                  .help("Accelerators the weights and cache are split over")
                  .range(1, 1e5)
                  .integer(),
              num("mem_bandwidth", NAPKIN_FIELD(In, mem_bandwidth), "Memory bandwidth per chip",
                  unit::bytes_per_s)
                  .help("HBM bandwidth of one chip")
                  .positive(kMaxBw),
              num("peak_flops", NAPKIN_FIELD(In, peak_flops), "Peak FLOP/s per chip", unit::flops)
                  .help("Peak FLOP/s of one chip")
                  .positive(kMaxPeak),
              compute_efficiency_input(NAPKIN_FIELD(In, compute_efficiency)),
              bandwidth_efficiency_input(NAPKIN_FIELD(In, bandwidth_efficiency))};
          for (auto& x : moe_count_inputs<In>()) ins.push_back(std::move(x));
          return ins;
        }(),
        {out("step_time", NAPKIN_FIELD(Out, step_time), "Step time", unit::seconds)
             .help("The larger of memory and compute time: one token for every sequence"),
         out("tokens_per_second", NAPKIN_FIELD(Out, tokens_per_second), "Throughput",
             unit::tokens_per_s)
             .help("Batch ÷ step time"),
         out("bound", NAPKIN_FIELD(Out, bound), "Bound")
             .help("Whether memory or compute sets the step time"),
         out("weight_time", NAPKIN_FIELD(Out, weight_time), "Weight read", unit::seconds)
             .help("Weights ÷ (chips × bandwidth)"),
         out("kv_time", NAPKIN_FIELD(Out, kv_time), "KV cache read", unit::seconds)
             .help("Cache of the batch ÷ (chips × bandwidth)"),
         out("compute_time", NAPKIN_FIELD(Out, compute_time), "Compute", unit::seconds)
             .help("2N × batch ÷ (chips × peak)"),
         out("memory_time", NAPKIN_FIELD(Out, memory_time), "Memory (weights + cache)",
             unit::seconds)
             .help("Weight read + cache read"),
         out("crossover_batch", NAPKIN_FIELD(Out, crossover_batch), "Compute-bound from batch")
             .optional()
             .help("Batch from which compute outweighs memory (absent: never at this context)"),
         out("memory_per_chip", NAPKIN_FIELD(Out, memory_per_chip), "Memory per chip", unit::bytes)
             .help("Weights + cache on one chip"),
         out("weights_read", NAPKIN_FIELD(Out, weights_read), "Weights read per step", unit::bytes)
             .help("Every weight of a dense model; the shared weights and the experts the batch "
                   "touches for a mixture of experts"),
         out("experts_touched", NAPKIN_FIELD(Out, experts_touched), "Experts touched per step")
             .help("Distinct experts per MoE layer the batch reads")
             .optional()}));
  }
}

}  // namespace napkin
