#include "units.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <vector>

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
constexpr Scale kTimeUnits[] = {{"ns", 1e-9},   {"us", 1e-6},   {"µs", 1e-6},   {"μs", 1e-6},
                                {"ms", 1e-3},   {"s", 1},       {"sec", 1},     {"secs", 1},
                                {"seconds", 1}, {"min", 60},    {"mins", 60},   {"minutes", 60},
                                {"h", 3600},    {"hr", 3600},   {"hrs", 3600},  {"hours", 3600},
                                {"d", 86400},   {"day", 86400}, {"days", 86400}};

bool is_byte_unit(std::string_view u) {
  return u == "B" || u == "B/s" || u == "B/tok";
}
bool is_flop_unit(std::string_view u) {
  return u == "FLOP" || u == "FLOP/s" || u == "FLOP/tok" || u == "FLOP/B";
}

// Fixed-point text of v with `decimals` places, trailing zeros trimmed. Integer arithmetic
// instead of snprintf: derivations format dozens of numbers per run, and this is the hot path.
std::string fixed(double v, int decimals) {
  double scale = 1;
  for (int i = 0; i < decimals; ++i) scale *= 10;
  double scaled = std::round(std::fabs(v) * scale);
  if (scaled >= 9e15) {  // beyond exact integers in a double: let printf do it
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
  }
  // Digits written backwards into a small buffer: no allocation but the result's.
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
  return std::string(p, end);
}

// Significant-digit formatting without exponent, trailing zeros trimmed: 121.7, 0.0425, 2048.
std::string sig(double v, int digits) {
  if (v == 0) return "0";
  double a = std::fabs(v);
  int e = static_cast<int>(std::floor(std::log10(a)));
  int decimals = digits - 1 - e;
  if (decimals < 0) decimals = 0;
  if (decimals > 12) decimals = 12;
  return fixed(v, decimals);
}

// Mantissa and exponent for scientific display, mantissa rounded to `digits`.
void split_sci(double v, int digits, std::string& mant, int& exp) {
  exp = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  double m = v / std::pow(10.0, exp);
  double unit = std::pow(10.0, digits - 1);
  // Rounding can carry 9.9996 to 10.
  if (std::fabs(std::round(m * unit) / unit) >= 10) {
    m /= 10;
    ++exp;
  }
  mant = sig(m, digits);
}

std::string with_separators(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", std::fabs(v));
  std::string digits(buf), out;
  int n = static_cast<int>(digits.size());
  for (int i = 0; i < n; ++i) {
    out += digits[i];
    if ((n - 1 - i) % 3 == 0 && i != n - 1) out += ',';
  }
  return v < 0 ? "-" + out : out;
}

// 3.5T, 70B, 1.496M, 1,024, 0.75
std::string count_text(double v, int digits) {
  double a = std::fabs(v);
  if (a < 1e7 && std::fabs(v - std::round(v)) < 1e-9 * std::max(1.0, a)) return with_separators(v);
  if (a < 1e4) return sig(v, digits);
  static const Scale big[] = {{"T", 1e12}, {"B", 1e9}, {"M", 1e6}, {"K", 1e3}};
  if (a >= 1e15) {
    std::string m;
    int e;
    split_sci(v, digits, m, e);
    return m + "e" + std::to_string(e);
  }
  for (const auto& s : big)
    if (a >= s.factor) return sig(v / s.factor, digits) + s.text;
  return sig(v, digits);
}

std::string prefixed(double v, const char* unit, bool binary, int digits) {
  double a = std::fabs(v);
  if (binary) {
    for (int i = 5; i >= 0; --i)
      if (a >= kBinaryPrefixes[i].factor)
        return sig(v / kBinaryPrefixes[i].factor, digits) + " " + kBinaryPrefixes[i].text + unit;
    return sig(v, digits) + " " + unit;
  }
  if (a >= 1e21) {
    std::string m;
    int e;
    split_sci(v, digits, m, e);
    return m + "e" + std::to_string(e) + " " + unit;
  }
  static const Scale si[] = {{"E", 1e18}, {"P", 1e15}, {"T", 1e12},
                             {"G", 1e9},  {"M", 1e6},  {"k", 1e3}};
  for (const auto& s : si)
    if (a >= s.factor) return sig(v / s.factor, digits) + " " + s.text + unit;
  return sig(v, digits) + " " + unit;
}

std::string time_text(double v, int digits) {
  double a = std::fabs(v);
  if (a == 0) return "0 s";
  if (a < 1e-6) return sig(v * 1e9, digits) + " ns";
  if (a < 1e-3) return sig(v * 1e6, digits) + " µs";
  if (a < 1) return sig(v * 1e3, digits) + " ms";
  if (a < 120) return sig(v, digits) + " s";
  if (a < 7200) return sig(v / 60, digits) + " min";
  if (a < 172800) return sig(v / 3600, digits) + " h";
  if (a < 3.15576e9) return sig(v / 86400, digits) + " days";
  return sig(v / 3.15576e7, digits) + " years";
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
  return "2048, 4k or 2e12";
}

// Per-unit extra suffixes (the unit name and its plurals) accepted after a count suffix.
std::vector<std::string> count_words(std::string_view u) {
  if (u == "param") return {"", "param", "params", "parameters"};
  if (u == "tok") return {"", "tok", "tokens", "token"};
  if (u == "GPU") return {"", "GPU", "GPUs", "gpu", "gpus"};
  if (u == "tok/s") return {"", "tok/s", "tokens/s"};
  if (u == "req/s") return {"", "req/s", "QPS", "qps", "rps"};
  if (u == "$") return {"", "$", "USD"};
  if (u == "GPU·h") return {"", "GPU·h", "GPU-h", "GPU-hours", "h"};
  if (u == "sample/s") return {"", "sample/s", "samples/s"};
  if (u == "x") return {"", "x", "×"};
  return {""};
}

}  // namespace

std::string format_value(double v, std::string_view u, FormatOptions opt) {
  if (!std::isfinite(v)) return "—";
  int d = opt.digits;
  if (u == "frac") return sig(v * 100, d) + " %";
  if (u == "x") return sig(v, 3) + "×";
  if (u == "s") return time_text(v, d);
  if (u == "$") return "$" + count_text(v, d);
  if (is_byte_unit(u) || is_flop_unit(u)) {
    std::string base(u);
    return prefixed(v, base.c_str(), opt.binary && is_byte_unit(u), d);
  }
  std::string s = count_text(v, d);
  if (!u.empty()) s += " " + std::string(u);
  return s;
}

std::string tex_number(double v, int digits) {
  if (!std::isfinite(v)) return "\\text{—}";
  double a = std::fabs(v);
  if (a != 0 && (a >= 1e6 || a < 1e-3)) {
    std::string m;
    int e;
    split_sci(v, digits, m, e);
    if (m == "1") return "10^{" + std::to_string(e) + "}";
    return m + "\\times10^{" + std::to_string(e) + "}";
  }
  if (a >= 1e4 && std::fabs(v - std::round(v)) < 1e-9) {
    std::string s = with_separators(v);
    std::string out;
    for (char c : s) out += (c == ',') ? std::string("{,}") : std::string(1, c);
    return out;
  }
  return sig(v, digits);
}

std::string format_tex(double v, std::string_view u, int digits) {
  if (u.empty()) return tex_number(v, digits);
  if (u == "frac") return sig(v * 100, digits) + "\\,\\%";
  if (u == "x") return sig(v, 3) + "\\times";
  if (u == "$") return "\\$" + tex_number(v, digits);
  bool unit_has_prefixes = is_byte_unit(u) || is_flop_unit(u) || u == "s";
  if (!unit_has_prefixes) return tex_number(v, digits) + "\\,\\text{" + std::string(u) + "}";
  std::string s = format_value(v, u, {false, digits});
  auto sp = s.find(' ');
  std::string num = s.substr(0, sp), rest = sp == std::string::npos ? "" : s.substr(sp + 1);
  auto e = num.find('e');
  if (e != std::string::npos) num = num.substr(0, e) + "\\times10^{" + num.substr(e + 1) + "}";
  return num + "\\,\\text{" + rest + "}";
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
  return "a number";
}

ParsedNumber parse_value(std::string_view raw, std::string_view u) {
  ParsedNumber r;
  std::string t = trim(raw);
  if (t.empty()) {
    r.error = "is empty; enter " + unit_noun(u) + ", e.g. " + example_for(u);
    return r;
  }
  // Drop digit-group separators and spaces: "1,024", "1 000", "3.35 TB/s".
  std::string s;
  for (std::size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (c == ',' || c == '_' || c == ' ' || c == '\t') continue;
    s += c;
  }
  char c0 = s[0];
  bool starts_numeric = (c0 >= '0' && c0 <= '9') || c0 == '.' || c0 == '-' || c0 == '+';
  const std::string bad =
      "\"" + std::string(raw) + "\" is not " + unit_noun(u) + "; write e.g. " + example_for(u);
  if (!starts_numeric) {
    r.error = bad;
    return r;
  }
  // Only decimal numbers: no hex, no "inf"/"nan" (strtod would accept them).
  std::size_t n = 0;
  if (s[n] == '-' || s[n] == '+') ++n;
  std::size_t digits_start = n;
  while (n < s.size() && ((s[n] >= '0' && s[n] <= '9') || s[n] == '.')) ++n;
  if (n == digits_start || (n == digits_start + 1 && s[digits_start] == '.')) {
    r.error = bad;
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
  double v = std::strtod(num.c_str(), nullptr);
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
  if (!known) {
    r.error = "\"" + std::string(raw) + "\": unknown unit \"" + suffix + "\" for " + unit_noun(u) +
              "; write e.g. " + example_for(u);
    return r;
  }
  v *= factor;
  if (!std::isfinite(v)) {
    r.error = "\"" + std::string(raw) + "\" is too large to represent";
    return r;
  }
  r.ok = true;
  r.value = v;
  return r;
}

}  // namespace napkin
