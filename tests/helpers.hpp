// Shared helpers for the doctest suites: run an estimator through the registry (the same
// path the CLI and wasm take) and read its numbers.
#pragma once

#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <utility>

#include "registry/registry.hpp"

namespace napkin::test {

using Inputs = std::initializer_list<std::pair<const char*, Json>>;

// Inputs as a JSON object, for a test that varies one of them between runs.
inline Json inputs(Inputs in) {
  Json j = Json::object();
  for (const auto& [k, v] : in) j.set(k, v);
  return j;
}

inline RunResult run_json(const char* id, const Json& j) {
  RunResult r = registry().run(id, j);
  if (!r.ok) MESSAGE(id << ": " << r.error.message);
  return r;
}

inline RunResult run(const char* id, Inputs in) {
  return run_json(id, inputs(in));
}

inline double out(const RunResult& r, const char* name) {
  const Json* v = r.outputs.find(name);
  REQUIRE_MESSAGE(v != nullptr, "missing output " << name);
  return v->is_bool() ? (v->as_bool() ? 1.0 : 0.0) : v->as_number();
}

inline Error error_of(const char* id, Inputs in) {
  Json j = Json::object();
  for (const auto& [k, v] : in) j.set(k, v);
  RunResult r = registry().run(id, j);
  CHECK_FALSE(r.ok);
  return r.error;
}

}  // namespace napkin::test
