// The composition root: the one code that knows every area. register_all is the one
// registration list (every area's estimators, charts and presets, in the order the page shows
// them), and registry() the registry it fills. Adding an estimator file means adding its line
// here, and nowhere else; core/registry/ knows no area.
#include "registry/registry.hpp"
#include "root/areas.hpp"
#include "training/train_step.hpp"

namespace napkin {

void register_all(Registry& r) {
  register_catalog(r);
  register_training(r);
  register_train_step(r);
  register_checkpointing(r);
  register_memory(r);
  register_lora(r);
  register_pipeline(r);
  register_memory_charts(r);
  register_comm(r);
  register_comm_tp(r);
  register_gemm(r);
  register_inference(r);
  register_inference_extras(r);
  register_serving(r);
  register_serve_engine(r);
  register_serve_capacity(r);
  register_serve_speculative(r);
  register_serve_prefix_cache(r);
  register_serve_disaggregated(r);
  register_serve_moe(r);
  register_rl(r);
  register_rl_step(r);
}

const Registry& registry() {
  static const Registry reg = [] {
    Registry r;
    register_all(r);
    return r;
  }();
  return reg;
}

}  // namespace napkin
