// What the layout search takes (docs/training.md, search), declared once for the JS API and the
// page's Plan card: train.step's model, cluster and job inputs that the search reads (their labels,
// help and ranges as train.step declares them), then the search's own constraints and dimensions;
// and the one parse of them that the CLI and the wasm API share.
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

// The dimensions the search may try or pin, each a switch of SearchSpec.
struct Dimension {
  const char* name;
  const char* label;
  const char* help;
  bool SearchSpec::*field;
};
constexpr Dimension kDimensions[] = {
    {"search_cp", "Context parallel", "Also split each sequence over GPUs (CP); off keeps CP = 1.",
     &SearchSpec::search_cp},
    {"search_vpp", "Interleaved stages",
     "Also try 2, 4 and 8 virtual pipeline stages per GPU; off keeps one.",
     &SearchSpec::search_vpp},
    {"search_recompute", "Recomputation",
     "Try none, selective and full activation recomputation; off keeps selective.",
     &SearchSpec::search_recompute},
    {"search_zero", "ZeRO stages", "Try ZeRO stages 0 to 3; off keeps stage 1.",
     &SearchSpec::search_zero},
    {"search_sp", "Sequence parallelism",
     "Try with and without it where TP > 1; off uses it wherever TP > 1.", &SearchSpec::search_sp},
    {"search_overlap", "Overlaps",
     "Try overlapping DP and TP communication or not; off overlaps DP only.",
     &SearchSpec::search_overlap},
    {"search_offload", "Optimizer offload",
     "Also try optimizer state in host memory, where the GPU has host memory.",
     &SearchSpec::search_offload},
    {"search_placement", "Placement",
     "Try every rank order of the CP, DP and PP groups, which decides the groups that talk "
     "inside a node; off keeps Megatron's default (TP, CP, DP, PP).",
     &SearchSpec::search_placement},
};

// The search's own inputs: the GPU count, the memory share, then the dimension switches.
std::vector<InputSpec> own_specs() {
  const SearchSpec d;
  std::vector<InputSpec> out;
  InputSpec gpus =
      own("gpus", "GPUs", "GPUs the job runs on; every layout uses all of them.", Json(d.gpus));
  gpus.unit = unit::gpus;
  gpus.integer = true;
  gpus.min = 1;
  gpus.max = 1e6;
  out.push_back(gpus);
  InputSpec frac = own("max_memory_fraction", "Memory a layout may use",
                       "The share of each GPU's memory a layout may fill; the rest is headroom "
                       "for fragmentation and the framework.",
                       Json(d.max_memory_fraction));
  frac.unit = unit::fraction;
  frac.min = 0;
  frac.min_exclusive = true;
  frac.max = 1;
  out.push_back(frac);
  for (const Dimension& x : kDimensions)
    out.push_back(own(x.name, x.label, x.help, Json(d.*x.field)));
  return out;
}

const Estimator& ranking(const Registry& reg) {
  return *reg.find("train.step");
}

// What the search reads of train.step: everything but the layout, which it chooses.
bool search_reads(const InputSpec& s) {
  return s.group != "layout";
}

}  // namespace

std::vector<InputSpec> search_input_specs(const Registry& reg) {
  std::vector<InputSpec> ours = own_specs(), out;
  out.push_back(ours.front());  // GPUs first: the question starts there
  for (const InputSpec& s : ranking(reg).inputs)
    if (search_reads(s)) out.push_back(s);
  out.insert(out.end(), ours.begin() + 1, ours.end());
  return out;
}

bool search_spec_from_inputs(const Registry& reg, const Json& inputs, SearchSpec& spec,
                             Error& err) {
  if (!inputs.is_object()) {
    err.code = "invalid_value";
    err.message = "the search's inputs must be a JSON object of name: value";
    return false;
  }
  const Estimator& step = ranking(reg);
  const std::vector<InputSpec> ours = own_specs();
  Json step_inputs = Json::object();
  for (const auto& [name, raw] : inputs.members()) {
    const InputSpec* mine = nullptr;
    for (const InputSpec& s : ours)
      if (s.name == name) mine = &s;
    if (mine) {
      Json v;
      if (!validate_input(*mine, raw, v, err)) return false;
      if (name == "gpus") spec.gpus = static_cast<int>(v.as_number());
      if (name == "max_memory_fraction") spec.max_memory_fraction = v.as_number();
      for (const Dimension& x : kDimensions)
        if (name == x.name) spec.*x.field = v.as_bool();
      continue;
    }
    const InputSpec* theirs = step.input(name);
    const bool preset = name == "model" || name == "gpu" || name == "link";
    if (!preset && (!theirs || !search_reads(*theirs))) {
      std::string names;
      for (const InputSpec& s : search_input_specs(reg))
        names += (names.empty() ? "" : ", ") + s.name;
      err.code = "unknown_input";
      err.input = name;
      err.value = raw;
      err.allowed = names;
      err.message =
          theirs ? name +
                       " is part of the layout, which the search chooses; give the "
                       "search the job, and open a layout to set it"
                 : "unknown input \"" + name + "\" for the layout search; inputs are: " + names;
      return false;
    }
    step_inputs.set(name, raw);
  }
  Json clean;
  if (!reg.validate(step.info.id, step_inputs, clean, err)) return false;
  TrainStepIn in;
  step.fill(&in, clean);
  Result<StepScenario> scenario = step_scenario(in);
  if (!scenario.ok()) {
    err = scenario.error();
    return false;
  }
  const StepScenario& sc = scenario.value();
  spec.model = sc.model;
  spec.cluster = sc.cluster;
  spec.job = sc.job;
  return true;
}

Json search_run(const Registry& reg, const Json& inputs, SearchProgress progress, void* ctx) {
  SearchSpec spec;
  Error err;
  if (!search_spec_from_inputs(reg, inputs, spec, err)) {
    Json j = Json::object();
    j.set("error", err.to_json());
    return j;
  }
  return search_json(spec, search_layouts(spec, progress, ctx));
}

Json search_inputs_json(const Registry& reg) {
  Json j = Json::object();
  const Estimator& step = ranking(reg);
  j.add("estimator", std::string(step.info.id));
  j.add("title", "Plan a training layout");
  j.add("summary",
        "Every TP × PP × DP × CP layout of a job, with microbatch, recomputation, ZeRO and "
        "overlaps, ranked by the step time of the whole-step card; run in the background.");
  Json ins = Json::array();
  for (const InputSpec& s : search_input_specs(reg)) {
    Json x = s.to_json();
    // The search's own switches: which dimensions it tries.
    if (s.kind == InputKind::Boolean && !step.input(s.name)) x.set("dimension", true);
    ins.push(std::move(x));
  }
  j.add("inputs", std::move(ins));
  // What each result row holds: the layout (the ranking estimator's other inputs) and its
  // outputs, with their labels and units.
  Json layout = Json::array(), outs = Json::array();
  for (const InputSpec& s : step.inputs)
    if (!search_reads(s)) layout.push(s.to_json());
  for (const OutputSpec& o : step.outputs) outs.push(o.to_json());
  j.add("layout", std::move(layout));
  j.add("outputs", std::move(outs));
  return j;
}

}  // namespace napkin
