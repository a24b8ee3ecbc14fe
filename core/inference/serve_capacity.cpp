// serve.capacity: the replicas and GPUs a request load needs under latency targets. Each
// replica is one serve.engine (its TTFT, TPOT and request time at the batch it runs, called,
// never retyped); a replica's batch slots are the servers of an M/G/c queue with Poisson
// arrivals (Allen–Cunneen, core/scenario/queueing.cpp). Every replica gets an equal, random
// share of the requests, which keeps each share Poisson.
#include "inference/serve_capacity.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <vector>

#include "base/counts.hpp"
#include "base/portable_math.hpp"
#include "base/units.hpp"
#include "scenario/queueing.hpp"

namespace napkin {

namespace {

std::string count_text(double v) {
  return format_value(v, unit::none);
}
std::string time_text(double v) {
  return format_value(v, unit::seconds);
}

// Prompt lengths at the midpoints of five equal-probability bins of their lognormal,
// z = Φ⁻¹(0.1, 0.3, 0.5, 0.7, 0.9) (standard normal table); the top one is the p90 itself.
constexpr double kBinZ[5] = {-1.2815515655446004, -0.5244005127080407, 0, 0.5244005127080407,
                             1.2815515655446004};

// One replica at batch b, from serve.engine: the time a request holds a slot and its spread,
// the TPOTs, and the distribution of a request's own TTFT (no waiting): hit or miss of the
// prefix cache, times its prompt length's bin.
struct Point {
  double b = 1, service = 0, cs2 = 0, ttft = 0, tpot = 0, tpot90 = 0;
  double t[10] = {}, pr[10] = {};
  int n = 0;
  double t50 = 0, t90 = 0, t_min = 0;  // median, p90 and least of that TTFT
};

// The queue of one replica among R: offered load, utilisation, wait and TTFT percentiles.
struct Queue {
  double a = 0, rho = 0, wait_prob = 0, mean_wait = 0, ttft50 = 0, ttft90 = 0;
  bool stable = false;
};

// TTFT = wait + own prefill, combined as a distribution (wait_plus_quantile), not by adding
// two percentiles.
Queue queue_at(double qps, double replicas, const Point& p) {
  Queue q;
  q.a = qps / replicas * p.service;
  q.rho = q.a / p.b;
  q.stable = q.a < p.b;
  if (!q.stable) return q;
  q.wait_prob = erlang_c(p.b, q.a);
  q.mean_wait = mgc_mean_wait(q.wait_prob, p.b, q.a, p.service, p.cs2);
  const double w = q.wait_prob > 0 ? q.mean_wait / q.wait_prob : 0;
  q.ttft50 = wait_plus_quantile(q.wait_prob, w, p.t, p.pr, p.n, 0.5);
  q.ttft90 = wait_plus_quantile(q.wait_prob, w, p.t, p.pr, p.n, 0.9);
  return q;
}

// Which targets a point misses (empty: it meets them all); the first one named in a verdict.
std::string missed(const ServeCapacityIn& in, const Point& p, const Queue& q) {
  if (!q.stable) return "replicas";
  if (in.tpot_target > 0 && p.tpot > in.tpot_target) return "tpot_target";
  if (in.tpot_p90_target > 0 && p.tpot90 > in.tpot_p90_target) return "tpot_p90_target";
  if (in.ttft_p50_target > 0 && q.ttft50 > in.ttft_p50_target) return "ttft_p50_target";
  if (in.ttft_target > 0 && q.ttft90 > in.ttft_target) return "ttft_target";
  if (q.rho > in.max_utilization * (1 + 1e-12)) return "max_utilization";
  return "";
}

}  // namespace

namespace {

// The load and the spread of the lengths.
struct Lengths {
  double lambda = 0;                 // requests per second over the deployment
  double sig_p = 0, p90_prompt = 0;  // the prompts' lognormal σ and p90
  double cv2_p = 0, cv2_o = 0;       // squared coefficients of variation: prompts, outputs
};

Result<Lengths> load_and_lengths(const ServeCapacityIn& in, ServeCapacityOut& o, Derivation& d) {
  // The load: requests per second over the whole deployment.
  Lengths L;
  const double lambda = in.qps > 0 ? in.qps : in.users * in.rps_per_user;
  if (lambda <= 0)
    return Error::inconsistent("qps", in.qps,
                               "give the load: QPS, or users and requests/s per user");
  if (in.qps > 0 && in.users * in.rps_per_user > 0)
    d.warn("Both QPS and users × requests per user are given: the QPS (" + count_text(in.qps) +
           " req/s) is used.");
  if (in.qps <= 0)
    d.step("Request rate", "\\lambda", "$U \\cdot $r",
           {{"U", "U", in.users}, {"r", "r_u", in.rps_per_user, unit::requests_per_s}}, lambda,
           unit::requests_per_s);
  o.qps = lambda;

  // Length distributions: a lognormal through the mean and the p90, or every request at the
  // mean when no p90 is given.
  L.lambda = lambda;
  const double max_ratio = lognormal_max_p90_ratio();
  auto sigma_of = [&](const char* name, double mean, double p90,
                      double& sigma) -> std::optional<Error> {
    sigma = 0;
    if (p90 <= 0) return std::nullopt;
    if (p90 < mean)
      return Error::inconsistent(name, p90,
                                 "must be at least the mean length (" + count_text(mean) + ")");
    sigma = lognormal_sigma(mean, p90);
    if (sigma < 0) {
      // No lognormal has its p90 this far above its mean: its spread is counted as the widest
      // lognormal's (σ = z, c² = e^{z²} − 1 ≈ 4.2): an assumption, stated in a warning.
      sigma = lognormal_widest_sigma();
      d.warn(std::string(name == std::string("prompt_len_p90") ? "Prompt" : "Output") +
             " lengths with a p90 above " + format_value(max_ratio, unit::times) +
             " the mean fit no lognormal: their spread is counted as the widest lognormal's "
             "(squared coefficient of variation " +
             format_value(lognormal_cv2(sigma), unit::none) + ").");
    }
    return std::nullopt;
  };
  double sig_o = 0;
  if (auto e = sigma_of("prompt_len_p90", in.prompt_len, in.prompt_len_p90, L.sig_p)) return *e;
  if (auto e = sigma_of("output_len_p90", in.output_len, in.output_len_p90, sig_o)) return *e;
  L.cv2_p = lognormal_cv2(L.sig_p), L.cv2_o = lognormal_cv2(sig_o);
  L.p90_prompt = in.prompt_len_p90 > 0 ? in.prompt_len_p90 : in.prompt_len;
  return L;
}

// The replica, serve.engine at its largest batch for mean and for p90-length prompts, and its
// point at any batch.
struct Replica {
  const ServeCapacityIn* in;
  Lengths len;
  ServeEngineIn eng, eng90;
  ServeEngineOut full, full90;
  double b_cap = 0;  // the most sequences it runs
  Point at(double b);
};

Result<Replica> replica_of(const ServeCapacityIn& in, const Lengths& L, Derivation& d) {
  // The replica: serve.engine at its largest batch, for mean and for p90-length prompts.
  Replica rep{&in, L, in, in, {}, {}};
  Derivation quiet(false);
  rep.eng.batch = 0;
  const auto full = serve_engine(rep.eng, quiet);
  if (!full.ok()) return full.error();
  rep.full = full.value();
  rep.eng90 = rep.eng;
  rep.eng90.prompt_len = L.p90_prompt;
  const auto full90 = serve_engine(rep.eng90, quiet);
  if (!full90.ok()) {
    Error e = full90.error();
    if (e.input == "prompt_len") e.input = "prompt_len_p90";
    return e;
  }
  rep.full90 = full90.value();
  if (in.batch > full->max_batch)
    return Error::inconsistent(
        "batch", in.batch,
        "more sequences than the KV cache holds: at most " + count_text(full->max_batch));
  // Engines schedule thousands of sequences at most; a cache that holds more (a tiny model on a
  // large GPU) is counted at 100,000, which also bounds the search's work.
  constexpr double kMostSlots = 1e5;
  rep.b_cap = in.batch > 0 ? in.batch : full->max_batch;
  if (rep.b_cap > kMostSlots) {
    d.warn("The KV cache holds " + count_text(rep.b_cap) +
           " sequences; a replica is counted as running at most " + count_text(kMostSlots) + ".");
    rep.b_cap = kMostSlots;
  }
  return rep;
}

// serve.engine at batch b: the time a request holds a slot (its TTFT and O − 1 more tokens),
// and its spread from the lengths' spread (the output's tokens at TPOT, the prompt's
// prefill roughly in proportion to its length, hits against misses).
Point Replica::at(double b) {
  const ServeCapacityIn& in = *this->in;
  const double sig_p = len.sig_p, p90_prompt = len.p90_prompt;
  Derivation quiet(false);
  Point p;
  p.b = b;
  eng.batch = b;
  const auto r = serve_engine(eng, quiet);
  // The p90 prompt's engine only when prompts vary (otherwise it is the same run).
  eng90.batch = std::min(b, full90.max_batch);
  const auto r90 = sig_p > 0 ? serve_engine(eng90, quiet) : r;
  if (!r.ok() || !r90.ok()) return p;  // not reached: b fits both (checked above)
  p.ttft = r->ttft;
  p.tpot = r->tpot;
  p.service = r->request_time;
  p.tpot90 = r90->tpot;
  // A request's own TTFT: a hit (probability h) or a miss, at a prompt length in one of five
  // equal-probability bins. Below the mean a prefill is taken in proportion to its length;
  // between the mean and the p90 it runs linearly between serve.engine's two TTFTs (every
  // point grows with the batch, which the search below relies on).
  const double h = r->shared_tokens > 0 ? in.prefix_hit_rate : 0;
  const double own[2] = {r->ttft_hit, r->ttft_miss}, own90[2] = {r90->ttft_hit, r90->ttft_miss};
  const double share[2] = {h, 1 - h};
  for (int c = 0; c < 2; ++c) {
    if (sig_p <= 0) {
      p.t[p.n] = own[c], p.pr[p.n++] = share[c];
      continue;
    }
    for (double z : kBinZ) {
      const double len = in.prompt_len * portable_exp(sig_p * z - sig_p * sig_p / 2);
      const double x = (len - in.prompt_len) / (p90_prompt - in.prompt_len);
      p.t[p.n] = x <= 0 ? own[c] * len / in.prompt_len : own[c] + x * (own90[c] - own[c]);
      p.pr[p.n++] = share[c] / 5;
    }
  }
  p.t50 = wait_plus_quantile(0, 0, p.t, p.pr, p.n, 0.5);
  p.t90 = wait_plus_quantile(0, 0, p.t, p.pr, p.n, 0.9);
  p.t_min = *std::min_element(p.t, p.t + p.n);
  const double var = p.tpot * p.tpot * in.output_len * in.output_len * len.cv2_o +
                     p.ttft * p.ttft * len.cv2_p +
                     h * (1 - h) * (own[0] - own[1]) * (own[0] - own[1]);
  p.cs2 = var / (p.service * p.service);
  return p;
}

// The best batch per replica and the fewest replicas (or, with the replicas fixed, the lowest
// p90 TTFT), searched over every batch the targets allow.
struct Choice {
  Point p;
  Queue q;
  double replicas = 0;
  bool meets = false;
};

Result<Choice> best_batch(const ServeCapacityIn& in, Replica& rep, Derivation& d) {
  // What holds whatever the replicas: the TPOT targets, and a prefill shorter than the TTFT
  // targets. Both grow with the batch, so the batches that pass run from 1 to some b_hi.
  const bool fixed = in.replicas > 0;
  auto batch_miss = [&](const Point& p) -> std::string {
    if (in.tpot_target > 0 && p.tpot > in.tpot_target) return "tpot_target";
    if (in.tpot_p90_target > 0 && p.tpot90 > in.tpot_p90_target) return "tpot_p90_target";
    if (fixed) return "";
    if (in.ttft_p50_target > 0 && p.t50 >= in.ttft_p50_target) return "ttft_p50_target";
    if (in.ttft_target > 0 && p.t90 >= in.ttft_target) return "ttft_target";
    return "";
  };
  const Point one = rep.at(1);
  if (const std::string miss = batch_miss(one); !miss.empty() && !fixed) {
    // The verdict: no batch, hence no number of replicas, meets this target.
    const bool tpot = miss.rfind("tpot", 0) == 0;
    const double target = miss == "tpot_target"       ? in.tpot_target
                          : miss == "tpot_p90_target" ? in.tpot_p90_target
                          : miss == "ttft_p50_target" ? in.ttft_p50_target
                                                      : in.ttft_target;
    const double at_one = miss == "tpot_target"       ? one.tpot
                          : miss == "tpot_p90_target" ? one.tpot90
                          : miss == "ttft_p50_target" ? one.t50
                                                      : one.t90;
    return Error::inconsistent(
        miss, target,
        "cannot be met at any batch or number of replicas: one request alone takes " +
            time_text(at_one) + (tpot ? " per token" : " to prefill") +
            " on this replica; use more GPUs per replica (TP), FP8 or INT4 weights, or a "
            "faster GPU");
  }
  double lo = 1, hi = rep.b_cap;
  if (batch_miss(rep.at(hi)).empty())
    lo = hi;
  else
    while (hi - lo > 1) {
      const double mid = std::floor((lo + hi) / 2);
      (batch_miss(rep.at(mid)).empty() ? lo : hi) = mid;
    }
  const double b_hi = lo;
  const double lambda = rep.len.lambda;

  // A batch's replicas: the fewest that keep utilisation under the target and meet the TTFT
  // targets (waits shrink as replicas are added: double, then bisect), or the fixed number.
  auto replicas_for = [&](const Point& p) {
    if (fixed) return in.replicas;
    double lo_r = std::max(1.0, ceil_count(lambda * p.service / (p.b * in.max_utilization)));
    if (missed(in, p, queue_at(lambda, lo_r, p)).empty()) return lo_r;
    double hi_r = lo_r * 2;
    for (int i = 0; i < 80 && !missed(in, p, queue_at(lambda, hi_r, p)).empty(); ++i)
      lo_r = hi_r, hi_r *= 2;
    // Capped: past 2^53 replicas the midpoint rounds to an end and the loop would spin.
    for (int i = 0; i < 200 && hi_r - lo_r > 1; ++i) {
      const double mid = std::floor((lo_r + hi_r) / 2);
      (missed(in, p, queue_at(lambda, mid, p)).empty() ? hi_r : lo_r) = mid;
    }
    return hi_r;
  };
  Point best;
  Queue best_q;
  double best_r = 0;
  bool best_meets = false;
  auto consider = [&](const Point& p) {
    const double r = replicas_for(p);
    const Queue q = queue_at(lambda, r, p);
    if (!q.stable) return;
    const bool meets = missed(in, p, q).empty();
    // Fewest replicas, then the smallest batch (the shortest TPOT); with the replicas fixed,
    // the lowest p90 TTFT.
    const bool better =
        best_r == 0 || (meets && !best_meets) ||
        (meets == best_meets &&
         (fixed ? q.ttft90 < best_q.ttft90 : r < best_r || (r == best_r && p.b < best.b)));
    if (better) best = p, best_q = q, best_r = r, best_meets = meets;
  };
  // Every integer batch from 1 to b_hi, by branch and bound. On [b1, b2], with S, the TTFT
  // points and so the offered load a = λS/R growing with the batch (serve.engine's times do):
  //  - replicas ≥ λ·S(b1) / (b2·ρ_max) (the utilisation limit at the interval's best ratio);
  //  - at R replicas, p90 TTFT ≥ max(T_90(b1), W_90(b2 slots, load a(b1), c_s² = 0) + T_min(b1)):
  //    Erlang C and the Allen–Cunneen wait fall with more slots and rise with load, time and
  //    c_s² (Whitt 1993), and the wait adds to every prefill.
  // An interval whose bounds cannot beat the best batch so far (fewest replicas, then lowest
  // p90 TTFT; with the replicas fixed, meeting the targets, then lowest p90 TTFT) is dropped;
  // the others are halved down to single batches, which are evaluated. Exact, and a few dozen
  // serve.engine calls instead of b_hi.
  auto ttft_bound = [&](const Point& p1, double b2, double r) {
    const double a1 = lambda / r * p1.service;
    if (a1 >= b2) return HUGE_VAL;  // every batch in the interval is unstable
    const double w90 = wait_quantile(b2, a1, mgc_mean_wait(b2, a1, p1.service, 0), 0.9);
    return std::max(p1.t90, w90 + p1.t_min);
  };
  auto dropped = [&](const Point& p1, double b2) {
    if (best_r == 0) return false;
    if (fixed) {
      const double lb = ttft_bound(p1, b2, in.replicas);
      // No batch in the interval can meet the targets: its TTFT or its utilisation is over.
      const bool cannot_meet =
          (in.ttft_target > 0 && lb > in.ttft_target) ||
          lambda * p1.service / (in.replicas * b2) > in.max_utilization * (1 + 1e-12);
      return lb == HUGE_VAL || (lb >= best_q.ttft90 && (best_meets || cannot_meet));
    }
    if (!best_meets) return false;
    const double r_lb = std::max(1.0, ceil_count(lambda * p1.service / (b2 * in.max_utilization)));
    return r_lb > best_r || (r_lb == best_r && p1.b >= best.b);
  };
  struct Span {
    double b1, b2;
    Point p1;
  };
  // Counting replicas, the largest batch first (it usually needs the fewest: a good bound),
  // then smaller batches from the smallest up.
  std::vector<Span> todo{{1, b_hi, one}};
  if (!fixed) consider(rep.at(b_hi));
  // A backstop on the work (never reached in the tests and worked examples): past it the best
  // batch found so far is kept, with a warning.
  constexpr int kMostSpans = 4000;
  int spans = 0;
  while (!todo.empty()) {
    if (++spans > kMostSpans) {
      d.warn("The batch search stopped after " + count_text(kMostSpans) +
             " intervals: the batch is the best found, perhaps not the best.");
      break;
    }
    Span s = todo.back();
    todo.pop_back();
    if (dropped(s.p1, s.b2)) continue;
    if (s.b1 == s.b2) {
      consider(s.p1);
      continue;
    }
    const double mid = std::floor((s.b1 + s.b2) / 2);
    Span left{s.b1, mid, s.p1}, right{mid + 1, s.b2, rep.at(mid + 1)};
    todo.push_back(std::move(right));  // smaller batches first
    todo.push_back(std::move(left));
  }
  if (best_r == 0) {
    // Only with a fixed number of replicas: every batch's queue grows without bound.
    const Point top = rep.at(b_hi);
    return Error::inconsistent(
        "replicas", in.replicas,
        "too few: they serve about " +
            format_value(in.replicas * top.b / top.service, unit::requests_per_s) +
            " with every batch slot busy, and the load is " +
            format_value(lambda, unit::requests_per_s));
  }
  return Choice{best, best_q, best_r, best_meets};
}

// The chosen replica and its queue, with the derivation; the goodput at that batch.
void report(const ServeCapacityIn& in, const Lengths& L, const Choice& c, ServeCapacityOut& o,
            Derivation& d) {
  // The chosen replica and queue, with the derivation.
  const Point& p = c.p;
  const Queue& q = c.q;
  const double best_r = c.replicas;
  const bool best_meets = c.meets;
  const double lambda = L.lambda, cv2_o = L.cv2_o, cv2_p = L.cv2_p;
  const bool fixed = in.replicas > 0;
  o.batch = p.b;
  d.note("Batch per replica",
         "Each replica runs up to " + count_text(p.b) + " sequences: serve.engine's TTFT (" +
             time_text(p.ttft) + ") and TPOT (" + time_text(p.tpot) +
             ") at that batch, as if every slot were busy." +
             (fixed ? "" : " Larger batches miss a target or need more replicas."));
  o.service_time = p.service;
  d.step("Time a request holds a batch slot", "S", "$T + ($O - 1) \\cdot $t",
         {{"T", "\\text{TTFT}_B", p.ttft, unit::seconds},
          {"O", "O", in.output_len, unit::tokens},
          {"t", "\\text{TPOT}_B", p.tpot, unit::seconds}},
         p.service, unit::seconds);
  o.service_cv2 = p.cs2;
  d.step("Spread of that time (squared coefficient of variation)", "c_s^2",
         "\\frac{($t \\cdot $O)^2 \\cdot $v + $T^2 \\cdot $w}{$S^2}",
         {{"t", "\\text{TPOT}_B", p.tpot, unit::seconds},
          {"O", "O", in.output_len, unit::tokens},
          {"v", "c_O^2", cv2_o},
          {"T", "\\text{TTFT}_B", p.ttft, unit::seconds},
          {"w", "c_P^2", cv2_p},
          {"S", "S", p.service, unit::seconds}},
         p.cs2, unit::none);
  o.replicas = best_r;
  o.gpus = best_r * o.gpus_per_replica;
  o.utilization = q.rho;
  d.step("Utilisation of a replica's slots", "\\rho", "\\frac{$l \\cdot $S}{$R \\cdot $B}",
         {{"l", "\\lambda", lambda, unit::requests_per_s},
          {"S", "S", p.service, unit::seconds},
          {"R", "R", best_r},
          {"B", "B", p.b}},
         q.rho, unit::fraction);
  o.wait_probability = q.wait_prob;
  d.step("Chance a request waits for a slot (Erlang C)", "C(B, a)",
         "\\text{ErlangC}(B = $B, a = $a)", {{"B", "B", p.b}, {"a", "a", q.a}}, q.wait_prob,
         unit::fraction);
  d.step("Mean wait (Allen–Cunneen M/G/c)", "W_q",
         "\\frac{$C \\cdot $S}{$B - $a} \\cdot \\frac{1 + $c}{2}",
         {{"C", "C", q.wait_prob, unit::fraction},
          {"S", "S", p.service, unit::seconds},
          {"B", "B", p.b},
          {"a", "a", q.a},
          {"c", "c_s^2", p.cs2}},
         q.mean_wait, unit::seconds);
  o.wait_p90 = wait_quantile(p.b, q.a, q.mean_wait, 0.9);
  d.step("p90 wait (exponential once waiting)", "W_{90}",
         "\\max(0, \\frac{$W}{$C} \\cdot \\ln \\frac{$C}{0.1})",
         {{"W", "W_q", q.mean_wait, unit::seconds}, {"C", "C", q.wait_prob, unit::fraction}},
         o.wait_p90, unit::seconds);
  o.ttft_p50 = q.ttft50;
  o.ttft_p90 = q.ttft90;
  d.step(
      "p90 time to first token: the wait plus the request's own prefill, as a sum of "
      "independent times (hits and misses, prompt lengths in five bins)",
      "\\text{TTFT}_{90}", "Q_{0.9}(W + T),\\ P(W > x) = $C \\cdot e^{-x \\cdot $C / $W}",
      {{"C", "C", q.wait_prob, unit::fraction}, {"W", "W_q", q.mean_wait, unit::seconds}}, q.ttft90,
      unit::seconds);
  o.tpot_p50 = p.tpot;
  o.tpot_p90 = p.tpot90;
  o.qps_per_replica = in.max_utilization * p.b / p.service;
  // Goodput (Zhong et al. 2024, DistServe, §2: "the maximum request rate that can be served
  // adhering to the SLO attainment goal", per GPU): the fastest Poisson arrivals one replica at
  // this batch takes while its latency targets hold, without the utilisation headroom. The TTFT
  // percentiles grow with the load, so bisect between 0 and the stability limit B/S.
  ServeCapacityIn latency_only = in;
  latency_only.max_utilization = 1;
  double ok = 0, fails = p.b / p.service;
  if (!missed(latency_only, p, queue_at(fails * 1e-9, 1, p)).empty()) fails = 0;  // none meets
  for (int i = 0; i < 60 && fails - ok > 1e-9 * fails; ++i) {
    const double mid = 0.5 * (ok + fails);
    (missed(latency_only, p, queue_at(mid, 1, p)).empty() ? ok : fails) = mid;
  }
  o.goodput = ok / o.gpus_per_replica;
  d.step("Goodput: the most requests per second per GPU that meet the latency targets",
         "G_{\\text{SLO}}", "\\frac{\\max \\{\\lambda_1 : \\text{targets hold}\\}}{$g}",
         {{"g", "TP \\cdot PP", o.gpus_per_replica}}, o.goodput, unit::requests_per_s);
  d.step("GPUs", "G", "$R \\cdot $g",
         {{"R", "R", best_r}, {"g", "TP \\cdot PP", o.gpus_per_replica}}, o.gpus, unit::gpus);
  o.meets_targets = best_meets;
  if (!best_meets) {
    const std::string miss = missed(in, p, q);
    const char* what = miss == "tpot_target"       ? "the TPOT target"
                       : miss == "tpot_p90_target" ? "the p90 TPOT target"
                       : miss == "ttft_p50_target" ? "the median TTFT target"
                       : miss == "ttft_target"     ? "the p90 TTFT target"
                                                   : "the utilisation limit";
    d.warn(count_text(best_r) + " replicas miss " + what + " at every batch: the best, " +
           count_text(p.b) + " sequences, gives a p90 TTFT of " + time_text(q.ttft90) +
           ", a TPOT of " + time_text(p.tpot) + " and " + format_value(q.rho, unit::fraction) +
           " utilisation.");
  }
}

}  // namespace

Result<ServeCapacityOut> serve_capacity(const ServeCapacityIn& in, Derivation& d) {
  ServeCapacityOut o{};
  Result<Lengths> L = load_and_lengths(in, o, d);
  if (!L.ok()) return L.error();
  Result<Replica> rep = replica_of(in, L.value(), d);
  if (!rep.ok()) return rep.error();
  o.gpus_per_replica = static_cast<double>(in.tp) * in.pp;
  Replica replica = rep.value();
  Result<Choice> c = best_batch(in, replica, d);
  if (!c.ok()) return c.error();
  report(in, L.value(), c.value(), o, d);
  return o;
}

void insert_target_inputs(Estimator& e, std::size_t at, const void* defaults, const Via& via) {
  using In = ServeCapacityIn;
  insert_decls<In>(
      e, at,
      {num<In, double>("ttft_target", NAPKIN_FIELD(In, ttft_target), "TTFT target, p90 (0 = none)",
                       unit::seconds)
           .help("90 % of requests see their first token within this, waiting included")
           .range(0, 1e5)
           .group("job"),
       num<In, double>("tpot_target", NAPKIN_FIELD(In, tpot_target), "TPOT target, mean (0 = none)",
                       unit::seconds)
           .help("Time per output token for mean-length requests")
           .range(0, 1e3)
           .group("job"),
       num<In, double>("max_utilization", NAPKIN_FIELD(In, max_utilization), "Utilisation limit",
                       unit::fraction)
           .help("The busiest a replica's batch slots may be on average; headroom for bursts")
           .positive(1)
           .group("job")},
      defaults, via);
}

void register_serve_capacity(Registry& r) {
  using In = ServeCapacityIn;
  using Out = ServeCapacityOut;
  constexpr double kMaxTokens = 1e7;
  const InputDecl<In> own[] = {
      num<In, double>("batch", NAPKIN_FIELD(In, batch), "Largest batch per replica (0 = what fits)")
          .help("Most sequences a replica runs at once (vLLM's limit on running sequences); 0 = "
                "what the KV "
                "cache holds")
          .range(0, 1e7)
          .integer()
          .group("engine"),
      num<In, double>("qps", NAPKIN_FIELD(In, qps), "Requests per second", unit::requests_per_s)
          .help("Arrivals over the whole deployment, at random (Poisson); 0 = users × rate")
          .range(0, 1e7)
          .group("job"),
      num<In, double>("users", NAPKIN_FIELD(In, users), "Users (when QPS is 0)")
          .help("Active users, each sending requests at the rate below")
          .range(0, 1e10)
          .group("job"),
      num<In, double>("rps_per_user", NAPKIN_FIELD(In, rps_per_user), "Requests/s per user",
                      unit::requests_per_s)
          .help("How often one user sends a request")
          .range(0, 1e4)
          .group("job"),
      num<In, double>("prompt_len_p90", NAPKIN_FIELD(In, prompt_len_p90),
                      "Prompt length p90 (0 = all equal)", unit::tokens)
          .help("90 % of prompts are at most this long; 0 = every prompt at the mean")
          .range(0, kMaxTokens)
          .integer()
          .group("job"),
      num<In, double>("output_len_p90", NAPKIN_FIELD(In, output_len_p90),
                      "Output length p90 (0 = all equal)", unit::tokens)
          .help("90 % of outputs are at most this long; 0 = every output at the mean")
          .range(0, kMaxTokens)
          .integer()
          .group("job"),
      num<In, double>("ttft_p50_target", NAPKIN_FIELD(In, ttft_p50_target),
                      "TTFT target, median (0 = none)", unit::seconds)
          .help("Half the requests see their first token within this, waiting included")
          .range(0, 1e5)
          .group("job"),
      num<In, double>("tpot_p90_target", NAPKIN_FIELD(In, tpot_p90_target),
                      "TPOT target, p90 (0 = none)", unit::seconds)
          .help("Time per output token when the batch holds p90-length prompts")
          .range(0, 1e3)
          .group("job")};
  std::vector<InputRow> ins(std::begin(own), std::end(own));
  ins.push_back(num<In, double>("replicas", NAPKIN_FIELD(In, replicas),
                                "Replicas (0 = fewest that meet the targets)")
                    .help("Fix the replicas to see the latency they give; 0 finds the fewest")
                    .range(0, 1e7)
                    .integer()
                    .group("layout"));
  r.add(with_engine_inputs<In>(with_target_inputs<In>(
      declare<serve_capacity>(
          {"serve.capacity", "Serving capacity: replicas and GPUs for a load", "inference",
           "Replicas and GPUs of a continuous-batching deployment for a request rate, prompt and "
           "output lengths and latency targets: requests queue for each replica's batch slots.",
           "Allen 1990 and Whitt 1993 (Allen–Cunneen M/G/c); Kwon et al. 2023 (PagedAttention); "
           "Austin et al. 2025, How to Scale Your Model (serving)",
           "docs/serving.md#servecapacity"},
          std::move(ins),
          {out("replicas", NAPKIN_FIELD(Out, replicas), "Replicas")
               .help("Copies of the model, each on TP × PP GPUs, behind one load balancer"),
           out("gpus", NAPKIN_FIELD(Out, gpus), "GPUs", unit::gpus)
               .help("Replicas × GPUs per replica"),
           out("meets_targets", NAPKIN_FIELD(Out, meets_targets), "Meets the targets")
               .help("Every latency target and the utilisation limit hold"),
           out("ttft_p90", NAPKIN_FIELD(Out, ttft_p90), "TTFT p90", unit::seconds)
               .help("90 % of requests see their first token within this: wait + prefill"),
           out("ttft_p50", NAPKIN_FIELD(Out, ttft_p50), "TTFT median", unit::seconds)
               .help("Half the requests see their first token within this"),
           out("tpot_p50", NAPKIN_FIELD(Out, tpot_p50), "TPOT", unit::seconds)
               .help("Time per output token at the replica's batch, mean-length requests"),
           out("tpot_p90", NAPKIN_FIELD(Out, tpot_p90), "TPOT p90", unit::seconds)
               .help("Time per output token when the batch holds p90-length prompts"),
           out("utilization", NAPKIN_FIELD(Out, utilization), "Utilisation", unit::fraction)
               .help("Average share of a replica's batch slots in use"),
           out("batch", NAPKIN_FIELD(Out, batch), "Batch per replica")
               .help("Most sequences a replica runs at once, chosen to need the fewest replicas"),
           out("gpus_per_replica", NAPKIN_FIELD(Out, gpus_per_replica), "GPUs per replica",
               unit::gpus)
               .help("TP × PP"),
           out("wait_p90", NAPKIN_FIELD(Out, wait_p90), "Queue wait p90", unit::seconds)
               .help("90 % of requests wait at most this for a batch slot"),
           out("wait_probability", NAPKIN_FIELD(Out, wait_probability), "Chance of waiting",
               unit::fraction)
               .help("Share of requests that find every batch slot busy (Erlang C)"),
           out("service_time", NAPKIN_FIELD(Out, service_time), "Time in a slot", unit::seconds)
               .help("A mean request's TTFT plus its remaining tokens"),
           out("service_cv2", NAPKIN_FIELD(Out, service_cv2), "Spread of the time in a slot")
               .help("Its variance over its mean squared (0 = all equal, 1 = exponential)"),
           out("qps_per_replica", NAPKIN_FIELD(Out, qps_per_replica), "Requests/s per replica",
               unit::requests_per_s)
               .help("What one replica serves at the utilisation limit"),
           out("qps", NAPKIN_FIELD(Out, qps), "Load", unit::requests_per_s)
               .help("Requests per second served"),
           out("goodput", NAPKIN_FIELD(Out, goodput), "Goodput per GPU", unit::requests_per_s)
               .help("The most requests per second per GPU that still meet every latency target "
                     "at this batch (DistServe's measure), with no utilisation headroom; 0 when "
                     "no load meets them")}),
      std::size(own))));
  // p90 TTFT against the load for fixed replica counts; the user's own line (replicas chosen
  // for each load) steps from one to the next.
  r.add_chart({.id = "capacity-ttft-vs-qps",
               .title = "p90 time to first token vs load, by replicas",
               .estimator = "serve.capacity",
               .x = "qps",
               .x_label = "Requests per second",
               .y_label = "TTFT p90",
               .y_unit = unit::seconds,
               .x_min = 0.5,
               .x_max = 200,
               .points = 30,
               .log_x = true,
               .log_y = true,
               .y = {"ttft_p90"},
               .series = {{"1 replica", object_of({{"replicas", 1}})},
                          {"2 replicas", object_of({{"replicas", 2}})},
                          {"4 replicas", object_of({{"replicas", 4}})},
                          {"8 replicas", object_of({{"replicas", 8}})},
                          {"16 replicas", object_of({{"replicas", 16}})},
                          {"32 replicas", object_of({{"replicas", 32}})}},
               .hline_input = "ttft_target"});
}

}  // namespace napkin
