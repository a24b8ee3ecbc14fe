// Problems as data (docs/authoring.md): a problem file's JSON read into the bank's Problem, its
// functions as expressions (expr.hpp), and the engine's hooks that evaluate them.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/json.hpp"
#include "practice/expr.hpp"

namespace napkin {

class Values;
class ProblemBank;
struct Problem;
struct Estimator;

// An estimator input a problem sets: a literal (number, text, switch) or an expression ("=…");
// an expression that is just a preset parameter passes the preset's id.
// {"if": "expr", "then": value, "else": value} picks one of two values (texts too).
struct InputEntry {
  std::string name;
  Json literal;
  Expr expr;
  Expr condition;  // with `then`/`otherwise`: a choice between two entries
  // unique_ptr, not shared_ptr: the core is built without RTTI, and a shared_ptr's control
  // block (a polymorphic type) trips UBSan's vptr check where code built with RTTI meets it.
  std::unique_ptr<InputEntry> then, otherwise;
  // {"json": structure}: the structure with its "=…" texts evaluated, passed as JSON text (an
  // input that takes a list, like serve.pipeline's stages).
  std::vector<std::pair<std::string, Expr>> json_leaves;  // path → expression
  bool as_json_text = false;
};

// A derived parameter: an expression, or an output of another estimator run.
struct DeriveEntry {
  std::string name;
  Expr expr;
  std::string run;  // estimator id; empty for an expression
  std::vector<InputEntry> inputs;
  std::string output;
};

// A named run besides the problem's own, for answers and mistakes that compare two runs:
// `NAME.OUTPUT` in an expression.
struct AuxRun {
  std::string name, estimator;
  std::vector<InputEntry> inputs;
};

struct ProblemData {
  std::vector<DeriveEntry> derive;
  std::vector<Expr> valid;
  bool has_inputs = false;
  std::vector<InputEntry> inputs;
  std::vector<std::string> pass;  // parameters passed as inputs when present
  Expr answer;
  std::vector<Expr> mistake_values;  // one per mistake; empty where the mistake has `times`
  std::vector<AuxRun> runs;
  std::deque<std::string> texts;  // owns the problem's text (Literal points into it)
};

// Reads a problem file ({"napkin_problems": 1, "problems": [...]}) into `bank`. Each error
// names the problem and the field; a problem with an error is not added.
void load_problems(std::string_view json_text, ProblemBank& bank, std::vector<std::string>& errors);

// The engine's hooks: a problem's expressions evaluated for one draw.
void derive_params(const Problem& p, Values& v);
bool params_valid(const Problem& p, const Values& v);
Json inputs_for(const Problem& p, const Estimator& est, const Values& params);
double answer_for(const Problem& p, const Values& params, const Values& out);
double mistake_value(const Problem& p, std::size_t i, const Values& params, const Values& out,
                     double answer);
bool has_answer_fn(const Problem& p);
// Each expression of the problem evaluated for one variant (its parameters and outputs): what
// fails for a reason other than an absent preset (an unknown name or field, a division by
// zero), as "field: why". For lint.
std::vector<std::string> expression_errors(const Problem& p, const Values& params,
                                           const Values& out);
bool has_mistake_value(const Problem& p, std::size_t i);

// A scope for expressions outside a problem: parameters, outputs, and named presets
// (model("id").FIELD, gpu("id").FIELD).
ExprScope catalog_scope(const Values* params, const Values* out);

// The answer units a file names ("days", "GB", "%", "GPUs", "yes/no", "output"...): false for
// any other name.
struct AnswerUnit;
bool answer_unit_named(std::string_view name, AnswerUnit& out);

// How a preset parameter shows in a statement: the preset's name ("Llama 3 70B"), "" for none.
std::string preset_label(std::string_view kind, double index);

}  // namespace napkin
