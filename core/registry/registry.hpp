// The estimator registry: every estimator is declared once (metadata + pure function) and
// the CLI, the wasm API, the page's forms, the problem bank and the tests all read it.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/derivation.hpp"
#include "base/json.hpp"
#include "base/literal.hpp"

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
  // The same for a choice or text input: "decode_attention = per_head: …".
  static Error inconsistent(std::string input, std::string value, std::string what);
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
  std::vector<std::string> choice_labels;  // parallel to choices: what the page shows
  // The name a model / accelerator / link preset fills this input under. Usually the input's
  // own name; an input whose name collides with another quantity (comm.tp_step's `tokens`
  // is the tokens in one step, not a model's training tokens) declares its own, so a preset
  // only sets inputs whose meaning it knows.
  std::string preset_key;
  // Which part of the scenario the input describes ("model", "cluster", "layout", "job"), where
  // an estimator groups its inputs so: the layout search chooses the "layout" ones itself.
  std::string group;
  // An input that, when neither the user nor a preset gives it, takes the value of this other
  // input if that one was given (KV heads follow the query heads: a shape typed as 32 heads is
  // multi-head, not the default model's 8 KV heads). The derivation says so.
  std::string follows;
  // Inputs ("d_model|n_heads") whose being given resets this one, when not given itself, to 0 =
  // "derive it from them" (head_dim = d ÷ heads, d_ff from d): a shape typed in part is not
  // completed with the default model's own widths.
  std::string derived_when;
  Json fallback;  // the declared struct's default: used when the input is not given
  Json example;   // the page's starting value: the fallback unless declared with .example()
  std::string allowed() const;  // "0 < params ≤ 1e15", "one of none, selective, full"
  Json to_json() const;
};

// One column of a table output (an array of rows, one object per row): the key each row holds
// it under, and what the page shows as its heading, unit and help. Literals.
struct ColumnRow {
  const char* name;
  const char* label;
  const char* unit;
  const char* help;
};

struct OutputSpec {
  std::string name, label, unit, help;
  OutputKind kind = OutputKind::Number;
  // A table's columns, in the order shown; a row may lack some (a fixed stage has no batch).
  std::span<const ColumnRow> columns;
  // A table whose rows are parts of a whole the user gave: each row's `parts_column` adds up
  // against the input `parts_of` (serve.pipeline's stage latencies against its budget). The page
  // draws the rows as one bar with the input's mark, naming the whole `parts_label`.
  std::string_view parts_of, parts_column, parts_label;
  // Computed only when the inputs ask for it (e.g. a cost needs a price): the estimator
  // leaves the field NaN (`not_given`) and the output is absent from the result, never 0.
  bool optional = false;
  // Kept for tests and the errata (a worked example's own, mistaken figure): in the result,
  // but not shown on the page's card.
  bool hidden = false;
  Json to_json() const;
};

// The value an optional output's field holds when the inputs did not ask for it.
inline constexpr double not_given = __builtin_nan("");

// Literals only (static storage): views keep the per-estimator construction code small.
struct EstimatorInfo {
  std::string_view id, title, area, summary, citation, doc;
};

struct RunResult {
  bool ok = false;
  Error error;
  Json inputs = Json::object();
  Json outputs = Json::object();
  Json steps = Json::array();
  Json warnings = Json::array();
  Json to_json(const std::string& id) const&;
  Json to_json(const std::string& id) &&;  // moves the parts: no copy of the derivation
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

// Where a struct member lives and what it holds. Estimators are declared over typed structs;
// the registry reaches their members through these (accessor, type) pairs, so the glue is a few
// non-template functions rather than a std::function per field (which cost most of the wasm).
// An accessor is one small function per declared member (member_at below): given an object of
// the struct the row was declared over, the member's address. Rows declared over a base struct
// (the shared model inputs) and inserted into an estimator's struct reach that base first, one
// derived-to-base conversion per level (`via`, outermost first).
enum class FieldType : unsigned char { Double, Int, Long, Bool, String, Json };
using MemberAt = void* (*)(void* object);
// The derived-to-base conversions from an estimator's struct to the struct a row was declared
// over, outermost first (at most three levels: serve.capacity → its engine → the sized model →
// the shape).
struct Via {
  MemberAt hop[3] = {nullptr, nullptr, nullptr};
  Via then(MemberAt inner) const;  // one level further in
};
struct FieldRef {
  MemberAt at = nullptr;
  FieldType type = FieldType::Double;
  const void* of = nullptr;  // the struct declared over (struct_id), checked by declare()
  Via via;
};

// The member M of struct S inside an object of S (M may be declared in a base of S: the
// member pointer converts to S's).
template <class S, auto M>
void* member_at(void* object) {
  return &(static_cast<S*>(object)->*M);
}
// The base B inside an object of D.
template <class D, class B>
void* base_at(void* object) {
  return static_cast<B*>(static_cast<D*>(object));
}
// A constant address per struct: what a row records as the struct it was declared over.
template <class S>
inline constexpr char struct_id = 0;

void field_assign(void* obj, FieldRef f, const Json& v);
void field_set_number(void* obj, FieldRef f, double v);
Json field_read(const void* obj, FieldRef f);
double field_number(const void* obj, FieldRef f);

template <class T>
constexpr FieldType field_type() {
  if constexpr (std::is_same_v<T, bool>)
    return FieldType::Bool;
  else if constexpr (std::is_same_v<T, int>)
    return FieldType::Int;
  else if constexpr (std::is_same_v<T, long> || std::is_same_v<T, long long>) {
    static_assert(sizeof(T) == sizeof(long long), "long fields must be 64-bit");
    return FieldType::Long;
  } else if constexpr (std::is_same_v<T, double>)
    return FieldType::Double;
  else if constexpr (std::is_same_v<T, std::string>)
    return FieldType::String;
  else {
    static_assert(std::is_same_v<T, Json>,
                  "fields are double, int, long long, bool, string or Json");
    return FieldType::Json;
  }
}

// A member of struct S of type T: what a declaration binds an input or output to. Written
// NAPKIN_FIELD(In, params) at a declaration: the accessor's address is a constant, so a whole
// declaration row is a constant the compiler stores as data (rows built at run time were most of
// the registry's wasm).
template <class S, class T>
struct Member {
  MemberAt at;
};

template <class S, class T>
constexpr FieldRef field_ref(Member<S, T> m) {
  return {m.at, field_type<T>(), &struct_id<S>};
}

#define NAPKIN_FIELD(S, m) (::napkin::Member<S, decltype(S::m)>{&::napkin::member_at<S, &S::m>})

struct Estimator;
// What a typed call reports, once per run (or per point of a sweep): the result struct, or the
// estimator's error.
using UseFn = void (*)(void* context, const void* out, const Error* error);
// The typed half of every call, one per estimator: fills the input struct from validated
// inputs, then runs the function once, or once per value of `swept` (a sweep), handing each
// result to `use`. Compute and sweep share it: one instantiation per estimator, not two.
using TypedCall = void (*)(const Estimator& e, const Json& in, const FieldRef* swept,
                           const std::vector<double>* values, Derivation& d, UseFn use,
                           void* context);

struct Estimator {
  EstimatorInfo info;
  std::vector<InputSpec> inputs;
  std::vector<OutputSpec> outputs;
  std::vector<FieldRef> input_fields, output_fields;  // parallel to inputs / outputs
  TypedCall call = nullptr;  // the estimator's function, typed; inputs validated and complete

  const InputSpec* input(std::string_view name) const;
  Json to_json() const;
  // The generic halves of a typed call: fill a struct from validated inputs, and write a
  // result struct's members as JSON outputs.
  void fill(void* typed, const Json& in) const;
  void write(const void* typed, Json& out) const;
};

// ---------------------------------------------------------------------------------------
// Typed declaration helpers. A field binds an input name to a member of the estimator's
// input struct; the struct's default member initializer is the input's example/default.
//
// A declaration is a plain row of literals (static storage) and numbers, built by constexpr
// functions from NAPKIN_FIELD accessors: a declaration list is then a constant array in the
// wasm's data, not code (rows built at run time were most of the registry's wasm). declare()
// turns the rows into InputSpec / OutputSpec once.
struct InputRow {
  const char* name = "";
  const char* label = "";
  const char* unit = "";
  const char* help = "";
  const char* choices = nullptr;        // "ring|tree|in_switch": the allowed values, in order
  const char* choice_labels = nullptr;  // "Ring|Tree|In-switch": what the page shows for each
  const char* preset_key = nullptr;     // see InputSpec::preset_key; null = the name
  const char* group = nullptr;          // see InputSpec::group
  const char* follows = nullptr;        // see InputSpec::follows
  const char* derived_when = nullptr;   // see InputSpec::derived_when
  FieldRef field;
  double min = 0, max = 1e30;
  double example = 0;  // the page's start when has_example; else the struct's default
  InputKind kind = InputKind::Number;
  bool min_exclusive = false, integer = false, required = false, has_example = false;
};

template <class In>
struct InputDecl : InputRow {
  constexpr InputDecl& min(double v) { return InputRow::min = v, min_exclusive = false, *this; }
  constexpr InputDecl& above(double v) { return InputRow::min = v, min_exclusive = true, *this; }
  constexpr InputDecl& max(double v) { return InputRow::max = v, *this; }
  constexpr InputDecl& range(double lo, double hi) { return min(lo).max(hi); }
  constexpr InputDecl& positive(double hi) { return above(0).max(hi); }
  constexpr InputDecl& integer() { return InputRow::integer = true, *this; }
  constexpr InputDecl& required() { return InputRow::required = true, *this; }
  constexpr InputDecl& help(const char* h) { return InputRow::help = h, *this; }
  constexpr InputDecl& meaning(const char* key) { return preset_key = key, *this; }
  constexpr InputDecl& group(const char* g) { return InputRow::group = g, *this; }
  // When not given, take `leader`'s value if that was given (InputSpec::follows).
  constexpr InputDecl& follows(const char* leader) { return InputRow::follows = leader, *this; }
  // What the page shows for each choice, "|"-separated in the order the choices were declared.
  constexpr InputDecl& labels(const char* l) { return choice_labels = l, *this; }
  // Where the page starts when the API default (0 = "not given") would show nothing.
  constexpr InputDecl& example(double v) {
    return InputRow::example = v, has_example = true, *this;
  }
};

constexpr InputRow input_row(const char* name, FieldRef field, const char* label, const char* unit,
                             InputKind kind) {
  InputRow r;
  r.name = name;
  r.field = field;
  r.label = label;
  r.unit = unit;
  r.kind = kind;
  r.integer =
      kind == InputKind::Number && (field.type == FieldType::Int || field.type == FieldType::Long);
  return r;
}

// The typed builders take a Member (NAPKIN_FIELD) and check the member's type.

template <class In, class T>
constexpr InputDecl<In> num(const char* name, Member<In, T> field, const char* label,
                            const char* unit = "") {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, "num() binds a number");
  return {input_row(name, field_ref(field), label, unit, InputKind::Number)};
}

template <class In>
constexpr InputDecl<In> flag(const char* name, Member<In, bool> field, const char* label) {
  return {input_row(name, field_ref(field), label, "", InputKind::Boolean)};
}

// `choices`: the allowed values, "|"-separated ("none|selective|full").
template <class In>
constexpr InputDecl<In> choice(const char* name, Member<In, std::string> field, const char* label,
                               const char* choices) {
  InputDecl<In> d{input_row(name, field_ref(field), label, "", InputKind::Choice)};
  d.choices = choices;
  return d;
}

// Free text the estimator parses itself (e.g. a JSON list of pipeline stages).
template <class In>
constexpr InputDecl<In> text(const char* name, Member<In, std::string> field, const char* label) {
  return {input_row(name, field_ref(field), label, "", InputKind::Text)};
}

struct OutputRow {
  const char* name = "";
  const char* label = "";
  const char* unit = "";
  const char* help = "";
  FieldRef field;
  bool optional = false, hidden = false;
  const ColumnRow* columns = nullptr;  // see OutputSpec
  std::size_t n_columns = 0;
  const char* parts_of = nullptr;
  const char* parts_column = nullptr;
  const char* parts_label = nullptr;
};

template <class Out>
struct OutputDecl : OutputRow {
  constexpr OutputDecl& help(const char* h) { return OutputRow::help = h, *this; }
  // A table's columns (an array output), declared once as a constant array.
  template <std::size_t N>
  constexpr OutputDecl& columns(const ColumnRow (&c)[N]) {
    return OutputRow::columns = c, n_columns = N, *this;
  }
  // Each row's `column` is a part of the input `input`, a whole named `label` in the page's
  // words ("latency budget"; see OutputSpec::parts_of).
  constexpr OutputDecl& parts_of(const char* input, const char* column, const char* label) {
    return OutputRow::parts_of = input, parts_column = column, parts_label = label, *this;
  }
  constexpr OutputDecl& optional() { return OutputRow::optional = true, *this; }
  constexpr OutputDecl& hidden() { return OutputRow::hidden = true, *this; }
};

constexpr OutputRow output_row(const char* name, FieldRef field, const char* label,
                               const char* unit) {
  OutputRow r;
  r.name = name;
  r.field = field;
  r.label = label;
  r.unit = unit;
  return r;
}

template <class Out, class T>
constexpr OutputDecl<Out> out(const char* name, Member<Out, T> field, const char* label,
                              const char* unit = "") {
  return {output_row(name, field_ref(field), label, unit)};
}

// The specs of declared rows: defaults read from `defaults` (an instance of the input struct).
InputSpec input_spec(const InputRow& row, const void* defaults);
OutputSpec output_spec(const OutputRow& row);
// Appends rows to an estimator (non-template: one copy for every struct type). Every row must
// be declared over the estimator's own structs (`in_struct`, `out_struct`: their struct_id).
void add_rows(Estimator& e, const InputRow* ins, std::size_t n_ins, const OutputRow* outs,
              std::size_t n_outs, const void* defaults, const void* in_struct,
              const void* out_struct);

// Numbers that are not finite are a bug in an estimator, never a result to show.
bool all_finite(const Json& outputs, std::string& which);

// An estimator's function, Result<Out> fn(const In&, Derivation&): its input and output structs.
template <class F>
struct EstimatorFn;
template <class In, class Out>
struct EstimatorFn<Result<Out> (*)(const In&, Derivation&)> {
  using Input = In;
  using Output = Out;
};
template <auto Fn>
using InputOf = typename EstimatorFn<decltype(Fn)>::Input;
template <auto Fn>
using OutputOf = typename EstimatorFn<decltype(Fn)>::Output;

// The typed half of every call of the estimator Fn (a template argument: called directly, never
// through a converted pointer).
template <auto Fn>
void call_typed(const Estimator& e, const Json& in, const FieldRef* swept,
                const std::vector<double>* values, Derivation& d, UseFn use, void* context) {
  InputOf<Fn> typed{};
  e.fill(&typed, in);
  const std::size_t n = swept ? values->size() : 1;
  for (std::size_t i = 0; i < n; ++i) {
    if (swept) field_set_number(&typed, *swept, (*values)[i]);
    Result<OutputOf<Fn>> r = Fn(typed, d);
    use(context, r.ok() ? &r.value() : nullptr, r.ok() ? nullptr : &r.error());
  }
}

// One run with its derivation: the outputs as JSON, or the estimator's error.
bool compute_outputs(const Estimator& e, const Json& in, Json& out, Derivation& d, Error& err);
// Repeated runs varying one numeric input, without derivations.
SweepResult sweep_outputs(const Estimator& e, const Json& in, const std::string& param,
                          const std::vector<double>& values);

// An estimator from its function and its rows: declare<serve_engine>(info, {inputs},
// {outputs}). The braced lists of constant rows are constant arrays (data); add_rows turns
// them into specs once and checks that each row belongs to Fn's structs.
template <auto Fn>
Estimator declare(EstimatorInfo info, const InputRow* ins, std::size_t n_ins, const OutputRow* outs,
                  std::size_t n_outs) {
  Estimator e;
  e.info = info;
  const InputOf<Fn> defaults{};
  add_rows(e, ins, n_ins, outs, n_outs, &defaults, &struct_id<InputOf<Fn>>,
           &struct_id<OutputOf<Fn>>);
  e.call = &call_typed<Fn>;
  return e;
}
template <auto Fn>
Estimator declare(EstimatorInfo info, std::initializer_list<InputRow> ins,
                  std::initializer_list<OutputRow> outs) {
  return declare<Fn>(info, ins.begin(), ins.size(), outs.begin(), outs.size());
}
// Rows assembled in code (shared inputs inserted, a list kept for reuse).
template <auto Fn>
Estimator declare(EstimatorInfo info, const std::vector<InputRow>& ins,
                  std::initializer_list<OutputRow> outs) {
  return declare<Fn>(info, ins.data(), ins.size(), outs.begin(), outs.size());
}

// ---------------------------------------------------------------------------------------
// Charts and presets are data too: the page draws every chart from these specs with sweep.
struct ChartSeries {
  Literal label;
  Json overrides = Json::object();  // inputs set on top of the user's current inputs
};

struct ChartMarker {
  Literal label;
  double x;
};

struct ChartSpec {
  // Literals (static storage), like the declaration rows: a std::string per field was a
  // constructor and a destructor call each in the registry's code.
  Literal id, title, estimator, x, x_label, y_label, y_unit;
  double x_min = 0, x_max = 1;
  int points = 60;
  bool log_x = false, log_y = false, integer_x = false;
  Literal kind = "line";             // line | bar (stacked bars over integer x)
  std::vector<Literal> y;            // output names (one line per output when a single series)
  std::vector<ChartSeries> series;   // empty: one series, the user's inputs
  std::vector<ChartMarker> markers;  // labelled points computed at these x
  bool mark_current = true;          // a dot at the user's current x
  Literal hline_input;               // an input drawn as a horizontal line (e.g. GPU memory)
  Literal x_max_input;               // an input whose value, when above x_min, ends the x axis
  Json to_json() const;
};

// A question a newcomer asks, as an entry point on the page's first screen: the card that
// answers it and the presets that set it up.
struct Question {
  std::string_view text, estimator;  // literals (static storage), as in the rows
  std::vector<std::string_view> presets;
  Json to_json() const;
};

struct Preset {
  // Views of literals or of the typed catalogs' (static storage), as in the rows.
  std::string_view id, label, kind, source;  // kind: model | gpu | link | scenario
  Json values = Json::object();              // input name -> value (base units)
  std::vector<std::string_view> estimators;  // for scenarios: where it applies; empty = anywhere
  // Where its figures come from, for a menu's sections ("Vendor figures", "Worked examples'
  // figures"); empty = no section.
  std::string_view group;
  Json to_json() const;
};

// The page's scenario bar (docs/architecture.md, The scenario): the preset kinds every card can
// follow (model, accelerator, link), and the layout degrees it sets by name. Cards fill the inputs
// whose declared meaning (`preset_key`) matches, as they do for a preset.
struct ScenarioKind {
  std::string_view kind, label, help;  // literals
  Json to_json() const;
};

// Presets and chart overrides are written as {"name", value} lists.
using Fields = std::initializer_list<std::pair<const char*, Json>>;
Json object_of(Fields f);

// A named set of inputs for the given estimators: a worked example, a paper's setup.
Preset scenario(std::string_view id, std::string_view label, std::string_view source,
                std::vector<std::string_view> estimators, Fields f);
inline Preset scenario(std::string_view id, std::string_view label, std::string_view source,
                       const char* estimator, Fields f) {
  return scenario(id, label, source, std::vector<std::string_view>{estimator}, f);
}

class Registry {
 public:
  void add(Estimator e) { estimators_.push_back(std::move(e)); }
  void add_chart(ChartSpec c) { charts_.push_back(std::move(c)); }
  void add_preset(Preset p) { presets_.push_back(std::move(p)); }
  void add_question(Question q) { questions_.push_back(std::move(q)); }
  void add_scenario_kind(ScenarioKind k) { scenario_kinds_.push_back(std::move(k)); }
  void add_scenario_input(InputSpec s) { scenario_inputs_.push_back(std::move(s)); }

  const std::vector<Estimator>& estimators() const { return estimators_; }
  const std::vector<ChartSpec>& charts() const { return charts_; }
  const std::vector<Preset>& presets() const { return presets_; }
  const std::vector<Question>& questions() const { return questions_; }
  const std::vector<InputSpec>& scenario_inputs() const { return scenario_inputs_; }
  const std::vector<ScenarioKind>& scenario_kinds() const { return scenario_kinds_; }
  const Estimator* find(std::string_view id) const;

  // Validates (names, presence, parse with units, range, integer, choices) and runs.
  RunResult run(std::string_view id, const Json& inputs, bool record_steps = true) const;
  SweepResult sweep(std::string_view id, const Json& inputs, const std::string& param,
                    const std::vector<double>& values) const;
  // The validation half of run(): every input of `id` checked and completed with its default
  // (scenario presets applied), for callers that run the typed function themselves (the search).
  bool validate(std::string_view id, const Json& inputs, Json& clean, Error& err) const;

  Json list_json() const;      // estimators with inputs/outputs, charts, presets
  Json hardware_json() const;  // presets of kind gpu and link, with sources

 private:
  std::vector<Estimator> estimators_;
  std::vector<ChartSpec> charts_;
  std::vector<Preset> presets_;
  std::vector<Question> questions_;
  std::vector<ScenarioKind> scenario_kinds_;
  std::vector<InputSpec> scenario_inputs_;
};

// The registry with every area registered (built once, on first use).
const Registry& registry();

// Validates one raw value against its spec: number / text with units / bool / choice.
bool validate_input(const InputSpec& spec, const Json& raw, Json& clean, Error& err);

}  // namespace napkin
