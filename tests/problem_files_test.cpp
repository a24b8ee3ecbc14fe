// Problems as data (issue #28): the expression language, the file reader's errors, the built-in
// files, and `napkin lint`.
#include <string>
#include <vector>

#include "builtin_problems.hpp"
#include "helpers.hpp"
#include "practice/expr.hpp"
#include "practice/lint.hpp"
#include "practice/problem_data.hpp"
#include "practice/problems.hpp"

using namespace napkin;

namespace {

double value_of(const std::string& text, const Values& p = {}, const Values& out = {}) {
  Expr e;
  std::string error;
  REQUIRE_MESSAGE(Expr::parse(text, e, error), error);
  const ExprScope scope = catalog_scope(&p, &out);
  double x = 0;
  std::string why;
  REQUIRE_MESSAGE(e.eval(scope, x, &why), why);
  return x;
}

std::string parse_error(const std::string& text) {
  Expr e;
  std::string error;
  CHECK_FALSE(Expr::parse(text, e, error));
  return error;
}

// A minimal valid problem, with `extra` fields spliced in.
std::string file_with(const std::string& extra) {
  return R"json({"napkin_problems": 1, "problems": [{"id": "t.p", "area": "training",
    "title": "T", "statement": "{params} parameters on {tokens} tokens: compute?",
    "params": [{"name": "params", "fixed": 7e9, "choices": [1e9, 3e9, 7e9, 13e9, 34e9, 70e9]},
               {"name": "tokens", "fixed": 1e12, "choices": [1e12, 2e12, 3e12, 4e12]}],
    "estimator": "train.chinchilla", "output": "compute_flops", "hints": ["6·N·D."],
    "difficulty": 1, "tags": "FLOPs")json" +
         extra + "}]}";
}

}  // namespace

TEST_CASE("expressions: arithmetic, precedence, functions, conditions") {
  CHECK(value_of("1 + 2 * 3") == 7);
  CHECK(value_of("(1 + 2) * 3") == 9);
  CHECK(value_of("2 ^ 3 ^ 2") == 512);  // right-associative
  CHECK(value_of("-2 ^ 2") == -4);
  CHECK(value_of("7 / 2") == 3.5);  // never integer division
  CHECK(value_of("ceil(7 / 2) + floor(7 / 2) + round(2.5)") == 10);
  CHECK(value_of("min(3, 1, 2) + max(3, 1, 2)") == 4);
  CHECK(value_of("mod(7, 3)") == 1);
  CHECK(value_of("1 < 2 && 2 <= 2 && !(3 == 4) || 0") == 1);
  CHECK(value_of("0 ? 1 / 0 : 5") == 5);  // only the branch taken counts
  Values p;
  p.set("batch", 64);
  Values out;
  out.set("step_time", 0.5);
  CHECK(value_of("batch / out.step_time", p, out) == 128);
  CHECK(value_of("model(\"llama3-70b\").layers") == 80);  // Meta-Llama-3-70B config.json
  CHECK(value_of("gpu(\"h100\").hbm_bandwidth") == doctest::Approx(3.35e12));  // H100 SXM sheet
}

TEST_CASE("expressions: errors name the place and the reason") {
  CHECK(parse_error("2 +") == "the expression ends too early at character 4 of \"2 +\"");
  CHECK(parse_error("sqrt(1, 2)") ==
        "sqrt() takes 1 argument(s) at character 11 of \"sqrt(1, 2)\"");
  CHECK(parse_error("foo(1)").find("unknown function \"foo\"") == 0);
  CHECK(parse_error("(1 + 2").find("expected \")\"") == 0);
  Expr e;
  std::string error, why;
  REQUIRE(Expr::parse("batch * 2", e, error));
  Values none;
  ExprScope scope{&none, nullptr, nullptr, nullptr};
  double x = 0;
  CHECK_FALSE(e.eval(scope, x, &why));
  CHECK(why == "unknown parameter \"batch\" in \"batch * 2\"");
  REQUIRE(Expr::parse("1 / 0", e, error));
  CHECK_FALSE(e.eval(scope, x, &why));
  CHECK(why == "the value is not a finite number in \"1 / 0\"");
}

TEST_CASE("the built-in problem files load without an error, 160 problems or more") {
  // Issue #28, "Done when": the bank is data, at least 160 problems.
  for (const std::string& e : install_builtin_problems()) FAIL_CHECK(e);
  CHECK(problem_bank().problems().size() >= 160);
  CHECK(problem_bank().defects().empty());
}

TEST_CASE("a problem file's errors name the problem and the field") {
  ProblemBank bank;
  std::vector<std::string> errors;
  load_problems(file_with(R"(, "answer": "out.total_flops *")"), bank, errors);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0] ==
        "t.p, answer: the expression ends too early at character 18 of "
        "\"out.total_flops *\"");
  errors.clear();
  load_problems(file_with(R"(, "unit": "parsecs")"), bank, errors);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].rfind("t.p, unit: \"parsecs\" is not a named unit", 0) == 0);
  errors.clear();
  load_problems("{\"problems\": []}", bank, errors);
  CHECK(errors == std::vector<std::string>{
                      "a problem file is {\"napkin_problems\": 1, \"problems\": [...]}"});
  errors.clear();
  load_problems(file_with(""), bank, errors);
  CHECK(errors.empty());
  load_problems(file_with(""), bank, errors);  // the same id again
  REQUIRE(errors.size() == 1);
  CHECK(errors[0] == "t.p: duplicate id");
  // A hint's cost is a share of full marks below 1 (#28 item 5).
  ProblemBank costs;
  errors.clear();
  load_problems(file_with(R"(, "hint_cost": 1.5)"), costs, errors);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].rfind("t.p, hint_cost: a fraction of full marks", 0) == 0);
}

TEST_CASE("napkin lint: a clean file, and each finding on a file that has it") {
  Reply clean = lint_reply(file_with(""));
  CHECK(clean.ok);
  CHECK(clean.json.find("errors")->size() == 0);
  CHECK(clean.json.find("warnings")->size() == 0);

  // A {name} in the statement with no parameter of that name: lint names it once.
  std::string text = file_with("");
  text.replace(text.find("compute?"), 8, "compute at {mfu}?");
  Reply unfilled = lint_reply(text);
  REQUIRE_FALSE(unfilled.ok);
  REQUIRE(unfilled.json.find("errors")->size() == 1);  // once, not once per seed
  CHECK((*unfilled.json.find("errors"))[0].as_string() ==
        "t.p: the statement leaves \"{mfu}\" unfilled (no parameter of that name)");

  // A "mistake" that is the key itself teaches nothing.
  Reply same = lint_reply(file_with(
      R"(, "mistakes": [{"id": "six_nd", "feedback": "f", "value": "out.compute_flops * 1"}])"));
  REQUIRE_FALSE(same.ok);
  CHECK((*same.json.find("errors"))[0].as_string().find("the mistake six_nd gives the key") !=
        std::string::npos);

  // The answer printed in the statement.
  Reply given = lint_reply(file_with(R"(, "answer": "params", "unit": "billion parameters")"));
  REQUIRE(given.json.find("warnings")->size() >= 1);
  CHECK((*given.json.find("warnings"))[0].as_string().find("is one of the numbers the statement "
                                                           "gives") != std::string::npos);
}

// What a new author's mistakes looked like before lint named them (each file silently loaded
// and showed wrong numbers or the worked example at every seed).
TEST_CASE(
    "napkin lint names a derive that cannot be computed, a valid that never holds, and more") {
  auto first_error = [](const std::string& text) {
    Reply r = lint_reply(text);
    const Json& errors = *r.json.find("errors");
    return errors.size() ? errors[0].as_string() : std::string("(none)");
  };
  // A field name with a typo (gpu.peak_bf61) kept the fixed number at every seed.
  std::string typo = file_with(R"(, "derive": {"tokens": "params * typo"})");
  CHECK(first_error(typo) == "t.p: derive.tokens: unknown parameter \"typo\" in \"params * typo\"");
  std::string field = file_with(R"(, "derive": {"tokens": "model(\"llama3-8b\").layerz"})");
  CHECK(first_error(field).find("no model field \"layerz\"; fields: layers, d_model") !=
        std::string::npos);
  // A valid that never holds: no variant, every seed the worked example.
  CHECK(first_error(file_with(R"(, "valid": "params < 0")")) ==
        "t.p: no random draw is kept: every one fails `valid` or repeats seed 0's numbers, so "
        "every seed shows the worked example");
  // Options with no kind were ignored.
  CHECK(first_error(file_with(R"(, "options": [{"label": "a", "why": "b", "set": "params=1"}])")) ==
        "t.p, options: options need \"kind\": \"choice\" or \"order\"");
  // An id the built-in bank has: refused by --file, so lint says so first.
  std::string clash = file_with("");
  clash.replace(clash.find("\"t.p\""), 5, "\"train.chinchilla.tokens\"");
  CHECK(first_error(clash).find("a built-in problem has this id") != std::string::npos);
}

TEST_CASE("hints, feedback and explanations are filled with the variant's numbers") {
  ProblemBank bank;
  std::vector<std::string> errors;
  load_problems(file_with(R"(, "mistakes": [{"id": "half", "feedback": "Half of {params}.",
      "times": 0.5}], "explain": "With {tokens} tokens.")"),
                bank, errors);
  REQUIRE(errors.empty());
  Result<Variant> v = make_variant(bank.problems()[0], 0, &bank);
  REQUIRE(v.ok());
  CHECK(v.value().mistakes[0].feedback == "Half of 7B.");
  const Json steps = solution_steps(v.value());
  CHECK(steps[steps.size() - 1].find("note")->as_string() == "With 1T tokens.");
}
