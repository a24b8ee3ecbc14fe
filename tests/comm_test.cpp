// Communication and hardware estimators: the seeds' reference cases (SPEC §4), seed 003's test
// table, and published numbers (nccl-tests bus-bandwidth factors, Megatron's TP volumes).
#include "comm/comm.hpp"

#include "helpers.hpp"
#include "scenario/cluster.hpp"

using namespace napkin;
using test::error_of;
using test::out;
using test::run;

// Products of round numbers: only floating-point rounding to absorb.
constexpr double kExact = 1e-12;

TEST_CASE("comm.collective: seed 002 — 1 GB ring all-reduce on 4 GPUs sends 1.5 GB per device") {
  auto r = run("comm.collective",
               {{"op", "all_reduce"}, {"bytes", "1 GB"}, {"ranks", 4}, {"algorithm", "ring"}});
  REQUIRE(r.ok);
  CHECK(out(r, "bytes_per_rank") == doctest::Approx(1.5e9).epsilon(kExact));
  CHECK(out(r, "bytes_per_rank_approx") == doctest::Approx(2e9).epsilon(kExact));
  // Per-device vs total: 4 ranks each send 1.5 GB.
  CHECK(out(r, "total_bytes") == doctest::Approx(6e9).epsilon(kExact));
  CHECK(out(r, "steps") == 6);  // 2(N−1)
  // Seed 002: at N = 1024 the exact volume is 99.9% of 2P.
  auto big = run("comm.collective",
                 {{"op", "all_reduce"}, {"bytes", 1e9}, {"ranks", 1024}, {"algorithm", "ring"}});
  CHECK(out(big, "bytes_per_rank") == doctest::Approx(1.998e9).epsilon(1e-3));
  CHECK(out(big, "steps") == 2046);
}

TEST_CASE("comm.collective: nccl-tests bus-bandwidth factors (PERFORMANCE.md, Summary)") {
  // NVIDIA/nccl-tests doc/PERFORMANCE.md: busbw = algbw × factor with AllReduce 2(n−1)/n,
  // ReduceScatter and AllGather (n−1)/n, AlltoAll (n−1)/n, Broadcast 1. With latency 0 the
  // model's bus bandwidth must equal the link bandwidth exactly, and algbw = busbw / factor
  // (at line rate: efficiency 1 and no launch latency, the textbook model).
  const double bw = 100e9, n = 8;
  struct Case {
    const char* op;
    double factor;
  } cases[] = {{"all_reduce", 2 * (n - 1) / n},
               {"all_gather", (n - 1) / n},
               {"reduce_scatter", (n - 1) / n},
               {"all_to_all", (n - 1) / n},
               {"broadcast", 1}};
  for (const auto& c : cases) {
    CAPTURE(c.op);
    auto r = run("comm.collective", {{"op", c.op},
                                     {"bytes", 1e9},
                                     {"ranks", n},
                                     {"bandwidth", bw},
                                     {"latency", 0},
                                     {"efficiency", 1},
                                     {"launch_latency", 0},
                                     {"algorithm", "ring"}});
    REQUIRE(r.ok);
    CHECK(out(r, "bus_bandwidth") == doctest::Approx(bw).epsilon(kExact));
    CHECK(out(r, "algorithm_bandwidth") == doctest::Approx(bw / c.factor).epsilon(kExact));
    CHECK(out(r, "time") == doctest::Approx(1e9 * c.factor / bw).epsilon(kExact));
  }
}

TEST_CASE("comm.collective: α–β terms, regimes and the crossover size") {
  // 8 KB over 10 GbE on 2 ranks: 2 steps × 50 µs = 100 µs against 8192 B / 1.25 GB/s = 6.6 µs
  // (the textbook model: line rate, no launch latency).
  auto small = run("comm.collective", {{"op", "all_reduce"},
                                       {"bytes", 8192},
                                       {"ranks", 2},
                                       {"bandwidth", 1.25e9},
                                       {"latency", 50e-6},
                                       {"efficiency", 1},
                                       {"launch_latency", 0}});
  CHECK(out(small, "latency_time") == doctest::Approx(100e-6).epsilon(kExact));
  CHECK(out(small, "bandwidth_time") == doctest::Approx(8192 / 1.25e9).epsilon(kExact));
  CHECK(small.outputs.find("regime")->as_string() == "latency");
  // At the crossover size both terms are equal.
  const double x = out(small, "crossover_bytes");
  auto at = run("comm.collective", {{"op", "all_reduce"},
                                    {"bytes", x},
                                    {"ranks", 2},
                                    {"bandwidth", 1.25e9},
                                    {"latency", 50e-6},
                                    {"efficiency", 1},
                                    {"launch_latency", 0}});
  CHECK(out(at, "latency_time") == doctest::Approx(out(at, "bandwidth_time")).epsilon(1e-9));
  auto big = run("comm.collective", {{"op", "all_reduce"},
                                     {"bytes", 10 * x},
                                     {"ranks", 2},
                                     {"bandwidth", 1.25e9},
                                     {"latency", 50e-6},
                                     {"efficiency", 1},
                                     {"launch_latency", 0}});
  CHECK(big.outputs.find("regime")->as_string() == "bandwidth");
  // p2p: one step, the whole message.
  auto p = run("comm.collective", {{"op", "p2p"}, {"bytes", 1e6}, {"ranks", 2}});
  CHECK(out(p, "bytes_per_rank") == 1e6);
  CHECK(out(p, "steps") == 1);
  // Tree all-reduce: 2·log2(N) steps.
  auto t = run("comm.collective", {{"op", "all_reduce"}, {"ranks", 1024}, {"algorithm", "tree"}});
  CHECK(out(t, "steps") == 20);
}

TEST_CASE("comm.collective: inconsistent requests are errors naming the input") {
  CHECK(error_of("comm.collective", {{"op", "all_reduce"}, {"ranks", 1}}).input == "ranks");
  CHECK(error_of("comm.collective", {{"op", "all_gather"}, {"algorithm", "tree"}}).input ==
        "algorithm");
}

TEST_CASE("comm.parallelism: seed 000 problem 1 in the seed's units and in real bytes") {
  // The seed: FP32 gradients, activations counted as elements (activation_bytes = 1).
  auto seed = run("comm.parallelism", {{"params", 13e9},
                                       {"grad_bytes", 4},
                                       {"batch", 32},
                                       {"seq_len", 4096},
                                       {"d_model", 5120},
                                       {"n_layers", 40},
                                       {"activation_bytes", 1},
                                       {"tp", 8},
                                       {"dp", 64}});
  REQUIRE(seed.ok);
  CHECK(out(seed, "dp_bytes") == doctest::Approx(104e9).epsilon(kExact));
  // 8 × 32 × 4096 × 5120 = 5.37e9 "GB"; × 40 = 214.7e9.
  CHECK(out(seed, "tp_bytes_per_layer") == doctest::Approx(5.36870912e9).epsilon(kExact));
  // 214.75e9 exactly; the seed truncates to 214.7 (5e-4 keeps its printed digits).
  CHECK(out(seed, "tp_bytes") == doctest::Approx(214.7e9).epsilon(5e-4));
  CHECK(out(seed, "tp_ops") == 160);
  // The correct bytes: BF16 activations double the TP bill.
  auto real = run("comm.parallelism", {{"activation_bytes", 2}, {"grad_bytes", 4}});
  CHECK(out(real, "tp_bytes_per_layer") == doctest::Approx(10.73741824e9).epsilon(kExact));
  CHECK(out(real, "tp_bytes") == doctest::Approx(429.4967296e9).epsilon(kExact));
  // Exact ring volume with t = 8, and what one GPU really all-reduces for DP (its 1/8 shard).
  CHECK(out(real, "tp_bytes_per_layer_exact") ==
        doctest::Approx(10.73741824e9 * 7 / 8).epsilon(kExact));
  CHECK(out(real, "dp_bytes_exact") == doctest::Approx(104e9 * 63 / 64).epsilon(kExact));
  CHECK(out(real, "dp_bytes_per_device") == doctest::Approx(104e9 * 63 / 64 / 8).epsilon(kExact));
  CHECK(out(real, "tp_logical_bytes_per_layer") ==
        doctest::Approx(out(real, "tp_bytes_per_layer") / 2).epsilon(kExact));
}

TEST_CASE("comm.parallelism: seed 000 §1 — 17.2 G elements logical, 34.4 G physical; PP 134 M") {
  auto r = run("comm.parallelism", {{"batch", 16},
                                    {"seq_len", 2048},
                                    {"d_model", 4096},
                                    {"n_layers", 32},
                                    {"activation_bytes", 1},
                                    {"tp", 8},
                                    {"pp", 4}});
  REQUIRE(r.ok);
  CHECK(out(r, "tp_logical_bytes") == doctest::Approx(17.18e9).epsilon(1e-3));
  CHECK(out(r, "tp_bytes") == doctest::Approx(34.36e9).epsilon(1e-3));
  CHECK(out(r, "pp_bytes_per_boundary") == doctest::Approx(134.2e6).epsilon(1e-3));
  CHECK(out(r, "pp_bytes") == doctest::Approx(402.7e6).epsilon(1e-3));
  // In BF16 the "17.2 TB" is 34.4 GB (errata).
  auto bf16 = run("comm.parallelism", {{"batch", 16},
                                       {"seq_len", 2048},
                                       {"d_model", 4096},
                                       {"n_layers", 32},
                                       {"activation_bytes", 2},
                                       {"tp", 8}});
  CHECK(out(bf16, "tp_logical_bytes") == doctest::Approx(34.36e9).epsilon(1e-3));
}

TEST_CASE("comm.parallelism: seed 002's GPT-3 table") {
  auto r = run("comm.parallelism", {{"params", 175e9},
                                    {"grad_bytes", 2},
                                    {"batch", 32},
                                    {"seq_len", 2048},
                                    {"d_model", 12288},
                                    {"n_layers", 96},
                                    {"activation_bytes", 2},
                                    {"tp", 8},
                                    {"pp", 8},
                                    {"dp", 16},
                                    {"microbatches", 32}});
  REQUIRE(r.ok);
  CHECK(out(r, "dp_bytes") == doctest::Approx(700e9).epsilon(kExact));
  CHECK(out(r, "fsdp_bytes") == doctest::Approx(1050e9).epsilon(kExact));
  // The seed prints "1228 GB (~1200 GB)"; B·S = 65,536 tokens gives 1237 GB (0.7% off).
  CHECK(out(r, "tp_bytes") == doctest::Approx(1228e9).epsilon(0.01));
  CHECK(out(r, "tp_ops") == 384);  // 4L
  CHECK(out(r, "pp_ops") == 448);  // 2M(N−1), M = 32, N = 8
  CHECK(out(r, "fsdp_ops") == 288);
  // The seed's PP "45 GB" is (pp−1)·B·S·H·2 with B·S = 2^18 tokens (e.g. B = 128).
  auto pp = run("comm.parallelism", {{"params", 175e9},
                                     {"batch", 128},
                                     {"seq_len", 2048},
                                     {"d_model", 12288},
                                     {"n_layers", 96},
                                     {"tp", 8},
                                     {"pp", 8},
                                     {"dp", 16}});
  CHECK(out(pp, "pp_bytes") == doctest::Approx(45e9).epsilon(0.01));
}

TEST_CASE("comm.parallelism: seed 002 §11 — DP over IB 200 GB/s: 3.5 s, FSDP 5.25 s, 716.8 TB") {
  auto r = run("comm.parallelism", {{"params", 175e9},
                                    {"grad_bytes", 2},
                                    {"tp", 1},
                                    {"pp", 1},
                                    {"dp", 1024},
                                    {"bandwidth", 200e9},
                                    {"latency", 0}});
  REQUIRE(r.ok);
  // Exact ring volume is 1023/1024 of 2P: 0.1% below the seed's 2P figures.
  CHECK(out(r, "dp_time") == doctest::Approx(3.5).epsilon(1e-3));
  CHECK(out(r, "fsdp_time") == doctest::Approx(5.25).epsilon(1e-3));
  CHECK(out(r, "dp_total_traffic_approx") == doctest::Approx(716.8e12).epsilon(kExact));
  CHECK(out(r, "dp_total_traffic") == doctest::Approx(700e9 * 1023).epsilon(kExact));
  CHECK(out(r, "tp_bytes") == 0);  // no TP, no all-reduces
}

TEST_CASE("comm.parallelism: Megatron's TP volume 8·b·s·h·(t−1)/t per layer per device") {
  // Narayanan et al. 2021 (Megatron-LM at scale), §3.3: with tensor parallelism, tensors of total
  // size b·s·h are all-reduced twice in forward and twice in backward per layer, 8bsh(t−1)/t per
  // device. Shoeybi et al. 2019 §3: 2 all-reduces forward + 2 backward per layer.
  for (double t : {2.0, 4.0, 8.0}) {
    CAPTURE(t);
    auto r = run("comm.parallelism", {{"batch", 8},
                                      {"seq_len", 2048},
                                      {"d_model", 8192},
                                      {"n_layers", 1},
                                      {"activation_bytes", 1},
                                      {"tp", t}});
    CHECK(out(r, "tp_bytes_per_layer_exact") ==
          doctest::Approx(8.0 * 8 * 2048 * 8192 * (t - 1) / t).epsilon(kExact));
    CHECK(out(r, "tp_ops") == 4);
  }
  CHECK(error_of("comm.parallelism", {{"pp", 64}, {"n_layers", 40}}).input == "pp");
  CHECK(error_of("comm.parallelism", {{"microbatches", 64}, {"batch", 32}}).input ==
        "microbatches");
}

TEST_CASE("comm.zero: seed 001 — 70B, 80 layers, DP 64, 400 GB/s, 2 µs → 700 / 344.5 / 689.4 ms") {
  const double expect[] = {700.0e-3, 344.5e-3, 689.4e-3};
  const char* coll[] = {"AllReduce", "ReduceScatter", "AllGather + ReduceScatter"};
  for (int s = 1; s <= 3; ++s) {
    CAPTURE(s);
    auto r = run("comm.zero", {{"params", 70e9},
                               {"n_layers", 80},
                               {"dp", 64},
                               {"zero_stage", s},
                               {"bandwidth", 400e9},
                               {"latency", 2e-6}});
    REQUIRE(r.ok);
    // The seed prints two decimals of milliseconds.
    CHECK(out(r, "time") == doctest::Approx(expect[s - 1]).epsilon(1e-4));
    CHECK(r.outputs.find("collective")->as_string() == coll[s - 1]);
  }
  // The ZeRO paper (Rajbhandari et al. 2020, §7.2.1–7.2.2): stage 2 moves 2Ψ like DP, stage 3
  // 3Ψ = 1.5× DP.
  auto z2 = run("comm.zero", {{"zero_stage", 2}});
  auto z3 = run("comm.zero", {{"zero_stage", 3}});
  CHECK(out(z2, "bytes_paper") == doctest::Approx(2 * 140e9 * 63 / 64).epsilon(kExact));
  CHECK(out(z3, "bytes_paper") == doctest::Approx(1.5 * out(z2, "bytes_paper")).epsilon(kExact));
}

// Seed 003's test table, case by case (the lab's test names in the comments).
TEST_CASE("comm.tp_step: seed 003 — the 8 KB decode payload (test_payload_is_one_activation_row)") {
  auto r = run("comm.tp_step", {});
  REQUIRE(r.ok);
  CHECK(out(r, "payload_bytes") == 8192);
  CHECK(out(r, "allreduces") == 64);
  auto prefill = run("comm.tp_step", {{"tokens", 2048}});
  CHECK(out(prefill, "payload_bytes") == doctest::Approx(16.78e6).epsilon(1e-3));  // "16 MB"
}

TEST_CASE("comm.tp_step: seed 003 — ring traffic 2(N−1)/N (test_ring_traffic_formula)") {
  auto two = run("comm.tp_step", {{"tp", 2}});
  CHECK(out(two, "bytes_per_rank") == out(two, "payload_bytes"));  // N = 2: one payload
  double prev = 0;
  for (double n : {2.0, 4.0, 8.0, 64.0}) {
    auto r = run("comm.tp_step", {{"tp", n}, {"algorithm", "ring"}});
    const double v = out(r, "bytes_per_rank");
    CHECK(v == doctest::Approx(2 * (n - 1) / n * 8192).epsilon(kExact));
    CHECK(v > prev);
    CHECK(v < 2 * 8192);  // approaches, never reaches, 2×
    prev = v;
  }
}

TEST_CASE("comm.tp_step: seed 003 — decode on NVLink is noise (test_..._on_nvlink_is_noise)") {
  auto r = run("comm.tp_step", {{"bandwidth", 300e9}, {"latency", 3e-6}});
  CHECK(out(r, "comm_time") < 1e-3);
  CHECK(out(r, "comm_fraction") < 0.10);
}

TEST_CASE("comm.tp_step: seed 003 — decode over 10 GbE is fatal (test_..._on_ethernet_is_fatal)") {
  auto r = run("comm.tp_step", {{"bandwidth", 1.25e9}, {"latency", 50e-6}});
  // 64 × 2 × 50 µs = 6.4 ms of latency alone.
  CHECK(out(r, "latency_time") == doctest::Approx(6.4e-3).epsilon(kExact));
  CHECK(out(r, "comm_fraction") > 0.40);
  CHECK(r.outputs.find("regime")->as_string() == "latency");
}

TEST_CASE("comm.tp_step: seed 003 — latency rules decode, bandwidth rules prefill") {
  auto time = [](double tokens, double bw, double lat) {
    return out(run("comm.tp_step", {{"tokens", tokens}, {"bandwidth", bw}, {"latency", lat}}),
               "comm_time");
  };
  const double bw = 1.25e9, lat = 50e-6;
  // Decode: halving latency beats doubling bandwidth.
  CHECK(time(1, bw, lat / 2) < time(1, 2 * bw, lat));
  // Prefill (2048 tokens): the reverse.
  CHECK(time(2048, 2 * bw, lat) < time(2048, bw, lat / 2));
  auto p = run("comm.tp_step", {{"tokens", 2048}});
  CHECK(p.outputs.find("regime")->as_string() == "bandwidth");
}

TEST_CASE("comm.tp_step: seed 003 — TP=8 costs more than TP=2 (test_more_ranks_more_overhead)") {
  auto two = run("comm.tp_step", {{"tp", 2}, {"algorithm", "ring"}});
  auto eight = run("comm.tp_step", {{"tp", 8}, {"algorithm", "ring"}});
  CHECK(out(eight, "comm_time") > out(two, "comm_time"));
  CHECK(out(eight, "latency_time") == doctest::Approx(7 * out(two, "latency_time")).epsilon(1e-12));
}

TEST_CASE("comm.tp_step: overlap hides communication, never more than the compute") {
  auto r = run("comm.tp_step", {{"overlap_model", "fraction"}, {"overlap", 0.5}});
  CHECK(out(r, "exposed_comm_time") == doctest::Approx(out(r, "comm_time") / 2).epsilon(kExact));
  auto all =
      run("comm.tp_step", {{"overlap_model", "fraction"}, {"overlap", 1}, {"compute_time", 1e-3}});
  CHECK(out(all, "exposed_comm_time") ==
        doctest::Approx(out(all, "comm_time") - 1e-3).epsilon(kExact));
  // Roofline compute: 8B in BF16 over 2 H100s = 16 GB / (2 × 3.35 TB/s) = 2.39 ms at batch 1.
  auto roof = run("comm.tp_step", {{"compute_time", 0}, {"params", 8e9}});
  CHECK(out(roof, "compute_time") == doctest::Approx(16e9 / (2 * 3.35e12)).epsilon(kExact));
}

TEST_CASE("comm.ep_alltoall: dispatch + combine per MoE layer, (ep−1)/ep leaves the rank") {
  auto r = run("comm.ep_alltoall", {{"tokens", 1024},
                                    {"hidden", 4096},
                                    {"dtype_bytes", 2},
                                    {"top_k", 2},
                                    {"ep", 8},
                                    {"moe_layers", 32},
                                    {"bandwidth", 50e9},
                                    {"latency", 0}});
  REQUIRE(r.ok);
  const double payload = 1024.0 * 2 * 4096 * 2;
  CHECK(out(r, "payload_bytes") == doctest::Approx(payload).epsilon(kExact));
  CHECK(out(r, "bytes_per_rank") == doctest::Approx(payload * 7 / 8).epsilon(kExact));
  CHECK(out(r, "alltoalls") == 64);
  CHECK(out(r, "time") == doctest::Approx(64 * payload * 7 / 8 / 50e9).epsilon(kExact));
}

TEST_CASE("hw.roofline: ridge, bound and attainable on H100 and A100") {
  // H100 SXM: 989.4 TFLOP/s dense BF16 / 3.35 TB/s → ridge ≈ 295 FLOP/B (NVIDIA datasheet).
  auto h = run("hw.roofline", {{"intensity", 1}});
  CHECK(out(h, "ridge_intensity") == doctest::Approx(295.5).epsilon(1e-3));
  CHECK(out(h, "attainable_flops") == doctest::Approx(3.35e12).epsilon(kExact));
  CHECK(h.outputs.find("bound")->as_string() == "memory");
  // Seed 002 §1: A100 312 TFLOP/s over 1555 GB/s → ridge ≈ 200 FLOP/B.
  auto a = run("hw.roofline",
               {{"peak_flops", 312e12}, {"mem_bandwidth", 1.555e12}, {"intensity", 1000}});
  CHECK(out(a, "ridge_intensity") == doctest::Approx(200.6).epsilon(1e-3));
  CHECK(out(a, "fraction_of_peak") == 1);
  CHECK(a.outputs.find("bound")->as_string() == "compute");
  // From FLOPs and bytes: a 1 TFLOP kernel moving 10 GB is memory-bound on an H100.
  auto k = run("hw.roofline", {{"flops", 1e12}, {"bytes", 1e10}});
  CHECK(out(k, "intensity_used") == 100);
  CHECK(out(k, "time") == doctest::Approx(1e10 / 3.35e12).epsilon(kExact));
  CHECK(error_of("hw.roofline", {{"flops", 1e12}, {"bytes", 1e10}, {"intensity", 5}}).input ==
        "intensity");
}

TEST_CASE("the communication charts sweep without failed points") {
  for (const auto& c : registry().charts()) {
    if (c.estimator.view().rfind("comm.", 0) != 0 && c.estimator != "hw.roofline") continue;
    CAPTURE(c.id);
    const Estimator* e = registry().find(c.estimator);
    REQUIRE(e != nullptr);
    Json in = Json::object();
    for (const auto& i : e->inputs) in.set(i.name, i.example);
    for (const auto& s : c.series)
      for (const auto& [k, v] : s.overrides.members()) in.set(k, v);
    if (c.x.empty()) continue;  // categories: one run per series (web/chart.js)
    std::vector<double> xs = {c.x_min, c.x_max};
    SweepResult s = registry().sweep(c.estimator, in, std::string(c.x), xs);
    REQUIRE(s.ok);
    for (const auto& err : s.point_errors) CHECK(err.empty());
  }
}

TEST_CASE(
    "TP comm share stays modest on NVLink at any batch while Ethernet stays costly (seed 003)") {
  auto frac = [](double tokens, double bw, double lat) {
    return out(run("comm.tp_step", {{"tokens", tokens},
                                    {"bandwidth", bw},
                                    {"latency", lat},
                                    {"compute_time", 0},
                                    {"params", 8e9}}),
               "comm_fraction");
  };
  CHECK(frac(4096, 450e9, 3e-6) < 0.15);
  CHECK(frac(4096, 1.25e9, 50e-6) > 0.5);
}

namespace {
const Preset* preset(const char* id) {
  for (const auto& p : registry().presets())
    if (p.id == id) return &p;
  return nullptr;
}
// Runs an estimator on its example inputs with one or more presets applied on top, as the page
// does: only the preset values whose names are inputs of the estimator.
RunResult run_with(const char* estimator, std::initializer_list<const char*> ids) {
  const Estimator* e = registry().find(estimator);
  REQUIRE(e != nullptr);
  Json in = Json::object();
  for (const auto& i : e->inputs) in.set(i.name, i.example);
  for (const char* id : ids) {
    const Preset* p = preset(id);
    REQUIRE_MESSAGE(p != nullptr, id);
    for (const auto& [k, v] : p->values.members())
      if (e->input(k)) in.set(k, v);
  }
  return registry().run(estimator, in);
}
}  // namespace

TEST_CASE("hardware catalog: every link has a one-direction bandwidth, a latency and a source") {
  int links = 0;
  for (const auto& p : registry().presets()) {
    if (p.kind != "link") continue;
    CAPTURE(p.id);
    ++links;
    const Json* bw = p.values.find("bandwidth");
    const Json* lat = p.values.find("latency");
    REQUIRE(bw != nullptr);
    REQUIRE(lat != nullptr);
    CHECK(bw->as_number() > 1e8);
    CHECK(bw->as_number() < 1e13);
    CHECK(lat->as_number() > 0);
    CHECK(lat->as_number() < 1e-3);
    CHECK(p.source.size() > 20);
  }
  CHECK(links >= 7);
  // NVLink 4 on H100: 900 GB/s bidirectional = 450 GB/s per direction (NVIDIA H100 datasheet).
  CHECK(preset("nvlink4")->values.find("bandwidth")->as_number() == 450e9);
  // InfiniBand NDR: 400 Gb/s per port = 50 GB/s.
  CHECK(preset("ib-ndr")->values.find("bandwidth")->as_number() == 50e9);
  for (const char* id : {"v100", "a100", "h100", "h200", "b200", "tpu-v5e", "tpu-v5p"}) {
    CAPTURE(id);
    REQUIRE(preset(id) != nullptr);
    CHECK(preset(id)->kind == "gpu");
  }
}

TEST_CASE("the seeds' link presets reproduce the seeds' examples") {
  // Seed 001's ZeRO-1 with its InfiniBand numbers: 700 ms.
  auto z = run_with("comm.zero", {"seed001-zero", "seed001-infiniband"});
  REQUIRE(z.ok);
  CHECK(out(z, "time") == doctest::Approx(0.700).epsilon(1e-4));
  // Seed 003 over its 10 GbE: 6.4 ms of latency; over its NVLink hop: noise.
  auto e = run_with("comm.tp_step", {"seed003-decode-10gbe", "seed003-10gbe"});
  CHECK(out(e, "latency_time") == doctest::Approx(6.4e-3).epsilon(kExact));
  auto n = run_with("comm.tp_step", {"seed003-decode-10gbe", "seed003-nvlink"});
  CHECK(out(n, "comm_fraction") < 0.10);
  // Seed 002's DP example over its 200 GB/s InfiniBand: the GPT-3 scenario is TP 8 × PP 8,
  // so one device reduces 1/64 of 700 GB.
  auto g = run_with("comm.parallelism", {"seed002-gpt3"});
  REQUIRE(g.ok);
  CHECK(out(g, "dp_bytes") == doctest::Approx(700e9).epsilon(kExact));
  CHECK(out(g, "dp_bytes_per_device") == doctest::Approx(700e9 * 15 / 16 / 64).epsilon(kExact));
  // Seed 000 problem 1 scenario: the seed's own numbers.
  auto s = run_with("comm.parallelism", {"seed000-problem1"});
  CHECK(out(s, "dp_bytes") == doctest::Approx(104e9).epsilon(kExact));
  CHECK(out(s, "tp_bytes_per_layer") == doctest::Approx(5.37e9).epsilon(1e-3));
  auto c = run_with("comm.collective", {"seed002-allreduce-1gb"});
  CHECK(out(c, "bytes_per_rank") == doctest::Approx(1.5e9).epsilon(kExact));
}

TEST_CASE("collective-time chart: every link crosses from latency- to bandwidth-bound in range") {
  const ChartSpec* chart = nullptr;
  for (const auto& c : registry().charts())
    if (c.id == "collective-time-vs-size") chart = &c;
  REQUIRE(chart != nullptr);
  REQUIRE(chart->series.size() >= 4);
  const Estimator* e = registry().find("comm.collective");
  for (const auto& s : chart->series) {
    CAPTURE(s.label);
    Json in = Json::object();
    for (const auto& i : e->inputs) in.set(i.name, i.example);
    for (const auto& [k, v] : s.overrides.members()) in.set(k, v);
    SweepResult sw = registry().sweep("comm.collective", in, "bytes", {chart->x_min, chart->x_max});
    REQUIRE(sw.ok);
    std::vector<double> lat, bw;
    for (const auto& [name, col] : sw.columns) {
      if (name == "latency_time") lat = col;
      if (name == "bandwidth_time") bw = col;
    }
    REQUIRE(lat.size() == 2);
    CHECK(lat[0] > bw[0]);  // smallest message: latency-bound
    CHECK(bw[1] > lat[1]);  // largest message: bandwidth-bound
  }
}

TEST_CASE("comm.collective: a 32 KB all-reduce on 8 NVSwitch H100s rides NCCL's LL protocol") {
  // H100 SXM: NVLink 4 at 450 GB/s per direction, third-generation NVSwitch with NVLink SHARP
  // (NVIDIA H100 datasheet). NCCL's own tuner (NVIDIA/nccl src/graph/tuning.cc) puts this size
  // at ~15 µs on a ring with the LL protocol (6.6 µs base + 14 steps × 0.6 µs, a quarter of the
  // bandwidth) and ~23 µs with NVLS; Napkin's model: LL ring 6.6 + 14 × 3 × 0.6/3.4 µs +
  // 1.75 × 32 KB / (370 GB/s / 4) = 14.6 µs, NVLS 8.4 + 4 × 3 µs + 32 KB / 274 GB/s = 20.5 µs.
  auto r = run("comm.collective",
               {{"op", "all_reduce"}, {"bytes", 32768}, {"ranks", 8}, {"algorithm", "ring"}});
  REQUIRE(r.ok);
  const double ll = 6.6e-6 + 14 * 3e-6 * 0.6 / 3.4 + 1.75 * 32768 / (370e9 / 4);
  CHECK(out(r, "time") == doctest::Approx(ll).epsilon(1e-9));
  CHECK(out(r, "time") == doctest::Approx(15e-6).epsilon(0.1));  // NCCL's tuner
  // Auto picks the faster of ring, tree and NVLS. Napkin's tree takes 2·⌈log2 8⌉ = 6 LL steps
  // (10.5 µs); inside one node NCCL's tree is a chain of 2(N − 1) steps, so this undercounts it
  // (docs/validation.md); both stay below NVLS's 20 µs launch-bound floor at this size.
  auto a = run("comm.collective", {{"op", "all_reduce"}, {"bytes", 32768}, {"ranks", 8}});
  CHECK(a.outputs.find("algorithm_used")->as_string() != "in-switch");
  CHECK(out(a, "time") < ll);
  // Without in-switch reduction, on InfiniBand, the double binary tree with LL wins: 2·⌈log2 8⌉
  // = 6 steps of 5 µs × 0.6/3.4, 2P bytes at a quarter of 94 % of 50 GB/s.
  auto t = run("comm.collective",
               {{"op", "all_reduce"}, {"bytes", 32768}, {"ranks", 8}, {"link", "ib-ndr"}});
  CHECK(t.outputs.find("algorithm_used")->as_string() == "tree");
  CHECK(
      out(t, "time") ==
      doctest::Approx(6.6e-6 + 6 * 5e-6 * 0.6 / 3.4 + 2 * 32768 / (0.94 * 50e9 / 4)).epsilon(1e-9));
  // Forcing in-switch reduction on a link without it is an error naming the input.
  CHECK(error_of("comm.collective", {{"algorithm", "in_switch"}, {"link", "ib-ndr"}}).input ==
        "algorithm");
}

TEST_CASE("comm.collective: bus bandwidth on 8 H100s within 10 % of nccl-tests (#27)") {
  // NVIDIA/nccl-tests issue #212 (a maintainer's figures, 8 × H100 SXM, large messages): ring
  // all-reduce ~370 GB/s busbw, NVLS ~480 GB/s. busbw = algbw × 2(n−1)/n (PERFORMANCE.md).
  auto ring = run(
      "comm.collective",
      {{"op", "all_reduce"}, {"bytes", 8e9}, {"ranks", 8}, {"gpu", "h100"}, {"algorithm", "ring"}});
  CHECK(out(ring, "bus_bandwidth") == doctest::Approx(370e9).epsilon(0.10));
  auto nvls =
      run("comm.collective", {{"op", "all_reduce"}, {"bytes", 8e9}, {"ranks", 8}, {"gpu", "h100"}});
  CHECK(nvls.outputs.find("algorithm_used")->as_string() == "in-switch");
  CHECK(out(nvls, "bus_bandwidth") == doctest::Approx(480e9).epsilon(0.10));
  // NVLS gains ~1.3× over the ring at 8 GPUs and less at 4 (the switch moves the buffer once
  // per rank whatever N; the ring's 2(n−1)/n shrinks).
  CHECK(out(ring, "time") / out(nvls, "time") == doctest::Approx(1.3).epsilon(0.05));
  auto ring4 = run(
      "comm.collective",
      {{"op", "all_reduce"}, {"bytes", 8e9}, {"ranks", 4}, {"gpu", "h100"}, {"algorithm", "ring"}});
  auto nvls4 =
      run("comm.collective", {{"op", "all_reduce"}, {"bytes", 8e9}, {"ranks", 4}, {"gpu", "h100"}});
  CHECK(out(ring4, "time") / out(nvls4, "time") < 1.15);
  // An A100 has no NVLS: NVLink 3, 300 GB/s, 78 % achieved.
  auto a100 = run("comm.collective",
                  {{"op", "all_reduce"}, {"bytes", 8e9}, {"ranks", 4}, {"link", "nvlink3"}});
  CHECK(a100.outputs.find("algorithm_used")->as_string() != "in-switch");
  CHECK(out(a100, "bus_bandwidth") == doctest::Approx(235e9).epsilon(0.05));
  // The H100 PCIe has no NVSwitch: PCIe Gen5 between its GPUs, not NVLink 4.
  const Cluster* pcie = find_cluster("h100-pcie");
  REQUIRE(pcie);
  CHECK(pcie->intra.bandwidth == 64e9);
  CHECK_FALSE(pcie->intra.in_switch_reduction);
}

TEST_CASE("comm.collective: across nodes, one ring through every NIC or the NVLS tree") {
  // 16 A100s in 2 nodes on HDR (8 × 200 Gb/s): nccl-tests measure 188 GB/s busbw at 8 GB
  // (Azure NDv4; tests/validation): the ring's bus bandwidth is the 8 NICs together,
  // 8 × 0.94 × 25 GB/s = 188 GB/s, below NVLink 3's 235.
  auto a = run("comm.collective", {{"op", "all_reduce"},
                                   {"bytes", 8e9},
                                   {"ranks", 16},
                                   {"gpus_per_node", 8},
                                   {"gpu", "a100"},
                                   {"link", "nvlink3"}});
  REQUIRE(a.ok);
  CHECK(a.outputs.find("algorithm_used")->as_string() == "ring");
  CHECK(out(a, "bus_bandwidth") == doctest::Approx(188e9).epsilon(0.05));
  // 16 H100s on NDR: the NVLS tree (reduce-scatter and all-gather in the node, the shard's
  // all-reduce across on every NIC, pipelined): nccl-tests measure 391 GB/s busbw at 8 GB.
  auto h = run(
      "comm.collective",
      {{"op", "all_reduce"}, {"bytes", 8e9}, {"ranks", 16}, {"gpus_per_node", 8}, {"gpu", "h100"}});
  CHECK(h.outputs.find("algorithm_used")->as_string() == "hierarchical");
  CHECK(out(h, "bus_bandwidth") == doctest::Approx(391e9).epsilon(0.10));
}

TEST_CASE("comm.parallelism: full recomputation re-runs the forward's TP all-reduces") {
  // Korthikanti et al. 2022 §4: full recomputation re-executes each layer's forward in the
  // backward pass, its two TP all-reduces included: 6 per layer instead of Megatron's 4
  // (Shoeybi et al. 2019 §3). Seed 000 problem 1's 13B (40 layers, B 32, S 4096, H 5120, TP 8).
  auto none = run("comm.parallelism", {});
  auto full = run("comm.parallelism", {{"recompute", "full"}});
  auto sel = run("comm.parallelism", {{"recompute", "selective"}});
  CHECK(out(none, "tp_ops") == 160);
  CHECK(out(full, "tp_ops") == 240);
  CHECK(out(sel, "tp_ops") == 160);  // selective re-runs attention only: no collective
  const double bsh = 32.0 * 4096 * 5120 * 2;
  CHECK(out(full, "tp_bytes_exact") == doctest::Approx(12 * bsh * 7 / 8 * 40).epsilon(kExact));
  CHECK(out(full, "tp_recompute_bytes") == doctest::Approx(4 * bsh * 7 / 8 * 40).epsilon(kExact));
  // Its time: 240 ring all-reduces of B·S·H on the link.
  auto t =
      run("comm.parallelism", {{"recompute", "full"}, {"bandwidth", 450e9}, {"latency", 3e-6}});
  CHECK(out(t, "tp_time") ==
        doctest::Approx(240 * (14 * 3e-6 + 1.75 * bsh / 450e9)).epsilon(kExact));
}

TEST_CASE("comm.tp_step: Megatron-LM's default overlap — forward exposed, backward hidden") {
  // megatron/core/tensor_parallel/layers.py (LinearWithGradAccumulationAndAsyncCommunication):
  // the backward input-gradient all-reduce is launched async before the weight-gradient GEMM;
  // forward all-reduces block; --tp-comm-overlap is off by default. Decode (2 per layer):
  // nothing hidden — the worked example's 46 % stands.
  auto decode = run("comm.tp_step", {});
  CHECK(out(decode, "exposed_comm_time") == out(decode, "comm_time"));
  // A training step (4 per layer): the backward half hides, up to the weight-gradient third of
  // the compute. 8 KB on NVLink (tp 2): comm ≪ compute, so exactly half is exposed.
  auto train = run("comm.tp_step", {{"allreduces_per_layer", 4},
                                    {"bandwidth", 450e9},
                                    {"latency", 3e-6},
                                    {"compute_time", 0.1}});
  CHECK(out(train, "exposed_comm_time") ==
        doctest::Approx(out(train, "comm_time") / 2).epsilon(kExact));
  // Little compute: only a third of it can hide communication.
  auto tight = run("comm.tp_step", {{"allreduces_per_layer", 4}, {"compute_time", 3e-3}});
  CHECK(out(tight, "exposed_comm_time") ==
        doctest::Approx(out(tight, "comm_time") - 1e-3).epsilon(kExact));
}

TEST_CASE("comm.ep_alltoall: Switch Transformer's expert capacity pads the dispatch") {
  // Fedus et al. 2022 (Switch Transformers), eq. 3: capacity = tokens ÷ experts × capacity
  // factor. Switch-Base, Table 1: 128 experts, top-1, capacity factor 1.25: 4,096 tokens give
  // 40 slots per expert, and the padded buffer is 1.25× the routed rows.
  auto r = run("comm.ep_alltoall", {{"tokens", 4096},
                                    {"top_k", 1},
                                    {"experts", 128},
                                    {"capacity_factor", 1.25},
                                    {"hidden", 768}});
  REQUIRE(r.ok);
  CHECK(out(r, "expert_capacity") == 40);
  CHECK(out(r, "payload_bytes") == doctest::Approx(1.25 * 4096 * 768 * 2));
  // Dropless (0, the default): no capacity, rows as routed.
  auto dropless = run("comm.ep_alltoall", {{"tokens", 4096}, {"top_k", 1}, {"hidden", 768}});
  CHECK(dropless.outputs.find("expert_capacity") == nullptr);
  CHECK(out(dropless, "payload_bytes") == 4096.0 * 768 * 2);
  // A fractional share rounds up (DeepSpeed-MoE's ceil): 100 tokens × 2 ÷ 64 × 1.0 → 4.
  auto ceil = run("comm.ep_alltoall",
                  {{"tokens", 100}, {"top_k", 2}, {"experts", 64}, {"capacity_factor", 1.0}});
  CHECK(out(ceil, "expert_capacity") == 4);
  CHECK(test::error_of("comm.ep_alltoall", {{"top_k", 8}, {"experts", 4}}).input == "top_k");
}
