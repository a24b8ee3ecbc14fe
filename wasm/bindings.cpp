// Embind bindings only: each function forwards to the registry and returns JSON text,
// which api.js turns into plain JS objects (no handles for callers to delete).
#include <emscripten/bind.h>

#include <string>
#include <vector>

#include "problems.hpp"
#include "registry.hpp"
#include "units.hpp"

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
  return napkin::registry().list_json().dump();
}
std::string hardware_json() {
  return napkin::registry().hardware_json().dump();
}

std::string run_json(const std::string& id, const std::string& inputs) {
  std::string err;
  Json in = parse_or_error(inputs, err);
  if (!err.empty()) return error_json("invalid_value", "inputs are not valid JSON: " + err);
  return napkin::registry().run(id, in).to_json(id).dump();
}

std::string sweep_json(const std::string& id, const std::string& inputs, const std::string& param,
                       const std::string& values) {
  std::string err;
  Json in = parse_or_error(inputs, err);
  if (!err.empty()) return error_json("invalid_value", "inputs are not valid JSON: " + err);
  Json vals = parse_or_error(values, err);
  if (!err.empty() || !vals.is_array())
    return error_json("invalid_value", "sweep values must be an array of numbers");
  std::vector<double> xs;
  xs.reserve(vals.size());
  for (const auto& v : vals.items()) {
    if (!v.is_number()) return error_json("invalid_value", "sweep values must all be numbers");
    xs.push_back(v.as_number());
  }
  return napkin::registry().sweep(id, in, param, xs).to_json().dump();
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

}  // namespace

EMSCRIPTEN_BINDINGS(napkin) {
  emscripten::function("_list", &list_json);
  emscripten::function("_hardware", &hardware_json);
  emscripten::function("_run", &run_json);
  emscripten::function("_sweep", &sweep_json);
  emscripten::function("_format", &format_value);
  emscripten::function("_parse", &parse_value);
  emscripten::function("_problems", &problems_json);
  emscripten::function("_problem", &problem_json);
  emscripten::function("_check", &check_json);
}
