// Queueing of requests at a server with c slots, Poisson arrivals: Erlang C, the Allen–Cunneen
// M/G/c wait, its percentiles, and request lengths given as a mean and a p90. The one place
// these are computed (serve.capacity calls them). Sources above each formula in queueing.cpp.
#pragma once

namespace napkin {

// Probability that an arrival waits in M/M/c with offered load a = λ·S (Erlang C); 0 ≤ a < c.
double erlang_c(double c, double a);

// Mean wait in the queue of M/G/c (Allen–Cunneen): c slots, offered load a = λ·S, mean service
// time S with squared coefficient of variation cs2. Poisson arrivals; requires a < c.
double mgc_mean_wait(double c, double a, double service, double cs2);
// The same with the Erlang C value C = erlang_c(c, a) already at hand.
double mgc_mean_wait(double C, double c, double a, double service, double cs2);

// The p-quantile of that wait (0 < p < 1): a request waits with probability C = erlang_c(c, a),
// and then for an exponential time with the mean that makes the overall mean `mean_wait`.
double wait_quantile(double c, double a, double mean_wait, double p);

// The p-quantile of a request's time to first token W + T: W its wait (0 with probability C's
// complement, else exponential with mean w = W_q / C, as wait_quantile), T its own prefill,
// independent of W, taking t[i] with probability prob[i] (n ≤ 16 points; probs sum to 1).
double wait_plus_quantile(double C, double w, const double* t, const double* prob, int n, double p);

// A lognormal length with this mean and p90 (p90 ≥ mean): its σ, or a negative value when no
// lognormal has a p90 that far above its mean (p90 > e^{z²/2} · mean ≈ 2.27 · mean).
double lognormal_sigma(double mean, double p90);
// Squared coefficient of variation of a lognormal with this σ: e^{σ²} − 1.
double lognormal_cv2(double sigma);
// The σ of the lognormal whose p90 is furthest above its mean: z, the standard normal's p90.
double lognormal_widest_sigma();
// The largest p90 / mean a lognormal reaches, e^{z²/2} with z the standard normal's p90.
double lognormal_max_p90_ratio();

}  // namespace napkin
