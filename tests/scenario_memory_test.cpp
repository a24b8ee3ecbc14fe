// The shared training-memory function (core/scenario/training_memory.hpp): Korthikanti et al.
// 2022, Table 2, row by row, on GPT-3 175B's shape (their Table 3: a = 96, h = 12288, s = 2048).
#include <doctest/doctest.h>

#include "scenario/training_memory.hpp"

using namespace napkin;

namespace {
Model gpt3() {
  Model m;
  m.layers = 96;
  m.d_model = 12288;
  m.heads = 96;
  m.kv_heads = 96;
  m.head_dim = 128;
  m.d_ff = 4 * 12288;
  m.ffn = Ffn::Mlp;
  m.vocab = 51200;
  m.biases = true;
  m.norm_bias = true;
  m.positions = 2048;
  return m;
}
constexpr double kS = 2048, kB = 1, kH = 12288, kA = 96, kT = 8;
}  // namespace

TEST_CASE("activation_bytes_per_layer: Korthikanti et al. 2022, Table 2, every row") {
  const Model m = gpt3();
  const double sbh = kS * kB * kH, as_h = kA * kS / kH;
  Layout l;
  // No parallelism: sbh(34 + 5as/h).
  CHECK(activation_bytes_per_layer(m, l, kS) == doctest::Approx(sbh * (34 + 5 * as_h)));
  l.tp = 8;
  // Tensor parallel: sbh(10 + 24/t + 5as/(ht)).
  CHECK(activation_bytes_per_layer(m, l, kS) ==
        doctest::Approx(sbh * (10 + 24 / kT + 5 * as_h / kT)));
  l.sequence_parallel = true;  // + sequence parallel: sbh(34/t + 5as/(ht))
  CHECK(activation_bytes_per_layer(m, l, kS) == doctest::Approx(sbh * (34 / kT + 5 * as_h / kT)));
  l.sequence_parallel = false;
  l.recompute = Recompute::Selective;  // + selective recomputation: sbh(10 + 24/t)
  CHECK(activation_bytes_per_layer(m, l, kS) == doctest::Approx(sbh * (10 + 24 / kT)));
  l.sequence_parallel = true;  // + both: sbh·34/t
  CHECK(activation_bytes_per_layer(m, l, kS) == doctest::Approx(sbh * 34 / kT));
  l.recompute = Recompute::Full;  // full recomputation: the layer input, 2sbh (/t with SP)
  CHECK(activation_bytes_per_layer(m, l, kS) == doctest::Approx(2 * sbh / kT));
  // Context parallelism divides s: 4-way CP on selective + SP is a quarter.
  l.recompute = Recompute::Selective;
  l.cp = 4;
  CHECK(activation_bytes_per_layer(m, l, kS) == doctest::Approx(sbh * 34 / kT / 4));
}

TEST_CASE("activation_bytes_per_layer: GQA and a gated FFN keep what they compute") {
  Model m = gpt3();
  m.kv_heads = 8;  // K and V shrink from 96 to 8 heads: 4 + 4·(8/96) instead of 8
  Layout l;
  l.recompute = Recompute::Selective;
  const double sbh = kS * kH;
  CHECK(activation_bytes_per_layer(m, l, kS) == doctest::Approx(sbh * (34 - 4 + 4 * 8.0 / 96)));
  m.ffn = Ffn::Gated;  // gate, up and their product: 6·d_ff instead of 4·d_ff
  CHECK(activation_bytes_per_layer(m, l, kS) == doctest::Approx(sbh * (34 - 4 + 4 * 8.0 / 96 + 8)));
}
