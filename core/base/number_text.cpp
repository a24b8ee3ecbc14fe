#include "base/number_text.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>

// Only Dragonbox is used from {fmt}: its public formatting API would add ~30 KB (gzipped) of
// format-string machinery to the page; the shortest-digits routine alone costs ~3 KB.
#define FMT_HEADER_ONLY
#include <fmt/format.h>

namespace napkin {

namespace {
// Exact powers of ten: every 10^k up to 10^22 is a double (5^22 < 2^53).
constexpr double kExact10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// A non-negative integer of up to 4,480 bits: enough for the exact comparisons below (400
// decimal digits are 1,329 bits; 5^1100 is 2,554).
class BigInt {
 public:
  explicit BigInt(std::uint64_t v) {
    limbs_[0] = static_cast<std::uint32_t>(v);
    limbs_[1] = static_cast<std::uint32_t>(v >> 32);
    size_ = limbs_[1] ? 2 : 1;
  }
  // this × m + add
  void multiply(std::uint32_t m, std::uint32_t add = 0) {
    std::uint64_t carry = add;
    for (int i = 0; i < size_; ++i) {
      carry += static_cast<std::uint64_t>(limbs_[i]) * m;
      limbs_[i] = static_cast<std::uint32_t>(carry);
      carry >>= 32;
    }
    if (carry) limbs_[size_++] = static_cast<std::uint32_t>(carry);
  }
  void multiply_pow5(int k) {
    for (; k >= 13; k -= 13) multiply(1220703125u);  // 5^13
    std::uint32_t rest = 1;
    while (k-- > 0) rest *= 5;
    multiply(rest);
  }
  void shift_left(int bits) {
    const int words = bits / 32, rem = bits % 32;
    for (int i = size_ - 1 + words + 1; i >= 0; --i) {
      const int from = i - words;
      std::uint64_t w = from >= 0 && from < size_ ? limbs_[from] : 0;
      std::uint64_t below = from - 1 >= 0 && from - 1 < size_ ? limbs_[from - 1] : 0;
      limbs_[i] = static_cast<std::uint32_t>(rem ? (w << rem) | (below >> (32 - rem)) : w);
    }
    size_ += words + 1;
    while (size_ > 1 && limbs_[size_ - 1] == 0) --size_;
  }
  friend int compare(const BigInt& a, const BigInt& b) {
    if (a.size_ != b.size_) return a.size_ < b.size_ ? -1 : 1;
    for (int i = a.size_ - 1; i >= 0; --i)
      if (a.limbs_[i] != b.limbs_[i]) return a.limbs_[i] < b.limbs_[i] ? -1 : 1;
    return 0;
  }

 private:
  std::uint32_t limbs_[140] = {};
  int size_ = 1;
};

// The longest decimal text read (a JSON number the page sends is at most 24 characters).
constexpr std::size_t kMaxDecimalText = 400;

// v = M·2^E with M an integer (53 bits for normal numbers).
void split_double(double v, std::uint64_t& m, int& e) {
  int exp = 0;
  const double f = std::frexp(v, &exp);  // v = f·2^exp, f in [0.5, 1)
  m = static_cast<std::uint64_t>(std::ldexp(f, 53));
  e = exp - 53;
  while (e < -1074) m >>= 1, ++e;  // subnormal: fewer significant bits
}

// The sign of D·10^q − N·2^p, exactly.
int compare_scaled(const BigInt& digits, int q, std::uint64_t n, int p) {
  BigInt lhs = digits, rhs(n);
  if (q >= 0)
    lhs.multiply_pow5(q);
  else
    rhs.multiply_pow5(-q);
  const int shift = q - p;  // lhs carries 2^q, rhs 2^p
  if (shift >= 0)
    lhs.shift_left(shift);
  else
    rhs.shift_left(-shift);
  return compare(lhs, rhs);
}

// The double nearest D·10^q (ties to even), D the integer of `count` digits (no leading zero):
// an estimate in floating point, then exact comparisons with the midpoints between it and its
// neighbours move it to the right double (Clinger 1990's AlgorithmR, as David Gay's strtod
// finishes its reads). musl's strtod did this with 128-bit long doubles in software: 9 KB of
// the compressed module.
double exact_decimal(const char* digits, int count, long q10) {
  if (count + q10 > 310) return HUGE_VAL;  // ≥ 10^310
  if (count + q10 < -325) return 0.0;      // < 10^-325: below half the smallest subnormal
  const int q = static_cast<int>(q10);
  BigInt d(0);
  std::uint64_t top = 0;
  int used = 0;
  for (int i = 0; i < count; ++i) {
    d.multiply(10, static_cast<std::uint32_t>(digits[i] - '0'));
    if (used < 19) top = top * 10 + static_cast<std::uint64_t>(digits[i] - '0'), ++used;
  }
  // The estimate: the first 19 digits times a power of ten, within a few units in the last
  // place (the steps below need not start close; they start finite and positive).
  int e10 = q + (count - used);
  double b = static_cast<double>(top);
  for (; e10 > 22; e10 -= 22) b *= 1e22;
  for (; e10 < -22; e10 += 22) b /= 1e22;
  b = e10 < 0 ? b / kExact10[-e10] : b * kExact10[e10];
  if (b == 0) b = 5e-324;
  if (std::isinf(b)) b = 1.7976931348623157e308;
  for (int step = 0; step < 4096; ++step) {
    std::uint64_t m = 0;
    int e = 0;
    split_double(b, m, e);
    // Above the midpoint with the next double up: move up (past the largest double: infinity).
    const int up = compare_scaled(d, q, 2 * m + 1, e - 1);
    if (up > 0 || (up == 0 && (m & 1))) {
      const double next = std::nextafter(b, HUGE_VAL);
      if (up == 0 || std::isinf(next)) return next;
      b = next;
      continue;
    }
    if (up == 0) return b;  // a tie, and b is even
    // Below the midpoint with the next double down (a quarter unit below a power of two,
    // where the unit halves): move down.
    const bool narrow = m == (1ULL << 52) && e > -1074;
    const int down =
        narrow ? compare_scaled(d, q, 4 * m - 1, e - 2) : compare_scaled(d, q, 2 * m - 1, e - 1);
    if (down < 0 || (down == 0 && (m & 1))) {
      const double prev = std::nextafter(b, 0.0);
      if (down == 0) return prev;
      b = prev;
      if (b == 0) return 0.0;
      continue;
    }
    return b;
  }
  return b;
}
}  // namespace

bool read_decimal(std::string_view text, double& out) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  bool negative = false;
  if (i < n && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  // Digits, at most one point, at least one digit, then an optional exponent; nothing else
  // (strtod would also read "inf", "nan", hex and leading spaces).
  if (n > kMaxDecimalText) return false;
  std::uint64_t mantissa = 0;
  int digits = 0, scale = 0, seen = 0;
  char all[kMaxDecimalText];  // every significant digit, for the exact read
  int count = 0, all_scale = 0;
  bool point = false;
  for (; i < n; ++i) {
    const char c = text[i];
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    ++seen;
    if (digits == 0 && c == '0') {
      if (point) --scale, --all_scale;
      continue;
    }
    all[count++] = c;
    if (point) --all_scale;
    if (digits < 19) {
      mantissa = mantissa * 10 + static_cast<std::uint64_t>(c - '0');
      ++digits;
      if (point) --scale;
    } else if (!point) {
      ++scale;  // digits past the 19th only count in the slow path's exact read
    }
  }
  if (seen == 0) return false;
  bool exact_digits = digits < 19;
  long exponent = 0;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool minus = false;
    if (i < n && (text[i] == '+' || text[i] == '-')) minus = text[i++] == '-';
    const std::size_t start = i;
    for (; i < n && text[i] >= '0' && text[i] <= '9'; ++i)
      if (exponent < 100000) exponent = exponent * 10 + (text[i] - '0');
    if (i == start) return false;
    if (minus) exponent = -exponent;
  }
  if (i != n) return false;
  // Clinger's fast path (Clinger 1990, "How to read floating point numbers accurately"): an
  // integer below 2^53 times or over an exact power of ten is one correctly rounded IEEE
  // operation, the same double strtod returns. Inputs, JSON from the page and catalog values
  // almost always take it; the rest goes to exact_decimal's big-integer arithmetic.
  const long e10 = exponent + scale;
  if (exact_digits && mantissa < (1ULL << 53) && e10 >= -22 && e10 <= 22) {
    double v = static_cast<double>(mantissa);
    v = e10 < 0 ? v / kExact10[-e10] : v * kExact10[e10];
    out = negative ? -v : v;
    return true;
  }
  if (mantissa == 0 && exact_digits) {  // "0e400" and the like
    out = negative ? -0.0 : 0.0;
    return true;
  }
  const double v = count == 0 ? 0.0 : exact_decimal(all, count, exponent + all_scale);
  out = negative ? -v : v;
  return true;
}

std::string whole_digits(double v) {
  const double r = std::nearbyint(std::fabs(v));
  if (!std::isfinite(r)) return "0";
  if (r < 9007199254740992.0) {
    auto n = static_cast<unsigned long long>(r);
    char buf[24];
    char* p = buf + sizeof buf;
    do *--p = static_cast<char>('0' + n % 10), n /= 10;
    while (n > 0);
    return std::string(p, buf + sizeof buf);
  }
  const ShortestDigits d = shortest_digits(r);
  std::string out(d.digits, d.digits + d.count);
  out.append(static_cast<std::size_t>(d.exp10 + 1 - d.count), '0');
  return out;
}

ShortestDigits shortest_digits(double v) {
  ShortestDigits s{};
  s.negative = std::signbit(v);
  const auto dec = fmt::detail::dragonbox::to_decimal(std::fabs(v));
  std::uint64_t sig = dec.significand;
  int exponent = dec.exponent;
  while (sig != 0 && sig % 10 == 0) sig /= 10, ++exponent;
  char rev[20];
  int n = 0;
  do rev[n++] = static_cast<char>('0' + sig % 10), sig /= 10;
  while (sig != 0);
  for (int i = 0; i < n; ++i) s.digits[i] = rev[n - 1 - i];
  s.count = n;
  s.exp10 = exponent + n - 1;
  return s;
}

namespace {
// d1.d2d3… as the nearest double (one exact read, no pow(): the same double in both libcs).
double mantissa_of(const char* digits, int count, bool negative) {
  char text[24];
  int k = 0;
  if (negative) text[k++] = '-';
  text[k++] = digits[0];
  if (count > 1) text[k++] = '.';
  for (int i = 1; i < count; ++i) text[k++] = digits[i];
  double m = 0;
  read_decimal(std::string_view(text, static_cast<std::size_t>(k)), m);
  return m;
}

// The sign of x·10^j − (t + ½) for a finite x > 0: whether x lies above, on or below the
// decimal tie. With x = M·2^E (M a 53-bit integer) that is the sign of M·2^(E+j+1)·5^j −
// (2t + 1), compared exactly in integers (negative powers moved to the other side).
int side_of_tie(double x, long long t, int j) {
  int e = 0;
  const double f = std::frexp(x, &e);  // x = f·2^e, f in [0.5, 1)
  BigInt lhs(static_cast<std::uint64_t>(std::ldexp(f, 53)));
  BigInt rhs(static_cast<std::uint64_t>(2 * t + 1));
  const int p2 = e - 53 + j + 1;
  if (j >= 0)
    lhs.multiply_pow5(j);
  else
    rhs.multiply_pow5(-j);
  if (p2 >= 0)
    lhs.shift_left(p2);
  else
    rhs.shift_left(-p2);
  return compare(lhs, rhs);
}

}  // namespace

void round_to_digits(double v, int n, double& mantissa, int& exp10) {
  if (!std::isfinite(v) || v == 0) {
    mantissa = v;
    exp10 = 0;
    return;
  }
  ShortestDigits s = shortest_digits(v);
  exp10 = s.exp10;
  if (s.count <= n) {
    mantissa = mantissa_of(s.digits, s.count, s.negative);
    return;
  }
  // Rounding the shortest digits rounds v itself the same way unless they end exactly in the
  // 5 after the cut: a rounding boundary strictly between the digits and v would be a shorter
  // (or as short and closer) string inside v's rounding interval, which Dragonbox would have
  // returned instead. That one case, a decimal tie, compares v with the tie exactly.
  const char next = s.digits[n];
  bool up = next >= '5';
  if (next == '5' && s.count == n + 1) {
    long long t = 0;
    for (int i = 0; i < n; ++i) t = t * 10 + (s.digits[i] - '0');
    const int side = side_of_tie(std::fabs(v), t, n - 1 - exp10);
    up = side > 0 || (side == 0 && t % 2 == 1);  // an exact tie rounds to even, as printf
  }
  char d[20] = {};
  for (int i = 0; i < n; ++i) d[i] = s.digits[i];
  if (up) {
    int i = n - 1;
    while (i >= 0 && d[i] == '9') d[i--] = '0';
    if (i >= 0) {
      ++d[i];
    } else {  // 9.99… rounds up to 10.0…: one digit more on the exponent
      d[0] = '1';
      ++exp10;
    }
  }
  mantissa = mantissa_of(d, n, s.negative);
}

void append_shortest(std::string& out, double v) {
  if (v == 0) {
    out += std::signbit(v) ? "-0" : "0";
    return;
  }
  const ShortestDigits s = shortest_digits(v);
  if (s.negative) out += '-';
  const int x = s.exp10;
  if (x >= -4 && x < 17) {  // %.17g's rule for plain digits
    if (x < 0) {
      out += "0.";
      out.append(static_cast<std::size_t>(-x - 1), '0');
      out.append(s.digits, static_cast<std::size_t>(s.count));
      return;
    }
    const int whole = x + 1;
    if (s.count <= whole) {
      out.append(s.digits, static_cast<std::size_t>(s.count));
      out.append(static_cast<std::size_t>(whole - s.count), '0');
    } else {
      out.append(s.digits, static_cast<std::size_t>(whole));
      out += '.';
      out.append(s.digits + whole, static_cast<std::size_t>(s.count - whole));
    }
    return;
  }
  out += s.digits[0];
  if (s.count > 1) {
    out += '.';
    out.append(s.digits + 1, static_cast<std::size_t>(s.count - 1));
  }
  char e[8];
  const int a = x < 0 ? -x : x;
  int k = 0;
  e[k++] = 'e';
  e[k++] = x < 0 ? '-' : '+';
  if (a >= 100) e[k++] = static_cast<char>('0' + a / 100);
  e[k++] = static_cast<char>('0' + a / 10 % 10);
  e[k++] = static_cast<char>('0' + a % 10);
  out.append(e, static_cast<std::size_t>(k));
}

}  // namespace napkin
