// A serving replica's shape, TP × PP, and which shapes can be built: the one rule that
// serve.engine, serve.llm_gpus and rl.throughput share (docs/architecture.md, The scenario).
#pragma once

#include <optional>
#include <string>

#include "registry/registry.hpp"
#include "scenario/model.hpp"

namespace napkin {

// Why TP cannot split the model's attention, or "" when it can. vLLM and TensorRT-LLM give each
// rank whole query heads (TP divides the heads) and either split the KV heads evenly (TP divides
// them) or replicate them (TP a multiple of them); MLA caches one latent, replicated on every
// rank, so only the query heads count (vLLM, QKVParallelLinear and ModelConfig's
// verify_with_parallel_config).
std::string tp_split_problem(const Model& m, int tp);

// The checks of a TP × PP replica, as errors naming `tp_name` / `pp_name`: TP must split the
// heads (above) and hold at least one head, PP at most the layers. Uneven stages are allowed
// with a warning, as vLLM splits the layers as evenly as it can: the fullest stage sets the pace.
std::optional<Error> replica_shape_error(const Model& m, int tp, int pp, const char* tp_name,
                                         const char* pp_name, Derivation& d);

struct ReplicaShape {
  int tp = 0, pp = 0;  // 0 × 0: none
};

// The smallest replica that can be built and holds `need` bytes on GPUs of `gpu_memory`: TP a
// power of two within one node of `node` GPUs that splits the heads, then PP stages that divide
// the layers (Megatron-LM and vLLM split layers into equal stages). {0, 0} when none holds it.
ReplicaShape smallest_replica(const Model& m, double need, double gpu_memory, int node);

// A replica of `gpus` GPUs split into TP (the largest power of two within the node that divides
// `gpus` and splits the heads) × PP (the rest), checked as replica_shape_error does; errors name
// `name` (more stages than layers).
Result<ReplicaShape> split_replica(const Model& m, int gpus, int node, const char* name,
                                   Derivation& d);

}  // namespace napkin
