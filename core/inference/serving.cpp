#include "inference/serving.hpp"

#include <algorithm>
#include <cmath>

#include "base/counts.hpp"
#include "base/units.hpp"
#include "inference/inference.hpp"
#include "scenario/accelerator_inputs.hpp"
#include "scenario/replica.hpp"

namespace napkin {

namespace {

std::string count_text(double v) {
  return format_value(v, unit::none);
}

// The study notes' "QPS and Latency" model, one GPU queue after load balancing.
struct Batching {
  double qps_per_gpu, gpus_needed, gpus_used, per_gpu_qps, collection_time, avg_wait, avg_latency,
      cold_start_latency, utilization, avg_wait_half_window;
};

// `half_window`: the worked example's wait, half the collection window b / (2q); otherwise the
// wait to fill a batch, (b − 1) / (2q) (see below).
Result<Batching> batching(double batch, double inference, double total_qps, double gpus,
                          bool half_window, Derivation& d, const std::string& who) {
  Batching b{};
  // QPS per GPU = batch size / inference time: throughput counts GPU time only, never the wait.
  b.qps_per_gpu = batch / inference;
  d.step(who + "Throughput of one GPU (inference time only, no waiting)", "Q_{\\text{gpu}}",
         "\\frac{$b}{$t}", {{"b", "b", batch}, {"t", "t_{\\text{inf}}", inference, unit::seconds}},
         b.qps_per_gpu, unit::requests_per_s);
  const double exact = total_qps / b.qps_per_gpu;
  b.gpus_needed = std::max(1.0, ceil_count(exact));  // a trickle of load still needs a GPU
  d.step(who + "GPUs needed (rounded up)", "G", "\\left\\lceil \\frac{$Q}{$q} \\right\\rceil",
         {{"Q", "Q_{\\text{total}}", total_qps, unit::requests_per_s},
          {"q", "Q_{\\text{gpu}}", b.qps_per_gpu, unit::requests_per_s}},
         b.gpus_needed, unit::gpus);
  if (gpus > 0 && gpus < b.gpus_needed)
    return Error::inconsistent("gpus", gpus,
                               "too few for total_qps: at least " + count_text(b.gpus_needed) +
                                   " are needed, otherwise the queues grow without bound");
  b.gpus_used = gpus > 0 ? gpus : b.gpus_needed;
  // Collection time uses the arrival rate at ONE GPU (the study notes' mistake 2; docs/serving.md).
  b.per_gpu_qps = total_qps / b.gpus_used;
  d.step(who + "Arrival rate per GPU", "q", "\\frac{$Q}{$G}",
         {{"Q", "Q_{\\text{total}}", total_qps, unit::requests_per_s}, {"G", "G", b.gpus_used}},
         b.per_gpu_qps, unit::requests_per_s);
  b.collection_time = batch / b.per_gpu_qps;
  d.step(who + "Time to collect a batch (one batch per cycle)", "t_{\\text{collect}}",
         "\\frac{$b}{$q}", {{"b", "b", batch}, {"q", "q", b.per_gpu_qps, unit::requests_per_s}},
         b.collection_time, unit::seconds);
  // Requests arriving at rate q, a batch dispatched when its b-th request arrives: the i-th
  // request of a batch waits for the b − i after it, (b − i)/q; the mean over i = 1..b is
  // (b − 1)/(2q), and the first waits (b − 1)/q. Exact for evenly spaced arrivals, and the mean
  // for Poisson ones (each later arrival takes 1/q on average); a batch of one never waits.
  // First principles; Crankshaw et al. 2017 (Clipper) §4.3 bounds the same wait by a timeout.
  b.avg_wait_half_window = b.collection_time / 2;
  const double fill_wait = (batch - 1) / (2 * b.per_gpu_qps);
  b.avg_wait = half_window ? b.avg_wait_half_window : fill_wait;
  if (half_window)
    d.step(who + "Average wait (the worked example: half the collection window)",
           "t_{\\text{wait}}", "\\frac{$c}{2}",
           {{"c", "t_{\\text{collect}}", b.collection_time, unit::seconds}}, b.avg_wait,
           unit::seconds);
  else
    d.step(who + "Average wait for the batch to fill (the i-th request waits for b − i more)",
           "t_{\\text{wait}}", "\\frac{$b - 1}{2 \\cdot $q}",
           {{"b", "b", batch}, {"q", "q", b.per_gpu_qps, unit::requests_per_s}}, b.avg_wait,
           unit::seconds);
  b.avg_latency = b.avg_wait + inference;
  d.step(who + "Average latency (wait, then inference)", "T", "$w + $t",
         {{"w", "t_{\\text{wait}}", b.avg_wait, unit::seconds},
          {"t", "t_{\\text{inf}}", inference, unit::seconds}},
         b.avg_latency, unit::seconds);
  b.cold_start_latency =
      (half_window ? b.collection_time : (batch - 1) / b.per_gpu_qps) + inference;
  b.utilization = b.per_gpu_qps / b.qps_per_gpu;
  return b;
}

Error stage_error(std::size_t i, const std::string& name, const std::string& what) {
  Error e;
  e.code = "inconsistent";
  e.input = "stages";
  e.value = static_cast<double>(i + 1);
  e.message = "stages: stage " + std::to_string(i + 1) +
              (name.empty() ? "" : " (\"" + name + "\")") + ": " + what;
  e.allowed = R"(a JSON array of {"name", "latency"} or {"name", "batch", "inference"}; times in )"
              R"(seconds or with a unit ("20 ms"))";
  return e;
}

// A stage number: a JSON number in base units or text with a unit ("20 ms").
bool stage_number(const Json& v, const char* unit_name, double& out, std::string& why) {
  if (v.is_number()) {
    out = v.as_number();
  } else if (v.is_string()) {
    ParsedNumber p = parse_value(v.as_string(), unit_name);
    if (!p.ok) return why = p.error, false;
    out = p.value;
  } else {
    return why = "must be a number", false;
  }
  if (!std::isfinite(out)) return why = "must be a finite number", false;
  return true;
}

}  // namespace

// The study notes' `estimate_serving_gpus`: each replica serves one request at a time
// (single-stream throughput = 1 / the latency of one request); concurrency is limited by the
// memory left for KV cache and by target latency ÷ single-request latency. Corrected here
// (docs/errata.md): weights take N·2 bytes (the worked example divides by 1e9 a second time);
// a replica is a TP × PP shape that can be built; one request's latency is the roofline on that
// replica (Pope et al. 2022 §3: prefill bound by its FLOPs or one read of the weights, each
// decode step by the weights and the cache read), TP splitting each layer over tp GPUs and PP
// stages running one after another for a single request.
Result<ServeLlmOut> serve_llm_gpus(const ServeLlmIn& in, Derivation& d) {
  ServeLlmOut o{};
  if (in.total_qps > 0) {
    o.total_rps = in.total_qps;
    d.step("Total request rate (given)", "R", "$R",
           {{"R", "R", in.total_qps, unit::requests_per_s}}, o.total_rps, unit::requests_per_s);
  } else {
    o.total_rps = in.users * in.rps_per_user;
    d.step("Total request rate", "R", "$u \\cdot $r",
           {{"u", "U", in.users}, {"r", "r_{\\text{user}}", in.rps_per_user, unit::requests_per_s}},
           o.total_rps, unit::requests_per_s);
  }
  Result<SizedModel> sized = to_sized_model(in, d);
  if (!sized.ok()) return sized.error();
  const Model& m = sized->model;
  const double params = sized->total;
  InferLatencyIn li;
  static_cast<SizedModelInputs&>(li) = in;
  li.prompt_len = in.prompt_len;
  li.gen_len = in.gen_len;
  li.batch = 1;
  li.peak_flops = in.peak_flops;
  li.mem_bandwidth = in.mem_bandwidth;
  li.weight_bytes = in.weight_bytes;
  li.kv_bytes = in.kv_bytes;
  li.decode_model = "weights";
  li.compute_efficiency = li.bandwidth_efficiency = 1;  // the worked example's ideal rates
  Derivation quiet(false);
  // The worked example's single request: compute-only prefill, weight-only decode, one GPU.
  Result<InferLatencyOut> seed = infer_latency(li, quiet);
  if (!seed.ok()) return seed.error();
  o.single_request_latency_seed = seed->total_time;
  const double seed_rps_per_gpu = seed->tokens_per_second / in.gen_len;
  o.gpus_needed_seed = std::max(1.0, ceil_count(o.total_rps / seed_rps_per_gpu));

  o.kv_per_request = seed->kv_bytes_per_sequence;
  o.weight_memory = params * in.weight_bytes;
  d.step("Weight memory", "W", "$N \\cdot $w",
         {{"N", "N", params, unit::params}, {"w", "b_w", in.weight_bytes, unit::bytes}},
         o.weight_memory, unit::bytes);
  // The notes' `params_b * 2 / 1e9` GB, i.e. N·2 / 1e9 bytes (140 B for a 70B model).
  o.weight_memory_seed = o.weight_memory / 1e9;
  const double need = o.weight_memory + o.kv_per_request;
  o.min_gpus_memory = std::max(1.0, ceil_count(need / in.gpu_memory));
  d.step("Fewest GPUs whose memory holds the weights and one request's cache", "k_{\\min}",
         "\\left\\lceil \\frac{$W + $m}{$M} \\right\\rceil",
         {{"W", "W", o.weight_memory, unit::bytes},
          {"m", "M_{\\text{seq}}", o.kv_per_request, unit::bytes},
          {"M", "M_{\\text{gpu}}", in.gpu_memory, unit::bytes}},
         o.min_gpus_memory, unit::gpus);
  if (in.gpus_per_replica > 0) {
    if (in.gpus_per_replica * in.gpu_memory < need)
      return Error::inconsistent(
          "gpus_per_replica", in.gpus_per_replica,
          "cannot hold the weights (" + format_value(o.weight_memory, unit::bytes) +
              ") and one request's KV cache: at least " + count_text(o.min_gpus_memory) +
              " GPUs of " + format_value(in.gpu_memory, unit::bytes) + " are needed");
    // TP: the largest power of two up to the node that divides the replica and splits the
    // heads; PP: the rest, uneven stages said (core/scenario/replica.cpp, as serve.engine).
    Result<ReplicaShape> r =
        split_replica(m, static_cast<int>(in.gpus_per_replica), static_cast<int>(in.gpus_per_node),
                      "gpus_per_replica", d);
    if (!r.ok()) return r.error();
    o.tp = r->tp;
    o.pp = r->pp;
  } else {
    const ReplicaShape r =
        smallest_replica(m, need, in.gpu_memory, static_cast<int>(in.gpus_per_node));
    if (r.tp == 0)
      return Error::inconsistent("gpu_memory", in.gpu_memory,
                                 "too small: even TP " + count_text(in.gpus_per_node) + " × PP " +
                                     count_text(m.layers) +
                                     " GPUs cannot hold the weights and one request's cache (" +
                                     format_value(need, unit::bytes) + ")");
    o.tp = r.tp;
    o.pp = r.pp;
  }
  o.gpus_per_replica = o.tp * o.pp;
  d.step(
      "GPUs per replica: TP (a power of two within a node that splits the heads) × PP (dividing "
      "the layers)",
      "k", "$t \\cdot $p", {{"t", "TP", o.tp}, {"p", "PP", o.pp}}, o.gpus_per_replica, unit::gpus);

  // One request alone on the replica: TP gives each step tp GPUs' FLOP/s and bandwidth; PP
  // stages run one after another, so they add up to the whole model at that rate.
  li.decode_model = "roofline";
  forward_flops_step(sized.value(), in.prompt_len, true,
                     d);  // what infer.latency prices a prompt at
  li.peak_flops = o.tp * in.peak_flops;
  li.mem_bandwidth = o.tp * in.mem_bandwidth;
  li.compute_efficiency = in.compute_efficiency;
  li.bandwidth_efficiency = in.bandwidth_efficiency;
  Result<InferLatencyOut> single = infer_latency(li, quiet);
  if (!single.ok()) return single.error();
  o.single_request_latency = single->total_time;
  d.step("One request alone on the replica (infer.latency, roofline, TP × the GPU's rates)", "T_1",
         "$P + $D",
         {{"P", "T_{\\text{prefill}}", single->prefill_time, unit::seconds},
          {"D", "T_{\\text{decode}}", single->decode_time, unit::seconds}},
         o.single_request_latency, unit::seconds);
  o.requests_per_gpu = 1 / (o.single_request_latency * o.gpus_per_replica);
  d.step("Requests per GPU per second (one request at a time per replica)", "r_{\\text{gpu}}",
         "\\frac{1}{$T \\cdot $k}",
         {{"T", "T_1", o.single_request_latency, unit::seconds}, {"k", "k", o.gpus_per_replica}},
         o.requests_per_gpu, unit::requests_per_s);
  o.max_concurrent_memory =
      (o.gpus_per_replica * in.gpu_memory - o.weight_memory) / o.kv_per_request;
  d.step("Requests whose cache fits beside the weights, per replica", "C_{\\text{mem}}",
         "\\frac{$k \\cdot $M - $W}{$m}",
         {{"k", "k", o.gpus_per_replica},
          {"M", "M_{\\text{gpu}}", in.gpu_memory, unit::bytes},
          {"W", "W", o.weight_memory, unit::bytes},
          {"m", "M_{\\text{seq}}", o.kv_per_request, unit::bytes}},
         o.max_concurrent_memory, unit::none);
  o.max_concurrent_latency = in.target_latency / o.single_request_latency;
  d.step("Latency limit (the worked example's ratio)", "C_{\\text{lat}}", "\\frac{$T}{$T1}",
         {{"T", "T_{\\text{target}}", in.target_latency, unit::seconds},
          {"T1", "T_1", o.single_request_latency, unit::seconds}},
         o.max_concurrent_latency, unit::none);
  o.max_concurrent = std::min(o.max_concurrent_memory, o.max_concurrent_latency);
  o.max_concurrent_seed = std::min((in.gpu_memory - o.weight_memory_seed) / o.kv_per_request,
                                   in.target_latency / o.single_request_latency_seed);
  // Only whole replicas can be deployed; each finishes 1 / T_1 requests per second.
  o.replicas = std::max(1.0, ceil_count(o.total_rps * o.single_request_latency));
  d.step("Replicas for the load", "n", "\\left\\lceil $R \\cdot $T \\right\\rceil",
         {{"R", "R", o.total_rps, unit::requests_per_s},
          {"T", "T_1", o.single_request_latency, unit::seconds}},
         o.replicas, unit::none);
  o.gpus_needed = o.replicas * o.gpus_per_replica;
  d.step("GPUs needed (whole replicas)", "G", "$n \\cdot $k",
         {{"n", "n", o.replicas}, {"k", "k", o.gpus_per_replica}}, o.gpus_needed, unit::gpus);
  d.note("The worked example's count",
         "One GPU per request stream with a compute-only prefill and weight-only decode: " +
             format_value(o.single_request_latency_seed, unit::seconds) + " per request, " +
             count_text(o.gpus_needed_seed) + " GPUs" +
             (o.weight_memory > in.gpu_memory
                  ? "; it computes weight memory as (parameters in billions) × 2 / 10⁹ GB (" +
                        format_value(o.weight_memory_seed, unit::bytes) +
                        " here) and so believes the model fits on one GPU; it needs " +
                        format_value(o.weight_memory, unit::bytes) + "."
                  : "."));
  if (o.single_request_latency > in.target_latency)
    d.warn("One request alone takes " + format_value(o.single_request_latency, unit::seconds) +
           ", longer than the target latency (" + format_value(in.target_latency, unit::seconds) +
           "): no amount of batching meets the target in this model.");
  return o;
}

Result<ServeBatchingOut> serve_batching(const ServeBatchingIn& in, Derivation& d) {
  Result<Batching> b = batching(in.batch_size, in.inference_time, in.total_qps, in.gpus,
                                in.wait_model == "half_window", d, "");
  if (!b.ok()) return b.error();
  ServeBatchingOut o{};
  o.qps_per_gpu = b->qps_per_gpu;
  o.gpus_needed = b->gpus_needed;
  o.gpus_used = b->gpus_used;
  o.per_gpu_qps = b->per_gpu_qps;
  o.collection_time = b->collection_time;
  o.avg_wait = b->avg_wait;
  o.avg_latency = b->avg_latency;
  o.cold_start_latency = b->cold_start_latency;
  o.utilization = b->utilization;
  o.avg_latency_half_window = b->avg_wait_half_window + in.inference_time;
  if (in.wait_model == "half_window")
    d.step("Cold start: the first request waits the whole window", "T_{\\text{cold}}", "$c + $t",
           {{"c", "t_{\\text{collect}}", o.collection_time, unit::seconds},
            {"t", "t_{\\text{inf}}", in.inference_time, unit::seconds}},
           o.cold_start_latency, unit::seconds);
  else
    d.step("Longest wait: the first request waits for the b − 1 after it", "T_{\\text{cold}}",
           "\\frac{$b - 1}{$q} + $t",
           {{"b", "b", in.batch_size},
            {"q", "q", o.per_gpu_qps, unit::requests_per_s},
            {"t", "t_{\\text{inf}}", in.inference_time, unit::seconds}},
           o.cold_start_latency, unit::seconds);
  o.within_budget = in.latency_budget == 0 || o.avg_latency <= in.latency_budget * (1 + 1e-12);
  if (in.latency_budget > 0)
    d.note("Budget", format_value(o.avg_latency, unit::seconds) +
                         (o.within_budget ? " is within " : " exceeds ") + "the budget of " +
                         format_value(in.latency_budget, unit::seconds) + ".");
  if (o.utilization < 0.999)
    d.note("Idle time", "Rounding up to whole GPUs leaves each GPU busy " +
                            format_value(o.utilization, unit::fraction) +
                            " of the time: batches take longer to fill than to run.");
  return o;
}

// The study notes' "Progressive Ranking Architecture": stages run one after another, so
// latencies add; each batched stage is sized like serve.batching at the full request rate.
Result<ServePipelineOut> serve_pipeline(const ServePipelineIn& in, Derivation& d) {
  Json parsed;
  std::string why;
  if (!Json::parse(in.stages, parsed, why)) {
    Error e = stage_error(0, "", "");
    e.message = "stages: not valid JSON (" + why + ")";
    return e;
  }
  if (!parsed.is_array()) {
    Error e = stage_error(0, "", "");
    e.message = "stages: must be a JSON array of stages";
    return e;
  }
  if (parsed.size() == 0) {
    Error e = stage_error(0, "", "");
    e.message =
        R"(stages: the pipeline is empty; give at least one stage, e.g. [{"name": "rank", "latency": 0.02}])";
    return e;
  }
  if (parsed.size() > 100) return stage_error(100, "", "at most 100 stages are supported");
  ServePipelineOut o{};
  o.stages = Json::array();
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    const Json& s = parsed[i];
    if (!s.is_object())
      return stage_error(i, "",
                         "must be an object such as {\"name\": \"rank\", \"latency\": 0.02}");
    std::string name = "Stage " + std::to_string(i + 1);
    if (const Json* n = s.find("name")) {
      if (!n->is_string()) return stage_error(i, "", "name must be text");
      name = n->as_string();
    }
    for (const auto& [k, v] : s.members())
      if (k != "name" && k != "latency" && k != "batch" && k != "inference")
        return stage_error(i, name,
                           "unknown field \"" + k + "\" (use name, latency, batch, inference)");
    const Json* lat = s.find("latency");
    const Json* batch = s.find("batch");
    const Json* inf = s.find("inference");
    Json row = Json::object();
    row.set("name", name);
    double latency = 0;
    if (lat) {
      if (batch || inf)
        return stage_error(i, name, "give either latency or batch + inference, not both");
      double v = 0;
      if (!stage_number(*lat, unit::seconds, v, why))
        return stage_error(i, name, "latency: " + why);
      if (v < 0 || v > 3600)
        return stage_error(
            i, name, "latency = " + format_value(v, unit::seconds) + ": must be between 0 and 1 h");
      latency = v;
      row.set("kind", "fixed");
      row.set("latency", latency);
      row.set("gpus", 0.0);
      row.set("collection_time", 0.0);
      d.step(name + ": fixed latency", "T_{" + std::to_string(i + 1) + "}", "$t",
             {{"t", "t", latency, unit::seconds}}, latency, unit::seconds);
    } else {
      if (!batch || !inf) return stage_error(i, name, "needs latency, or both batch and inference");
      double b = 0, t = 0;
      if (!stage_number(*batch, unit::none, b, why)) return stage_error(i, name, "batch: " + why);
      if (b < 1 || b > 1e6 || b != std::floor(b))
        return stage_error(i, name,
                           "batch = " + count_text(b) + ": must be a whole number from 1 to 1e6");
      if (!stage_number(*inf, unit::seconds, t, why))
        return stage_error(i, name, "inference: " + why);
      if (t <= 0 || t > 3600)
        return stage_error(
            i, name,
            "inference = " + format_value(t, unit::seconds) + ": must be > 0 and at most 1 h");
      Result<Batching> r =
          batching(b, t, in.total_qps, 0, in.wait_model == "half_window", d, name + ": ");
      if (!r.ok()) return stage_error(i, name, r.error().message);
      latency = r->avg_latency;
      row.set("kind", "batched");
      row.set("batch", b);
      row.set("inference", t);
      row.set("qps_per_gpu", r->qps_per_gpu);
      row.set("gpus", r->gpus_needed);
      row.set("per_gpu_qps", r->per_gpu_qps);
      row.set("collection_time", r->collection_time);
      row.set("avg_wait", r->avg_wait);
      row.set("latency", latency);
      o.total_gpus += r->gpus_needed;
    }
    o.total_latency += latency;
    o.stages.push(std::move(row));
  }
  o.stage_count = static_cast<double>(parsed.size());
  if (d.recording()) {
    // One term per stage, named T_1, T_2, … (and G_i for the stages that hold GPUs).
    std::vector<std::string> keys, texs;
    std::vector<Sym> t_syms, g_syms;
    std::string t_formula, g_formula;
    const std::size_t n = o.stages.size();
    keys.reserve(2 * n), texs.reserve(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
      keys.push_back("t" + std::to_string(i)), texs.push_back("T_{" + std::to_string(i + 1) + "}");
      keys.push_back("g" + std::to_string(i)), texs.push_back("G_{" + std::to_string(i + 1) + "}");
    }
    for (std::size_t i = 0; i < n; ++i) {
      const Json& row = o.stages.items()[i];
      t_formula += (i ? " + $" : "$") + keys[2 * i];
      t_syms.push_back({keys[2 * i], texs[2 * i], row.find("latency")->as_number(), unit::seconds});
      const double g = row.find("gpus")->as_number();
      if (g > 0) {
        g_formula += (g_formula.empty() ? "$" : " + $") + keys[2 * i + 1];
        g_syms.push_back({keys[2 * i + 1], texs[2 * i + 1], g});
      }
    }
    d.step("End-to-end latency (stages in sequence)", "T", t_formula, std::span<const Sym>(t_syms),
           o.total_latency, unit::seconds);
    if (!g_syms.empty())
      d.step("GPUs for the batched stages", "G", g_formula, std::span<const Sym>(g_syms),
             o.total_gpus, unit::gpus);
  }
  if (in.budget > 0) {
    o.remaining_budget = in.budget - o.total_latency;
    d.step("Budget left", "T_{\\text{left}}", "$B - $T",
           {{"B", "T_{\\text{budget}}", in.budget, unit::seconds},
            {"T", "T", o.total_latency, unit::seconds}},
           o.remaining_budget, unit::seconds);
    o.within_budget = o.total_latency <= in.budget * (1 + 1e-12);
    d.note("Budget", o.within_budget ? "The pipeline fits the latency budget."
                                     : "The pipeline exceeds the latency budget.");
  } else {
    o.within_budget = true;
    d.note("Budget", "No budget given (budget = 0).");
  }
  return o;
}

void register_serving(Registry& r) {
  constexpr double kMaxQps = 1e9;
  {
    using In = ServeLlmIn;
    using Out = ServeLlmOut;
    r.add(with_sized_model_inputs<In>(
        declare<serve_llm_gpus>(
            {"serve.llm_gpus", "GPUs to serve an LLM", "inference",
             "How many GPUs a request load needs with a single-stream model (one request at a time "
             "per "
             "replica), how many requests fit in memory beside the weights, and the TP × PP "
             "replica "
             "the weights demand. The serving engine card sizes a batching engine, the serving "
             "capacity "
             "card a fleet of them for a load and latency targets.",
             "Pope et al. 2022 §2 (weights read once per token); weight memory corrected, see "
             "docs/errata.md",
             "docs/serving.md#servellm_gpus"},
            {num("users", NAPKIN_FIELD(In, users), "Users")
                 .help("Users sending requests (unused when a total request rate is given)")
                 .range(1, 1e10)
                 .integer(),
             num("rps_per_user", NAPKIN_FIELD(In, rps_per_user), "Requests/s per user",
                 unit::requests_per_s)
                 .help("Requests per second from one user")
                 .positive(1e4),
             num("total_qps", NAPKIN_FIELD(In, total_qps), "Total request rate (0 = users × rate)",
                 unit::requests_per_s)
                 .help("Requests per second for the whole service; 0 takes users × requests per "
                       "user")
                 .range(0, 1e9),
             num("prompt_len", NAPKIN_FIELD(In, prompt_len), "Prompt length", unit::tokens)
                 .help("Tokens in a request's prompt")
                 .range(1, 1e8)
                 .integer(),
             num("gen_len", NAPKIN_FIELD(In, gen_len), "Generated tokens", unit::tokens)
                 .help("Tokens generated per request")
                 .range(1, 1e8)
                 .integer(),
             num("target_latency", NAPKIN_FIELD(In, target_latency), "Target latency",
                 unit::seconds)
                 .help("Longest acceptable time for one request")
                 .positive(1e5),
             gpu_memory_input(NAPKIN_FIELD(In, gpu_memory)),
             peak_flops_input(NAPKIN_FIELD(In, peak_flops), "Peak FLOP/s"),
             hbm_bandwidth_input(NAPKIN_FIELD(In, mem_bandwidth), "Memory bandwidth", 1e15),
             compute_efficiency_input(NAPKIN_FIELD(In, compute_efficiency)),
             bandwidth_efficiency_input(NAPKIN_FIELD(In, bandwidth_efficiency)),
             num("weight_bytes", NAPKIN_FIELD(In, weight_bytes), "Bytes per weight", unit::bytes)
                 .help("2 for BF16 weights, 1 for FP8")
                 .positive(8),
             num("kv_bytes", NAPKIN_FIELD(In, kv_bytes), "Bytes per cached element", unit::bytes)
                 .help("2 for a BF16 cache")
                 .positive(8),
             num("gpus_per_replica", NAPKIN_FIELD(In, gpus_per_replica),
                 "GPUs per replica (0 = smallest that fits)")
                 .help("GPUs holding one copy of the model, TP × PP; 0 picks the smallest shape "
                       "that "
                       "fits")
                 .range(0, 1e4)
                 .integer(),
             num("gpus_per_node", NAPKIN_FIELD(In, gpus_per_node), "GPUs per node (largest TP)",
                 unit::gpus)
                 .help("GPUs joined by NVLink: tensor parallelism stays within them")
                 .range(1, 1024)
                 .integer()},
            {out("total_rps", NAPKIN_FIELD(Out, total_rps), "Total request rate",
                 unit::requests_per_s)
                 .help("Users × requests per user"),
             out("requests_per_gpu", NAPKIN_FIELD(Out, requests_per_gpu), "Requests/s per GPU",
                 unit::requests_per_s)
                 .help("Requests a replica finishes per second, one at a time, ÷ its GPUs"),
             out("gpus_needed", NAPKIN_FIELD(Out, gpus_needed), "GPUs needed", unit::gpus)
                 .help("Whole replicas for the load × GPUs per replica"),
             out("max_concurrent", NAPKIN_FIELD(Out, max_concurrent),
                 "Max concurrent requests per replica")
                 .help("Requests one replica holds at once: the lower of the memory and latency "
                       "limits"),
             out("single_request_latency", NAPKIN_FIELD(Out, single_request_latency),
                 "Single-request latency", unit::seconds)
                 .help("Prefill plus decode of one request alone on its replica (roofline)"),
             out("weight_memory", NAPKIN_FIELD(Out, weight_memory), "Weight memory", unit::bytes)
                 .help("Parameters × bytes per weight"),
             out("weight_memory_seed", NAPKIN_FIELD(Out, weight_memory_seed),
                 "Weight memory as the worked example computes it (its erratum)", unit::bytes)
                 .hidden(),
             out("kv_per_request", NAPKIN_FIELD(Out, kv_per_request), "KV cache per request",
                 unit::bytes)
                 .help("KV cache of one request's prompt and generated tokens"),
             out("gpus_per_replica", NAPKIN_FIELD(Out, gpus_per_replica), "GPUs per replica",
                 unit::gpus)
                 .help("GPUs holding one copy of the model: TP × PP"),
             out("tp", NAPKIN_FIELD(Out, tp), "Tensor parallel (TP)")
                 .help("GPUs splitting each layer"),
             out("pp", NAPKIN_FIELD(Out, pp), "Pipeline stages (PP)")
                 .help("Stages the layers are split into"),
             out("min_gpus_memory", NAPKIN_FIELD(Out, min_gpus_memory),
                 "Fewest GPUs by memory alone", unit::gpus)
                 .help("Weights + one request's cache ÷ one GPU's memory, rounded up"),
             out("replicas", NAPKIN_FIELD(Out, replicas), "Replicas")
                 .help("Copies of the model the load needs"),
             out("max_concurrent_memory", NAPKIN_FIELD(Out, max_concurrent_memory),
                 "Concurrency, memory limit")
                 .help("Requests whose KV cache fits beside the weights"),
             out("max_concurrent_latency", NAPKIN_FIELD(Out, max_concurrent_latency),
                 "Concurrency, latency limit")
                 .help("Requests that can share a replica within the target latency"),
             out("max_concurrent_seed", NAPKIN_FIELD(Out, max_concurrent_seed),
                 "Max concurrent from the worked example's weight memory")
                 .hidden(),
             out("gpus_needed_seed", NAPKIN_FIELD(Out, gpus_needed_seed),
                 "GPUs as the worked example counts them", unit::gpus)
                 .hidden(),
             out("single_request_latency_seed", NAPKIN_FIELD(Out, single_request_latency_seed),
                 "Single-request latency as the worked example computes it", unit::seconds)
                 .hidden()}),
        0));
  }
  {
    using In = ServeBatchingIn;
    using Out = ServeBatchingOut;
    r.add(declare<serve_batching>(
        {"serve.batching", "Dynamic batching: QPS vs latency", "inference",
         "GPUs needed for a request rate with batched inference, and the latency a request sees: "
         "the wait for its batch to fill plus the inference time. LLM engines batch "
         "continuously: the serving capacity card sizes those.",
         "Little 1961 (L = λW); Crankshaw et al. 2017 (Clipper) §4.3 (adaptive batching)",
         "docs/serving.md#servebatching"},
        {num("batch_size", NAPKIN_FIELD(In, batch_size), "Batch size")
             .help("Requests per batch")
             .range(1, 1e6)
             .integer()
             .required(),
         num("inference_time", NAPKIN_FIELD(In, inference_time), "Inference time per batch",
             unit::seconds)
             .help("Time for a GPU to run one batch")
             .positive(3600)
             .required(),
         num("total_qps", NAPKIN_FIELD(In, total_qps), "Total QPS", unit::requests_per_s)
             .help("Requests per second arriving")
             .positive(kMaxQps)
             .required(),
         num("gpus", NAPKIN_FIELD(In, gpus), "GPUs (0 = as many as needed)")
             .help("GPUs serving; 0 takes as many as the load needs")
             .range(0, 1e7)
             .integer(),
         num("latency_budget", NAPKIN_FIELD(In, latency_budget), "Latency budget (0 = none)",
             unit::seconds)
             .help("Longest acceptable latency; 0 = none")
             .range(0, 3600),
         choice("wait_model", NAPKIN_FIELD(In, wait_model), "Wait to fill a batch",
                "fill|half_window")
             .labels("(batch − 1) / (2 × arrival rate)|Half the collection window")
             .help("Fill: each request waits for the rest of its batch to arrive (a batch of one "
                   "never waits); half the window: the worked example's batch / (2 × arrival "
                   "rate)")},
        {out("qps_per_gpu", NAPKIN_FIELD(Out, qps_per_gpu), "QPS one GPU sustains",
             unit::requests_per_s)
             .help("Batch ÷ inference time"),
         out("gpus_needed", NAPKIN_FIELD(Out, gpus_needed), "GPUs needed", unit::gpus)
             .help("Total QPS ÷ QPS per GPU, rounded up"),
         out("gpus_used", NAPKIN_FIELD(Out, gpus_used), "GPUs used", unit::gpus)
             .help("GPUs the figures below are for"),
         out("per_gpu_qps", NAPKIN_FIELD(Out, per_gpu_qps), "Arrivals per GPU",
             unit::requests_per_s)
             .help("Arrivals per GPU per second"),
         out("collection_time", NAPKIN_FIELD(Out, collection_time), "Batch collection time",
             unit::seconds)
             .help("Time to fill a batch at that arrival rate"),
         out("avg_wait", NAPKIN_FIELD(Out, avg_wait), "Average wait", unit::seconds)
             .help("Average time a request waits for its batch to fill"),
         out("avg_latency", NAPKIN_FIELD(Out, avg_latency), "Average latency", unit::seconds)
             .help("Average wait + inference time"),
         out("cold_start_latency", NAPKIN_FIELD(Out, cold_start_latency), "Cold-start latency",
             unit::seconds)
             .help("The first request's wait for a full batch + inference"),
         out("utilization", NAPKIN_FIELD(Out, utilization), "GPU busy fraction", unit::fraction)
             .help("Share of time a GPU is busy"),
         out("within_budget", NAPKIN_FIELD(Out, within_budget), "Within budget")
             .help("Whether the average latency is within the budget"),
         out("avg_latency_half_window", NAPKIN_FIELD(Out, avg_latency_half_window),
             "Average latency, half-window rule", unit::seconds)
             .help("Half the collection window + inference time, as the worked example counts "
                   "it")}));
  }
  {
    using In = ServePipelineIn;
    using Out = ServePipelineOut;
    // The keys serve_pipeline writes in each stage's row (a fixed stage has no batch columns).
    static constexpr ColumnRow kStageColumns[] = {
        {"name", "Stage", "", "The stage's name as given (or its position)"},
        {"kind", "Kind", "", "fixed: a latency as given; batched: batch ÷ inference time"},
        {"batch", "Batch", "", "Requests one GPU runs together"},
        {"inference", "Inference", unit::seconds, "Time one batch takes on one GPU"},
        {"qps_per_gpu", "QPS one GPU sustains", unit::requests_per_s, "Batch ÷ inference time"},
        {"gpus", "GPUs", unit::gpus, "Total QPS ÷ QPS per GPU, rounded up (0 for a fixed stage)"},
        {"per_gpu_qps", "Arrivals per GPU", unit::requests_per_s, "Total QPS ÷ the stage's GPUs"},
        {"collection_time", "Batch collection", unit::seconds,
         "Time to fill a batch at one GPU's arrival rate"},
        {"avg_wait", "Average wait", unit::seconds, "Average time a request waits for its batch"},
        {"latency", "Latency", unit::seconds, "The stage's average latency: wait + inference"},
    };
    r.add(declare<serve_pipeline>(
        {"serve.pipeline", "Multi-stage ranking pipeline", "inference",
         "Latency and GPUs of a pipeline of stages (fixed latency or batched inference) against "
         "a latency budget.",
         "Covington et al. 2016 (deep networks for YouTube recommendations): candidate generation, "
         "then ranking",
         "docs/serving.md#servepipeline"},
        {num("total_qps", NAPKIN_FIELD(In, total_qps), "Total QPS", unit::requests_per_s)
             .help("Requests per second entering the pipeline")
             .positive(kMaxQps),
         num("budget", NAPKIN_FIELD(In, budget), "Latency budget (0 = none)", unit::seconds)
             .help("End-to-end latency budget; 0 = none")
             .range(0, 3600),
         text("stages", NAPKIN_FIELD(In, stages), "Stages (JSON)")
             .help(
                 R"(array of {"name", "latency"} or {"name", "batch", "inference"}; times in seconds or "20 ms")"),
         choice("wait_model", NAPKIN_FIELD(In, wait_model), "Wait to fill a batch",
                "fill|half_window")
             .labels("(batch − 1) / (2 × arrival rate)|Half the collection window")
             .help("Fill: each request waits for the rest of its batch to arrive; half the "
                   "window: the worked example's batch / (2 × arrival rate)")},
        {out("total_latency", NAPKIN_FIELD(Out, total_latency), "End-to-end latency", unit::seconds)
             .help("Sum of the stages' latencies"),
         out("remaining_budget", NAPKIN_FIELD(Out, remaining_budget), "Budget left", unit::seconds)
             .help("Budget − total latency"),
         out("within_budget", NAPKIN_FIELD(Out, within_budget), "Within budget")
             .help("Whether the total is within the budget"),
         out("total_gpus", NAPKIN_FIELD(Out, total_gpus), "GPUs", unit::gpus)
             .help("GPUs over all stages"),
         out("stage_count", NAPKIN_FIELD(Out, stage_count), "Stages")
             .help("Stages in the pipeline"),
         out("stages", NAPKIN_FIELD(Out, stages), "Per stage")
             .help("Latency and GPUs of each stage")
             .columns(kStageColumns)
             .parts_of("budget", "latency", "latency budget")}));
  }
}

}  // namespace napkin
