#include "scenario/replica.hpp"

#include "base/units.hpp"

namespace napkin {

namespace {

std::string count_text(double v) {
  return format_value(v, unit::none);
}

}  // namespace

// vLLM (vllm/config.py, verify_with_parallel_config: "Total number of attention heads must be
// divisible by tensor parallel size"; QKVParallelLinear: KV heads split when TP ≤ them,
// replicated when TP is a multiple of them). TensorRT-LLM refuses the same layouts.
std::string tp_split_problem(const Model& m, int tp) {
  if (tp > m.heads) return "more ranks than attention heads (" + count_text(m.heads) + ")";
  if (m.heads % tp != 0) return "must divide the attention heads (" + count_text(m.heads) + ")";
  if (m.attention != AttentionKind::Mla && m.kv_heads % tp != 0 && tp % m.kv_heads != 0)
    return "must divide the KV heads (" + count_text(m.kv_heads) +
           ") or be a multiple of them (each rank holds whole KV heads)";
  return "";
}

std::optional<Error> replica_shape_error(const Model& m, int tp, int pp, const char* tp_name,
                                         const char* pp_name, Derivation& d) {
  if (std::string why = tp_split_problem(m, tp); !why.empty())
    return Error::inconsistent(tp_name, tp, why);
  if (pp > m.layers)
    return Error::inconsistent(pp_name, pp,
                               "more stages than layers (" + count_text(m.layers) + ")");
  if (m.layers % pp != 0)
    d.warn("PP " + count_text(pp) + " does not divide the " + count_text(m.layers) +
           " layers: the fullest stage holds " + count_text((m.layers + pp - 1) / pp) +
           " and sets the pace; counted here as even.");
  return std::nullopt;
}

// TP first, within the node (its all-reduces need NVLink), the fewest GPUs that hold `need`;
// then the largest TP with PP stages that divide the layers.
ReplicaShape smallest_replica(const Model& m, double need, double gpu_memory, int node) {
  int widest = 0;
  for (int tp = 1; tp <= node; tp *= 2) {
    if (!tp_split_problem(m, tp).empty()) continue;
    if (tp * gpu_memory >= need) return {tp, 1};
    widest = tp;
  }
  if (widest == 0) return {};
  for (int pp = 2; pp <= m.layers; ++pp)
    if (m.layers % pp == 0 && static_cast<double>(widest) * pp * gpu_memory >= need)
      return {widest, pp};
  return {};
}

Result<ReplicaShape> split_replica(const Model& m, int gpus, int node, const char* name,
                                   Derivation& d) {
  int tp = 1;
  for (int t = 2; t <= node && gpus % t == 0; t *= 2)
    if (tp_split_problem(m, t).empty()) tp = t;
  const int pp = gpus / tp;
  if (pp > m.layers)
    return Error::inconsistent(name, gpus,
                               "splits into TP " + count_text(tp) + " × PP " + count_text(pp) +
                                   ", more stages than layers (" + count_text(m.layers) + ")");
  if (std::optional<Error> e = replica_shape_error(m, tp, pp, name, name, d)) return *e;
  return ReplicaShape{tp, pp};
}

}  // namespace napkin
