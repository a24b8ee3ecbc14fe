#include "base/units.hpp"

#include <doctest/doctest.h>

#include "base/json.hpp"

using namespace napkin;

namespace {
double parsed(const char* text, const char* unit) {
  ParsedNumber p = parse_value(text, unit);
  CAPTURE(text);
  CAPTURE(p.error);
  REQUIRE(p.ok);
  return p.value;
}
bool rejects(const char* text, const char* unit) {
  return !parse_value(text, unit).ok;
}
}  // namespace

TEST_CASE("input text is read with the input's unit") {
  // Exact decimal scalings: a relative epsilon of 1e-12 only absorbs the last-bit rounding.
  CHECK(parsed("70B", unit::params) == doctest::Approx(70e9).epsilon(1e-12));
  CHECK(parsed("175 billion", unit::params) == doctest::Approx(175e9).epsilon(1e-12));
  CHECK(parsed("2T", unit::tokens) == doctest::Approx(2e12).epsilon(1e-12));
  CHECK(parsed("3.35 TB/s", unit::bytes_per_s) == doctest::Approx(3.35e12).epsilon(1e-12));
  CHECK(parsed("80 GB", unit::bytes) == doctest::Approx(80e9).epsilon(1e-12));
  CHECK(parsed("80GiB", unit::bytes) == doctest::Approx(80.0 * 1073741824.0).epsilon(1e-12));
  CHECK(parsed("50 µs", unit::seconds) == doctest::Approx(50e-6).epsilon(1e-12));
  CHECK(parsed("50us", unit::seconds) == doctest::Approx(50e-6).epsilon(1e-12));
  CHECK(parsed("3 days", unit::seconds) == doctest::Approx(259200).epsilon(1e-12));
  CHECK(parsed("2e12", unit::flops) == doctest::Approx(2e12).epsilon(1e-12));
  CHECK(parsed("990 TFLOPS", unit::flops) == doctest::Approx(990e12).epsilon(1e-12));
  CHECK(parsed("50%", unit::fraction) == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(parsed("1,024", unit::none) == doctest::Approx(1024).epsilon(1e-12));
  CHECK(parsed("10 Gb/s", unit::bytes_per_s) == doctest::Approx(1.25e9).epsilon(1e-12));
  CHECK(parsed("  512 ", unit::gpus) == 512);
  CHECK(parsed("-3", unit::none) == -3);
}

// Issue #14.9: words and nouns a person writes are read where every unit is read (here), so
// the calculator's inputs and the practice answers accept the same text.
TEST_CASE("unit words, zetta prefixes and accelerator names are read (#14.9)") {
  CHECK(parsed("120 milliseconds", unit::seconds) == doctest::Approx(0.12).epsilon(1e-12));
  CHECK(parsed("3 gigabytes", unit::bytes) == doctest::Approx(3e9).epsilon(1e-12));
  CHECK(parsed("3.7 zettaFLOPs", unit::flop) == doctest::Approx(3.7e21).epsilon(1e-12));
  CHECK(parsed("3675 ZFLOP", unit::flop) == doctest::Approx(3.675e24).epsilon(1e-12));
  CHECK(parsed("15 percent", unit::fraction) == doctest::Approx(0.15).epsilon(1e-12));
  CHECK(parsed("44 H100s", unit::gpus) == 44);
  CHECK(parsed("44 devices", unit::gpus) == 44);
  CHECK(parsed("8 MI300X", unit::gpus) == 8);
  CHECK(parsed("0.33 years", unit::seconds) == doctest::Approx(0.33 * 365.25 * 86400));
  CHECK(parsed("3.6 billion", unit::params) == doctest::Approx(3.6e9).epsilon(1e-12));
  CHECK(parsed("295.5 FLOPs/byte", unit::flop_per_byte) == doctest::Approx(295.5));
  CHECK(rejects("44 H100s", unit::seconds));
  CHECK(rejects("44 GB", unit::gpus));
  CHECK(rejects("44 GPU-hours", unit::gpus));
  CHECK(is_accelerator_noun("TPUv5p"));
  CHECK(is_accelerator_noun("chips"));
  CHECK_FALSE(is_accelerator_noun("GB"));
  CHECK_FALSE(is_accelerator_noun("sequences"));
}

TEST_CASE("unreadable or unrepresentable text is refused with an example") {
  CHECK(rejects("", unit::params));
  CHECK(rejects("abc", unit::params));
  CHECK(rejects("nan", unit::none));
  CHECK(rejects("inf", unit::none));
  CHECK(rejects("0x10", unit::none));
  CHECK(rejects("1e400", unit::none));
  CHECK(rejects("80 GB", unit::seconds));  // bytes where a time is expected
  CHECK(rejects("5e", unit::none));
  ParsedNumber p = parse_value("fast", unit::seconds);
  CHECK(p.error.find("50 µs") != std::string::npos);
}

TEST_CASE("values are shown with SI prefixes, GiB on request, and never as nan") {
  CHECK(format_value(80e9, unit::bytes) == "80 GB");
  CHECK(format_value(80.0 * 1073741824.0, unit::bytes, {true, 4}) == "80 GiB");
  CHECK(format_value(34.36e9, unit::bytes) == "34.36 GB");
  CHECK(format_value(990e12, unit::flops) == "990 TFLOP/s");
  CHECK(format_value(3.675e24, unit::flop) == "3.675e24 FLOP");
  CHECK(format_value(0.0141, unit::seconds) == "14.1 ms");
  CHECK(format_value(50e-6, unit::seconds) == "50 µs");
  CHECK(format_value(121.7 * 86400, unit::seconds) == "121.7 days");
  CHECK(format_value(0.5, unit::fraction) == "50 %");
  CHECK(format_value(1495726, unit::gpu_hours) == "1,495,726 GPU·h");
  CHECK(format_value(70e9, unit::params) == "70B param");
  CHECK(format_value(1.1, unit::times) == "1.1×");
  CHECK(format_value(0.0 / 0.0, unit::bytes) == "—");
  CHECK(tex_number(7e10) == "7\\times10^{10}");
  CHECK(tex_number(2048) == "2048");
}

TEST_CASE("JSON round-trips numbers exactly and rejects malformed text") {
  Json j;
  std::string err;
  REQUIRE(Json::parse(R"({"a":[1,2.5,-3e-7],"b":"x\"y","c":true,"d":null})", j, err));
  CHECK(j.find("a")->items()[2].as_number() == -3e-7);
  CHECK(j.dump() == R"({"a":[1,2.5,-3e-07],"b":"x\"y","c":true,"d":null})");
  CHECK(Json(0.1 + 0.2).dump() == "0.30000000000000004");
  CHECK_FALSE(Json::parse("{\"a\":}", j, err));
  CHECK(err.find("character") != std::string::npos);
  CHECK_FALSE(Json::parse("[1,2", j, err));
  CHECK_FALSE(Json::parse(std::string(200, '['), j, err));
}

// Issue #30 item 15: a number longer than the decimal reader takes was read as 0 with ok.
TEST_CASE("a number too long to read is refused, never read as 0 (#30.15)") {
  const std::string ones(500, '1');
  ParsedNumber p = parse_value(ones, unit::bytes);
  CHECK_FALSE(p.ok);
  CHECK(p.error.find("digits") != std::string::npos);
  const std::string nines(450, '9');
  CHECK_FALSE(parse_value(nines + " ms", unit::seconds).ok);
  // 400 characters still read (the reader's limit), and 300 digits is 1.1…e299.
  CHECK(parse_value(std::string(300, '1'), unit::none).value > 1e299);
}

// Issue #30 item 21: "8x10" is not 8 GPUs with an accelerator named "x10".
TEST_CASE("a count followed by a non-accelerator word is refused (#30.21)") {
  CHECK(rejects("8x10", unit::gpus));
  CHECK(rejects("8 x10", unit::gpus));
  CHECK(parsed("8 H100s", unit::gpus) == 8);
  CHECK(parsed("44 MI300X", unit::gpus) == 44);
}

// Issue #30 item 20: huge values print in scientific notation, never as 30 digits.
TEST_CASE("huge values are shown in scientific notation (#30.20)") {
  CHECK(format_value(6e36, unit::seconds) == "1.901e29 years");
  CHECK(format_value(1e308, unit::fraction).find("—") == std::string::npos);
  CHECK(format_value(1e308, unit::fraction) == "1e310 %");
  CHECK(format_value(3e20, unit::none) == "3e20");
  CHECK(format_value(2e16, unit::fraction) == "2e18 %");
  CHECK(format_value(0.5, unit::fraction) == "50 %");
}

TEST_CASE("power in watts and energy in joules, shown and read in watt-hours") {
  CHECK(format_value(700, unit::watts) == "700 W");
  CHECK(format_value(1000, unit::watts) == "1 kW");
  // Llama 2 70B: 1,720,320 GPU-hours × 400 W = 688.1 MWh (Touvron et al. 2023, Table 2).
  CHECK(format_value(1720320.0 * 3600 * 400, unit::joules) == "688.1 MWh");
  CHECK(format_value(3.6e6, unit::joules) == "1 kWh");
  CHECK(parsed("433 MWh", unit::joules) == doctest::Approx(433e6 * 3600).epsilon(1e-12));
  CHECK(parsed("1.2 GWh", unit::joules) == doctest::Approx(1.2e9 * 3600).epsilon(1e-12));
  CHECK(parsed("5 kwh", unit::joules) == doctest::Approx(5e3 * 3600).epsilon(1e-12));
  CHECK(parsed("3.6e12 J", unit::joules) == doctest::Approx(3.6e12).epsilon(1e-12));
  CHECK(parsed("0.7 kW", unit::watts) == doctest::Approx(700).epsilon(1e-12));
  CHECK(parsed("700W", unit::watts) == 700);
  CHECK(rejects("433 MB", unit::joules));
  CHECK(rejects("7 GB", unit::watts));
  CHECK(format_tex(3.6e9, unit::joules) == "1\\,\\text{MWh}");
}
