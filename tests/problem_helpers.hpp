// Shared helpers for the per-area problem tests: a problem's seed-0 variant (the seed's own
// numbers) and the checker's judgement of an answer to it.
#pragma once

#include "helpers.hpp"
#include "practice/problems.hpp"

namespace napkin::test {

inline Variant seed0(const char* id) {
  const Problem* p = problem_bank().find(id);
  REQUIRE_MESSAGE(p != nullptr, id);
  Result<Variant> r = make_variant(*p, 0);
  REQUIRE(r.ok());
  return r.value();
}

inline Judgement check_seed0(const char* id, const char* text) {
  Variant v = seed0(id);
  ParsedAnswer a = parse_answer(text, v.problem->unit);
  CAPTURE(text);
  CAPTURE(a.error);
  REQUIRE(a.ok);
  return judge(a.readings, v.expected(), v.mistakes);
}

}  // namespace napkin::test
