// Training and model estimators: the seeds' reference cases (SPEC §4) and published numbers.
#include "training/training.hpp"

#include "helpers.hpp"

using namespace napkin;
using test::out;
using test::run;

TEST_CASE("train.chinchilla: seed 001 — GPT-3 175B wants 3.5T tokens and 3.675e24 FLOPs") {
  auto r = run("train.chinchilla", {{"params", 175e9}});
  REQUIRE(r.ok);
  // Exact products of round numbers: only floating-point rounding to absorb.
  CHECK(out(r, "optimal_tokens") == doctest::Approx(3.5e12).epsilon(1e-12));
  CHECK(out(r, "compute_flops") == doctest::Approx(3.675e24).epsilon(1e-12));
}

TEST_CASE("train.chinchilla: the seed notebook's table (GPT-3 trained 1.7 tokens/param)") {
  auto r = run("train.chinchilla", {{"params", "175B"}, {"tokens", "300B"}});
  REQUIRE(r.ok);
  CHECK(out(r, "tokens_per_param_actual") == doctest::Approx(1.714).epsilon(1e-3));
  auto llama = run("train.chinchilla", {{"params", 70e9}, {"tokens", 2e12}});
  CHECK(out(llama, "tokens_per_param_actual") == doctest::Approx(28.6).epsilon(1e-3));
}

TEST_CASE("train.chinchilla: budget inversion against Hoffmann et al. 2022") {
  // Chinchilla itself: 70B params on 1.4T tokens = 5.88e23 FLOPs (6ND); inverting that budget
  // with r = 20 must give back 70B and 1.4T exactly.
  auto r = run("train.chinchilla", {{"params", 70e9}, {"compute_flops", 6 * 70e9 * 1.4e12}});
  REQUIRE(r.ok);
  CHECK(out(r, "optimal_params_for_budget") == doctest::Approx(70e9).epsilon(1e-9));
  CHECK(out(r, "optimal_tokens_for_budget") == doctest::Approx(1.4e12).epsilon(1e-9));
  // Hoffmann et al. 2022, Table 3 (Approach 1): 5.76e23 FLOPs → 67B params, 1.5T tokens.
  // The 20-tokens-per-parameter rule lands within 5% on size and 10% on tokens.
  auto t3 = run("train.chinchilla", {{"params", 67e9}, {"compute_flops", 5.76e23}});
  CHECK(out(t3, "optimal_params_for_budget") == doctest::Approx(67e9).epsilon(0.05));
  CHECK(out(t3, "optimal_tokens_for_budget") == doctest::Approx(1.5e12).epsilon(0.10));
  // Table 3, 175B row: 3.7T tokens; the 20× rule gives 3.5T (within 6%).
  auto g = run("train.chinchilla", {{"params", 175e9}});
  CHECK(out(g, "optimal_tokens") == doctest::Approx(3.7e12).epsilon(0.06));
}

TEST_CASE("train.time: seed 001 — LLaMA-2-70B on 512 A100s at 50% MFU takes 121.7 days") {
  auto r = run(
      "train.time",
      {{"params", 70e9}, {"tokens", 2e12}, {"gpus", 512}, {"peak_flops", 312e12}, {"mfu", 0.5}});
  REQUIRE(r.ok);
  CHECK(out(r, "total_flops") == doctest::Approx(8.4e23).epsilon(1e-12));
  // The seed prints 121.7 days and 1,495,726 GPU-hours (rounded): 1e-4 keeps the printed digits.
  CHECK(out(r, "days") == doctest::Approx(121.7).epsilon(1e-3));
  CHECK(out(r, "gpu_hours") == doctest::Approx(1495726).epsilon(1e-6));
  // No price given: the cost was not asked for, so it is absent rather than $0.
  CHECK(r.outputs.find("cost") == nullptr);
  CHECK(r.steps.size() >= 5);
}

TEST_CASE("train.time: the seed table's H100 and larger-cluster rows") {
  // H100 ×1024 at 50%: 8.4e23 / (1024 · 990e12 · 0.5) s = 19.18 days.
  auto r =
      run("train.time",
          {{"params", "70B"}, {"tokens", "2T"}, {"gpus", 1024}, {"peak_flops", "990 TFLOP/s"}});
  CHECK(out(r, "days") == doctest::Approx(19.18).epsilon(1e-3));
  auto c = run("train.time", {{"params", 70e9},
                              {"tokens", 2e12},
                              {"gpus", 512},
                              {"peak_flops", 312e12},
                              {"price_per_gpu_hour", 2}});
  CHECK(out(c, "cost") == doctest::Approx(2 * 1495726.0).epsilon(1e-6));
}

TEST_CASE("train.time: LLaMA-2's reported GPU-hours imply 43% MFU on A100s") {
  // Touvron et al. 2023 (LLaMA 2), Table 2: 70B used 1,720,320 A100-80GB GPU-hours for 2T tokens.
  // 6ND at 312 TFLOP/s reproduces that at MFU = 8.4e23 / (1,720,320 · 3600 · 312e12) = 43.47%.
  auto r = run("train.time", {{"params", 70e9},
                              {"tokens", 2e12},
                              {"gpus", 2048},
                              {"peak_flops", 312e12},
                              {"mfu", 0.4347}});
  CHECK(out(r, "gpu_hours") == doctest::Approx(1720320).epsilon(2e-4));
  // Same table, 7B: 184,320 GPU-hours ⇒ 40.6% MFU.
  auto s = run(
      "train.time",
      {{"params", 7e9}, {"tokens", 2e12}, {"gpus", 1024}, {"peak_flops", 312e12}, {"mfu", 0.4058}});
  CHECK(out(s, "gpu_hours") == doctest::Approx(184320).epsilon(2e-4));
}

TEST_CASE("train.mfu: PaLM 540B's published 46.2% MFU and 57.8% HFU") {
  // Chowdhery et al. 2022 (PaLM), §4 and Appendix B: 238.3K tokens/s on 6144 TPU v4 chips
  // (275 TFLOP/s), N = 540.35B, L = 118, H·Q = 48·256, T = 2048 → MFU 46.2%.
  auto r = run("train.mfu", {{"params", 540.35e9},
                             {"tokens_per_second", 238.3e3},
                             {"gpus", 6144},
                             {"peak_flops", 275e12},
                             {"n_layers", 118},
                             {"d_model", 18432},
                             {"seq_len", 2048},
                             {"attention_dim", 12288}});
  REQUIRE(r.ok);
  CHECK(out(r, "mfu") == doctest::Approx(0.462).epsilon(2e-3));
  // PaLM reports HFU 57.8% with its own rematerialization policy, between our selective
  // (which only recomputes attention scores) and full recomputation bounds.
  auto sel = run("train.mfu", {{"params", 540.35e9},
                               {"tokens_per_second", 238.3e3},
                               {"gpus", 6144},
                               {"peak_flops", 275e12},
                               {"n_layers", 118},
                               {"d_model", 18432},
                               {"seq_len", 2048},
                               {"attention_dim", 12288},
                               {"recompute", "selective"}});
  auto full = run("train.mfu", {{"params", 540.35e9},
                                {"tokens_per_second", 238.3e3},
                                {"gpus", 6144},
                                {"peak_flops", 275e12},
                                {"n_layers", 118},
                                {"d_model", 18432},
                                {"seq_len", 2048},
                                {"attention_dim", 12288},
                                {"recompute", "full"}});
  CHECK(out(sel, "hfu") < 0.578);
  CHECK(out(full, "hfu") > 0.578);
  CHECK(out(full, "hfu") == doctest::Approx(0.462 * 4.0 / 3.0).epsilon(5e-3));
}

TEST_CASE("train.mfu: impossible throughput is an error, not 130% MFU") {
  auto e = test::error_of("train.mfu", {{"params", 70e9}, {"tokens_per_second", 1e9}, {"gpus", 8}});
  CHECK(e.input == "tokens_per_second");
}

TEST_CASE("model.params: seed 004's FFN-only XXL model has 219,848,638,464 parameters") {
  auto r = run(
      "model.params",
      {{"d_model", 16384}, {"d_ff", 53248}, {"n_layers", 126}, {"attention", false}, {"vocab", 0}});
  REQUIRE(r.ok);
  CHECK(out(r, "params") == 219848638464.0);  // integer arithmetic in doubles: exact
}

TEST_CASE("model.params: LLaMA-2-7B's exact published count") {
  // Touvron et al. 2023 / the released checkpoint: 6,738,415,616 parameters
  // (SwiGLU d_ff 11008, untied 32000-token embeddings, RMSNorm gains counted).
  auto r = run("model.params", {{"d_model", 4096},
                                {"n_layers", 32},
                                {"n_heads", 32},
                                {"vocab", 32000},
                                {"ffn", "swiglu"},
                                {"tied_embeddings", false},
                                {"norms", true}});
  REQUIRE(r.ok);
  CHECK(out(r, "d_ff") == 11008);
  CHECK(out(r, "params") == 6738415616.0);
}

TEST_CASE("model.params: LLaMA-2-70B with GQA has 68.98B parameters") {
  // Released LLaMA-2-70B: 68,976,648,192 parameters (8 KV heads, d_ff 28672).
  auto r = run("model.params", {{"d_model", 8192},
                                {"n_layers", 80},
                                {"n_heads", 64},
                                {"n_kv_heads", 8},
                                {"d_ff", 28672},
                                {"vocab", 32000},
                                {"ffn", "swiglu"},
                                {"tied_embeddings", false},
                                {"norms", true}});
  CHECK(out(r, "params") == 68976648192.0);
}

TEST_CASE("model.params: GPT-3 175B from Brown et al. 2020 Table 2.1 shapes") {
  // 96 layers, d = 12288, 96 heads, learned positions 2048, biases: 174.6B ("175B").
  auto r = run("model.params", {{"d_model", 12288},
                                {"n_layers", 96},
                                {"n_heads", 96},
                                {"vocab", 50257},
                                {"biases", true},
                                {"norms", true},
                                {"positions", 2048}});
  CHECK(out(r, "params") == doctest::Approx(175e9).epsilon(0.003));
  auto bad = test::error_of("model.params", {{"d_model", 1000}, {"n_layers", 2}, {"n_heads", 3}});
  CHECK(bad.input == "n_heads");
}

TEST_CASE("model.flops: seed 001's GPT-3 FLOPs per token") {
  auto r = run("model.flops", {{"d_model", 12288}, {"n_layers", 96}, {"vocab", 50257}});
  REQUIRE(r.ok);
  CHECK(out(r, "fwd_flops_per_layer") == 3623878656.0);
  CHECK(out(r, "forward_flops_per_token") == 349127467008.0);
  CHECK(out(r, "step_flops") == 1047382401024.0);
  CHECK(out(r, "bwd_flops") == 2 * 349127467008.0);
  // Seed's verify_6n_rule: against 175B, the detailed count is 0.998 of 6N.
  auto g = run("model.flops",
               {{"d_model", 12288}, {"n_layers", 96}, {"vocab", 50257}, {"params", 175e9}});
  CHECK(out(g, "ratio_to_6n") == doctest::Approx(0.9975).epsilon(1e-3));
}

TEST_CASE("model.flops: the attention term is 4·s·d per layer (erratum to seed 001's 2·d·s²)") {
  // PaLM's convention: every token attends to the whole sequence (no causal halving).
  auto a = run("model.flops", {{"d_model", 4096},
                               {"n_heads", 32},
                               {"n_layers", 32},
                               {"seq_len", 2048},
                               {"vocab", 0},
                               {"include_attention", true},
                               {"causal", false}});
  auto b =
      run("model.flops",
          {{"d_model", 4096}, {"n_heads", 32}, {"n_layers", 32}, {"seq_len", 2048}, {"vocab", 0}});
  CHECK(out(a, "fwd_flops_per_layer") - out(b, "fwd_flops_per_layer") == 4.0 * 2048 * 4096);
  // PaLM Appendix B: forward+backward attention = 12·L·d·s, i.e. 3 × the forward 4·L·d·s.
  CHECK(out(a, "step_flops") - out(b, "step_flops") == 12.0 * 32 * 4096 * 2048);
}

TEST_CASE("moe.params: seed 001's MoE table") {
  auto m = run("moe.params",
               {{"shared_params", 5e9}, {"num_experts", 8}, {"expert_params", 7e9}, {"top_k", 2}});
  REQUIRE(m.ok);
  CHECK(out(m, "total_params") == 61e9);
  CHECK(out(m, "active_params") == 19e9);
  CHECK(out(m, "active_fraction") == doctest::Approx(0.311).epsilon(1e-3));
  CHECK(out(m, "optimal_tokens") == 380e9);
  auto g =
      run("moe.params",
          {{"shared_params", 100e9}, {"num_experts", 8}, {"expert_params", 220e9}, {"top_k", 1}});
  CHECK(out(g, "total_params") == 1860e9);
  CHECK(out(g, "active_params") == 320e9);
  CHECK(out(g, "optimal_tokens") == 6400e9);
  auto s =
      run("moe.params",
          {{"shared_params", 100e9}, {"num_experts", 128}, {"expert_params", 10e9}, {"top_k", 1}});
  CHECK(out(s, "active_fraction") == doctest::Approx(110.0 / 1380.0).epsilon(1e-12));
}

TEST_CASE("moe.params: Mixtral 8x7B's published 46.7B total / 12.9B active") {
  // Jiang et al. 2024 §2: 47B total, 13B active with top-2 of 8. Solving shared + 8e = 46.7B,
  // shared + 2e = 12.9B gives e = 5.633B, shared = 1.633B; the estimator must return both.
  auto r = run(
      "moe.params",
      {{"shared_params", 1.6333e9}, {"num_experts", 8}, {"expert_params", 5.6333e9}, {"top_k", 2}});
  CHECK(out(r, "total_params") == doctest::Approx(46.7e9).epsilon(1e-3));
  CHECK(out(r, "active_params") == doctest::Approx(12.9e9).epsilon(1e-3));
  auto e = test::error_of(
      "moe.params",
      {{"shared_params", 1e9}, {"num_experts", 8}, {"expert_params", 1e9}, {"top_k", 9}});
  CHECK(e.input == "top_k");
}

TEST_CASE("typed functions are callable directly, without the registry") {
  Derivation d;
  auto r = train_time(
      {.params = 70e9, .tokens = 2e12, .gpus = 512, .peak_flops = 312e12, .mfu = 0.5}, d);
  REQUIRE(r.ok());
  CHECK(r->days == doctest::Approx(121.7).epsilon(1e-3));
  CHECK(d.steps().size() >= 5);
}

TEST_CASE("train.time: energy as Llama 2 and BLOOM count it — GPU-hours × board power × PUE") {
  // Touvron et al. 2023 (Llama 2), Table 2: the 70B model took 1,720,320 A100-80GB hours at
  // 400 W; 291.42 tCO2eq at the implied 0.4235 kg/kWh is 688.1 MWh. 70B × 2T tokens × 6 on
  // 312 TFLOP/s A100s: the MFU that gives those GPU-hours, then the energy follows.
  const double gpu_hours = 1720320, mfu = 6 * 70e9 * 2e12 / (312e12 * 3600 * gpu_hours);
  auto r = run("train.time", {{"params", 70e9},
                              {"tokens", 2e12},
                              {"gpus", 2048},
                              {"peak_flops", 312e12},
                              {"mfu", mfu},
                              {"gpu_power", 400},
                              {"pue", 1}});
  REQUIRE(r.ok);
  CHECK(out(r, "gpu_hours") == doctest::Approx(gpu_hours).epsilon(1e-9));
  CHECK(out(r, "gpu_energy") == doctest::Approx(688.128e6 * 3600).epsilon(1e-9));  // 688.1 MWh
  CHECK(out(r, "gpu_energy") / 3.6e6 * 0.4235 / 1000 == doctest::Approx(291.42).epsilon(1e-3));
  // The facility adds its PUE; no power, no energy (absent, not 0).
  auto f = run("train.time", {{"params", 70e9},
                              {"tokens", 2e12},
                              {"gpus", 2048},
                              {"peak_flops", 312e12},
                              {"mfu", mfu},
                              {"gpu_power", 400}});
  CHECK(out(f, "facility_energy") == doctest::Approx(1.1 * 688.128e6 * 3600).epsilon(1e-9));
  auto none =
      run("train.time", {{"params", 70e9}, {"tokens", 2e12}, {"gpus", 512}, {"gpu_power", 0}});
  CHECK(none.outputs.find("gpu_energy") == nullptr);
  CHECK(none.outputs.find("facility_energy") == nullptr);
  CHECK(test::error_of("train.time",
                       {{"params", 70e9}, {"tokens", 2e12}, {"gpus", 512}, {"pue", 0.5}})
            .input == "pue");
}

TEST_CASE("train.time: an accelerator preset brings its board power (H100 SXM 700 W, A100 400 W)") {
  auto h = run("train.time", {{"params", 7e9}, {"tokens", 1e12}, {"gpus", 64}, {"gpu", "h100"}});
  auto a = run("train.time", {{"params", 7e9}, {"tokens", 1e12}, {"gpus", 64}, {"gpu", "a100"}});
  REQUIRE(h.ok);
  REQUIRE(a.ok);
  CHECK(h.inputs.find("gpu_power")->as_number() == 700);
  CHECK(a.inputs.find("gpu_power")->as_number() == 400);
}
