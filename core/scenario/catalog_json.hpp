// The typed scenario presets as JSON, for `napkin models` / `napkin hardware`, the JS API's
// models() and hardware(), and the page.
#pragma once

#include "base/json.hpp"

namespace napkin {

Json models_json();  // every model preset: its fields, source and derived quantities
Json gpus_json();    // every accelerator: peaks per dtype, HBM, bandwidth, source
Json tiers_json();   // every network tier: bandwidth, latency, in-switch reduction

}  // namespace napkin
