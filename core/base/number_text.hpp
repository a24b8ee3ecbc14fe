// Decimal text <-> double, for the whole core: JSON, the unit parser and every formatted number
// go through these two functions and nothing else.
//
// Why not strtod and printf alone: the wasm build's libc (musl) reads and prints doubles through
// 128-bit software long doubles, 0.5-1.4 µs a number in the size-optimized build, and one
// estimator run reads and prints dozens. Reading takes Clinger's exact fast path where it
// applies (nearly always) and otherwise an estimate corrected by exact big-integer comparisons
// (no libc at all: musl's strtod and printf were 12 KB of the compressed module); printing uses
// Dragonbox (Jeon 2020, the algorithm inside {fmt}). Both are exact, and give the same text
// natively and in wasm.
// (fast_float would read every number fast, but its 10 KB table costs more page than it saves.)
#pragma once

#include <string>
#include <string_view>

namespace napkin {

// Reads a whole decimal number ("-12.5e3", "0.1", "7"; no hex, inf or nan): the double nearest
// to it, as strtod would give (ties to even). False if any character is left over or none was
// read, or for text over 400 characters.
bool read_decimal(std::string_view text, double& out);

// The shortest decimal digits that read back as exactly `v` (finite, nonzero): `digits` holds
// 1-17 digits d1 d2 … with no trailing zeros, and v = ±d1.d2d3… × 10^exp10.
struct ShortestDigits {
  char digits[20];
  int count;
  int exp10;
  bool negative;
};
ShortestDigits shortest_digits(double v);

// The same digits rounded to `n` significant digits as printf's %.{n-1}e rounds (exactly, ties
// to even on the binary value): the mantissa as a double in [1, 10) and the exponent. From n at
// the shortest count up, the shortest digits themselves (printf would go on into the binary
// value's own digits, 9.9881000000000003).
void round_to_digits(double v, int n, double& mantissa, int& exp10);

// The digits of |v| rounded to a whole number (ties to even, as printf's %.0f): exact below
// 2^53; above it (where every double is whole) the shortest digits padded with zeros, which
// read back to the same double (printf would print the binary value's own digits,
// 99999999999999991611392 for 1e23). No printf: wasm's goes through software long doubles,
// and it was 6 KB of the module for these rare numbers.
std::string whole_digits(double v);

// JSON text of a finite double: the shortest form that reads back exactly, in %.17g's layout
// (plain digits for exponents -5..16, else d.ddde±XX).
void append_shortest(std::string& out, double v);

}  // namespace napkin
