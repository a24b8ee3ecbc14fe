// The achieved time of one matrix multiply (or one grouped multiply: G independent GEMMs of the
// same N × K, as a mixture of experts runs its experts), from its shape. A GEMM is cut into
// output tiles that the GPU's streaming multiprocessors (SMs) compute in waves; a wave that is
// partly empty costs as much as a full one (wave quantization), and a tile is paid in full even
// when only a few of its rows hold tokens (tile quantization). NVIDIA, "Matrix Multiplication
// Background User's Guide" (DU-09799-001, 2023), §2.3, §3.1–3.2. The time is the slower of that
// compute and streaming the operands through HBM, plus a fixed cost per kernel.
//
// The constants come from fitting published measurements (docs/communication.md, hw.gemm, lists
// them): a tile costs as if its K were 512 longer (its prologue and epilogue), a kernel 3 µs, and
// the per-SM rate is calibrated so that a large square GEMM reaches the accelerator's measured
// best-GEMM share of its peak (S. Bekman's maximum-achievable-matmul table, the catalog's
// matmul_fraction).
#pragma once

namespace napkin {

struct GemmShape {
  double m = 0;          // rows of the activations: tokens (per group)
  double n = 0;          // output features
  double k = 0;          // the reduced dimension
  double groups = 1;     // independent GEMMs of the same n × k (experts), each with m rows
  double in_bytes = 2;   // bytes per element of both operands
  double out_bytes = 2;  // bytes per element of the result
};

struct GemmMachine {
  double peak = 0;                  // dense FLOP/s for the operands' type
  double bandwidth = 0;             // HBM bytes/s
  double sms = 0;                   // streaming multiprocessors (CUs); 0 = no wave model
  double best_fraction = 0;         // measured best large GEMM over the peak
  double bandwidth_efficiency = 0;  // achieved share of HBM when streaming weights
  double launch = 0;                // fixed cost per kernel, seconds
};

struct GemmTime {
  double compute = 0, memory = 0, time = 0;  // seconds
  double tiles = 0, waves = 0;               // 0 when sms = 0
  double tile_m = 0, tile_n = 0;             // the tile that is fastest for this shape
  double tile_efficiency = 0;                // its rate against the largest tile's
  double sm_rate = 0;                        // FLOP/s of one SM, calibrated (0 when sms = 0)
  // The calibration: the reference GEMM's measured time, and its waves of its fastest tile.
  double ref_time = 0, ref_waves = 0, ref_tile_m = 0, ref_tile_n = 0, ref_tile_efficiency = 0;
  double flops = 0, bytes = 0;
};

// The per-tile cost in K units, the fixed cost per kernel, and the square GEMM whose measured
// rate calibrates an accelerator (docs/communication.md, hw.gemm).
inline constexpr double kGemmTileK0 = 512;
inline constexpr double kGemmLaunch = 3e-6;
inline constexpr double kGemmReference = 8192;

GemmTime gemm_time(const GemmShape& s, const GemmMachine& g);

// The per-SM rate that calibration gives (gemm_time's sm_rate), for callers that time many
// shapes on one machine: gemm_time(s, g, rate) skips recomputing it. 0 when sms = 0.
double gemm_sm_rate(const GemmMachine& g, double in_bytes, double out_bytes);
GemmTime gemm_time(const GemmShape& s, const GemmMachine& g, double sm_rate);

}  // namespace napkin
