// Each area's registration function, declared once: the areas define them (each file registers
// its own estimators, charts and presets), and the composition root, root/registrations.cpp,
// calls them. Only declarations: nothing here knows an area's types.
#pragma once

namespace napkin {

class Registry;

// registrations.cpp calls them all, in the order the page shows them. No area calls another's.
void register_catalog(Registry& r);              // scenario/catalog.cpp: models, GPUs, links
void register_training(Registry& r);             // training/training.cpp
void register_checkpointing(Registry& r);        // training/checkpointing.cpp
void register_memory(Registry& r);               // memory/memory.cpp
void register_lora(Registry& r);                 // memory/lora.cpp
void register_pipeline(Registry& r);             // memory/pipeline.cpp
void register_memory_charts(Registry& r);        // memory/memory_charts.cpp
void register_comm(Registry& r);                 // comm/comm.cpp
void register_comm_tp(Registry& r);              // comm/comm_tp.cpp
void register_gemm(Registry& r);                 // comm/gemm_estimator.cpp
void register_inference(Registry& r);            // inference/inference.cpp
void register_inference_extras(Registry& r);     // inference/inference_presets.cpp
void register_serving(Registry& r);              // inference/serving.cpp
void register_serve_engine(Registry& r);         // inference/serve_engine.cpp
void register_serve_capacity(Registry& r);       // inference/serve_capacity.cpp
void register_serve_speculative(Registry& r);    // inference/serve_speculative.cpp
void register_serve_prefix_cache(Registry& r);   // inference/serve_prefix_cache.cpp
void register_serve_disaggregated(Registry& r);  // inference/serve_disaggregated.cpp
void register_serve_moe(Registry& r);            // inference/serve_moe.cpp
void register_rl(Registry& r);                   // inference/rl.cpp
void register_rl_step(Registry& r);              // inference/rl_step_estimator.cpp

// The one registration list (root/registrations.cpp).
void register_all(Registry& r);

}  // namespace napkin
