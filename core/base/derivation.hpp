// Derivation steps: the worked solution a student would write. Each step is a formula,
// the same formula with the numbers put in, and the result with its unit.
#pragma once

#include <initializer_list>
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
            std::initializer_list<Sym> syms, double result, std::string_view unit);
  // A step in words (a choice, an assumption, a verdict) with no formula.
  void note(std::string_view title, std::string_view text);
  void warn(std::string text);

  Json steps() const { return Json::raw_array(steps_ + "]", count_); }
  const Json& warnings() const { return warnings_; }
  Json take_steps() { return Json::raw_array(std::move(steps_) + "]", count_); }
  Json take_warnings() { return std::move(warnings_); }

 private:
  bool record_;
  // Steps are written straight to JSON text: building a tree per step and serializing it
  // again was most of a run's cost.
  std::string steps_ = "[";
  std::string scratch_;
  std::size_t count_ = 0;
  void begin_step(std::string_view title);
  Json warnings_ = Json::array();
};

// Fills `$key` placeholders; `numeric` chooses values over symbols.
std::string fill_template(std::string_view tmpl, std::initializer_list<Sym> syms, bool numeric);
void append_template(std::string& out, std::string_view tmpl, std::initializer_list<Sym> syms,
                     bool numeric);

}  // namespace napkin
