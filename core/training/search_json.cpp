// The search result as JSON, built once after the typed loop (docs/training.md, search).
#include <algorithm>

#include "base/json.hpp"
#include "training/calculon_space.hpp"
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
  layout.add("placement", kPlacementNames[l.placement]);
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
  Json j = Json::object();
  j.add("total", r.total);
  // The layouts Calculon's search would visit for the same job (training/calculon_space.hpp).
  CalculonJob cj;
  cj.gpus = spec.gpus;
  cj.max_batch = static_cast<long long>(spec.job.global_batch);
  cj.hidden = static_cast<long long>(spec.model.d_model);
  cj.attn_heads = spec.model.heads;
  cj.blocks = spec.model.layers;
  cj.seq = static_cast<long long>(spec.job.seq_len);
  cj.host_memory = spec.cluster.gpu.host_memory > 0;
  j.add("calculon_space", calculon_space(cj));
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
