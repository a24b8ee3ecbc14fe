// libFuzzer: the unit parser and formatter (core/units.cpp) over arbitrary text, for every
// unit the registry uses. A parsed value must be finite, and format/parse must not crash.
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/units.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static constexpr std::string_view kUnits[] = {"",  "B",    "B/s",   "FLOP",  "FLOP/s",
                                                "s", "frac", "param", "tok",   "GPU",
                                                "$", "x",    "B/tok", "tok/s", "req/s"};
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // A run of plain digits with a nonzero one in it is a nonzero number, or refused: never 0
  // (issue #30 item 15: 450 nines read as 0).
  bool digits_only = size > 0, nonzero = false;
  for (char c : text) {
    digits_only = digits_only && c >= '0' && c <= '9';
    nonzero = nonzero || (c >= '1' && c <= '9');
  }
  for (std::string_view u : kUnits) {
    napkin::ParsedNumber p = napkin::parse_value(text, u);
    if (p.ok) {
      if (!std::isfinite(p.value)) __builtin_trap();
      if (digits_only && nonzero && !(p.value > 0)) __builtin_trap();
      (void)napkin::format_value(p.value, u);
    }
  }
  if (size >= sizeof(double)) {
    double v;
    __builtin_memcpy(&v, data, sizeof v);
    for (std::string_view u : kUnits) (void)napkin::format_value(v, u);
  }
  return 0;
}
