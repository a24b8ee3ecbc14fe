// An accelerator's datasheet figures as inputs, declared once for every card that reads them
// (the accelerator presets fill both by these names, core/scenario/catalog.cpp).
#pragma once

#include "base/units.hpp"
#include "registry/registry.hpp"

namespace napkin {

// `field`: NAPKIN_FIELD(In, member) (a constant row) or a member pointer.
template <class Field>
constexpr auto peak_flops_input(Field field, const char* label = "Peak FLOP/s per GPU") {
  return num("peak_flops", field, label, unit::flops)
      .help("Dense BF16 tensor-core peak of one accelerator, from its datasheet")
      .positive(1e17);
}

// `max`: the largest bandwidth the card accepts (an HBM figure, or a link's on cards that also
// take link bandwidths).
template <class Field>
constexpr auto hbm_bandwidth_input(Field field, const char* label, double max) {
  return num("mem_bandwidth", field, label, unit::bytes_per_s)
      .help("HBM bandwidth of one accelerator, from its datasheet")
      .positive(max);
}

// One accelerator's memory (HBM, in bytes as vendors mean them: "80 GB" is 80 GiB), the rows
// of every card that sizes replicas or warns about a fit.
template <class Field>
constexpr auto gpu_memory_input(Field field, const char* label = "GPU memory") {
  return num("gpu_memory", field, label, unit::bytes)
      .help("HBM of one accelerator")
      .range(1e8, 1e14);
}

// Shares of peak a serving step's matmuls and memory reads reach (MFU, MBU).
template <class Field>
constexpr auto compute_efficiency_input(Field field) {
  return num("compute_efficiency", field, "Matmul efficiency", unit::fraction)
      .help(
          "Share of peak FLOP/s the matmuls reach (serving engines: about 50 %); 1 = the "
          "roofline's ideal")
      .positive(1);
}
// The same for a serving engine, whose matmuls' rate follows their shapes unless given.
template <class Field>
constexpr auto gemm_share_input(Field field) {
  return num("compute_efficiency", field, "Matmul efficiency (0 = by shape)", unit::fraction)
      .help(
          "Share of peak FLOP/s the matmuls reach; 0 times each step's GEMMs by their shapes "
          "(hw.gemm: small batches and narrow TP slices reach less); 1 = the roofline's ideal")
      .range(0, 1);
}
template <class Field>
constexpr auto bandwidth_efficiency_input(Field field) {
  return num("bandwidth_efficiency", field, "Bandwidth efficiency", unit::fraction)
      .help(
          "Share of HBM bandwidth the memory reads reach (serving engines: about 60 %); 1 = "
          "the roofline's ideal")
      .positive(1);
}

// What NCCL achieves on a network tier (Tier's efficiency and launch, scenario/cluster.hpp):
// the rows of every card that times collectives; the accelerator presets fill them by these
// names (intra_efficiency, inter_efficiency, launch_latency) from the node's tiers.
template <class Field>
constexpr auto link_share_input(const char* name, Field field, const char* label,
                                const char* help) {
  return num(name, field, label, unit::fraction).help(help).range(0.01, 1);
}
template <class Field>
constexpr auto intra_efficiency_input(Field field) {
  return link_share_input("intra_efficiency", field, "Achieved share of the intra-node link",
                          "Bus bandwidth NCCL reaches inside a node ÷ the link's speed "
                          "(nccl-tests: 78 % on A100 NVLink, 82 % on H100); 1 = line rate");
}
template <class Field>
constexpr auto inter_efficiency_input(Field field) {
  return link_share_input("inter_efficiency", field, "Achieved share of the inter-node link",
                          "Bus bandwidth NCCL reaches per NIC ÷ its speed (nccl-tests: 94 % on "
                          "InfiniBand); 1 = line rate");
}
template <class Field>
constexpr auto launch_latency_input(Field field) {
  return num("launch_latency", field, "Launch latency per collective", unit::seconds)
      .help(
          "Fixed time of one collective call (NCCL's Simple protocol: 8.4 µs); 0 = the "
          "textbook α–β model, with no low-latency protocol either")
      .range(0, 1);
}

// Measured shares of peak that a training step's kernels are timed against (kernel_rates,
// scenario/cluster.hpp); the accelerator presets fill both.
template <class Field>
constexpr auto matmul_fraction_input(Field field) {
  return num("matmul_fraction", field, "Best GEMM / peak", unit::fraction)
      .help("Share of peak the GPU's best large GEMM measures (MAMF, Bekman)")
      .positive(1);
}
template <class Field>
constexpr auto matmul_fraction_fp8_input(Field field) {
  return num("matmul_fraction_fp8", field, "Best FP8 GEMM / FP8 peak", unit::fraction)
      .help("Share of the FP8 peak the GPU's best large FP8 GEMM measures (MAMF, Bekman)")
      .positive(1);
}
template <class Field>
constexpr auto sms_input(Field field) {
  return num("sms", field, "Streaming multiprocessors (SMs, CUs)", unit::none)
      .help(
          "The SMs a GEMM's tiles are spread over (H100 SXM 132, A100 108, B200 148, MI300X "
          "304 CUs); 0 skips the wave model")
      .range(0, 10000)
      .integer();
}
template <class Field>
constexpr auto attention_fraction_input(Field field) {
  return num("attention_fraction", field, "Fused attention / peak", unit::fraction)
      .help("Share of peak FlashAttention-2 measures; 0: as the GEMMs")
      .range(0, 1);
}

}  // namespace napkin
