// hw.gemm and the GEMM-by-shape model (core/scenario/gemm.hpp) against published kernel
// timings, and the two quantization effects it models. The measurements are rows of
// tests/validation/measurements.csv too; here a few are pinned tighter, each with its source.
#include "scenario/gemm.hpp"

#include "helpers.hpp"
#include "scenario/cluster.hpp"
#include "scenario/layer_gemms.hpp"

using namespace napkin;
using test::out;
using test::run;

namespace {

// TFLOP/s the card gives for a shape on a preset.
double tflops(const char* gpu, double m, double n, double k, double groups = 1,
              std::initializer_list<std::pair<const char*, Json>> extra = {}) {
  Json in = Json::object();
  in.set("gpu", gpu);
  in.set("m", m);
  in.set("n", n);
  in.set("k", k);
  in.set("groups", groups);
  for (const auto& e : extra) in.set(e.first, e.second);
  RunResult r = registry().run("hw.gemm", in);
  REQUIRE_MESSAGE(r.ok, r.error.message);
  return out(r, "achieved_flops") / 1e12;
}

}  // namespace

TEST_CASE("hw.gemm: square BF16 GEMMs on H100 (torch.mm, H100 80GB HBM3)") {
  // zzc0721/torch-performance-test-data issue #79: 4096³ 788.72 TFLOPS, 2048³ 676.59. The
  // model is calibrated on S. Bekman's best shape (794.5), not on these.
  CHECK(tflops("h100", 4096, 4096, 4096) == doctest::Approx(788.72).epsilon(0.10));
  CHECK(tflops("h100", 2048, 2048, 2048) == doctest::Approx(676.59).epsilon(0.15));
  // The calibration itself: 8192³ at the catalog's best share, 794.5 TFLOPS, less the 3 µs.
  CHECK(tflops("h100", 8192, 8192, 8192) == doctest::Approx(794.5 * 1.384 / 1.387).epsilon(0.005));
}

TEST_CASE("hw.gemm: decode-size GEMMs stream their weights (vLLM's GEMM benchmarks)") {
  // vLLM PR #49363, bench_fp8_gemm.py, torch-bf16 on H100, N = 12288, K = 5376: M = 64 reaches
  // 182.59 TFLOPS and M = 128 352.56: memory-bound, the rate grows with M.
  CHECK(tflops("h100", 64, 12288, 5376) == doctest::Approx(182.59).epsilon(0.12));
  CHECK(tflops("h100", 128, 12288, 5376) == doctest::Approx(352.56).epsilon(0.12));
  auto r = run("hw.gemm", {{"gpu", "h100"}, {"m", 64}, {"n", 12288}, {"k", 5376}});
  CHECK(r.outputs.find("bound")->as_string() == "memory");
  // vLLM PR #20071 on SM100, N = 28672, K = 4096: M = 1 at 5.808 TFLOPS (5.8 TB/s of weights).
  CHECK(tflops("b200", 1, 28672, 4096) == doctest::Approx(5.808).epsilon(0.10));
}

TEST_CASE("hw.gemm: FP8 GEMMs and grouped expert GEMMs (DeepGEMM on H800)") {
  // deepseek-ai/DeepGEMM README, Performance (commit 327ec92): 4096×7168×2048 1168 TFLOPS;
  // 4096×32768×512 775 (a short K pays its per-tile cost); grouped contiguous, 4 experts ×
  // 8192 tokens of 4096×7168: 1346. H800 has H100's compute; the best-GEMM share is MAMF's H100
  // FP8 figure, 1402.6 of 1978.9 TFLOPS.
  const std::initializer_list<std::pair<const char*, Json>> fp8 = {
      {"peak_flops", 1978.9e12}, {"in_bytes", 1}, {"matmul_fraction", 1402.6 / 1978.9}};
  CHECK(tflops("h100", 4096, 7168, 2048, 1, fp8) == doctest::Approx(1168).epsilon(0.10));
  CHECK(tflops("h100", 4096, 32768, 512, 1, fp8) == doctest::Approx(775).epsilon(0.10));
  CHECK(tflops("h100", 8192, 4096, 7168, 4, fp8) == doctest::Approx(1346).epsilon(0.10));
  // Masked layout (decode), 4 experts × 256 tokens of 7168×2048: 815 TFLOPS.
  CHECK(tflops("h100", 256, 7168, 2048, 4, fp8) == doctest::Approx(815).epsilon(0.20));
}

TEST_CASE("hw.gemm: a partly empty wave costs a full one (wave quantization)") {
  // NVIDIA, Matrix Multiplication Background User's Guide §3.2. 132 tiles of 128 × 256 fill one
  // wave on an H100's 132 SMs; 133 tiles would need two. The library then picks smaller tiles
  // (here 64 × 128, 532 tiles in 5 waves), which recovers part of the loss: 1 % more work
  // still costs about 47 % more time.
  auto one = run("hw.gemm", {{"gpu", "h100"}, {"m", 128 * 132}, {"n", 256}, {"k", 8192}});
  auto two = run("hw.gemm", {{"gpu", "h100"}, {"m", 128 * 133}, {"n", 256}, {"k", 8192}});
  REQUIRE(one.ok);
  REQUIRE(two.ok);
  CHECK(out(one, "waves") == 1);
  CHECK(out(one, "tiles") == 132);
  CHECK(out(two, "waves") == 5);
  CHECK(out(two, "tiles") == 532);
  CHECK(out(two, "compute_time") / out(one, "compute_time") ==
        doctest::Approx(5 * 8192.0 / 0.85 / 32768).epsilon(1e-9));
}

TEST_CASE("hw.gemm: a tile is paid in full for the rows it holds (tile quantization)") {
  // 16 tokens per expert cost as much compute as 64: the smallest tile has 64 rows.
  auto a = run("hw.gemm", {{"gpu", "h100"}, {"m", 16}, {"n", 4096}, {"k", 7168}, {"groups", 32}});
  auto b = run("hw.gemm", {{"gpu", "h100"}, {"m", 64}, {"n", 4096}, {"k", 7168}, {"groups", 32}});
  REQUIRE(a.ok);
  REQUIRE(b.ok);
  CHECK(out(a, "compute_time") == doctest::Approx(out(b, "compute_time")).epsilon(1e-12));
}

TEST_CASE("hw.gemm: without an SM count, waves and tiles are absent and a short K still costs") {
  auto r = run("hw.gemm", {{"gpu", "tpu-v5p"}, {"m", 4096}, {"n", 4096}, {"k", 512}});
  REQUIRE(r.ok);
  CHECK(r.outputs.find("waves") == nullptr);
  CHECK(r.outputs.find("tiles") == nullptr);
  auto long_k = run("hw.gemm", {{"gpu", "tpu-v5p"}, {"m", 4096}, {"n", 4096}, {"k", 8192}});
  CHECK(out(r, "fraction_of_peak") < out(long_k, "fraction_of_peak"));
}

// A forward pass's GEMMs together (core/scenario/layer_gemms.hpp): the serving engine's matmul
// share, and what moves it.
TEST_CASE("layer GEMMs: one dense layer's share is its GEMMs' summed over their times") {
  Model m;
  m.layers = 1;
  m.d_model = 4096;
  m.heads = 32;
  m.kv_heads = 8;
  m.head_dim = 128;
  m.d_ff = 14336;
  m.ffn = Ffn::Gated;
  const GemmMachine h100{989.4e12, 3.35e12, 132, kH100MatmulFraction, 0.85, kGemmLaunch};
  const double tokens = 2048;
  // Q, K, V: 4096 + 2 · 8 · 128 columns; the output projection; gate and up; down.
  const GemmShape shapes[] = {{tokens, 6144, 4096},
                              {tokens, 4096, 4096},
                              {tokens, 2 * 14336.0, 4096},
                              {tokens, 4096, 14336}};
  double flops = 0, time = 0;
  for (const GemmShape& s : shapes) {
    const GemmTime t = gemm_time(s, h100);
    flops += t.flops;
    time += t.compute;
  }
  const GemmShare r = forward_gemm_share(m, tokens, 1, 2, h100);
  CHECK(r.flops == doctest::Approx(flops));
  CHECK(r.share == doctest::Approx(flops / (989.4e12 * time)));
  // A long prefill nearly reaches the measured best GEMM; a decode step of 8 sequences pays
  // 64-row tiles for 8 rows, and a TP-8 slice of the same prefill fills fewer SMs.
  CHECK(r.share > 0.7);
  CHECK(r.share < kH100MatmulFraction);
  CHECK(forward_gemm_share(m, 8, 1, 2, h100).share < 0.1);
  CHECK(forward_gemm_share(m, tokens, 8, 2, h100).share < r.share);
}

TEST_CASE("layer GEMMs: experts that receive a few tokens each reach little of the peak") {
  // Qwen3-30B-A3B's MoE layers (config.json: 128 experts, top 8, expert width 768, d 2048).
  Model m;
  m.layers = 48;
  m.d_model = 2048;
  m.heads = 32;
  m.kv_heads = 4;
  m.head_dim = 128;
  m.experts = 128;
  m.top_k = 8;
  m.expert_d_ff = 768;
  m.d_ff = 6144;
  const GemmMachine h100{989.4e12, 3.35e12, 132, kH100MatmulFraction, 0.85, kGemmLaunch};
  // 128 tokens route 1,024 token-experts over ~128 experts: 8 rows each in 64-row tiles.
  const double decode = forward_gemm_share(m, 128, 1, 2, h100).share;
  const double prefill = forward_gemm_share(m, 16384, 1, 2, h100).share;
  CHECK(decode < 0.15);
  CHECK(prefill > 4 * decode);
}

TEST_CASE("serve.engine: the matmul share follows the shapes unless given") {
  // TensorRT-LLM's 1st-token latency (docs/source/performance.md, commit 138f96d, A100 FP16):
  // Llama 2 7B at TP 1, 2,048 input tokens, 133 ms. At a fixed 50 % of peak Napkin gave 181 ms
  // (1.36×); by shape the prefill's GEMMs reach ~70 %.
  auto by_shape = run("serve.engine", {{"model", "llama2-7b"},
                                       {"gpu", "a100"},
                                       {"tp", 1},
                                       {"batch", 1},
                                       {"prompt_len", 2048},
                                       {"output_len", 1},
                                       {"weight_dtype", "fp16"}});
  REQUIRE(by_shape.ok);
  CHECK(out(by_shape, "ttft") == doctest::Approx(0.133).epsilon(0.15));
  auto fixed = run("serve.engine", {{"model", "llama2-7b"},
                                    {"gpu", "a100"},
                                    {"tp", 1},
                                    {"batch", 1},
                                    {"prompt_len", 2048},
                                    {"output_len", 1},
                                    {"weight_dtype", "fp16"},
                                    {"compute_efficiency", 0.5}});
  REQUIRE(fixed.ok);
  CHECK(out(fixed, "ttft") > 1.3 * out(by_shape, "ttft"));
}
