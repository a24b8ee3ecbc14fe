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
      tpot_p90, wait_p90, wait_probability, service_time, service_cv2, qps, qps_per_replica,
      goodput;
  bool meets_targets;
};

// The latency targets and utilisation limit, declared once (serve_capacity.cpp) for the
// estimators that size a deployment (serve.capacity, serve.disaggregated), inserted after the
// first `at` inputs of an estimator whose input struct derives from ServeCapacityIn.
void insert_target_inputs(Estimator& e, std::size_t at, const void* defaults, const Via& via);
template <class In>
Estimator with_target_inputs(Estimator e, std::size_t at) {
  const In defaults{};
  insert_target_inputs(e, at, &defaults, Via{}.then(&base_at<In, ServeCapacityIn>));
  return e;
}

Result<ServeCapacityOut> serve_capacity(const ServeCapacityIn& in, Derivation& d);

void register_serve_capacity(Registry& r);

}  // namespace napkin
