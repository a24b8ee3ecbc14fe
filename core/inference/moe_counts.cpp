#include "inference/moe_counts.hpp"

namespace napkin {

Result<double> moe_active_params(const MoeCounts& in, double params) {
  // A dense model computes with every weight; its active_params (a preset gives it) is ignored.
  if (in.experts == 0) return params;
  if (in.top_k < 1 || in.top_k > in.experts)
    return Error::inconsistent("top_k", in.top_k,
                               "must be from 1 to the experts (" +
                                   format_value(in.experts, unit::none) + ") for an MoE model");
  if (in.active_params <= 0 || in.active_params > params)
    return Error::inconsistent("active_params", in.active_params,
                               "an MoE model needs its active parameters, more than 0 and at "
                               "most params (" +
                                   format_value(params, unit::params) + ")");
  return in.active_params;
}

}  // namespace napkin
