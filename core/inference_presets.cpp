// Charts and presets for the inference, serving and RL estimators (filled in below).
#include "inference.hpp"

namespace napkin {

void register_inference_extras(Registry&) {}

}  // namespace napkin
