// serve.prefix_cache: what a shared prompt prefix saves on one serve.engine replica when the
// engine caches it (vLLM's automatic prefix caching, SGLang's RadixAttention): prefill FLOPs,
// time to first token, KV memory and batch. Both sides are serve.engine runs.
#pragma once

#include "inference/serve_engine.hpp"

namespace napkin {

struct ServePrefixCacheIn : ServeEngineIn {
  ServePrefixCacheIn() { prefix_fraction = 0.5; }
};

struct ServePrefixCacheOut {
  double cached_tokens, prefill_flops_saved, prefill_saved_fraction, ttft, ttft_p90, ttft_saved,
      tpot, tpot_saved, kv_bytes_saved, max_batch, max_batch_uncached, tokens_per_second_per_gpu,
      batch;
};

Result<ServePrefixCacheOut> serve_prefix_cache(const ServePrefixCacheIn& in, Derivation& d);

void register_serve_prefix_cache(Registry& r);

}  // namespace napkin
