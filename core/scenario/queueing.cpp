// Queueing formulas for request serving. Sources above each formula.
#include "scenario/queueing.hpp"

#include <algorithm>
#include <cmath>

#include "base/portable_math.hpp"

namespace napkin {

namespace {
// The standard normal's 90th percentile, Φ⁻¹(0.9).
constexpr double kZ90 = 1.2815515655446004;
}  // namespace

// Erlang C through the Erlang B recursion (Kleinrock 1975, Queueing Systems Vol. 1, §3.5,
// M/M/m; C = B / (1 − ρ(1 − B))), written for I = 1/B: I(k) = 1 + (k/a)·I(k−1), I(0) = 1.
// Below k = a each step multiplies an error in I by k/a < 1, so the loop may start from
// k₀ = a − 10√a − 10 with the fluid guess I ≈ a/(a − k₀): the guess's error shrinks by
// e^{−50} before k reaches a. Above a, I grows faster than exponentially; once it passes
// 1e300, B and C are 0 to double precision. So thousands of slots cost a few hundred steps.
double erlang_c(double c, double a) {
  if (a <= 0) return 0;
  if (a >= c) return 1;
  const double k0 = std::max(0.0, std::floor(a - 10 * std::sqrt(a) - 10));
  double inv = k0 > 0 ? a / (a - k0) : 1;
  const double n = std::floor(c);
  for (double k = k0 + 1; k <= n; ++k) {
    inv = 1 + (k / a) * inv;
    if (inv > 1e300) return 0;
  }
  const double b = 1 / inv;
  return b / (1 - (a / c) * (1 - b));
}

// Allen–Cunneen (Allen 1990, Probability, Statistics, and Queueing Theory, 2nd ed., Academic
// Press; reviewed in Whitt 1993, "Approximations for the GI/G/m queue", Production and
// Operations Management 2(2):114–161): W_q(GI/G/c) ≈ W_q(M/M/c) · (c_a² + c_s²) / 2, with
// W_q(M/M/c) = C · S / (c − a) and c_a² = 1 for Poisson arrivals. Exact for M/M/c (c_s² = 1) and,
// at c = 1, the Pollaczek–Khinchine mean wait ρ·S·(1 + c_s²) / (2·(1 − ρ)).
double mgc_mean_wait(double c, double a, double service, double cs2) {
  if (a <= 0) return 0;
  return erlang_c(c, a) * service / (c - a) * (1 + cs2) / 2;
}

// P(W > t) = C · e^{−t / w}, w = W_q / C: exact for M/M/c (w = 1 / (cμ − λ), Kleinrock §3.5);
// for M/G/c the conditional wait is taken as exponential with the Allen–Cunneen mean (the
// form Whitt 1993 uses for the GI/G/m wait's distribution), an assumption, not exact. The
// p-quantile is 0 when fewer than 1 − p requests wait.
double wait_quantile(double c, double a, double mean_wait, double p) {
  const double C = erlang_c(c, a);
  if (C <= 1 - p || mean_wait <= 0) return 0;
  return mean_wait / C * portable_log(C / (1 - p));
}

// A lognormal X = e^{μ + σZ}: mean e^{μ + σ²/2}, p90 e^{μ + z·σ}, so ln(p90 / mean) = z·σ − σ²/2
// (Johnson, Kotz & Balakrishnan 1994, Continuous Univariate Distributions, ch. 14; the logs
// and exps are portable_math.hpp's, bit-identical natively and in wasm). The smaller
// root, σ = z − √(z² − 2·ln(p90 / mean)), keeps the p90 above the median.
double lognormal_sigma(double mean, double p90) {
  const double l = portable_log(p90 / mean);
  const double disc = kZ90 * kZ90 - 2 * l;
  if (l < 0 || disc < 0) return -1;
  return kZ90 - std::sqrt(disc);
}

double lognormal_cv2(double sigma) {
  return portable_exp(sigma * sigma) - 1;
}

// ln(p90 / mean) = z·σ − σ²/2 is largest at σ = z.
double lognormal_widest_sigma() {
  return kZ90;
}

double lognormal_max_p90_ratio() {
  return portable_exp(kZ90 * kZ90 / 2);
}

}  // namespace napkin
