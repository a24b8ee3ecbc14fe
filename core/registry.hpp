// The estimator registry: every estimator is declared once (metadata + pure function) and
// the CLI, the wasm API, the page's forms, the problem bank and the tests all read it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "derivation.hpp"
#include "json.hpp"

namespace napkin {

// ---------------------------------------------------------------------------------------
// Errors are values. `input` names the offending input ("" when the estimator id or the
// request itself is wrong); `allowed` says what would be accepted.
struct Error {
  std::string code;  // unknown_estimator | unknown_input | missing_input | invalid_value |
                     // out_of_range | not_integer | inconsistent
  std::string input;
  std::string message;
  Json value;
  std::string allowed;

  Json to_json() const;
  // Cross-input check failed inside an estimator: "tp = 3: must divide n_heads (64)".
  static Error inconsistent(std::string input, double value, std::string what);
};

template <class T>
class Result {
 public:
  Result(T v) : value_(std::move(v)) {}
  Result(Error e) : error_(std::move(e)) {}
  bool ok() const { return value_.has_value(); }
  const T& value() const { return *value_; }
  const T* operator->() const { return &*value_; }
  const Error& error() const { return error_; }

 private:
  std::optional<T> value_;
  Error error_;
};

// ---------------------------------------------------------------------------------------
enum class InputKind { Number, Boolean, Choice, Text };
enum class OutputKind { Number, Boolean, Text, Array };

struct InputSpec {
  std::string name, label, unit, help;
  InputKind kind = InputKind::Number;
  double min = 0, max = 1e30;
  bool min_exclusive = false;  // "> min" rather than ">= min"
  bool integer = false;
  bool required = false;  // must be given to the CLI / JS; the page starts from `example`
  std::vector<std::string> choices;
  Json example;  // the declared struct's default: the page's starting value and the default
                 // for inputs that are not required
  std::string allowed() const;  // "0 < params ≤ 1e15", "one of none, selective, full"
  Json to_json() const;
};

struct OutputSpec {
  std::string name, label, unit, help;
  OutputKind kind = OutputKind::Number;
  Json to_json() const;
};

struct EstimatorInfo {
  std::string id, title, area, summary, citation, doc;
};

struct RunResult {
  bool ok = false;
  Error error;
  Json inputs = Json::object();
  Json outputs = Json::object();
  Json steps = Json::array();
  Json warnings = Json::array();
  Json to_json(const std::string& id) const;
};

// Columns of a sweep: one array of numbers per numeric output (null where the point failed).
struct SweepResult {
  bool ok = false;
  Error error;
  Json to_json() const;
  std::vector<double> x;
  std::vector<std::pair<std::string, std::vector<double>>> columns;
  std::vector<std::string> point_errors;  // first error message per failed point ("" if ok)
};

struct Estimator {
  EstimatorInfo info;
  std::vector<InputSpec> inputs;
  std::vector<OutputSpec> outputs;
  // Typed call behind the generic edge: inputs already validated and complete.
  std::function<bool(const Json& in, Json& out, Derivation& d, Error& err)> compute;
  // Repeated runs varying one numeric input, without derivations.
  std::function<SweepResult(const Json& in, const std::string& param, const std::vector<double>&)>
      sweep;

  const InputSpec* input(std::string_view name) const;
  Json to_json() const;
};

// ---------------------------------------------------------------------------------------
// Typed declaration helpers. A field binds an input name to a member of the estimator's
// input struct; the struct's default member initializer is the input's example/default.
template <class In>
struct InputDecl {
  InputSpec spec;
  std::function<void(In&, const Json&)> assign;
  std::function<Json(const In&)> read;
  std::function<void(In&, double)> set_number;  // for sweeps; empty for non-numbers

  InputDecl& min(double v) { return spec.min = v, spec.min_exclusive = false, *this; }
  InputDecl& above(double v) { return spec.min = v, spec.min_exclusive = true, *this; }
  InputDecl& max(double v) { return spec.max = v, *this; }
  InputDecl& range(double lo, double hi) { return min(lo).max(hi); }
  InputDecl& positive(double hi) { return above(0).max(hi); }
  InputDecl& integer() { return spec.integer = true, *this; }
  InputDecl& required() { return spec.required = true, *this; }
  InputDecl& help(std::string h) { return spec.help = std::move(h), *this; }
};

template <class In, class T>
InputDecl<In> num(std::string name, T In::*field, std::string label, std::string unit = "") {
  InputDecl<In> d;
  d.spec.name = std::move(name);
  d.spec.label = std::move(label);
  d.spec.unit = std::move(unit);
  d.spec.kind = InputKind::Number;
  if constexpr (std::is_integral_v<T>) d.spec.integer = true;
  d.assign = [field](In& in, const Json& v) { in.*field = static_cast<T>(v.as_number()); };
  d.read = [field](const In& in) { return Json(static_cast<double>(in.*field)); };
  d.set_number = [field](In& in, double v) { in.*field = static_cast<T>(v); };
  return d;
}

template <class In>
InputDecl<In> flag(std::string name, bool In::*field, std::string label) {
  InputDecl<In> d;
  d.spec.name = std::move(name);
  d.spec.label = std::move(label);
  d.spec.kind = InputKind::Boolean;
  d.assign = [field](In& in, const Json& v) { in.*field = v.as_bool(); };
  d.read = [field](const In& in) { return Json(in.*field); };
  return d;
}

template <class In>
InputDecl<In> choice(std::string name, std::string In::*field, std::string label,
                     std::vector<std::string> choices) {
  InputDecl<In> d;
  d.spec.name = std::move(name);
  d.spec.label = std::move(label);
  d.spec.kind = InputKind::Choice;
  d.spec.choices = std::move(choices);
  d.assign = [field](In& in, const Json& v) { in.*field = v.as_string(); };
  d.read = [field](const In& in) { return Json(in.*field); };
  return d;
}

// Free text the estimator parses itself (e.g. a JSON list of pipeline stages).
template <class In>
InputDecl<In> text(std::string name, std::string In::*field, std::string label) {
  InputDecl<In> d;
  d.spec.name = std::move(name);
  d.spec.label = std::move(label);
  d.spec.kind = InputKind::Text;
  d.assign = [field](In& in, const Json& v) { in.*field = v.as_string(); };
  d.read = [field](const In& in) { return Json(in.*field); };
  return d;
}

template <class Out>
struct OutputDecl {
  OutputSpec spec;
  std::function<Json(const Out&)> read;
  std::function<double(const Out&)> number;  // empty for non-numbers
  OutputDecl& help(std::string h) { return spec.help = std::move(h), *this; }
};

template <class Out, class T>
OutputDecl<Out> out(std::string name, T Out::*field, std::string label, std::string unit = "") {
  OutputDecl<Out> d;
  d.spec.name = std::move(name);
  d.spec.label = std::move(label);
  d.spec.unit = std::move(unit);
  if constexpr (std::is_same_v<T, bool>) {
    d.spec.kind = OutputKind::Boolean;
    d.read = [field](const Out& o) { return Json(o.*field); };
  } else if constexpr (std::is_arithmetic_v<T>) {
    d.spec.kind = OutputKind::Number;
    d.read = [field](const Out& o) { return Json(static_cast<double>(o.*field)); };
    d.number = [field](const Out& o) { return static_cast<double>(o.*field); };
  } else if constexpr (std::is_same_v<T, std::string>) {
    d.spec.kind = OutputKind::Text;
    d.read = [field](const Out& o) { return Json(o.*field); };
  } else {
    d.spec.kind = OutputKind::Array;
    d.read = [field](const Out& o) { return o.*field; };
  }
  return d;
}

// Numbers that are not finite are a bug in an estimator, never a result to show.
bool all_finite(const Json& outputs, std::string& which);

template <class In, class Out>
Estimator declare(EstimatorInfo info, std::vector<InputDecl<In>> ins,
                  std::vector<OutputDecl<Out>> outs, Result<Out> (*fn)(const In&, Derivation&)) {
  Estimator e;
  e.info = std::move(info);
  const In defaults{};
  for (auto& d : ins) {
    d.spec.example = d.read(defaults);
    e.inputs.push_back(d.spec);
  }
  for (auto& d : outs) e.outputs.push_back(d.spec);

  auto build = [ins](const Json& in) {
    In typed{};
    for (const auto& d : ins)
      if (const Json* v = in.find(d.spec.name)) d.assign(typed, *v);
    return typed;
  };
  e.compute = [build, outs, fn](const Json& in, Json& result, Derivation& deriv, Error& err) {
    Result<Out> r = fn(build(in), deriv);
    if (!r.ok()) {
      err = r.error();
      return false;
    }
    for (const auto& d : outs) result.set(d.spec.name, d.read(r.value()));
    return true;
  };
  e.sweep = [build, ins, outs, fn](const Json& in, const std::string& param,
                                   const std::vector<double>& values) {
    SweepResult s;
    In typed = build(in);
    const InputDecl<In>* target = nullptr;
    for (const auto& d : ins)
      if (d.spec.name == param && d.set_number) target = &d;
    if (!target) {
      s.error = {
          "unknown_input", param, "cannot sweep \"" + param + "\": not a numeric input", {}, ""};
      return s;
    }
    for (const auto& d : outs)
      if (d.number) s.columns.emplace_back(d.spec.name, std::vector<double>{});
    Derivation quiet(false);
    for (double x : values) {
      target->set_number(typed, x);
      Result<Out> r = fn(typed, quiet);
      s.x.push_back(x);
      std::size_t c = 0;
      for (const auto& d : outs) {
        if (!d.number) continue;
        s.columns[c++].second.push_back(r.ok() ? d.number(r.value()) : 0.0 / 0.0);
      }
      s.point_errors.push_back(r.ok() ? "" : r.error().message);
    }
    s.ok = true;
    return s;
  };
  return e;
}

// ---------------------------------------------------------------------------------------
// Charts and presets are data too: the page draws every chart from these specs with sweep.
struct ChartSeries {
  std::string label;
  Json overrides = Json::object();  // inputs set on top of the user's current inputs
};

struct ChartMarker {
  std::string label;
  double x;
};

struct ChartSpec {
  std::string id, title, estimator, x, x_label, y_label, y_unit;
  double x_min = 0, x_max = 1;
  int points = 60;
  bool log_x = false, log_y = false, integer_x = false;
  std::string kind = "line";         // line | bar (stacked bars over integer x)
  std::vector<std::string> y;        // output names (one line per output when a single series)
  std::vector<ChartSeries> series;   // empty: one series, the user's inputs
  std::vector<ChartMarker> markers;  // labelled points computed at these x
  bool mark_current = true;          // a dot at the user's current x
  std::string hline_input;           // an input drawn as a horizontal line (e.g. GPU memory)
  Json to_json() const;
};

struct Preset {
  std::string id, label, kind, source;  // kind: model | gpu | link | scenario
  Json values = Json::object();         // input name -> value (base units)
  std::vector<std::string> estimators;  // for scenarios: where it applies; empty = anywhere
  Json to_json() const;
};

class Registry {
 public:
  void add(Estimator e) { estimators_.push_back(std::move(e)); }
  void add_chart(ChartSpec c) { charts_.push_back(std::move(c)); }
  void add_preset(Preset p) { presets_.push_back(std::move(p)); }

  const std::vector<Estimator>& estimators() const { return estimators_; }
  const std::vector<ChartSpec>& charts() const { return charts_; }
  const std::vector<Preset>& presets() const { return presets_; }
  const Estimator* find(std::string_view id) const;

  // Validates (names, presence, parse with units, range, integer, choices) and runs.
  RunResult run(std::string_view id, const Json& inputs, bool record_steps = true) const;
  SweepResult sweep(std::string_view id, const Json& inputs, const std::string& param,
                    const std::vector<double>& values) const;

  Json list_json() const;      // estimators with inputs/outputs, charts, presets
  Json hardware_json() const;  // presets of kind gpu and link, with sources

 private:
  std::vector<Estimator> estimators_;
  std::vector<ChartSpec> charts_;
  std::vector<Preset> presets_;
};

// The registry with every area registered (built once, on first use).
const Registry& registry();

// Validates one raw value against its spec: number / text with units / bool / choice.
bool validate_input(const InputSpec& spec, const Json& raw, Json& clean, Error& err);

}  // namespace napkin
