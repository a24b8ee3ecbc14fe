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
double mgc_mean_wait(double C, double c, double a, double service, double cs2) {
  if (a <= 0) return 0;
  return C * service / (c - a) * (1 + cs2) / 2;
}
double mgc_mean_wait(double c, double a, double service, double cs2) {
  return mgc_mean_wait(erlang_c(c, a), c, a, service, cs2);
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

// Time to first token = wait + own prefill. Under first-come-first-served a request's wait is
// set by the requests ahead of it, its prefill by its own prompt, so the two are independent
// (the sojourn time of GI/G/c FCFS; Kleinrock 1975 §1.3); the p90 of the sum is below the sum
// of the p90s whenever both vary. With P(W > x) = C·e^{−x/w} and T discrete,
//   F(x) = P(W + T > x) = Σ_{t_j > x} p_j + C · Σ_{t_j ≤ x} p_j · e^{−(x − t_j)/w},
// decreasing and right-continuous; on [t_k, t_{k+1}) it is Q_k + C·A_k·e^{−(x − t_k)/w} with
// Q_k = Σ_{j>k} p_j and A_k = Σ_{j≤k} p_j · e^{−(t_k − t_j)/w}, solved for F = 1 − p in closed
// form, segment by segment from the top. With T constant it is t + wait_quantile: exact then.
double wait_plus_quantile(double C, double w, const double* t, const double* prob, int n,
                          double p) {
  constexpr int kMost = 16;
  n = std::min(n, kMost);
  double ts[kMost], ps[kMost];
  int m = 0;
  for (int i = 0; i < n; ++i) {  // insertion sort by time, zero weights dropped
    if (!(prob[i] > 0)) continue;
    int j = m++;
    for (; j > 0 && ts[j - 1] > t[i]; --j) ts[j] = ts[j - 1], ps[j] = ps[j - 1];
    ts[j] = t[i], ps[j] = prob[i];
  }
  if (m == 0) return 0;
  if (!(w > 0)) C = 0;
  const double alpha = 1 - p;
  double above = 0;  // Q_k
  for (int k = m - 1; k >= 0; --k) {
    double a = 0;
    for (int j = 0; j <= k && C > 0; ++j) a += ps[j] * portable_exp(-(ts[k] - ts[j]) / w);
    const double f = above + C * a;  // F(t_k)
    if (f > alpha) {
      // The quantile lies past t_k: at t_{k+1} if F stays above 1 − p up to it.
      const double next = k + 1 < m ? ts[k + 1] : HUGE_VAL;
      if (above >= alpha) return next;
      return std::min(next, ts[k] + w * portable_log(C * a / (alpha - above)));
    }
    above += ps[k];
  }
  return ts[0];
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
