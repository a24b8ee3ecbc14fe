#include "practice/lint.hpp"

#include <set>
#include <string>
#include <vector>

#include "practice/problem_data.hpp"

namespace napkin {

namespace {

constexpr std::int64_t kLintSeeds = 50;

struct Findings {
  std::vector<std::string> errors, warnings;
  void error(const Problem& p, const std::string& what) { errors.push_back(p.id + ": " + what); }
  void warn(const Problem& p, const std::string& what) { warnings.push_back(p.id + ": " + what); }
};

// An answer equal to a parameter the statement shows ({name}) is read off it, not computed.
void lint_problem(const Problem& p, const ProblemBank& bank, Findings& f) {
  std::set<std::string> keys, answers, reported;
  bool given_reported = false;
  if (problem_bank().find(p.id))
    f.error(p, "a built-in problem has this id; choose another (a course's ids: \"week3.…\")");
  auto once = [&](const std::string& what, bool error) {
    if (!reported.insert(what).second) return;
    error ? f.error(p, what) : f.warn(p, what);
  };
  for (std::int64_t seed = 0; seed <= kLintSeeds; ++seed) {
    Result<Variant> r = make_variant(p, seed, &bank);
    if (!r.ok()) {
      f.error(p, "seed " + std::to_string(seed) + " does not build: " + r.error().message);
      return;
    }
    const Variant& v = r.value();
    if (const std::size_t open = v.statement.find('{'); open != std::string::npos)
      once("the statement leaves \"" +
               v.statement.substr(open, v.statement.find('}', open) - open + 1) +
               "\" unfilled (no parameter of that name)",
           true);
    for (const std::string& e : expression_errors(p, v.params, v.outputs)) once(e, true);
    if (!given_reported && answer_is_a_given(v)) {
      f.warn(p, "seed " + std::to_string(seed) + ": the answer, " + answer_text(v.answer, p.unit) +
                    ", is one of the numbers the statement gives");
      given_reported = true;
    }
    if (seed == 0)
      for (const Alternative& m : v.mistakes)
        if (mistake_matches(v.answer, m.value, v.expected()))
          f.error(p, "at seed 0 the mistake " + m.id + " gives the key itself (" +
                         answer_text(m.value, p.unit) + "): it cannot be told apart");
    if (p.kind != Kind::number) {
      std::string k;
      // The key as the student sees it: the shown positions.
      for (std::size_t i : v.key)
        for (std::size_t at = 0; at < v.shown.size(); ++at)
          if (v.shown[at] == i) k += std::to_string(at) + ",";
      keys.insert(k);
    }
    if (seed >= 1 && seed <= 20) answers.insert(answer_text(v.answer, p.unit) + v.statement);
  }
  bool drawn = false;
  for (const Param& q : p.params) drawn = drawn || !q.choices.empty();
  if (drawn && variant_count(p, &bank) == 0)
    f.error(p,
            "no random draw is kept: every one fails `valid` or repeats seed 0's numbers, so "
            "every seed shows the worked example");
  if (p.kind != Kind::number && keys.size() < 2)
    f.warn(p, std::string("the ") + (p.kind == Kind::choice ? "choice" : "order") +
                  " has the same key in all " + std::to_string(kLintSeeds + 1) +
                  " seeds: a student can learn the letter, not the reason");
  const std::size_t want = static_cast<std::size_t>(std::min(p.variety, 15));
  if (variant_count(p, &bank) > 1 &&
      answers.size() < std::min<std::size_t>(want, variant_count(p, &bank)))
    f.warn(p, "seeds 1-20 give " + std::to_string(answers.size()) + " different variants; " +
                  std::to_string(want) + " expected (declare \"variety\" if the space is smaller)");
}

}  // namespace

Reply lint_reply(std::string_view json_text) {
  ProblemBank bank;
  Findings f;
  load_problems(json_text, bank, f.errors);
  for (const Problem& p : bank.problems()) lint_problem(p, bank, f);
  Json errors = Json::array(), warnings = Json::array();
  for (const auto& e : f.errors) errors.push(e);
  for (const auto& w : f.warnings) warnings.push(w);
  Json j = Json::object();
  j.set("problems", static_cast<double>(bank.problems().size()));
  j.set("errors", std::move(errors));
  j.set("warnings", std::move(warnings));
  return {f.errors.empty(), std::move(j), f.errors.empty() ? "" : f.errors.front()};
}

}  // namespace napkin
