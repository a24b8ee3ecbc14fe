// Units: the one place where numbers become text and text becomes numbers.
// API values are base units (count, FLOP, FLOP/s, B, B/s, s); the unit strings below
// only say how to show and read them.
#pragma once

#include <string>
#include <string_view>

namespace napkin {

// Unit names used by the registry. A value's unit never changes its number (always base SI).
namespace unit {
inline constexpr const char* none = "";  // a plain count or ratio
inline constexpr const char* flop = "FLOP";
inline constexpr const char* flops = "FLOP/s";
inline constexpr const char* bytes = "B";
inline constexpr const char* bytes_per_s = "B/s";
inline constexpr const char* seconds = "s";
inline constexpr const char* fraction = "frac";  // 0..1, shown as a percentage
inline constexpr const char* times = "x";        // a multiplier, shown as 1.10×
inline constexpr const char* params = "param";
inline constexpr const char* tokens = "tok";
inline constexpr const char* tokens_per_s = "tok/s";
inline constexpr const char* gpus = "GPU";
inline constexpr const char* gpu_hours = "GPU·h";
inline constexpr const char* dollars = "$";
inline constexpr const char* requests_per_s = "req/s";
inline constexpr const char* flop_per_byte = "FLOP/B";
inline constexpr const char* flop_per_token = "FLOP/tok";
inline constexpr const char* bytes_per_token = "B/tok";
inline constexpr const char* samples_per_s = "sample/s";
inline constexpr const char* watts = "W";
inline constexpr const char* joules = "J";  // shown in watt-hours: "688.1 MWh"
}  // namespace unit

struct FormatOptions {
  bool binary = false;  // GiB instead of GB for byte units
  int digits = 4;       // significant digits
};

// "80 GB", "121.7 days", "3.5T tok", "50 %", "1.10×". Never "nan" or "inf": a value
// that is not finite prints as "—" (the registry never returns one as a result).
std::string format_value(double v, std::string_view unit, FormatOptions opt = {});

// The same value for a derivation: LaTeX math-mode text, e.g. "312\,\text{TFLOP/s}"
// or "3.675\times10^{24}\,\text{FLOP}".
std::string format_tex(double v, std::string_view unit, int digits = 4);

// A plain number for LaTeX without a unit: "7\times10^{10}", "0.5", "2048".
std::string tex_number(double v, int digits = 4);

// The same three, appended to `out` (derivations build long strings from many numbers).
void append_value(std::string& out, double v, std::string_view unit, FormatOptions opt = {});
void append_tex(std::string& out, double v, std::string_view unit, int digits = 4);
void append_tex_number(std::string& out, double v, int digits = 4);

struct ParsedNumber {
  bool ok = false;
  double value = 0;
  std::string error;    // why it could not be read, with an example of what works
  bool scaled = false;  // a prefix or unit name set the scale ("80 GB"); false for "80" or "80B"
};

// Reads "70B", "3.35 TB/s", "80 GB", "80GiB", "50 µs", "2e12", "50%", "1,024", "10 Gb/s",
// interpreting suffixes by the expected unit (for a count, B is billion; for bytes, B is
// bytes). Words are read too: "120 milliseconds", "3 gigabytes", "3.7 zettaFLOPs", "3675
// ZFLOP", "15 percent", "44 H100s" for GPUs. Text that names another kind of unit ("80 GB"
// for a time) is an error.
ParsedNumber parse_value(std::string_view text, std::string_view unit);

// "GPUs", "devices", "chips", "accelerators", "cards" or an accelerator's name ("H100s",
// "A100", "MI300X", "TPUv5p"), in any case: the noun of a count of accelerators ("44 H100s").
// parse_value reads these after a GPU count; the answer checker after a count asked in devices.
bool is_accelerator_noun(std::string_view word);

// Human description of a unit for messages: "bytes", "seconds", "a count".
std::string unit_noun(std::string_view unit);

}  // namespace napkin
