// Text a user typed, echoed back in a message: one line, bounded. A 1 MB input name or a value
// with a newline in it must not make an error message a megabyte long or three lines tall.
#pragma once

#include <string>
#include <string_view>

namespace napkin {

// At most `max` bytes of `s` (cut at a whole UTF-8 character, then "…"), with control
// characters written as \n, \t, \r or \xNN.
inline std::string echo_text(std::string_view s, std::size_t max = 64) {
  std::string out;
  std::size_t end = s.size() <= max ? s.size() : max;
  while (end < s.size() && end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  static const char* hex = "0123456789abcdef";
  for (std::size_t i = 0; i < end; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != 0x7f) {
      out += static_cast<char>(c);
      continue;
    }
    // A backslash and a letter (n, t, r) or x and two hex digits, pushed as characters.
    out += '\\';
    if (c == '\n' || c == '\t' || c == '\r') {
      out += c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
    } else {
      out += 'x';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (end < s.size()) out += "…";
  return out;
}

}  // namespace napkin
