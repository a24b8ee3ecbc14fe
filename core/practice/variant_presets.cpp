#include "practice/variant_presets.hpp"

#include <algorithm>

#include "practice/problems.hpp"

namespace napkin {

const std::vector<double>& preset_param_counts() {
  static const std::vector<double> counts = [] {
    std::vector<double> v;
    for (const ModelPreset* m = model_presets_begin(); m != model_presets_end(); ++m)
      v.push_back(model_params(m->model).total);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  }();
  return counts;
}

const std::vector<const ModelPreset*>& dense_model_presets() {
  static const std::vector<const ModelPreset*> list = [] {
    std::vector<const ModelPreset*> v;
    for (const ModelPreset* m = model_presets_begin(); m != model_presets_end(); ++m)
      if (m->model.experts == 0) v.push_back(m);
    return v;
  }();
  return list;
}

const std::vector<const Gpu*>& accelerator_presets() {
  static const std::vector<const Gpu*> list = [] {
    std::vector<const Gpu*> v;
    for (const Gpu* g = gpus_begin(); g != gpus_end(); ++g)
      if (g->peak_bf16 > 0 && g->hbm_bandwidth > 0) v.push_back(g);
    return v;
  }();
  return list;
}

void accelerator_of_preset(Values& p) {
  const auto& gpus = accelerator_presets();
  const double i = p["gpu"];
  if (i < 0 || i >= static_cast<double>(gpus.size())) return;
  const Gpu& g = *gpus[static_cast<std::size_t>(i)];
  p.set("peak_flops", g.peak_bf16);
  p.set("mem_bandwidth", g.hbm_bandwidth);
  p.set("gpu_memory", g.hbm_bytes);
}

std::vector<double> indices(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>(i);
  return v;
}

}  // namespace napkin
