#include "base/units.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "base/echo.hpp"
#include "base/number_text.hpp"

namespace napkin {
namespace {

struct Scale {
  const char* text;
  double factor;
};

constexpr Scale kSiPrefixes[] = {{"", 1},    {"k", 1e3},  {"K", 1e3},  {"M", 1e6},
                                 {"G", 1e9}, {"T", 1e12}, {"P", 1e15}, {"E", 1e18}};
constexpr Scale kBinaryPrefixes[] = {
    {"Ki", 1024.0},          {"Mi", 1048576.0},          {"Gi", 1073741824.0},
    {"Ti", 1099511627776.0}, {"Pi", 1125899906842624.0}, {"Ei", 1152921504606846976.0}};
// Counts use the finance-style suffixes people write for model sizes: 70B, 2T, 500M.
constexpr Scale kCountSuffixes[] = {{"", 1},          {"k", 1e3},       {"K", 1e3},
                                    {"M", 1e6},       {"B", 1e9},       {"G", 1e9},
                                    {"T", 1e12},      {"P", 1e15},      {"thousand", 1e3},
                                    {"million", 1e6}, {"billion", 1e9}, {"trillion", 1e12}};
constexpr Scale kTimeUnits[] = {{"ns", 1e-9},
                                {"us", 1e-6},
                                {"µs", 1e-6},
                                {"μs", 1e-6},
                                {"ms", 1e-3},
                                {"s", 1},
                                {"sec", 1},
                                {"secs", 1},
                                {"seconds", 1},
                                {"min", 60},
                                {"mins", 60},
                                {"minutes", 60},
                                {"h", 3600},
                                {"hr", 3600},
                                {"hrs", 3600},
                                {"hours", 3600},
                                {"d", 86400},
                                {"day", 86400},
                                {"days", 86400},
                                // A Julian year (365.25 days) and a twelfth of it.
                                {"week", 604800},
                                {"weeks", 604800},
                                {"wk", 604800},
                                {"month", 2629800},
                                {"months", 2629800},
                                {"mo", 2629800},
                                {"year", 31557600},
                                {"years", 31557600},
                                {"yr", 31557600},
                                {"yrs", 31557600},
                                {"y", 31557600}};

bool is_byte_unit(std::string_view u) {
  return u == "B" || u == "B/s" || u == "B/tok";
}
bool is_flop_unit(std::string_view u) {
  return u == "FLOP" || u == "FLOP/s" || u == "FLOP/tok" || u == "FLOP/B";
}
// Power in watts (kW, MW) and energy in joules, shown in watt-hours (kWh, MWh, GWh): what
// energy bills and published training footprints (Touvron et al. 2023, Table 2) use.
constexpr double kJoulesPerWh = 3600;
bool is_si_unit(std::string_view u) {
  return is_flop_unit(u) || u == "W" || u == "J";
}

// Fixed-point text of v with `decimals` places, trailing zeros trimmed. Integer arithmetic
// instead of snprintf: derivations format dozens of numbers per run, and this is the hot path.
void put_fixed(std::string& out, double v, int decimals) {
  double scale = 1;
  for (int i = 0; i < decimals; ++i) scale *= 10;
  double scaled = std::round(std::fabs(v) * scale);
  if (scaled >= 9e15) {  // beyond exact integers in a double: the fraction is noise here
    if (v < 0) out += '-';
    out += whole_digits(v);
    return;
  }
  // Digits written backwards into a small buffer: no allocation on this path.
  auto n = static_cast<unsigned long long>(scaled);
  char buf[48];
  char* end = buf + sizeof buf;
  char* p = end;
  int written = 0;
  bool trimming = true;  // trailing zeros of the fraction are dropped
  do {
    int digit = static_cast<int>(n % 10);
    n /= 10;
    if (written < decimals) {
      if (!(trimming && digit == 0)) {
        *--p = static_cast<char>('0' + digit);
        trimming = false;
      }
      if (++written == decimals && !trimming) *--p = '.';
    } else {
      *--p = static_cast<char>('0' + digit);
      ++written;
    }
  } while (n > 0 || written < decimals + 1);
  if (v < 0 && !(p + 1 == end && *p == '0')) *--p = '-';
  out.append(p, static_cast<std::size_t>(end - p));
}

// Significant-digit formatting without exponent, trailing zeros trimmed: 121.7, 0.0425, 2048.
void put_sci(std::string& out, double v, int digits, const char* times, const char* close,
             bool drop_one = false);
void put_sig(std::string& out, double v, int digits) {
  if (!std::isfinite(v)) {  // never a number to show; the registry refuses such outputs
    out += "—";
    return;
  }
  if (v == 0) {
    out += '0';
    return;
  }
  int e = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  // Past 10^15 the digits of a fixed-point text are noise to a reader (and past 2^53 not
  // even exact): "1.901e29 years", not "190128526884173700000000000000 years".
  if (e >= 15) return put_sci(out, v, digits, "e", "");
  int decimals = digits - 1 - e;
  if (decimals < 0) decimals = 0;
  if (decimals > 12) decimals = 12;
  put_fixed(out, v, decimals);
}

// Scientific display: mantissa rounded to `digits`, then `times` and the exponent, then `close`
// ("3.675" "e" "24" or "3.675" "\times10^{" "24" "}"); a mantissa of 1 is dropped when
// `drop_one` (10^{24}).
void put_sci(std::string& out, double v, int digits, const char* times, const char* close,
             bool drop_one) {
  if (!std::isfinite(v) || v == 0) return put_sig(out, v, digits);
  // Mantissa and exponent rounded as printf's %e rounds (exactly): dividing by pow(10, exp)
  // rounds differently in glibc and in emscripten's musl (1.562 vs 1.563), and underflows for
  // subnormal values.
  double m = 0;
  int exp = 0;
  round_to_digits(v, std::clamp(digits, 1, 17), m, exp);
  const std::size_t at = out.size();
  put_sig(out, m, digits);
  if (drop_one && out.compare(at, std::string::npos, "1") == 0) {
    out.resize(at);
    out += "10^{";
  } else {
    out += times;
  }
  out += std::to_string(exp);
  out += close;
}

// 1,495,726 (or with `sep` between groups of three).
void put_separated(std::string& out, double v, const char* sep = ",") {
  const std::string digits = whole_digits(v);
  const std::size_t n = digits.size();
  if (v < 0 && std::nearbyint(std::fabs(v)) != 0) out += '-';
  for (std::size_t i = 0; i < n; ++i) {
    out += digits[i];
    if ((n - 1 - i) % 3 == 0 && i != n - 1) out += sep;
  }
}

// 3.5T, 70B, 1.496M, 1,024, 0.75
void put_count(std::string& out, double v, int digits) {
  double a = std::fabs(v);
  if (a < 1e7 && std::fabs(v - std::round(v)) < 1e-9 * std::max(1.0, a))
    return put_separated(out, v);
  if (a < 1e4) return put_sig(out, v, digits);
  if (a >= 1e15) return put_sci(out, v, digits, "e", "");
  static const Scale big[] = {{"T", 1e12}, {"B", 1e9}, {"M", 1e6}, {"K", 1e3}};
  for (const auto& s : big)
    if (a >= s.factor) {
      put_sig(out, v / s.factor, digits);
      out += s.text;
      return;
    }
  put_sig(out, v, digits);
}

// The number and the unit with its prefix, separately: "312" and "TFLOP/s".
void put_prefixed(std::string& num, std::string& unit_out, double v, std::string_view unit,
                  bool binary, int digits) {
  double a = std::fabs(v);
  const char* prefix = "";
  double factor = 1;
  if (binary) {
    for (int i = 5; i >= 0; --i)
      if (a >= kBinaryPrefixes[i].factor) {
        prefix = kBinaryPrefixes[i].text;
        factor = kBinaryPrefixes[i].factor;
        break;
      }
  } else if (a >= 1e21) {
    put_sci(num, v, digits, "e", "");
    unit_out += unit;
    return;
  } else {
    static const Scale si[] = {{"E", 1e18}, {"P", 1e15}, {"T", 1e12},
                               {"G", 1e9},  {"M", 1e6},  {"k", 1e3}};
    for (const auto& s : si)
      if (a >= s.factor) {
        prefix = s.text;
        factor = s.factor;
        break;
      }
  }
  put_sig(num, v / factor, digits);
  unit_out += prefix;
  unit_out += unit;
}

// "14.1" and "ms"; "121.7" and "days".
void put_time(std::string& num, std::string& unit_out, double v, int digits) {
  static const struct {
    double below, scale;
    const char* unit;
  } kSteps[] = {{1e-6, 1e9, "ns"},
                {1e-3, 1e6, "µs"},
                {1, 1e3, "ms"},
                {120, 1, "s"},
                {7200, 1.0 / 60, "min"},
                {172800, 1.0 / 3600, "h"},
                {3.15576e9, 1.0 / 86400, "days"}};
  double a = std::fabs(v);
  if (a == 0) {
    num += '0';
    unit_out += 's';
    return;
  }
  for (const auto& st : kSteps)
    if (a < st.below) {
      put_sig(num, v * st.scale, digits);
      unit_out += st.unit;
      return;
    }
  put_sig(num, v / 3.15576e7, digits);
  unit_out += "years";
}

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\n')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\n')) --e;
  return std::string(s.substr(b, e - b));
}

bool match_prefixed(std::string_view suffix, std::initializer_list<const char*> names, bool binary,
                    double& factor) {
  for (const char* n : names) {
    for (const auto& p : kSiPrefixes)
      if (suffix == std::string(p.text) + n) {
        factor = p.factor;
        return true;
      }
    if (binary)
      for (const auto& p : kBinaryPrefixes)
        if (suffix == std::string(p.text) + n) {
          factor = p.factor;
          return true;
        }
  }
  return false;
}

const char* example_for(std::string_view u) {
  if (u == "B") return "80 GB, 80GiB or 8e10";
  if (u == "B/s") return "3.35 TB/s, 400 GB/s or 100 Gb/s";
  if (u == "FLOP") return "3.6e24 or 3.6e24 FLOP";
  if (u == "FLOP/s") return "990 TFLOP/s or 9.9e14";
  if (u == "s") return "50 µs, 2 ms, 1.5 s or 3 days";
  if (u == "frac") return "0.5 or 50%";
  if (u == "param") return "70B, 7e10 or 175 billion";
  if (u == "tok") return "2T, 1.4e12 or 300B";
  if (u == "W") return "700 W or 0.7 kW";
  if (u == "J") return "433 MWh, 1.2 GWh or 3.6e12 J";
  return "2048, 4k or 2e12";
}

// Per-unit extra suffixes (the unit name and its plurals) accepted after a count suffix.
std::vector<std::string> count_words(std::string_view u) {
  if (u == "param") return {"", "param", "params", "parameters"};
  if (u == "tok") return {"", "tok", "tokens", "token"};
  if (u == "GPU") return {"", "GPU", "GPUs", "gpu", "gpus"};
  if (u == "tok/s") return {"", "tok/s", "tokens/s"};
  if (u == "req/s") return {"", "req/s", "QPS", "qps", "rps"};
  if (u == "$") return {"", "$", "USD", "dollars", "dollar"};
  if (u == "GPU·h") return {"", "GPU·h", "GPU-h", "GPU-hours", "h"};
  if (u == "sample/s") return {"", "sample/s", "samples/s"};
  if (u == "x") return {"", "x", "×"};
  return {""};
}

}  // namespace

void append_value(std::string& out, double v, std::string_view u, FormatOptions opt) {
  if (!std::isfinite(v)) {
    out += "—";
    return;
  }
  int d = opt.digits;
  if (u == "frac") {
    if (std::isfinite(v * 100)) {
      put_sig(out, v * 100, d);
    } else {  // 1e308 as a percentage: the exponent moves by two, the product overflows
      double m = 0;
      int e = 0;
      round_to_digits(v, std::clamp(d, 1, 17), m, e);
      put_sig(out, m, d);
      out += 'e';
      out += std::to_string(e + 2);
    }
    out += " %";
  } else if (u == "x") {
    put_sig(out, v, 3);
    out += "×";
  } else if (u == "$") {
    out += '$';
    put_count(out, v, d);
  } else if (u == "s" || is_byte_unit(u) || is_si_unit(u)) {
    std::string unit_text;
    if (u == "s")
      put_time(out, unit_text, v, d);
    else if (u == "J")
      put_prefixed(out, unit_text, v / kJoulesPerWh, "Wh", false, d);
    else
      put_prefixed(out, unit_text, v, u, opt.binary && is_byte_unit(u), d);
    out += ' ';
    out += unit_text;
  } else {
    put_count(out, v, d);
    if (!u.empty()) {
      out += ' ';
      out += u;
    }
  }
}

std::string format_value(double v, std::string_view u, FormatOptions opt) {
  std::string s;
  append_value(s, v, u, opt);
  return s;
}

void append_tex_number(std::string& out, double v, int digits) {
  if (!std::isfinite(v)) {
    out += "\\text{—}";
    return;
  }
  double a = std::fabs(v);
  if (a != 0 && (a >= 1e6 || a < 1e-3)) return put_sci(out, v, digits, "\\times10^{", "}", true);
  if (a >= 1e4 && std::fabs(v - std::round(v)) < 1e-9) return put_separated(out, v, "{,}");
  put_sig(out, v, digits);
}

std::string tex_number(double v, int digits) {
  std::string s;
  append_tex_number(s, v, digits);
  return s;
}

void append_tex(std::string& out, double v, std::string_view u, int digits) {
  if (u.empty()) return append_tex_number(out, v, digits);
  if (u == "frac") {
    put_sig(out, v * 100, digits);
    out += "\\,\\%";
  } else if (u == "x") {
    put_sig(out, v, 3);
    out += "\\times";
  } else if (u == "$") {
    out += "\\$";
    append_tex_number(out, v, digits);
  } else if (!std::isfinite(v)) {
    out += "\\text{—}";
  } else if (u == "s" || is_byte_unit(u) || is_si_unit(u)) {
    std::string num, unit_text;
    if (u == "s")
      put_time(num, unit_text, v, digits);
    else if (u == "J")
      put_prefixed(num, unit_text, v / kJoulesPerWh, "Wh", false, digits);
    else
      put_prefixed(num, unit_text, v, u, false, digits);
    auto e = num.find('e');
    if (e == std::string::npos) {
      out += num;
    } else {
      out.append(num, 0, e);
      out += "\\times10^{";
      out.append(num, e + 1, std::string::npos);
      out += '}';
    }
    out += "\\,\\text{";
    out += unit_text;
    out += '}';
  } else {
    append_tex_number(out, v, digits);
    out += "\\,\\text{";
    out += u;
    out += '}';
  }
}

std::string format_tex(double v, std::string_view u, int digits) {
  std::string s;
  append_tex(s, v, u, digits);
  return s;
}

std::string unit_noun(std::string_view u) {
  if (u == "B") return "bytes";
  if (u == "B/s") return "bytes per second";
  if (u == "FLOP") return "FLOPs";
  if (u == "FLOP/s") return "FLOP/s";
  if (u == "s") return "a time";
  if (u == "frac") return "a fraction";
  if (u == "param") return "a parameter count";
  if (u == "tok") return "a token count";
  if (u == "W") return "a power";
  if (u == "J") return "an energy";
  return "a number";
}

namespace {
// "gb/s", "tbps": lowercase prefix and b — bytes or bits? The reader asks.
bool is_lower_bits_rate(const std::string& suffix) {
  return suffix.size() >= 3 && std::string("kmgtp").find(suffix[0]) != std::string::npos &&
         (suffix.substr(1) == "b/s" || suffix.substr(1) == "bps");
}
std::string upper_prefix(const std::string& suffix) {
  return suffix[0] == 'k' ? "k" : std::string(1, static_cast<char>(suffix[0] - 'a' + 'A'));
}

std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The spelling the unit tables know for a suffix typed in another case: "gb" → "GB" for bytes,
// "G" → "GB", "b" → "B" (billion) for counts, "tflop/s" → "TFLOP/s". Lowercase m reads as mega
// (milli has no meaning for bytes, FLOPs or counts); "Gb" (bits) is left alone. "" when no
// rewrite applies.
std::string canonical_suffix(const std::string& suffix, std::string_view u) {
  if (suffix.empty() || u == "s" || u == "frac") return "";
  auto prefix = [](char c) -> std::string {
    switch (c) {
      case 'k':
      case 'K': return "k";
      case 'm':
      case 'M': return "M";
      case 'g':
      case 'G': return "G";
      case 't':
      case 'T': return "T";
      case 'p':
      case 'P': return "P";
      case 'e':
      case 'E': return "E";
      default: return "";
    }
  };
  std::string low;
  for (char c : suffix) low += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string p = prefix(suffix[0]);
  const std::string rest = low.substr(1);
  if (u == "B") {
    if (suffix.size() == 1 && !p.empty()) return p + "B";  // "80G"
    if (!p.empty() && (rest == "b" || rest == "byte" || rest == "bytes")) {
      if (suffix[0] != 'k' && std::isupper(static_cast<unsigned char>(suffix[0])) &&
          suffix[1] == 'b')
        return "";  // "Gb" is gigabits: read as such by the table
      return p + "B";
    }
    if (!p.empty() && rest == "ib") return p == "k" ? "KiB" : p + "iB";
    return "";
  }
  if (u == "B/s") {
    if (suffix.size() == 1 && !p.empty()) return p + "B/s";  // "3.35T"
    if (!p.empty() && (rest == "b/s" || rest == "bps") &&
        std::isupper(static_cast<unsigned char>(suffix[1])))
      return p + "B/s";
    return "";
  }
  if (u == "J" || u == "W") {  // "kwh", "MWH", "kw": no milli-anything is meant here
    const char* name = u == "J" ? "Wh" : "W";
    return !p.empty() && rest == lowercase(name) ? p + name : "";
  }
  if (u == "FLOP" || u == "FLOP/s") {
    if (!p.empty() && (suffix.size() == 1 || rest == "flop" || rest == "flops" || rest == "flop/s"))
      return p + (suffix.size() == 1 ? "" : u == "FLOP" ? "FLOP" : "FLOP/s");
    return "";
  }
  // Counts: one prefix letter, any case; "b" is billion here.
  if (suffix.size() == 1) {
    if (low == "b") return "B";
    if (!p.empty()) return p == "k" ? "k" : p;
  }
  return "";
}
}  // namespace

namespace {
// parse_value on the text as typed: the tables' spellings only.
ParsedNumber parse_value_as_typed(std::string_view raw, std::string_view u) {
  ParsedNumber r;
  std::string t = trim(raw);
  if (t.empty()) {
    r.error = "is empty; enter " + unit_noun(u) + ", e.g. " + example_for(u);
    return r;
  }
  // Drop digit-group separators and spaces: "1,024", "1 000", "3.35 TB/s". A comma separates
  // groups of three digits only: "2,5" is a decimal comma, not 25, and is refused.
  std::string s;
  const auto digit = [&](std::size_t i) { return i < t.size() && t[i] >= '0' && t[i] <= '9'; };
  for (std::size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (c == ',') {
      if (!(i > 0 && digit(i - 1) && digit(i + 1) && digit(i + 2) && digit(i + 3) &&
            !digit(i + 4))) {
        r.error = "\"" + echo_text(raw) +
                  "\": a comma only separates groups of three digits (1,024); write decimals with "
                  "a point (2.5)";
        return r;
      }
      continue;
    }
    if (c == '_' || c == ' ' || c == '\t') continue;
    s += c;
  }
  if (u == "$" && !s.empty() && s[0] == '$') s.erase(0, 1);  // "$2" per GPU-hour
  if (s.empty()) {
    r.error =
        "\"" + echo_text(raw) + "\" is not " + unit_noun(u) + "; write e.g. " + example_for(u);
    return r;
  }
  char c0 = s[0];
  bool starts_numeric = (c0 >= '0' && c0 <= '9') || c0 == '.' || c0 == '-' || c0 == '+';
  const std::string bad =
      "\"" + echo_text(raw) + "\" is not " + unit_noun(u) + "; write e.g. " + example_for(u);
  if (!starts_numeric) {
    r.error = bad;
    return r;
  }
  // Only decimal numbers: no hex, no "inf"/"nan" (strtod would accept them).
  std::size_t n = 0;
  if (s[n] == '-' || s[n] == '+') ++n;
  std::size_t digits_start = n;
  int points = 0;
  while (n < s.size() && ((s[n] >= '0' && s[n] <= '9') || s[n] == '.')) points += s[n++] == '.';
  if (n == digits_start || (n == digits_start + 1 && s[digits_start] == '.') || points > 1) {
    r.error = bad;  // "1.2.3" and "7..0B" are not numbers
    return r;
  }
  if (n < s.size() && (s[n] == 'e' || s[n] == 'E')) {
    std::size_t m = n + 1;
    if (m < s.size() && (s[m] == '-' || s[m] == '+')) ++m;
    std::size_t exp_start = m;
    while (m < s.size() && s[m] >= '0' && s[m] <= '9') ++m;
    if (m > exp_start) n = m;  // "5e" alone leaves "e" as a (bad) suffix
  }
  std::string num = s.substr(0, n), suffix = s.substr(n);
  double v = 0;
  // The decimal reader takes at most 400 characters; a longer number must not read as 0.
  if (!read_decimal(num, v)) {
    r.error = "\"" + echo_text(raw, 24) + "\" has " + std::to_string(num.size()) +
              " digits; a number may have at most 400";
    return r;
  }
  double factor = 1;
  bool known = suffix.empty();
  if (!known && suffix == "%") {
    factor = 0.01;
    known = (u == "frac" || u.empty());
  }
  if (!known) {
    if (u == "B") {
      known = match_prefixed(suffix, {"B", "byte", "bytes"}, true, factor);
      if (!known && match_prefixed(suffix, {"b", "bit", "bits"}, false, factor)) {
        factor /= 8;
        known = true;
      }
    } else if (u == "B/s") {
      known = match_prefixed(suffix, {"B/s", "Bps", "byte/s", "bytes/s", ""}, true, factor);
      if (!known && match_prefixed(suffix, {"b/s", "bps", "bit/s", "bits/s"}, false, factor)) {
        factor /= 8;
        known = true;
      }
    } else if (u == "FLOP" || u == "FLOP/s") {
      known = u == "FLOP"
                  ? match_prefixed(suffix, {"FLOP", "FLOPs", "flop", "flops", ""}, false, factor)
                  : match_prefixed(suffix,
                                   {"FLOP/s", "FLOPS", "FLOPs/s", "flop/s", "flops", "FLOPs", ""},
                                   false, factor);
    } else if (u == "FLOP/B") {
      known = match_prefixed(suffix,
                             {"FLOP/B", "FLOPs/B", "FLOP/byte", "FLOPs/byte", "flop/byte",
                              "flops/byte", "FLOPs/bytes", "flops/B", "FLOP/bytes"},
                             false, factor);
    } else if (u == "J") {
      known = match_prefixed(suffix, {"Wh"}, false, factor);
      if (known) factor *= kJoulesPerWh;
    } else if (u == "s") {
      for (const auto& tu : kTimeUnits)
        if (suffix == tu.text) {
          factor = tu.factor;
          known = true;
        }
    } else {
      for (const auto& word : count_words(u))
        for (const auto& p : kCountSuffixes)
          if (suffix == std::string(p.text) + word) {
            factor = p.factor;
            known = true;
          }
    }
  }
  if (!known) {
    // Any unit reads its own name, with SI prefixes where it has them: "0.5 FLOP/B", "2 kB/tok".
    std::string own(u);
    known = !own.empty() && match_prefixed(suffix, {own.c_str()}, is_byte_unit(u), factor);
  }
  if (!known && u == "B/s" && is_lower_bits_rate(suffix)) {
    r.error = "\"" + echo_text(raw) + "\": \"" + suffix +
              "\" could be bytes or bits per second; write " + num + " " + upper_prefix(suffix) +
              "B/s (bytes) or " + num + " " + upper_prefix(suffix) + "b/s (bits)";
    return r;
  }
  if (!known) {
    // Case-insensitive prefixes where that is unambiguous ("80 gb", "80G", "70b", "990 tflop/s").
    const std::string canon = canonical_suffix(suffix, u);
    if (!canon.empty() && canon != suffix) {
      ParsedNumber again = parse_value_as_typed(num + canon, u);
      if (again.ok) {
        again.scaled = true;
        return again;
      }
    }
  }
  if (!known) {
    r.error = "\"" + echo_text(raw) + "\": unknown unit \"" + echo_text(suffix) + "\" for " +
              unit_noun(u) + "; write e.g. " + example_for(u);
    return r;
  }
  r.scaled = factor != 1 || (!suffix.empty() && suffix != "B");
  v *= factor;
  if (!std::isfinite(v)) {
    r.error = "\"" + echo_text(raw) + "\" is too large to represent";
    return r;
  }
  r.ok = true;
  r.value = v;
  return r;
}
}  // namespace

namespace {

// Long unit words people type, spelled as the tables above know them: "milliseconds" → "ms",
// "gigabytes" → "Gbytes", "zettaFLOPs" → "ZFLOPs", "percent" → "%".
std::string normalize_words(std::string suffix) {
  static const std::pair<const char*, const char*> words[] = {
      {"milliseconds", "ms"}, {"millisecond", "ms"}, {"msec", "ms"},  {"microseconds", "us"},
      {"microsecond", "us"},  {"nanoseconds", "ns"}, {"second", "s"}, {"hour", "h"},
      {"day", "d"},           {"zetta", "Z"},        {"exa", "E"},    {"peta", "P"},
      {"tera", "T"},          {"giga", "G"},         {"mega", "M"},   {"kilo", "k"},
      {"gibi", "Gi"},         {"tebi", "Ti"},        {"mebi", "Mi"},  {"percent", "%"}};
  std::string l = lowercase(suffix);
  for (const auto& [w, r] : words) {
    auto at = l.find(w);
    if (at == std::string::npos) continue;
    std::string rest = suffix.substr(at + std::string_view(w).size());
    // "seconds" → "s", not "ss"; "hours" → "h".
    if (std::string_view(r).size() <= 2 && !rest.empty() && rest[0] == 's' &&
        (std::string_view(w) == "second" || std::string_view(w) == "hour" ||
         std::string_view(w) == "day"))
      rest = rest.substr(1);
    suffix = suffix.substr(0, at) + r + rest;
    l = lowercase(suffix);
  }
  return suffix;
}

}  // namespace

bool is_accelerator_noun(std::string_view word) {
  std::string w = lowercase(word);
  if (!w.empty() && w.back() == 's') w.pop_back();
  for (const char* n : {"gpu", "device", "accelerator", "chip", "card"})
    if (w == n) return true;
  // A product name: a letter first, a digit somewhere, letters and digits only ("h100",
  // "mi300x", "tpuv5p", "b200").
  // "x10" after a number is a multiplication ("8x10"), not a product named x10.
  if (!w.empty() && w[0] == 'x' &&
      std::all_of(w.begin() + 1, w.end(), [](char c) { return std::isdigit(c); }))
    return false;
  return w.size() >= 3 && w.size() <= 12 && std::isalpha(static_cast<unsigned char>(w[0])) &&
         std::any_of(w.begin(), w.end(), [](char c) { return std::isdigit(c); }) &&
         std::all_of(w.begin(), w.end(), [](char c) { return std::isalnum(c); });
}

ParsedNumber parse_value(std::string_view raw, std::string_view u) {
  ParsedNumber r = parse_value_as_typed(raw, u);
  if (r.ok) return r;
  // Words and prefixes the tables do not spell: try them once, and keep the first error.
  std::string t = trim(raw);
  std::size_t n = 0;
  while (n < t.size() && (std::isdigit(static_cast<unsigned char>(t[n])) || t[n] == '.' ||
                          t[n] == ',' || t[n] == '-' || t[n] == '+' || t[n] == ' ' ||
                          ((t[n] == 'e' || t[n] == 'E') && n > 0 && n + 1 < t.size() &&
                           (std::isdigit(static_cast<unsigned char>(t[n + 1])) || t[n + 1] == '-' ||
                            t[n + 1] == '+'))))
    ++n;
  const std::string number = t.substr(0, n), suffix = trim(t.substr(n));
  if (number.empty() || suffix.empty()) return r;
  const std::string norm = normalize_words(suffix);
  if (norm != suffix) {
    ParsedNumber again = parse_value_as_typed(number + norm, u);
    if (again.ok) return again;
  }
  // Zetta and yotta, which the prefix tables leave out: "3675 ZFLOPs", "3.7 zettaFLOP".
  if (is_flop_unit(u) && norm.size() > 1 && (norm[0] == 'Z' || norm[0] == 'Y')) {
    ParsedNumber again = parse_value_as_typed(number + norm.substr(1), u);
    if (again.ok) {
      again.value *= norm[0] == 'Z' ? 1e21 : 1e24;
      again.scaled = true;
      if (!std::isfinite(again.value)) {
        again.ok = false;
        again.value = 0;
        again.error = "\"" + echo_text(raw) + "\" is too large to represent";
      }
      return again;
    }
  }
  // "44 H100s", "8 devices": a GPU count named by the accelerator.
  if (u == "GPU" && is_accelerator_noun(suffix)) {
    ParsedNumber again = parse_value_as_typed(number, u);
    if (again.ok) return again;
  }
  return r;
}

}  // namespace napkin
