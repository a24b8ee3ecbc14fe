// serve.capacity: replicas and GPUs of a continuous-batching deployment for a request load and
// latency targets. Each replica is serve.engine's; requests queue for its batch slots (M/G/c,
// Allen–Cunneen). Sources above each formula in serve_capacity.cpp and in docs/serving.md.
#pragma once

#include "inference/serve_engine.hpp"

namespace napkin {

// One replica's shape and engine settings are serve.engine's; `batch` caps the sequences a
// replica runs (vLLM's max_num_seqs; 0 = what the KV cache holds).
struct ServeCapacityIn : ServeEngineIn {
  // Load: QPS, or users × requests per user per second when qps is 0.
  double qps = 50, users = 0, rps_per_user = 0;
  // Length distributions: the mean is prompt_len / output_len; a p90 (0 = every request at
  // the mean) fits a lognormal.
  double prompt_len_p90 = 0, output_len_p90 = 0;
  // Targets (0 = none) and the busiest a replica may run.
  double ttft_p50_target = 0, ttft_target = 0.5, tpot_target = 0.05, tpot_p90_target = 0;
  double max_utilization = 0.8;
  double replicas = 0;  // 0 = the fewest that meet the targets
};

struct ServeCapacityOut {
  double replicas, gpus, gpus_per_replica, utilization, batch, ttft_p50, ttft_p90, tpot_p50,
      tpot_p90, wait_p90, wait_probability, service_time, service_cv2, qps, qps_per_replica;
  bool meets_targets;
};

// The latency targets and utilisation limit, declared once for the estimators that size a
// deployment (serve.capacity, serve.disaggregated); In derives from ServeCapacityIn.
template <class In>
std::vector<InputDecl<In>> serve_target_inputs() {
  return {
      num<In, double>("ttft_target", &In::ttft_target, "TTFT target, p90 (0 = none)", unit::seconds)
          .help("90 % of requests see their first token within this, waiting included")
          .range(0, 1e5)
          .group("job"),
      num<In, double>("tpot_target", &In::tpot_target, "TPOT target, mean (0 = none)",
                      unit::seconds)
          .help("Time per output token for mean-length requests")
          .range(0, 1e3)
          .group("job"),
      num<In, double>("max_utilization", &In::max_utilization, "Utilisation limit", unit::fraction)
          .help("The busiest a replica's batch slots may be on average; headroom for bursts")
          .positive(1)
          .group("job")};
}

Result<ServeCapacityOut> serve_capacity(const ServeCapacityIn& in, Derivation& d);

void register_serve_capacity(Registry& r);

}  // namespace napkin
