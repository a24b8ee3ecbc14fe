// serve.prefix_cache: one serve.engine replica with and without prefix caching, at the same
// batch. Requests that share a prompt prefix (a system prompt, few-shot examples, a document
// under several questions) find its KV blocks cached: vLLM's automatic prefix caching hashes
// whole blocks (Kwon et al. 2023, §4.4 "shared prefix"), SGLang keeps them in a radix tree
// (Zheng et al. 2024, RadixAttention). The engine computes both sides; this file only compares.
#include "inference/serve_prefix_cache.hpp"

#include "base/units.hpp"
#include "scenario/queueing.hpp"

namespace napkin {

Result<ServePrefixCacheOut> serve_prefix_cache(const ServePrefixCacheIn& in, Derivation& d) {
  ServePrefixCacheOut o{};
  Derivation quiet(false);
  ServeEngineIn off = in;
  off.prefix_fraction = 0;
  const auto base = serve_engine(off, quiet);
  if (!base.ok()) return base.error();
  o.max_batch_uncached = base->max_batch;
  // The same batch on both sides: the one asked for, or the most the cache holds uncached.
  ServeEngineIn on = in;
  on.batch = in.batch > 0 ? in.batch : base->max_batch;
  off.batch = on.batch;
  const auto without = serve_engine(off, quiet);
  const auto with = serve_engine(on, d);
  if (!without.ok()) return without.error();
  if (!with.ok()) return with.error();
  o.batch = on.batch;
  o.max_batch = with->max_batch;
  o.cached_tokens = with->cached_tokens;
  o.prefill_flops_saved = without->prefill_flops - with->prefill_flops;
  d.step("Prefill FLOPs saved per request", "\\Delta F_p", "$a - $b",
         {{"a", "F_p^{0}", without->prefill_flops, unit::flop},
          {"b", "F_p", with->prefill_flops, unit::flop}},
         o.prefill_flops_saved, unit::flop);
  o.prefill_saved_fraction = o.prefill_flops_saved / without->prefill_flops;
  // A request hits (probability h) or misses: the mean TTFT mixes the two, and the p90 is a
  // miss's whenever fewer than 90 % hit (the quantile of the two-point mixture, no queueing).
  o.ttft = with->ttft;
  const double times[] = {with->ttft_hit, with->ttft_miss};
  const double h = with->shared_tokens > 0 ? in.prefix_hit_rate : 0;
  const double weights[] = {h, 1 - h};
  o.ttft_p90 = wait_plus_quantile(0, 0, times, weights, 2, 0.9);
  d.step("p90 time to first token (hits and misses, no queueing)", "\\text{TTFT}_{90}",
         "Q_{0.9}(\\{$a : $h,\\ $b : 1 - $h\\})",
         {{"a", "\\text{TTFT}_{hit}", with->ttft_hit, unit::seconds},
          {"h", "h", h, unit::fraction},
          {"b", "\\text{TTFT}_{miss}", with->ttft_miss, unit::seconds}},
         o.ttft_p90, unit::seconds);
  o.ttft_saved = without->ttft - with->ttft;
  d.step("Mean time to first token saved", "\\Delta \\text{TTFT}", "$a - $b",
         {{"a", "\\text{TTFT}^{0}", without->ttft, unit::seconds},
          {"b", "\\text{TTFT}", with->ttft, unit::seconds}},
         o.ttft_saved, unit::seconds);
  o.tpot = with->tpot;
  o.tpot_saved = without->tpot - with->tpot;
  o.kv_bytes_saved = (without->kv_tokens_used - with->kv_tokens_used) * with->kv_bytes_per_token;
  d.step("KV cache saved at this batch (the prefix stored once, not per sequence)", "\\Delta M",
         "($a - $b) \\cdot $m",
         {{"a", "T^{0}", without->kv_tokens_used, unit::tokens},
          {"b", "T", with->kv_tokens_used, unit::tokens},
          {"m", "m", with->kv_bytes_per_token, unit::bytes_per_token}},
         o.kv_bytes_saved, unit::bytes);
  o.tokens_per_second_per_gpu = with->tokens_per_second_per_gpu;
  return o;
}

void register_serve_prefix_cache(Registry& r) {
  using In = ServePrefixCacheIn;
  using Out = ServePrefixCacheOut;
  r.add(with_engine_inputs<In>(declare<serve_prefix_cache>(
      {"serve.prefix_cache", "Prefix caching: prefill, TTFT and memory saved", "inference",
       "One serve.engine replica with and without a cached shared prompt prefix: prefill FLOPs, "
       "time to first token and KV memory saved, and the larger batch that fits.",
       "Kwon et al. 2023 (PagedAttention, shared prefix); Zheng et al. 2024 (SGLang, "
       "RadixAttention)",
       "docs/serving.md#serveprefix_cache"},
      {num<In, double>("batch", NAPKIN_FIELD(In, batch), "Batch (0 = the most that fit uncached)")
           .help("Sequences decoding together, the same with and without the cache")
           .range(0, 1e7)
           .integer()
           .group("job")},
      {out("ttft_saved", NAPKIN_FIELD(Out, ttft_saved), "TTFT saved", unit::seconds)
           .help("Time to first token without the cache less with it"),
       out("ttft", NAPKIN_FIELD(Out, ttft), "TTFT with the cache", unit::seconds)
           .help("Mean time to first token over hits and misses"),
       out("ttft_p90", NAPKIN_FIELD(Out, ttft_p90), "TTFT p90 with the cache", unit::seconds)
           .help("A miss's TTFT when fewer than 90 % of requests hit"),
       out("prefill_flops_saved", NAPKIN_FIELD(Out, prefill_flops_saved), "Prefill FLOPs saved",
           unit::flop)
           .help("FLOPs per request not spent on the cached prefix"),
       out("prefill_saved_fraction", NAPKIN_FIELD(Out, prefill_saved_fraction),
           "Share of prefill saved", unit::fraction)
           .help("Prefill FLOPs saved ÷ a full prefill's"),
       out("cached_tokens", NAPKIN_FIELD(Out, cached_tokens), "Tokens from the cache", unit::tokens)
           .help("Prompt tokens per request read from the cache (whole blocks, expected)"),
       out("kv_bytes_saved", NAPKIN_FIELD(Out, kv_bytes_saved), "KV memory saved", unit::bytes)
           .help("Cache bytes the replica does not store at this batch"),
       out("max_batch", NAPKIN_FIELD(Out, max_batch), "Largest batch with the cache")
           .help("Sequences that fit with the prefix stored once"),
       out("max_batch_uncached", NAPKIN_FIELD(Out, max_batch_uncached), "Largest batch without")
           .help("Sequences that fit when every prompt is stored whole"),
       out("tpot", NAPKIN_FIELD(Out, tpot), "TPOT with the cache", unit::seconds)
           .help("Time per output token; shorter prefills interrupt decode less"),
       out("tpot_saved", NAPKIN_FIELD(Out, tpot_saved), "TPOT saved", unit::seconds)
           .help("Time per output token without the cache less with it"),
       out("tokens_per_second_per_gpu", NAPKIN_FIELD(Out, tokens_per_second_per_gpu),
           "Tokens/s per GPU", unit::tokens_per_s)
           .help("Output throughput per GPU with the cache"),
       out("batch", NAPKIN_FIELD(Out, batch), "Batch used").help("The batch both sides run at")})));
  r.add_chart({.id = "prefix-ttft-vs-fraction",
               .title = "Time to first token vs shared prefix, by hit rate",
               .estimator = "serve.prefix_cache",
               .x = "prefix_fraction",
               .x_label = "Shared share of the prompt",
               .y_label = "TTFT",
               .y_unit = unit::seconds,
               .x_min = 0,
               .x_max = 0.95,
               .points = 20,
               .y = {"ttft"},
               .series = {{"50 % hits", object_of({{"prefix_hit_rate", 0.5}})},
                          {"90 % hits", object_of({{"prefix_hit_rate", 0.9}})},
                          {"All hits", object_of({{"prefix_hit_rate", 1}})}}});
}
}  // namespace napkin
