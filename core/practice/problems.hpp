// The practice-problem bank: one source for the CLI, the wasm API, the page and the tests.
//
// Problems are data: files in problems/ (the built-in bank) or a course's own, in the format
// docs/authoring.md documents, read by problem_data.cpp. This file is the engine they run on:
// drawing variants (seed 0: the source's numbers; seeds ≥ 1: round numbers and real presets),
// running the estimator, evaluating the answer and the mistakes, and the replies of
// `napkin problems | problem | check` and the wasm API.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/literal.hpp"
#include "practice/answer.hpp"
#include "practice/problem_data.hpp"
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
  // "model" or "gpu" (problem files): the values are indices into the catalog's presets (−1:
  // none), read as NAME.FIELD in expressions and shown by the preset's name.
  Literal preset;
};

// What a wrong computation gives: an expression (ProblemData::mistake_values) or `factor`
// times the right answer (a forgotten 2×: 0.5).
struct Mistake {
  Literal id;
  Literal feedback;
  double factor = 0;
};

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
  Literal estimator;                      // registry id
  Literal output;                         // the requested output
  AnswerUnit unit = answer_in::output();  // how it is asked (answer.hpp)
  double tolerance = 0.02;                // relative
  double close = 0;                       // 0 = max(3 × tolerance, 10%)
  // The share of full marks each hint opened before a correct answer costs (the page applies
  // it; the last hint counts as the worked solution whatever this is).
  double hint_cost = 0;
  bool integer = false;        // counts that must be exact
  Bound bound = Bound::none;   // the side that breaks the question's constraint
  std::vector<Literal> hints;  // ordered, nudge first
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
  // Built as far as make_variant needs, by the group's first part: the parameters of seeds 1,
  // 2, 3..., the answers already in them, and the next draw to try (plain members: the core is
  // built without RTTI, so no type-erased holder crosses into code built with it). A variant for
  // seed k draws only until the pool holds k; counting the variants builds it whole.
  mutable std::vector<Values> pool;
  mutable std::set<std::string> pool_answers;
  mutable int pool_next = 0;
  mutable std::uint64_t pool_rng = 0;
  mutable bool pool_built = false;
  Kind kind = Kind::number;
  bool highest = false;         // the key is the highest value (choice), or order from highest
  std::vector<Option> options;  // choice and order problems
  // A problem read from a file (problem_data.hpp): its expressions and the text its Literals
  // point into (owned: a Problem moves, never copies).
  std::unique_ptr<const ProblemData> data;
};

// The number of distinct variants seeds ≥ 1 cycle through (at most 200).
std::size_t variant_count(const Problem& p, const ProblemBank* bank = nullptr);

class ProblemBank {
 public:
  // Checks the declaration against the registry. Problems with defects are added too when
  // `keep_defective` (so that tests can name them: defects()); otherwise they are refused and
  // false is returned.
  bool add(Problem p, bool keep_defective = true);
  // A deque: problems loaded later (a course's file) leave earlier ones where they are.
  const std::deque<Problem>& problems() const { return problems_; }
  const Problem* find(std::string_view id) const;
  const std::vector<std::string>& defects() const { return defects_; }

 private:
  std::deque<Problem> problems_;
  std::vector<std::string> defects_;
};

// The bank every reply reads: the built-in problem files (problems/*.json) once
// install_builtin_problems() or the page's loadProblems has loaded them, and any course file
// loaded after them.
const ProblemBank& problem_bank();

// Adds a problem file's problems to the bank: its errors (the file's, and each problem's
// defects, naming the problem and the field), empty when every problem was added. A problem
// with an error is left out; one whose id is already in the bank is refused.
std::vector<std::string> load_into_bank(std::string_view json_text);

// One instance of a problem: seed 0 is the source's own numbers, other seeds random round ones.
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
  // The options in the order this variant shows them, as indices into problem->options: the
  // author's order at seed 0, shuffled by the seed after it, so that the letter of the key
  // changes between variants and a student cannot learn it instead of the reason.
  std::vector<std::size_t> shown;
  Expected expected() const;
};

constexpr std::int64_t kMaxSeed = 2147483647;  // what JS's `seed | 0` can carry

// A number problem whose answer is one of the numbers its statement gives: shown before an
// attempt. The variant pools leave such draws out; lint reports seed 0's.
bool answer_is_a_given(const Variant& v);

// `bank` holds the problem's group (default: the built-in bank).
Result<Variant> make_variant(const Problem& p, std::int64_t seed,
                             const ProblemBank* bank = nullptr);

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

// A problem file loaded into the bank: {"loaded": n, "ids": [...], "errors": [...]}, errors as
// values (each names the problem and the field); ok even when some problems were refused.
Reply load_reply(std::string_view json_text);
Reply problems_reply();                                       // napkin problems
Reply problem_reply(std::string_view id, std::int64_t seed);  // napkin problem
Reply check_reply(std::string_view id, std::int64_t seed, std::string_view answer);  // check

}  // namespace napkin
