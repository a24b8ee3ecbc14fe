// The practice-problem bank: one source for the CLI, the wasm API, the page and the tests.
//
// ===================================== How to add a problem =====================================
//
// 1. Pick the area file: core/practice/problems_training.cpp, problems_memory.cpp,
// problems_comm.cpp or
//    problems_inference.cpp, and add to its `register_<area>_problems(ProblemBank& bank)`:
//
//      bank.add({
//          .id = "serve.batching.gpus",          // unique; estimator-like, dotted
//          .area = "inference",                  // training | memory | comm | inference
//          .title = "GPUs for a batched ranking stage",
//          .source = "the worked example, practice problem 2 (a)",
//          .group = "seed000.p2",                // parts (a)(b) of one seed problem share it
//          .statement = "Total load is {total_qps} QPS. The stage runs batches of {batch_size} "
//                       "requests in {inference_time}. How many GPUs are needed?",
//          .params = {{"total_qps", 50000, {10000, 20000, 30000, 50000}},
//                     {"batch_size", 50, {10, 20, 25, 50, 100}},
//                     {"inference_time", 0.08, {0.02, 0.04, 0.05, 0.08, 0.1}}},
//          .estimator = "serve.batching",        // run through registry().run
//          .output = "gpus_needed",              // the requested output
//          .unit = answer_in::gpus(),            // how the answer is asked and read (answer.hpp)
//          .integer = true,                      // a count: correct only when exact
//          .hints = {"A GPU serves batch / inference_time QPS.", "Divide and round up."},
//          .mistakes = {{"total_qps_for_collection", "You used the total QPS ...",
//                        [](const Values& p, const Values& out) { return ...; }},
//                       times("forgot_ring_2x", 0.5, "Ring all-reduce moves 2× the data ...")},
//      });
//
//    Designated initializers must follow the declaration order of `Problem` below (the
//    compiler says so otherwise); leave out what you do not need.
//
// 2. Parameters. Each has a name, its value for seed 0 (faithful to the seed text: the
//    seed's worked example or practice problem, with `fixed_statement` if the seed's wording
//    names a model), and `choices`: values that seeds ≥ 1 draw from (deterministically,
//    splitmix64 on the problem id). Draw real models and chips from the scenario presets
//    (practice/variant_presets.hpp): a parameter "gpu" with choices
//    indices(accelerator_presets().size()) and `.derive = accelerator_of_preset` sets the
//    peak, bandwidth and memory of one real accelerator together; preset_param_counts() gives
//    real models' sizes. Give enough choices for 15 different answers: the bank's tests ask
//    for them in seeds 1-20 (seeds never repeat seed 0's answer or the previous seed's), or
//    declare `variety` when the space is smaller. The parts of a group (a multi-part problem)
//    share one draw per seed: a parameter any part declares with choices is drawn once for all
//    of them (so part (b) states part (a)'s model and numbers); a parameter a part declares
//    without choices is that part's own constant (its ZeRO stage, its link). Their 15 answers
//    are counted side by side, and `variety` is the group's. Values are base SI (bytes, seconds,
//    FLOP/s, a fraction for percentages), like estimator inputs. A parameter whose name is an input
//    of the estimator is passed to it; give `inputs` to build the inputs yourself, `derive` to
//    compute parameters from others (e.g. tokens = 20 × params), `valid` to refuse a draw.
//    The statement shows `{name}` with the parameter's unit (the estimator input's unit when
//    `unit` is empty): "80 ms", "312 TFLOP/s", "50 %"; counts print bare ("70B", "512"), so
//    write "{gpus} GPUs". `{name:raw}` prints any parameter bare. A value `derive` computes
//    can be shown too; declare it in `params` (any fixed value) to give it a unit.
//
// 3. The answer is the estimator's `output` in base units, or `answer(p, out)` when the
//    question asks for something derived from the outputs. `unit` says how it is asked:
//    answer_in::days() (an output in seconds, asked in days), ms(), gb(), percent(), gpus(),
//    billion_params(), zettaflop(), count("req/s", "QPS"), yes_no() (a boolean output), or
//    output() (as format_value shows it). Its `unit.unit` must be the output's registry unit (the
//    bank checks this). `tolerance` is relative (default 2%); `close` defaults to max(3 ×
//    tolerance, 10%). `bound` names the side that breaks the question's constraint:
//    Bound::at_least for "GPUs needed" (fewer do not fit), Bound::at_most for "sequences that
//    fit"; that side is wrong, never close. A count with no bound is exact: only it is right.
//
// 4. Mistakes are what students actually do (the seeds' "Common mistakes" / "Red flags"):
//    an id ("total_instead_of_active"), the feedback to show, and the value that wrong
//    computation gives — a function of the parameters and the correct run's outputs, in the
//    answer's base unit — or `times(id, factor, feedback)` for "the answer × factor" (a
//    forgotten 2× is times(..., 0.5, ...)). GB vs GiB is automatic for byte answers.
//    Random draws where a mistake would coincide with the answer are skipped.
//
// 5. Hints go from a nudge to the formula: at least two, and the first never the formula
//    with the statement's numbers in it. The worked solution is the estimator's steps up to
//    the one that gives the asked quantity (solution_steps); when the answer is not one of
//    them, `explain` says in plain text how it follows.
//
// 6. `difficulty` (1 warm-up, 2 core, 3 challenge) and `tags` ("KV cache,decode": words
//    from the list in docs/problems.md) are required; the Practice tab filters on both.
//
// 7. Nothing else to touch: tests/problems_test.cpp checks every problem of the bank for seeds
//    0..5 (its own answer is correct, a wrong one is not, each mistake is recognised, the
//    statement is filled in). Add a line to docs/problems.md's list if you like.
// ================================================================================================
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/literal.hpp"
#include "practice/answer.hpp"
#include "registry/registry.hpp"

namespace napkin {

// Named numbers in insertion order: a variant's parameters, or a run's numeric outputs
// (booleans as 0/1). A name that is not there reads as NaN, which the bank's tests catch.
class Values {
 public:
  double operator[](std::string_view name) const;
  void set(std::string_view name, double v);
  bool has(std::string_view name) const;
  const std::vector<std::pair<std::string, double>>& items() const { return items_; }
  Json to_json() const;

 private:
  std::vector<std::pair<std::string, double>> items_;
};

struct Param {
  Literal name;
  double fixed = 0;             // seed 0
  std::vector<double> choices;  // seeds ≥ 1 pick one; empty = always `fixed`
  Literal unit = "?";           // how the statement shows it; "?" = the estimator input's unit
};

// Plain function pointers (captureless lambdas convert): a std::function per mistake made up
// a large part of the wasm.
using ValueFn = double (*)(const Values& p, const Values& out);

struct Mistake {
  Literal id;
  Literal feedback;
  ValueFn value = nullptr;  // what the wrong computation gives, base units
  double factor = 0;        // instead of `value`: the correct answer × factor
};

// "The right answer times `factor`": a forgotten 2×, hours reported as days (× 24)...
Mistake times(Literal id, double factor, Literal feedback);

// Question kinds (issue #14): a number (or yes/no) typed in, one option chosen, or options put
// in order.
enum class Kind : unsigned char { number, choice, order };

// An option of a choice or ordering problem: the problem's parameters changed by `set` (another
// layout, another GPU) and run through the same estimator, or, with `output`, another output
// of the one run. Its value is the problem's answer (or output) for it; the key is the option
// with the lowest value (`highest`: the highest), or all of them from lowest to highest for an
// ordering problem, so it is computed, never typed in.
struct Option {
  Literal label;  // what the student reads ({param} filled)
  Literal why;    // once it is chosen: why it is (or is not) the answer
  // What the option changes, as data (one parser rather than a function per option):
  // space-separated `name=value` or `name*=factor` on the parameters, `gpu=<id>` for an
  // accelerator preset's BF16 peak and HBM bandwidth, `model=<id>` for a model preset's
  // attention shape (layers, heads, KV heads, head width).
  Literal set;
  Literal output;
};

// Applies an option's `set` to the parameters; false when the text does not read (an unknown
// preset, a value that is not a number).
bool apply_option(std::string_view set, Values& p);

struct Problem {
  // Text fields are string literals (Literal: one pointer each; see base/literal.hpp).
  Literal id, area, title, source, group;
  // The statement shown is `setup` (context shared by related problems, optional) followed by
  // `statement` (the question), both templates with {param}. Seed 0 shows `fixed_setup` +
  // `fixed_statement` instead when `fixed_statement` is given (the source's own wording, which
  // names things).
  Literal setup;
  Literal statement;
  Literal fixed_setup;
  Literal fixed_statement;
  std::vector<Param> params;
  void (*derive)(Values&) = nullptr;          // optional: parameters from others
  bool (*valid)(const Values&) = nullptr;     // optional: refuse a random draw
  Literal estimator;                          // registry id
  std::function<Json(const Values&)> inputs;  // optional: default = matching params
  Literal output;                             // the requested output
  ValueFn answer = nullptr;                   // optional: default = out[output]
  AnswerUnit unit = answer_in::output();      // how it is asked (answer.hpp)
  double tolerance = 0.02;                    // relative
  double close = 0;                           // 0 = max(3 × tolerance, 10%)
  bool integer = false;                       // counts that must be exact
  Bound bound = Bound::none;                  // the side that breaks the question's constraint
  std::vector<Literal> hints;                 // ordered, nudge first
  std::vector<Mistake> mistakes;
  // Plain text closing the worked solution when the asked quantity is not one of the
  // estimator's steps (an answer function corrects or converts it): how the answer follows.
  Literal explain;
  // How many different answers the variants can have, when fewer than 15 (the bank's tests
  // ask for 15 distinct answers in seeds 1-20 unless a problem declares its smaller space).
  int variety = 15;
  // 1 warm-up (one step), 2 core (a few steps), 3 challenge (a subtle step or a long chain).
  int difficulty = 0;
  // What the problem practises, comma-separated words a student would filter by ("KV cache,
  // decode"): the page lists them and filters on them.
  Literal tags;
  // Built on first use by make_variant: the parameters of seeds 1, 2, 3... (plain members: the
  // core is built without RTTI, so no type-erased holder crosses into code built with it).
  mutable std::vector<Values> pool;
  mutable bool pool_built = false;
  Kind kind = Kind::number;
  bool highest = false;         // the key is the highest value (choice), or order from highest
  std::vector<Option> options;  // choice and order problems
};

// The number of distinct variants seeds ≥ 1 cycle through (at most 200).
std::size_t variant_count(const Problem& p);

class ProblemBank {
 public:
  // Checks the declaration against the registry; problems with defects are still added so
  // that tests can name them (see defects()).
  void add(Problem p);
  const std::vector<Problem>& problems() const { return problems_; }
  const Problem* find(std::string_view id) const;
  const std::vector<std::string>& defects() const { return defects_; }

 private:
  std::vector<Problem> problems_;
  std::vector<std::string> defects_;
};

// Each area fills the bank from its own file; problem_bank() calls them in this order.
void register_training_problems(ProblemBank& bank);   // problems_training.cpp
void register_memory_problems(ProblemBank& bank);     // problems_memory.cpp
void register_comm_problems(ProblemBank& bank);       // problems_comm.cpp
void register_inference_problems(ProblemBank& bank);  // problems_inference.cpp
// Problems written against the scenario presets (real models, GPUs and links), by topic.
void register_parallel_problems(ProblemBank& bank);  // problems_parallel.cpp
void register_serving_problems(ProblemBank& bank);   // problems_serving.cpp
// Multiple-choice and ordering problems, their keys computed by the estimators.
void register_kind_problems(ProblemBank& bank);  // problems_kinds.cpp

// The bank with every area registered (built once, on first use).
const ProblemBank& problem_bank();

// One instance of a problem: seed 0 is the seed text's numbers, other seeds random round ones.
struct Variant {
  const Problem* problem = nullptr;
  std::int64_t seed = 0;
  Values params;
  std::string statement;
  RunResult run;
  Values outputs;
  double answer = 0;
  std::vector<Alternative> mistakes;  // evaluated for this variant
  // Choice and order problems: each option's value and the key (the option chosen, or the
  // options in order), as indices into problem->options.
  std::vector<double> option_values;
  std::vector<std::size_t> key;
  Expected expected() const;
};

constexpr std::int64_t kMaxSeed = 2147483647;  // what JS's `seed | 0` can carry

Result<Variant> make_variant(const Problem& p, std::int64_t seed);

// The JSON the CLI prints and the wasm API returns. Errors: {"error": {...}}, ok = false.
struct Reply {
  bool ok = true;
  Json json;
  std::string message;  // the error's one-line message
};
// The worked solution shown for a variant: the estimator's steps up to and including the first
// that gives the asked quantity (the answer, else the requested output), so it never runs on
// to another problem's answer; then `explain` when the problem gives one.
Json solution_steps(const Variant& v);

Reply problems_reply();                                       // napkin problems
Reply problem_reply(std::string_view id, std::int64_t seed);  // napkin problem
Reply check_reply(std::string_view id, std::int64_t seed, std::string_view answer);  // check

}  // namespace napkin
