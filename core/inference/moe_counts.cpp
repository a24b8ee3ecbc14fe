#include "inference/moe_counts.hpp"

namespace napkin {

Result<double> moe_active_params(const MoeCounts& in, double params, Derivation& d) {
  // A dense model computes with every weight. An active count typed below the total is an
  // MoE whose experts were not described (DeepSeek-V3 as 671B with 37B active): used, not
  // ignored (issue #27); at or above the total it is a dense model's own count.
  if (in.experts == 0) {
    if (in.active_params > 0 && in.active_params < params) {
      d.note("Active parameters", "As given: " + format_value(in.active_params, "param") + " of " +
                                      format_value(params, "param") + " compute with each token.");
      return in.active_params;
    }
    return params;
  }
  if (in.active_params == 0) {
    d.warn(
        "Routed experts are given without the active parameters (active_params): every "
        "weight is counted as active, as in a dense model.");
    return params;
  }
  if (in.top_k < 1 || in.top_k > in.experts)
    return Error::inconsistent("top_k", in.top_k,
                               "must be from 1 to the experts (" +
                                   format_value(in.experts, unit::none) + ") for an MoE model");
  if (in.active_params > params)
    return Error::inconsistent("active_params", in.active_params,
                               "must be at most params (" + format_value(params, unit::params) +
                                   "): the active parameters are a part of all of them");
  return in.active_params;
}

bool is_moe(const MoeCounts& in) {
  return in.experts > 0 && in.active_params > 0;
}

}  // namespace napkin
