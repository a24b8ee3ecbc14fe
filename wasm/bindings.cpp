// The wasm module's exports: plain C functions over the registry. No Embind: its C++ and JS
// runtime were 8.4 KB of the gzipped page (301.4 → 293.0 KB without it, against the old 300 KB
// whole-page budget) for a dozen text-in, text-out calls. Text arguments arrive as UTF-8 the JS
// side wrote into wasm memory (napkin_alloc), with their lengths; each result is left as bytes in
// one buffer (the returned pointer, napkin_out_len() long) that api.js decodes and turns into plain
// objects.
#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>

#include <cstdlib>
#include <optional>
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

std::string run_json(std::string_view id, std::string_view inputs) {
  std::string err;
  Json in = parse_or_error(inputs, err);
  if (!err.empty()) return error_json("invalid_value", "inputs are not valid JSON: " + err);
  napkin::RunResult r = napkin::registry().run(id, in, true, true);
  std::optional<std::string> records = std::move(r.records);
  std::string text = std::move(r).to_json(std::string(id)).dump();
  // The steps, when plain, follow the JSON (whose "steps" is then []) after a \x1d, as the
  // derivation's records: api.js splits them into the step objects (see base/derivation.hpp).
  if (records) {
    text += '\x1d';
    text += *records;
  }
  return text;
}

// A sweep returns its numbers through wasm memory, not text: one header (column names and
// the errors of failed points) plus one contiguous block [x…, column 1…, column 2…] that the
// JS side copies out. Formatting 10^4 doubles as JSON would cost milliseconds.
std::vector<double> sweep_block;

std::string sweep_header(std::string_view id, std::string_view inputs, const std::string& param,
                         const double* values, std::size_t n) {
  std::string err;
  Json in = parse_or_error(inputs, err);
  if (!err.empty()) return error_json("invalid_value", "inputs are not valid JSON: " + err);
  const std::vector<double> xs(values, values + n);
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

std::string parse_value(std::string_view text, std::string_view unit) {
  napkin::ParsedNumber p = napkin::parse_value(text, unit);
  Json j = Json::object();
  j.set("ok", p.ok);
  if (p.ok)
    j.set("value", p.value);
  else
    j.set("error", p.error);
  return j.dump();
}

// The layout search (docs/training.md, search): the same JSON as `napkin search` (core's search_run
// checks each input against its declaration: units, range, whole number, the same errors as `run`).
// `progress(done, total)` is called after each block of layouts at least `every` layouts apart; the
// page's worker posts it on.
// The caller's progress function (api.js sets Module.searchProgress); false cancels.
EM_JS(bool, napkin_search_progress, (double done, double total),
      { return !!Module['searchProgress'](done, total); });

struct SearchCtx {
  long long every, last;
};

bool search_progress(void* p, long long done, long long total) {
  auto* c = static_cast<SearchCtx*>(p);
  if (done - c->last < c->every && done < total) return true;
  c->last = done;
  return napkin_search_progress(static_cast<double>(done), static_cast<double>(total));
}

std::string search_text(std::string_view inputs, double every, bool with_progress) {
  std::string err;
  Json in = parse_or_error(inputs, err);
  if (!err.empty() || !in.is_object())
    return error_json("invalid_value", "inputs are not a JSON object " + err);
  SearchCtx ctx{every > 1 ? static_cast<long long>(every) : 1, 0};
  return napkin::search_run(napkin::registry(), in, with_progress ? &search_progress : nullptr,
                            &ctx)
      .dump();
}

// The problem bank: the same replies as `napkin problems | problem | check`.
std::string problems_json() {
  return napkin::problems_reply().json.dump();
}
std::string problem_json(std::string_view id, int seed) {
  return napkin::problem_reply(id, seed).json.dump();
}
std::string check_json(std::string_view id, int seed, std::string_view answer) {
  return napkin::check_reply(id, seed, answer).json.dump();
}

// The one result buffer: valid until the next call.
std::string out_buffer;

const char* out(std::string s) {
  out_buffer = std::move(s);
  return out_buffer.data();
}

std::string_view view(const char* p, std::size_t n) {
  return {p, n};
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE void* napkin_alloc(std::size_t n) {
  return std::malloc(n ? n : 1);
}
EMSCRIPTEN_KEEPALIVE void napkin_free(void* p) {
  std::free(p);
}
EMSCRIPTEN_KEEPALIVE std::size_t napkin_out_len() {
  return out_buffer.size();
}

EMSCRIPTEN_KEEPALIVE const char* napkin_list() {
  return out(list_json());
}
EMSCRIPTEN_KEEPALIVE const char* napkin_hardware() {
  return out(hardware_json());
}
EMSCRIPTEN_KEEPALIVE const char* napkin_models() {
  return out(models_json());
}
EMSCRIPTEN_KEEPALIVE const char* napkin_run(const char* id, std::size_t id_len, const char* in,
                                            std::size_t in_len) {
  return out(run_json(view(id, id_len), view(in, in_len)));
}
EMSCRIPTEN_KEEPALIVE const char* napkin_sweep(const char* id, std::size_t id_len, const char* in,
                                              std::size_t in_len, const char* param,
                                              std::size_t param_len, const double* values,
                                              std::size_t n) {
  return out(
      sweep_header(view(id, id_len), view(in, in_len), std::string(param, param_len), values, n));
}
// The last sweep's block [x…, column 1…, …]: its address; napkin_sweep_len() doubles long.
EMSCRIPTEN_KEEPALIVE const double* napkin_sweep_data() {
  return sweep_block.data();
}
EMSCRIPTEN_KEEPALIVE std::size_t napkin_sweep_len() {
  return sweep_block.size();
}
EMSCRIPTEN_KEEPALIVE const char* napkin_format(double v, const char* unit, std::size_t unit_len,
                                               int binary, int digits) {
  return out(
      napkin::format_value(v, std::string(unit, unit_len), {binary != 0, digits > 0 ? digits : 4}));
}
EMSCRIPTEN_KEEPALIVE const char* napkin_parse(const char* text, std::size_t text_len,
                                              const char* unit, std::size_t unit_len) {
  return out(parse_value(view(text, text_len), view(unit, unit_len)));
}
EMSCRIPTEN_KEEPALIVE const char* napkin_search(const char* in, std::size_t in_len, double every,
                                               int with_progress) {
  return out(search_text(view(in, in_len), every, with_progress != 0));
}
EMSCRIPTEN_KEEPALIVE const char* napkin_load_problems(const char* text, std::size_t len) {
  return out(napkin::load_reply(view(text, len)).json.dump());
}
EMSCRIPTEN_KEEPALIVE const char* napkin_problems() {
  return out(problems_json());
}
EMSCRIPTEN_KEEPALIVE const char* napkin_problem(const char* id, std::size_t id_len, int seed) {
  return out(problem_json(view(id, id_len), seed));
}
EMSCRIPTEN_KEEPALIVE const char* napkin_check(const char* id, std::size_t id_len, int seed,
                                              const char* answer, std::size_t answer_len) {
  return out(check_json(view(id, id_len), seed, view(answer, answer_len)));
}

}  // extern "C"
