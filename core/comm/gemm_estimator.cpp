// hw.gemm: the achieved rate of one matrix multiply from its shape, where hw.roofline gives the
// ideal. The model is core/scenario/gemm.hpp's, the one function every estimator is to call for
// a GEMM's rate; this card shows its steps and is checked against published kernel timings
// (docs/communication.md, hw.gemm; tests/validation/measurements.csv, rows gemm-*).
#include <algorithm>
#include <cmath>

#include "base/units.hpp"
#include "registry/registry.hpp"
#include "root/areas.hpp"
#include "scenario/accelerator_inputs.hpp"
#include "scenario/cluster.hpp"
#include "scenario/gemm.hpp"
#include "scenario/gpu_figures.hpp"

namespace napkin {

namespace {

struct GemmIn {
  // Llama 3 8B's MLP up-projection over a 4,096-token microbatch: 4,096 × 14,336 × 4,096.
  double m = 4096, n = 14336, k = 4096, groups = 1;
  double in_bytes = 2, out_bytes = 2;
  double peak_flops = figures::h100_bf16;
  double mem_bandwidth = figures::h100_hbm_bandwidth;
  double sms = 132;  // H100 SXM
  double matmul_fraction = kH100MatmulFraction;
  // Weight-streaming GEMMs (decode) on H100 with cuBLAS: 2.87–3.07 TB/s of 3.35 (vLLM PR
  // #49363's bench_fp8_gemm.py, torch-bf16 column, M = 1).
  double bandwidth_efficiency = 0.85;
  double kernel_launch = kGemmLaunch;
};

struct GemmOut {
  double time, achieved_flops, fraction_of_peak, compute_time, memory_time, tiles, waves, flops,
      bytes;
  std::string bound;
};

Result<GemmOut> hw_gemm(const GemmIn& in, Derivation& d) {
  const GemmShape s{in.m, in.n, in.k, in.groups, in.in_bytes, in.out_bytes};
  const GemmMachine g{in.peak_flops,      in.mem_bandwidth,        in.sms,
                      in.matmul_fraction, in.bandwidth_efficiency, in.kernel_launch};
  const GemmTime t = gemm_time(s, g);
  GemmOut o{};
  o.flops = t.flops;
  o.bytes = t.bytes;
  o.compute_time = t.compute;
  o.memory_time = t.memory;
  o.time = t.time;
  o.achieved_flops = t.flops / t.time;
  o.fraction_of_peak = o.achieved_flops / in.peak_flops;
  o.bound = t.compute >= t.memory ? "compute" : "memory";
  d.step("Arithmetic", "W", "2 \\cdot $G \\cdot $m \\cdot $n \\cdot $k",
         {{"G", "G", in.groups}, {"m", "m", in.m}, {"n", "n", in.n}, {"k", "k", in.k}}, t.flops,
         unit::flop);
  if (in.sms > 0) {
    o.tiles = t.tiles;
    o.waves = t.waves;
    d.note("Tile",
           "The fastest output tile for this shape is " + format_value(t.tile_m, "") + " × " +
               format_value(t.tile_n, "") + " (" + format_value(t.tile_efficiency, "frac") +
               " of the largest tile's rate). A tile is paid in full even where its rows hold "
               "fewer tokens (NVIDIA, Matrix Multiplication Background User's Guide, §3.1).");
    d.step("Output tiles", "N_{\\text{tiles}}",
           "$G \\cdot \\left\\lceil \\frac{$m}{$a} \\right\\rceil \\cdot \\left\\lceil "
           "\\frac{$n}{$b} \\right\\rceil",
           {{"G", "G", in.groups},
            {"m", "m", in.m},
            {"a", "t_m", t.tile_m},
            {"n", "n", in.n},
            {"b", "t_n", t.tile_n}},
           t.tiles, unit::none);
    d.step("Waves over the SMs (a partly empty wave costs a full one)", "N_{\\text{waves}}",
           "\\left\\lceil \\frac{$t}{$S} \\right\\rceil",
           {{"t", "N_{\\text{tiles}}", t.tiles}, {"S", "S", in.sms}}, t.waves, unit::none);
    d.step("Calibration: an 8192³ GEMM at the measured best share of the peak takes",
           "T_{\\text{ref}}", "\\frac{2 \\cdot 8192^3}{$f \\cdot $P}",
           {{"f", "f_{\\text{GEMM}}", in.matmul_fraction, unit::fraction},
            {"P", "F_{\\text{peak}}", in.peak_flops, unit::flops}},
           t.ref_time, unit::seconds);
    d.step("Rate of one SM: the reference's waves of tiles in that time, less the fixed cost",
           "r_{\\text{SM}}",
           "\\frac{$w \\cdot 2 \\cdot $a \\cdot $b \\cdot (8192 + 512)}{$e \\cdot ($T - $L)}",
           {{"w", "N_{\\text{waves,ref}}", t.ref_waves},
            {"a", "t_m", t.ref_tile_m},
            {"b", "t_n", t.ref_tile_n},
            {"e", "e_{\\text{tile}}", t.ref_tile_efficiency, unit::fraction},
            {"T", "T_{\\text{ref}}", t.ref_time, unit::seconds},
            {"L", "t_0", in.kernel_launch, unit::seconds}},
           t.sm_rate, unit::flops);
    d.step(
        "Compute: every wave costs one tile's multiply-adds over k + 512 (the tile's "
        "prologue and epilogue)",
        "T_{\\text{comp}}",
        "\\frac{$w \\cdot 2 \\cdot $a \\cdot $b \\cdot ($k + 512)}{$e \\cdot $r}",
        {{"w", "N_{\\text{waves}}", t.waves},
         {"a", "t_m", t.tile_m},
         {"b", "t_n", t.tile_n},
         {"k", "k", in.k},
         {"e", "e_{\\text{tile}}", t.tile_efficiency, unit::fraction},
         {"r", "r_{\\text{SM}}", t.sm_rate, unit::flops}},
        t.compute, unit::seconds);
  } else {
    o.tiles = o.waves = not_given;
    d.step(
        "Compute, without an SM count: the best share of the peak, less a short k's per-tile "
        "cost",
        "T_{\\text{comp}}",
        "\\frac{$W}{$f \\cdot $P} \\cdot \\frac{($k + 512) / $k}{(8192 + 512) / 8192}",
        {{"W", "W", t.flops, unit::flop},
         {"f", "f_{\\text{GEMM}}", in.matmul_fraction, unit::fraction},
         {"P", "F_{\\text{peak}}", in.peak_flops, unit::flops},
         {"k", "k", in.k}},
        t.compute, unit::seconds);
  }
  d.step(
      "Bytes: both operands read once, the result written once", "Q",
      "$G \\cdot \\left(($m \\cdot $k + $n \\cdot $k) \\cdot $a + $m \\cdot $n \\cdot $c\\right)",
      {{"G", "G", in.groups},
       {"m", "m", in.m},
       {"k", "k", in.k},
       {"n", "n", in.n},
       {"a", "b_{\\text{in}}", in.in_bytes, unit::bytes},
       {"c", "b_{\\text{out}}", in.out_bytes, unit::bytes}},
      t.bytes, unit::bytes);
  d.step("Memory: streaming them at the achieved share of HBM", "T_{\\text{mem}}",
         "\\frac{$Q}{$B \\cdot $e}",
         {{"Q", "Q", t.bytes, unit::bytes},
          {"B", "BW_{\\text{mem}}", in.mem_bandwidth, unit::bytes_per_s},
          {"e", "\\eta_{\\text{mem}}", in.bandwidth_efficiency, unit::fraction}},
         t.memory, unit::seconds);
  d.step("Time: the slower of compute and memory, plus the kernel's fixed cost", "T",
         "\\max\\left($C, $M\\right) + $L",
         {{"C", "T_{\\text{comp}}", t.compute, unit::seconds},
          {"M", "T_{\\text{mem}}", t.memory, unit::seconds},
          {"L", "t_0", in.kernel_launch, unit::seconds}},
         t.time, unit::seconds);
  d.step("Achieved rate", "F", "\\frac{$W}{$T}",
         {{"W", "W", t.flops, unit::flop}, {"T", "T", t.time, unit::seconds}}, o.achieved_flops,
         unit::flops);
  d.step("Share of the peak", "u", "\\frac{$F}{$P}",
         {{"F", "F", o.achieved_flops, unit::flops},
          {"P", "F_{\\text{peak}}", in.peak_flops, unit::flops}},
         o.fraction_of_peak, unit::fraction);
  return o;
}

}  // namespace

void register_gemm(Registry& r) {
  using In = GemmIn;
  using Out = GemmOut;
  r.add(declare<hw_gemm>(
      {"hw.gemm", "Achieved GEMM rate from its shape", "comm",
       "The time and achieved FLOP/s of one matrix multiply (or one grouped multiply, as a "
       "mixture of experts runs its experts) from its shape: whole waves of output tiles over "
       "the SMs, or streaming the operands, whichever is slower.",
       "NVIDIA, Matrix Multiplication Background User's Guide (2023), §2.3, §3.1–3.2; S. Bekman, "
       "Machine Learning Engineering, maximum achievable matmul FLOPS table",
       "docs/communication.md#hwgemm"},
      {num("m", NAPKIN_FIELD(In, m), "Rows m (tokens)", unit::tokens)
           .help("Rows of the activation operand: the tokens the GEMM processes (per expert for "
                 "a grouped GEMM)")
           .positive(1e9)
           .integer(),
       num("n", NAPKIN_FIELD(In, n), "Output features n")
           .help("Columns of the weight: the GEMM's output width (per GPU under tensor "
                 "parallelism)")
           .positive(1e9)
           .integer(),
       num("k", NAPKIN_FIELD(In, k), "Reduced dimension k")
           .help("The inner dimension both operands share: the input width")
           .positive(1e9)
           .integer(),
       num("groups", NAPKIN_FIELD(In, groups), "Groups (experts)")
           .help("Independent GEMMs of the same n × k, each with m rows: the experts one GPU runs "
                 "in a grouped GEMM (1 for a plain GEMM)")
           .positive(1e6)
           .integer(),
       num("in_bytes", NAPKIN_FIELD(In, in_bytes), "Bytes per operand element", unit::bytes)
           .help("2 for BF16 or FP16, 1 for FP8 or INT8 (set the peak to that type's)")
           .positive(8),
       num("out_bytes", NAPKIN_FIELD(In, out_bytes), "Bytes per result element", unit::bytes)
           .help("2 for a BF16 result, 4 for FP32")
           .positive(8),
       peak_flops_input(NAPKIN_FIELD(In, peak_flops), "Peak FLOP/s of the operand type"),
       hbm_bandwidth_input(NAPKIN_FIELD(In, mem_bandwidth), "Memory bandwidth", 1e14),
       sms_input(NAPKIN_FIELD(In, sms)), matmul_fraction_input(NAPKIN_FIELD(In, matmul_fraction)),
       num("bandwidth_efficiency", NAPKIN_FIELD(In, bandwidth_efficiency),
           "Achieved share of HBM bandwidth", unit::fraction)
           .help(
               "What a GEMM that streams its weights reaches: 0.85 on H100 with cuBLAS (2.87–3.07 "
               "of 3.35 TB/s, vLLM's GEMM benchmarks)")
           .above(0)
           .max(1),
       num("kernel_launch", NAPKIN_FIELD(In, kernel_launch), "Fixed cost per kernel", unit::seconds)
           .help("The ramp and tail every kernel pays, whatever its size: 3 µs fits published "
                 "timings")
           .range(0, 1e-2)},
      {out("time", NAPKIN_FIELD(Out, time), "Time", unit::seconds)
           .help("The GEMM's time: the slower of compute and memory, plus the fixed cost"),
       out("achieved_flops", NAPKIN_FIELD(Out, achieved_flops), "Achieved FLOP/s", unit::flops)
           .help("Its FLOPs over its time"),
       out("fraction_of_peak", NAPKIN_FIELD(Out, fraction_of_peak), "Share of the peak",
           unit::fraction)
           .help("Achieved ÷ peak: what an MFU counts for this GEMM"),
       out("bound", NAPKIN_FIELD(Out, bound), "Bound")
           .help("Compute-bound (whole waves of tiles) or memory-bound (streaming the operands)"),
       out("compute_time", NAPKIN_FIELD(Out, compute_time), "Compute time", unit::seconds)
           .help("Waves of tiles at the calibrated SM rate"),
       out("memory_time", NAPKIN_FIELD(Out, memory_time), "Memory time", unit::seconds)
           .help("Operands and result over the achieved HBM bandwidth"),
       out("tiles", NAPKIN_FIELD(Out, tiles), "Output tiles", unit::none)
           .optional()
           .help("Tiles of the fastest tile size; absent without an SM count"),
       out("waves", NAPKIN_FIELD(Out, waves), "Waves", unit::none)
           .optional()
           .help("Rounds of tiles over the SMs; absent without an SM count"),
       out("flops", NAPKIN_FIELD(Out, flops), "FLOPs", unit::flop).help("2 · G · m · n · k"),
       out("bytes", NAPKIN_FIELD(Out, bytes), "Bytes moved", unit::bytes)
           .help("Both operands read once and the result written once")}));
}

}  // namespace napkin
