// Whole counts (GPUs, replicas) from ratios computed in floating point.
#pragma once

#include <cmath>

namespace napkin {

// How far from a whole number a computed count may drift and still be that number: one part
// in 1e9 (inputs carry far fewer significant digits), capped so that a genuine fraction of a
// large count still rounds up.
inline double count_tolerance(double x) {
  return std::fmin(1e-9 * std::fmax(1.0, std::fabs(x)), 1e-3);
}

// Rounds a count up without being fooled by floating point: 10000 / (20 / 0.07) evaluates to
// 35.00000000000001 and must be 35 GPUs, not 36 (likewise 30000 / (20 / 0.03) is 45, not 46).
inline double ceil_count(double x) {
  const double r = std::round(x);
  return std::fabs(x - r) <= count_tolerance(x) ? r : std::ceil(x);
}

// The same tolerance rounding down (e.g. GPUs left for training after a split).
inline double floor_count(double x) {
  const double r = std::round(x);
  return std::fabs(x - r) <= count_tolerance(x) ? r : std::floor(x);
}

}  // namespace napkin
