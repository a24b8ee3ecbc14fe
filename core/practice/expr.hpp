// The expressions of problem files (docs/authoring.md): a variant's derived parameters, its
// validity conditions, an answer computed from the outputs, a mistake's value. Parsed once when a
// file loads (errors name the expression and the place), evaluated per draw on a small stack.
//
//   numbers      2, 0.5, 1e9, 6.5e-3
//   names        a parameter (params), `out.NAME` (the run's outputs, booleans 0/1),
//                `RUN.NAME` (an auxiliary run's output), `P.FIELD` for a preset parameter P
//                (model or GPU: `model.d_model`, `gpu.hbm_bandwidth`), `model("id").FIELD` and
//                `gpu("id").FIELD` for a named preset
//   operators    + - * / ^ (power, right-associative), unary -, < <= > >= == !=, && || !,
//                c ? a : b
//   functions    min(a, b, ...) max(...) ceil floor round abs sqrt log (natural) log2 log10 exp
//                pow(a, b) mod(a, b)
//
// A preset parameter whose value is "none" (a worked example's own numbers, seed 0) makes any
// expression reading its fields absent: a derived value keeps its declared number.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

class Values;

// What an expression reads besides numbers: resolved by the problem engine (problem_data.cpp).
struct ExprScope {
  const Values* params = nullptr;
  const Values* out = nullptr;
  // A dotted name other than out.NAME: `model.d_model`, `alt.step_time`, `gpu("h100").peak_bf16`
  // (head "gpu", argument "h100", field "peak_bf16"): found, absent (a preset that is none, a
  // run that failed), or unknown (no such name or field: an error, with `why` saying which).
  enum class Lookup { found, absent, unknown };
  Lookup (*dotted)(const void* ctx, std::string_view head, std::string_view arg,
                   std::string_view field, double& value, std::string& why) = nullptr;
  const void* ctx = nullptr;
};

class Expr {
 public:
  // Parses `text`; on failure returns false with `error` saying where and why.
  static bool parse(std::string_view text, Expr& out, std::string& error);

  bool empty() const { return ops_.empty(); }
  const std::string& text() const { return text_; }

  // The value, or false when a name is unknown, a preset is "none", or the result is not
  // finite (`why` says which).
  bool eval(const ExprScope& scope, double& value, std::string* why = nullptr) const;
  // How `why` begins when the value is absent (a preset that is none) rather than wrong.
  static const char* const kAbsent;

  // The name when the whole expression is one plain name ("model"), else null.
  const std::string* single_name() const {
    return ops_.size() == 1 && ops_[0].code == Code::param ? &ops_[0].name : nullptr;
  }

 private:
  enum class Code : std::uint8_t {
    number,
    param,
    dotted,
    neg,
    not_,
    add,
    sub,
    mul,
    div,
    pow,
    lt,
    le,
    gt,
    ge,
    eq,
    ne,
    and_,
    or_,
    cond,
    call
  };
  struct Op {
    Code code;
    double number = 0;
    std::uint16_t arity = 0;
    std::uint16_t fn = 0;
    std::string name, arg, field;  // param name; dotted: head, argument, field
  };
  friend class ExprParser;
  std::string text_;
  std::vector<Op> ops_;  // reverse Polish
};

}  // namespace napkin
