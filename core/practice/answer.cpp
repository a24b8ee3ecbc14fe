#include "practice/answer.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "base/number_text.hpp"
#include "base/units.hpp"

namespace napkin {

namespace answer_in {
AnswerUnit output() {
  return {};
}
AnswerUnit days() {
  return {unit::seconds, "days", 86400};
}
AnswerUnit hours() {
  return {unit::seconds, "hours", 3600};
}
AnswerUnit seconds() {
  return {unit::seconds, "s", 1};
}
AnswerUnit ms() {
  return {unit::seconds, "ms", 1e-3};
}
AnswerUnit us() {
  return {unit::seconds, "µs", 1e-6};
}
AnswerUnit gb() {
  return {unit::bytes, "GB", 1e9};
}
AnswerUnit tb() {
  return {unit::bytes, "TB", 1e12};
}
AnswerUnit mb() {
  return {unit::bytes, "MB", 1e6};
}
AnswerUnit gb_per_s() {
  return {unit::bytes_per_s, "GB/s", 1e9};
}
AnswerUnit percent() {
  return {unit::fraction, "%", 0.01};
}
AnswerUnit gpus() {
  return {unit::gpus, "GPUs", 1};
}
AnswerUnit billion_params() {
  return {unit::params, "billion parameters", 1e9};
}
AnswerUnit billion_tokens() {
  return {unit::tokens, "billion tokens", 1e9};
}
AnswerUnit zettaflop() {
  return {unit::flop, "ZFLOP", 1e21};
}
AnswerUnit count(Literal u, Literal name) {
  return {u, name, 1};
}
AnswerUnit yes_no() {
  return {kYesNo, "yes/no", 1};
}
}  // namespace answer_in

namespace {

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "≈ 1.5 GB", "~120ms", "= 80 GPUs", "about 3 days": the marks say nothing about the value.
// One pass over the text (an answer of 50,000 "~" took 19 s when each mark copied the rest).
std::string drop_approximation(std::string_view s) {
  static constexpr std::string_view kMarks[] = {
      "≈", "~", "=", "about", "approx.", "approximately", "approx"};
  std::size_t at = 0;
  for (bool again = true; again;) {
    again = false;
    while (at < s.size() && std::isspace(static_cast<unsigned char>(s[at]))) ++at;
    for (std::string_view mark : kMarks) {
      if (s.size() - at < mark.size()) continue;
      bool same = true;
      for (std::size_t i = 0; i < mark.size() && same; ++i)
        same = std::tolower(static_cast<unsigned char>(s[at + i])) ==
               static_cast<unsigned char>(mark[i]);
      if (same) {
        at += mark.size();
        again = true;
        break;
      }
    }
  }
  return trim(s.substr(at));
}

// Without spaces, digit separators or underscores: "1,495,726 GPU-hours" → "1495726GPU-hours".
std::string compact(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != ',' && c != '_' && c != '\t') out += c;
  return out;
}

// The commas of the leading number, read or refused before compact() drops them (#28: "121,7
// days" was read as 1,217 days). A comma before exactly three digits, in groups of three, is a
// thousands separator ("1,217", "1,495,726"), the common English reading. One comma before one,
// two or four and more digits can only be a decimal comma ("121,7", "0,5", "3,14159") and is
// read as a point. Anything else ("1.234,5", "1,23,456", "0,125") is refused with a question,
// never guessed. Returns the text with the number's commas resolved, or sets `error`.
std::string resolve_commas(const std::string& t, std::string& error) {
  std::size_t b = t.size() && (t[0] == '-' || t[0] == '+') ? 1 : 0, e = b;
  while (e < t.size() &&
         (std::isdigit(static_cast<unsigned char>(t[e])) || t[e] == ',' || t[e] == '.'))
    ++e;
  const std::string num = t.substr(b, e - b);
  const auto commas = std::count(num.begin(), num.end(), ',');
  if (commas == 0) return t;
  const std::size_t point = num.find('.'), first = num.find(',');
  // Digit groups between the commas (and up to the point): "1", "495", "726".
  std::vector<std::size_t> groups;
  for (std::size_t at = 0;;) {
    std::size_t next = num.find_first_of(",.", at);
    groups.push_back((next == std::string::npos ? num.size() : next) - at);
    if (next == std::string::npos || num[next] == '.') break;
    at = next + 1;
  }
  const bool point_after = point == std::string::npos || point > num.rfind(',');
  bool thousands = point_after && groups.size() == static_cast<std::size_t>(commas) + 1 &&
                   groups[0] >= 1 && groups[0] <= 3 && num[0] != '0';
  for (std::size_t i = 1; thousands && i < groups.size(); ++i) thousands = groups[i] == 3;
  std::string out = t;
  if (thousands) {
    out.erase(std::remove(out.begin() + b, out.begin() + e, ','), out.begin() + e);
    return out;
  }
  const bool decimal = commas == 1 && point == std::string::npos && groups[0] >= 1 &&
                       groups.size() == 2 && groups[1] >= 1 && groups[1] != 3;
  if (decimal) {
    out[b + first] = '.';
    return out;
  }
  error = "\"" + num + "\": is the comma a decimal comma or a thousands separator? Write the " +
          "number with a decimal point and no separators (121.7, or 1217)";
  return t;
}

// "70bn", "1.5 billion", "87.8 billion FLOPs": a magnitude word is part of the number, for
// every unit (parse_value knows "billion" for counts only, and "bn" for none). `suffix` is
// compacted text; returns the factor (1 when there is no such word) and drops the word.
double take_magnitude_word(std::string& suffix) {
  static constexpr std::pair<std::string_view, double> kWords[] = {
      {"thousand", 1e3},  {"million", 1e6}, {"billion", 1e9},
      {"trillion", 1e12}, {"mn", 1e6},      {"bn", 1e9}};
  const std::string l = lower(suffix);
  for (const auto& [w, f] : kWords)
    if (l.starts_with(w)) {
      suffix = suffix.substr(w.size());
      return f;
    }
  return 1;
}

// A number's text that reads back to the same double (a folded magnitude word, "70bn").
std::string exact_text(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// A leading decimal number (sign, digits, point, exponent) and what follows it.
bool split_number(const std::string& s, double& v, std::string& number, std::string& suffix) {
  std::size_t n = 0;
  if (n < s.size() && (s[n] == '-' || s[n] == '+')) ++n;
  std::size_t start = n;
  while (n < s.size() && (std::isdigit(static_cast<unsigned char>(s[n])) || s[n] == '.')) ++n;
  if (n == start || (n == start + 1 && s[start] == '.')) return false;
  if (std::count(s.begin() + start, s.begin() + n, '.') > 1) return false;
  if (n < s.size() && (s[n] == 'e' || s[n] == 'E')) {
    std::size_t m = n + 1;
    if (m < s.size() && (s[m] == '-' || s[m] == '+')) ++m;
    std::size_t exp_start = m;
    while (m < s.size() && std::isdigit(static_cast<unsigned char>(s[m]))) ++m;
    if (m > exp_start) n = m;
  }
  number = s.substr(0, n);
  suffix = s.substr(n);
  return read_decimal(number, v) && std::isfinite(v);
}

bool read_with_unit(const std::string& number, const std::string& suffix, const std::string& unit,
                    double& v) {
  ParsedNumber p = parse_value(number + suffix, unit);  // units.cpp reads words and prefixes
  // A per-token quantity written without "/token" ("87.8 GFLOP", "0.328 MB" for bytes per
  // token): the question says per token, so the numerator's unit reads it.
  if (!p.ok && unit.ends_with("/tok"))
    p = parse_value(number + suffix, unit.substr(0, unit.size() - 4));
  if (p.ok) v = p.value;
  return p.ok;
}

// The asked unit's own name after the number: "80 GPUs", "121.7 days" (when parse_value does
// not know the word), "28.6 tokens per parameter".
bool read_with_name(double number_value, const std::string& suffix, const AnswerUnit& u,
                    double& v) {
  if (u.name.empty() || suffix.empty()) return false;
  std::string s = lower(suffix), n = lower(compact(u.name));
  std::vector<std::string> forms = {n, n + "s"};
  if (n.size() > 1 && n.back() == 's') forms.push_back(n.substr(0, n.size() - 1));
  for (const auto& f : forms)
    if (s == f) return v = number_value * u.scale, true;
  return false;
}

// What a student adds that the question already says: "per GPU", "/token" after a value
// asked per GPU or per token, and the GPU's own name or a synonym for the count noun
// ("44 H100s", "44 devices"). Returns the suffix without them ("" when only they were there).
std::string drop_qualifiers(const std::string& suffix, const AnswerUnit& u) {
  std::string s = suffix, l = lower(suffix);
  for (std::string_view q : {"pergpu", "/gpu", "pertoken", "/token", "/tok", "perdevice", "/device",
                             "perrank", "/rank", "perstep", "/step", "perrequest"})
    if (l.size() > q.size() && l.ends_with(q)) {
      s = s.substr(0, s.size() - q.size());
      l = lower(s);
      break;
    }
  // "44 H100s", "156 GPUs" for a count asked in GPUs or in devices: the noun says nothing more.
  // A plain count (replicas, instances: "512 GPUs" for a data-parallel degree) is named by its
  // question; the number is what is graded (#28).
  if ((u.unit == unit::gpus || u.unit == unit::none || is_accelerator_noun(compact(u.name))) &&
      is_accelerator_noun(l))
    return "";
  return s;
}

// The base unit in words, for "in ms or in seconds".
std::string base_unit_words(std::string_view u) {
  if (u == unit::seconds) return "seconds";
  if (u == unit::bytes) return "bytes";
  if (u == unit::bytes_per_s) return "bytes per second";
  if (u == unit::flop) return "FLOPs";
  if (u == unit::flops) return "FLOP/s";
  if (u == unit::params) return "parameters";
  if (u == unit::tokens) return "tokens";
  if (u == unit::flop_per_token) return "FLOPs per token";
  if (u == unit::bytes_per_token) return "bytes per token";
  return u.empty() ? "base units" : std::string(u);
}

// Every unit a GB/GiB mix-up can happen in: bytes, byte rates and bytes per token (#28).
bool is_byte_unit(std::string_view u) {
  return u == unit::bytes || u == unit::bytes_per_s || u == unit::bytes_per_token;
}

// A number to put before a unit name: no letter suffixes ("26.83K ZFLOP" would not read
// back), digit groups for large whole numbers, an exponent beyond them.
std::string plain_number(double x) {
  if (!std::isfinite(x)) return "—";  // never reached by a checked answer; never formatted
  const double a = std::fabs(x);
  if (a == 0 || (a >= 1e-3 && a < 1e4)) return format_value(x, unit::none);
  if (a >= 1e4 && a < 1e9) {
    const std::string digits = whole_digits(a);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
      out += digits[i];
      if ((digits.size() - 1 - i) % 3 == 0 && i + 1 != digits.size()) out += ',';
    }
    return x < 0 ? "-" + out : out;
  }
  // Four significant digits, as %.3e rounds them, trailing zeros dropped: 1.5e12, 3.675e24.
  double m = 0;
  int exp = 0;
  round_to_digits(x, 4, m, exp);
  std::string mant = whole_digits(std::fabs(m) * 1000);  // "1500" for 1.5
  mant.insert(1, ".");
  while (mant.back() == '0') mant.pop_back();
  if (mant.back() == '.') mant.pop_back();
  return (m < 0 ? "-" : "") + mant + "e" + std::to_string(exp);
}

}  // namespace

std::string answer_text(double value, const AnswerUnit& u) {
  if (u.unit == kYesNo) return value >= 0.5 ? "yes" : "no";
  if (u.name.empty()) return format_value(value, u.unit);
  std::string n = plain_number(value / u.scale);
  return u.name == "%" ? n + "%" : n + " " + u.name;
}

namespace {
ParsedAnswer parse_answer_text(std::string_view raw, const AnswerUnit& u);
}

// The checker's entry: bounded length, and only finite readings ("1e300 YFLOP" is not an
// answer a formula can be compared with).
ParsedAnswer parse_answer(std::string_view raw, const AnswerUnit& u) {
  if (raw.size() > kMaxAnswerLength) {
    ParsedAnswer r;
    r.error = "the answer is " + std::to_string(raw.size()) + " characters long; at most " +
              std::to_string(kMaxAnswerLength) + " are read";
    return r;
  }
  ParsedAnswer r = parse_answer_text(raw, u);
  for (double v : r.readings)
    if (!std::isfinite(v)) {
      ParsedAnswer bad;
      bad.error = "\"" + std::string(raw) + "\" is not a finite number";
      return bad;
    }
  return r;
}

namespace {
ParsedAnswer parse_answer_text(std::string_view raw, const AnswerUnit& u) {
  ParsedAnswer r;
  std::string t = drop_approximation(raw);
  if (u.unit == kYesNo) {
    std::string w = lower(compact(t));
    while (!w.empty() && (w.back() == '.' || w.back() == '!')) w.pop_back();
    for (const char* y : {"yes", "y", "true", "1"})
      if (w == y) return r.ok = true, r.readings = {1}, r;
    for (const char* n : {"no", "n", "false", "0"})
      if (w == n) return r.ok = true, r.readings = {0}, r;
    r.error = "\"" + std::string(raw) + "\" is not yes or no";
    return r;
  }
  std::string comma_error;
  t = resolve_commas(t, comma_error);
  if (!comma_error.empty()) return r.error = comma_error, r;
  std::string s = compact(t);
  if (u.unit == "$" && !s.empty() && s[0] == '$') s.erase(0, 1);  // "$147.4K"
  auto bare = [&](double v) {
    r.ok = true;
    r.bare = true;
    r.readings.push_back(v * u.scale);
    if (u.scale != 1) r.readings.push_back(v);
    return r;
  };
  double v = 0;
  std::string number, suffix;
  if (!s.empty() && split_number(s, v, number, suffix)) {
    r.exponent = number.find_first_of("eE") != std::string::npos;
    if (suffix.empty()) return bare(v);
    if (const double f = take_magnitude_word(suffix); f != 1) {
      v *= f;
      number = exact_text(v);
      if (suffix.empty()) return r.ok = true, r.readings = {v}, r;  // "70bn": base units
    }
    // A fraction of two plain numbers: "3/19".
    if (suffix[0] == '/') {
      double d = 0;
      std::string dn, ds;
      if (split_number(suffix.substr(1), d, dn, ds) && ds.empty()) {
        if (d == 0) {
          r.error = "\"" + std::string(raw) + "\" divides by zero";
          return r;
        }
        return bare(v / d);
      }
    }
    double w = 0;
    const std::string l = lower(suffix);
    for (const char* b : {"kib", "mib", "gib", "tib", "pib", "bibyte"})
      if (l.find(b) != std::string::npos) r.binary = true;
    if (read_with_unit(number, suffix, std::string(u.unit), w) || read_with_name(v, suffix, u, w)) {
      r.ok = true;
      r.readings.push_back(w);
      return r;
    }
    const std::string plain = drop_qualifiers(suffix, u);
    if (plain != suffix) {
      if (plain.empty()) {  // "44 H100s": the count in the asked unit, not a bare guess
        r.ok = true;
        r.readings.push_back(v * u.scale);
        return r;
      }
      if (read_with_unit(number, plain, std::string(u.unit), w) || read_with_name(v, plain, u, w)) {
        r.ok = true;
        r.readings.push_back(w);
        return r;
      }
    }
  }
  ParsedNumber p = parse_value(t, u.unit);
  r.error = p.ok ? "\"" + std::string(raw) + "\" could not be read" : p.error;
  std::string example = answer_text(1.5 * u.scale, u);
  r.error += " (the question asks in " +
             (u.name.empty() ? unit_noun(std::string(u.unit)) : std::string(u.name)) + ", e.g. \"" +
             example + "\")";
  return r;
}
}  // namespace

double relative_error(double given, double expected) {
  if (expected == 0) return std::fabs(given);
  return std::fabs(given - expected) / std::fabs(expected);
}

namespace {
// A minimum count rounded down, a maximum rounded up: the one whole number that breaks the
// question's constraint, named wherever a count has a bound (#28) rather than "off by more
// than rounding". A problem's own mistake at the same value is listed first and wins.
void add_rounding_mistake(const Expected& e, std::vector<Alternative>& out) {
  if (!e.integer || !std::isfinite(e.value)) return;
  if (e.bound == Bound::at_least)
    out.push_back({"rounded_down",
                   "One fewer than needed: round a minimum up (a fraction of one still needs a "
                   "whole one, and one fewer breaks the constraint).",
                   e.value - 1});
  if (e.bound == Bound::at_most)
    out.push_back({"rounded_up",
                   "One more than fits: round a maximum down (a fraction of one does not fit, and "
                   "one more breaks the constraint).",
                   e.value + 1});
}
}  // namespace

std::vector<Alternative> automatic_mistakes(const Expected& e) {
  std::vector<Alternative> out;
  add_rounding_mistake(e, out);
  if (!is_byte_unit(e.unit.unit) || e.value == 0 || !std::isfinite(e.value)) return out;
  int k = static_cast<int>(std::floor(std::log10(std::fabs(e.value)) / 3));
  k = std::clamp(k, 1, 5);
  const double f = std::pow(1.024, k);
  // A mix-up smaller than the tolerance is the problem's accepted rounding (comm.tp_step.payload
  // takes "8 KB" for 8,192 bytes); kB/KiB (2.4 %) is named at the default 2 %.
  if (f - 1 <= e.tolerance) return out;
  static const char* pairs[] = {"",           "kB and KiB", "MB and MiB",
                                "GB and GiB", "TB and TiB", "PB and PiB"};
  static const char* exps[] = {"", "3", "6", "9", "12", "15"};
  static const char* bins[] = {"", "10", "20", "30", "40", "50"};
  std::string fb = std::string("You mixed ") + pairs[k] + ": the decimal unit is 10^" + exps[k] +
                   " bytes, the binary one 2^" + bins[k] + " bytes (" +
                   format_value((f - 1) * 100, unit::none, {false, 2}) + "% more).";
  out.push_back({"gb_vs_gib", fb, e.value * f});
  out.push_back({"gb_vs_gib", fb, e.value / f});
  return out;
}

bool mistake_matches(double given, double mistake, const Expected& e) {
  if (!std::isfinite(mistake) || !std::isfinite(given)) return false;
  if (e.integer) return std::fabs(given - mistake) < 0.5 + 1e-9;
  return mistake != 0 && relative_error(given, mistake) <= e.tolerance;
}

bool is_correct(double r, const Expected& e) {
  return e.integer ? std::fabs(r - e.value) <= 1e-9 * std::max(1.0, std::fabs(e.value))
                   : relative_error(r, e.value) <= e.tolerance;
}

bool is_close(double r, const Expected& e) {
  if (e.unit.unit == kYesNo || is_correct(r, e)) return false;  // yes or no: nothing between
  const double slack = 1e-9 * std::max(1.0, std::fabs(e.value));
  if (e.integer) {
    if (e.bound == Bound::at_least) return r > e.value && r - e.value <= 1 + slack;
    if (e.bound == Bound::at_most) return r < e.value && e.value - r <= 1 + slack;
    return false;  // an exact count: one off is a wrong count
  }
  if (e.bound == Bound::at_least && r < e.value) return false;
  if (e.bound == Bound::at_most && r > e.value) return false;
  return relative_error(r, e.value) <= e.close;
}

bool mistake_shadows_answer(double mistake, const Expected& e) {
  if (e.integer) {
    for (double r : {e.value - 1, e.value, e.value + 1})
      if ((is_correct(r, e) || is_close(r, e)) && mistake_matches(r, mistake, e)) return true;
    return false;
  }
  // Some answer within tolerance of the key is within tolerance of the mistake too.
  return relative_error(mistake, e.value) <= 2 * e.tolerance;
}

namespace {
// A reading within tolerance of the key that equals a named mistake (#28): the mistake is named
// when it is distinct from the key and the reading is nearer it. Distinct: a count that rounds
// to another whole number; a value more than half the tolerance away, so a key rounded to three
// figures (at most 0.5 % off) is never nearer the mistake.
bool names_before_key(double r, double mistake, const Expected& e) {
  const bool distinct = e.integer ? std::round(mistake) != std::round(e.value)
                                  : relative_error(mistake, e.value) > e.tolerance / 2;
  return distinct && std::fabs(r - mistake) < std::fabs(r - e.value);
}
}  // namespace

Judgement judge(const std::vector<double>& readings, const Expected& e,
                const std::vector<Alternative>& mistakes, bool binary_written) {
  std::vector<Alternative> alts = mistakes;
  std::vector<Alternative> autos = automatic_mistakes(e);

  auto exact = [&](double r) { return is_correct(r, e); };
  // An answer that breaks the question's constraint (fewer GPUs than fit, more sequences than
  // fit) is wrong, not close; a count 10 % off is not close either (is_close).
  auto near = [&](double r) { return is_close(r, e); };
  for (auto& a : autos) alts.push_back(std::move(a));
  auto matches = [&](double r, const Alternative& a) {
    if (a.id == "gb_vs_gib" && !binary_written && relative_error(r, a.value) > 2e-3) return false;
    return mistake_matches(r, a.value, e);
  };

  Judgement best;
  int best_rank = -1;
  for (double r : readings) {
    Judgement j;
    j.given = r;
    j.relative_error = relative_error(r, e.value);
    int rank = 0;
    const Alternative* hit = nullptr;
    for (const auto& a : alts)
      if (matches(r, a) && (!hit || relative_error(r, a.value) < relative_error(r, hit->value)))
        hit = &a;
    if (exact(r) && !(hit && names_before_key(r, hit->value, e))) {
      rank = 3;
      j.verdict = "correct";
    } else {
      if (hit) {
        rank = 2;
        j.verdict = exact(r) || near(r) ? "close" : "wrong";
        j.mistake = hit->id;
        j.feedback = hit->feedback;
      } else if (near(r)) {
        rank = 1;
        j.verdict = "close";
      } else {
        j.verdict = "wrong";
      }
    }
    if (rank > best_rank) {
      best = j;
      best_rank = rank;
    }
  }
  best.score = best.verdict == "correct"                         ? kScoreCorrect
               : best.mistake == "gb_vs_gib"                     ? kScoreWrongUnit
               : best.mistake.empty() && best.verdict == "close" ? kScoreClose
                                                                 : 0.0;
  const std::string want = answer_text(e.value, e.unit);
  const std::string got = answer_text(best.given, e.unit);
  if (best.verdict == "correct") {
    best.feedback = "Correct: " + want + ".";
  } else if (best.mistake.empty() && best.verdict == "close") {
    // The expected value stays out of the feedback so the student can try again; the
    // reply carries it separately for a "show answer" button.
    // No size of the error either: "3.2 % too high" would hand over the answer.
    best.feedback = std::string("Close, but a little ") + (best.given > e.value ? "high" : "low") +
                    ". Check your rounding and the constants you used.";
  } else if (best.mistake.empty()) {
    best.feedback = "Not what we expected: " + got +
                    " is off by more than rounding. Try a hint, or open the worked solution.";
  }
  return best;
}

namespace {
// The unit the answer box shows ("Your answer (GFLOP/tok)"): the asked name, or for an answer
// asked in the output's own unit, the scaled unit format_value writes for the key.
struct Shown {
  std::string name;
  double scale = 1;
};
Shown shown_unit(double value, const AnswerUnit& u) {
  if (!u.name.empty() || u.unit == kYesNo || !std::isfinite(value))
    return {std::string(u.name.view()), u.scale};
  // format_value's text after the number: "349.1 GFLOP/tok" → "GFLOP/tok", "3.5T tok" → "T tok".
  const std::string text = format_value(value, u.unit);
  std::size_t at = 0;
  while (at < text.size() && (std::isdigit(static_cast<unsigned char>(text[at])) ||
                              std::string_view("+-.,").find(text[at]) != std::string_view::npos))
    ++at;
  const std::string name = trim(text.substr(at));
  const ParsedNumber one = parse_value("1 " + name, u.unit);  // the scale that name stands for
  if (name.empty() || !one.ok || !(one.value > 0)) return {name, 1};
  return {name, one.value};
}
}  // namespace

Judgement grade(const ParsedAnswer& a, const Expected& e,
                const std::vector<Alternative>& mistakes) {
  if (!a.bare) return judge(a.readings, e, mistakes, a.binary);
  const Shown shown = shown_unit(e.value, e.unit);
  std::vector<double> readings = a.readings;
  // An answer asked in the output's own unit: a bare number is read in the unit its box shows
  // first (#28: "349.1" for "Your answer (GFLOP/tok)" was read as 349.1 FLOP/tok).
  if (e.unit.name.empty() && readings.size() == 1 && shown.scale != 1)
    readings = {a.readings[0] * shown.scale, a.readings[0]};
  if (readings.size() < 2) return judge(readings, e, mistakes, a.binary);
  Judgement asked = judge({readings[0]}, e, mistakes, false);
  const double ratio = std::fabs(shown.scale);
  const bool far_apart = ratio >= 999 || (ratio > 0 && ratio <= 1.001e-3);
  if (!far_apart) return judge(readings, e, mistakes, false);
  // The asked reading is plausible: that is what the student meant.
  if (asked.verdict != "wrong" || !asked.mistake.empty()) return asked;
  Judgement other = judge({readings[1]}, e, mistakes, false);
  // "1.746e11" or "174600000000" for 174.6 billion parameters: an exponent, or a number at
  // least one asked unit's worth, spells out the size; nobody writes 1.746e11 billion. In a
  // large unit, the base reading is what was meant (#28).
  if (ratio >= 999 && (a.exponent || std::fabs(readings[1]) >= ratio)) return other;
  if (other.verdict != "wrong" || !other.mistake.empty()) {
    Judgement j;
    j.verdict = "unit";
    j.given = readings[0];
    j.relative_error = asked.relative_error;
    // Neutral on purpose: which reading is near would tell the answer's size.
    j.feedback = "needs its unit: a bare number could be in " + shown.name + " or in " +
                 base_unit_words(e.unit.unit) +
                 ", 1000× or more apart; write it with its unit, "
                 "e.g. \"" +
                 plain_number(1.5) + (shown.name == "%" ? "" : " ") + shown.name + "\" or \"" +
                 format_value(1.5, e.unit.unit) + "\"";
    return j;
  }
  return asked;
}

}  // namespace napkin
