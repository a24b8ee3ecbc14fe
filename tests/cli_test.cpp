// The CLI's commands in-process (main() only prints what run_cli returns).
#include <algorithm>

#include "cli_commands.hpp"
#include "helpers.hpp"

using namespace napkin;

namespace {
Json parse(const std::string& s) {
  Json j;
  std::string err;
  REQUIRE_MESSAGE(Json::parse(s, j, err), err);
  return j;
}
}  // namespace

TEST_CASE("napkin run prints the run as JSON, with defaults filled and units parsed") {
  CliOutput o = run_cli(
      {"run", "train.time", "params=70B", "tokens=2T", "gpus=512", "peak_flops=312 TFLOP/s"});
  CHECK(o.exit_code == 0);
  Json j = parse(o.stdout_text);
  CHECK(j.find("id")->as_string() == "train.time");
  CHECK(j.find("inputs")->find("mfu")->as_number() == 0.5);
  CHECK(j.find("outputs")->find("days")->as_number() == doctest::Approx(121.7).epsilon(1e-3));
  CHECK(j.find("steps")->size() > 0);
}

TEST_CASE("napkin run exits 2 with a message naming the input") {
  CliOutput o = run_cli({"run", "train.time", "params=-5", "tokens=2T", "gpus=512"});
  CHECK(o.exit_code == 2);
  CHECK(o.stderr_text.find("params") != std::string::npos);
  Json j = parse(o.stdout_text);
  CHECK(j.find("error")->find("input")->as_string() == "params");
  CHECK(run_cli({"run", "train.time", "tokens=2T", "gpus=512"})
            .stderr_text.find("missing required input Parameters (params)") != std::string::npos);
  CHECK(run_cli({"run", "nope"}).exit_code == 2);
  CHECK(run_cli({"run", "train.time", "oops"}).exit_code == 2);
  CHECK(run_cli({"frobnicate"}).exit_code == 2);
}

TEST_CASE("napkin list and hardware describe the registry") {
  Json l = parse(run_cli({"list"}).stdout_text);
  CHECK(l.find("estimators")->size() == registry().estimators().size());
  Json h = parse(run_cli({"hardware"}).stdout_text);
  CHECK(h.find("accelerators")->size() >= 4);
}

TEST_CASE(
    "napkin: a duplicated input is an error; no arguments is usage on stderr, one line per error") {
  CliOutput dup = run_cli({"run", "train.time", "params=70B", "params=7B", "tokens=2T", "gpus=8"});
  CHECK(dup.exit_code == 2);
  CHECK(dup.stderr_text.find("params is given twice") != std::string::npos);
  CliOutput none = run_cli({});
  CHECK(none.exit_code == 2);
  CHECK(none.stdout_text.empty());
  CHECK(none.stderr_text.find("usage:") != std::string::npos);
  CliOutput bad = run_cli({"frobnicate"});
  CHECK(std::count(bad.stderr_text.begin(), bad.stderr_text.end(), '\n') == 1);
  CHECK(run_cli({"help"}).exit_code == 0);
}

// Issue #30 items 18 and 19: reading many inputs is not quadratic, and what an error echoes is
// one bounded line.
TEST_CASE("many inputs are refused or read in n log n; errors echo one bounded line (#30.18-19)") {
  std::vector<std::string> args = {"run", "train.time"};
  for (int i = 0; i < 20000; ++i) args.push_back("x" + std::to_string(i) + "=1");
  CliOutput many = run_cli(args);
  CHECK(many.exit_code == 2);
  CHECK(many.stderr_text.find("at most 200") != std::string::npos);

  // A JSON object of 50,000 distinct keys parses in well under a second (it took 19 s), and a
  // duplicate among them is still found.
  std::string obj = "{";
  for (int i = 0; i < 50000; ++i) obj += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":1";
  Json parsed;
  std::string why;
  CHECK(Json::parse(obj + "}", parsed, why));
  CHECK_FALSE(Json::parse(obj + ",\"k7\":2}", parsed, why));
  CHECK(why.find("duplicate") != std::string::npos);

  // A 1 MB input name is echoed as its first 64 bytes.
  CliOutput huge = run_cli({"run", "train.time", std::string(1000000, 'n') + "=1"});
  CHECK(huge.exit_code == 2);
  CHECK(huge.stderr_text.size() < 2000);
  CHECK(huge.stdout_text.size() < 4000);

  // A value with a newline in it: one line on stderr.
  CliOutput nl = run_cli({"run", "train.time", "params=70B", "tokens=2T", "gpus=5\n6"});
  CHECK(nl.exit_code == 2);
  CHECK(std::count(nl.stderr_text.begin(), nl.stderr_text.end(), '\n') == 1);
  CHECK(nl.stderr_text.find("5\\n6") != std::string::npos);
}
