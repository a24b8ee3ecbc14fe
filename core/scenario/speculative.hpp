// Speculative decoding (Leviathan et al. 2023, "Fast Inference from Transformers via
// Speculative Decoding", ICML): a draft model proposes k tokens, the target checks them in one
// step. The one place these are computed (serve.speculative calls them).
#pragma once

namespace napkin {

// Expected tokens one target step produces with k drafted tokens, each accepted with
// probability α (independently): (1 − α^(k+1)) / (1 − α); k + 1 at α = 1.
double speculative_tokens_per_step(double alpha, int k);

// Walltime speedup over plain decoding when one draft step costs c target steps:
// tokens per step / (k·c + 1).
double speculative_speedup(double alpha, int k, double c);

// The draft length in 1…k_max with the largest speedup (the smallest on ties).
int best_draft_len(double alpha, double c, int k_max);

}  // namespace napkin
