// Hardware and model presets. Each preset is a set of input values (base units) that the
// page applies to any estimator with inputs of those names; `napkin hardware` lists the
// accelerators and links. Every figure carries its source.
#include <initializer_list>
#include <utility>

#include "registry/registry.hpp"
#include "root/areas.hpp"
#include "scenario/cluster.hpp"
#include "scenario/model.hpp"
#include "scenario/model_inputs.hpp"

namespace napkin {

namespace {

Preset make(std::string_view id, std::string_view label, std::string_view kind,
            std::string_view source, Fields f) {
  return Preset{id, label, kind, source, object_of(f), {}};
}

// A model preset, generated from the typed description (core/scenario/model_presets.cpp): every
// shape input of the one declaration (model_inputs.cpp) under its meaning, so that `model=<id>`
// gives back the exact Model; the older names some estimators still use for the same quantity
// (hidden = d_model, layers = n_layers, as some worked examples name them); and its exact
// parameter counts: `params` the total (what memory holds), `active_params` what one token
// computes with (MoE: the routed top-k and shared experts only), which compute estimators read.
Preset model_preset(const ModelPreset& p) {
  const Model& m = p.model;
  const ModelParams c = model_params(m);
  Preset out = make(p.id, p.label, "model", p.source,
                    {{"params", c.total},
                     {"active_params", c.active},
                     {"hidden", m.d_model},
                     {"layers", m.layers},
                     {"attention_dim", m.heads * m.head_dim},
                     {"seq_len", p.context},
                     // model.params leaves norms out unless asked (its default is the 12·L·d²
                     // rule); a released model has them.
                     {"norms", true}});
  const ModelInputs shape(m);
  for (const auto& d : model_input_decls({})) {
    const std::string key = d.preset_key ? d.preset_key : d.name;
    // Experts per token only for an MoE model: other estimators read `top_k` as a positive
    // count, and to_model() ignores it when there are no experts.
    if (key == "top_k" && m.experts == 0) continue;
    out.values.set(key, field_read(&shape, d.field));
  }
  if (p.trained_tokens > 0) out.values.set("tokens", p.trained_tokens);
  // The cache per token in BF16, from the one KV function. MLA's widths and the MoE shape are
  // 0 for other models (ModelInputs(m) copies them), so choosing a GQA or dense model after an
  // MLA or MoE one resets them.
  out.values.set("kv_bytes_per_token", kv_bytes_per_token(m, 2));
  if (m.experts > 0) {  // moe.params' split: shared weights and one expert's weights
    const double expert = (c.ffn_total - c.ffn_active) / (m.experts - m.top_k);
    out.values.set("num_experts", m.experts);
    out.values.set("expert_params", expert);
    out.values.set("shared_params", c.total - m.experts * expert);
  }
  return out;
}

// An accelerator preset from the typed catalog (core/scenario/cluster.cpp): dense BF16 peak
// (and the 8-bit peaks, 0 where the chip has no such path), HBM bandwidth and capacity under
// every input name the estimators use for them.
Preset accelerator_preset(const Gpu& g) {
  Preset p =
      make(g.id, g.label, "gpu", g.source,
           {{"peak_flops", g.peak_bf16},
            {"peak_fp8", g.peak_fp8},
            {"peak_int8", g.peak_int8},
            {"mem_bandwidth", g.hbm_bandwidth},
            {"matmul_fraction", g.matmul_fraction > 0 ? g.matmul_fraction : kA100MatmulFraction},
            {"matmul_fraction_fp8", g.matmul_fraction_fp8 > 0 ? g.matmul_fraction_fp8
                                    : g.matmul_fraction > 0   ? g.matmul_fraction
                                                              : kA100MatmulFraction},
            {"attention_fraction", g.attention_fraction},
            {"sms", g.sms},
            {"gpu_memory", g.hbm_bytes},
            {"device_memory", g.hbm_bytes},
            {"gpu_power", g.power}});
  // The node it usually ships in (find_cluster): node size and both network tiers, so a
  // whole-step estimate follows the accelerator too.
  if (const Cluster* c = find_cluster(g.id)) {
    p.values.set("gpus_per_node", c->gpus_per_node);
    p.values.set("intra_bandwidth", c->intra.bandwidth);
    p.values.set("intra_latency", c->intra.latency);
    p.values.set("inter_bandwidth", c->inter.bandwidth);
    p.values.set("inter_latency", c->inter.latency);
    // What NCCL achieves on each tier (cluster.cpp cites the measurements).
    p.values.set("intra_efficiency", c->intra.efficiency);
    p.values.set("inter_efficiency", c->inter.efficiency);
    p.values.set("launch_latency", c->intra.launch);
  }
  return p;
}

// Whether the switch reduces in-network (NVLS / SHARP) travels with the link, so that picking
// InfiniBand after NVLink turns it off.
// With it, what NCCL achieves on the link (Tier's efficiencies and launch latency); a worked
// example's link keeps the line rate its statement gives (1, 1, 0).
Preset link(std::string_view id, std::string_view label, std::string_view source, double bw,
            double latency, bool in_switch = false, double efficiency = 1,
            double switch_efficiency = 1, double launch = 0) {
  return make(id, label, "link", source,
              {{"bandwidth", bw},
               {"latency", latency},
               {"in_switch_reduction", Json(in_switch)},
               {"bus_efficiency", efficiency},
               {"switch_efficiency", switch_efficiency},
               {"launch_latency", launch}});
}

// A layout degree the scenario bar sets: a whole number of GPUs.
InputSpec degree(const char* name, const char* label, const char* help, double max = 1e5) {
  InputSpec s;
  s.name = name;
  s.label = label;
  s.help = help;
  s.min = 1;
  s.max = max;
  s.integer = true;
  s.fallback = s.example = Json(1.0);
  return s;
}

}  // namespace

void register_catalog(Registry& r) {
  // The first screen's entry points: the questions people bring, each with a worked setup.
  r.add_question({"How long will training take?", "train.time", {"llama2-70b", "a100"}});
  r.add_question({"Will the model fit in GPU memory?", "mem.training", {}});
  r.add_question({"What does the all-reduce cost?", "comm.collective", {"nvlink4"}});
  // Continuous batching with queueing (serve.capacity) is how a serving fleet is sized; the
  // worked example's one-request-at-a-time model (serve.llm_gpus) overstates it ~40×.
  r.add_question({"How many GPUs to serve this?", "serve.capacity", {"llama3-70b", "h100"}});
  r.add_question({"How big is the KV cache?", "infer.kv", {"llama2-70b"}});
  r.add_question({"How many tokens for a compute-optimal model?", "train.chinchilla", {}});

  // The scenario bar: one model, one accelerator, one link and the layout's degrees, which
  // every card follows where it has an input of that meaning (docs/architecture.md, The scenario).
  r.add_scenario_kind({"model", "Model", "A released model's shape, from its published config"});
  r.add_scenario_kind(
      {"gpu", "Accelerator", "Peak FLOP/s, memory and bandwidth from its datasheet"});
  r.add_scenario_kind(
      {"link", "Network link", "Bandwidth per GPU and latency of one network tier"});
  r.add_scenario_kind({"precision", "Precision",
                       "How weights and the KV cache are stored: the cards that take a dtype or "
                       "bytes per value follow"});
  r.add_scenario_input(
      degree("tp", "Tensor parallel (TP)", "GPUs that split each layer's matrices"));
  r.add_scenario_input(
      degree("pp", "Pipeline parallel (PP)", "Pipeline stages the layers are split into"));
  r.add_scenario_input(
      degree("dp", "Data parallel (DP)",
             "Model replicas, each on its own batch slice (FSDP shards over them)"));
  // The job: what every training card's sequence length and global batch follow.
  r.add_scenario_input(degree("seq_len", "Sequence length",
                              "Tokens per training sequence (overrides the model's context)", 1e7));
  r.add_scenario_input(degree("global_batch", "Global batch",
                              "Sequences per optimizer step, over all data-parallel replicas",
                              1e8));

  // Precisions: the same choice under each name the cards use for it (a dtype, or bytes per
  // value: weight_bytes, kv_bytes), so a serving card and a roofline card store alike. INT4 is
  // weight-only with an FP16 scale per 128 weights (AWQ, GPTQ), as serve.engine counts it.
  struct Precision {
    const char *id, *label, *weights, *kv;
    Dtype w, c;
  };
  static constexpr Precision kPrecisions[] = {
      {"bf16", "BF16 weights and KV cache", "bf16", "bf16", Dtype::Bf16, Dtype::Bf16},
      {"fp8", "FP8 weights and KV cache (W8A8)", "fp8", "fp8", Dtype::Fp8, Dtype::Fp8},
      {"int8", "INT8 weights and KV cache (W8A8)", "int8", "int8", Dtype::Int8, Dtype::Int8},
      {"int4", "INT4 weights (AWQ, groups of 128), BF16 KV cache", "int4", "bf16", Dtype::Int4,
       Dtype::Bf16}};
  for (const Precision& p : kPrecisions) {
    Preset pr =
        make(p.id, p.label, "precision",
             "Bytes per value: BF16 2, FP8 and INT8 1, INT4 0.5 plus one FP16 scale per "
             "128 weights (Lin et al. 2024, AWQ §3)",
             {{"weight_dtype", Json(p.weights)},
              {"kv_dtype", Json(p.kv)},
              {"weight_bytes", quantized_bytes_per_param(p.w, p.w == Dtype::Int4 ? 128 : 0)},
              {"kv_bytes", dtype_bytes(p.c)}});
    r.add_preset(std::move(pr));
  }

  // Models and accelerators: one typed description each, with its source (core/scenario/).
  for (const ModelPreset* p = model_presets_begin(); p != model_presets_end(); ++p)
    r.add_preset(model_preset(*p));
  for (const Gpu* g = gpus_begin(); g != gpus_end(); ++g) r.add_preset(accelerator_preset(*g));

  // Links, from the typed tiers (core/scenario/cluster.cpp): bandwidth per GPU in one direction
  // (what a ring step can push), latency per step. Then links only a worked example uses.
  for (const Tier* t = tiers_begin(); t != tiers_end(); ++t) {
    Preset p = link(t->id, t->label, t->source, t->bandwidth, t->latency, t->in_switch_reduction,
                    t->efficiency, t->switch_efficiency, t->launch);
    p.group = "Vendor figures, at NCCL's measured rates";
    r.add_preset(std::move(p));
  }
  // The worked examples' own link figures, kept as their statements give them: line rate.
  auto add_worked = [&](Preset p) {
    p.group = "Worked examples' figures (line rate)";
    r.add_preset(std::move(p));
  };
  add_worked(
      link("eth10", "10 GbE: 1.25 GB/s, 50 µs",
           "IEEE 802.3 10 Gb/s = 1.25 GB/s per direction; 50 µs round trip from a worked example",
           1.25e9, 50e-6));
  // The seeds' own link numbers, kept as they wrote them so their examples reproduce
  // (docs/errata.md, Communication).
  add_worked(link("seed001-nvlink", "NVLink as a worked example states it: 600 GB/s, 1 µs",
                  "Worked example (600 GB/s, “NVLink 4.0 (H100)”; H100 "
                  "is 450 GB/s per direction, 600 is A100's bidirectional total)",
                  600e9, 1e-6));
  add_worked(link("seed001-infiniband", "InfiniBand as a worked example states it: 400 GB/s, 2 µs",
                  "Worked example (400 GB/s, “NDR”: NDR is 400 Gb/s "
                  "= 50 GB/s per port)",
                  400e9, 2e-6));
  add_worked(link("seed001-ethernet", "Ethernet as a worked example states it: 100 GB/s, 10 µs",
                  "Worked example (100 GB/s, “100GbE”: 100 Gb/s is "
                  "12.5 GB/s)",
                  100e9, 10e-6));
  add_worked(link("seed002-nvlink", "NVLink (A100 total, 600 GB/s) — worked example's figure",
                  "Worked example (“NVLink ~600 GB/s”, A100's bidirectional total); "
                  "latency not given, 1 µs as the other worked example",
                  600e9, 1e-6));
  add_worked(link("seed002-infiniband", "InfiniBand 200 GB/s — worked example's figure",
                  "Worked example (“InfiniBand ~200 GB/s”, the DP 3.5 s "
                  "example); latency not given, 2 µs as the other worked example",
                  200e9, 2e-6));
  add_worked(link("seed003-nvlink", "NVLink hop, 3 µs — worked example's figure",
                  "Worked example (“a 3 µs NVLink hop”; bandwidth not given: "
                  "A100 NVLink 3, 300 GB/s)",
                  300e9, 3e-6));
  add_worked(link("seed003-10gbe", "10 GbE, 50 µs round trip — worked example's figure",
                  "Worked example (“a 50 µs Ethernet round-trip”, 10 GbE)", 1.25e9, 50e-6));
}

}  // namespace napkin
