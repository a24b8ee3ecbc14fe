// The layout search (docs/training.md, search). Every combination of the dimension lists counts
// once: a layout is either evaluated by train_step() or rejected with the first reason that
// applies, in the order of `Reject`.
//
// Pruning, and why it cannot change the answer: ZeRO stages run 3, 2, 1, 0. Memory per GPU is
// weights + gradients + optimizer state + activations; a higher stage shards a superset of what
// a lower one shards over the same dp·cp ranks (training_memory: each term is divided or not,
// never multiplied), and activations do not read the stage, so memory at stage z ≥ memory at
// stage z + 1. Memory also does not read the overlap switches or the placement. So when stage z
// does not fit, every stage below it and every overlap and placement combination does not fit
// either: they are counted as
// "does not fit" without calling train_step. A layout that does not fit is never in best, top
// or pareto, so the answer is the same; tests compare against `prune = false`.
#include "training/search.hpp"

#include <chrono>

#include "scenario/replica.hpp"

namespace napkin {

const char* reject_words(Reject r) {
  switch (r) {
    case Reject::BatchNotDivisible: return "global batch not divisible by DP × microbatch";
    case Reject::SpWithoutTp: return "sequence parallelism needs TP > 1";
    case Reject::TpOverlapWithoutTp: return "TP overlap needs TP > 1";
    case Reject::VppTooDeep: return "more pipeline chunks (PP × virtual stages) than layers";
    case Reject::TooFewMicrobatches: return "interleaving needs microbatches divisible by PP";
    case Reject::DoesNotFit: return "does not fit in memory";
    case Reject::Count: break;
  }
  return "";
}

namespace {

struct List {
  int v[64];
  int n = 0;
  void add(int x) {
    if (n < 64) v[n++] = x;
  }
};

List divisors(int n, int limit) {
  List l;
  for (int d = 1; d <= n && d <= limit; ++d)
    if (n % d == 0) l.add(d);
  return l;
}

void keep(SearchResult& r, const SearchSpec& spec, const Layout& l, const StepTimes& t,
          double limit) {
  const int k = spec.top < SearchResult::kMaxTop ? spec.top : SearchResult::kMaxTop;
  // Top k by step time: strict < so the first layout enumerated wins ties.
  int pos = r.top_count;
  while (pos > 0 && t.step < r.top[pos - 1].times.step) --pos;
  if (pos < k) {
    int last = r.top_count < k ? r.top_count : k - 1;
    for (int i = last; i > pos; --i) r.top[i] = r.top[i - 1];
    r.top[pos] = {l, t};
    if (r.top_count < k) ++r.top_count;
  }
  int bin = static_cast<int>(t.memory.total / limit * SearchResult::kBins);
  if (bin >= SearchResult::kBins) bin = SearchResult::kBins - 1;
  if (bin < 0) bin = 0;
  if (!r.pareto_used[bin] || t.step < r.pareto[bin].times.step) {
    r.pareto[bin] = {l, t};
    r.pareto_used[bin] = true;
  }
}

// The placements that differ for a layout: two rank orders that list the groups of degree > 1
// in the same sequence place every rank alike, so only the first of them counts (Calculon
// likewise gives a network choice only to groups of degree > 1). `count` of them, in `index`.
struct Placements {
  unsigned char index[kPlacements];
  int count = 0;
};
Placements distinct_placements(const Layout& l) {
  Placements p;
  int keys[kPlacements];
  for (int o = 0; o < kPlacements; ++o) {
    int key = 0;  // the groups of degree > 1, in order, two bits each
    for (Group g : kPlacementOrder[o])
      if (group_degree(l, g) > 1) key = key * 4 + static_cast<int>(g);
    bool seen = false;
    for (int i = 0; i < p.count; ++i) seen = seen || keys[i] == key;
    if (seen) continue;
    keys[p.count] = key;
    p.index[p.count++] = static_cast<unsigned char>(o);
  }
  return p;
}

}  // namespace

SearchResult search_layouts(const SearchSpec& spec, SearchProgress progress, void* ctx) {
  const auto start = std::chrono::steady_clock::now();
  SearchResult r;
  const Model& m = spec.model;
  const StepModel sm = step_model(m, spec.job.seq_len);
  const double limit = spec.cluster.gpu.hbm_bytes * spec.max_memory_fraction;
  const long long batch = static_cast<long long>(spec.job.global_batch);

  // TP degrees the model can split (Megatron-LM's rule, scenario/replica.cpp): they divide the
  // query heads and divide the KV heads or are multiples of them (copies).
  List tps;
  {
    const List all = divisors(spec.gpus, m.heads);
    for (int i = 0; i < all.n; ++i)
      if (tp_split_problem(m, all.v[i]).empty()) tps.add(all.v[i]);
  }
  const int vpp_values[] = {1, 2, 4, 8};
  const int n_vpp = spec.search_vpp ? 4 : 1;
  List mbs;
  for (int x = 1; x <= spec.max_microbatch; x *= 2) mbs.add(x);
  const int n_rc = spec.search_recompute ? 3 : 1;
  const int n_sp = spec.search_sp ? 2 : 1;
  const int n_off = spec.search_offload && spec.cluster.gpu.host_memory > 0 ? 2 : 1;
  const int n_zero = spec.search_zero ? 4 : 1;
  const int n_ov = spec.search_overlap ? 2 : 1;
  // Layouts below one (tp, pp, cp, ep, vpp, microbatch) choice, before placements.
  const long long inner_base = static_cast<long long>(n_rc) * n_sp * n_off * n_zero * n_ov * n_ov;
  // The rank orders tried for a (tp, pp, cp, dp): the distinct ones, or Megatron's default.
  auto placements = [&](const Layout& at) {
    Placements p;
    if (spec.search_placement) return distinct_placements(at);
    p.index[0] = 0;
    p.count = 1;
    return p;
  };

  // The total, for progress and the count check.
  for (int i = 0; i < tps.n; ++i) {
    const List pps = divisors(spec.gpus / tps.v[i], m.layers);
    for (int j = 0; j < pps.n; ++j) {
      const int rest = spec.gpus / tps.v[i] / pps.v[j];
      const List cps = spec.search_cp ? divisors(rest, rest) : divisors(1, 1);
      for (int q = 0; q < cps.n; ++q) {
        const int dpcp = rest;
        const List eps = m.experts > 0 ? divisors(dpcp, m.experts) : divisors(1, 1);
        Layout at;
        at.tp = tps.v[i];
        at.pp = pps.v[j];
        at.cp = cps.v[q];
        at.dp = rest / at.cp;
        r.total +=
            static_cast<long long>(eps.n) * n_vpp * mbs.n * inner_base * placements(at).count;
      }
    }
  }

  Layout l;
  l.flash_attention = spec.job.flash_attention;  // the memory bound below reads it
  long long done = 0;
  auto reject = [&](Reject why, long long n) {
    r.rejected[static_cast<int>(why)] += n;
    done += n;
  };
  for (int i = 0; i < tps.n; ++i) {
    l.tp = tps.v[i];
    const List pps = divisors(spec.gpus / l.tp, m.layers);
    for (int j = 0; j < pps.n; ++j) {
      l.pp = pps.v[j];
      const int rest = spec.gpus / l.tp / l.pp;
      const List cps = spec.search_cp ? divisors(rest, rest) : divisors(1, 1);
      for (int q = 0; q < cps.n; ++q) {
        l.cp = cps.v[q];
        l.dp = rest / l.cp;
        const Placements pl = placements(l);
        const long long inner = inner_base * pl.count;
        const List eps = m.experts > 0 ? divisors(rest, m.experts) : divisors(1, 1);
        for (int e = 0; e < eps.n; ++e) {
          l.ep = eps.v[e];
          for (int v = 0; v < n_vpp; ++v) {
            l.vpp = vpp_values[v];
            for (int b = 0; b < mbs.n; ++b) {
              l.microbatch = mbs.v[b];
              const long long per_pipe = static_cast<long long>(l.dp) * l.microbatch;
              if (batch % per_pipe != 0) {
                reject(Reject::BatchNotDivisible, inner);
                continue;
              }
              l.microbatches = static_cast<int>(batch / per_pipe);
              // Uneven stages are allowed, as in train.step (scenario/layout.hpp stage_share).
              if (l.pp * l.vpp > m.layers || (l.vpp > 1 && l.pp == 1)) {
                reject(Reject::VppTooDeep, inner);
                continue;
              }
              if (l.vpp > 1 && l.microbatches % l.pp != 0) {
                reject(Reject::TooFewMicrobatches, inner);
                continue;
              }
              const long long per_rc = inner / n_rc;
              for (int rc = 0; rc < n_rc; ++rc) {
                l.recompute =
                    spec.search_recompute ? static_cast<Recompute>(rc) : Recompute::Selective;
                for (int sp = 0; sp < n_sp; ++sp) {
                  l.sequence_parallel = spec.search_sp ? sp == 1 : l.tp > 1;
                  if (l.sequence_parallel && l.tp == 1) {
                    reject(Reject::SpWithoutTp, per_rc / n_sp);
                    continue;
                  }
                  for (int off = 0; off < n_off; ++off) {
                    l.optimizer_offload = off == 1;
                    bool fits_above = true;
                    for (int zi = 0; zi < n_zero; ++zi) {
                      l.zero_stage = spec.search_zero ? 3 - zi : 1;
                      // Overlap combinations: those with TP overlap at TP = 1 are rejected
                      // for that; the rest are evaluated or do not fit.
                      const int n_combo = n_ov * n_ov * pl.count;
                      const int n_bad_tp = l.tp == 1 && n_ov == 2 ? 2 * pl.count : 0;
                      if (spec.prune && fits_above) {
                        // Memory does not read the overlap switches: one check per stage.
                        fits_above =
                            training_memory(m, sm.params, l, spec.job.seq_len).total <= limit;
                      }
                      if (spec.prune && !fits_above) {
                        reject(Reject::TpOverlapWithoutTp, n_bad_tp);
                        reject(Reject::DoesNotFit, n_combo - n_bad_tp);
                        continue;
                      }
                      for (int dov = 0; dov < n_ov; ++dov) {
                        l.dp_overlap = spec.search_overlap ? dov == 1 : true;
                        for (int tov = 0; tov < n_ov; ++tov) {
                          l.tp_overlap = spec.search_overlap ? tov == 1 : false;
                          if (l.tp_overlap && l.tp == 1) {
                            reject(Reject::TpOverlapWithoutTp, pl.count);
                            continue;
                          }
                          // Placement last: it changes only which link each group uses.
                          for (int o = 0; o < pl.count; ++o) {
                            l.placement = pl.index[o];
                            const StepTimes t = train_step(sm, spec.cluster, l, spec.job);
                            ++r.evaluated;
                            ++done;
                            if (t.memory.total > limit) {
                              r.rejected[static_cast<int>(Reject::DoesNotFit)]++;
                              continue;
                            }
                            ++r.valid;
                            keep(r, spec, l, t, limit);
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
        if (progress && !progress(ctx, done, r.total)) goto finished;
      }
    }
  }
finished:
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace napkin
