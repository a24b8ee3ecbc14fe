// The wasm module's JS boundary, declared with Embind (emscripten/bind.h): a thin layer over the
// registry. wasm/api.js wraps these core functions into the JS API of the README (errors as
// values, hostile arguments refused by name) and napkin.d.ts types that API.
//
// What crosses, and why in this form (measured with Emscripten 3.1.6, node 20, a 10-step reply):
// - Text in: Embind's std::string (UTF-8, copied into wasm memory by Embind).
// - Replies out: UTF-8 JSON left in one buffer, handed to JavaScript as a typed array view of
//   wasm memory (typed_memory_view), which api.js decodes at once with TextDecoder. Embind's own
//   std::string return scans every byte in JavaScript before decoding (192 µs per 3.5 KB reply,
//   against 16 µs to parse the same JSON), and steps returned as Embind value_objects or a vector
//   of them cost 81–347 µs per run: a getter call into wasm per field.
// - Numbers: a sweep's values in and its columns out through Float64Array views of wasm memory.
// - The search's progress: the caller's JS function (val), called between blocks of layouts.
//
// wasm/split.mjs finds these functions by their Embind names (it runs the registrations below)
// to tell the calculator's code from the practice and search code, which loads later: no other
// code may take the address of a core function.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <string_view>
#include <vector>

#include "base/units.hpp"
#include "practice/problems.hpp"
#include "registry/registry.hpp"
#include "scenario/catalog_json.hpp"
#include "training/search.hpp"
#include "training/search_inputs.hpp"

namespace {

using emscripten::val;
using napkin::Json;

Json parse_or_error(std::string_view text, std::string& err) {
  Json j;
  if (!Json::parse(text, j, err)) return Json();
  return j;
}

std::string error_json(const std::string& code, const std::string& message) {
  napkin::Error e;
  e.code = code;
  e.message = message;
  Json j = Json::object();
  j.set("error", e.to_json());
  return j.dump();
}

// The one reply buffer: its view is valid until the next call, and api.js decodes it at once.
std::string reply_text;

val reply(std::string text) {
  reply_text = std::move(text);
  return val(emscripten::typed_memory_view(reply_text.size(), reply_text.data()));
}

std::string list_json() {
  Json j = napkin::registry().list_json();
  j.set("search", napkin::search_inputs_json(napkin::registry()));  // the Plan card's inputs
  return j.dump();
}

std::string hardware_json() {
  Json h = napkin::registry().hardware_json();
  h.set("gpus", napkin::gpus_json());  // the typed catalog, as `napkin hardware` prints it
  h.set("tiers", napkin::tiers_json());
  return h.dump();
}

std::string models_json() {
  Json m = Json::object();
  m.set("models", napkin::models_json());
  return m.dump();
}

std::string run_json(std::string_view id, std::string_view inputs) {
  std::string err;
  Json in = parse_or_error(inputs, err);
  if (!err.empty()) return error_json("invalid_value", "inputs are not valid JSON: " + err);
  return napkin::registry().run(id, in).to_json(std::string(id)).dump();
}

// A sweep's values as the caller wrote them, and its columns, contiguous [x…, column 1…,
// column 2…]: JavaScript copies them in and out of Float64Array views. Formatting 10^4 doubles
// as JSON would cost milliseconds.
std::vector<double> sweep_values, sweep_block;

std::string sweep_header(std::string_view id, std::string_view inputs, const std::string& param,
                         const std::vector<double>& xs) {
  std::string err;
  Json in = parse_or_error(inputs, err);
  if (!err.empty()) return error_json("invalid_value", "inputs are not valid JSON: " + err);
  napkin::SweepResult s = napkin::registry().sweep(id, in, param, xs);
  if (!s.ok) {
    Json j = Json::object();
    j.set("error", s.error.to_json());
    return j.dump();
  }
  sweep_block.clear();
  sweep_block.insert(sweep_block.end(), s.x.begin(), s.x.end());
  Json names = Json::array();
  for (const auto& [name, col] : s.columns) {
    names.push(name);
    sweep_block.insert(sweep_block.end(), col.begin(), col.end());
  }
  Json errors = Json::object();
  for (std::size_t i = 0; i < s.point_errors.size(); ++i)
    if (!s.point_errors[i].empty()) errors.set(std::to_string(i), s.point_errors[i]);
  Json j = Json::object();
  j.set("n", static_cast<double>(s.x.size()));
  j.set("columns", std::move(names));
  j.set("errors", std::move(errors));
  return j.dump();
}

// The layout search's progress: the caller's function, at most every `every` layouts; a false
// answer cancels.
struct SearchCtx {
  long long every, last;
  val* progress;
};

bool search_progress(void* p, long long done, long long total) {
  auto* c = static_cast<SearchCtx*>(p);
  if (done - c->last < c->every && done < total) return true;
  c->last = done;
  return (*c->progress)(static_cast<double>(done), static_cast<double>(total)).as<bool>();
}

// The core functions: what Embind exposes as Module.core<Name> (below).

val napkin_list() {
  return reply(list_json());
}
val napkin_hardware() {
  return reply(hardware_json());
}
val napkin_models() {
  return reply(models_json());
}
val napkin_run(std::string id, std::string inputs) {
  return reply(run_json(id, inputs));
}
// A sweep in three calls, so that only typed arrays cross: the values' room (a Float64Array
// view the caller fills), the sweep (its reply: column names and failed points), and its columns
// (a Float64Array view of [x…, column 1…, …], see sweep_header).
val napkin_sweep_values(double n) {
  sweep_values.assign(n > 0 ? static_cast<std::size_t>(n) : 0, 0.0);
  return val(emscripten::typed_memory_view(sweep_values.size(), sweep_values.data()));
}
val napkin_sweep(std::string id, std::string inputs, std::string param) {
  return reply(sweep_header(id, inputs, param, sweep_values));
}
val napkin_sweep_data() {
  return val(emscripten::typed_memory_view(sweep_block.size(), sweep_block.data()));
}
std::string napkin_format(double v, std::string unit, bool binary, int digits) {
  return napkin::format_value(v, unit, {binary, digits > 0 ? digits : 4});
}
// {ok, value} or {ok: false, error}: the page's parser of a typed value with its unit.
val napkin_parse(std::string text, std::string unit) {
  const napkin::ParsedNumber p = napkin::parse_value(text, unit);
  Json j = Json::object();
  j.set("ok", p.ok);
  if (p.ok)
    j.set("value", p.value);
  else
    j.set("error", p.error);
  return reply(j.dump());
}
// The layout search (docs/training.md, search): the same JSON as `napkin search` (search_run
// checks each input against its declaration: units, range, whole number, the same errors as
// `run`). `progress`: a function(done, total) → bool, called when `with_progress`.
val napkin_search(std::string inputs, double every, bool with_progress, val progress) {
  std::string err;
  Json in = parse_or_error(inputs, err);
  if (!err.empty() || !in.is_object())
    return reply(error_json("invalid_value", "inputs are not a JSON object " + err));
  SearchCtx ctx{every > 1 ? static_cast<long long>(every) : 1, 0, &progress};
  return reply(
      napkin::search_run(napkin::registry(), in, with_progress ? &search_progress : nullptr, &ctx)
          .dump());
}
// The problem bank: the same replies as `napkin problems | problem | check`.
val napkin_load_problems(std::string text) {
  return reply(napkin::load_reply(text).json.dump());
}
val napkin_problems() {
  return reply(napkin::problems_reply().json.dump());
}
val napkin_problem(std::string id, int seed) {
  return reply(napkin::problem_reply(id, seed).json.dump());
}
val napkin_check(std::string id, int seed, std::string answer) {
  return reply(napkin::check_reply(id, seed, answer).json.dump());
}

}  // namespace

// Module.core<Name>: api.js's wrappers are the public names (Module.run, Module.list…).
EMSCRIPTEN_BINDINGS(napkin) {
  using emscripten::function;
  function("coreList", &napkin_list);
  function("coreHardware", &napkin_hardware);
  function("coreModels", &napkin_models);
  function("coreRun", &napkin_run);
  function("coreSweepValues", &napkin_sweep_values);
  function("coreSweep", &napkin_sweep);
  function("coreSweepData", &napkin_sweep_data);
  function("coreFormat", &napkin_format);
  function("coreParse", &napkin_parse);
  function("coreSearch", &napkin_search);
  function("coreLoadProblems", &napkin_load_problems);
  function("coreProblems", &napkin_problems);
  function("coreProblem", &napkin_problem);
  function("coreCheck", &napkin_check);
}
