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
  for (std::string_view u : kUnits) {
    napkin::ParsedNumber p = napkin::parse_value(text, u);
    if (p.ok) {
      if (!std::isfinite(p.value)) __builtin_trap();
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
