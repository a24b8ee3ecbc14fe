#include "training/training.hpp"

#include <cmath>

#include "base/units.hpp"
#include "root/areas.hpp"
#include "scenario/accelerator_inputs.hpp"
#include "scenario/gpu_figures.hpp"

namespace napkin {

// Hoffmann et al. 2022 ("Chinchilla"), Table 3 and §3: compute-optimal D ≈ 20·N, and
// C ≈ 6·N·D (Kaplan et al. 2020, §2.1). Inverting C = 6·N·(r·N) gives N = √(C / 6r).
Result<ChinchillaOut> train_chinchilla(const ChinchillaIn& in, Derivation& d) {
  ChinchillaOut o{};
  o.tokens_per_param_actual = o.optimal_params_for_budget = o.optimal_tokens_for_budget = not_given;
  const double n = in.params, r = in.tokens_per_param;
  o.optimal_tokens = r * n;
  d.step("Compute-optimal tokens", "D_{\\text{opt}}", "$r \\cdot $N",
         {{"r", "r", r}, {"N", "N", n, unit::params}}, o.optimal_tokens, unit::tokens);
  o.compute_flops = 6 * n * o.optimal_tokens;
  d.step("Training compute at the optimum", "C", "6 \\cdot $N \\cdot $D",
         {{"N", "N", n, unit::params}, {"D", "D_{\\text{opt}}", o.optimal_tokens, unit::tokens}},
         o.compute_flops, unit::flop);
  if (in.tokens > 0) {
    o.tokens_per_param_actual = in.tokens / n;
    d.step("Tokens per parameter actually trained", "D/N", "\\frac{$D}{$N}",
           {{"D", "D", in.tokens, unit::tokens}, {"N", "N", n, unit::params}},
           o.tokens_per_param_actual, unit::none);
    if (o.tokens_per_param_actual < r)
      d.note("Verdict",
             "Fewer tokens per parameter than the compute-optimal ratio: undertrained "
             "for its size (GPT-3: 300B tokens for 175B parameters, 1.7 per parameter).");
    else
      d.note("Verdict",
             "At or beyond the compute-optimal ratio: more tokens than Chinchilla "
             "would spend, which buys a smaller model that is cheaper to serve.");
  }
  if (in.compute_flops > 0) {
    o.optimal_params_for_budget = std::sqrt(in.compute_flops / (6 * r));
    d.step("Compute-optimal size for the budget", "N_{\\text{opt}}",
           "\\sqrt{\\frac{$C}{6 \\cdot $r}}",
           {{"C", "C", in.compute_flops, unit::flop}, {"r", "r", r}}, o.optimal_params_for_budget,
           unit::params);
    o.optimal_tokens_for_budget = r * o.optimal_params_for_budget;
    d.step("Tokens for that size", "D_{\\text{opt}}", "$r \\cdot $N",
           {{"r", "r", r}, {"N", "N_{\\text{opt}}", o.optimal_params_for_budget, unit::params}},
           o.optimal_tokens_for_budget, unit::tokens);
  }
  return o;
}

// Kaplan et al. 2020 §2.1: training costs ≈ 6 FLOPs per parameter per token (2 forward,
// 4 backward); full activation recomputation adds one forward pass, 8 in all
// (Narayanan et al. 2021, eq. 3 and its derivation).
Result<TrainTimeOut> train_time(const TrainTimeIn& in, Derivation& d) {
  TrainTimeOut o{};
  const double k = in.flops_per_param_token;
  o.total_flops = k * in.params * in.tokens;
  d.step("Total training compute", "C", "$k \\cdot $N \\cdot $D",
         {{"k", "k", k}, {"N", "N", in.params, unit::params}, {"D", "D", in.tokens, unit::tokens}},
         o.total_flops, unit::flop);
  o.cluster_flops = in.gpus * in.peak_flops * in.mfu;
  d.step("Sustained cluster throughput", "R", "$G \\cdot $P \\cdot $u",
         {{"G", "G", in.gpus},
          {"P", "P_{\\text{peak}}", in.peak_flops, unit::flops},
          {"u", "\\text{MFU}", in.mfu, unit::fraction}},
         o.cluster_flops, unit::flops);
  o.seconds = o.total_flops / o.cluster_flops;
  d.step("Wall-clock time", "T", "\\frac{$C}{$R}",
         {{"C", "C", o.total_flops, unit::flop}, {"R", "R", o.cluster_flops, unit::flops}},
         o.seconds, unit::seconds);
  o.hours = o.seconds / 3600;
  o.days = o.hours / 24;
  d.step("In days", "T_{\\text{days}}", "\\frac{$T}{86400}", {{"T", "T", o.seconds}}, o.days,
         unit::none);
  o.gpu_hours = o.hours * in.gpus;
  d.step("GPU-hours", "H", "$T \\cdot $G", {{"T", "T_{\\text{h}}", o.hours}, {"G", "G", in.gpus}},
         o.gpu_hours, unit::gpu_hours);
  o.cost = in.price_per_gpu_hour > 0 ? o.gpu_hours * in.price_per_gpu_hour : not_given;
  if (in.price_per_gpu_hour > 0)
    d.step("Cost", "\\$", "$H \\cdot $p",
           {{"H", "H", o.gpu_hours}, {"p", "p", in.price_per_gpu_hour, unit::dollars}}, o.cost,
           unit::dollars);
  // Energy as published training footprints count it (Touvron et al. 2023, Llama 2, Table 2:
  // GPU-hours × each GPU's peak power; Luccioni et al. 2022, BLOOM, §4: 1,082,990 GPU-hours ×
  // 400 W = 433 MWh), then the facility's overhead as its power usage effectiveness (PUE).
  o.gpu_energy = o.facility_energy = not_given;
  if (in.gpu_power > 0) {
    o.gpu_energy = o.gpu_hours * 3600 * in.gpu_power;
    d.step("Energy drawn by the GPUs", "E_{\\text{GPU}}", "$H \\cdot 3600 \\cdot $P",
           {{"H", "H", o.gpu_hours, unit::gpu_hours},
            {"P", "P_{\\text{GPU}}", in.gpu_power, unit::watts}},
           o.gpu_energy, unit::joules);
    o.facility_energy = o.gpu_energy * in.pue;
    d.step("Energy at the facility", "E", "$E \\cdot $u",
           {{"E", "E_{\\text{GPU}}", o.gpu_energy, unit::joules}, {"u", "\\text{PUE}", in.pue}},
           o.facility_energy, unit::joules);
  }
  if (in.mfu > 0.7)
    d.warn("MFU above 70% is beyond what published large runs report (PaLM: 46.2%).");
  return o;
}

// Chowdhery et al. 2022 (PaLM), Appendix B: model FLOPs per token = 6N + 12·L·H·Q·T, where
// H·Q is the attention width and T the sequence length. Hardware FLOPs add what is
// recomputed: full recomputation repeats the forward pass (2N + 4·L·H·Q·T); selective
// recomputation (Korthikanti et al. 2022, §5) repeats only the attention score/value
// products (4·L·H·Q·T).
Result<TrainMfuOut> train_mfu(const TrainMfuIn& in, Derivation& d) {
  TrainMfuOut o{};
  const double a = in.attention_dim > 0 ? in.attention_dim : in.d_model;
  const double attn = 12 * in.n_layers * a * in.seq_len;
  o.flops_per_token = 6 * in.params + attn;
  d.step("Model FLOPs per token", "F", "6 \\cdot $N + 12 \\cdot $L \\cdot $a \\cdot $s",
         {{"N", "N", in.params, unit::params},
          {"L", "L", in.n_layers},
          {"a", "d_{\\text{attn}}", a},
          {"s", "s", in.seq_len}},
         o.flops_per_token, unit::flop_per_token);
  double extra = 0;
  if (in.recompute == "full") extra = 2 * in.params + attn / 3;
  if (in.recompute == "selective") extra = attn / 3;
  o.hardware_flops_per_token = o.flops_per_token + extra;
  if (extra > 0)
    d.step("Hardware FLOPs per token (with recomputation)", "F_{\\text{hw}}", "$F + $x",
           {{"F", "F", o.flops_per_token, unit::flop_per_token},
            {"x", "F_{\\text{recompute}}", extra, unit::flop_per_token}},
           o.hardware_flops_per_token, unit::flop_per_token);
  o.achieved_flops = in.tokens_per_second * o.flops_per_token;
  d.step("Achieved model FLOP/s", "R", "$t \\cdot $F",
         {{"t", "\\text{tok/s}", in.tokens_per_second, unit::tokens_per_s},
          {"F", "F", o.flops_per_token, unit::flop_per_token}},
         o.achieved_flops, unit::flops);
  const double peak = in.gpus * in.peak_flops;
  o.mfu = o.achieved_flops / peak;
  d.step("Model FLOPs utilization", "\\text{MFU}", "\\frac{$R}{$G \\cdot $P}",
         {{"R", "R", o.achieved_flops, unit::flops},
          {"G", "G", in.gpus},
          {"P", "P_{\\text{peak}}", in.peak_flops, unit::flops}},
         o.mfu, unit::fraction);
  o.hfu = in.tokens_per_second * o.hardware_flops_per_token / peak;
  d.step("Hardware FLOPs utilization", "\\text{HFU}", "\\frac{$t \\cdot $F}{$G \\cdot $P}",
         {{"t", "\\text{tok/s}", in.tokens_per_second, unit::tokens_per_s},
          {"F", "F_{\\text{hw}}", o.hardware_flops_per_token, unit::flop_per_token},
          {"G", "G", in.gpus},
          {"P", "P_{\\text{peak}}", in.peak_flops, unit::flops}},
         o.hfu, unit::fraction);
  if (o.hfu > 1)
    return Error::inconsistent("tokens_per_second", in.tokens_per_second,
                               "implies more than 100% of peak FLOP/s; lower the throughput or "
                               "raise gpus / peak_flops");
  return o;
}

// Parameter count of a decoder-only transformer, one labelled term per line, every value from
// the one count of core/scenario/model.cpp (exact to the released checkpoints, pinned in
// tests/scenario_test.cpp). Attention (Vaswani et al. 2017, with GQA from Ainslie et al. 2023):
// Q and O are d×(h·dh), K and V d×(h_kv·dh); MLA (DeepSeek-V2 §2.1.2) low-rank instead. FFN:
// 2·d·d_ff (GELU MLP) or 3·d·d_ff (SwiGLU, Shazeer 2020), per expert in an MoE layer (Fedus et
// al. 2022). Embeddings: V·d, doubled when input and output embeddings are untied.
Result<ModelParamsOut> model_params(const ModelParamsIn& in, Derivation& d) {
  ModelInputs shape = in;
  if (!in.attention) shape.head_dim = 1, shape.kv_heads = 0;  // no head shapes to check
  Result<Model> built = to_model(shape);
  if (!built.ok()) return built.error();
  Model m = built.value();
  if (!in.attention) m.heads = m.kv_heads = 0;  // FFN-only blocks
  if (!in.norms) m.norms_per_layer = 0;
  const ModelParams p = model_params(m);
  ModelParamsOut o{};
  const double L = m.layers, dm = m.d_model;
  o.d_ff = m.d_ff;
  o.params = p.total;
  o.active_params = p.active;
  o.embedding_params = p.embedding;
  o.attention_params = p.attention_per_layer;
  o.ffn_params = p.ffn_total / L;
  o.ffn_total_params = p.ffn_total;
  o.ffn_active_params = p.ffn_active;
  o.norm_params = p.norms;
  o.non_embedding_params = p.total - p.embedding;
  o.per_layer_params = o.non_embedding_params / L;
  if (!d.recording()) return o;

  const bool mla = m.attention == AttentionKind::Mla;
  const bool bias = m.biases || m.qkv_bias;
  if (m.heads == 0)
    d.note("No attention", "FFN-only blocks: no attention projections are counted.");
  else if (mla)
    d.step("Attention weights per block (multi-head latent)", "P_{\\text{attn}}",
           "$d \\cdot $q + $q \\cdot $h \\cdot ($dh + $r) + $d \\cdot ($c + $r) + $c \\cdot $h "
           "\\cdot ($dh + $v) + $h \\cdot $v \\cdot $d + \\text{norms}",
           {{"d", "d", dm},
            {"q", "d_c'", m.q_lora_rank},
            {"h", "h", static_cast<double>(m.heads)},
            {"dh", "d_h", m.head_dim},
            {"r", "d_h^R", m.rope_dim},
            {"c", "d_c", m.kv_lora_rank},
            {"v", "d_v", m.v_head_dim > 0 ? m.v_head_dim : m.head_dim}},
           p.attention_per_layer, unit::params);
  else
    d.step("Attention weights per block", "P_{\\text{attn}}",
           bias ? "2 \\cdot $d \\cdot $h \\cdot $dh + 2 \\cdot $d \\cdot $kv \\cdot $dh + "
                  "\\text{biases}"
           : m.relative_positions
               ? "2 \\cdot $d \\cdot $h \\cdot $dh + 2 \\cdot $d \\cdot $kv \\cdot $dh + $d^2"
               : "2 \\cdot $d \\cdot $h \\cdot $dh + 2 \\cdot $d \\cdot $kv \\cdot $dh",
           {{"d", "d", dm},
            {"h", "h", static_cast<double>(m.heads)},
            {"dh", "d_h", m.head_dim},
            {"kv", "h_{kv}", static_cast<double>(m.kv_heads)}},
           p.attention_per_layer, unit::params);
  const bool gated = m.ffn == Ffn::Gated;
  const char* ffn_formula =
      gated ? (m.biases ? "3 \\cdot $d \\cdot $f + 2 \\cdot $f + $d" : "3 \\cdot $d \\cdot $f")
            : (m.biases ? "2 \\cdot $d \\cdot $f + $f + $d" : "2 \\cdot $d \\cdot $f");
  const double dense_layers = L - p.moe_layers;
  if (dense_layers > 0)
    d.step("Feed-forward weights per dense block", "P_{\\text{ffn}}", ffn_formula,
           {{"d", "d", dm}, {"f", "d_{ff}", m.d_ff}}, p.dense_ffn_per_layer, unit::params);
  if (p.moe_layers > 0) {
    d.step("One expert's weights per MoE layer", "P_{\\text{expert}}", ffn_formula,
           {{"d", "d", dm},
            {"f", "d_{ff}^{\\text{expert}}", m.expert_d_ff > 0 ? m.expert_d_ff : m.d_ff}},
           p.expert, unit::params);
    d.step("Router per MoE layer (one logit per expert)", "P_{\\text{router}}",
           mla ? "$E \\cdot $d + $E" : "$E \\cdot $d",
           {{"E", "E", static_cast<double>(m.experts)}, {"d", "d", dm}}, p.router, unit::params);
    d.step("Feed-forward weights, all blocks and experts", "P_{\\text{ffn}}^{\\text{total}}",
           "$a \\cdot $F + $b \\cdot (($E + $s) \\cdot $X + $R)",
           {{"a", "L_{\\text{dense}}", dense_layers},
            {"F", "P_{\\text{ffn}}", p.dense_ffn_per_layer, unit::params},
            {"b", "L_{\\text{MoE}}", static_cast<double>(p.moe_layers)},
            {"E", "E", static_cast<double>(m.experts)},
            {"s", "E_{\\text{shared}}", static_cast<double>(m.shared_experts)},
            {"X", "P_{\\text{expert}}", p.expert, unit::params},
            {"R", "P_{\\text{router}}", p.router, unit::params}},
           p.ffn_total, unit::params);
    d.step("Feed-forward weights one token uses", "P_{\\text{ffn}}^{\\text{active}}",
           "$a \\cdot $F + $b \\cdot (($k + $s) \\cdot $X + $R)",
           {{"a", "L_{\\text{dense}}", dense_layers},
            {"F", "P_{\\text{ffn}}", p.dense_ffn_per_layer, unit::params},
            {"b", "L_{\\text{MoE}}", static_cast<double>(p.moe_layers)},
            {"k", "k", static_cast<double>(m.top_k)},
            {"s", "E_{\\text{shared}}", static_cast<double>(m.shared_experts)},
            {"X", "P_{\\text{expert}}", p.expert, unit::params},
            {"R", "P_{\\text{router}}", p.router, unit::params}},
           p.ffn_active, unit::params);
  } else {
    d.step("Feed-forward weights, all blocks", "P_{\\text{ffn}}^{\\text{total}}", "$L \\cdot $F",
           {{"L", "L", L}, {"F", "P_{\\text{ffn}}", p.dense_ffn_per_layer, unit::params}},
           p.ffn_total, unit::params);
  }
  d.step("Attention weights, all blocks", "P_{\\text{attn}}^{\\text{total}}", "$L \\cdot $A",
         {{"L", "L", L}, {"A", "P_{\\text{attn}}", p.attention_per_layer, unit::params}},
         p.attention, unit::params);
  if (m.norms_per_layer > 0)
    d.step("Norms (each block's and the final one)", "P_{\\text{norm}}",
           m.norm_bias ? "2 \\cdot ($L \\cdot $n + 1) \\cdot $d" : "($L \\cdot $n + 1) \\cdot $d",
           {{"L", "L", L},
            {"n", "n_{\\text{norm}}", static_cast<double>(m.norms_per_layer)},
            {"d", "d", dm}},
           p.norms, unit::params);
  d.step("Embeddings", "P_{\\text{emb}}",
         m.tied_embeddings ? "$V \\cdot $d + $T \\cdot $d" : "2 \\cdot $V \\cdot $d + $T \\cdot $d",
         {{"V", "V", m.vocab}, {"d", "d", dm}, {"T", "T_{\\text{pos}}", m.positions}}, p.embedding,
         unit::params);
  d.step("Total parameters", "N", "$A + $F + $n + $E",
         {{"A", "P_{\\text{attn}}^{\\text{total}}", p.attention, unit::params},
          {"F", "P_{\\text{ffn}}^{\\text{total}}", p.ffn_total, unit::params},
          {"n", "P_{\\text{norm}}", p.norms, unit::params},
          {"E", "P_{\\text{emb}}", p.embedding, unit::params}},
         p.total, unit::params);
  if (p.moe_layers > 0)
    d.step("Active parameters (what one token computes with)", "N_{\\text{active}}",
           "$A + $F + $n + $E",
           {{"A", "P_{\\text{attn}}^{\\text{total}}", p.attention, unit::params},
            {"F", "P_{\\text{ffn}}^{\\text{active}}", p.ffn_active, unit::params},
            {"n", "P_{\\text{norm}}", p.norms, unit::params},
            {"E", "P_{\\text{emb}}", p.embedding, unit::params}},
           p.active, unit::params);
  else
    d.note("Active parameters",
           "A dense model: every token uses every weight, so the active "
           "count is the total.");
  return o;
}

// Forward FLOPs per token from the one function (core/scenario/model.cpp; Kaplan et al. 2020
// Table 1): 2 FLOPs per active non-embedding weight plus the output layer's matmul, and, when
// counted, the attention score and value products at the sequence length, 4·s·(h·d_h) per
// layer, halved for causal attention and bounded by a sliding window. PaLM Appendix B counts
// 12·L·H·Q·T for forward + backward without the causal halving. Backward ≈ 2× forward, so a
// training step per token is 3× forward; 6N counts the active non-embedding weights.
Result<ModelFlopsOut> model_flops(const ModelFlopsIn& in, Derivation& d) {
  Result<Model> built = to_model(in);
  if (!built.ok()) return built.error();
  const Model& m = built.value();
  const ModelParams p = model_params(m);
  const double ctx = in.include_attention ? in.seq_len : 0;
  ModelFlopsOut o{};
  o.forward_flops_per_token = forward_flops_per_token(m, ctx, in.causal);
  o.attention_flops_per_token = attention_flops_per_token(m, ctx, in.causal);
  o.fwd_flops_per_layer = (o.forward_flops_per_token - 2 * p.head) / m.layers;
  o.bwd_flops = 2 * o.forward_flops_per_token;
  o.step_flops = 3 * o.forward_flops_per_token;
  o.active_params = p.active;
  o.params_used = in.params > 0 ? in.params : p.non_embedding_active;
  o.ratio_to_6n = o.step_flops / (6 * o.params_used);
  if (!d.recording()) return o;

  const double weights = o.forward_flops_per_token - o.attention_flops_per_token;
  if (m.experts > 0)
    d.note("Mixture of experts",
           "Each token runs through its " + std::to_string(m.top_k) + " routed experts" +
               (m.shared_experts > 0 ? " and the shared ones" : "") + ", not all " +
               std::to_string(m.experts) + ": only the active weights cost FLOPs.");
  const double head = p.non_embedding_active - p.attention - p.ffn_active - p.norms;
  d.step(
      "Active weights a token multiplies, less the input embedding: attention, the active "
      "feed-forward, norms and the output head",
      "N_{\\text{active}}", "$A + $F + $n + $H",
      {{"A", "P_{\\text{attn}}", p.attention, unit::params},
       {"F", "P_{\\text{ffn}}^{\\text{active}}", p.ffn_active, unit::params},
       {"n", "P_{\\text{norm}}", p.norms, unit::params},
       {"H", "P_{\\text{head}}", head, unit::params}},
      p.non_embedding_active, unit::params);
  d.step("Weight FLOPs per token (2 per weight, output layer included)", "F_{\\text{weights}}",
         m.tied_embeddings ? "2 \\cdot $N + 2 \\cdot $V \\cdot $d" : "2 \\cdot $N",
         {{"N", "N_{\\text{active}}", p.non_embedding_active, unit::params},
          {"V", "V", m.vocab},
          {"d", "d", m.d_model}},
         weights, unit::flop_per_token);
  if (ctx > 0) {
    const double vd =
        m.attention == AttentionKind::Mla && m.v_head_dim > 0 ? m.v_head_dim : m.head_dim;
    const double qk = m.head_dim + (m.attention == AttentionKind::Mla ? m.rope_dim : 0);
    d.step(in.causal ? "Attention scores and values (causal: half the sequence on average)"
                     : "Attention scores and values (every token attends to the whole sequence)",
           "F_{\\text{attn}}",
           in.causal ? "2 \\cdot \\frac{$s}{2} \\cdot $h \\cdot ($q + $v) \\cdot $L"
                     : "2 \\cdot $s \\cdot $h \\cdot ($q + $v) \\cdot $L",
           {{"s", "s", ctx, unit::tokens},
            {"h", "h", static_cast<double>(m.heads)},
            {"q", "d_{qk}", qk},
            {"v", "d_v", vd},
            {"L", "L", static_cast<double>(m.layers)}},
           o.attention_flops_per_token, unit::flop_per_token);
    if (m.window > 0)
      d.note("Sliding window", "Windowed layers attend to at most " +
                                   format_value(m.window, unit::tokens) +
                                   ", so the attention term is below the formula's.");
  }
  d.step("Forward FLOPs per token", "F_{\\text{fwd}}", "$W + $A",
         {{"W", "F_{\\text{weights}}", weights, unit::flop_per_token},
          {"A", "F_{\\text{attn}}", o.attention_flops_per_token, unit::flop_per_token}},
         o.forward_flops_per_token, unit::flop_per_token);
  d.step("Forward FLOPs of an average block", "F_{\\text{layer}}",
         "\\frac{$F - 2 \\cdot $V \\cdot $d}{$L}",
         {{"F", "F_{\\text{fwd}}", o.forward_flops_per_token, unit::flop_per_token},
          {"V", "V", m.vocab},
          {"d", "d", m.d_model},
          {"L", "L", static_cast<double>(m.layers)}},
         o.fwd_flops_per_layer, unit::flop);
  d.step("Backward FLOPs per token", "F_{\\text{bwd}}", "2 \\cdot $F",
         {{"F", "F_{\\text{fwd}}", o.forward_flops_per_token, unit::flop}}, o.bwd_flops,
         unit::flop);
  d.step("Training FLOPs per token", "F_{\\text{step}}", "$F + $B",
         {{"F", "F_{\\text{fwd}}", o.forward_flops_per_token, unit::flop},
          {"B", "F_{\\text{bwd}}", o.bwd_flops, unit::flop}},
         o.step_flops, unit::flop);
  d.step(in.params > 0 ? "Against the 6N rule (N as given)"
                       : "Against the 6N rule (N: the active weights, less the input embedding)",
         "\\rho", "\\frac{$S}{6 \\cdot $N}",
         {{"S", "F_{\\text{step}}", o.step_flops, unit::flop},
          {"N", "N", o.params_used, unit::params}},
         o.ratio_to_6n, unit::none);
  return o;
}

// The study notes' MoE count: total = shared + E·expert, active = shared + k·expert; Chinchilla
// tokens are counted on active parameters (compute per token follows the active set).
Result<MoeParamsOut> moe_params(const MoeParamsIn& in, Derivation& d) {
  if (in.top_k > in.num_experts)
    return Error::inconsistent(
        "top_k", in.top_k,
        "must be at most num_experts (" + format_value(in.num_experts, "") + ")");
  MoeParamsOut o{};
  o.total_params = in.shared_params + in.num_experts * in.expert_params;
  d.step("Total parameters (all experts)", "N_{\\text{total}}", "$S + $E \\cdot $X",
         {{"S", "N_{\\text{shared}}", in.shared_params, unit::params},
          {"E", "E", in.num_experts},
          {"X", "N_{\\text{expert}}", in.expert_params, unit::params}},
         o.total_params, unit::params);
  o.active_params = in.shared_params + in.top_k * in.expert_params;
  d.step("Active parameters per token", "N_{\\text{active}}", "$S + $k \\cdot $X",
         {{"S", "N_{\\text{shared}}", in.shared_params, unit::params},
          {"k", "k", in.top_k},
          {"X", "N_{\\text{expert}}", in.expert_params, unit::params}},
         o.active_params, unit::params);
  o.active_fraction = o.active_params / o.total_params;
  d.step("Active fraction", "f", "\\frac{$A}{$T}",
         {{"A", "N_{\\text{active}}", o.active_params, unit::params},
          {"T", "N_{\\text{total}}", o.total_params, unit::params}},
         o.active_fraction, unit::fraction);
  o.optimal_tokens = in.tokens_per_param * o.active_params;
  d.step(
      "Compute-optimal tokens (on active parameters)", "D_{\\text{opt}}", "$r \\cdot $A",
      {{"r", "r", in.tokens_per_param}, {"A", "N_{\\text{active}}", o.active_params, unit::params}},
      o.optimal_tokens, unit::tokens);
  return o;
}

void register_training(Registry& r) {
  constexpr double kMaxParams = 1e15, kMaxTokens = 1e17, kMaxFlops = 1e32, kMaxGpus = 1e7;
  {
    using In = ChinchillaIn;
    using Out = ChinchillaOut;
    r.add(declare<train_chinchilla>(
        {"train.chinchilla", "Chinchilla-optimal tokens", "training",
         "How many tokens a model of a given size should see, the compute that takes, and the "
         "optimal size for a compute budget.",
         "Hoffmann et al. 2022, Training Compute-Optimal Large Language Models, Table 3",
         "docs/training.md#trainchinchilla"},
        {num("params", NAPKIN_FIELD(In, params), "Parameters", unit::params)
             .help("Model size N: the parameters each token computes with (a model preset gives "
                   "the active ones: a mixture of experts uses only its routed experts)")
             .meaning("active_params")
             .positive(kMaxParams)
             .required(),
         num("tokens_per_param", NAPKIN_FIELD(In, tokens_per_param), "Tokens per parameter")
             .help("Compute-optimal tokens per parameter r; Chinchilla's fits give about 20")
             .positive(1e4),
         num("tokens", NAPKIN_FIELD(In, tokens), "Tokens trained (0 = none)", unit::tokens)
             .help("Tokens the model was actually trained on, to compare with the optimum")
             .range(0, kMaxTokens),
         num("compute_flops", NAPKIN_FIELD(In, compute_flops), "Compute budget (0 = none)",
             unit::flop)
             .help("A training budget C in FLOP, to find the model size it buys")
             .range(0, kMaxFlops)},
        {out("optimal_tokens", NAPKIN_FIELD(Out, optimal_tokens), "Compute-optimal tokens",
             unit::tokens)
             .help("D = r × N: the tokens a model of this size should see"),
         out("compute_flops", NAPKIN_FIELD(Out, compute_flops), "Compute at the optimum",
             unit::flop)
             .help("C = 6 × N × D: training compute at the optimum"),
         out("tokens_per_param_actual", NAPKIN_FIELD(Out, tokens_per_param_actual),
             "Actual tokens per parameter")
             .optional()
             .help("Training tokens ÷ parameters; shown when training tokens are given"),
         out("optimal_params_for_budget", NAPKIN_FIELD(Out, optimal_params_for_budget),
             "Optimal size for the budget", unit::params)
             .optional()
             .help("√(C / 6r): the compute-optimal model size; shown when a budget is given"),
         out("optimal_tokens_for_budget", NAPKIN_FIELD(Out, optimal_tokens_for_budget),
             "Optimal tokens for the budget", unit::tokens)
             .optional()
             .help("r × the optimal size; shown when a compute budget is given")}));
  }
  {
    using In = TrainTimeIn;
    using Out = TrainTimeOut;
    r.add(declare<train_time>(
        {"train.time", "Training time and cost", "training",
         "Wall-clock days, GPU-hours and cost of a training run from 6·N·D FLOPs and a sustained "
         "fraction of peak.",
         "Kaplan et al. 2020 §2.1 (6ND); Narayanan et al. 2021 eq. 3 (8ND with recomputation)",
         "docs/training.md#traintime"},
        {num("params", NAPKIN_FIELD(In, params), "Parameters", unit::params)
             .help("Model size N: the parameters each token computes with (a model preset gives "
                   "the active ones: a mixture of experts uses only its routed experts)")
             .meaning("active_params")
             .positive(kMaxParams)
             .required(),
         num("tokens", NAPKIN_FIELD(In, tokens), "Training tokens", unit::tokens)
             .help("Tokens D seen in training (LLaMA-2: 2T)")
             .positive(kMaxTokens)
             .required(),
         num("gpus", NAPKIN_FIELD(In, gpus), "GPUs", unit::gpus)
             .help("Accelerators training together")
             .positive(kMaxGpus)
             .integer()
             .required(),
         peak_flops_input(NAPKIN_FIELD(In, peak_flops), "Peak FLOP/s per GPU"),
         num("mfu", NAPKIN_FIELD(In, mfu), "MFU", unit::fraction)
             .help("Model FLOPs utilization: the share of peak that does model math (large runs: "
                   "35–55 %)")
             .positive(1),
         num("flops_per_param_token", NAPKIN_FIELD(In, flops_per_param_token),
             "FLOPs per parameter per token")
             .positive(100)
             .help("6 without recomputation; 8 with full activation recomputation"),
         num("price_per_gpu_hour", NAPKIN_FIELD(In, price_per_gpu_hour), "Price per GPU-hour",
             unit::dollars)
             .help("Cloud or amortised price of one accelerator for one hour")
             .range(0, 1e4),
         num("gpu_power", NAPKIN_FIELD(In, gpu_power), "Power per GPU (0 = no energy)", unit::watts)
             .help("Board power of one accelerator (its datasheet's TDP: H100 SXM 700 W, A100 400 "
                   "W), as published training footprints count it; measured averages run lower")
             .range(0, 1e5),
         num("pue", NAPKIN_FIELD(In, pue), "Power usage effectiveness (PUE)")
             .help("The facility's energy ÷ the IT equipment's: cooling and power conversion "
                   "(hyperscale fleets report 1.1; older data centres 1.5)")
             .range(1, 5)},
        {out("total_flops", NAPKIN_FIELD(Out, total_flops), "Total compute", unit::flop)
             .help("C = k × N × D: all the arithmetic of the run"),
         out("cluster_flops", NAPKIN_FIELD(Out, cluster_flops), "Sustained cluster FLOP/s",
             unit::flops)
             .help("GPUs × peak × MFU: model FLOP/s the cluster sustains"),
         out("seconds", NAPKIN_FIELD(Out, seconds), "Time", unit::seconds)
             .help("Wall-clock time: total compute ÷ sustained FLOP/s"),
         out("hours", NAPKIN_FIELD(Out, hours), "Hours").help("Wall-clock time in hours"),
         out("days", NAPKIN_FIELD(Out, days), "Days").help("Wall-clock time in days"),
         out("gpu_hours", NAPKIN_FIELD(Out, gpu_hours), "GPU-hours", unit::gpu_hours)
             .help("GPUs × hours: what a cloud bill counts"),
         out("cost", NAPKIN_FIELD(Out, cost), "Cost", unit::dollars)
             .optional()
             .help("GPU-hours × price; shown when a price per GPU-hour is given"),
         out("gpu_energy", NAPKIN_FIELD(Out, gpu_energy), "GPU energy", unit::joules)
             .optional()
             .help("GPU-hours × power per GPU; shown when a power is given"),
         out("facility_energy", NAPKIN_FIELD(Out, facility_energy), "Facility energy", unit::joules)
             .optional()
             .help("GPU energy × PUE: what the data centre draws for the run")}));
  }
  {
    using In = TrainMfuIn;
    using Out = TrainMfuOut;
    r.add(declare<train_mfu>(
        {"train.mfu", "Model and hardware FLOPs utilization", "training",
         "MFU from measured tokens/s with PaLM's 6N + 12·L·d·s FLOPs per token; HFU adds the "
         "FLOPs spent recomputing activations.",
         "Chowdhery et al. 2022 (PaLM), Appendix B; Korthikanti et al. 2022 §5",
         "docs/training.md#trainmfu"},
        {num("params", NAPKIN_FIELD(In, params), "Parameters", unit::params)
             .help("Model size N: the parameters each token computes with (a model preset gives "
                   "the active ones: a mixture of experts uses only its routed experts)")
             .meaning("active_params")
             .positive(kMaxParams)
             .required(),
         num("tokens_per_second", NAPKIN_FIELD(In, tokens_per_second), "Throughput",
             unit::tokens_per_s)
             .help("Training throughput of the whole cluster, in tokens per second")
             .positive(1e12)
             .required(),
         num("gpus", NAPKIN_FIELD(In, gpus), "GPUs", unit::gpus)
             .help("Accelerators training together")
             .positive(kMaxGpus)
             .integer()
             .required(),
         peak_flops_input(NAPKIN_FIELD(In, peak_flops), "Peak FLOP/s per GPU"),
         num("n_layers", NAPKIN_FIELD(In, n_layers), "Layers")
             .help("Transformer blocks, for the attention FLOPs")
             .positive(1e5)
             .integer(),
         num("d_model", NAPKIN_FIELD(In, d_model), "Model width d")
             .help("Hidden size of the residual stream")
             .positive(1e7)
             .integer(),
         num("seq_len", NAPKIN_FIELD(In, seq_len), "Sequence length", unit::tokens)
             .help("Tokens per training sequence; attention FLOPs grow with it")
             .positive(1e8)
             .integer(),
         num("attention_dim", NAPKIN_FIELD(In, attention_dim),
             "Attention width, heads × head dim (0 = model width)")
             .help("Query heads × head size; 0 takes the model width")
             .range(0, 1e7)
             .integer(),
         choice("recompute", NAPKIN_FIELD(In, recompute), "Activation recomputation",
                "none|selective|full")
             .help("Recomputed activations add forward FLOPs the hardware does but the model does "
                   "not count")
             .labels("None|Selective (attention only)|Full (per layer)")},
        {out("flops_per_token", NAPKIN_FIELD(Out, flops_per_token), "Model FLOPs per token",
             unit::flop_per_token)
             .help("6N plus attention: the FLOPs the model needs per token"),
         out("hardware_flops_per_token", NAPKIN_FIELD(Out, hardware_flops_per_token),
             "Hardware FLOPs per token", unit::flop_per_token)
             .help("Model FLOPs plus recomputation: what the hardware executes per token"),
         out("achieved_flops", NAPKIN_FIELD(Out, achieved_flops), "Achieved model FLOP/s",
             unit::flops)
             .help("Throughput × model FLOPs per token"),
         out("mfu", NAPKIN_FIELD(Out, mfu), "MFU", unit::fraction)
             .help("Achieved model FLOP/s ÷ (GPUs × peak)"),
         out("hfu", NAPKIN_FIELD(Out, hfu), "HFU", unit::fraction)
             .help("Hardware FLOPs utilization: like MFU, counting recomputed work too")}));
  }
  {
    using In = ModelParamsIn;
    using Out = ModelParamsOut;
    // model_params is also the shape's count (scenario/model.hpp): the estimator's by its type.
    constexpr Result<Out> (*estimator)(const In&, Derivation&) = &model_params;
    r.add(with_model_inputs<In>(
        declare<estimator>(
            {"model.params", "Parameter count", "training",
             "Total and active parameters of a decoder-only transformer from its shapes: attention "
             "(MHA, GQA, MQA or multi-head latent), MLP or SwiGLU feed-forward, experts, norms, "
             "embeddings.",
             "Kaplan et al. 2020 Table 1; Touvron et al. 2023 (LLaMA-2) Table 1; DeepSeek-AI 2024 "
             "(DeepSeek-V3) §2",
             "docs/training.md#modelparams"},
            {flag("attention", NAPKIN_FIELD(In, attention), "Attention in each block")
                 .help("Count the attention projections (off: blocks of feed-forward layers "
                       "only)"),
             flag("norms", NAPKIN_FIELD(In, norms), "Count norm gains")
                 .help("Count the normalization layers' weights (the number per block is under "
                       "the model's details); a model preset turns this on")},
            {out("params", NAPKIN_FIELD(Out, params), "Parameters (total)", unit::params)
                 .help("Every weight: what memory holds, all experts included"),
             out("active_params", NAPKIN_FIELD(Out, active_params), "Active parameters",
                 unit::params)
                 .help("The weights one token computes with: for a mixture of experts only its "
                       "routed and shared experts; the total for a dense model"),
             out("non_embedding_params", NAPKIN_FIELD(Out, non_embedding_params), "Non-embedding",
                 unit::params)
                 .help("Parameters outside the embeddings and the output layer (Kaplan's N)"),
             out("attention_params", NAPKIN_FIELD(Out, attention_params), "Attention per block",
                 unit::params)
                 .help("Q, K, V and output projections of one block"),
             out("ffn_params", NAPKIN_FIELD(Out, ffn_params), "FFN per block", unit::params)
                 .help("Feed-forward weights of one block, all its experts; averaged over the "
                       "blocks when they differ"),
             out("ffn_total_params", NAPKIN_FIELD(Out, ffn_total_params), "FFN, all blocks",
                 unit::params)
                 .help("Feed-forward weights of every block and every expert"),
             out("ffn_active_params", NAPKIN_FIELD(Out, ffn_active_params), "FFN one token uses",
                 unit::params)
                 .help("Feed-forward weights one token runs through, over all blocks"),
             out("norm_params", NAPKIN_FIELD(Out, norm_params), "Norms", unit::params)
                 .help("Gains (and LayerNorm biases) of every norm layer"),
             out("embedding_params", NAPKIN_FIELD(Out, embedding_params), "Embeddings",
                 unit::params)
                 .help("Token (and position) embeddings, and the output layer when untied"),
             out("per_layer_params", NAPKIN_FIELD(Out, per_layer_params), "Per block", unit::params)
                 .help("Attention, feed-forward and norms of an average block"),
             out("d_ff", NAPKIN_FIELD(Out, d_ff), "FFN width used")
                 .help("The feed-forward width after the default is applied")}),
        0));
  }
  {
    using In = ModelFlopsIn;
    using Out = ModelFlopsOut;
    r.add(with_model_inputs<In>(
        declare<model_flops>(
            {"model.flops", "FLOPs per token of a transformer", "training",
             "Forward, backward and training-step FLOPs per token from the model's active weights "
             "and its attention, against the 6N rule.",
             "Kaplan et al. 2020 Table 1; Chowdhery et al. 2022 Appendix B (attention term)",
             "docs/training.md#modelflops"},
            {num("seq_len", NAPKIN_FIELD(In, seq_len), "Sequence length", unit::tokens)
                 .help("Tokens per sequence; attention scores grow with it")
                 .positive(1e8)
                 .integer(),
             flag("include_attention", NAPKIN_FIELD(In, include_attention),
                  "Count attention scores")
                 .help("Add the QKᵀ and attention-times-V products at this sequence length"),
             flag("causal", NAPKIN_FIELD(In, causal), "Causal attention")
                 .help("Each token attends only to the tokens before it, half the sequence on "
                       "average (off: to the whole sequence, as PaLM's 12·L·d·s counts)"),
             num("params", NAPKIN_FIELD(In, params), "Parameters for 6N (0 = active)", unit::params)
                 .help("N for the 6N rule; 0 takes the active weights less the input embedding")
                 // Not a preset's total: the default counts the model's own active weights.
                 .meaning("params_for_6n")
                 .range(0, kMaxParams)},
            {out("forward_flops_per_token", NAPKIN_FIELD(Out, forward_flops_per_token), "Forward",
                 unit::flop_per_token)
                 .help("Forward FLOPs per token: 2 per active weight, the output layer, attention"),
             out("attention_flops_per_token", NAPKIN_FIELD(Out, attention_flops_per_token),
                 "Attention scores and values", unit::flop_per_token)
                 .help("The part of the forward FLOPs that grows with the sequence"),
             out("fwd_flops_per_layer", NAPKIN_FIELD(Out, fwd_flops_per_layer), "Forward per block",
                 unit::flop)
                 .help("Forward FLOPs of an average block per token (output layer left out)"),
             out("bwd_flops", NAPKIN_FIELD(Out, bwd_flops), "Backward", unit::flop)
                 .help("Backward ≈ 2 × forward"),
             out("step_flops", NAPKIN_FIELD(Out, step_flops), "Training step", unit::flop)
                 .help("Forward + backward per token"),
             out("active_params", NAPKIN_FIELD(Out, active_params), "Active parameters",
                 unit::params)
                 .help("The weights one token computes with (a mixture of experts: its routed and "
                       "shared experts only)"),
             out("ratio_to_6n", NAPKIN_FIELD(Out, ratio_to_6n), "Ratio to 6N")
                 .help("The exact count ÷ 6N: how far the rule is off"),
             out("params_used", NAPKIN_FIELD(Out, params_used), "N used for 6N", unit::params)
                 .help("The N the 6N rule used: active weights less the input embedding, unless "
                       "given")}),
        0));
  }
  {
    using In = MoeParamsIn;
    using Out = MoeParamsOut;
    r.add(declare<moe_params>(
        {"moe.params", "Mixture-of-experts parameters", "training",
         "Total versus active parameters of an MoE model and the compute-optimal tokens on the "
         "active ones.",
         "Jiang et al. 2024 (Mixtral of Experts) §2", "docs/training.md#moeparams"},
        {num("shared_params", NAPKIN_FIELD(In, shared_params), "Shared parameters", unit::params)
             .help("Parameters every token uses: attention, embeddings, shared experts")
             .range(0, kMaxParams)
             .required(),
         num("num_experts", NAPKIN_FIELD(In, num_experts), "Experts")
             .help("Experts per MoE layer")
             .positive(1e5)
             .integer()
             .required(),
         num("expert_params", NAPKIN_FIELD(In, expert_params), "Parameters per expert",
             unit::params)
             .help("Parameters of one expert, summed over layers")
             .positive(kMaxParams)
             .required(),
         num("top_k", NAPKIN_FIELD(In, top_k), "Experts per token (top-k)")
             .help("Experts each token is routed to")
             .positive(1e5)
             .integer()
             .required(),
         num("tokens_per_param", NAPKIN_FIELD(In, tokens_per_param), "Tokens per parameter")
             .help("Compute-optimal tokens per active parameter (about 20)")
             .positive(1e4)},
        {out("total_params", NAPKIN_FIELD(Out, total_params), "Total", unit::params)
             .help("Shared + all experts: what memory must hold"),
         out("active_params", NAPKIN_FIELD(Out, active_params), "Active", unit::params)
             .help("Shared + top-k experts: what each token computes with"),
         out("active_fraction", NAPKIN_FIELD(Out, active_fraction), "Active fraction",
             unit::fraction)
             .help("Active ÷ total"),
         out("optimal_tokens", NAPKIN_FIELD(Out, optimal_tokens), "Compute-optimal tokens",
             unit::tokens)
             .help("Tokens per parameter × active parameters")}));
  }

  // Charts for this area (docs/architecture.md, The registry): every one is a sweep of a registered
  // estimator.
  r.add_chart({.id = "chinchilla-tokens",
               .title = "Compute-optimal tokens vs parameters",
               .estimator = "train.chinchilla",
               .x = "params",
               .x_label = "Parameters",
               .y_label = "Tokens",
               .y_unit = unit::tokens,
               .x_min = 1e8,
               .x_max = 2e12,
               .points = 60,
               .log_x = true,
               .log_y = true,
               .y = {"optimal_tokens"},
               .markers = {{"LLaMA-2-7B", 7e9},
                           {"LLaMA-2-13B", 13e9},
                           {"Chinchilla", 70e9},
                           {"GPT-3", 175e9},
                           {"PaLM", 540e9}}});
  Json a100 = Json::object(), h100 = Json::object();
  // The catalog's datasheet peaks (scenario/gpu_figures.hpp), not retyped.
  a100.set("peak_flops", figures::a100_bf16);
  h100.set("peak_flops", figures::h100_bf16);
  r.add_chart({.id = "train-days-gpus",
               .title = "Training days vs GPU count",
               .estimator = "train.time",
               .x = "gpus",
               .x_label = "GPUs",
               .y_label = "Days",
               .y_unit = "",
               .x_min = 64,
               .x_max = 8192,
               .points = 40,
               .log_x = true,
               .log_y = true,
               .integer_x = true,
               .y = {"days"},
               .series = {{"A100 (312 TFLOP/s)", a100}, {"H100 (989 TFLOP/s)", h100}}});
  r.add_chart({.id = "train-days-mfu",
               .title = "Training days vs MFU",
               .estimator = "train.time",
               .x = "mfu",
               .x_label = "MFU",
               .y_label = "Days",
               .y_unit = "",
               .x_min = 0.2,
               .x_max = 0.7,
               .points = 51,
               .y = {"days"}});
}

}  // namespace napkin
