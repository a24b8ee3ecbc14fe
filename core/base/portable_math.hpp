// Natural log and exp from + − × ÷ alone, so native and wasm results agree to the bit: the C
// libraries' std::log and std::exp differ in their last bits (glibc natively, musl in wasm),
// and the tests compare the two builds exactly. Accurate to a few ulp, which is all any
// estimate here needs.
#pragma once

#include <cmath>

namespace napkin {

inline constexpr double kLn2 = 0.6931471805599453;

// ln x = e · ln 2 + 2 · atanh(s), s = (m − 1)/(m + 1), for x = m · 2^e with m in [√½, √2)
// (|s| ≤ 0.172, so 14 odd terms of the series reach double precision).
inline double portable_log(double x) {
  if (!(x > 0)) return x == 0 ? -HUGE_VAL : NAN;
  if (x == HUGE_VAL) return x;
  int e = 0;
  double m = std::frexp(x, &e);  // exact
  if (m < 0.7071067811865476) m *= 2, e -= 1;
  const double s = (m - 1) / (m + 1), s2 = s * s;
  double term = s, sum = 0;
  for (int k = 1; k <= 29; k += 2) sum += term / k, term *= s2;
  return e * kLn2 + 2 * sum;
}

// e^x = 2^k · e^r, k = round(x / ln 2), |r| ≤ ln 2 / 2 (ln 2 split in two parts so r is exact
// enough), e^r by its Taylor series to 20 terms.
inline double portable_exp(double x) {
  if (x > 709.8) return HUGE_VAL;
  if (x < -745.2) return 0;
  const double k = std::round(x / kLn2);
  const double r = (x - k * 0.693145751953125) - k * 1.4286068203094173e-06;
  double term = 1, sum = 1;
  for (int n = 1; n <= 20; ++n) term *= r / n, sum += term;
  return std::ldexp(sum, static_cast<int>(k));
}

// e^x − 1 without the cancellation of portable_exp(x) − 1 for small x: its Taylor series
// x + x²/2! + … (20 terms) below |x| = ½.
inline double portable_expm1(double x) {
  if (!(std::fabs(x) < 0.5)) return portable_exp(x) - 1;
  double term = x, sum = x;
  for (int n = 2; n <= 20; ++n) term *= x / n, sum += term;
  return sum;
}

}  // namespace napkin
