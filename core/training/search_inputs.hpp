// The layout search's inputs (docs/training.md, search), for the JS API and the page's Plan card.
#pragma once

#include <vector>

#include "base/json.hpp"

namespace napkin {
class Registry;
struct InputSpec;
// train.step's inputs that the search reads, then its own (GPUs, memory share, dimensions).
std::vector<InputSpec> search_input_specs(const Registry& reg);
// {"estimator", "title", "summary", "inputs", "layout", "outputs"}: the ranking estimator's id,
// the inputs above, and what each result row holds (its layout inputs and outputs), as
// `list()` gives estimators'.
Json search_inputs_json(const Registry& reg);
}  // namespace napkin
