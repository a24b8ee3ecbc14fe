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
  Json take_steps();  // the same, once: the text is moved out
  const Json& warnings() const { return warnings_; }
  Json take_warnings() { return std::move(warnings_); }

 private:
  bool record_;
  // The steps as JSON text, written as they are recorded: "[" and the objects of steps(),
  // each field escaped once on the way in (no intermediate form: a run's largest cost in the
  // size-optimized wasm build was writing its derivation).
  std::string json_ = "[";
  std::size_t count_ = 0;
  std::string scratch_, text_;
  void put(std::string_view piece);
  void open_step();
  Json warnings_ = Json::array();
};

// Fills `$key` placeholders; `numeric` chooses values over symbols.
std::string fill_template(std::string_view tmpl, std::initializer_list<Sym> syms, bool numeric);
void append_template(std::string& out, std::string_view tmpl, std::initializer_list<Sym> syms,
                     bool numeric);

}  // namespace napkin
