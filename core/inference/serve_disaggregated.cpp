// serve.disaggregated: a prefill pool sized for the TTFT target and a decode pool sized for the
// TPOT target (Zhong et al. 2024, DistServe; Patel et al. 2024, Splitwise), the prompt's KV
// cache sent between them, against one colocated pool (serve.capacity, called). Every time
// comes from serve.engine: a prefill instance's prompt alone, a decode instance's step with no
// prefill in it.
#include "inference/serve_disaggregated.hpp"

#include <algorithm>
#include <cmath>

#include "base/counts.hpp"
#include "base/units.hpp"
#include "scenario/queueing.hpp"

namespace napkin {

namespace {

std::string count_text(double v) {
  return format_value(v, unit::none);
}

// What a request's TTFT is made of besides its wait for a prefill instance: its prefill, its
// KV transfer and its wait for a decode slot, over hits and misses of the prefix cache.
struct Own {
  double t[4] = {}, pr[4] = {};
  double mean = 0, cs2 = 0;  // the prefill's mean and squared coefficient of variation
};

// p90 time to first token with `n` prefill instances: DistServe §3.1 models one instance as
// M/D/1 (Poisson arrivals, one prompt at a time); with hits and misses its service varies, so
// M/G/1 (Pollaczek–Khinchine mean, Allen–Cunneen at c = 1) with an exponential tail once
// waiting, summed with the request's own times as a distribution (wait_plus_quantile), not by
// adding percentiles. Negative: the queue grows.
double prefill_ttft_p90(double lambda, double n, const Own& own) {
  const double a = lambda / n * own.mean;
  if (a >= 1) return -1;
  const double C = erlang_c(1, a);
  const double w = C > 0 ? mgc_mean_wait(C, 1, a, own.mean, own.cs2) / C : 0;
  return wait_plus_quantile(C, w, own.t, own.pr, 4, 0.9);
}

}  // namespace

Result<ServeDisaggregatedOut> serve_disaggregated(const ServeDisaggregatedIn& in, Derivation& d) {
  ServeDisaggregatedOut o{};
  if (in.qps <= 0) return Error::inconsistent("qps", in.qps, "give the load in requests/s");
  const double lambda = in.qps;
  Derivation quiet(false);

  // A prefill instance: serve.engine's prompt alone on prefill_tp × pp GPUs.
  ServeEngineIn pe = in;
  if (in.prefill_tp > 0) pe.tp = static_cast<int>(in.prefill_tp);
  pe.batch = 1;
  const auto pr = serve_engine(pe, quiet);
  if (!pr.ok()) {
    Error e = pr.error();
    if (e.input == "tp" && in.prefill_tp > 0) e.input = "prefill_tp";
    return e;
  }
  const double g_p = static_cast<double>(pe.tp) * pe.pp;
  const double s_p = pr->prefill_time;
  d.step("Prefill of one prompt on a prefill instance (serve.engine)", "t_p", "t_p(TP = $t)",
         {{"t", "TP_p", static_cast<double>(pe.tp)}}, s_p, unit::seconds);
  // The prompt's KV cache goes to a decode instance; each prefill GPU sends its own shard over
  // its own link (Splitwise §4.2 sends it layer by layer; counted here after the prefill).
  // Assumption: with prefix caching on, every decode instance keeps the shared prefix's blocks
  // (serve.engine's memory stores them once per instance) and a request hits or misses the
  // prefix on both sides together, so a hit sends only its P − P_s uncached tokens.
  const double h = pr->shared_tokens > 0 ? in.prefix_hit_rate : 0;
  const double sent_hit = in.prompt_len - pr->shared_tokens;
  const double sent = in.prompt_len - h * pr->shared_tokens;
  o.kv_transfer_bytes = sent * pr->kv_bytes_per_token;
  d.step("KV cache sent per request (the cached prefix stays)", "V",
         "($P - $h \\cdot $s) \\cdot $m",
         {{"P", "P", in.prompt_len, unit::tokens},
          {"h", "h", h, unit::fraction},
          {"s", "P_s", pr->shared_tokens, unit::tokens},
          {"m", "m_{KV}", pr->kv_bytes_per_token, unit::bytes_per_token}},
         o.kv_transfer_bytes, unit::bytes);
  o.kv_transfer_time = sent * pr->kv_per_token_gpu / in.bandwidth;
  d.step("Its transfer time (each GPU sends its shard)", "t_x", "\\frac{$P \\cdot $m}{$B}",
         {{"P", "P - h P_s", sent, unit::tokens},
          {"m", "m_{KV,g}", pr->kv_per_token_gpu, unit::bytes_per_token},
          {"B", "BW_{link}", in.bandwidth, unit::bytes_per_s}},
         o.kv_transfer_time, unit::seconds);
  const double x_hit = sent_hit * pr->kv_per_token_gpu / in.bandwidth;
  const double x_miss = in.prompt_len * pr->kv_per_token_gpu / in.bandwidth;

  // A decode instance: serve.engine's decode step alone (no prefill shares it), at the largest
  // batch whose step meets the TPOT target and whose cache fits.
  ServeEngineIn de = in;
  de.batch = 0;
  const auto full = serve_engine(de, quiet);
  if (!full.ok()) return full.error();
  const double g_d = static_cast<double>(in.tp) * in.pp;
  auto step_at = [&](double b) {
    de.batch = b;
    const auto r = serve_engine(de, quiet);
    return r.ok() ? r->decode_step : 1e30;
  };
  const double b_cap = std::min(full->max_batch, in.batch > 0 ? in.batch : 1e5);
  if (in.tpot_target > 0 && step_at(1) > in.tpot_target)
    return Error::inconsistent("tpot_target", in.tpot_target,
                               "cannot be met: one sequence alone takes " +
                                   format_value(step_at(1), unit::seconds) +
                                   " per token on a decode instance; use more TP or smaller "
                                   "weights");
  double lo = 1, hi = b_cap;
  if (in.tpot_target <= 0 || step_at(hi) <= in.tpot_target)
    lo = hi;
  else
    while (hi - lo > 1) {
      const double mid = std::floor((lo + hi) / 2);
      (step_at(mid) <= in.tpot_target ? lo : hi) = mid;
    }
  o.decode_batch = lo;
  o.tpot = step_at(lo);
  d.step("Decode step at the largest batch that meets the TPOT target", "t_s", "t_s(B = $b)",
         {{"b", "B", lo}}, o.tpot, unit::seconds);
  // A request holds a decode slot for its O − 1 remaining tokens (the first comes from the
  // prefill); slots busy at most `max_utilization` of the time.
  const double s_d = std::max(in.output_len - 1, 1.0) * o.tpot;
  // The fewest instances at or under the utilisation limit whose p90 wait for a slot (M/G/c
  // with B slots, Allen–Cunneen) stays within a tenth of the TTFT target.
  auto slot_wait = [&](double n) {
    const double a = lambda / n * s_d;
    return wait_quantile(lo, a, mgc_mean_wait(lo, a, s_d, 0), 0.9);
  };
  const double n_util = std::max(1.0, ceil_count(lambda * s_d / (lo * in.max_utilization)));
  double n_d = n_util;
  auto slow = [&](double n) { return in.ttft_target > 0 && slot_wait(n) > 0.1 * in.ttft_target; };
  if (slow(n_d)) {  // waits shrink as instances are added: double, then bisect
    double hi_d = n_d * 2;
    for (int i = 0; i < 60 && slow(hi_d); ++i) n_d = hi_d, hi_d *= 2;
    for (int i = 0; i < 200 && hi_d - n_d > 1; ++i) {  // capped: doubles past 2^53
      const double mid = std::floor((n_d + hi_d) / 2);
      (slow(mid) ? n_d : hi_d) = mid;
    }
    n_d = hi_d;
  }
  o.decode_instances = n_d;
  d.step("Decode instances that keep the slots at most the limit busy", "n_{\\rho}",
         "\\left\\lceil \\frac{$l \\cdot ($O - 1) \\cdot $t}{$b \\cdot $u} \\right\\rceil",
         {{"l", "\\lambda", lambda, unit::requests_per_s},
          {"O", "O", in.output_len, unit::tokens},
          {"t", "t_s", o.tpot, unit::seconds},
          {"b", "B", lo},
          {"u", "\\rho_{\\max}", in.max_utilization, unit::fraction}},
         n_util, unit::none);
  // The wait condition can ask for more: say by how much, with the waits on both sides.
  if (n_d > n_util)
    d.note("Decode instances, raised for the wait",
           "At " + format_value(n_d - 1, "") + " instances the p90 wait for a decode slot is " +
               format_value(slot_wait(n_d - 1), "s") + ", more than a tenth of the " +
               format_value(in.ttft_target, "s") + " TTFT target; at " + format_value(n_d, "") +
               " it is " + format_value(slot_wait(n_d), "s") + ": " + format_value(n_d, "") +
               " decode instances.");

  // Prefill instances: the fewest at or under the utilisation limit whose p90 TTFT (queue,
  // prefill, transfer, decode-slot wait) meets the target; TTFT falls as instances are added.
  // The decode-slot wait enters as two points: none (probability 1 − C_d) or its mean once
  // waiting, W_d / C_d (an assumption: its exponential tail is not carried).
  Own own;
  {
    const double a_d = lambda / n_d * s_d;
    const double c_d = erlang_c(lo, a_d);
    const double w_d = c_d > 0 ? mgc_mean_wait(c_d, lo, a_d, s_d, 0) / c_d : 0;
    const double hm[2] = {pr->prefill_time_hit + x_hit, pr->prefill_time_miss + x_miss};
    const double share[2] = {h, 1 - h};
    for (int i = 0; i < 2; ++i) {
      own.t[2 * i] = hm[i], own.pr[2 * i] = share[i] * (1 - c_d);
      own.t[2 * i + 1] = hm[i] + w_d, own.pr[2 * i + 1] = share[i] * c_d;
    }
    const double dev = pr->prefill_time_hit - pr->prefill_time_miss;
    own.mean = s_p;
    own.cs2 = h * (1 - h) * dev * dev / (s_p * s_p);
  }
  const double alone = wait_plus_quantile(0, 0, own.t, own.pr, 4, 0.9);
  if (in.ttft_target > 0 && alone >= in.ttft_target)
    return Error::inconsistent("ttft_target", in.ttft_target,
                               "cannot be met: a prompt alone takes " +
                                   format_value(alone, unit::seconds) +
                                   " to prefill and send (p90); use a larger prefill TP");
  auto fails = [&](double n) {
    const double t = prefill_ttft_p90(lambda, n, own);
    return t < 0 || lambda * s_p / n > in.max_utilization * (1 + 1e-12) ||
           (in.ttft_target > 0 && t > in.ttft_target);
  };
  double n_lo = std::max(1.0, ceil_count(lambda * s_p / in.max_utilization));
  if (fails(n_lo)) {
    double n_hi = n_lo * 2;
    for (int i = 0; i < 60 && fails(n_hi); ++i) n_lo = n_hi, n_hi *= 2;
    for (int i = 0; i < 200 && n_hi - n_lo > 1; ++i) {
      const double mid = std::floor((n_lo + n_hi) / 2);
      (fails(mid) ? n_lo : n_hi) = mid;
    }
    n_lo = n_hi;
  }
  o.prefill_instances = n_lo;
  o.ttft_p90 = prefill_ttft_p90(lambda, n_lo, own);
  d.step("Prefill instances (M/G/1 each: DistServe §3.1)", "n_p",
         "\\min n : \\frac{$l \\cdot $t}{n} ≤ $u,\\, Q_{0.9}(W + $t + $x + W_d) ≤ $T",
         {{"l", "\\lambda", lambda, unit::requests_per_s},
          {"t", "t_p", s_p, unit::seconds},
          {"u", "\\rho_{\\max}", in.max_utilization, unit::fraction},
          {"x", "t_x", o.kv_transfer_time, unit::seconds},
          {"T", "\\text{TTFT}_{90}", in.ttft_target, unit::seconds}},
         n_lo, unit::none);
  o.prefill_gpus = n_lo * g_p;
  o.decode_gpus = o.decode_instances * g_d;
  o.gpus = o.prefill_gpus + o.decode_gpus;
  d.step(
      "GPUs, disaggregated", "G", "$p \\cdot $a + $d \\cdot $b",
      {{"p", "n_p", n_lo}, {"a", "G_p", g_p}, {"d", "n_d", o.decode_instances}, {"b", "G_d", g_d}},
      o.gpus, unit::gpus);

  // The same load on one colocated pool: serve.capacity, called.
  ServeCapacityIn co = in;
  co.users = 0;
  const auto colo = serve_capacity(co, quiet);
  if (colo.ok()) {
    o.colocated_gpus = colo->gpus;
    d.step("GPUs, colocated (serve.capacity)", "G_c", "$r \\cdot $g",
           {{"r", "R", colo->replicas}, {"g", "G_d", g_d}}, o.colocated_gpus, unit::gpus);
  } else {
    o.colocated_gpus = not_given;
    d.warn("A colocated pool cannot meet the targets: " + colo.error().message);
  }
  if (d.recording())
    d.note("Pools", count_text(n_lo) + " prefill instance(s) of " + count_text(g_p) +
                        " GPU(s) and " + count_text(o.decode_instances) +
                        " decode instance(s) of " + count_text(g_d) + " at batch " +
                        count_text(lo) + ".");
  return o;
}

void register_serve_disaggregated(Registry& r) {
  using In = ServeDisaggregatedIn;
  using Out = ServeDisaggregatedOut;
  r.add(with_engine_inputs<In>(with_target_inputs<In>(
      declare<serve_disaggregated>(
          {"serve.disaggregated", "Disaggregated prefill and decode: GPUs per pool", "inference",
           "GPUs for a prefill pool that meets the TTFT target and a decode pool that meets the "
           "TPOT target at a load, the KV cache sent between them, against one colocated pool.",
           "Zhong et al. 2024 (DistServe); Patel et al. 2024 (Splitwise)",
           "docs/serving.md#servedisaggregated"},
          {num<In, double>("qps", NAPKIN_FIELD(In, qps), "Requests per second",
                           unit::requests_per_s)
               .help("Arrivals over the whole deployment, at random (Poisson)")
               .positive(1e7)
               .group("job"),
           num<In, double>("batch", NAPKIN_FIELD(In, batch), "Largest decode batch (0 = what fits)")
               .help("Most sequences a decode instance runs at once")
               .range(0, 1e7)
               .integer()
               .group("engine"),
           num<In, double>("prefill_tp", NAPKIN_FIELD(In, prefill_tp), "Prefill TP (0 = TP)")
               .help("GPUs splitting each layer on a prefill instance")
               .range(0, 1024)
               .integer()
               .group("layout"),
           num<In, double>("bandwidth", NAPKIN_FIELD(In, bandwidth), "KV transfer link per GPU",
                           unit::bytes_per_s)
               .help("Bandwidth each prefill GPU sends its KV shard at (NDR InfiniBand: 50 GB/s)")
               .positive(1e14)
               .group("cluster")},
          {out("gpus", NAPKIN_FIELD(Out, gpus), "GPUs, disaggregated", unit::gpus)
               .help("Prefill GPUs + decode GPUs"),
           out("colocated_gpus", NAPKIN_FIELD(Out, colocated_gpus), "GPUs, colocated", unit::gpus)
               .help("serve.capacity's GPUs for the same load and targets")
               .optional(),
           out("prefill_gpus", NAPKIN_FIELD(Out, prefill_gpus), "Prefill GPUs", unit::gpus)
               .help("Prefill instances × their GPUs"),
           out("decode_gpus", NAPKIN_FIELD(Out, decode_gpus), "Decode GPUs", unit::gpus)
               .help("Decode instances × their GPUs"),
           out("ttft_p90", NAPKIN_FIELD(Out, ttft_p90), "TTFT p90", unit::seconds)
               .help("90th percentile of prefill queue + prefill + KV transfer + decode-slot wait"),
           out("tpot", NAPKIN_FIELD(Out, tpot), "TPOT", unit::seconds)
               .help("Decode step with no prefill in it"),
           out("kv_transfer_bytes", NAPKIN_FIELD(Out, kv_transfer_bytes), "KV sent per request",
               unit::bytes)
               .help("The prompt's KV cache less a cached prefix, prefill to decode (mean)"),
           out("kv_transfer_time", NAPKIN_FIELD(Out, kv_transfer_time), "KV transfer time",
               unit::seconds)
               .help("Its time over the link, every prefill GPU sending at once"),
           out("decode_batch", NAPKIN_FIELD(Out, decode_batch), "Decode batch")
               .help("Sequences per decode instance: the most that meet the TPOT target"),
           out("prefill_instances", NAPKIN_FIELD(Out, prefill_instances), "Prefill instances")
               .help("Each prefills one prompt at a time"),
           out("decode_instances", NAPKIN_FIELD(Out, decode_instances), "Decode instances")
               .help("Each decodes a batch of sequences")}),
      1)));
  r.add_chart({.id = "disagg-gpus-vs-qps",
               .title = "GPUs vs load: disaggregated and colocated",
               .estimator = "serve.disaggregated",
               .x = "qps",
               .x_label = "Requests per second",
               .y_label = "GPUs",
               .y_unit = unit::gpus,
               .x_min = 1,
               .x_max = 200,
               .points = 20,
               .log_x = true,
               .log_y = true,
               .y = {"gpus", "colocated_gpus"}});
}

}  // namespace napkin
