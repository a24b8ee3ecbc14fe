// Practice problems of the inference area (see "How to add a problem" in problems.hpp).
#include "problems.hpp"

namespace napkin {

void register_inference_problems(ProblemBank&) {}

}  // namespace napkin
