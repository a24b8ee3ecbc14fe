// The comm area's practice problems: the seeds' answers for seed 0, and the seeds' mistakes
// (forgetting the ring 2×, elements instead of bytes, per-device vs total, GB vs GiB) named.
#include "problem_helpers.hpp"

using namespace napkin;
using test::seed0;

TEST_CASE("the comm area has at least 12 problems, each with a recognised mistake") {
  int n = 0;
  for (const auto& p : problem_bank().problems())
    if (p.area == "comm" && p.kind == Kind::number) {  // a choice has no mistakes to name
      ++n;
      CAPTURE(p.id);
      CHECK_FALSE(p.mistakes.empty());
    }
  CHECK(n >= 12);
}

TEST_CASE("comm problems, seed 0: the seeds' answers are correct") {
  struct Case {
    const char* id;
    const char* text;
  } cases[] = {
      {"comm.allreduce.bytes", "1.5 GB"},           // seed 002 §11
      {"comm.parallelism.dp_volume", "104 GB"},     // seed 000 problem 1 (a)
      {"comm.parallelism.tp_layer", "10.7 GB"},     // seed 000 problem 1 (b), in bytes
      {"comm.parallelism.tp_step", "429.5 GB"},     // ... all 40 layers
      {"comm.parallelism.pp_volume", "805 MB"},     // seed 000 §1 in BF16
      {"comm.parallelism.dp_time", "3.5 s"},        // seed 002 §11 (2P rule, 0.1% off)
      {"comm.parallelism.dp_total", "716.8 TB"},    // seed 002 §11 (2P·N, 0.1% off)
      {"comm.parallelism.fsdp_volume", "1050 GB"},  // seed 002 §9
      {"comm.parallelism.tp_ops", "384"},           // seed 002 §9
      {"comm.parallelism.pp_ops", "448"},           // seed 002 §9
      {"comm.zero.seed_time", "689.4 ms"},          // seed 001 §7
      {"comm.tp_step.latency", "6.4 ms"},           // seed 003
      {"comm.tp_step.fraction", "46%"},
      {"comm.tp_step.fraction_nvlink",
       "4.6%"},  // seed 003: < 10%, noise             // seed 003: > 40%, fatal
      {"comm.tp_step.payload", "8 KB"},     // seed 003
      {"hw.roofline.ridge", "295 FLOP/B"},  // H100 datasheet
  };
  for (const auto& c : cases) {
    CAPTURE(c.id);
    Judgement j = test::check_seed0(c.id, c.text);
    CHECK(j.verdict == "correct");
  }
}

TEST_CASE("comm problems, seed 0: the seeds' mistakes are named") {
  struct Case {
    const char* id;
    const char* text;
    const char* mistake;
  } cases[] = {
      // Seed 000 problem 1's own TP answer counts elements as bytes.
      {"comm.parallelism.tp_step", "214.7 GB", "elements_instead_of_bytes"},
      {"comm.parallelism.tp_layer", "5.37 GB", "elements_instead_of_bytes"},
      {"comm.parallelism.pp_volume", "402 MB", "elements_instead_of_bytes"},
      // Seed 000 "Mistake 3": forgetting the ring all-reduce 2×.
      {"comm.allreduce.bytes", "0.75 GB", "forgot_ring_2x"},
      {"comm.parallelism.dp_volume", "52 GB", "forgot_ring_2x"},
      // Seed 002 §11: 2P vs 2P(N−1)/N, and per-device vs total traffic.
      {"comm.allreduce.bytes", "2 GB", "approx_2p"},
      {"comm.allreduce.bytes", "6 GB", "total_instead_of_per_device"},
      {"comm.parallelism.dp_total", "0.7 TB", "per_device_instead_of_total"},
      // GB vs GiB, automatic for byte answers: 1.5e9 B is 1.397 GiB.
      {"comm.allreduce.bytes", "1.397 GB", "gb_vs_gib"},
      // Seed 002: FSDP is 3P, not DP's 2P.
      {"comm.parallelism.fsdp_volume", "700 GB", "dp_volume"},
      // Seed 003: a ring pays 2(N−1) latencies per all-reduce.
      {"comm.tp_step.latency", "3.2 ms", "one_hop_per_allreduce"},
      {"comm.tp_step.fraction", "85%", "ratio_to_compute"},
      // ZeRO paper: 3Ψ, where seed 001 counts 2Ψ.
      {"comm.zero.paper_volume", "275.6 GB", "seed_2psi"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.id);
    CAPTURE(c.text);
    Judgement j = test::check_seed0(c.id, c.text);
    CHECK(j.verdict != "correct");
    // 3.2 ms is both "one hop" and "one all-reduce per layer" at TP = 2: either name is right.
    if (std::string(c.id) == "comm.tp_step.latency")
      CHECK((j.mistake == "one_hop_per_allreduce" || j.mistake == "one_allreduce_per_layer"));
    else
      CHECK(j.mistake == c.mistake);
  }
}
