#include "registry/registry.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "base/echo.hpp"
#include "base/units.hpp"

namespace napkin {

namespace {

std::string num_text(double v) {
  std::string s;
  append_number(s, v);
  return s;
}

std::string value_text(const Json& v) {
  if (v.is_string()) return "\"" + echo_text(v.as_string()) + "\"";
  return echo_text(v.dump());
}

const char* kind_name(InputKind k) {
  switch (k) {
    case InputKind::Number: return "number";
    case InputKind::Boolean: return "boolean";
    case InputKind::Choice: return "choice";
    case InputKind::Text: return "text";
  }
  return "number";
}

const char* kind_name(OutputKind k) {
  switch (k) {
    case OutputKind::Number: return "number";
    case OutputKind::Boolean: return "boolean";
    case OutputKind::Text: return "text";
    case OutputKind::Array: return "array";
  }
  return "number";
}

template <class Text>
Json strings(const std::vector<Text>& v) {
  Json a = Json::array();
  for (const auto& s : v) a.push(std::string_view(s));
  return a;
}

}  // namespace

Json Error::to_json() const {
  Json j = Json::object();
  j.add("code", code);
  j.add("input", input.empty() ? Json() : Json(input));
  j.add("value", value);
  j.add("message", message);
  j.add("allowed", allowed.empty() ? Json() : Json(allowed));
  return j;
}

Error Error::inconsistent(std::string input, std::string value, std::string what) {
  Error e;
  e.code = "inconsistent";
  e.message = input + " = " + value + ": " + what;
  e.value = std::move(value);
  e.allowed = what;
  e.input = std::move(input);
  return e;
}

Error Error::inconsistent(std::string input, double value, std::string what) {
  Error e = inconsistent(std::move(input), num_text(value), std::move(what));
  e.value = value;  // the number itself, not its text
  return e;
}

namespace {

// "a|b|c" as a list of its parts.
std::vector<std::string> split_bars(const char* text) {
  std::vector<std::string> parts;
  if (!text) return parts;
  std::string_view rest(text);
  for (;;) {
    const std::size_t bar = rest.find('|');
    parts.emplace_back(rest.substr(0, bar));
    if (bar == std::string_view::npos) return parts;
    rest.remove_prefix(bar + 1);
  }
}

}  // namespace

InputSpec input_spec(const InputRow& row, const void* defaults) {
  InputSpec s;
  s.name = row.name;
  s.label = row.label;
  s.unit = row.unit;
  s.help = row.help;
  s.kind = row.kind;
  s.min = row.min;
  s.max = row.max;
  s.min_exclusive = row.min_exclusive;
  s.integer = row.integer;
  s.required = row.required;
  s.choices = split_bars(row.choices);
  s.choice_labels = split_bars(row.choice_labels);
  if (row.preset_key) s.preset_key = row.preset_key;
  if (row.group) s.group = row.group;
  if (row.follows) s.follows = row.follows;
  if (row.derived_when) s.derived_when = row.derived_when;
  s.fallback = field_read(defaults, row.field);
  s.example = row.has_example ? Json(row.example) : s.fallback;
  return s;
}

OutputSpec output_spec(const OutputRow& row) {
  OutputSpec s;
  s.name = row.name;
  s.label = row.label;
  s.unit = row.unit;
  s.help = row.help;
  s.optional = row.optional;
  s.hidden = row.hidden;
  s.columns = {row.columns, row.n_columns};
  if (row.parts_of) s.parts_of = row.parts_of;
  if (row.parts_column) s.parts_column = row.parts_column;
  if (row.parts_label) s.parts_label = row.parts_label;
  switch (row.field.type) {
    case FieldType::Bool: s.kind = OutputKind::Boolean; break;
    case FieldType::String: s.kind = OutputKind::Text; break;
    case FieldType::Json: s.kind = OutputKind::Array; break;
    default: s.kind = OutputKind::Number;
  }
  return s;
}

void add_rows(Estimator& e, const InputRow* ins, std::size_t n_ins, const OutputRow* outs,
              std::size_t n_outs, const void* defaults, const void* in_struct,
              const void* out_struct) {
  // A row declared over another struct would reach into the wrong object: a programming error,
  // found when the registry is built (every test builds it).
  for (std::size_t i = 0; i < n_ins; ++i) {
    if (ins[i].field.of != in_struct) std::abort();
    e.inputs.push_back(input_spec(ins[i], defaults));
    e.input_fields.push_back(ins[i].field);
  }
  for (std::size_t i = 0; i < n_outs; ++i) {
    if (outs[i].field.of != out_struct) std::abort();
    e.outputs.push_back(output_spec(outs[i]));
    e.output_fields.push_back(outs[i].field);
  }
}

std::string InputSpec::allowed() const {
  switch (kind) {
    case InputKind::Boolean: return "true or false";
    case InputKind::Text: return "text";
    case InputKind::Choice: {
      std::string s = "one of ";
      bool labelled = choice_labels.size() == choices.size();
      for (std::size_t i = 0; i < choices.size(); ++i)
        s += (i ? ", " : "") + choices[i] + (labelled ? " (" + choice_labels[i] + ")" : "");
      return s;
    }
    case InputKind::Number: break;
  }
  std::string s = format_value(min, unit) + (min_exclusive ? " < " : " ≤ ") + name + " ≤ " +
                  format_value(max, unit);
  if (integer) s += ", a whole number";
  return s;
}

Json InputSpec::to_json() const {
  Json j = Json::object();
  j.add("name", name);
  j.add("label", label);
  j.add("kind", kind_name(kind));
  j.add("unit", unit);
  if (kind == InputKind::Number) {
    j.add("min", min);
    j.add("max", max);
    j.add("min_exclusive", min_exclusive);
    j.add("integer", integer);
  }
  if (kind == InputKind::Choice) {
    j.add("choices", strings(choices));
    j.add("choice_labels",
          strings(choice_labels.size() == choices.size() ? choice_labels : choices));
  }
  j.add("preset_key", preset_key.empty() ? name : preset_key);
  if (!group.empty()) j.add("group", group);
  j.add("required", required);
  j.add("default", required ? Json() : fallback);
  j.add("example", example);
  j.add("allowed", allowed());
  j.add("help", help);
  return j;
}

Json OutputSpec::to_json() const {
  Json j = Json::object();
  j.add("name", name);
  j.add("label", label);
  j.add("kind", kind_name(kind));
  j.add("unit", unit);
  j.add("help", help);
  if (optional) j.add("optional", true);
  if (hidden) j.add("hidden", true);
  if (!columns.empty()) {
    Json cols = Json::array();
    for (const ColumnRow& c : columns) {
      Json col = Json::object();
      col.add("name", c.name);
      col.add("label", c.label);
      col.add("unit", c.unit);
      col.add("help", c.help);
      cols.push(std::move(col));
    }
    j.add("columns", std::move(cols));
  }
  if (!parts_of.empty()) {
    Json parts = Json::object();
    parts.add("input", parts_of);
    parts.add("column", parts_column);
    parts.add("label", parts_label);
    j.add("parts_of", std::move(parts));
  }
  return j;
}

Via Via::then(MemberAt inner) const {
  Via v = *this;
  for (MemberAt& h : v.hop)
    if (!h) {
      h = inner;
      return v;
    }
  std::abort();  // a fourth level: Via::hop must grow
}

namespace {
// The member's address in `obj`: through the bases the row's struct sits in, then its accessor.
// Reading a const object goes through the same accessors (which only take an address).
void* locate(void* obj, const FieldRef& f) {
  for (MemberAt hop : f.via.hop)
    if (hop) obj = hop(obj);
  return f.at(obj);
}
template <class T>
T& member(void* obj, const FieldRef& f) {
  return *static_cast<T*>(locate(obj, f));
}
template <class T>
const T& member(const void* obj, const FieldRef& f) {
  return *static_cast<const T*>(locate(const_cast<void*>(obj), f));
}
}  // namespace

void field_set_number(void* obj, FieldRef f, double v) {
  switch (f.type) {
    case FieldType::Double: member<double>(obj, f) = v; break;
    case FieldType::Int: member<int>(obj, f) = static_cast<int>(v); break;
    case FieldType::Long: member<long long>(obj, f) = static_cast<long long>(v); break;
    case FieldType::Bool: member<bool>(obj, f) = v != 0; break;
    default: break;
  }
}

void field_assign(void* obj, FieldRef f, const Json& v) {
  switch (f.type) {
    case FieldType::Bool: member<bool>(obj, f) = v.as_bool(); break;
    case FieldType::String: member<std::string>(obj, f) = v.as_string(); break;
    case FieldType::Json: member<Json>(obj, f) = v; break;
    default: field_set_number(obj, f, v.as_number());
  }
}

double field_number(const void* obj, FieldRef f) {
  switch (f.type) {
    case FieldType::Double: return member<double>(obj, f);
    case FieldType::Int: return member<int>(obj, f);
    case FieldType::Long: return static_cast<double>(member<long long>(obj, f));
    case FieldType::Bool: return member<bool>(obj, f) ? 1 : 0;
    default: return 0.0 / 0.0;
  }
}

Json field_read(const void* obj, FieldRef f) {
  switch (f.type) {
    case FieldType::Bool: return Json(member<bool>(obj, f));
    case FieldType::String: return Json(member<std::string>(obj, f));
    case FieldType::Json: return member<Json>(obj, f);
    default: return Json(field_number(obj, f));
  }
}

void Estimator::fill(void* typed, const Json& in) const {
  // Validated inputs are in declaration order: member i is input i (a search otherwise).
  const std::vector<Json::Member>& given = in.members();
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Json* v = i < given.size() && given[i].first == inputs[i].name ? &given[i].second
                                                                         : in.find(inputs[i].name);
    if (v) field_assign(typed, input_fields[i], *v);
  }
}

void Estimator::write(const void* typed, Json& out) const {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    // An optional output left `not_given` is absent: "not asked for" is never a number.
    if (outputs[i].optional && outputs[i].kind == OutputKind::Number &&
        std::isnan(field_number(typed, output_fields[i])))
      continue;
    Json v = field_read(typed, output_fields[i]);
    // An optional verdict left empty is absent too ("bound" of a kernel never placed).
    if (outputs[i].optional && v.is_string() && v.as_string().empty()) continue;
    out.add(outputs[i].name, std::move(v));
  }
}

bool compute_outputs(const Estimator& e, const Json& in, Json& out, Derivation& d, Error& err) {
  struct Context {
    const Estimator& e;
    Json& out;
    Error& err;
    bool ok;
  } c{e, out, err, false};
  e.call(
      e, in, nullptr, nullptr, d,
      [](void* p, const void* result, const Error* error) {
        auto& c = *static_cast<Context*>(p);
        if (result) {
          c.e.write(result, c.out);
          c.ok = true;
        } else {
          c.err = *error;
        }
      },
      &c);
  return c.ok;
}

SweepResult sweep_outputs(const Estimator& e, const Json& in, const std::string& param,
                          const std::vector<double>& values) {
  SweepResult s;
  const FieldRef* target = nullptr;
  for (std::size_t i = 0; i < e.inputs.size(); ++i)
    if (e.inputs[i].name == param && e.inputs[i].kind == InputKind::Number)
      target = &e.input_fields[i];
  if (!target) {
    s.error = {
        "unknown_input", param, "cannot sweep \"" + param + "\": not a numeric input", {}, ""};
    return s;
  }
  struct Context {
    const Estimator& e;
    SweepResult& s;
    std::vector<std::size_t> numeric;
  } c{e, s, {}};
  for (std::size_t i = 0; i < e.outputs.size(); ++i)
    if (e.outputs[i].kind == OutputKind::Number) {
      c.numeric.push_back(i);
      s.columns.emplace_back(e.outputs[i].name, std::vector<double>{});
    }
  s.x = values;
  Derivation quiet(false);
  e.call(
      e, in, target, &values, quiet,
      [](void* p, const void* result, const Error* error) {
        auto& c = *static_cast<Context*>(p);
        for (std::size_t k = 0; k < c.numeric.size(); ++k)
          c.s.columns[k].second.push_back(
              result ? field_number(result, c.e.output_fields[c.numeric[k]]) : 0.0 / 0.0);
        c.s.point_errors.push_back(result ? std::string() : error->message);
      },
      &c);
  s.ok = true;
  return s;
}

const InputSpec* Estimator::input(std::string_view name) const {
  for (const auto& i : inputs)
    if (i.name == name) return &i;
  return nullptr;
}

Json Estimator::to_json() const {
  Json j = Json::object();
  j.add("id", info.id);
  j.add("title", info.title);
  j.add("area", info.area);
  j.add("summary", info.summary);
  j.add("citation", info.citation);
  j.add("doc", info.doc);
  Json ins = Json::array(), outs = Json::array();
  for (const auto& i : inputs) ins.push(i.to_json());
  for (const auto& o : outputs) outs.push(o.to_json());
  j.add("inputs", std::move(ins));
  j.add("outputs", std::move(outs));
  return j;
}

Json RunResult::to_json(const std::string& id) const& {
  return RunResult(*this).to_json(id);
}

Json RunResult::to_json(const std::string& id) && {
  Json j = Json::object();
  if (!ok) {
    Json e = error.to_json();
    e.set("id", id);
    j.add("error", std::move(e));
    return j;
  }
  j.add("id", id);
  j.add("inputs", std::move(inputs));
  j.add("outputs", std::move(outputs));
  j.add("steps", std::move(steps));
  j.add("warnings", std::move(warnings));
  return j;
}

Json SweepResult::to_json() const {
  Json j = Json::object();
  if (!ok) {
    j.set("error", error.to_json());
    return j;
  }
  Json xs = Json::array();
  for (double v : x) xs.push(v);
  j.set("x", std::move(xs));
  Json cols = Json::object();
  for (const auto& [name, vals] : columns) {
    Json a = Json::array();
    for (double v : vals) a.push(std::isfinite(v) ? Json(v) : Json());
    cols.set(name, std::move(a));
  }
  j.set("outputs", std::move(cols));
  Json errs = Json::array();
  for (const auto& e : point_errors) errs.push(e.empty() ? Json() : Json(e));
  j.set("errors", std::move(errs));
  return j;
}

Json ChartSpec::to_json() const {
  Json j = Json::object();
  j.set("id", id);
  j.set("title", title);
  j.set("estimator", estimator);
  j.set("kind", kind);
  j.set("x", x);
  j.set("x_label", x_label);
  j.set("y_label", y_label);
  j.set("y_unit", y_unit);
  j.set("x_min", x_min);
  j.set("x_max", x_max);
  j.set("points", points);
  j.set("log_x", log_x);
  j.set("log_y", log_y);
  j.set("integer_x", integer_x);
  j.set("y", strings(y));
  Json ss = Json::array();
  for (const auto& s : series) {
    Json o = Json::object();
    o.set("label", s.label);
    o.set("overrides", s.overrides);
    ss.push(std::move(o));
  }
  j.set("series", std::move(ss));
  Json ms = Json::array();
  for (const auto& m : markers) {
    Json o = Json::object();
    o.set("label", m.label);
    o.set("x", m.x);
    ms.push(std::move(o));
  }
  j.set("markers", std::move(ms));
  j.set("mark_current", mark_current);
  j.set("hline_input", hline_input);
  j.set("x_max_input", x_max_input);
  return j;
}

Json Preset::to_json() const {
  Json j = Json::object();
  j.add("id", id);
  j.add("label", label);
  j.add("kind", kind);
  j.add("source", source);
  j.add("values", values);
  j.add("estimators", strings(estimators));
  if (!group.empty()) j.add("group", group);
  return j;
}

Json Question::to_json() const {
  Json j = Json::object();
  j.add("text", text);
  j.add("estimator", estimator);
  j.add("presets", strings(presets));
  return j;
}

Json object_of(Fields f) {
  Json j = Json::object();
  for (const auto& [k, v] : f) j.set(k, v);
  return j;
}

Preset scenario(std::string_view id, std::string_view label, std::string_view source,
                std::vector<std::string_view> estimators, Fields f) {
  return Preset{id, label, "scenario", source, object_of(f), std::move(estimators)};
}

bool all_finite(const Json& outputs, std::string& which) {
  for (const auto& [k, v] : outputs.members()) {
    if (v.is_number() && !std::isfinite(v.as_number())) {
      which = k;
      return false;
    }
  }
  return true;
}

namespace {
// The success path builds no strings: sweeps validate every point.
bool fail(const InputSpec& spec, const Json& raw, Error& err, const char* code, std::string msg) {
  err.code = code;
  err.input = spec.name;
  err.value = raw;
  err.allowed = spec.allowed();
  err.message = std::move(msg);
  return false;
}
// An input as a person reads it: its label, then the id the CLI and the JS API take.
std::string named(const InputSpec& spec) {
  return spec.label + " (" + spec.name + ")";
}
std::string head(const InputSpec& spec, const Json& raw) {
  return named(spec) + " = " + value_text(raw) + ": ";
}
}  // namespace

namespace {
constexpr double kSmallestInput = 1e-100;

std::string_view trim_view(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Bytes, bandwidths and FLOPs typed without a prefix ("3.35" for an HBM bandwidth, "80B" for a
// GPU's memory) that fall a million times below the input's own example are almost surely a
// missing prefix. The suggestion keeps the digits and picks the prefix nearest the example.
bool implausibly_small(const InputSpec& spec, double v, std::string& suggestion) {
  const std::string& u = spec.unit;
  if (!(u == "B" || u == "B/s" || u == "FLOP" || u == "FLOP/s")) return false;
  const double ex = spec.example.is_number() ? spec.example.as_number() : 0;
  if (!(ex >= 1e6) || !(v > 0) || v * 1e6 >= ex) return false;
  static constexpr std::pair<const char*, double> kPrefixes[] = {
      {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}, {"E", 1e18}};
  const char* best = "k";
  double best_gap = 1e300;
  for (const auto& [p, f] : kPrefixes) {
    const double gap = std::fabs(std::log10(v * f / ex));
    if (gap < best_gap) best_gap = gap, best = p;
  }
  suggestion = num_text(v) + " " + best + u;
  return true;
}

// The same for a time typed without a unit: seconds are the base unit, but a latency whose
// example is 3 µs typed as "5" is a million times too large, far more likely 5 µs than 5 s.
bool implausibly_large_time(const InputSpec& spec, double v, std::string& suggestion) {
  if (spec.unit != "s") return false;
  const double ex = spec.example.is_number() ? spec.example.as_number() : 0;
  if (!(ex > 0) || !(v > 0) || v < ex * 1e6) return false;
  static constexpr std::pair<const char*, double> kUnits[] = {
      {"ms", 1e-3}, {"µs", 1e-6}, {"ns", 1e-9}};
  const char* best = "ms";
  double best_gap = 1e300;
  for (const auto& [name, f] : kUnits) {
    const double gap = std::fabs(std::log10(v * f / ex));
    if (gap < best_gap) best_gap = gap, best = name;
  }
  suggestion = num_text(v) + " " + best;
  return true;
}
}  // namespace

bool validate_input(const InputSpec& spec, const Json& raw, Json& clean, Error& err) {
  // A number with its unit never needs more than a few dozen characters; a list of pipeline
  // stages a few kilobytes. Longer text is refused unread, and not echoed back whole.
  const std::size_t limit = spec.kind == InputKind::Text ? 20000 : 64;
  if (raw.is_string() && raw.as_string().size() > limit) {
    const std::string& t = raw.as_string();
    std::size_t cut = 32;
    while (cut > 0 && (static_cast<unsigned char>(t[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8
    return fail(spec, Json(t.substr(0, cut) + "…"), err, "invalid_value",
                spec.name + " is " + std::to_string(t.size()) + " characters long; at most " +
                    std::to_string(limit) + " are read");
  }
  switch (spec.kind) {
    case InputKind::Boolean: {
      if (raw.is_bool()) return clean = raw, true;
      if (raw.is_number() && (raw.as_number() == 0 || raw.as_number() == 1))
        return clean = Json(raw.as_number() == 1), true;
      if (raw.is_string()) {
        const std::string& s = raw.as_string();
        if (s == "true" || s == "yes" || s == "1" || s == "on") return clean = Json(true), true;
        if (s == "false" || s == "no" || s == "0" || s == "off") return clean = Json(false), true;
      }
      return fail(spec, raw, err, "invalid_value", head(spec, raw) + "must be true or false");
    }
    case InputKind::Choice: {
      if (raw.is_string())
        for (const auto& c : spec.choices)
          if (c == raw.as_string()) return clean = raw, true;
      return fail(spec, raw, err, "invalid_value", head(spec, raw) + "must be " + spec.allowed());
    }
    case InputKind::Text: {
      if (raw.is_string()) return clean = raw, true;
      if (raw.is_array() || raw.is_object()) return clean = Json(raw.dump()), true;
      return fail(spec, raw, err, "invalid_value", head(spec, raw) + "must be text");
    }
    case InputKind::Number: break;
  }
  double v = 0;
  // An emptied field of an input where 0 means "none" (a price, a latency target) is that
  // none, not an error: clearing the box is how a user says "no target".
  const bool zero_is_none = (spec.fallback.is_number() && spec.fallback.as_number() == 0) ||
                            spec.label.find("0 = none") != std::string::npos;
  if (raw.is_string() && trim_view(raw.as_string()).empty() && zero_is_none && !(spec.min > 0) &&
      !(spec.min == 0 && spec.min_exclusive))
    return clean = Json(0.0), true;
  if (raw.is_number()) {
    v = raw.as_number();
  } else if (raw.is_string()) {
    ParsedNumber p = parse_value(raw.as_string(), spec.unit);
    if (!p.ok) return fail(spec, raw, err, "invalid_value", named(spec) + " " + p.error);
    v = p.value;
    // A fraction typed as a whole percentage ("40" for an MFU of at most 100 %) is 40 %.
    if (spec.unit == "frac" && !p.scaled && spec.max <= 1 && v > 1 && v <= 100 &&
        raw.as_string().find('%') == std::string::npos)
      v /= 100;
    std::string suggestion;
    if (!p.scaled && implausibly_small(spec, v, suggestion))
      return fail(spec, raw, err, "ambiguous",
                  named(spec) + " = \"" + echo_text(raw.as_string()) + "\" reads as " +
                      format_value(v, spec.unit) + ", far below anything real here: did you mean " +
                      suggestion + "?");
    if (!p.scaled && implausibly_large_time(spec, v, suggestion))
      return fail(spec, raw, err, "ambiguous",
                  named(spec) + " = \"" + echo_text(raw.as_string()) + "\" reads as " +
                      format_value(v, spec.unit) + ", a million times the usual " +
                      format_value(spec.example.as_number(), spec.unit) + ": did you mean " +
                      suggestion + "? (write " + num_text(v) + " s if seconds are meant)");
  } else {
    return fail(spec, raw, err, "invalid_value",
                head(spec, raw) + "must be " + unit_noun(spec.unit));
  }
  if (std::isnan(v))
    return fail(spec, raw, err, "invalid_value",
                head(spec, raw) + "is not a number; allowed: " + spec.allowed());
  if (!std::isfinite(v))
    return fail(spec, raw, err, "out_of_range",
                head(spec, raw) + "is too large; allowed: " + spec.allowed());
  // Magnitudes the arithmetic cannot carry (subnormals: 1/5e-324 is infinite) are refused.
  if (v != 0 && std::fabs(v) < kSmallestInput)
    return fail(spec, raw, err, "out_of_range",
                head(spec, raw) + "is too small to compute with (nonzero values must be at least " +
                    "1e-100 in size); allowed: " + spec.allowed());
  bool low = spec.min_exclusive ? !(v > spec.min) : !(v >= spec.min);
  if (low || v > spec.max)
    return fail(spec, raw, err, "out_of_range",
                named(spec) + " = " + format_value(v, spec.unit) +
                    " is out of range; allowed: " + spec.allowed());
  if (spec.integer && v != std::floor(v))
    return fail(
        spec, raw, err, "not_integer",
        named(spec) + " = " + num_text(v) + " must be a whole number; allowed: " + spec.allowed());
  clean = Json(v);
  return true;
}

const Estimator* Registry::find(std::string_view id) const {
  for (const auto& e : estimators_)
    if (e.info.id == id) return &e;
  return nullptr;
}

namespace {

// Unknown id, unknown names, missing required inputs, then each value; fills defaults.
// `from`, when given, receives one line per scenario preset used: "Llama 3 70B: n_layers = 80,
// n_kv_heads = 8, …", for the derivation to say where each number came from.
bool validate_all(const Registry& reg, std::string_view id, const Json& inputs,
                  const Estimator*& est, Json& clean, Error& err,
                  std::vector<std::pair<const Preset*, std::string>>* from = nullptr,
                  std::vector<std::string>* completed = nullptr) {
  std::vector<std::string_view> defaulted;  // inputs neither the user nor a preset gave
  est = reg.find(id);
  if (!est) {
    err.code = "unknown_estimator";
    err.message = "unknown estimator \"" + std::string(id) + "\"; run `napkin list` for the ids";
    err.value = Json(std::string(id));
    return false;
  }
  if (!inputs.is_object() && !inputs.is_null()) {
    err.code = "invalid_value";
    err.message = "inputs must be an object of name → value";
    return false;
  }
  // The scenario (docs/architecture.md): `model=llama3-70b`, `gpu=h100`, `link=nvlink4` fill every
  // input whose meaning the preset carries; an input given by name overrides it.
  std::vector<const Preset*> scenario;
  // The kinds are the scenario bar's, as the catalog declares them (one list, not two).
  for (const ScenarioKind& sk : reg.scenario_kinds()) {
    const std::string_view kind = sk.kind;
    const Json* v = inputs.is_object() ? inputs.find(kind) : nullptr;
    if (!v || est->input(kind)) continue;
    const Preset* found = nullptr;
    std::string ids;
    for (const auto& p : reg.presets()) {
      if (p.kind != kind) continue;
      if (v->is_string() && p.id == v->as_string()) found = &p;
      ids.append(ids.empty() ? "" : ", ").append(p.id);
    }
    if (!found) {
      err.code = "invalid_value";
      err.input = std::string(kind);
      err.value = *v;
      err.allowed = ids;
      err.message = std::string(kind) + " = " + value_text(*v) + " is not a known " +
                    std::string(kind) + "; known: " + ids + " (napkin models, napkin hardware)";
      return false;
    }
    scenario.push_back(found);
  }
  // Inputs usually arrive in declaration order (the page and the JS API build them from the
  // list): each lookup tries the next declaration first, so a run with 50 inputs makes 50
  // comparisons rather than the ~1,250 of a search from the start each time.
  std::size_t next = 0;
  for (const auto& [name, v] : inputs.members()) {
    if (next < est->inputs.size() && est->inputs[next].name == name) {
      ++next;
      continue;
    }
    if (const InputSpec* s = est->input(name)) {
      next = static_cast<std::size_t>(s - est->inputs.data()) + 1;
      continue;
    }
    // A named copy: clang 14 cannot capture a structured binding in a lambda (C++20 allows it).
    const std::string& key = name;
    const bool scenario_kind = std::any_of(reg.scenario_kinds().begin(), reg.scenario_kinds().end(),
                                           [&](const ScenarioKind& sk) { return sk.kind == key; });
    if (!scenario_kind) {
      std::string names;
      for (const auto& i : est->inputs) names += (names.empty() ? "" : ", ") + i.name;
      err.code = "unknown_input";
      err.input = echo_text(name);
      err.value = v.is_string() ? Json(echo_text(v.as_string())) : v;
      err.message = "unknown input \"" + echo_text(name) + "\" for " + std::string(est->info.id) +
                    "; inputs are: " + names;
      err.allowed = names;
      return false;
    }
  }
  clean = Json::object();
  const std::vector<Json::Member>* given = inputs.is_object() ? &inputs.members() : nullptr;
  std::size_t at = 0;  // as above: the next member given is usually this input
  for (const auto& spec : est->inputs) {
    const Json* v = nullptr;
    if (given && at < given->size() && (*given)[at].first == spec.name) {
      v = &(*given)[at++].second;
    } else {
      for (std::size_t i = 0; given && i < given->size(); ++i)
        if ((*given)[i].first == spec.name) {
          v = &(*given)[i].second;
          at = i + 1;
          break;
        }
    }
    const Preset* source = nullptr;
    if (!v || v->is_null())
      for (const Preset* p : scenario)
        if (const Json* pv = p->values.find(spec.preset_key.empty() ? spec.name : spec.preset_key))
          v = pv, source = p;
    if (source && from) {
      auto it = from->begin();
      while (it != from->end() && it->first != source) ++it;
      if (it == from->end()) it = from->insert(from->end(), {source, ""});
      it->second += (it->second.empty() ? "" : ", ") + spec.name + " = " +
                    (v->is_number() ? format_value(v->as_number(), spec.unit) : value_text(*v));
    }
    if (!v || v->is_null() || (v->is_string() && v->as_string().empty() && spec.required)) {
      if (spec.required) {
        err.code = "missing_input";
        err.input = spec.name;
        err.allowed = spec.allowed();
        err.message = "missing required input " + spec.label + " (" + spec.name +
                      "); allowed: " + spec.allowed();
        return false;
      }
      clean.add(spec.name, spec.fallback);  // spec names are unique: no search needed
      defaulted.push_back(spec.name);
      continue;
    }
    Json c;
    if (!validate_input(spec, *v, c, err)) return false;
    clean.add(spec.name, std::move(c));
  }
  // Completion rules (InputSpec::follows): an input left at its default takes the value of the
  // input it follows when that one was given, and the derivation says so.
  auto was_defaulted = [&](std::string_view name) {
    return std::find(defaulted.begin(), defaulted.end(), name) != defaulted.end();
  };
  for (const auto& spec : est->inputs) {
    if (spec.derived_when.empty() || !was_defaulted(spec.name)) continue;
    std::string_view names = spec.derived_when;
    while (!names.empty()) {
      const std::size_t bar = names.find('|');
      const std::string_view leader = names.substr(0, bar);
      names = bar == std::string_view::npos ? std::string_view() : names.substr(bar + 1);
      if (!est->input(leader) || was_defaulted(leader)) continue;
      clean.set(spec.name, Json(0.0));
      if (completed)
        completed->push_back(spec.name + " from the shape given (" + std::string(leader) +
                             " was given; not the default model's " + spec.fallback.dump() + ")");
      break;
    }
  }
  for (const auto& spec : est->inputs) {
    if (spec.follows.empty() || !was_defaulted(spec.name) || was_defaulted(spec.follows)) continue;
    const Json* leader = clean.find(spec.follows);
    if (!leader) continue;
    clean.set(spec.name, *leader);
    if (completed)
      completed->push_back(spec.name + " = " + leader->dump() + ", as " + spec.follows +
                           " (not given)");
  }
  return true;
}

}  // namespace

RunResult Registry::run(std::string_view id, const Json& inputs, bool record_steps) const {
  RunResult r;
  const Estimator* est = nullptr;
  std::vector<std::pair<const Preset*, std::string>> from;
  std::vector<std::string> completed;
  if (!validate_all(*this, id, inputs, est, r.inputs, r.error, record_steps ? &from : nullptr,
                    &completed))
    return r;
  Derivation d(record_steps);
  for (const auto& [p, names] : from)
    d.note(std::string("From ").append(p->label), names + " (" + std::string(p->source) + ")");
  for (const auto& line : completed) d.note("Completed from what was given", line);
  if (!compute_outputs(*est, r.inputs, r.outputs, d, r.error)) {
    // A cross-input check names its input by id ("tp = 3: …"): lead with the label too.
    const InputSpec* spec = r.error.input.empty() ? nullptr : est->input(r.error.input);
    if (spec && r.error.message.rfind(spec->name + " = ", 0) == 0)
      r.error.message = named(*spec) + r.error.message.substr(spec->name.size());
    return r;
  }
  std::string which;
  if (!all_finite(r.outputs, which)) {
    // Name the inputs that can do this: the ones given as zero (a division by them).
    std::string zeros;
    r.error.input = "";
    for (const auto& spec : est->inputs) {
      const Json* v = r.inputs.find(spec.name);
      if (spec.kind != InputKind::Number || !v || !v->is_number() || v->as_number() != 0) continue;
      if (spec.fallback.is_number() && spec.fallback.as_number() == 0) continue;  // "0 = none"
      if (r.error.input.empty()) r.error.input = spec.name;
      zeros += (zeros.empty() ? "" : ", ") + spec.name + " = 0";
    }
    r.error.code = "not_finite";
    r.error.message =
        zeros.empty()
            ? "these inputs make " + which + " infinite or undefined; try values nearer the example"
            : zeros + " makes " + which + " infinite or undefined: give a positive value";
    r.outputs = Json::object();
    return r;
  }
  r.steps = d.take_steps();
  r.warnings = d.take_warnings();
  r.ok = true;
  return r;
}

bool Registry::validate(std::string_view id, const Json& inputs, Json& clean, Error& err) const {
  const Estimator* est = nullptr;
  return validate_all(*this, id, inputs, est, clean, err);
}

SweepResult Registry::sweep(std::string_view id, const Json& inputs, const std::string& param,
                            const std::vector<double>& values) const {
  SweepResult s;
  const Estimator* est = nullptr;
  Json clean;
  if (!validate_all(*this, id, inputs, est, clean, s.error)) return s;
  const InputSpec* spec = est->input(param);
  if (!spec || spec->kind != InputKind::Number) {
    s.error.code = "unknown_input";
    s.error.input = param;
    s.error.message =
        "cannot sweep \"" + param + "\": not a numeric input of " + std::string(est->info.id);
    return s;
  }
  if (values.size() > 100000) {
    s.error.code = "out_of_range";
    s.error.message = "a sweep takes at most 100000 values";
    return s;
  }
  // Only values the input accepts reach the estimator; the others are reported per point.
  std::vector<double> valid;
  std::vector<std::string> why(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    Json c;
    Error e;
    if (validate_input(*spec, Json(values[i]), c, e))
      valid.push_back(values[i]);
    else
      why[i] = e.message;
  }
  SweepResult inner = sweep_outputs(*est, clean, param, valid);
  if (!inner.ok) return inner;
  s.ok = true;
  s.x = values;
  for (const auto& [name, col] : inner.columns) s.columns.emplace_back(name, std::vector<double>{});
  std::size_t k = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    bool ok = why[i].empty();
    for (std::size_t c = 0; c < s.columns.size(); ++c) {
      double v = ok ? inner.columns[c].second[k] : 0.0 / 0.0;
      s.columns[c].second.push_back(std::isfinite(v) ? v : 0.0 / 0.0);
    }
    s.point_errors.push_back(ok ? inner.point_errors[k] : why[i]);
    if (ok) ++k;
  }
  return s;
}

Json Registry::list_json() const {
  Json j = Json::object();
  Json es = Json::array(), cs = Json::array(), ps = Json::array();
  for (const auto& e : estimators_) es.push(e.to_json());
  for (const auto& c : charts_) cs.push(c.to_json());
  for (const auto& p : presets_) ps.push(p.to_json());
  j.add("estimators", std::move(es));
  j.add("charts", std::move(cs));
  j.add("presets", std::move(ps));
  Json qs = Json::array();
  for (const auto& q : questions_) qs.push(q.to_json());
  j.add("questions", std::move(qs));
  Json kinds = Json::array(), layout = Json::array();
  for (const auto& k : scenario_kinds_) kinds.push(k.to_json());
  for (const auto& in : scenario_inputs_) layout.push(in.to_json());
  Json scenario = Json::object();
  scenario.set("kinds", std::move(kinds));
  scenario.set("layout", std::move(layout));
  j.add("scenario", std::move(scenario));
  return j;
}

Json ScenarioKind::to_json() const {
  Json j = Json::object();
  j.add("kind", kind);
  j.add("label", label);
  j.add("help", help);
  return j;
}

Json Registry::hardware_json() const {
  Json j = Json::object();
  Json gpus = Json::array(), links = Json::array();
  for (const auto& p : presets_) {
    if (p.kind == "gpu") gpus.push(p.to_json());
    if (p.kind == "link") links.push(p.to_json());
  }
  j.set("accelerators", std::move(gpus));
  j.set("links", std::move(links));
  return j;
}

}  // namespace napkin
