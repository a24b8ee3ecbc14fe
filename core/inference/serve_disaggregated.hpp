// serve.disaggregated: prefill and decode on separate GPU pools (DistServe, Splitwise) against
// one colocated pool (serve.capacity), with the KV cache sent from one pool to the other. Each
// instance is serve.engine's; the prefill queue is M/D/1 per instance.
#pragma once

#include "inference/serve_capacity.hpp"

namespace napkin {

struct ServeDisaggregatedIn : ServeCapacityIn {
  double prefill_tp = 0;    // TP of a prefill instance; 0 = tp
  double bandwidth = 50e9;  // KV transfer link per GPU (InfiniBand NDR, 400 Gb/s)
};

struct ServeDisaggregatedOut {
  double prefill_gpus, decode_gpus, gpus, colocated_gpus, prefill_instances, decode_instances,
      decode_batch, ttft_p90, tpot, kv_transfer_bytes, kv_transfer_time;
};

Result<ServeDisaggregatedOut> serve_disaggregated(const ServeDisaggregatedIn& in, Derivation& d);

void register_serve_disaggregated(Registry& r);

}  // namespace napkin
