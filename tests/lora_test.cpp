// mem.lora: adapter sizes and fine-tuning memory against the LoRA and QLoRA papers' figures.
#include "helpers.hpp"

using namespace napkin;
using test::out;
using test::run;

TEST_CASE(
    "mem.lora: GPT-3 175B with r = 4 on W_q, W_v — 18.9M parameters, a 35 MB checkpoint, 350 GB") {
  // Hu et al. 2021 (LoRA), §4.2: "On GPT-3 175B, we reduce the VRAM consumption during training
  // from 1.2TB to 350GB. With r = 4 and only the query and value projection matrices being
  // adapted, the checkpoint size is reduced by roughly 10,000× (from 350GB to 35MB)."
  auto r = run("mem.lora", {{"model", "gpt3"}, {"rank", 4}, {"targets", "qv"}, {"base", "bf16"}});
  REQUIRE(r.ok);
  // 96 layers × 2 matrices × 4 × (12,288 + 12,288): exact.
  CHECK(out(r, "adapter_params") == 96.0 * 2 * 4 * (12288 + 12288));
  // 37.7 MB in 16 bits (36 MiB): the paper's "35MB" is within 8 %.
  CHECK(out(r, "adapter_file") == doctest::Approx(35e6).epsilon(0.08));
  // The frozen 16-bit base and the rest: 350 GB, within 2 %.
  CHECK(out(r, "total") == doctest::Approx(350e9).epsilon(0.02));
  CHECK(out(r, "fits") == 0);  // not on one 80 GB GPU
}

namespace {
// LLaMA 65B (Touvron et al. 2023, Table 2: 80 layers, d = 8192, 64 heads, FFN 22,016, a 32,000
// vocabulary), QLoRA's recipe (the estimator's defaults) and the given inputs.
RunResult llama_65b(test::Inputs extra) {
  Json in = Json::object();
  for (const auto& [k, v] : test::Inputs{{"n_layers", 80},
                                         {"d_model", 8192},
                                         {"n_heads", 64},
                                         {"n_kv_heads", 64},
                                         {"head_dim", 128},
                                         {"d_ff", 22016},
                                         {"vocab", 32000}})
    in.set(k, v);
  for (const auto& [k, v] : extra) in.set(k, v);
  return registry().run("mem.lora", in);
}
}  // namespace

TEST_CASE(
    "mem.lora: QLoRA fine-tunes LLaMA 65B in under 48 GB; full fine-tuning needs over 780 GB") {
  // Dettmers et al. 2023 (QLoRA), abstract: "reduce the average memory requirements of
  // finetuning a 65B parameter model from >780GB of GPU memory to <48GB"; its recipe (§4,
  // Appendix B.2): NF4 with double quantization, r = 64 on all linear layers, 16-bit adapters,
  // 32-bit paged AdamW, gradient checkpointing; Figure 6: batch 1, 512 tokens.
  auto r = llama_65b({{"full_bytes", 12}, {"gpu_memory", 48e9}});
  REQUIRE(r.ok);
  CHECK(out(r, "total") < 48e9);
  CHECK(out(r, "total") > 40e9);
  CHECK(out(r, "fits") == 1);
  CHECK(out(r, "full_finetune") > 780e9);
  CHECK(out(r, "full_finetune") == doctest::Approx(782e9).epsilon(0.01));
  // §3: NF4 + double quantization = 4.127 bits per quantized weight.
  auto no_dq = llama_65b({{"double_quant", false}});
  // 0.373 bits per weight saved: "approximately 3 GB for a 65B model" (abstract).
  CHECK(out(no_dq, "base_bytes") - out(r, "base_bytes") == doctest::Approx(3e9).epsilon(0.02));
}

TEST_CASE("mem.lora: QLoRA's 33B footprint, 24.7 GB at batch 1 and 512 tokens") {
  // Dettmers et al. 2023, Figure 6 (memory breakdown): LLaMA 33B with QLoRA needs 24.7 GB, which
  // "does not quite fit" a 24 GB GPU without paged optimizers. Within 5 %.
  auto r = run("mem.lora", {{"n_layers", 60},
                            {"d_model", 6656},
                            {"n_heads", 52},
                            {"n_kv_heads", 52},
                            {"head_dim", 128},
                            {"d_ff", 17920},
                            {"vocab", 32000}});
  REQUIRE(r.ok);
  CHECK(out(r, "total") == doctest::Approx(24.7e9).epsilon(0.05));
}

TEST_CASE("mem.lora: targets grow the adapters in order; MLA and bad ranks are refused by name") {
  auto qv = run("mem.lora", {{"targets", "qv"}});
  auto attn = run("mem.lora", {{"targets", "attention"}});
  auto all = run("mem.lora", {{"targets", "all"}});
  CHECK(out(qv, "adapter_params") < out(attn, "adapter_params"));
  CHECK(out(attn, "adapter_params") < out(all, "adapter_params"));
  // Llama 3 70B, r = 64 on everything: 80 × 64 × (Q 16,384 + K 9,216 + V 9,216 + O 16,384 +
  // 3 × 36,864 FFN) = 828,375,040.
  CHECK(out(all, "adapter_params") == 80.0 * 64 * (16384 + 9216 + 9216 + 16384 + 3 * 36864));
  CHECK(test::error_of("mem.lora", {{"model", "deepseek-v3"}}).input == "attention_type");
  CHECK(test::error_of("mem.lora", {{"rank", 0}}).input == "rank");
  CHECK(test::error_of("mem.lora", {{"targets", "mlp"}}).input == "targets");
}
