// Embind bindings only: each function forwards to the registry and returns JSON text,
// which api.js turns into plain JS objects (no handles for callers to delete).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "base/units.hpp"
#include "practice/problems.hpp"
#include "registry/registry.hpp"
#include "scenario/catalog_json.hpp"
#include "training/search.hpp"
#include "training/search_inputs.hpp"

namespace {

using napkin::Json;

Json parse_or_error(const std::string& text, std::string& err) {
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

std::string list_json() {
  Json j = napkin::registry().list_json();
  j.set("search", napkin::search_inputs_json(napkin::registry()));  // the Plan card's inputs
  return j.dump();
}
std::string hardware_json() {
  napkin::Json h = napkin::registry().hardware_json();
  h.set("gpus", napkin::gpus_json());  // the typed catalog, as `napkin hardware` prints it
  h.set("tiers", napkin::tiers_json());
  return h.dump();
}

std::string models_json() {
  napkin::Json m = napkin::Json::object();
  m.set("models", napkin::models_json());
  return m.dump();
}

std::string run_json(const std::string& id, const std::string& inputs) {
  std::string err;
  Json in = parse_or_error(inputs, err);
  if (!err.empty()) return error_json("invalid_value", "inputs are not valid JSON: " + err);
  return napkin::registry().run(id, in).to_json(id).dump();
}

// A sweep returns its numbers through wasm memory, not text: one header (column names and
// the errors of failed points) plus one contiguous block [x…, column 1…, column 2…] that the
// JS side copies out. Formatting 10^4 doubles as JSON would cost milliseconds.
std::vector<double> sweep_block;

std::string sweep_header(const std::string& id, const std::string& inputs, const std::string& param,
                         const emscripten::val& values) {
  std::string err;
  Json in = parse_or_error(inputs, err);
  if (!err.empty()) return error_json("invalid_value", "inputs are not valid JSON: " + err);
  std::vector<double> xs = emscripten::convertJSArrayToNumberVector<double>(values);
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

emscripten::val sweep_data() {
  return emscripten::val(emscripten::typed_memory_view(sweep_block.size(), sweep_block.data()));
}

std::string format_value(double v, const std::string& unit, bool binary, int digits) {
  return napkin::format_value(v, unit, {binary, digits > 0 ? digits : 4});
}

std::string parse_value(const std::string& text, const std::string& unit) {
  napkin::ParsedNumber p = napkin::parse_value(text, unit);
  Json j = Json::object();
  j.set("ok", p.ok);
  if (p.ok)
    j.set("value", p.value);
  else
    j.set("error", p.error);
  return j.dump();
}

// The layout search (SPEC §9): the same JSON as `napkin search` (core's search_run checks each
// input against its declaration: units, range, whole number, the same errors as `run`).
// `progress(done, total)` is called after each block of layouts at least `every` layouts apart; the
// page's worker posts it on.
struct SearchCtx {
  const emscripten::val* progress;
  long long every, last;
};

bool search_progress(void* p, long long done, long long total) {
  auto* c = static_cast<SearchCtx*>(p);
  if (done - c->last < c->every && done < total) return true;
  c->last = done;
  return (*c->progress)(static_cast<double>(done), static_cast<double>(total)).as<bool>();
}

std::string search_text(const std::string& inputs, double every, const emscripten::val& progress) {
  std::string err;
  Json in = parse_or_error(inputs, err);
  if (!err.empty() || !in.is_object())
    return error_json("invalid_value", "inputs are not a JSON object " + err);
  SearchCtx ctx{&progress, every > 1 ? static_cast<long long>(every) : 1, 0};
  return napkin::search_run(napkin::registry(), in,
                            progress.isUndefined() ? nullptr : &search_progress, &ctx)
      .dump();
}

// The problem bank: the same replies as `napkin problems | problem | check`.
std::string problems_json() {
  return napkin::problems_reply().json.dump();
}
std::string problem_json(const std::string& id, int seed) {
  return napkin::problem_reply(id, seed).json.dump();
}
std::string check_json(const std::string& id, int seed, const std::string& answer) {
  return napkin::check_reply(id, seed, answer).json.dump();
}

// Results go back as bytes in wasm memory that the JS side decodes with TextDecoder:
// Embind's own std::string conversion walks the string byte by byte in JS, which cost most
// of a run (a few KB of JSON with its derivation).
std::string out_buffer;

emscripten::val bytes(std::string s) {
  out_buffer = std::move(s);
  return emscripten::val(emscripten::typed_memory_view(
      out_buffer.size(), reinterpret_cast<const unsigned char*>(out_buffer.data())));
}

template <auto Fn, class... Args>
emscripten::val as_bytes(Args... args) {
  return bytes(Fn(args...));
}

}  // namespace

EMSCRIPTEN_BINDINGS(napkin) {
  emscripten::function("_list", &as_bytes<&list_json>);
  emscripten::function("_hardware", &as_bytes<&hardware_json>);
  emscripten::function("_models", &as_bytes<&models_json>);
  emscripten::function("_run", &as_bytes<&run_json, const std::string&, const std::string&>);
  emscripten::function("_sweep", &as_bytes<&sweep_header, const std::string&, const std::string&,
                                           const std::string&, const emscripten::val&>);
  emscripten::function("_sweep_data", &sweep_data);
  emscripten::function("_format", &format_value);
  emscripten::function("_parse", &as_bytes<&parse_value, const std::string&, const std::string&>);
  emscripten::function("_search",
                       &as_bytes<&search_text, const std::string&, double, const emscripten::val&>);
  emscripten::function("_problems", &as_bytes<&problems_json>);
  emscripten::function("_problem", &as_bytes<&problem_json, const std::string&, int>);
  emscripten::function("_check",
                       &as_bytes<&check_json, const std::string&, int, const std::string&>);
}
