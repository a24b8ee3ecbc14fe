// Multiple-choice and ordering problems (issue #14, question kinds): each key is recomputed here
// from the estimators, option by option, and the grader takes an option's number (a choice) or
// the options' numbers in order.
#include <algorithm>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "practice/problems.hpp"

using namespace napkin;

namespace {

// An option's value, run here through the registry: the problem's parameters with the option
// applied, or another output of the plain run.
double option_value(const Problem& p, const Values& params, const Option& o) {
  Values q = params;
  REQUIRE(apply_option(o.set, q));
  const Estimator* est = registry().find(p.estimator);
  REQUIRE(est != nullptr);
  const Json inputs = inputs_for(p, *est, q);
  RunResult r = registry().run(p.estimator, inputs);
  REQUIRE(r.ok);
  Values out;
  for (const auto& [name, value] : r.outputs.members())
    if (value.is_number()) out.set(name, value.as_number());
  if (!o.output.empty()) return out[o.output];
  return answer_for(p, q, out);
}

Json check(const char* id, int seed, const char* answer) {
  const Reply r = check_reply(id, seed, answer);
  CAPTURE(answer);
  REQUIRE(r.ok);
  return r.json;
}

std::string label(const Variant& v, std::size_t i) {
  const Reply r = problem_reply(v.problem->id, v.seed);
  REQUIRE(r.ok);
  return (*r.json.find("options"))[i].as_string();
}

}  // namespace

TEST_CASE(
    "six or more choice and three or more order problems; keys recomputed from the estimators") {
  int choices = 0, orders = 0;
  for (const Problem& p : problem_bank().problems()) {
    if (p.kind == Kind::number) continue;
    (p.kind == Kind::choice ? choices : orders) += 1;
    CAPTURE(p.id.view());
    for (int seed = 0; seed <= 12; ++seed) {
      CAPTURE(seed);
      Result<Variant> r = make_variant(p, seed);
      REQUIRE(r.ok());
      const Variant& v = r.value();
      std::vector<double> x;
      for (const Option& o : p.options) x.push_back(option_value(p, v.params, o));
      std::vector<std::size_t> order(x.size());
      std::iota(order.begin(), order.end(), std::size_t{0});
      std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return p.highest ? x[a] > x[b] : x[a] < x[b];
      });
      // A clear key: the best two (an order: every two neighbours) 10 % apart or more.
      for (std::size_t i = 1; i < order.size(); ++i)
        if (p.kind == Kind::order || i == 1)
          CHECK(relative_error(x[order[i]], x[order[i - 1]]) >= 0.10);
      if (p.kind == Kind::choice) order.resize(1);
      CHECK(v.key == order);
      // An order is never shown already in order.
      if (p.kind == Kind::order) {
        bool sorted = true;
        for (std::size_t i = 0; i < v.key.size(); ++i) sorted = sorted && v.key[i] == i;
        CHECK_FALSE(sorted);
      }
    }
  }
  CHECK(choices >= 6);
  CHECK(orders >= 3);
}

// Seed 0's keys, against their sources.
TEST_CASE("kinds, seed 0: the keys the sources give") {
  auto seed0 = [](const char* id) {
    const Problem* p = problem_bank().find(id);
    REQUIRE(p != nullptr);
    Result<Variant> r = make_variant(*p, 0);
    REQUIRE(r.ok());
    return r.value();
  };
  // Megatron-LM (Narayanan et al. 2021 §3.3): tensor parallelism inside a node, pipeline
  // parallelism across nodes; train.step's GPT-3 175B on 512 A100s agrees.
  Variant nodes = seed0("choice.node_boundary");
  CHECK(label(nodes, nodes.key[0]) == "TP 8 × PP 8 × DP 8: PP and DP cross");
  CHECK(nodes.option_values[0] > 2.5 * nodes.option_values[1]);  // TP across nodes: ~3× slower
  // Decode at batch 1 reads the weights: HBM bandwidth orders the GPUs (datasheets: B200 8,
  // MI300X 5.3, H100 3.35, A100 2.04 TB/s).
  Variant gpus = seed0("order.decode_gpus");
  CHECK(gpus.key == std::vector<std::size_t>{1, 3, 0, 2});
  // A 70B model's 140 GB of BF16 weights at 3.35 TB/s: 41.8 ms, far above its KV and math.
  Variant step = seed0("choice.decode_bound");
  CHECK(step.key[0] == 0);
  CHECK(step.option_values[0] == doctest::Approx(70e9 * 2 / 3.35e12).epsilon(0.01));
  // 8 KB over 64 ranks: the ring's 126 steps of 5 µs lose to the tree's ~12.
  Variant ar = seed0("choice.allreduce");
  CHECK(ar.key[0] == 1);
  CHECK(ar.option_values[0] == doctest::Approx(126 * 5e-6).epsilon(0.01));
}

TEST_CASE("kinds are graded by option number: right, wrong with its why, an order's one swap") {
  // Choice: the why of the chosen option comes back; full or no marks.
  Json wrong = check("choice.node_boundary", 0, "1");
  CHECK(wrong.find("verdict")->as_string() == "wrong");
  CHECK(wrong.find("score")->as_number() == 0);
  CHECK(wrong.find("feedback")->as_string().find("25 GB/s") != std::string::npos);
  Json right = check("choice.node_boundary", 0, "2");
  CHECK(right.find("verdict")->as_string() == "correct");
  CHECK(right.find("score")->as_number() == 1);
  // Order: the key, one swap of neighbours (half marks), anything else.
  CHECK(check("order.decode_gpus", 0, "2, 4, 1, 3").find("verdict")->as_string() == "correct");
  Json swap = check("order.decode_gpus", 0, "4 2 1 3");
  CHECK(swap.find("verdict")->as_string() == "close");
  CHECK(swap.find("score")->as_number() == 0.5);
  CHECK(swap.find("feedback")->as_string() == "“B200” comes before “MI300X”.");
  CHECK(check("order.decode_gpus", 0, "3,1,4,2").find("verdict")->as_string() == "wrong");
  // Not an option, an option twice, too few: asked again, not graded.
  for (const char* bad : {"", "0", "4", "1 2"})
    CHECK_FALSE(check_reply("choice.node_boundary", 0, bad).ok);
  for (const char* bad : {"1,1,2,3", "1,2,3", "1,2,3,5"})
    CHECK_FALSE(check_reply("order.decode_gpus", 0, bad).ok);
  // The page's list and the problem say which kind; no answer before an attempt but the key.
  const Reply r = problem_reply("order.decode_gpus", 0);
  CHECK(r.json.find("kind")->as_string() == "order");
  CHECK(r.json.find("options")->size() == 4);
}

// An option's change is data: one reader for every problem (problems.hpp, Option::set).
TEST_CASE("apply_option reads layouts, scalings and presets, and refuses what it cannot read") {
  Values p;
  p.set("n_layers", 80);
  CHECK(apply_option("tp=16 pp=4 n_layers*=0.5", p));
  CHECK(p["tp"] == 16);
  CHECK(p["pp"] == 4);
  CHECK(p["n_layers"] == 40);
  // NVIDIA H100 SXM datasheet: 989.4 TFLOP/s dense BF16, 3.35 TB/s HBM3.
  CHECK(apply_option("gpu=h100", p));
  CHECK(p["peak_flops"] == 989.4e12);
  CHECK(p["mem_bandwidth"] == 3.35e12);
  // Llama 3 8B's config.json: 32 layers, 32 query heads, 8 KV heads of 128.
  CHECK(apply_option("model=llama3-8b", p));
  CHECK(p["n_layers"] == 32);
  CHECK(p["n_kv_heads"] == 8);
  CHECK(p["head_dim"] == 128);
  for (const char* bad : {"gpu=h999", "model=gpt-9", "tp", "=4", "tp=four", "tp=4 pp"})
    CHECK_FALSE(apply_option(bad, p));
  CHECK(apply_option("", p));  // no change
}

// Issue #28 item 6: a choice whose key is always "2" teaches the letter, not the reason. Each
// variant shows its options in its own order (the author's at seed 0), so over 21 seeds the
// key's number changes, and the number the student reads is the one graded.
TEST_CASE("choice and order: the key's shown number changes between variants and is graded") {
  for (const Problem& p : problem_bank().problems()) {
    if (p.kind == Kind::number) continue;
    CAPTURE(std::string(p.id));
    std::set<std::string> keys;
    for (int seed = 0; seed <= 20; ++seed) {
      Result<Variant> v = make_variant(p, seed);
      REQUIRE(v.ok());
      std::string shown_key;
      for (std::size_t i : v.value().key)
        for (std::size_t at = 0; at < v.value().shown.size(); ++at)
          if (v.value().shown[at] == i) shown_key += std::to_string(at + 1) + ",";
      keys.insert(shown_key);
      if (seed <= 3) {
        const Reply r = check_reply(p.id, seed, shown_key);
        REQUIRE(r.ok);
        CHECK(r.json.find("verdict")->as_string() == "correct");
      }
    }
    CHECK(keys.size() >= 2);
  }
}
