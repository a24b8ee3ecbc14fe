// A mixture of experts by its parameter counts, for the inference estimators that take a
// model's size rather than its shape (infer.latency, infer.decode, serve.llm_gpus,
// rl.throughput): the inputs declared once, and their check. A model preset fills them
// (active_params, experts, top_k); experts = 0 is a dense model. The per-step weight read is
// params_read_per_step (core/scenario/model.hpp).
#pragma once

#include <vector>

#include "base/units.hpp"
#include "registry/registry.hpp"

namespace napkin {

struct MoeCounts {
  double active_params = 0;  // parameters one token computes with; 0 = all (dense)
  double experts = 0;        // routed experts per MoE layer; 0 = dense
  double top_k = 0;          // routed experts per token
};

// The three inputs, bound to an input struct In that derives from MoeCounts.
template <class In>
std::vector<InputDecl<In>> moe_count_inputs() {
  return {num<In, double>("active_params", NAPKIN_FIELD(In, active_params),
                          "Active parameters (0 = all: dense)", unit::params)
              .help("Parameters each token computes with; a mixture of experts uses only its "
                    "routed experts (Mixtral 8x7B: 12.9B of 46.7B)")
              .range(0, 1e15)
              .group("model.moe"),
          num<In, double>("experts", NAPKIN_FIELD(In, experts), "Routed experts (0 = dense)")
              .help("Experts per MoE layer, for the experts a batch touches; 0 for a dense model")
              .range(0, 1e5)
              .integer()
              .group("model.moe"),
          num<In, double>("top_k", NAPKIN_FIELD(In, top_k), "Experts per token")
              .help("Routed experts each token uses (MoE only)")
              .range(0, 1e4)
              .integer()
              .group("model.moe")};
}

// The parameters one token computes with (params for a dense model, whatever active_params
// says), or an error naming the input that does not fit `params`. Experts without active
// parameters are counted as dense, with a warning naming active_params.
Result<double> moe_active_params(const MoeCounts& in, double params, Derivation& d);
// Whether the counts describe a mixture of experts (experts and active parameters given).
bool is_moe(const MoeCounts& in);

}  // namespace napkin
