// What the layout search takes (SPEC §9), declared once for the JS API and the page's Plan
// card: train.step's model, cluster and job inputs that the search reads (their labels, help
// and ranges as train.step declares them), then the search's own constraints and dimensions.
#include "training/search_inputs.hpp"

#include "base/units.hpp"
#include "registry/registry.hpp"
#include "training/search.hpp"
#include "training/train_step.hpp"

namespace napkin {
namespace {

InputSpec own(const char* name, const char* label, const char* help, Json example) {
  InputSpec s;
  s.name = name;
  s.label = label;
  s.help = help;
  s.kind = example.is_bool() ? InputKind::Boolean : InputKind::Number;
  s.fallback = s.example = std::move(example);
  return s;
}

// The estimator the search ranks layouts by: the registry's, or (until it is listed) its own
// declaration, so labels, units and help come from the one place either way.
const Estimator* ranking(const Registry& reg, Registry& scratch) {
  if (const Estimator* e = reg.find("train.step")) return e;
  register_train_step(scratch);
  return scratch.find("train.step");
}

bool search_reads(const std::string& name) {
  SearchSpec probe;
  std::string error;
  const char* n = name.c_str();
  const char* one = "1";
  return search_spec_from_args(&n, &one, 1, probe, error);
}

}  // namespace

std::vector<InputSpec> search_input_specs(const Registry& reg) {
  std::vector<InputSpec> out;
  const SearchSpec d;
  InputSpec gpus =
      own("gpus", "GPUs", "GPUs the job runs on; every layout uses all of them.", Json(d.gpus));
  gpus.unit = unit::gpus;
  gpus.integer = true;
  gpus.min = 1;
  gpus.max = 1e6;
  out.push_back(gpus);
  Registry scratch;
  if (const Estimator* step = ranking(reg, scratch))
    for (const InputSpec& s : step->inputs)
      if (search_reads(s.name)) out.push_back(s);
  InputSpec frac = own("max_memory_fraction", "Memory a layout may use",
                       "The share of each GPU's memory a layout may fill; the rest is headroom "
                       "for fragmentation and the framework.",
                       Json(d.max_memory_fraction));
  frac.unit = unit::fraction;
  frac.min = 0;
  frac.min_exclusive = true;
  frac.max = 1;
  out.push_back(frac);
  out.push_back(own("search_cp", "Context parallel",
                    "Also split each sequence over GPUs (CP); "
                    "off keeps CP = 1.",
                    Json(d.search_cp)));
  out.push_back(own("search_vpp", "Interleaved stages",
                    "Also try 2, 4 and 8 virtual pipeline "
                    "stages per GPU; off keeps one.",
                    Json(d.search_vpp)));
  out.push_back(own("search_recompute", "Recomputation",
                    "Try none, selective and full "
                    "activation recomputation; off keeps selective.",
                    Json(d.search_recompute)));
  out.push_back(own("search_zero", "ZeRO stages", "Try ZeRO stages 0 to 3; off keeps stage 1.",
                    Json(d.search_zero)));
  out.push_back(own("search_sp", "Sequence parallelism",
                    "Try with and without it where TP > 1; "
                    "off uses it wherever TP > 1.",
                    Json(d.search_sp)));
  out.push_back(own("search_overlap", "Overlaps",
                    "Try overlapping DP and TP communication or "
                    "not; off overlaps DP only.",
                    Json(d.search_overlap)));
  out.push_back(own("search_offload", "Optimizer offload",
                    "Also try optimizer state in host "
                    "memory, where the GPU has host memory.",
                    Json(d.search_offload)));
  return out;
}

Json search_inputs_json(const Registry& reg) {
  Json j = Json::object();
  j.add("estimator", "train.step");
  j.add("title", "Plan a training layout");
  j.add("summary",
        "Every TP × PP × DP × CP layout of a job, with microbatch, recomputation, ZeRO and "
        "overlaps, ranked by the step time of the whole-step card; run in the background.");
  Registry scratch;
  const Estimator* step = ranking(reg, scratch);
  Json ins = Json::array();
  for (const InputSpec& s : search_input_specs(reg)) {
    Json x = s.to_json();
    // The search's own switches: which dimensions it tries.
    if (s.kind == InputKind::Boolean && !(step && step->input(s.name))) x.set("dimension", true);
    ins.push(std::move(x));
  }
  j.add("inputs", std::move(ins));
  // What each result row holds: the layout (the ranking estimator's other inputs) and its
  // outputs, with their labels and units.
  Json layout = Json::array(), outs = Json::array();
  if (step) {
    for (const InputSpec& s : step->inputs)
      if (!search_reads(s.name)) layout.push(s.to_json());
    for (const OutputSpec& o : step->outputs) outs.push(o.to_json());
  }
  j.add("layout", std::move(layout));
  j.add("outputs", std::move(outs));
  return j;
}

}  // namespace napkin
