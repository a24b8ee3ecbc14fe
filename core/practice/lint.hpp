// `napkin lint FILE`: what an author's problem file gets wrong before a student sees it.
#pragma once

#include <string_view>

#include "practice/problems.hpp"

namespace napkin {

// Loads the file into a bank of its own and checks each problem over seeds 0-50: the file reads
// (every field, every expression), each variant builds, every {name} in the statement names a
// parameter, the answer is not one of the givens as the statement shows them, no named mistake
// gives the key at seed 0, a choice's or an order's key changes with the seed, and seeds 1-20 have
// the declared variety of answers. {"problems": n, "errors": [...], "warnings": [...]}; `ok` is
// false when there is an error.
Reply lint_reply(std::string_view json_text);

}  // namespace napkin
