// Memory, sharding and pipeline estimators: the seeds' reference cases (SPEC §4, seeds 001,
// 002, 004 — with seed 004's errata corrected) and published numbers.
#include "memory/memory.hpp"

#include <cmath>
#include <string>

#include "helpers.hpp"

using namespace napkin;
using test::error_of;
using test::out;
using test::run;

// ---------------------------------------------------------------------------------------
// mem.training

TEST_CASE("mem.training: seed 001 §6 — the notebook's LLaMA-2-70B table, row by row") {
  // Seed 001 §6, `configs`: (tp, pp, dp, zero, checkpointing) → total GB as the notebook prints.
  // All are exact sums of products of round numbers: 1e-12 only absorbs rounding.
  struct Row {
    const char* name;
    int tp, dp, zero;
    bool gc;
    double gb, weights, grads, opt, act;
  };
  const Row rows[] = {
      {"Baseline (no parallelism)", 1, 1, 0, false, 2240, 140, 140, 560, 1400},
      {"TP=8", 8, 1, 0, false, 280, 17.5, 17.5, 70, 175},
      {"TP=8 + Gradient Checkpointing", 8, 1, 0, true, 157.5, 17.5, 17.5, 70, 52.5},
      {"TP=8 + ZeRO-1", 8, 8, 1, false, 218.75, 17.5, 17.5, 8.75, 175},
      {"TP=8 + ZeRO-2", 8, 8, 2, false, 203.4375, 17.5, 2.1875, 8.75, 175},
      {"TP=8 + ZeRO-3", 8, 8, 3, false, 188.125, 2.1875, 2.1875, 8.75, 175},
  };
  for (const auto& row : rows) {
    CAPTURE(row.name);
    // The worked example's conventions: 8 optimizer bytes, the 10× (3×) activation rule.
    auto r = run("mem.training", {{"params", 70e9},
                                  {"tp", row.tp},
                                  {"dp", row.dp},
                                  {"zero_stage", row.zero},
                                  {"checkpointing", row.gc},
                                  {"optimizer_bytes", 8},
                                  {"activations", "rule_of_thumb"}});
    REQUIRE(r.ok);
    CHECK(out(r, "total") == doctest::Approx(row.gb * 1e9).epsilon(1e-12));
    CHECK(out(r, "weights") == doctest::Approx(row.weights * 1e9).epsilon(1e-12));
    CHECK(out(r, "gradients") == doctest::Approx(row.grads * 1e9).epsilon(1e-12));
    CHECK(out(r, "optimizer") == doctest::Approx(row.opt * 1e9).epsilon(1e-12));
    CHECK(out(r, "activations") == doctest::Approx(row.act * 1e9).epsilon(1e-12));
    CHECK(out(r, "fits") == 0);  // the notebook prints "✗ No" for every row
  }
}

TEST_CASE("mem.training: ZeRO paper Figure 1 — 7.5B, Nd = 64, K = 12") {
  // Rajbhandari et al. 2020, Figure 1: Ψ = 7.5B, N_d = 64, K = 12 (fp32 master + Adam):
  // baseline (2+2+K)Ψ = 120 GB, P_os 31.4 GB, P_os+g 16.6 GB, P_os+g+p 1.9 GB per device.
  // The paper prints three significant figures: 2e-3 keeps them (1.875 prints as 1.9: 2e-2).
  const double expect[] = {120e9, 31.4e9, 16.6e9, 1.9e9};
  const double tol[] = {1e-12, 2e-3, 3e-3, 2e-2};
  for (int stage = 0; stage <= 3; ++stage) {
    CAPTURE(stage);
    auto r = run("mem.training", {{"params", 7.5e9},
                                  {"dp", 64},
                                  {"zero_stage", stage},
                                  {"optimizer_bytes", 12},
                                  {"activations", "none"}});
    REQUIRE(r.ok);
    CHECK(out(r, "total") == doctest::Approx(expect[stage]).epsilon(tol[stage]));
  }
  // §1 and §5.3: with P_os+g+p a trillion parameters (16 TB of model states) spread over 1024
  // devices is 16 GB each (15.6 GB exactly).
  auto t = run("mem.training", {{"params", 1e12},
                                {"dp", 1024},
                                {"zero_stage", 3},
                                {"optimizer_bytes", 12},
                                {"activations", "none"}});
  CHECK(out(t, "total") == doctest::Approx(15.625e9).epsilon(1e-12));
}

TEST_CASE("mem.training: max_params is the model that exactly fills the GPU") {
  auto r = run("mem.training", {{"params", 70e9},
                                {"tp", 8},
                                {"dp", 8},
                                {"zero_stage", 3},
                                {"gpu_memory", 80e9},
                                {"optimizer_bytes", 8},
                                {"activations", "rule_of_thumb"}});
  REQUIRE(r.ok);
  const double maxp = out(r, "max_params");
  // 188.125 GB at 70B, linear in params: 80/188.125 × 70B = 29.77B.
  CHECK(maxp == doctest::Approx(70e9 * 80 / 188.125).epsilon(1e-12));
  auto full = run("mem.training", {{"params", maxp},
                                   {"tp", 8},
                                   {"dp", 8},
                                   {"zero_stage", 3},
                                   {"gpu_memory", 80e9},
                                   {"optimizer_bytes", 8},
                                   {"activations", "rule_of_thumb"}});
  CHECK(out(full, "total") == doctest::Approx(80e9).epsilon(1e-12));
  // With explicit activations the fixed bytes come off the top first.
  auto e = run("mem.training", {{"params", 7e9},
                                {"activations", "explicit"},
                                {"activation_bytes", 20e9},
                                {"optimizer_bytes", 12}});
  CHECK(out(e, "activations") == 20e9);
  CHECK(out(e, "total") == doctest::Approx(7e9 * 16 + 20e9).epsilon(1e-12));
  // The default GPU memory is 80 GiB (an H100's "80 GB").
  CHECK(out(e, "max_params") == doctest::Approx((80 * 1073741824.0 - 20e9) / 16).epsilon(1e-12));
  CHECK(out(e, "fits") == 0);
}

TEST_CASE("mem.training: bad inputs are refused by name") {
  CHECK(error_of("mem.training", {{"params", 70e9}, {"zero_stage", 4}}).input == "zero_stage");
  CHECK(error_of("mem.training", {{"params", 70e9}, {"zero_stage", 1.5}}).input == "zero_stage");
  CHECK(error_of("mem.training", {{"params", 70e9}, {"tp", 0}}).input == "tp");
  CHECK(error_of("mem.training", {{"params", 70e9}, {"dp", -2}}).input == "dp");
  CHECK(error_of("mem.training", {{"params", 70e9}, {"activations", "lots"}}).input ==
        "activations");
  auto w = run("mem.training", {{"params", 7e9}, {"zero_stage", 2}, {"activations", "none"}});
  CHECK(w.warnings.size() == 1);  // ZeRO with dp = 1 shards nothing
}

// ---------------------------------------------------------------------------------------
// mem.activations

TEST_CASE("mem.activations: Korthikanti et al. 2022 Table 2, every row, GPT-3 175B") {
  // Table 3's GPT-3 175B: a = 96, h = 12288, L = 96, s = 2048, t = 8, micro-batch 1.
  const double s = 2048, h = 12288, t = 8, sbh = s * 1 * h, x = 5.0 * 96 * s / h;  // x = 80
  auto base = [&](const char* rc, bool sp, int tp) {
    return run("mem.activations", {{"seq_len", s},
                                   {"d_model", h},
                                   {"n_heads", 96},
                                   {"n_layers", 96},
                                   {"tp", tp},
                                   {"sequence_parallel", sp},
                                   {"recompute", rc}});
  };
  // Exact formulas: 1e-12 only absorbs rounding.
  CHECK(out(base("none", false, 1), "per_layer") ==
        doctest::Approx(sbh * (34 + x)).epsilon(1e-12));  // no parallelism, eq. (1)
  CHECK(out(base("none", false, 8), "per_layer") ==
        doctest::Approx(sbh * (10 + 24 / t + x / t)).epsilon(1e-12));  // tensor parallel
  CHECK(out(base("none", true, 8), "per_layer") ==
        doctest::Approx(sbh / t * (34 + x)).epsilon(1e-12));  // + sequence parallel
  CHECK(out(base("selective", false, 8), "per_layer") ==
        doctest::Approx(sbh * (10 + 24 / t)).epsilon(1e-12));  // TP + selective
  CHECK(out(base("selective", true, 8), "per_layer") ==
        doctest::Approx(sbh * 34 / t).epsilon(1e-12));  // TP + SP + selective
  CHECK(out(base("full", true, 8), "per_layer") == doctest::Approx(2 * sbh).epsilon(1e-12));
  auto r = base("selective", true, 8);
  CHECK(out(r, "attention_term") == doctest::Approx(80).epsilon(1e-12));
  // §5: for GPT-3, 5as/h = 80 against 34, so selective recomputation saves 80/114 = 70% of
  // the activation memory (MT-NLG 530B: 5as/h = 64, 65%). The paper rounds to whole percent.
  CHECK(out(r, "saved_fraction") == doctest::Approx(0.70).epsilon(5e-3));
  auto mt = run("mem.activations", {{"seq_len", 2048},
                                    {"d_model", 20480},
                                    {"n_heads", 128},
                                    {"n_layers", 105},
                                    {"tp", 8},
                                    {"sequence_parallel", true},
                                    {"recompute", "selective"}});
  CHECK(out(mt, "attention_term") == doctest::Approx(64).epsilon(1e-12));
  CHECK(out(mt, "saved_fraction") == doctest::Approx(0.65).epsilon(5e-3));
  // Abstract and Figure 7: the two techniques together cut activation memory about 5× from
  // the tensor-parallel baseline: GPT-3 23/4.25 = 5.4×; with a 20% tolerance on "5x".
  CHECK(out(base("none", false, 8), "per_layer") / out(r, "per_layer") ==
        doctest::Approx(5).epsilon(0.2));
}

TEST_CASE("mem.activations: 1F1B pipelining keeps L layers' worth on the first stage") {
  auto one = run("mem.activations",
                 {{"seq_len", 2048}, {"d_model", 12288}, {"n_heads", 96}, {"n_layers", 96}});
  auto eight =
      run("mem.activations",
          {{"seq_len", 2048}, {"d_model", 12288}, {"n_heads", 96}, {"n_layers", 96}, {"pp", 8}});
  REQUIRE(eight.ok);
  // §4.2.3: p microbatches × L/p layers = L layers, independent of p.
  CHECK(out(eight, "total") == doctest::Approx(out(one, "total")).epsilon(1e-12));
  CHECK(out(one, "total") == doctest::Approx(96 * out(one, "per_layer")).epsilon(1e-12));
  CHECK(out(eight, "layers_per_stage") == 12);
  // Fewer microbatches than stages: only those are in flight.
  auto few = run("mem.activations", {{"seq_len", 2048},
                                     {"d_model", 12288},
                                     {"n_heads", 96},
                                     {"n_layers", 96},
                                     {"pp", 8},
                                     {"microbatches", 2}});
  CHECK(out(few, "total") == doctest::Approx(out(one, "total") / 4).epsilon(1e-12));
  // No recomputation saves nothing.
  CHECK(out(one, "saved_fraction") == 0);
}

TEST_CASE("mem.activations: tp and pp must split heads and layers") {
  Error e = error_of(
      "mem.activations",
      {{"seq_len", 2048}, {"d_model", 12288}, {"n_heads", 96}, {"n_layers", 96}, {"tp", 5}});
  CHECK(e.input == "tp");
  CHECK(e.code == "inconsistent");
  CHECK(e.message.find("n_heads") != std::string::npos);
  e = error_of(
      "mem.activations",
      {{"seq_len", 2048}, {"d_model", 12288}, {"n_heads", 96}, {"n_layers", 96}, {"pp", 7}});
  CHECK(e.input == "pp");
  CHECK(
      error_of("mem.activations", {{"d_model", 12288}, {"n_heads", 96}, {"n_layers", 96}}).input ==
      "seq_len");
}

// ---------------------------------------------------------------------------------------
// mem.fsdp — seed 004 (a), (b)

TEST_CASE("mem.fsdp: seed 004 (a) — XXL model states are 3.52 TB, 44 H100s' worth") {
  // The seed rounds the parameter count to 220B: 220e9 × 16 B = 3,520 GB exactly.
  auto r =
      run("mem.fsdp", {{"params", 220e9}, {"device_memory", 95e9}, {"reference_gpu_memory", 80e9}});
  REQUIRE(r.ok);
  CHECK(out(r, "model_states") == doctest::Approx(3.52e12).epsilon(1e-12));
  CHECK(out(r, "reference_gpus") == 44);  // 3520 / 80 is exactly 44: must not round up to 45
  // The seed's reading: BF16 instead of FP32 gradients saves 220e9 × 2 B = 440 GB.
  CHECK(out(r, "bf16_grad_saving") == doctest::Approx(440e9).epsilon(1e-12));
  // The likelier reading: activations saved for backward in BF16, 143.7 GB at b=4, s=2048.
  CHECK(out(r, "backward_activations") == doctest::Approx(143.7e9).epsilon(1e-3));
  // With the exact count (model.params: 219,848,638,464) it is 3.5176 TB, still 44 GPUs.
  auto x =
      run("mem.fsdp",
          {{"params", 219848638464.0}, {"device_memory", 95e9}, {"reference_gpu_memory", 80e9}});
  CHECK(out(x, "model_states") == doctest::Approx(219848638464.0 * 16).epsilon(1e-12));
  CHECK(out(x, "reference_gpus") == 44);
  // The worked example reads "80 GB" and "95 GB" as decimal bytes (set above). The vendors mean
  // GiB (NVIDIA H100: 80 GiB; Google TPU v5p: 95 GiB), the defaults: 3520 GB / 85.9 GB = 40.98,
  // so 41 H100s, and 35 v5p chips for the model states alone (3520 / 102.0 = 34.5).
  auto gib = run("mem.fsdp", {{"params", 220e9}});
  CHECK(out(gib, "reference_gpus") == 41);
  CHECK(out(gib, "min_devices_model_states_only") == 35);
}

TEST_CASE("mem.fsdp: seed 004 (b) — N_FSDP ≥ 156 at b=4, s=2048; 38 with no activations") {
  auto r = run("mem.fsdp", {{"params", 220e9},
                            {"device_memory", 95e9},
                            {"reference_gpu_memory", 80e9},
                            {"batch", 4},
                            {"seq_len", 2048}});
  REQUIRE(r.ok);
  // A = 126 × b × s × (16384 + 53248) × 2 = 17,547,264 × b × s bytes (exact integers).
  CHECK(out(r, "activations") == doctest::Approx(17547264.0 * 4 * 2048).epsilon(1e-12));
  CHECK(out(r, "min_devices") == 156);
  CHECK(out(r, "min_devices_model_states_only") == 38);
  // The expression (3520 + A/2)/N + A/2 crosses 95 GB between 155 and 156.
  auto at156 = run("mem.fsdp", {{"params", 220e9},
                                {"device_memory", 95e9},
                                {"reference_gpu_memory", 80e9},
                                {"n_fsdp", 156}});
  auto at155 = run("mem.fsdp", {{"params", 220e9},
                                {"device_memory", 95e9},
                                {"reference_gpu_memory", 80e9},
                                {"n_fsdp", 155}});
  CHECK(out(at156, "fits") == 1);
  CHECK(out(at155, "fits") == 0);
  const double a = 17547264.0 * 4 * 2048;
  CHECK(out(at156, "per_device") ==
        doctest::Approx((3.52e12 + a / 2) / 156 + a / 2).epsilon(1e-12));
  // Batch 1, short sequences: activations vanish and the bound tends to 38.
  auto small = run(
      "mem.fsdp",
      {{"params", 220e9}, {"device_memory", 95e9}, {"reference_gpu_memory", 80e9}, {"batch", 0}});
  CHECK(out(small, "min_devices") == 38);
}

TEST_CASE("mem.fsdp: when replicated activations alone overflow a device, no N suffices") {
  auto r = run("mem.fsdp", {{"params", 220e9}, {"batch", 64}});
  REQUIRE(r.ok);
  CHECK(r.outputs.find("min_devices") == nullptr);  // absent: no count is enough
  CHECK(r.warnings.size() == 1);
  // Sharding all activations brings the bound back.
  auto all =
      run("mem.fsdp", {{"params", 220e9}, {"batch", 64}, {"activation_sharded_fraction", 1}});
  CHECK(out(all, "min_devices") > 0);
  CHECK(error_of("mem.fsdp", {{"params", 220e9}, {"activation_sharded_fraction", 1.5}}).input ==
        "activation_sharded_fraction");
}

// ---------------------------------------------------------------------------------------
// scale.fsdp_tp — seed 004 (c), done right

TEST_CASE("scale.fsdp_tp: seed 004 (c) corrected — threshold ≈ 25.3k tokens, 395 per device") {
  auto r = run("scale.fsdp_tp", {{"d_model", 16384}, {"d_ff", 53248}});
  REQUIRE(r.ok);
  // α = 4.6e14 / 1.8e11 = 2555.6 (exact ratio).
  CHECK(out(r, "alpha") == doctest::Approx(4.6e14 / 1.8e11).epsilon(1e-12));
  // B > (F/(Y·M_X)) / (F/(N·α) − 1/(X·M_Y)) = 6656 / 0.26307 = 25,302 tokens. SPEC §6 quotes
  // "≈ 25.3k" and "≈ 395": 1e-3 keeps those digits.
  CHECK(out(r, "min_batch_tokens") == doctest::Approx(25.3e3).epsilon(1e-3));
  CHECK(out(r, "min_tokens_per_device") == doctest::Approx(395).epsilon(1e-3));
  // The seed's final answer — 16 sequences of 2048 (one per FSDP shard) — satisfies it.
  CHECK(out(r, "min_sequences") == 16);
  CHECK(out(r, "eval_batch_tokens") == 16 * 2048);
  CHECK(out(r, "compute_bound") == 1);
  // The seed's 3.488e12·b·s FLOPs per block is 1000× too much: 4·D·F = 3.488e9 per token.
  // Forward compute at 32,768 tokens on 64 chips: 126 × 3.4897e9 × 32768 / (64 × 4.6e14).
  const double per_token_block = 4.0 * 16384 * 53248;
  CHECK(per_token_block == doctest::Approx(3.488e9).epsilon(1e-3));
  CHECK(out(r, "compute_time") ==
        doctest::Approx(126 * per_token_block * 32768 / (64 * 4.6e14)).epsilon(1e-12));
  CHECK(out(r, "compute_time") < 1);  // 0.489 s, not the seed's 1,956 s
  // Communication: FSDP 126 × 4DF/(Y·W·M_X) and TP 126 × 4BD/(X·W·M_Y) (exact formulas).
  CHECK(out(r, "fsdp_comm_time") ==
        doctest::Approx(126 * 4.0 * 16384 * 53248 / (4 * 1.8e11 * 2)).epsilon(1e-12));
  CHECK(out(r, "tp_comm_time") ==
        doctest::Approx(126 * 4.0 * 32768 * 16384 / (16 * 1.8e11 * 1)).epsilon(1e-12));
}

TEST_CASE("scale.fsdp_tp: the communication-optimal split (How to Scale Your Model)") {
  // X_opt = √(B·N·M_X/(F·M_Y)); at X_opt the condition is B/N > 4α²/(F·M_X·M_Y).
  auto r = run("scale.fsdp_tp", {{"d_model", 16384}, {"d_ff", 53248}, {"batch_tokens", 65536}});
  REQUIRE(r.ok);
  const double alpha = 4.6e14 / 1.8e11;
  CHECK(out(r, "optimal_fsdp") ==
        doctest::Approx(std::sqrt(65536.0 * 64 * 2 / 53248)).epsilon(1e-12));
  CHECK(out(r, "min_tokens_per_device_optimal") ==
        doctest::Approx(4 * alpha * alpha / (53248 * 2)).epsilon(1e-12));
  // Self-consistency: at the threshold batch the comm/compute balance is exact.
  auto t = run("scale.fsdp_tp", {{"d_model", 16384}, {"d_ff", 53248}, {"batch_tokens", 25301.71}});
  CHECK(out(t, "compute_time") ==
        doctest::Approx(out(t, "fsdp_comm_time") + out(t, "tp_comm_time")).epsilon(1e-6));
  // Below it the step is communication-bound.
  auto low = run("scale.fsdp_tp", {{"d_model", 16384}, {"d_ff", 53248}, {"batch_tokens", 8192}});
  CHECK(out(low, "compute_bound") == 0);
}

TEST_CASE("scale.fsdp_tp: a TP degree that can never be compute-bound is a verdict (#30.6)") {
  // Not an error: the scenario bar's TP 8 on a small model must show "not compute-bound".
  auto never = run("scale.fsdp_tp", {{"d_model", 16384}, {"d_ff", 53248}, {"fsdp", 1}, {"tp", 64}});
  REQUIRE(never.ok);
  CHECK(out(never, "compute_bound") == 0);
  CHECK(never.outputs.find("min_batch_tokens") == nullptr);
  CHECK(error_of("scale.fsdp_tp", {{"d_model", 16384}, {"d_ff", 53248}, {"tp", 3}}).input == "tp");
  CHECK(
      error_of("scale.fsdp_tp", {{"d_model", 16384}, {"d_ff", 53248}, {"batch_tokens", 4}}).input ==
      "batch_tokens");
}

// ---------------------------------------------------------------------------------------
// parallel.recommend — seed 001 §8

TEST_CASE("parallel.recommend: seed 001 §8 — the notebook's test cases") {
  struct Case {
    double params, gpus, tp, pp, dp, zero;
  };
  // SPEC §4 seeds (7B/64, 70B/512, 175B/1024) plus the notebook's 13B/128 and 1.7T/2048.
  const Case cases[] = {{7e9, 64, 8, 1, 8, 2},
                        {70e9, 512, 8, 2, 32, 2},
                        {175e9, 1024, 8, 4, 32, 2},
                        {13e9, 128, 8, 1, 16, 2},
                        {1700e9, 2048, 8, 4, 64, 2}};
  for (const auto& c : cases) {
    CAPTURE(c.params);
    auto r = run("parallel.recommend",
                 {{"params", c.params}, {"gpus", c.gpus}, {"method", "rule_of_thumb"}});
    REQUIRE(r.ok);
    CHECK(out(r, "tp") == c.tp);
    CHECK(out(r, "pp") == c.pp);
    CHECK(out(r, "dp") == c.dp);
    CHECK(out(r, "zero_stage") == c.zero);
    CHECK(out(r, "checkpointing") == 1);
    CHECK(out(r, "tp") * out(r, "pp") * out(r, "dp") == c.gpus);
    const Json* why = r.outputs.find("rationale");
    REQUIRE(why != nullptr);
    CHECK(why->as_string().find("3D parallelism") != std::string::npos);
  }
  // 175B on 1024: mem.training's check of the recommendation — 10.94 + 0.34 + 1.37 + 32.8 GB.
  auto g =
      run("parallel.recommend", {{"params", 175e9}, {"gpus", 1024}, {"method", "rule_of_thumb"}});
  CHECK(out(g, "memory_per_gpu") ==
        doctest::Approx(175e9 / 32 * 2 + 175e9 / 1024 * 10 + 175e9 / 32 * 6).epsilon(1e-12));
  CHECK(out(g, "fits") == 1);
}

TEST_CASE("parallel.recommend: small models and single nodes") {
  auto small =
      run("parallel.recommend", {{"params", 1e9}, {"gpus", 64}, {"method", "rule_of_thumb"}});
  CHECK(out(small, "tp") == 1);
  CHECK(out(small, "dp") == 64);
  CHECK(out(small, "zero_stage") == 2);
  CHECK(out(small, "checkpointing") == 0);
  auto node =
      run("parallel.recommend", {{"params", 13e9}, {"gpus", 8}, {"method", "rule_of_thumb"}});
  CHECK(out(node, "tp") == 8);
  CHECK(out(node, "dp") == 1);
  CHECK(out(node, "zero_stage") == 1);
  // The seed's integer division sent 4 GPUs down the multi-node path (dp = 0); here TP = 4.
  auto four =
      run("parallel.recommend", {{"params", 7e9}, {"gpus", 4}, {"method", "rule_of_thumb"}});
  CHECK(out(four, "tp") == 4);
  CHECK(out(four, "dp") == 1);
  CHECK(
      error_of("parallel.recommend", {{"params", 70e9}, {"gpus", 100}, {"method", "rule_of_thumb"}})
          .input == "gpus");
  // PP must divide the node count: 175B on 10 nodes → pp = min(4, 5) = 4 → 2 (10 % 4 ≠ 0).
  auto ten =
      run("parallel.recommend", {{"params", 175e9}, {"gpus", 80}, {"method", "rule_of_thumb"}});
  CHECK(std::fmod(10, out(ten, "pp")) == 0);
  CHECK(out(ten, "tp") * out(ten, "pp") * out(ten, "dp") == 80);
}

// ---------------------------------------------------------------------------------------
// pipe.bubble

TEST_CASE("pipe.bubble: seed 002 §5 — N=4, M=16 → 15.8% exact, 18.75% approximate") {
  auto r = run("pipe.bubble", {{"stages", 4}, {"microbatches", 16}});
  REQUIRE(r.ok);
  CHECK(out(r, "bubble_fraction") == doctest::Approx(3.0 / 19).epsilon(1e-12));
  CHECK(out(r, "bubble_fraction") == doctest::Approx(0.158).epsilon(2e-3));  // seed prints 15.8%
  CHECK(out(r, "bubble_approx") == doctest::Approx(0.1875).epsilon(1e-12));
  CHECK(out(r, "p2p_ops") == 2 * 16 * 3);
}

TEST_CASE("pipe.bubble: seed 002 — 2M(N−1) = 448 sends for M=32, N=8; microbatch = B/M") {
  auto r = run("pipe.bubble", {{"stages", 8}, {"microbatches", 32}, {"batch", 512}});
  REQUIRE(r.ok);
  CHECK(out(r, "p2p_ops") == 448);
  // Seed 002's pitfall: microbatch size is B/M = 16, not B/N = 64.
  CHECK(out(r, "microbatch_size") == 16);
  // "To keep bubble under 25%, need M ≥ 4N": at M = 4N the approximate bubble is (N−1)/(4N).
  for (int n : {2, 4, 8, 16}) {
    auto q = run("pipe.bubble", {{"stages", n}, {"microbatches", 4 * n}});
    CHECK(out(q, "bubble_approx") < 0.25);
    CHECK(out(q, "bubble_fraction") < 0.25);
  }
}

TEST_CASE("pipe.bubble: fewest microbatches for a target bubble") {
  auto r = run("pipe.bubble", {{"stages", 4}, {"microbatches", 16}, {"target", 0.25}});
  // Exact: 3/(M+3) ≤ 0.25 ⇔ M ≥ 9; approximate: 3/M ≤ 0.25 ⇔ M ≥ 12 (the seed's 4N = 16 is
  // a safe round-up of both).
  CHECK(out(r, "min_microbatches") == 9);
  CHECK(out(r, "min_microbatches_approx") == 12);
  auto at9 = run("pipe.bubble", {{"stages", 4}, {"microbatches", 9}});
  CHECK(out(at9, "bubble_fraction") == doctest::Approx(0.25).epsilon(1e-12));
  // A quotient that is an integer up to rounding stays that integer: 7·0.9/0.1 = 63, not 64.
  auto t = run("pipe.bubble", {{"stages", 8}, {"microbatches", 16}, {"target", 0.1}});
  CHECK(out(t, "min_microbatches") == 63);
  CHECK(out(t, "min_microbatches_approx") == 70);
}

TEST_CASE("pipe.bubble: interleaving divides the bubble by v (Narayanan et al. 2021 §2.2.2)") {
  // Narayanan et al. 2021: bubble time fraction (p−1)/m, and (1/v)·(p−1)/m interleaved.
  auto plain = run("pipe.bubble", {{"stages", 8}, {"microbatches", 32}});
  auto inter = run("pipe.bubble", {{"stages", 8}, {"microbatches", 32}, {"interleave", 2}});
  CHECK(out(inter, "bubble_approx") ==
        doctest::Approx(out(plain, "bubble_approx") / 2).epsilon(1e-12));
  CHECK(out(inter, "bubble_approx") == doctest::Approx(7.0 / 64).epsilon(1e-12));
  // … at the price of v× more pipeline communication (§2.2.2): 2M(vN−1) sends.
  CHECK(out(inter, "p2p_ops") == 2 * 32 * 15);
  // GPipe (Huang et al. 2019 §2.3): the bubble is negligible for M ≥ 4K — under 20%.
  auto g = run("pipe.bubble", {{"stages", 4}, {"microbatches", 16}});
  CHECK(out(g, "bubble_fraction") < 0.2);
}

TEST_CASE("pipe.bubble: seed 004 (d)'s 12.5% for 4 stages and 8 microbatches is wrong") {
  auto r = run("pipe.bubble", {{"stages", 4}, {"microbatches", 8}});
  // 3/11 = 27.3% of the step (3/8 = 37.5% of useful work), not 12.5%.
  CHECK(out(r, "bubble_fraction") == doctest::Approx(3.0 / 11).epsilon(1e-12));
  CHECK(out(r, "bubble_approx") == doctest::Approx(0.375).epsilon(1e-12));
  // 12.5% would take 21 microbatches (exact) or 24 (approximate).
  auto t = run("pipe.bubble", {{"stages", 4}, {"microbatches", 8}, {"target", 0.125}});
  CHECK(out(t, "min_microbatches") == 21);
  CHECK(out(t, "min_microbatches_approx") == 24);
}

TEST_CASE("pipe.bubble: bad inputs are refused by name") {
  CHECK(error_of("pipe.bubble", {{"stages", 4}, {"microbatches", 0}}).input == "microbatches");
  CHECK(error_of("pipe.bubble", {{"stages", 4}, {"microbatches", 16}, {"batch", 100}}).input ==
        "batch");
  CHECK(error_of("pipe.bubble", {{"stages", 4}, {"microbatches", 16}, {"target", 1}}).input ==
        "target");
  CHECK(error_of("pipe.bubble", {{"stages", 0}, {"microbatches", 16}}).input == "stages");
  auto one = run("pipe.bubble", {{"stages", 1}, {"microbatches", 4}, {"target", 0.1}});
  CHECK(out(one, "bubble_fraction") == 0);
  CHECK(out(one, "min_microbatches") == 1);
}

TEST_CASE("ceil_count: integer quotients are not rounded up by floating-point noise") {
  CHECK(ceil_count(3520e9 / 80e9) == 44);
  CHECK(ceil_count(0.1 * 3 / 0.1) == 3);
  CHECK(ceil_count(44.01) == 45);
  CHECK(ceil_count(0) == 0);
}

TEST_CASE("charts and presets of the memory area are registered") {
  auto chart = [](const std::string& id) -> const ChartSpec* {
    for (const auto& c : registry().charts())
      if (c.id == id) return &c;
    return nullptr;
  };
  const ChartSpec* zero = chart("mem-zero-breakdown");
  REQUIRE(zero != nullptr);
  CHECK(zero->kind == "bar");
  CHECK(zero->hline_input == "gpu_memory");
  CHECK(zero->y.size() == 4);
  const ChartSpec* bubble = chart("pipe-bubble-microbatches");
  REQUIRE(bubble != nullptr);
  CHECK(bubble->series.size() == 4);
  const ChartSpec* act = chart("act-per-layer-seq");
  REQUIRE(act != nullptr);
  CHECK(act->series.size() == 3);
  // The ZeRO sweep over the notebook's TP=8, DP=8 row gives the table's last three totals.
  Json in = Json::object();
  in.set("params", 70e9);
  in.set("tp", 8);
  in.set("dp", 8);
  in.set("optimizer_bytes", 8);
  in.set("activations", "rule_of_thumb");
  SweepResult s = registry().sweep("mem.training", in, "zero_stage", {0, 1, 2, 3});
  REQUIRE(s.ok);
  for (const auto& [name, col] : s.columns)
    if (name == "total") {
      CHECK(col[1] == doctest::Approx(218.75e9).epsilon(1e-12));
      CHECK(col[3] == doctest::Approx(188.125e9).epsilon(1e-12));
    }
  // The XXL scenario reproduces seed 004 through every estimator it names.
  const Preset* xxl = nullptr;
  for (const auto& p : registry().presets())
    if (p.id == "seed004-xxl") xxl = &p;
  REQUIRE(xxl != nullptr);
  for (const auto& id : xxl->estimators) {
    CAPTURE(id);
    const Estimator* e = registry().find(id);
    REQUIRE(e != nullptr);
    Json v = Json::object();
    for (const auto& [k, val] : xxl->values.members())
      if (e->input(k)) v.set(k, val);
    RunResult r = registry().run(id, v);
    REQUIRE(r.ok);
    if (id == "model.params") CHECK(test::out(r, "params") == 219848638464.0);
    if (id == "mem.fsdp") CHECK(test::out(r, "min_devices") == 156);
    if (id == "scale.fsdp_tp") CHECK(test::out(r, "min_sequences") == 16);
  }
}

TEST_CASE("scale.fsdp_tp: no TP traffic at tp = 1, no weight gathers at fsdp = 1") {
  // A degree of 1 has nothing to send (How to Scale Your Model, "Training": pure FSDP's only
  // collectives are the weight all-gathers and gradient reduce-scatters; pure TP's the
  // activation all-reduces). The notes' formula charged one rank's worth of traffic.
  auto fsdp = run("scale.fsdp_tp", {{"d_model", 16384}, {"d_ff", 53248}, {"fsdp", 64}, {"tp", 1}});
  REQUIRE(fsdp.ok);
  CHECK(out(fsdp, "tp_comm_time") == 0);
  CHECK(out(fsdp, "fsdp_comm_time") > 0);
  // Pure FSDP: B_min = (F / M_X) / (2F / (p·N·α)), the TP term gone.
  const double alpha = 4.6e14 / 1.8e11;
  CHECK(out(fsdp, "min_batch_tokens") ==
        doctest::Approx(53248.0 / 2 / (2 * 53248.0 / (2 * 64 * alpha))).epsilon(1e-12));
  auto tp = run("scale.fsdp_tp", {{"d_model", 16384}, {"d_ff", 53248}, {"fsdp", 1}, {"tp", 4}});
  REQUIRE(tp.ok);
  CHECK(out(tp, "fsdp_comm_time") == 0);
  CHECK(out(tp, "tp_comm_time") > 0);
  CHECK(out(tp, "min_sequences") >= 1);
}

TEST_CASE("mem.training: mixed-precision Adam is 16 bytes per parameter by default (ZeRO §3)") {
  // Rajbhandari et al. 2020, §3.1: "mixed-precision training of a model with Ψ parameters
  // requires ... 2Ψ + 2Ψ + 12Ψ = 16Ψ bytes" (fp16 weights and gradients; fp32 master copy,
  // momentum and variance: K = 12). Their 1.5B GPT-2 example: at least 24 GB.
  auto r = run("mem.training", {{"params", 1.5e9}, {"activations", "none"}});
  REQUIRE(r.ok);
  CHECK(out(r, "bytes_per_param") == 16);
  CHECK(out(r, "total") == doctest::Approx(24e9).epsilon(1e-12));
  // The worked example's 8 bytes (moments only) stay an input: 12 B/param.
  auto seed =
      run("mem.training", {{"params", 1.5e9}, {"activations", "none"}, {"optimizer_bytes", 8}});
  CHECK(out(seed, "bytes_per_param") == 12);
}

TEST_CASE("mem.training: activations are Korthikanti et al.'s per-layer count, with the batch") {
  // Korthikanti et al. 2022, Table 2: s·b·h·(34 + 5·a·s/h) bytes per layer with no
  // parallelism, no recomputation (16-bit activations). GPT-3 175B's shape (h 12288, a 96,
  // L 96, 4h MLP), s 2048, b 1: 2048·12288·(34 + 5·96·2048/12288) = 2.869 GB per layer, 275.4 GB
  // for 96 layers (the paper's scores stored: fused attention off).
  const double sbh = 2048.0 * 12288;
  const double per_layer = sbh * (34 + 5.0 * 96 * 2048 / 12288);
  auto act = [](const char* key, Json value) {
    Json in = Json::object();
    in.set("model", "gpt3");
    in.set("params", 175e9);
    in.set("seq_len", 2048);
    in.set("micro_batch", 1);
    in.set("flash_attention", false);
    if (key) in.set(key, value);
    RunResult r = registry().run("mem.training", in);
    REQUIRE(r.ok);
    return r.outputs.find("activations")->as_number();
  };
  CHECK(act(nullptr, Json()) == doctest::Approx(96 * per_layer).epsilon(1e-12));
  // Twice the microbatch, twice the activations — the rule of thumb ignored the batch.
  CHECK(act("micro_batch", 2) == doctest::Approx(2 * 96 * per_layer).epsilon(1e-12));
  // Full recomputation keeps only each layer's input, 2·s·b·h (Korthikanti §5).
  CHECK(act("recompute", "full") == doctest::Approx(96 * 2 * sbh).epsilon(1e-12));
  // The rule of thumb stays reachable: 10 × 175B × 2 bytes.
  CHECK(act("activations", "rule_of_thumb") == doctest::Approx(3.5e12).epsilon(1e-12));
}

TEST_CASE("parallel.recommend: the search's layout fits by its own check, train.step's") {
  // The recommendation is the fastest layout of the typed search that fits; its memory and
  // step time are train.step's for the same layout (one shared function each), so running
  // train.step on it must give the same numbers and fit. Llama 3 70B on 64 H100s.
  auto r = run("parallel.recommend", {{"model", "llama3-70b"}, {"gpus", 64}});
  REQUIRE(r.ok);
  CHECK(out(r, "fits") == 1);
  CHECK(out(r, "memory_per_gpu") <= 80 * 1073741824.0);
  CHECK(out(r, "tp") * out(r, "pp") * out(r, "cp") * out(r, "dp") == 64);
  // A 70B model's 16 B/param states (1.13 TB) over 64 GPUs need sharding: ZeRO-3 or PP × TP.
  CHECK((out(r, "zero_stage") == 3 || out(r, "tp") * out(r, "pp") >= 8));
  Json step = Json::object();
  step.set("model", "llama3-70b");
  step.set("gpu", "h100");
  for (const char* k : {"tp", "pp", "cp", "dp", "zero_stage", "microbatch"}) step.set(k, out(r, k));
  step.set("ep", 1);
  step.set("recompute", r.outputs.find("recompute")->as_string());
  step.set("sequence_parallel", r.outputs.find("sequence_parallel")->as_bool());
  step.set("global_batch", 1024);  // the preset sets seq_len (8192) on both
  RunResult t = registry().run("train.step", step);
  REQUIRE(t.ok);
  CHECK(t.outputs.find("memory_per_gpu")->as_number() ==
        doctest::Approx(out(r, "memory_per_gpu")).epsilon(1e-9));
  CHECK(t.outputs.find("step_time")->as_number() ==
        doctest::Approx(out(r, "step_time")).epsilon(1e-9));
  // The worked example's rule for the 1.7T MoE on 2048 GPUs: TP 8, PP 4, ZeRO-2 — which its
  // own memory check rejects (1.7T × 16 B / 32 ≫ 80 GB). The search never answers a layout
  // that does not fit: it finds one, or says none fits, naming the GPU count.
  auto rule =
      run("parallel.recommend", {{"params", 1700e9}, {"gpus", 2048}, {"method", "rule_of_thumb"}});
  CHECK(out(rule, "fits") == 0);
  auto tiny = run("parallel.recommend", {{"model", "llama3-405b"}, {"gpus", 8}});
  CHECK_FALSE(tiny.ok);
  CHECK(tiny.error.input == "gpus");
}
