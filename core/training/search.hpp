// The layout search (docs/training.md, search): every layout of a training job on a GPU count,
// ranked by the same train_step() the train.step card runs. A typed loop: no JSON, allocation or
// derivation per layout; the JSON is built once at the end.
#pragma once

#include <array>
#include <string>

#include "training/train_step.hpp"

namespace napkin {

// Why a layout was not evaluated, in the order the loop tests them.
enum class Reject : unsigned char {
  BatchNotDivisible,   // global batch is not a multiple of DP × microbatch
  SpWithoutTp,         // sequence parallelism needs TP > 1
  TpOverlapWithoutTp,  // TP overlap needs TP > 1
  VppTooDeep,          // virtual stages need PP > 1 and layers divisible by PP × v
  TooFewMicrobatches,  // interleaving needs microbatches divisible by PP
  DoesNotFit,          // memory per GPU above the limit
  Count
};
const char* reject_words(Reject r);

struct SearchSpec {
  Model model;
  Cluster cluster;
  StepJob job;
  int gpus = 512;
  // Of HBM: 90 %, the rest headroom for the caching allocator's fragmentation and the framework
  // (as vLLM's gpu_memory_utilization keeps 10 %); 1 lets a layout fill the GPU.
  double max_memory_fraction = 0.9;
  int top = 10;       // layouts kept in `top`
  bool prune = true;  // false: evaluate every layout (tests compare both)
  // Dimensions to search (false pins the default).
  bool search_cp = true, search_vpp = true, search_recompute = true, search_zero = true,
       search_sp = true, search_overlap = true, search_offload = true, search_placement = true;
  int max_microbatch = 16;
};

struct Ranked {
  Layout layout;
  StepTimes times;
};

struct SearchResult {
  long long evaluated = 0, valid = 0, total = 0;
  std::array<long long, static_cast<int>(Reject::Count)> rejected{};
  double seconds = 0;
  static constexpr int kMaxTop = 32, kBins = 48;
  std::array<Ranked, kMaxTop> top{};
  int top_count = 0;
  // Pareto: the fastest layout in each of kBins memory bins, filtered to the frontier at the end.
  std::array<Ranked, kBins> pareto{};
  std::array<bool, kBins> pareto_used{};
};

// Progress: called every `every` layouts with the count so far; return false to cancel.
using SearchProgress = bool (*)(void* ctx, long long done, long long total);

SearchResult search_layouts(const SearchSpec& spec, SearchProgress progress = nullptr,
                            void* ctx = nullptr);

}  // namespace napkin

namespace napkin {
class Json;
// The search's JSON (docs/training.md, search): evaluated, valid, rejected {reason: count},
// seconds, configs_per_second, best, top, pareto; each layout with its train.step outputs.
Json search_json(const SearchSpec& spec, const SearchResult& r);
}  // namespace napkin

namespace napkin {
class Registry;
struct Error;
// The job of `napkin search name=value …` and JS search(): train.step's model, cluster and job
// inputs (the same names, units, ranges and presets, `model=llama3-70b gpu=h100`), and the
// search's own (gpus, max_memory_fraction, the search_* dimension switches; search_inputs.cpp).
// An input of the layout itself (tp, pp, …) is refused: the search chooses it. Defaults:
// train.step's (GPT-3 175B on 512 A100 80 GB, batch 1536, s = 2048).
bool search_spec_from_inputs(const Registry& reg, const Json& inputs, SearchSpec& spec, Error& err);
// The search's JSON for those inputs, or {"error": …} naming the input.
Json search_run(const Registry& reg, const Json& inputs, SearchProgress progress = nullptr,
                void* ctx = nullptr);
}  // namespace napkin
