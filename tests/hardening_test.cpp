// Hostile and corner inputs found by fuzzing and sanitizer runs (issue: hardening). Each case
// failed before its fix.
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include "base/units.hpp"
#include "helpers.hpp"
#include "practice/answer.hpp"
#include "practice/problems.hpp"

using namespace napkin;

TEST_CASE("answer parsing is linear: 50,000 approximation marks are refused at once") {
  const std::string marks(50000, '~');
  const auto t0 = std::chrono::steady_clock::now();
  ParsedAnswer a = parse_answer(marks + "120 ms", answer_in::ms());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK_FALSE(a.ok);
  CHECK(a.error.find("characters long") != std::string::npos);
  CHECK(s < 0.5);  // was 19 s in the CLI
  // Within the limit, many marks still cost one pass.
  ParsedAnswer b = parse_answer(std::string(150, '~') + "≈ about 120 ms", answer_in::ms());
  REQUIRE(b.ok);
  CHECK(b.readings[0] == doctest::Approx(0.12));
}

TEST_CASE("check refuses answers that are not finite numbers") {
  for (const char* bad : {"1e300 YFLOP", "1e308/1e-308", "1e999", "-1e300 YFLOP"}) {
    CAPTURE(bad);
    Reply r = check_reply("train.chinchilla.compute", 0, bad);
    CHECK_FALSE(r.ok);
    const bool said = r.message.find("finite") != std::string::npos ||
                      r.message.find("too large") != std::string::npos;
    CHECK_MESSAGE(said, r.message);
  }
}

namespace {
Error error_for(const char* id, std::initializer_list<std::pair<const char*, const char*>> in) {
  Json j = Json::object();
  for (const auto& [k, v] : in) j.set(k, v);
  RunResult r = registry().run(id, j);
  CHECK_FALSE(r.ok);
  return r.error;
}
double input_for(const char* id, const char* name, const char* text) {
  Json j = Json::object();
  j.set("params", "70B");
  j.set("tokens", "2T");
  j.set("gpus", "512");
  j.set(name, text);
  RunResult r = registry().run(id, j);
  REQUIRE_MESSAGE(r.ok, r.error.message);
  return r.inputs.find(name)->as_number();
}
}  // namespace

TEST_CASE("malformed numbers are refused, not half-read") {
  for (const char* bad : {"1.2.3", "7..0B", "2,5", "1,02", "--3", "."}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_value(bad, "param").ok);
  }
  CHECK(parse_value("1,024", "").value == 1024);  // digit groups still read
  CHECK(parse_value("1,000,000", "").value == 1e6);
  CHECK(error_for("train.time", {{"params", "70B"}, {"tokens", "2T"}, {"gpus", "2,5"}}).input ==
        "gpus");
}

TEST_CASE("prefixes in any case where that is unambiguous; bits and bytes asked about") {
  CHECK(parse_value("70b", "param").value == 70e9);
  CHECK(parse_value("80 gb", "B").value == 80e9);
  CHECK(parse_value("80G", "B").value == 80e9);
  CHECK(parse_value("80 Gb", "B").value == 10e9);  // gigabits, as networks write them
  CHECK(parse_value("3.35T", "B/s").value == 3.35e12);
  CHECK(parse_value("990 tflop/s", "FLOP/s").value == 990e12);
  CHECK(parse_value("$2", "$").value == 2);
  ParsedNumber q = parse_value("10 gb/s", "B/s");
  CHECK_FALSE(q.ok);
  CHECK(q.error.find("10 GB/s (bytes) or 10 Gb/s (bits)") != std::string::npos);
}

TEST_CASE("a missing prefix is a question, not a silent absurdity") {
  Error e = error_for("hw.roofline", {{"mem_bandwidth", "3.35"}});
  CHECK(e.code == "ambiguous");
  CHECK(e.input == "mem_bandwidth");
  CHECK(e.message.find("did you mean 3.35 TB/s?") != std::string::npos);
  Error g = error_for("mem.training", {{"params", "70B"}, {"gpu_memory", "80B"}});
  CHECK(g.message.find("did you mean 80 GB?") != std::string::npos);
  // Given in base units as a number (the API's contract), the value is taken as it is.
  Json j = Json::object();
  j.set("mem_bandwidth", 3.35e12);
  CHECK(registry().run("hw.roofline", j).ok);
}

TEST_CASE("a fraction typed as a whole percentage is read as percent") {
  CHECK(input_for("train.time", "mfu", "40") == doctest::Approx(0.40));
  CHECK(input_for("train.time", "mfu", "40%") == doctest::Approx(0.40));
  CHECK(input_for("train.time", "mfu", "0.4") == doctest::Approx(0.40));
}

TEST_CASE("magnitudes the arithmetic cannot carry are refused by the range") {
  Error e = error_for("train.time", {{"params", "5e-324"}, {"tokens", "2T"}, {"gpus", "512"}});
  CHECK(e.code == "out_of_range");
  CHECK(e.input == "params");
  // The formatter never prints a non-finite or subnormal value as a number.
  CHECK(format_value(std::numeric_limits<double>::infinity(), "") == "—");
  CHECK(format_value(5e-324, "").find("inf") == std::string::npos);
}

TEST_CASE("a 100 KB value is refused without being echoed back") {
  const std::string huge(100000, '7');
  Json j = Json::object();
  j.set("params", huge);
  RunResult r = registry().run("train.time", j);
  REQUIRE_FALSE(r.ok);
  CHECK(r.error.message.size() < 200);
  CHECK(r.error.value.as_string().size() < 64);
}

TEST_CASE("errors name the inputs involved; no negative savings") {
  // A zero where a positive value is needed is named (it used to be `input: null`).
  Error kv = error_for("infer.kv", {{"n_layers", "32"}, {"n_kv_heads", "0"}, {"n_heads", "32"}});
  CHECK(kv.input == "n_kv_heads");
  // Korthikanti's 2sbh for full recomputation exceeds the sharded activations at extreme TP
  // with sequence parallelism (it reported −579,610 % saved): nothing is saved, never less.
  auto r = test::run("mem.activations", {{"seq_len", 2048},
                                         {"micro_batch", 1},
                                         {"d_model", 16384},
                                         {"n_heads", 1024},
                                         {"n_layers", 96},
                                         {"tp", 1024},
                                         {"sequence_parallel", true},
                                         {"recompute", "full"}});
  REQUIRE(r.ok);
  CHECK(test::out(r, "saved_fraction") >= 0);
}

TEST_CASE("JSON is read strictly (RFC 8259) and written as valid UTF-8") {
  Json j;
  std::string err;
  for (const char* bad : {"01", "1.", "-.5", "+1", ".5", "1e", "{\"a\":1,\"a\":2}", "\"\\ud800\"",
                          "\"\\udc00\"", "\"\\ud800\\u0041\""}) {
    CAPTURE(bad);
    CHECK_FALSE(Json::parse(bad, j, err));
  }
  for (const char* good : {"0", "-0", "1.5", "-1.5e-3", "2E+10", "\"\\ud83d\\ude00\""}) {
    CAPTURE(good);
    CHECK(Json::parse(good, j, err));
  }
}
