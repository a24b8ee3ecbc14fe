// One GEMM's achieved time from its shape (gemm.hpp says what the model is and where its
// constants come from).
#include "scenario/gemm.hpp"

#include <algorithm>
#include <cmath>

namespace napkin {

namespace {

// Output tiles a cuBLAS-like library chooses between, rows × columns, with the share of the
// largest tile's rate each reaches: smaller tiles reuse each loaded operand less. The library
// picks the smaller tiles when the large ones would leave SMs idle (NVIDIA's guide, §3.2).
struct Tile {
  double m, n, efficiency;
};
constexpr Tile kTiles[] = {{128, 256, 1.0}, {128, 128, 0.95}, {64, 128, 0.85}, {64, 64, 0.70}};

struct Waves {
  double cost = 0;  // seconds at a per-SM rate of 1 FLOP/s: divide by the real rate
  double tiles = 0, waves = 0;
  Tile tile{};
};

// The fastest tile for the shape: whole waves of tiles over the SMs, each tile costing its
// multiply-adds over K + K0.
Waves best_waves(const GemmShape& s, double sms) {
  Waves best;
  for (const Tile& t : kTiles) {
    const double tiles = s.groups * std::ceil(s.m / t.m) * std::ceil(s.n / t.n);
    const double waves = std::ceil(tiles / sms);
    const double cost = waves * 2 * t.m * t.n * (s.k + kGemmTileK0) / t.efficiency;
    if (best.waves == 0 || cost < best.cost) best = {cost, tiles, waves, t};
  }
  return best;
}

}  // namespace

// The reference: a large square GEMM runs at the measured best share of the peak, so the per-SM
// rate is what makes its waves take that time (less the fixed cost).
double gemm_sm_rate(const GemmMachine& g, double in_bytes, double out_bytes) {
  if (g.sms <= 0) return 0;
  const double R = kGemmReference;
  const double t_ref = 2 * R * R * R / (g.best_fraction * g.peak);
  const Waves wr = best_waves(GemmShape{R, R, R, 1, in_bytes, out_bytes}, g.sms);
  return wr.cost / (t_ref - g.launch);
}

GemmTime gemm_time(const GemmShape& s, const GemmMachine& g, double sm_rate) {
  GemmTime r;
  r.flops = 2 * s.groups * s.m * s.n * s.k;
  r.bytes = s.groups * ((s.m * s.k + s.n * s.k) * s.in_bytes + s.m * s.n * s.out_bytes);
  r.memory = r.bytes / (g.bandwidth * g.bandwidth_efficiency);
  if (g.sms > 0 && sm_rate > 0) {
    const Waves w = best_waves(s, g.sms);
    r.compute = w.cost / sm_rate;
    r.tiles = w.tiles;
    r.waves = w.waves;
    r.tile_m = w.tile.m;
    r.tile_n = w.tile.n;
    r.tile_efficiency = w.tile.efficiency;
    r.sm_rate = sm_rate;
  } else {
    // No SM count: the best share of the peak, less the per-tile cost of a short K.
    const double R = kGemmReference;
    const double k_share = (s.k / (s.k + kGemmTileK0)) / (R / (R + kGemmTileK0));
    r.compute = r.flops / (g.best_fraction * g.peak * k_share);
  }
  r.time = std::max(r.compute, r.memory) + g.launch;
  return r;
}

// The same, calibrating the rate here, with the reference's figures for hw.gemm's derivation.
GemmTime gemm_time(const GemmShape& s, const GemmMachine& g) {
  GemmTime r = gemm_time(s, g, gemm_sm_rate(g, s.in_bytes, s.out_bytes));
  if (g.sms > 0) {
    const double R = kGemmReference;
    const Waves wr = best_waves(GemmShape{R, R, R, 1, s.in_bytes, s.out_bytes}, g.sms);
    r.ref_time = 2 * R * R * R / (g.best_fraction * g.peak);
    r.ref_waves = wr.waves;
    r.ref_tile_m = wr.tile.m;
    r.ref_tile_n = wr.tile.n;
    r.ref_tile_efficiency = wr.tile.efficiency;
  }
  return r;
}

}  // namespace napkin
