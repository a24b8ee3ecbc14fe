// Speculative decoding's expected tokens and speedup. Source above each formula.
#include "scenario/speculative.hpp"

#include <cmath>

namespace napkin {

// Leviathan et al. 2023, eq. 1: with β i.i.d. acceptance of mean α, the tokens per iteration
// are capped geometric: E = (1 − α^(γ+1)) / (1 − α). Summed as 1 + α + … + α^k, which is the
// same and stays exact as α → 1.
double speculative_tokens_per_step(double alpha, int k) {
  double sum = 0, term = 1;
  for (int i = 0; i <= k; ++i) sum += term, term *= alpha;
  return sum;
}

// Leviathan et al. 2023, Theorem 3.8: the expected walltime improvement is
// (1 − α^(γ+1)) / ((1 − α)(γc + 1)), c the ratio of one draft run's time to one target run's
// (the target's check of γ + 1 tokens costs one target run: decode is bandwidth-bound).
double speculative_speedup(double alpha, int k, double c) {
  return speculative_tokens_per_step(alpha, k) / (k * c + 1);
}

int best_draft_len(double alpha, double c, int k_max) {
  int best = 1;
  for (int k = 2; k <= k_max; ++k)
    if (speculative_speedup(alpha, k, c) > speculative_speedup(alpha, best, c) * (1 + 1e-12))
      best = k;
  return best;
}

}  // namespace napkin
