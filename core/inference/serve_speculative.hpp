// serve.speculative: speculative decoding's tokens per target step, speedup and best draft
// length (Leviathan et al. 2023). Formulas in core/scenario/speculative.cpp and
// docs/serving.md.
#pragma once

#include "registry/registry.hpp"

namespace napkin {

struct ServeSpeculativeIn {
  double params = 70553706496;       // the target: Llama 3 70B (the llama3-70b preset)
  double draft_params = 8030261248;  // the draft: Llama 3 8B
  double active_params = 0;          // the target's weights per token; 0 = params (dense)
  double draft_active_params = 0;    // the draft's weights per token; 0 = draft_params (dense)
  double cost_ratio = 0;             // one draft step ÷ one target step; 0 = from the params
  double acceptance_rate = 0.8;      // α: chance the target accepts a drafted token
  double draft_len = 0;              // k tokens drafted per step; 0 = the best
  double max_draft_len = 16;         // the best k is searched in 1…this
  double tpot = 0;                   // the target's time per token alone (0 = not given)
};

struct ServeSpeculativeOut {
  double expected_tokens_per_step, speedup, best_draft_len, best_speedup, draft_len, cost_ratio,
      tpot_speculative;
};

Result<ServeSpeculativeOut> serve_speculative(const ServeSpeculativeIn& in, Derivation& d);

void register_serve_speculative(Registry& r);

}  // namespace napkin
