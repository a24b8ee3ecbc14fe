// Accelerators and network tiers from vendor sheets. Peaks are dense (no 2:4 sparsity);
// capacities are what the vendor's "80 GB" means: 80 GiB of HBM (nvidia-smi shows 81,920 MiB).
#include "scenario/cluster.hpp"

#include "scenario/gpu_figures.hpp"

namespace napkin {

namespace {
constexpr double GiB = 1073741824.0;
constexpr double T = 1e12;

// The last two figures of an entry are measured shares of the BF16 peak. matmul_fraction: the
// best large BF16 GEMM, mean of 100 runs after 50 warm-up, over the catalog's peak (S. Bekman,
// "Machine Learning Engineering", compute/accelerator/README.md, "Maximum Achievable Matmul
// FLOPS comparison table", BF16, commit 744d01e): A100 SXM 271.2, H100 SXM 794.5 ("H200 is the
// same"), B200 1,745, GB200 1,822, MI300X 668.4 TFLOP/s. attention_fraction: FlashAttention-2's
// utilization on H100, 35 % (Shah et al. 2024, FlashAttention-3, abstract; Dao 2023,
// FlashAttention-2, §4.1: "up to 335 TFLOPs/s" forward + backward, 34 %). 0: not published.
// The figure after them is the count of streaming multiprocessors (compute units on AMD) that GEMM
// tiles spread over (core/scenario/gemm.hpp): NVIDIA's V100, A100 (108), H100 (132 SXM5, 114
// PCIe) and Ada (RTX 4090 128, L4 58) whitepapers; B200 148 (NVIDIA Blackwell tuning guide;
// GB200's GPU taken as the same); AMD CDNA 3 whitepaper, MI300X 304 CUs. TPUs: 0, not modelled.
// Board power (the last figure): each datasheet's maximum (TDP): V100 SXM2 300 W, A100 SXM 400 W,
// H100 and H200 SXM 700 W, H100 PCIe 350 W, HGX B200 1,000 W, MI300X 750 W, L4 72 W, RTX 4090
// 450 W; none for GB200 (one figure per Grace + 2 GPUs) or TPUs (Google publishes none).
// The figure before it, where given: the best large FP8 GEMM over the FP8 peak, from the same
// table's FP8 column (H100 SXM 1,402.6 of 1,978.9 TFLOP/s; H200 the same); elsewhere the BF16
// share.
const Gpu kGpus[] = {
    {"v100", "NVIDIA V100 SXM2 32GB",
     "NVIDIA V100 datasheet: 15.7 TF FP32, 125 TF FP16 tensor core (no BF16: its FP16 path is "
     "listed as BF16 here), 32 GB HBM2, 900 GB/s",
     15.7 * T, 0, 125 * T, 0, 0, 0, 32 * GiB, 900e9, 0, 0, 0, 80, 0, 300},
    {"a100", "NVIDIA A100 SXM 80GB",
     "NVIDIA A100 Tensor Core GPU datasheet (2021): 19.5 TF FP32, 156 TF TF32, 312 TF BF16, "
     "624 TOPS INT8 dense; 80 GB HBM2e, 2,039 GB/s",
     19.5 * T, 156 * T, figures::a100_bf16, 0, 624 * T, 0, figures::a100_memory,
     figures::a100_hbm_bandwidth, 0, kA100MatmulFraction, 0, 108, 0, 400},
    {"a100-40gb", "NVIDIA A100 SXM 40GB", "NVIDIA A100 datasheet: 40 GB HBM2, 1,555 GB/s", 19.5 * T,
     156 * T, 312 * T, 0, 624 * T, 0, 40 * GiB, 1.555e12, 0, kA100MatmulFraction, 0, 108, 0, 400},
    {"h100", "NVIDIA H100 SXM 80GB",
     "NVIDIA H100 Tensor Core GPU datasheet: 67 TF FP32, 494.7 TF TF32, 989.4 TF BF16, 1,978.9 "
     "TF FP8 and TOPS INT8 dense; 80 GB HBM3, 3.35 TB/s",
     67 * T, 494.7 * T, figures::h100_bf16, figures::h100_fp8, figures::h100_fp8, 0,
     figures::h100_memory, figures::h100_hbm_bandwidth, 0, kH100MatmulFraction,
     kH100AttentionFraction, 132, kH100Fp8MatmulFraction, 700},
    {"h100-pcie", "NVIDIA H100 PCIe 80GB",
     "NVIDIA H100 datasheet (PCIe): 51 TF FP32, 378 TF TF32, 756 TF BF16, 1,513 TF FP8 dense; "
     "80 GB HBM2e, 2.0 TB/s",
     51 * T, 378 * T, 756 * T, 1513 * T, 1513 * T, 0, 80 * GiB, 2.0e12, 0, 0, 0, 114, 0, 350},
    {"h200", "NVIDIA H200 SXM 141GB",
     "NVIDIA H200 datasheet: H100's compute; 141 GB HBM3e, 4.8 TB/s", 67 * T, 494.7 * T, 989.4 * T,
     1978.9 * T, 1978.9 * T, 0, 141 * GiB, 4.8e12, 0, kH100MatmulFraction, kH100AttentionFraction,
     132, kH100Fp8MatmulFraction, 700},
    {"b200", "NVIDIA B200 (HGX)",
     "NVIDIA HGX B200 specifications (per GPU, dense = half the sparse figures): 2.25 PF "
     "BF16, 4.5 PF FP8, 9 PF FP4; 180 GB HBM3e, 7.7 TB/s",
     75 * T, 1125 * T, 2250 * T, 4500 * T, 4500 * T, 9000 * T, 180 * GiB, 7.7e12, 0, 1745.0 / 2250,
     0, 148, 0, 1000},
    {"gb200", "NVIDIA GB200 NVL72 (per GPU)",
     "NVIDIA GB200 NVL72 specifications (per GPU, dense): 2.5 PF BF16, 5 PF FP8, 10 PF FP4; "
     "186 GB HBM3e, 8 TB/s; 480 GB LPDDR5X per Grace shared by 2 GPUs",
     80 * T, 1250 * T, 2500 * T, 5000 * T, 5000 * T, 10000 * T, 186 * GiB, 8e12, 240 * GiB,
     1822.0 / 2500, 0, 148},
    {"mi300x", "AMD Instinct MI300X",
     "AMD Instinct MI300X datasheet: 163.4 TF FP32, 653.7 TF TF32, 1,307.4 TF BF16, 2,614.9 TF "
     "FP8 and TOPS INT8 dense; 192 GB HBM3, 5.3 TB/s",
     163.4 * T, 653.7 * T, 1307.4 * T, 2614.9 * T, 2614.9 * T, 0, 192 * GiB, 5.3e12, 0,
     668.4 / 1307.4, 0, 304, 0, 750},
    {"tpu-v4", "Google TPU v4",
     "Google Cloud TPU v4 documentation: 275 TF BF16/INT8; 32 GiB HBM2, 1,200 GB/s", 0, 0, 275 * T,
     0, 275 * T, 0, 32 * GiB, 1.2e12, 0, 0, 0, 0},
    {"tpu-v5e", "Google TPU v5e",
     "Google Cloud TPU v5e documentation: 197 TF BF16, 394 TOPS INT8; 16 GB HBM2, 819 GB/s", 0, 0,
     197 * T, 0, 394 * T, 0, 16 * GiB, 819e9, 0, 0, 0, 0},
    {"tpu-v5p", "Google TPU v5p",
     "Google Cloud TPU v5p documentation: 459 TF BF16, 918 TOPS INT8; 95 GB HBM2e, 2,765 GB/s", 0,
     0, 459 * T, 0, 918 * T, 0, 95 * GiB, 2.765e12, 0, 0, 0, 0},
    {"l4", "NVIDIA L4",
     "NVIDIA L4 datasheet (dense = half the sparse figures): 30.3 TF FP32, 60 TF TF32, 121 TF "
     "BF16, 242.5 TF FP8 and TOPS INT8; 24 GB GDDR6, 300 GB/s",
     30.3 * T, 60 * T, 121 * T, 242.5 * T, 242.5 * T, 0, 24 * GiB, 300e9, 0, 0, 0, 58, 0, 72},
    {"rtx4090", "NVIDIA GeForce RTX 4090",
     "NVIDIA Ada Lovelace architecture whitepaper, Table 2 (dense, FP32 accumulate): 82.6 TF FP32, "
     "82.6 TF TF32, 165.2 TF BF16, 330.3 TF FP8, 660.6 TOPS INT8; 24 GB GDDR6X, 1,008 GB/s",
     82.6 * T, 82.6 * T, 165.2 * T, 330.3 * T, 660.6 * T, 0, 24 * GiB, 1.008e12, 0, 0, 0, 128, 0,
     450},
};

// One direction per GPU. Vendors quote NVLink bidirectionally ("900 GB/s"): halved here.
// Latencies are per step of a collective, order-of-magnitude figures (NCCL tests on such
// systems); vendors do not publish them.
//
// The last three figures are what NCCL achieves on each (tests/validation/measurements.csv holds
// the measurements): the ring's bus bandwidth on large messages as a share of the link; an
// in-switch (NVLS) all-reduce's algorithm bandwidth as a share of the link; the Simple protocol's
// base latency per call, 8.4 µs (NVIDIA/nccl src/graph/tuning.cc). NVLink 4 ring: 370 of 450 GB/s
// busbw on 8 H100 (NVIDIA/nccl-tests issue #212, a maintainer's figures); NVLS: 480 GB/s busbw on
// 8 H100 = 274 GB/s of algorithm bandwidth, 0.61 of 450 (same; 481 GB/s at 16 GiB on 8 H200,
// S. Bekman, "Machine Learning Engineering", network/benchmarks); NVLink 3: 235 of 300 GB/s on
// 4 A100 at 8 GiB; NVLink 5 NVLS: 839 GB/s busbw on 8 B200 (Bekman, same table) = 0.53; xGMI: 316
// of 448 GB/s on 8 MI300X at 8 GiB (RCCL tests); InfiniBand: 46–48 of 50 GB/s per NDR NIC
// (nccl-tests issue #290, a maintainer's figures), 0.94 for every IB generation. Links without
// a published figure take the nearest measured one's share, and say so.
constexpr double kNcclLaunch = figures::nccl_launch;
const Tier kTiers[] = {
    {"nvlink2", "NVLink 2 + NVSwitch (V100): 150 GB/s",
     "NVIDIA V100 datasheet: 300 GB/s total; achieved share as NVLink 3's (assumed)", 150e9, 3e-6,
     false, figures::nvlink3_ring_share, 1, kNcclLaunch},
    {"ib-edr", "InfiniBand EDR 100 Gb/s: 12.5 GB/s",
     "NVIDIA ConnectX-5: 100 Gb/s per port; 94 % achieved as NDR's (assumed)", 12.5e9, 5e-6, false,
     figures::nic_share, 1, kNcclLaunch},
    {"nvlink3", "NVLink 3 + NVSwitch (A100): 300 GB/s",
     "NVIDIA A100 datasheet: 600 GB/s total; nccl-tests on 4 A100: 235 GB/s busbw (78 %)", 300e9,
     3e-6, false, figures::nvlink3_ring_share, 1, kNcclLaunch},
    {"nvlink4", "NVLink 4 + NVSwitch (H100): 450 GB/s, NVLS",
     "NVIDIA H100 datasheet: 900 GB/s total; third-generation NVSwitch reduces in the switch "
     "(NVLink SHARP). nccl-tests on 8 H100: ring 370 GB/s busbw (82 %), NVLS 480 GB/s busbw",
     450e9, 3e-6, true, figures::nvlink4_ring_share, figures::nvlink4_nvls_share, kNcclLaunch},
    {"nvlink5", "NVLink 5 + NVSwitch (B200/GB200): 900 GB/s, NVLS",
     "NVIDIA HGX B200 / GB200 NVL72: 1.8 TB/s total per GPU; nccl-tests on 8 B200: 839 GB/s busbw "
     "(NVLS); ring share as NVLink 4's (assumed)",
     900e9, 3e-6, true, figures::nvlink4_ring_share, 839.0 / 1.75 / 900, kNcclLaunch},
    {"xgmi", "AMD Infinity Fabric (MI300X): 448 GB/s",
     "AMD MI300X datasheet: 896 GB/s peak aggregate per GPU (7 links); RCCL tests on 8 MI300X: "
     "316 GB/s busbw (71 %)",
     448e9, 4e-6, false, 316.0 / 448, 1, kNcclLaunch},
    {"ici-v4", "TPU v4 ICI: 6 × 50 GB/s",
     "Jouppi et al. 2023 (TPU v4), §2: six 50 GB/s ICI links per chip; achieved share as NVLink "
     "4's (assumed)",
     300e9, 2e-6, false, figures::nvlink4_ring_share, 1, kNcclLaunch},
    {"ib-hdr", "InfiniBand HDR 200 Gb/s: 25 GB/s",
     "NVIDIA ConnectX-6 / Quantum: 200 Gb/s per port; 94 % achieved as NDR's", 25e9, 5e-6, false,
     figures::nic_share, 1, kNcclLaunch},
    {"ib-ndr", "InfiniBand NDR 400 Gb/s: 50 GB/s",
     "NVIDIA ConnectX-7 / Quantum-2: 400 Gb/s per port, one per GPU; nccl-tests: 46–48 GB/s per "
     "NIC (94 %)",
     50e9, 5e-6, false, figures::nic_share, 1, kNcclLaunch},
    {"ib-xdr", "InfiniBand XDR 800 Gb/s: 100 GB/s",
     "NVIDIA ConnectX-8 / Quantum-X800: 800 Gb/s per port; 94 % achieved as NDR's (assumed)", 100e9,
     5e-6, false, figures::nic_share, 1, kNcclLaunch},
    {"roce400", "RoCE 400 GbE: 50 GB/s",
     "IEEE 802.3 400 Gb/s Ethernet, one NIC per GPU; 94 % achieved as InfiniBand NDR's (assumed)",
     50e9, 8e-6, false, figures::nic_share, 1, kNcclLaunch},
    {"pcie5", "PCIe Gen5 x16 (H100 PCIe): 64 GB/s",
     "PCI-SIG: 32 GT/s × 16 lanes ≈ 63 GB/s per direction; NCCL's PCI step latency 5.7 µs "
     "(NVIDIA/nccl src/graph/tuning.cc); achieved share as NVLink 3's (assumed)",
     64e9, 5.7e-6, false, figures::nvlink3_ring_share, 1, kNcclLaunch},
    {"eth100", "100 GbE: 12.5 GB/s",
     "IEEE 802.3 100 Gb/s Ethernet; 94 % achieved as InfiniBand's (assumed)", 12.5e9, 10e-6, false,
     figures::nic_share, 1, kNcclLaunch},
};

const Tier& tier(std::string_view id) {
  for (const Tier& t : kTiers)
    if (t.id == id) return t;
  return kTiers[0];
}

const Cluster kClusters[] = {
    {kGpus[0], 8, tier("nvlink2"), tier("ib-edr")},  // DGX-2 class V100 nodes
    {kGpus[1], 8, tier("nvlink3"), tier("ib-hdr")},  // DGX A100: 8 × HDR
    {kGpus[2], 8, tier("nvlink3"), tier("ib-hdr")},
    {kGpus[3], 8, tier("nvlink4"), tier("ib-ndr")},  // DGX H100: 8 × NDR
    {kGpus[4], 8, tier("pcie5"), tier("ib-ndr")},  // H100 PCIe: no NVSwitch (bridges pair at most)
    {kGpus[5], 8, tier("nvlink4"), tier("ib-ndr")},
    // DGX B200: 8 × ConnectX-7 single-port cards, up to 400 Gb/s each (NVIDIA DGX B200 User
    // Guide, "Introduction": Network (Cluster) card). GB200 NVL72 compute trays carry ConnectX-7
    // too (NVIDIA Multi-Node NVLink Systems tuning guide, "Understanding Your Grace-Blackwell
    // Systems"), one per GPU; 800 Gb/s ConnectX-8 arrives with B300/GB300 (ib-xdr).
    {kGpus[6], 8, tier("nvlink5"), tier("ib-ndr")},
    {kGpus[7], 72, tier("nvlink5"), tier("ib-ndr")},  // one NVLink domain of 72 GPUs
    {kGpus[8], 8, tier("xgmi"), tier("roce400")},
    {kGpus[9], 4096, tier("ici-v4"), tier("eth100")},  // a v4 pod is one ICI torus
    {kGpus[10], 256, tier("ici-v4"), tier("eth100")},
    {kGpus[11], 8960, tier("ici-v4"), tier("eth100")},
    {kGpus[12], 8, tier("eth100"), tier("eth100")},
    {kGpus[13], 8, tier("eth100"), tier("eth100")},
};
}  // namespace

double dtype_bytes(Dtype t) {
  switch (t) {
    case Dtype::Fp32:
    case Dtype::Tf32: return 4;
    case Dtype::Bf16:
    case Dtype::Fp16: return 2;
    case Dtype::Fp8:
    case Dtype::Int8: return 1;
    case Dtype::Int4:
    case Dtype::Fp4: return 0.5;
  }
  return 2;
}

// Lin et al. 2024 (AWQ) §3 and Frantar et al. 2023 (GPTQ) §5: an FP16 scale per group of
// weights (128 by default); the zero point, packed in 4 bits beside it, is left out.
double quantized_bytes_per_param(Dtype t, double group_size) {
  return dtype_bytes(t) + (group_size > 0 ? 2 / group_size : 0);
}

double peak_flops(const Gpu& g, Dtype math) {
  switch (math) {
    case Dtype::Fp32: return g.peak_fp32;
    case Dtype::Tf32: return g.peak_tf32;
    case Dtype::Bf16:
    case Dtype::Fp16: return g.peak_bf16;
    case Dtype::Fp8: return g.peak_fp8;
    case Dtype::Int8: return g.peak_int8;
    case Dtype::Int4: return g.peak_int8;  // no 4-bit integer path: int8 kernels dequantize
    case Dtype::Fp4: return g.peak_fp4;
  }
  return g.peak_bf16;
}

KernelRates kernel_rates(const Gpu& g, Dtype math, double efficiency) {
  const double peak = peak_flops(g, math) * efficiency;
  const double gemm = peak * (g.matmul_fraction > 0 ? g.matmul_fraction : kA100MatmulFraction);
  return {gemm, g.attention_fraction > 0 ? peak * g.attention_fraction : gemm};
}

const Gpu* find_gpu(std::string_view id) {
  for (const Gpu& g : kGpus)
    if (g.id == id) return &g;
  return nullptr;
}
const Tier* find_tier(std::string_view id) {
  for (const Tier& t : kTiers)
    if (t.id == id) return &t;
  return nullptr;
}
const Cluster* find_cluster(std::string_view id) {
  for (const Cluster& c : kClusters)
    if (c.gpu.id == id) return &c;
  return nullptr;
}

const Gpu* gpus_begin() {
  return kGpus;
}
const Gpu* gpus_end() {
  return kGpus + sizeof kGpus / sizeof kGpus[0];
}
const Tier* tiers_begin() {
  return kTiers;
}
const Tier* tiers_end() {
  return kTiers + sizeof kTiers / sizeof kTiers[0];
}

}  // namespace napkin
