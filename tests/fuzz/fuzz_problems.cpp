// libFuzzer: a problem file (docs/authoring.md) as a course page could pass to loadProblems or
// `napkin --file`: the reader, the expressions, and a variant of each problem that loads. Any
// text must give errors as values, never a crash, a hang or a non-finite answer.
#include <cmath>
#include <cstdint>
#include <string_view>

#include "practice/problems.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace napkin;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ProblemBank bank;
  std::vector<std::string> errors;
  load_problems(text, bank, errors);
  for (const Problem& p : bank.problems())
    for (std::int64_t seed : {0, 1, 2}) {
      Result<Variant> v = make_variant(p, seed, &bank);
      if (v.ok() && !std::isfinite(v.value().answer)) __builtin_trap();
    }
  return 0;
}
