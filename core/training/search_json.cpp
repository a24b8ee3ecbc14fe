// The search result as JSON, built once after the typed loop (SPEC §9).
#include <algorithm>

#include "base/json.hpp"
#include "training/search.hpp"

namespace napkin {
namespace {

const char* recompute_name(Recompute r) {
  return r == Recompute::Full ? "full" : r == Recompute::Selective ? "selective" : "none";
}

Json ranked_json(const Ranked& x) {
  const Layout& l = x.layout;
  const StepTimes& t = x.times;
  Json layout = Json::object();
  layout.add("tp", l.tp);
  layout.add("pp", l.pp);
  layout.add("vpp", l.vpp);
  layout.add("dp", l.dp);
  layout.add("cp", l.cp);
  layout.add("ep", l.ep);
  layout.add("zero_stage", l.zero_stage);
  layout.add("microbatch", l.microbatch);
  layout.add("recompute", recompute_name(l.recompute));
  layout.add("sequence_parallel", l.sequence_parallel);
  layout.add("dp_overlap", l.dp_overlap);
  layout.add("tp_overlap", l.tp_overlap);
  layout.add("optimizer_offload", l.optimizer_offload);
  Json o = Json::object();
  o.add("step_time", t.step);
  o.add("tokens_per_second", t.tokens_per_second);
  o.add("mfu", t.mfu);
  o.add("hfu", t.hfu);
  o.add("model_tflops_per_gpu", t.model_flops_per_gpu / 1e12);
  o.add("memory_per_gpu", t.memory.total);
  o.add("fits", t.fits);
  o.add("compute_time", t.compute);
  o.add("recompute_time", t.recompute);
  o.add("bubble_time", t.bubble);
  o.add("tp_comm_time", t.tp_comm);
  o.add("cp_comm_time", t.cp_comm);
  o.add("ep_comm_time", t.ep_comm);
  o.add("pp_comm_time", t.pp_comm);
  o.add("dp_comm_time", t.dp_comm);
  o.add("weights_memory", t.memory.weights);
  o.add("gradients_memory", t.memory.gradients);
  o.add("optimizer_memory", t.memory.optimizer);
  o.add("activations_memory", t.memory.activations);
  Json j = Json::object();
  j.add("layout", std::move(layout));
  j.add("outputs", std::move(o));
  return j;
}

}  // namespace

Json search_json(const SearchSpec& spec, const SearchResult& r) {
  (void)spec;
  Json j = Json::object();
  j.add("total", r.total);
  j.add("evaluated", r.evaluated);
  j.add("valid", r.valid);
  Json rejected = Json::object();
  for (int i = 0; i < static_cast<int>(Reject::Count); ++i)
    if (r.rejected[i]) rejected.add(reject_words(static_cast<Reject>(i)), r.rejected[i]);
  j.add("rejected", std::move(rejected));
  j.add("seconds", r.seconds);
  j.add("configs_per_second", r.seconds > 0 ? static_cast<double>(r.total) / r.seconds : 0.0);
  j.add("best", r.top_count ? ranked_json(r.top[0]) : Json());
  Json top = Json::array();
  for (int i = 0; i < r.top_count; ++i) top.push(ranked_json(r.top[i]));
  j.add("top", std::move(top));
  // Pareto frontier over the memory bins: keep a bin's layout when it is faster than every
  // layout in the bins that use less memory.
  Json pareto = Json::array();
  double best = 0;
  bool any = false;
  for (int b = 0; b < SearchResult::kBins; ++b) {
    if (!r.pareto_used[b]) continue;
    if (any && r.pareto[b].times.step >= best) continue;
    best = r.pareto[b].times.step;
    any = true;
    pareto.push(ranked_json(r.pareto[b]));
  }
  j.add("pareto", std::move(pareto));
  return j;
}

}  // namespace napkin

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace napkin {

bool search_spec_from_args(const char* const* names, const char* const* values, int n,
                           SearchSpec& s, std::string& error) {
  // GPT-3 175B (Brown et al. 2020, Table 2.1) on A100 SXM 80 GB nodes (NVLink 3, 8 × HDR).
  Model& m = s.model;
  m.layers = 96;
  m.d_model = 12288;
  m.heads = 96;
  m.kv_heads = 96;
  m.head_dim = 128;
  m.d_ff = 49152;
  m.ffn = Ffn::Mlp;
  m.vocab = 51200;
  s.cluster.gpu.peak_bf16 = 312e12;
  s.cluster.gpu.hbm_bytes = 80.0 * (1ull << 30);
  s.cluster.gpus_per_node = 8;
  s.cluster.intra.bandwidth = 300e9;
  s.cluster.intra.latency = 3e-6;
  s.cluster.inter.bandwidth = 25e9;
  s.cluster.inter.latency = 5e-6;
  s.job.compute_efficiency = 0.6;
  struct Field {
    const char* name;
    double* d;
    int* i;
    bool zero_ok = false;  // 0 means "none" (dense, no host memory, no latency)
  };
  int gated = 0, prune = 1;
  // Dimensions to search (1) or pin (0).
  int dims[] = {s.search_cp, s.search_vpp,     s.search_recompute, s.search_zero,
                s.search_sp, s.search_overlap, s.search_offload};
  const Field fields[] = {{"layers", nullptr, &m.layers},
                          {"d_model", &m.d_model, nullptr},
                          {"heads", nullptr, &m.heads},
                          {"kv_heads", nullptr, &m.kv_heads},
                          {"head_dim", &m.head_dim, nullptr},
                          {"d_ff", &m.d_ff, nullptr},
                          {"gated_ffn", nullptr, &gated, true},
                          {"vocab", &m.vocab, nullptr},
                          {"experts", nullptr, &m.experts, true},
                          {"top_k", nullptr, &m.top_k, true},
                          {"expert_d_ff", &m.expert_d_ff, nullptr, true},
                          {"peak_flops", &s.cluster.gpu.peak_bf16, nullptr},
                          {"hbm_bytes", &s.cluster.gpu.hbm_bytes, nullptr},
                          {"host_memory", &s.cluster.gpu.host_memory, nullptr, true},
                          {"gpus_per_node", nullptr, &s.cluster.gpus_per_node},
                          {"intra_bandwidth", &s.cluster.intra.bandwidth, nullptr},
                          {"intra_latency", &s.cluster.intra.latency, nullptr, true},
                          {"inter_bandwidth", &s.cluster.inter.bandwidth, nullptr},
                          {"inter_latency", &s.cluster.inter.latency, nullptr, true},
                          {"gpus", nullptr, &s.gpus},
                          {"global_batch", &s.job.global_batch, nullptr},
                          {"seq_len", &s.job.seq_len, nullptr},
                          {"compute_efficiency", &s.job.compute_efficiency, nullptr},
                          {"max_memory_fraction", &s.max_memory_fraction, nullptr},
                          {"top", nullptr, &s.top},
                          {"prune", nullptr, &prune, true},
                          {"search_cp", nullptr, &dims[0], true},
                          {"search_vpp", nullptr, &dims[1], true},
                          {"search_recompute", nullptr, &dims[2], true},
                          {"search_zero", nullptr, &dims[3], true},
                          {"search_sp", nullptr, &dims[4], true},
                          {"search_overlap", nullptr, &dims[5], true},
                          {"search_offload", nullptr, &dims[6], true}};
  for (int k = 0; k < n; ++k) {
    const Field* f = nullptr;
    for (const Field& x : fields)
      if (std::strcmp(x.name, names[k]) == 0) f = &x;
    if (!f) {
      error = std::string("unknown input \"") + names[k] + "\" for search";
      return false;
    }
    char* end = nullptr;
    const double v = std::strtod(values[k], &end);
    if (end == values[k] || *end != '\0' || !std::isfinite(v) || v < 0 || (!f->zero_ok && v <= 0) ||
        v > 1e18 || (f->i && v != std::floor(v))) {
      error = std::string(names[k]) + " = \"" + values[k] + "\": must be a " +
              (f->zero_ok ? "non-negative " : "positive ") + (f->i ? "whole number" : "number");
      return false;
    }
    if (f->d) *f->d = v;
    if (f->i) *f->i = static_cast<int>(v);
  }
  m.ffn = gated ? Ffn::Gated : Ffn::Mlp;
  s.prune = prune != 0;
  bool* const flags[] = {&s.search_cp, &s.search_vpp,     &s.search_recompute, &s.search_zero,
                         &s.search_sp, &s.search_overlap, &s.search_offload};
  for (int k = 0; k < 7; ++k) *flags[k] = dims[k] != 0;
  if (s.max_memory_fraction > 1) {
    error = "max_memory_fraction must be at most 1";
    return false;
  }
  return true;
}

}  // namespace napkin
