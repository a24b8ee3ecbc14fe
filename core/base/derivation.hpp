// Derivation steps: the worked solution a student would write. Each step is a formula,
// the same formula with the numbers put in, and the result with its unit.
#pragma once

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/json.hpp"

namespace napkin {

// One symbol of a formula: `$key` in the template becomes `tex` in the symbolic line and
// the formatted value in the numeric line.
struct Sym {
  std::string_view key;
  std::string_view tex;
  double value;
  std::string_view unit = "";
};

class Derivation {
 public:
  explicit Derivation(bool record = true) : record_(record) {}
  bool recording() const { return record_; }

  // Example: d.step("Total compute", "C", "6 \\cdot $N \\cdot $D",
  //                 {{"N", "N", n, unit::params}, {"D", "D", t, unit::tokens}}, c, unit::flop);
  void step(std::string_view title, std::string_view lhs, std::string_view rhs,
            std::initializer_list<Sym> syms, double result, std::string_view unit) {
    step(title, lhs, rhs, std::span<const Sym>(syms.begin(), syms.size()), result, unit);
  }
  // The same with symbols built in code (one per stage of a pipeline, say).
  void step(std::string_view title, std::string_view lhs, std::string_view rhs,
            std::span<const Sym> syms, double result, std::string_view unit);
  // A step in words (a choice, an assumption, a verdict) with no formula.
  void note(std::string_view title, std::string_view text);
  void warn(std::string text);

  // The steps as a JSON array: {title, formula, substituted, result, value, unit, text} for a
  // step, {title, note} for a note.
  Json steps() const;
  Json take_steps() { return steps(); }
  const Json& warnings() const { return warnings_; }
  Json take_warnings() { return std::move(warnings_); }

 private:
  bool record_;
  // Steps are kept as compact records until steps() writes them as JSON: fields separated by
  // \x1f, each step ended by \x1e (title, formula, substituted, result, value as JSON number
  // text, unit, text; a note: title, note). One string for the whole derivation, nothing
  // escaped on the way in. A byte \x1c–\x1f inside a field is written as \x1c and the byte ^ 0x40.
  std::string records_;
  std::string scratch_, text_;
  void put(std::string_view piece);
  Json warnings_ = Json::array();
};

// Fills `$key` placeholders; `numeric` chooses values over symbols.
std::string fill_template(std::string_view tmpl, std::initializer_list<Sym> syms, bool numeric);
void append_template(std::string& out, std::string_view tmpl, std::initializer_list<Sym> syms,
                     bool numeric);

}  // namespace napkin
