// core/base/number_text: the fast readers and printers must agree exactly with the C library's
// (strtod and printf are exact in glibc and in musl, only slow), natively and in wasm.
#include "base/number_text.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "base/json.hpp"

using namespace napkin;

namespace {
// Doubles from every binade, both signs, plus values that are round in decimal.
double random_double(std::mt19937_64& rng) {
  switch (rng() % 3) {
    case 0: {
      std::uint64_t bits = rng();
      double v;
      std::memcpy(&v, &bits, sizeof v);
      return std::isfinite(v) ? v : 1.0;
    }
    case 1: return std::ldexp(static_cast<double>(rng() % 1000000) / 997.0, int(rng() % 120) - 60);
    default: return static_cast<double>(rng() % 100000) * std::pow(10.0, int(rng() % 30) - 15);
  }
}
}  // namespace

TEST_CASE("shortest text reads back as the same double, in %.17g's layout") {
  std::mt19937_64 rng(20261125);
  for (int i = 0; i < 20000; ++i) {
    const double v = random_double(rng);
    std::string text;
    append_shortest(text, v);
    double back = 0;
    CAPTURE(text);
    REQUIRE(read_decimal(text, back));
    CHECK(back == v);
    // Never longer than printf's 17 significant digits.
    CHECK(shortest_digits(v).count <= 17);
  }
  auto text = [](double v) {
    std::string s;
    append_shortest(s, v);
    return s;
  };
  CHECK(text(0.1) == "0.1");  // %.17g would print 0.10000000000000001
  CHECK(text(0.3) == "0.3");
  CHECK(text(-2.5) == "-2.5");
  CHECK(text(1.5e20) == "1.5e+20");
  CHECK(text(1e22) == "1e+22");
  CHECK(text(3.35e12) == "3350000000000");
  CHECK(text(1e-5) == "1e-05");  // %.17g: 1.0000000000000001e-05
  CHECK(text(2.5e-7) == "2.5e-07");
  CHECK(text(0.000123) == "0.000123");
  CHECK(text(5e-324) == "5e-324");  // the smallest subnormal
}

TEST_CASE("rounding to n significant digits matches printf's %e exactly, ties included") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const double v = random_double(rng);
    if (v == 0) continue;
    const int n = 1 + static_cast<int>(rng() % 17);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*e", n - 1, v);
    double m = 0;
    int e = 0;
    round_to_digits(v, n, m, e);
    CAPTURE(buf);
    CAPTURE(n);
    char* mark = std::strchr(buf, 'e');
    REQUIRE(mark != nullptr);
    CHECK(e == std::atoi(mark + 1));
    *mark = '\0';
    // With n below the shortest digit count the digits are printf's; from there on printf goes
    // on into the binary value's own digits (9.9881000000000003) and the shortest are kept.
    if (n < shortest_digits(v).count) CHECK(m == std::strtod(buf, nullptr));
  }
  // Exact binary ties round to even (1.5625 → 1.562), decimal-looking ones by the binary value
  // (0.15 is 0.1499999999999999944… → 0.1; 2.675 is 2.67499999… → 2.67).
  double m = 0;
  int e = 0;
  round_to_digits(1.5625, 4, m, e);
  CHECK(m == 1.562);
  round_to_digits(0.15, 1, m, e);
  CHECK(m == 1.0);
  CHECK(e == -1);
  round_to_digits(2.675, 3, m, e);
  CHECK(m == 2.67);
  round_to_digits(9.9996, 4, m, e);  // carries into the exponent
  CHECK(m == 1.0);
  CHECK(e == 1);
}

TEST_CASE("decimal text reads as strtod reads it, and nothing else") {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", 1 + static_cast<int>(rng() % 20), random_double(rng));
    double v = 0;
    CAPTURE(buf);
    REQUIRE(read_decimal(buf, v));
    CHECK(v == std::strtod(buf, nullptr));
  }
  double v = 0;
  CHECK(read_decimal("+7", v));
  CHECK(v == 7);
  CHECK(read_decimal(".5", v));
  CHECK(v == 0.5);
  CHECK(read_decimal("1e400", v));
  CHECK(std::isinf(v));
  for (const char* bad : {"", "-", "inf", "nan", "-inf", "0x10", "1.5x", "e5", "1e", " 1"}) {
    CAPTURE(bad);
    CHECK_FALSE(read_decimal(bad, v));
  }
}

TEST_CASE("JSON numbers go through the same reader and printer") {
  Json j;
  std::string err;
  REQUIRE(Json::parse(R"({"a": 0.1, "b": -1.5e-7, "c": 12345678901234567890})", j, err));
  CHECK(j.find("a")->as_number() == 0.1);
  CHECK(j.find("b")->as_number() == -1.5e-7);
  CHECK(j.find("c")->as_number() == 12345678901234567890.0);
  CHECK(j.dump() == R"({"a":0.1,"b":-1.5e-07,"c":1.2345678901234567e+19})");
}

TEST_CASE("whole numbers print exactly below 2^53 and as their shortest digits above") {
  CHECK(whole_digits(0.4) == "0");
  CHECK(whole_digits(2.5) == "2");  // ties to even, as printf's %.0f
  CHECK(whole_digits(3.5) == "4");
  CHECK(whole_digits(-1234567.0) == "1234567");
  CHECK(whole_digits(9007199254740991.0) == "9007199254740991");  // 2^53 − 1
  CHECK(whole_digits(9007199254740994.0) == "9007199254740994");  // 2^53 + 2: 16 digits
  // printf would print 1e23's binary value, 99999999999999991611392.
  CHECK(whole_digits(1e23) == "100000000000000000000000");
  CHECK(whole_digits(1.5e300).size() == 301);
}

// The exact path (more than 19 digits, or a power of ten beyond 10^±22) against strtod on the
// hardest inputs: near-midpoints between neighbouring doubles, exact integer midpoints above
// 2^53 (ties to even), long digit strings, and the subnormal and overflow edges.
TEST_CASE("long and extreme decimal text reads as strtod reads it, ties to even") {
  std::mt19937_64 rng(5);
  auto same = [](const std::string& t) {
    double a = 0;
    CAPTURE(t);
    REQUIRE(read_decimal(t, a));
    const double b = std::strtod(t.c_str(), nullptr);
    CHECK(std::memcmp(&a, &b, sizeof a) == 0);
  };
  char buf[128];
  for (int i = 0; i < 3000; ++i) {
    std::uint64_t bits = rng();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    if (!std::isfinite(v)) continue;
    std::snprintf(buf, sizeof buf, "%.*e", 20 + static_cast<int>(rng() % 20), v);
    same(buf);
    std::uint64_t x = (1ULL << 53) + (rng() >> (11 + rng() % 10));
    const double b = static_cast<double>(x);
    const auto lo = static_cast<std::uint64_t>(b);
    const auto hi = static_cast<std::uint64_t>(std::nextafter(b, HUGE_VAL));
    same(std::to_string(lo + (hi - lo) / 2));  // an exact tie
    std::string digits;
    for (int k = 0, n = 1 + static_cast<int>(rng() % 40); k < n; ++k)
      digits += static_cast<char>('0' + rng() % 10);
    same(digits + "e" + std::to_string(static_cast<int>(rng() % 700) - 350));
  }
  for (const char* t :
       {"2.4703282292062327e-324", "2.4703282292062328e-324", "4.9406564584124654e-324",
        "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
        "2.2250738585072011e-308", "2.2250738585072012e-308", "9007199254740993", "1e23", "1e-30",
        "123456789012345678901234567890"})
    same(t);
}
