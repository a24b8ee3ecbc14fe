// The shared collective-time function (core/scenario/collective.hpp): NCCL's bus-bandwidth
// factors, the tree for latency-bound sizes, in-switch reduction, and the node hierarchy.
#include <doctest/doctest.h>

#include "scenario/collective.hpp"

using namespace napkin;

namespace {
// NVLink 4 through third-generation NVSwitch (H100 SXM): 450 GB/s per direction per GPU,
// NVLink SHARP; ~3 µs per dependent NCCL step (nccl-tests small-message all-reduce on DGX H100
// rings: 8 GPUs, 14 steps, ~40 µs). InfiniBand NDR: 50 GB/s per GPU, ~5 µs.
const Tier kNvswitch{"nvswitch-h100", "NVLink 4", "NVIDIA H100 datasheet", 450e9, 3e-6, true};
const Tier kNdr{"ndr", "InfiniBand NDR", "NVIDIA ConnectX-7", 50e9, 5e-6, false};
}  // namespace

TEST_CASE("collective_time: ring bytes are nccl-tests' bus-bandwidth factors") {
  // NVIDIA/nccl-tests doc/PERFORMANCE.md: all-reduce 2(n−1)/n, all-gather, reduce-scatter and
  // all-to-all (n−1)/n, broadcast 1.
  const Tier t{"t", "t", "", 100e9, 0, false};
  CHECK(collective_time(Collective::AllReduce, 1e9, 8, t, Algorithm::Ring).bytes_per_rank ==
        doctest::Approx(1.75e9));
  CHECK(collective_time(Collective::AllGather, 1e9, 8, t).bytes_per_rank ==
        doctest::Approx(0.875e9));
  CHECK(collective_time(Collective::ReduceScatter, 1e9, 4, t).time == doctest::Approx(7.5e-3));
  CHECK(collective_time(Collective::AllToAll, 1e9, 2, t).bytes_per_rank == doctest::Approx(5e8));
  CHECK(collective_time(Collective::AllReduce, 1e9, 1, t).time == 0);
  CHECK(collective_time(Collective::AllReduce, 1e9, 8, t, Algorithm::Ring).steps == 14);
}

TEST_CASE("collective_time: a 32 KB all-reduce on 8 NVSwitch H100s costs ~10 µs, not 40") {
  // Ring: 14 dependent steps ≈ 42 µs. NVLS (NVLink SHARP) reduces in the switch in a push and a
  // pull, so latency stays constant in N and bytes fall to ~1× (NVIDIA, third-generation
  // NVSwitch: all-reduce bus bandwidth up ~2× with NVLS).
  const auto ring = collective_time(Collective::AllReduce, 32e3, 8, kNvswitch, Algorithm::Ring);
  CHECK(ring.time == doctest::Approx(42e-6).epsilon(0.02));
  const auto best = collective_time(Collective::AllReduce, 32e3, 8, kNvswitch);
  CHECK(best.used == Algorithm::InSwitch);
  CHECK(best.time > 5e-6);
  CHECK(best.time < 12e-6);
  // Large buffers: NVLS moves 1× instead of 1.75×.
  const auto big = collective_time(Collective::AllReduce, 1e9, 8, kNvswitch);
  CHECK(big.bytes_per_rank == doctest::Approx(1e9));
}

TEST_CASE(
    "collective_time: the tree wins latency-bound all-reduces, the ring small bandwidth-bound "
    "ones") {
  const auto tree = collective_time(Collective::AllReduce, 1e3, 512, kNdr);
  CHECK(tree.used == Algorithm::Tree);
  CHECK(tree.steps == 18);  // 2·log2(512)
  const auto bw = collective_time(Collective::AllReduce, 1e10, 8, kNdr);
  CHECK(bw.used == Algorithm::Ring);
}

TEST_CASE("hierarchical_time: reduce-scatter in the node, all-reduce across, all-gather in") {
  const Cluster c{{}, 8, kNvswitch, kNdr};
  // Two nodes: NVLS tree. Across them a 1 GB shard; each tree is one edge, so each NIC carries
  // it once: 1 GB / 50 GB/s = 20 ms. In the node an in-switch reduce-scatter and all-gather,
  // 2 × 7/8 × 8 GB / 450 GB/s = 31 ms. Pipelined, the slower sets the pace; the flat ring
  // (8 NICs, 400 GB/s, 2·15/16 × 8 GB: 37.5 ms) loses. nccl-tests on 16 H100 over NDR measure
  // busbw 391 GB/s at 8 GB (tests/validation), above the flat ring's 376.
  const auto two = hierarchical_time(Collective::AllReduce, 8e9, 16, 8, c);
  CHECK(two.used == Algorithm::InSwitch);
  CHECK(two.bandwidth_time == doctest::Approx(2 * 7e9 / 450e9));
  // Eight nodes: a tree between them makes each NIC carry its 1 GB shard twice (up and down):
  // 40 ms, while the flat ring needs 2·63/64 × 8 GB / 400 GB/s = 39.4 ms, so the ring is kept,
  // as NCCL keeps it (32 B200 on 4 nodes: 366 GB/s busbw at 1 GiB = the 8 NICs' ring).
  const auto eight = hierarchical_time(Collective::AllReduce, 8e9, 64, 8, c);
  CHECK(eight.used == Algorithm::Ring);
  CHECK(eight.bandwidth_time == doctest::Approx(2 * 63.0 / 64 * 8e9 / 400e9));
  CHECK(hierarchical_time(Collective::AllReduce, 8e9, 8, 8, c).time ==
        doctest::Approx(collective_time(Collective::AllReduce, 8e9, 8, kNvswitch).time));
}
