// Practice problems of the comm area (see "How to add a problem" in problems.hpp).
#include "problems.hpp"

namespace napkin {

void register_comm_problems(ProblemBank&) {}

}  // namespace napkin
