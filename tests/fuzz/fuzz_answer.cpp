// libFuzzer: a student's answer (core/answer.cpp), read in every way a problem asks, and
// checked against a few problems end to end.
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "builtin_problems.hpp"
#include "practice/answer.hpp"
#include "practice/problems.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace napkin;
  install_builtin_problems();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const AnswerUnit kUnits[] = {answer_in::days(),      answer_in::ms(),
                                      answer_in::gb(),        answer_in::percent(),
                                      answer_in::gpus(),      answer_in::billion_params(),
                                      answer_in::zettaflop(), answer_in::yes_no(),
                                      answer_in::gb_per_s(),  answer_in::billion_tokens()};
  for (const AnswerUnit& u : kUnits) {
    ParsedAnswer a = parse_answer(text, u);
    for (double v : a.readings)
      if (!std::isfinite(v)) __builtin_trap();
  }
  static const char* kProblems[] = {"serve.batching.gpus", "train.chinchilla.compute",
                                    "serve.batching.latency"};
  (void)check_reply(kProblems[size % 3], static_cast<std::int64_t>(size % 7), text);
  return 0;
}
