// Each area of the catalog registers its estimators, charts and presets here.
#pragma once

namespace napkin {

class Registry;

void register_catalog(Registry& r);    // hardware and model presets (catalog.cpp)
void register_training(Registry& r);   // training.cpp
void register_memory(Registry& r);     // memory.cpp
void register_comm(Registry& r);       // comm.cpp
void register_inference(Registry& r);  // inference.cpp

}  // namespace napkin
