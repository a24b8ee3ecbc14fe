// Practice problems of the training area: Chinchilla tokens and compute, training time,
// MFU, parameter and FLOP counts, MoE sizes. Seed 0 of each is seed 001's worked example
// (or seed 004's / a paper's published number, as `source` says).
#include <cmath>

#include "base/units.hpp"
#include "practice/problems.hpp"
#include "practice/variant_presets.hpp"

namespace napkin {

namespace {

// Round model sizes people quote (LLaMA, Chinchilla, GPT-3, LLaMA-3-405B).
const std::vector<double> kModelSizes = {1e9, 3e9, 7e9, 13e9, 34e9, 70e9, 175e9, 405e9};

// Seed 001 §4's training-time setup, shared by the time problems.
std::vector<Param> time_params(double gpus, double peak) {
  return {{"params", 70e9, {7e9, 13e9, 34e9, 70e9, 175e9}},
          {"tokens", 2e12, {1e12, 2e12, 4e12, 15e12}},
          {"gpus", gpus, {256, 512, 1024, 2048, 4096}},
          {"peak_flops", peak, {312e12, 990e12}},
          {"mfu", 0.5, {0.3, 0.4, 0.5, 0.6}}};
}

// Random draws that take between a few days and a few years of wall-clock time.
bool sensible_days(const Values& p) {
  double days = 6 * p["params"] * p["tokens"] / (p["gpus"] * p["peak_flops"] * p["mfu"]) / 86400;
  return days >= 3 && days <= 1000;
}

const char* kSixN =
    "Training costs about 6 FLOPs per parameter per token: 2 for the forward pass, 4 for the "
    "backward pass (Kaplan et al. 2020 §2.1).";

Mistake forward_only() {
  return times("forward_only_2n", 1.0 / 3,
               "2·N FLOPs per token is the forward pass only; training also runs the backward "
               "pass, which costs about twice the forward, so use 6·N.");
}

void chinchilla(ProblemBank& bank) {
  bank.add({
      .id = "train.chinchilla.tokens",
      .area = "training",
      .title = "Compute-optimal training tokens",
      .source = "the worked example §2, Chinchilla table (GPT-3 row)",
      .statement = "By the Chinchilla rule of thumb, how many tokens should a dense model with "
                   "{params} parameters be trained on to be compute-optimal?",
      .fixed_statement = "GPT-3 has {params} parameters. By the Chinchilla rule of thumb, how "
                         "many tokens should it have been trained on to be compute-optimal?",
      .params = {{"params", 175e9, preset_param_counts()}},
      .estimator = "train.chinchilla",
      .output = "optimal_tokens",
      .unit = answer_in::billion_tokens(),
      .hints = {"Hoffmann et al. 2022 (Chinchilla) found a compute-optimal ratio of about 20 "
                "training tokens per parameter.",
                "D = 20 × N."},
      .mistakes = {times("divided_by_ratio", 1.0 / 400,
                         "You divided by 20; compute-optimal is about 20 tokens for every "
                         "parameter, so multiply."),
                   times("one_token_per_param", 1.0 / 20,
                         "That is one token per parameter (GPT-3 saw 1.7); Chinchilla-optimal "
                         "is about 20 tokens per parameter.")},
      .difficulty = 1,
      .tags = "scaling laws",
  });

  bank.add({
      .id = "train.chinchilla.compute",
      .area = "training",
      .title = "Training compute at the Chinchilla optimum",
      .source = "the worked example §2, Chinchilla table (GPT-3 row: 3,675 ZettaFLOPs)",
      .statement = "A dense model with {params} parameters is trained on its Chinchilla-optimal "
                   "number of tokens (20 per parameter). How much training compute is that?",
      .fixed_statement = "GPT-3 ({params} parameters) trained Chinchilla-optimally, on 20 tokens "
                         "per parameter: how much training compute is that?",
      .params = {{"params", 175e9, preset_param_counts()}},
      .estimator = "train.chinchilla",
      .output = "compute_flops",
      .unit = answer_in::zettaflop(),
      .hints = {"First the tokens: D = 20 × N.", kSixN, "C = 6 × N × D."},
      .mistakes = {forward_only(),
                   {"one_token_only",
                    "6·N is the cost of one token; multiply by the number of training tokens D.",
                    [](const Values& p, const Values&) { return 6 * p["params"]; }, 0}},
      .difficulty = 1,
      .tags = "scaling laws,FLOPs",
  });

  const char* ratio_hint = "Divide the training tokens by the parameters.";
  Mistake inverted = {"inverted_ratio",
                      "You divided parameters by tokens; the ratio is tokens per parameter.",
                      [](const Values& p, const Values&) { return p["params"] / p["tokens"]; }, 0};
  bank.add({
      .id = "train.chinchilla.ratio",
      .area = "training",
      .title = "Tokens per parameter (undertrained?)",
      .source = "the worked example §2 (GPT-3: 300B tokens for 175B parameters, 1.7×)",
      .statement = "A model with {params} parameters was trained on {tokens} tokens. How many "
                   "tokens per parameter is that?",
      .fixed_statement = "GPT-3 ({params} parameters) was trained on {tokens} tokens. How many "
                         "tokens per parameter is that, against Chinchilla's 20?",
      .params = {{"params", 175e9, {7e9, 13e9, 70e9, 175e9, 280e9, 540e9}},
                 {"tokens", 300e9, {300e9, 780e9, 1e12, 1.4e12}}},
      .estimator = "train.chinchilla",
      .output = "tokens_per_param_actual",
      .unit = answer_in::count(unit::times, "tokens per parameter"),
      .hints = {ratio_hint, "Compare with Chinchilla's ~20: below it the model is undertrained."},
      .mistakes = {inverted},
      .difficulty = 1,
      .tags = "scaling laws",
  });

  bank.add({
      .id = "train.chinchilla.overtrain",
      .area = "training",
      .title = "Tokens per parameter (overtrained?)",
      .source = "the worked example §2 (LLaMA-2-70B: 2T tokens, 28.6×)",
      .statement = "A model with {params} parameters was trained on {tokens} tokens. How many "
                   "tokens per parameter is that?",
      .fixed_statement = "LLaMA-2-70B ({params} parameters) was trained on {tokens} tokens. How "
                         "many tokens per parameter is that, against Chinchilla's 20?",
      .params = {{"params", 70e9, {1e9, 7e9, 8e9, 13e9, 70e9}},
                 {"tokens", 2e12, {1e12, 1.4e12, 2e12, 8e12, 15e12}}},
      .valid = [](const Values& p) { return p["tokens"] > 20 * p["params"]; },
      .estimator = "train.chinchilla",
      .output = "tokens_per_param_actual",
      .unit = answer_in::count(unit::times, "tokens per parameter"),
      .hints = {ratio_hint,
                "Beyond 20 the model is overtrained for its size: more compute for training, "
                "a smaller and cheaper model to serve."},
      .mistakes = {inverted},
      .difficulty = 1,
      .tags = "scaling laws",
  });

  bank.add({
      .id = "train.chinchilla.budget",
      .area = "training",
      .title = "Compute-optimal size for a budget",
      .source = "Hoffmann et al. 2022 §3 (Chinchilla: 5.76e23 FLOPs, 70B parameters)",
      .statement = "A lab has a training budget of {compute_flops} and is considering a model "
                   "with {params} parameters. Using C ≈ 6·N·D and 20 tokens per parameter, what "
                   "model size is compute-optimal for the budget?",
      .fixed_statement = "Chinchilla's training budget was {compute_flops} (Gopher's). Using "
                         "C ≈ 6·N·D and 20 tokens per parameter, what model size is "
                         "compute-optimal for that budget? (Chinchilla itself has {params}.)",
      .params = {{"compute_flops",
                  5.76e23,
                  {1e21, 3e21, 1e22, 3e22, 1e23, 3e23, 1e24, 2e24, 3.8e24, 1e25, 2.1e25, 3.8e25,
                   5e25, 1e26, 2e26}},
                 {"params", 70e9, {7e9, 13e9, 70e9, 175e9}}},
      .estimator = "train.chinchilla",
      .output = "optimal_params_for_budget",
      .unit = answer_in::billion_params(),
      .hints = {"With D = 20·N, the budget is C = 6·N·(20·N) = 120·N².", "N = √(C / 120)."},
      .mistakes =
          {{"no_square_root", "C / 120 is N², not N: take the square root.",
            [](const Values& p, const Values&) { return p["compute_flops"] / 120; }, 0},
           {"forgot_six", "You left out the 6 FLOPs per parameter per token: N = √(C / (6·20)).",
            [](const Values& p, const Values&) { return std::sqrt(p["compute_flops"] / 20); }, 0},
           times("gave_tokens", 20,
                 "That is the token count D = 20·N; the question asks for the parameters N.")},
      .difficulty = 2,
      .tags = "scaling laws,FLOPs",
  });
}

void moe(ProblemBank& bank) {
  const std::vector<Param> moe_params = {{"shared_params", 5e9, {1e9, 2e9, 5e9, 10e9, 20e9, 100e9}},
                                         {"num_experts", 8, {8, 16, 32, 64, 128}},
                                         {"expert_params", 7e9, {1e9, 2e9, 7e9, 10e9, 22e9}},
                                         {"top_k", 2, {1, 2, 4, 8}}};
  auto with = [&](double s, double e, double x, double k) {
    std::vector<Param> v = moe_params;
    v[0].fixed = s;
    v[1].fixed = e;
    v[2].fixed = x;
    v[3].fixed = k;
    return v;
  };
  auto k_below_e = [](const Values& p) { return p["top_k"] < p["num_experts"]; };
  const char* moe_statement =
      "An MoE model has {shared_params} shared parameters and {num_experts} experts of "
      "{expert_params} parameters each; each token is routed to the top {top_k} of them. ";
  const char* formulas =
      "Total = shared + experts × expert size; active = shared + top-k × "
      "expert size (the worked example §3).";
  Mistake total_not_active = {
      "total_instead_of_active",
      "That is the total parameter count; only the shared parameters and the top-k routed "
      "experts run for a token.",
      [](const Values&, const Values& out) { return out["total_params"]; }, 0};

  bank.add({
      .id = "moe.params.active",
      .area = "training",
      .title = "Active parameters of an MoE model",
      .source = "the worked example §3 (Mixtral-8x7B: 61B total, 19B active)",
      .statement = std::string(moe_statement) + "How many parameters are active per token?",
      .fixed_statement =
          "Mixtral-8x7B, as the worked example models it: {shared_params} shared parameters, "
          "{num_experts} experts of {expert_params} each, top-{top_k} routing. How "
          "many parameters are active per token?",
      .params = with(5e9, 8, 7e9, 2),
      .valid = k_below_e,
      .estimator = "moe.params",
      .output = "active_params",
      .unit = answer_in::billion_params(),
      .hints = {"Not every expert runs for a token.", formulas},
      .mistakes =
          {total_not_active,
           {"top1_not_topk", "You counted one expert; each token runs through its top-k experts.",
            [](const Values& p, const Values&) { return p["shared_params"] + p["expert_params"]; },
            0},
           {"forgot_shared", "The shared parameters (attention, embeddings) always run.",
            [](const Values& p, const Values&) { return p["top_k"] * p["expert_params"]; }, 0}},
      .difficulty = 1,
      .tags = "MoE,parameters",
  });

  bank.add({
      .id = "moe.params.total",
      .area = "training",
      .title = "Total parameters of an MoE model",
      .source = "the worked example §3 (GPT-4 as rumored: 1,860B total)",
      .statement = std::string(moe_statement) + "How many parameters does it have in total?",
      .fixed_statement =
          "GPT-4 as rumored (the worked example): {shared_params} shared parameters, "
          "{num_experts} experts of {expert_params} each, top-{top_k} routing. How "
          "many parameters does it have in total?",
      .params = with(100e9, 8, 220e9, 1),
      .valid =
          [](const Values& p) {
            // Shared parameters large enough that forgetting them is a visible mistake.
            return p["top_k"] < p["num_experts"] &&
                   p["shared_params"] > 0.05 * p["num_experts"] * p["expert_params"];
          },
      .estimator = "moe.params",
      .output = "total_params",
      .unit = answer_in::billion_params(),
      .hints = {"Memory holds every expert, used or not.", formulas},
      .mistakes =
          {{"active_instead_of_total", "That is the active count; the model stores every expert.",
            [](const Values&, const Values& out) { return out["active_params"]; }, 0},
           {"forgot_shared",
            "The shared parameters (attention, embeddings) are stored once and belong to the total "
            "too.",
            [](const Values& p, const Values&) { return p["num_experts"] * p["expert_params"]; },
            0}},
      .difficulty = 1,
      .tags = "MoE,parameters",
  });

  bank.add({
      .id = "moe.params.tokens",
      .area = "training",
      .title = "Chinchilla tokens for an MoE model",
      .source = "the worked example §3 (Switch-C as modelled there: 110B active, 2,200B tokens)",
      .statement =
          std::string(moe_statement) +
          "By the Chinchilla rule (20 tokens per active parameter), how many tokens should it "
          "be trained on?",
      .fixed_statement =
          "Switch-C as the worked example models it: {shared_params} shared parameters, "
          "{num_experts} experts of {expert_params} each, top-{top_k} routing. By "
          "the Chinchilla rule (20 tokens per active parameter), how many tokens should "
          "it be trained on?",
      .params = with(100e9, 128, 10e9, 1),
      .valid = k_below_e,
      .estimator = "moe.params",
      .output = "optimal_tokens",
      .unit = answer_in::billion_tokens(),
      .hints = {"Compute per token follows the parameters a token actually uses.",
                "D = 20 × active parameters."},
      .mistakes = {{"tokens_from_total",
                    "You used the total parameters; the token budget follows the compute per "
                    "token, i.e. the active parameters.",
                    [](const Values&, const Values& out) { return 20 * out["total_params"]; }, 0}},
      .difficulty = 2,
      .tags = "MoE,scaling laws",
  });

  bank.add({
      .id = "moe.params.fraction",
      .area = "training",
      .title = "Active fraction of an MoE model",
      .source = "the worked example §3 (GPT-4 as rumored: 17.2% active)",
      .statement =
          std::string(moe_statement) + "What fraction of its parameters is active per token?",
      .fixed_statement =
          "GPT-4 as rumored (the worked example): {shared_params} shared parameters, "
          "{num_experts} experts of {expert_params} each, top-{top_k} routing. "
          "What fraction of its parameters is active per token?",
      .params = with(100e9, 8, 220e9, 1),
      .valid = k_below_e,
      .estimator = "moe.params",
      .output = "active_fraction",
      .unit = answer_in::percent(),
      .hints = {formulas, "Fraction = active / total."},
      .mistakes = {{"inverted_fraction", "That is total / active; the fraction is active / total.",
                    [](const Values&, const Values& out) {
                      return out["total_params"] / out["active_params"];
                    },
                    0},
                   {"experts_only",
                    "top-k / experts ignores the shared parameters, which are always active.",
                    [](const Values& p, const Values&) { return p["top_k"] / p["num_experts"]; },
                    0}},
      .difficulty = 2,
      .tags = "MoE,parameters",
  });
}

void training_time(ProblemBank& bank) {
  const char* setup =
      "A dense model with {params} parameters is trained on {tokens} tokens using {gpus} GPUs "
      "with a peak of {peak_flops} each, at {mfu} MFU. ";
  const char* llama =
      "LLaMA-2-70B: {params} parameters, {tokens} tokens, on {gpus} A100s "
      "({peak_flops} peak BF16) at {mfu} MFU. ";
  auto time_mistakes = [] {
    return std::vector<Mistake>{
        times("hours_not_days", 24,
              "That is the time in hours; the question asks for days, 24 hours each."),
        {"gpu_days_not_days",
         "That is GPU-days, the whole cluster's work; the GPUs run in parallel, so the wall-clock "
         "time is that divided by the number of GPUs.",
         [](const Values& p, const Values& out) { return out["seconds"] * p["gpus"]; }, 0},
        {"forgot_mfu",
         "You assumed the GPUs run at 100% of peak; sustained throughput is peak × MFU.",
         [](const Values& p, const Values& out) { return out["seconds"] * p["mfu"]; }, 0},
        forward_only()};
  };
  const std::vector<std::string> hints = {kSixN, "Total compute C = 6·N·D.",
                                          "Cluster throughput = GPUs × peak × MFU; time = C / "
                                          "throughput, then divide by 86,400 s per day."};

  bank.add({
      .id = "train.time.days",
      .area = "training",
      .title = "Training time in days",
      .source = "the worked example §4 (LLaMA-2-70B on 512 A100s: 121.7 days)",
      .statement = std::string(setup) + "How many days does training take?",
      .fixed_statement = std::string(llama) + "How many days does training take?",
      .params = time_params(512, 312e12),
      .valid = sensible_days,
      .estimator = "train.time",
      .output = "seconds",
      .unit = answer_in::days(),
      .hints = hints,
      .mistakes = time_mistakes(),
      .difficulty = 2,
      .tags = "training time,FLOPs,MFU",
  });

  bank.add({
      .id = "train.time.gpu_hours",
      .area = "training",
      .title = "GPU-hours of a training run",
      .source = "the worked example §4 (LLaMA-2-70B on 512 A100s: 1,495,726 GPU-hours)",
      .statement = std::string(setup) + "How many GPU-hours does training cost?",
      .fixed_statement = std::string(llama) + "How many GPU-hours does training cost?",
      .params = time_params(512, 312e12),
      .valid = sensible_days,
      .estimator = "train.time",
      .output = "gpu_hours",
      .unit = answer_in::count(unit::gpu_hours, "GPU-hours"),
      .hints = {kSixN, "Wall-clock hours = 6·N·D / (GPUs × peak × MFU) / 3600.",
                "GPU-hours = wall-clock hours × GPUs."},
      .mistakes =
          {{"wall_clock_not_gpu_hours",
            "That is the wall-clock time in hours; GPU-hours multiply it by the number of GPUs.",
            [](const Values&, const Values& out) { return out["hours"]; }, 0},
           times("gpu_days_not_gpu_hours", 1.0 / 24,
                 "That is GPU-days; a GPU-hour is 1/24 of one, so multiply by 24."),
           {"forgot_mfu",
            "You assumed the GPUs run at 100% of peak; sustained throughput is peak × MFU.",
            [](const Values& p, const Values& out) { return out["gpu_hours"] * p["mfu"]; }, 0}},
      .difficulty = 2,
      .tags = "training time,FLOPs,MFU",
  });

  bank.add({
      .id = "train.time.h100",
      .area = "training",
      .title = "Training time on H100s at a given MFU",
      .source = "the worked example §4 (LLaMA-2-70B, H100 × 1024, the MFU chart)",
      .statement = "A {params}-parameter model is trained on {tokens} tokens on {gpus} H100s "
                   "({peak_flops} peak BF16 each) at {mfu} MFU. How many days does training "
                   "take?",
      .params = {{"params", 70e9},
                 {"tokens", 2e12},
                 {"gpus", 1024, {512, 1024, 2048, 4096}},
                 {"peak_flops", 990e12},
                 {"mfu", 0.5, {0.3, 0.4, 0.5, 0.6, 0.7}}},
      .estimator = "train.time",
      .output = "seconds",
      .unit = answer_in::days(),
      .hints = hints,
      .mistakes = time_mistakes(),
      .difficulty = 2,
      .tags = "training time,FLOPs,MFU",
  });

  bank.add({
      .id = "train.mfu.palm",
      .area = "training",
      .title = "Model FLOPs utilization from throughput",
      .source = "Chowdhery et al. 2022 (PaLM) Table 3 and Appendix B: 46.2% MFU",
      .statement = "A {params}-parameter model ({n_layers} layers, attention width "
                   "{attention_dim}, sequence length {seq_len}) trains at {tokens_per_second} "
                   "tokens/s on {gpus} accelerators of {peak_flops} peak each. What is its model "
                   "FLOPs utilization (MFU), counting 6·N + 12·L·h·s FLOPs per token?",
      .fixed_statement = "PaLM 540B ({params} parameters, {n_layers} layers, attention width "
                         "{attention_dim}, sequence length {seq_len}) trained at "
                         "{tokens_per_second} tokens/s on {gpus} TPU v4 chips of {peak_flops} "
                         "peak each. What was its model FLOPs utilization (MFU), counting "
                         "6·N + 12·L·h·s FLOPs per token?",
      .params = {{"params", 540.35e9},
                 {"n_layers", 118},
                 {"d_model", 18432},
                 {"attention_dim", 12288},
                 {"seq_len", 2048},
                 {"tokens_per_second",
                  238.3e3,
                  {40e3, 60e3, 80e3, 100e3, 120e3, 140e3, 160e3, 180e3, 200e3, 220e3, 240e3}},
                 {"gpus", 6144, {2048, 3072, 4096, 5120, 6144}},
                 {"peak_flops", 275e12}},
      .valid =
          [](const Values& p) {
            double mfu = 6 * p["params"] * p["tokens_per_second"] / (p["gpus"] * p["peak_flops"]);
            return mfu >= 0.2 && mfu <= 0.7;
          },
      .estimator = "train.mfu",
      .output = "mfu",
      .unit = answer_in::percent(),
      .hints = {"MFU = achieved model FLOP/s ÷ peak FLOP/s of all chips.",
                "Achieved = tokens/s × (6·N + 12·L·h·s)."},
      .mistakes = {forward_only(),
                   {"one_chip_peak",
                    "You divided by one chip's peak; the throughput comes from all the chips.",
                    [](const Values& p, const Values& out) { return out["mfu"] * p["gpus"]; }, 0},
                   times("counted_recompute", 4.0 / 3,
                         "You counted the recomputed forward pass (8·N: hardware FLOPs, HFU); "
                         "MFU counts only the model's own 6·N.")},
      .difficulty = 3,
      .tags = "MFU,FLOPs,attention",
  });
}

void flops_and_params(ProblemBank& bank) {
  const std::vector<Param> gpt3 = {{"d_model", 12288, {2048, 4096, 5120, 8192, 12288}},
                                   {"n_layers", 96, {24, 32, 40, 48, 80, 96}},
                                   {"vocab", 50257, {32000, 50257, 128256}}};
  const char* per_flop = "Each weight costs 2 FLOPs per token (a multiply and an add).";
  Mistake params_not_flops =
      times("params_not_flops", 0.5,
            "That counts weights, not FLOPs: each weight costs 2 FLOPs (multiply + add) per "
            "token.");
  Mistake with_backward = times("included_backward", 3,
                                "That is forward + backward (3× forward); the question asks "
                                "for the forward pass only.");

  bank.add({
      .id = "model.flops.layer",
      .area = "training",
      .title = "Forward FLOPs of one transformer block",
      .source = "the worked example §5 (GPT-3: 3,623,878,656 FLOPs per block per token)",
      .statement = "A transformer block has width d = {d_model} and a feed-forward layer of width "
                   "4·d. Ignoring the attention-score products, how many forward FLOPs does one "
                   "block spend per token?",
      // Widths of released models, GPT-2 (768 … 1,600) to MT-NLG (20,480).
      .params = {{"d_model",
                  12288,
                  {768, 1024, 1280, 1600, 2048, 2560, 3584, 4096, 4608, 5120, 6144, 7168, 8192,
                   12288, 16384, 18432, 20480}},
                 {"n_layers", 96}},
      // Heads of 64 wide: the estimator checks the heads divide the width; only heads × head
      // width = d matters to these counts.
      .derive = [](Values& p) { p.set("n_heads", p["d_model"] / 64); },
      .estimator = "model.flops",
      .output = "fwd_flops_per_layer",
      .unit = answer_in::output(),
      .hints = {per_flop, "Q, K, V and output projections: 4·d² weights; FFN: 8·d² weights.",
                "Forward FLOPs per block = 2 × 12·d² = 24·d²."},
      .mistakes = {params_not_flops, with_backward,
                   times("ffn_only", 2.0 / 3,
                         "You counted only the feed-forward layers; Q, K, V and the output "
                         "projection add 8·d² FLOPs."),
                   times("attention_only", 1.0 / 3,
                         "You counted only the attention projections; the 4·d feed-forward "
                         "layers add 16·d² FLOPs.")},
      .difficulty = 2,
      .tags = "FLOPs,parameters",
  });

  bank.add({
      .id = "model.flops.forward",
      .area = "training",
      .title = "Forward FLOPs per token of a whole model",
      .source = "the worked example §5 (GPT-3: 349,127,467,008 forward FLOPs per token)",
      .statement = "A model has {n_layers} blocks of width d = {d_model} (4·d feed-forward) and a "
                   "vocabulary of {vocab}. Ignoring attention-score products, how many forward "
                   "FLOPs does it spend per token, including the output embedding?",
      .params = gpt3,
      // Heads of 64 wide: the estimator checks the heads divide the width; only heads × head
      // width = d matters to these counts.
      .derive = [](Values& p) { p.set("n_heads", p["d_model"] / 64); },
      .estimator = "model.flops",
      .output = "forward_flops_per_token",
      .unit = answer_in::output(),
      .hints = {"24·d² per block, times the number of blocks.",
                "Add 2·V·d for the output embedding."},
      .mistakes = {params_not_flops,
                   with_backward,
                   {"one_block_only", "That is one block; multiply by the number of blocks.",
                    [](const Values&, const Values& out) { return out["fwd_flops_per_layer"]; },
                    0}},
      .difficulty = 2,
      .tags = "FLOPs",
  });

  bank.add({
      .id = "model.flops.step",
      .area = "training",
      .title = "Training FLOPs per token",
      .source = "the worked example §5 (GPT-3: 1,047,382,401,024 FLOPs per token per step)",
      .statement = "A model has {n_layers} blocks of width d = {d_model} (4·d feed-forward) and a "
                   "vocabulary of {vocab}. Ignoring attention-score products, how many FLOPs does "
                   "one training step spend per token (forward and backward)?",
      .params = gpt3,
      // Heads of 64 wide: the estimator checks the heads divide the width; only heads × head
      // width = d matters to these counts.
      .derive = [](Values& p) { p.set("n_heads", p["d_model"] / 64); },
      .estimator = "model.flops",
      .output = "step_flops",
      .unit = answer_in::output(),
      .hints = {"Forward: 24·d² per block × blocks + 2·V·d.",
                "The backward pass costs about twice the forward.",
                "Step = forward + backward = 3 × forward (≈ 72·d²·L)."},
      .mistakes = {times("forward_only", 1.0 / 3,
                         "That is the forward pass only; the backward pass adds twice as much."),
                   times("backward_equals_forward", 2.0 / 3,
                         "The backward pass costs about twice the forward (gradients for both "
                         "activations and weights), so a step is 3× forward, not 2×."),
                   params_not_flops},
      .difficulty = 2,
      .tags = "FLOPs",
  });

  // Seed 001's verify_6n_rule: the detailed count against 6N, for the seed's three models
  // (and LLaMA-13B). `model` picks a row; derive fills in its shapes.
  bank.add({
      .id = "model.flops.ratio_6n",
      .area = "training",
      .title = "The 6N rule against a detailed count",
      .source = "the worked example §5, verify_6n_rule (LLaMA-7B: ratio 0.95)",
      .statement = "A {params}-parameter model has {n_layers} blocks of width d = {d_model} "
                   "(4·d feed-forward) and a vocabulary of {vocab}. Count its training FLOPs per "
                   "token block by block (24·d² forward per block, 2·V·d for the output "
                   "embedding, backward = 2 × forward). What is that count divided by 6·N?",
      // Seed 0 (model = -1) is the worked example's LLaMA-7B row (vocabulary 50,000); variants
      // take a real dense model's published size, layers, width and vocabulary (presets).
      .params = {{"model", -1, indices(dense_model_presets().size())}, {"vocab", 50000}},
      .derive =
          [](Values& p) {
            const auto& models = dense_model_presets();
            const double i = p["model"];
            if (i < 0 || i >= static_cast<double>(models.size())) {
              p.set("params", 7e9);
              p.set("d_model", 4096);
              p.set("n_layers", 32);
              p.set("n_heads", 64);
              return;
            }
            const ModelPreset& m = *models[static_cast<std::size_t>(i)];
            p.set("params",
                  m.published_params > 0 ? m.published_params : model_params(m.model).total);
            p.set("d_model", m.model.d_model);
            p.set("n_layers", m.model.layers);
            p.set("vocab", m.model.vocab);
            p.set("n_heads", m.model.d_model / 64);  // only heads × head width = d matters
          },
      .estimator = "model.flops",
      .output = "ratio_to_6n",
      .unit = answer_in::count(unit::times, "×"),
      .tolerance = 0.01,
      .hints = {"Detailed: 3 × (24·d²·L + 2·V·d) per token.", "Divide by 6·N."},
      .mistakes = {times("forward_only", 1.0 / 3,
                         "You compared the forward pass alone with 6N, which counts forward and "
                         "backward.")},
      .difficulty = 3,
      .tags = "FLOPs,parameters",
  });

  bank.add({
      .id = "model.params.ffn_only",
      .area = "training",
      .title = "Parameters of an FFN-only model",
      .source = "the worked example (XXL: d 16,384, d_ff 53,248, 126 blocks → 219,848,638,464)",
      .statement = "A model is {n_layers} blocks of two linear layers each, d_model → d_ff → "
                   "d_model, with d_model = {d_model} and d_ff = {d_ff} (no attention, no "
                   "embeddings, no biases). How many parameters does it have?",
      .params = {{"d_model", 16384, {4096, 8192, 12288, 16384}},
                 {"d_ff", 53248, {16384, 32768, 53248, 65536}},
                 {"n_layers", 126, {32, 64, 96, 126}}},
      .valid = [](const Values& p) { return p["d_ff"] > p["d_model"]; },
      .estimator = "model.params",
      .inputs =
          [](const Values& p) {
            Json j = Json::object();
            j.set("d_model", p["d_model"]);
            j.set("d_ff", p["d_ff"]);
            j.set("n_layers", p["n_layers"]);
            j.set("attention", false);
            j.set("vocab", 0);
            return j;
          },
      .output = "params",
      .unit = answer_in::billion_params(),
      .hints = {"Each linear layer is a d_model × d_ff matrix.",
                "Per block: 2 · d_model · d_ff; then times the blocks."},
      .mistakes = {times("one_linear_per_block", 0.5,
                         "Each block has two linear layers (up and down projection)."),
                   {"one_block_only", "That is one block; multiply by the number of blocks.",
                    [](const Values&, const Values& out) { return out["per_layer_params"]; }, 0}},
      .difficulty = 1,
      .tags = "parameters",
  });

  bank.add({
      .id = "model.params.gpt3",
      .area = "training",
      .title = "Parameters from the shapes (GPT-3)",
      .source = "Brown et al. 2020 Table 2.1 (GPT-3: 175B); Kaplan et al. 2020 Table 1 (12·L·d²)",
      .statement = "A decoder-only transformer has {n_layers} blocks of width d = {d_model} "
                   "(multi-head attention, 4·d feed-forward) and a vocabulary of {vocab} with "
                   "tied embeddings. Ignoring biases, norms and positions, how many parameters "
                   "does it have?",
      .params = gpt3,
      .derive = [](Values& p) { p.set("n_heads", p["d_model"] / 128); },
      .estimator = "model.params",
      .output = "params",
      .unit = answer_in::billion_params(),
      .hints = {"Attention: Q, K, V and output projections, 4·d² per block.",
                "Feed-forward: two d × 4d matrices, 8·d² per block; so 12·d² per block.",
                "N ≈ 12·L·d² + V·d."},
      .mistakes = {{"attention_only",
                    "You left out the feed-forward layers, which hold 2/3 of each block.",
                    [](const Values& p, const Values& out) {
                      return p["n_layers"] * out["attention_params"] + out["embedding_params"];
                    },
                    0},
                   {"one_block_only", "That is one block; multiply by the number of blocks.",
                    [](const Values&, const Values& out) {
                      return out["per_layer_params"] + out["embedding_params"];
                    },
                    0},
                   times("counted_flops", 2,
                         "That is the forward FLOPs per token (2 per weight), not the weights.")},
      .difficulty = 2,
      .tags = "parameters,attention",
  });
}

}  // namespace

void register_training_problems(ProblemBank& bank) {
  chinchilla(bank);
  moe(bank);
  training_time(bank);
  flops_and_params(bank);
}

}  // namespace napkin
