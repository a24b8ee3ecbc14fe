// rl.step: the anatomy of an RL post-training step, its placements and its memory, against
// NeMo-RL's published step times and first principles.
#include <cmath>

#include "helpers.hpp"

using namespace napkin;
using namespace napkin::test;

namespace {
bool absent(const RunResult& r, const char* name) {
  return r.outputs.find(name) == nullptr;
}
}  // namespace

// The default is NeMo-RL's Llama 3.1 8B GRPO recipe on 16 H100s, colocated: every GPU
// generates, then every GPU trains, so the step is the sum of its phases.
TEST_CASE("rl.step: colocated, the step is the sum of its phases, every GPU in both") {
  auto r = run("rl.step", {});
  REQUIRE(r.ok);
  CHECK(out(r, "generation_gpus") == 16);
  CHECK(out(r, "training_gpus") == 16);
  CHECK(out(r, "step_time") ==
        doctest::Approx(out(r, "generation_time") + out(r, "reward_time") + out(r, "logprob_time") +
                        out(r, "train_time") + out(r, "weight_sync_time") +
                        out(r, "offload_time")));
  CHECK(out(r, "reward_time") == 0);  // a verifier whose time was not given
  CHECK(out(r, "samples_per_second") == doctest::Approx(64 * 32 / out(r, "step_time")));
  CHECK(out(r, "tokens_per_second") ==
        doctest::Approx(64 * 32 * (128 + 1024) / out(r, "step_time")));
  CHECK(out(r, "fits") == 1);
  // Asked about a synchronous step: no async comparison, no split search.
  CHECK(absent(r, "speedup_vs_sync"));
  CHECK(absent(r, "best_generation_gpus"));
}

// The first finding: a colocated question on one GPU (no asynchronous split possible)
// is answered, not refused because an async split would not fit.
TEST_CASE("rl.step: a synchronous question never fails for want of an async split") {
  auto r = run("rl.step", {{"total_gpus", 1}, {"prompts", 8}, {"group_size", 4}});
  REQUIRE(r.ok);
  CHECK(out(r, "step_time") > 0);
  Error e = error_of("rl.step", {{"total_gpus", 1}, {"placement", "async"}});
  CHECK(e.input == "generation_gpus");
}

TEST_CASE("rl.step: a verifier costs what the user says; a reward model its forward pass") {
  auto base = run("rl.step", {});
  auto v = run("rl.step", {{"verifier_time", 7}});
  REQUIRE(base.ok);
  REQUIRE(v.ok);
  CHECK(out(v, "reward_time") == 7);
  CHECK(out(v, "step_time") == doctest::Approx(out(base, "step_time") + 7));
  // A 1 B-parameter reward model over 2,048 samples of 128 + 1,024 tokens: 2·N FLOPs per
  // token (Kaplan et al. 2020 §2.1) on 16 H100s at the trainer's GEMM rate (0.715 of 794.5
  // TFLOP/s, the measured best GEMM).
  auto m = run("rl.step", {{"reward", "model"}, {"reward_model_params", 1e9}});
  REQUIRE(m.ok);
  CHECK(out(m, "reward_time") ==
        doctest::Approx(2 * 1e9 * 2048 * 1152 / (16 * 794.5e12 * 0.715)).epsilon(1e-3));
}

// The step waits for its longest response: with every response at the mean length there is
// no tail; at the cap, the decode runs (max − mean) more steps at the engine's fixed cost.
TEST_CASE("rl.step: the long tail") {
  auto flat = run("rl.step", {{"response_len_max", 1024}});
  auto tail = run("rl.step", {{"response_len_max", 8192}});
  REQUIRE(flat.ok);
  REQUIRE(tail.ok);
  CHECK(out(flat, "tail_time") == 0);
  CHECK(out(flat, "decode_steps") == 1024);
  CHECK(out(tail, "decode_steps") == 8192);
  CHECK(out(tail, "tail_time") > 0);
  CHECK(out(tail, "generation_time") - out(flat, "generation_time") ==
        doctest::Approx(out(tail, "tail_time")).epsilon(1e-6));
  Error e = error_of("rl.step", {{"response_len_max", 100}});
  CHECK(e.input == "response_len_max");
}

TEST_CASE("rl.step: asynchronous overlaps generation with training and compares fairly") {
  auto a = run("rl.step", {{"placement", "async"}});
  auto c = run("rl.step", {});
  REQUIRE(a.ok);
  REQUIRE(c.ok);
  CHECK(out(a, "generation_gpus") == 8);
  CHECK(out(a, "training_gpus") == 8);
  const double gen_branch =
      out(a, "generation_time") + out(a, "reward_time") + out(a, "weight_sync_time");
  const double train_branch = out(a, "logprob_time") + out(a, "train_time");
  CHECK(out(a, "step_time") == doctest::Approx(std::max(gen_branch, train_branch)));
  // The baseline is the best synchronous layout of the same 16 GPUs, never worse than
  // colocated.
  CHECK(out(a, "best_sync_step_time") <= out(c, "step_time") + 1e-9);
  CHECK(out(a, "speedup_vs_sync") ==
        doctest::Approx(out(a, "best_sync_step_time") / out(a, "step_time")));
  CHECK(out(a, "best_split_step_time") <= out(a, "step_time") + 1e-9);
  CHECK(absent(a, "offload_time"));
  // More staleness lets the engine overlap one batch's tail with the next: never slower.
  auto k4 = run("rl.step", {{"placement", "async"}, {"staleness", 4}});
  REQUIRE(k4.ok);
  CHECK(out(k4, "generation_time") < out(a, "generation_time"));
}

TEST_CASE("rl.step: PPO trains a critic and runs a value pass") {
  auto g = run("rl.step", {});
  auto p = run("rl.step", {{"algorithm", "ppo"}});
  // With only the optimizer leaving the GPUs, the critic's weights stay through generation too.
  auto g_opt = run("rl.step", {{"colocated_offload", "optimizer"}});
  auto p_opt = run("rl.step", {{"algorithm", "ppo"}, {"colocated_offload", "optimizer"}});
  auto small = run("rl.step", {{"algorithm", "ppo"}, {"critic_params", 8.03e9 / 4}});
  REQUIRE(g.ok);
  REQUIRE(p.ok);
  REQUIRE(small.ok);
  CHECK(out(p, "train_time") == doctest::Approx(2 * out(g, "train_time")));
  CHECK(out(p, "logprob_time") == doctest::Approx(1.5 * out(g, "logprob_time")));
  CHECK(out(small, "train_time") < out(p, "train_time"));
  CHECK(out(p_opt, "memory_per_gpu") > out(g_opt, "memory_per_gpu"));
}

TEST_CASE("rl.step: memory that does not fit says so and what would help") {
  // Llama 3 70B trained on 8 H100s without sharding the optimizer: 16 bytes per parameter.
  auto r = run("rl.step",
               {{"model", "llama3-70b"}, {"total_gpus", 8}, {"gen_tp", 4}, {"zero_stage", 0}});
  REQUIRE(r.ok);
  CHECK(out(r, "fits") == 0);
  REQUIRE(r.warnings.size() >= 1);
  bool named = false;
  for (const Json& w : r.warnings.items())
    if (w.is_string() && w.as_string().find("ZeRO stage") != std::string::npos) named = true;
  CHECK(named);
}

// NeMo-RL, docs/about/performance-summary.md (v0.5): Llama 3.1 8B Instruct, GRPO, 64 prompts ×
// 32, on 16 H100s, one step off-policy with 8 GPUs generating: 64.8 s per step (BF16), 53.0 s
// with FP8 generation; Qwen3-32B on 64 H100s, 32 generating (TP 4), trainer TP 4 PP 4: 200 s.
// Within the 25 %.
TEST_CASE("rl.step: NeMo-RL's asynchronous step times within 25 %") {
  auto l8 = run("rl.step", {{"model", "llama3-8b"},
                            {"gpu", "h100"},
                            {"placement", "async"},
                            {"generation_gpus", 8},
                            {"prompt_len", 120},
                            {"response_len_mean", 1123},
                            {"response_len_max", 3976},
                            {"gpu_memory_utilization", 0.6}});
  REQUIRE(l8.ok);
  CHECK(out(l8, "step_time") == doctest::Approx(64.8).epsilon(0.25));
  auto q32 = run("rl.step", {{"n_layers", 64},
                             {"d_model", 5120},
                             {"n_heads", 64},
                             {"n_kv_heads", 8},
                             {"head_dim", 128},
                             {"d_ff", 25600},
                             {"vocab", 151936},
                             {"gpu", "h100"},
                             {"total_gpus", 64},
                             {"placement", "async"},
                             {"generation_gpus", 32},
                             {"gen_tp", 4},
                             {"train_tp", 4},
                             {"train_pp", 4},
                             {"zero_stage", 1},
                             {"prompt_len", 120},
                             {"response_len_mean", 3252},
                             {"response_len_max", 3976},
                             {"gpu_memory_utilization", 0.6}});
  REQUIRE(q32.ok);
  CHECK(out(q32, "step_time") == doctest::Approx(200).epsilon(0.25));
}

TEST_CASE("rl.step: inputs that do not fit the layout are refused by name") {
  CHECK(error_of("rl.step", {{"train_tp", 3}}).input == "train_tp");
  CHECK(error_of("rl.step", {{"gen_tp", 32}}).input == "gen_tp");
  CHECK(error_of("rl.step", {{"train_ep", 2}}).input == "train_ep");  // a dense model
  CHECK(error_of("rl.step", {{"placement", "async"}, {"generation_gpus", 16}}).input ==
        "generation_gpus");
}

// NeMo-RL v0.3's colocated GRPO step (NVIDIA technical blog "Reinforcement Learning with NVIDIA
// NeMo-RL: Megatron-Core Support for Training Throughput", Table 1): Llama 3.1 8B on 8 GPUs,
// 2,048 rollouts of 795 tokens on average (4,096 at most), Megatron PP 2, vLLM TP 1 at 0.6 of
// the memory: refit 5 s, and 3 s outside generation, log-probs, training and refit (moving the
// model and optimizer back). Its refit timer covers the trainer's state leaving for host memory
// and the engine waking (nemo_rl/algorithms/grpo.py, refit_policy_generation). The switch here
// is the state out and back, the engine's weights in, the reference swapped in and out.
TEST_CASE("rl.step: colocated, the GPUs switch between trainer and engine through host memory") {
  const Json in = inputs({{"model", "llama3-8b"},
                          {"gpu", "h100"},
                          {"total_gpus", 8},
                          {"prompts", 64},
                          {"group_size", 32},
                          {"prompt_len", 120},
                          {"response_len_mean", 795},
                          {"response_len_max", 3976},
                          {"train_pp", 2},
                          {"zero_stage", 1},
                          {"gpu_memory_utilization", 0.6}});
  auto r = run_json("rl.step", in);
  REQUIRE(r.ok);
  CHECK(out(r, "offload_time") == doctest::Approx(5 + 3).epsilon(0.25));
  // Only the optimizer: less to move; nothing: no switch at all, and the step is that much
  // shorter.
  Json opt = in, none = in;
  opt.set("colocated_offload", "optimizer");
  none.set("colocated_offload", "none");
  auto o = run_json("rl.step", opt), n = run_json("rl.step", none);
  REQUIRE(o.ok);
  REQUIRE(n.ok);
  CHECK(out(o, "offload_time") < out(r, "offload_time") / 3);
  CHECK(absent(n, "offload_time"));
  CHECK(out(r, "step_time") - out(n, "step_time") == doctest::Approx(out(r, "offload_time")));
  // Half the host bandwidth, twice the switch.
  Json slow = in;
  slow.set("host_bandwidth", 5e9);
  CHECK(out(run_json("rl.step", slow), "offload_time") ==
        doctest::Approx(2 * out(r, "offload_time")));
}

// Tensor by tensor (verl's and slime's NCCL baseline): one broadcast per checkpoint tensor over
// every trainer and engine rank, plus what the framework spends per tensor. An MoE of many small
// expert tensors pays it tens of thousands of times: Qwen3-30B-A3B stores 18,771 tensors here
// (its checkpoint, with Q and K norms, 18,867).
TEST_CASE("rl.step: a tensor-by-tensor weight update pays per tensor") {
  const Json moe = inputs({{"n_layers", 48},
                           {"d_model", 2048},
                           {"n_heads", 32},
                           {"n_kv_heads", 4},
                           {"head_dim", 128},
                           {"d_ff", 6144},
                           {"experts", 128},
                           {"top_k", 8},
                           {"expert_d_ff", 768},
                           {"vocab", 151936},
                           {"gpu", "h100"},
                           {"total_gpus", 32},
                           {"generation_gpus", 16},
                           {"placement", "async"},
                           {"gen_tp", 2},
                           {"train_ep", 8},
                           {"zero_stage", 1}});
  Json per = moe, costly = moe;
  per.set("weight_sync", "per_tensor");
  costly.set("weight_sync", "per_tensor");
  costly.set("tensor_overhead", 0.75e-3);
  auto b = run_json("rl.step", moe), p = run_json("rl.step", per), c = run_json("rl.step", costly);
  REQUIRE(b.ok);
  REQUIRE(p.ok);
  REQUIRE(c.ok);
  CHECK(out(p, "weight_sync_time") > out(b, "weight_sync_time"));
  CHECK(out(c, "weight_sync_time") - out(p, "weight_sync_time") ==
        doctest::Approx(18771 * 0.75e-3));
}

// The engine's own work per step (rl.step's step_overhead, 5 ms: calibrated on NeMo-RL v0.3's
// Llama 3.1 8B generation alone) checked where it was not fitted: NeMo-RL v0.3's Llama 3.1 70B
// on 64 GPUs (discussion #1161, Table 1: generation 84 s, step 147 s; Megatron TP 4 PP 4, vLLM
// TP 4, 398 tokens generated on average) and NeMo-RL v0.5's colocated Llama 3.1 8B on 16 H100s
// (docs/about/performance-summary.md: 92.8 s, 1,019 tokens on average).
TEST_CASE("rl.step: the engine's work per step, against steps it was not fitted on") {
  auto l70 = run("rl.step", {{"model", "llama3-70b"},
                             {"gpu", "h100"},
                             {"total_gpus", 64},
                             {"prompt_len", 120},
                             {"response_len_mean", 398},
                             {"response_len_max", 3976},
                             {"gen_tp", 4},
                             {"train_tp", 4},
                             {"train_pp", 4},
                             {"zero_stage", 1},
                             {"gpu_memory_utilization", 0.6}});
  REQUIRE(l70.ok);
  CHECK(out(l70, "generation_time") == doctest::Approx(84).epsilon(0.25));
  CHECK(out(l70, "step_time") == doctest::Approx(147).epsilon(0.25));
  const Json v05 = inputs({{"model", "llama3-8b"},
                           {"gpu", "h100"},
                           {"prompt_len", 120},
                           {"response_len_mean", 1019},
                           {"response_len_max", 3976},
                           {"gpu_memory_utilization", 0.6}});
  auto l8 = run_json("rl.step", v05);
  REQUIRE(l8.ok);
  CHECK(out(l8, "step_time") == doctest::Approx(92.8).epsilon(0.25));
  // Each decode step pays it once: the generation grows by the steps times the overhead.
  Json no_overhead = v05;
  no_overhead.set("step_overhead", 0);
  auto none = run_json("rl.step", no_overhead);
  REQUIRE(none.ok);
  CHECK(out(l8, "generation_time") - out(none, "generation_time") ==
        doctest::Approx(out(l8, "decode_steps") * 5e-3).epsilon(1e-6));
}
