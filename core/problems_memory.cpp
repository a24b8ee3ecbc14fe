// Practice problems of the memory area (see "How to add a problem" in problems.hpp).
#include "problems.hpp"

namespace napkin {

void register_memory_problems(ProblemBank&) {}

}  // namespace napkin
