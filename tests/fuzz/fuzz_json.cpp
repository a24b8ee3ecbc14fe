// libFuzzer: the JSON reader (core/json.cpp). What parses must dump to text that parses back
// to the same dump.
#include <cstdint>
#include <string>
#include <string_view>

#include "base/json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  napkin::Json j;
  std::string err;
  if (!napkin::Json::parse(text, j, err)) return 0;
  const std::string once = j.dump();
  napkin::Json again;
  if (!napkin::Json::parse(once, again, err)) __builtin_trap();
  if (again.dump() != once) __builtin_trap();
  return 0;
}
