// Practice problems of the memory area: ZeRO stages, the notebook's per-GPU memory, activation
// memory (Korthikanti et al. 2022), FSDP sizing and FSDP + TP scaling (seed 004), pipeline
// bubbles (seed 002). Seed 0 of each is the seed's worked example or a paper's published number,
// as `source` says; seed 004's errata are asked the right way, with the seed's slip as a mistake.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "base/units.hpp"
#include "practice/problems.hpp"
#include "practice/variant_presets.hpp"

namespace napkin {

namespace {

using Extra = std::vector<std::pair<std::string, Json>>;

// Inputs: every parameter the estimator knows, plus fixed choices/flags the statement states.
std::function<Json(const Values&)> with(std::string estimator, Extra extra) {
  return [estimator = std::move(estimator), extra = std::move(extra)](const Values& p) {
    const Estimator* e = registry().find(estimator);
    Json j = Json::object();
    for (const auto& [k, v] : p.items())
      if (e && e->input(k)) j.set(k, v);
    for (const auto& [k, v] : extra) j.set(k, v);
    return j;
  };
}

const char* kZeroSetup =
    "A model with {params} parameters is trained with mixed-precision Adam: 2-byte weights, "
    "2-byte gradients and K = 12 bytes of optimizer state per parameter (fp32 master copy and "
    "two moments). ";

const std::vector<double> kZeroParams = {1e9, 7.5e9, 13e9, 70e9, 175e9};
const std::vector<double> kZeroDp = {8, 16, 32, 64, 128, 256};

// Per-GPU model states of ZeRO stage s (Rajbhandari et al. 2020 §5): Ψ·(2 + 2 + 12) sharded
// progressively over N_d.
double zero_bytes(const Values& p, int stage) {
  const double n = p["params"], d = p["dp"];
  const double w = stage >= 3 ? 2 / d : 2, g = stage >= 2 ? 2 / d : 2, o = stage >= 1 ? 12 / d : 12;
  return n * (w + g + o);
}

template <int Stage>
double zero_bytes_at(const Values& p, const Values&) {
  return zero_bytes(p, Stage);
}

Mistake zero_stage_value(std::string id, int stage, std::string feedback) {
  const ValueFn at[] = {&zero_bytes_at<0>, &zero_bytes_at<1>, &zero_bytes_at<2>, &zero_bytes_at<3>};
  return {std::move(id), std::move(feedback), at[stage < 0 ? 0 : stage > 3 ? 3 : stage], 0};
}

void zero(ProblemBank& bank) {
  const Mistake unsharded =
      zero_stage_value("not_sharded", 0,
                       "That is the unsharded 16 bytes per parameter; ZeRO divides states by the "
                       "data-parallel degree.");
  bank.add({
      .id = "mem.zero.stage3",
      .area = "memory",
      .title = "ZeRO-3 model states per GPU",
      .source = "Rajbhandari et al. 2020 (ZeRO), Figure 1: 7.5B on 64 GPUs → 1.9 GB",
      .group = "zero.fig1",
      .statement = std::string(kZeroSetup) +
                   "With ZeRO stage 3 over {dp} data-parallel GPUs, how much memory do the model "
                   "states (weights, gradients, optimizer) take per GPU?",
      .params = {{"params", 7.5e9, kZeroParams}, {"dp", 64, kZeroDp}, {"zero_stage", 3, {}}},
      .estimator = "mem.training",
      .inputs = with("mem.training", {{"optimizer_bytes", 12}, {"activations", "none"}}),
      .output = "total",
      .unit = answer_in::gb(),
      .hints = {"Without sharding, mixed-precision Adam costs 2 + 2 + 12 = 16 bytes per parameter.",
                "ZeRO-3 shards all three — weights, gradients and optimizer states — over N_d.",
                "16 · Ψ / N_d."},
      .mistakes = {unsharded,
                   zero_stage_value("optimizer_only", 1,
                                    "You sharded only the optimizer states (ZeRO-1); stage 3 "
                                    "also shards gradients and weights."),
                   times("k_without_master", 0.75,
                         "You counted 8 bytes of Adam state; with an fp32 master copy K = 12, "
                         "16 bytes per parameter in all.")},
      .difficulty = 1,
      .tags = "memory,ZeRO,data parallel",
  });
  bank.add({
      .id = "mem.zero.stage1",
      .area = "memory",
      .title = "ZeRO-1 model states per GPU",
      .source = "Rajbhandari et al. 2020 (ZeRO), Figure 1: 7.5B on 64 GPUs → 31.4 GB",
      .group = "zero.fig1",
      .statement = std::string(kZeroSetup) +
                   "With ZeRO stage 1 (optimizer-state partitioning) over {dp} data-parallel "
                   "GPUs, how much memory do the model states take per GPU?",
      .params = {{"params", 7.5e9, kZeroParams}, {"dp", 64, kZeroDp}, {"zero_stage", 1, {}}},
      .estimator = "mem.training",
      .inputs = with("mem.training", {{"optimizer_bytes", 12}, {"activations", "none"}}),
      .output = "total",
      .unit = answer_in::gb(),
      .hints = {"Stage 1 shards only the K = 12 bytes of optimizer state.",
                "Weights and gradients stay whole: 4·Ψ + 12·Ψ / N_d."},
      .mistakes = {unsharded,
                   zero_stage_value("sharded_everything", 3,
                                    "You sharded weights and gradients too; that is ZeRO-3."),
                   zero_stage_value("sharded_gradients_too", 2,
                                    "You sharded the gradients too; that is ZeRO-2.")},
      .difficulty = 2,
      .tags = "memory,ZeRO,data parallel",
  });
  bank.add({
      .id = "mem.zero.stage2",
      .area = "memory",
      .title = "ZeRO-2 model states per GPU",
      .source = "Rajbhandari et al. 2020 (ZeRO), Figure 1: 7.5B on 64 GPUs → 16.6 GB",
      .group = "zero.fig1",
      .statement = std::string(kZeroSetup) +
                   "With ZeRO stage 2 (optimizer states and gradients partitioned) over {dp} "
                   "data-parallel GPUs, how much memory do the model states take per GPU?",
      .params = {{"params", 7.5e9, kZeroParams}, {"dp", 64, kZeroDp}, {"zero_stage", 2, {}}},
      .estimator = "mem.training",
      .inputs = with("mem.training", {{"optimizer_bytes", 12}, {"activations", "none"}}),
      .output = "total",
      .unit = answer_in::gb(),
      .hints = {"Stage 2 shards the gradients and the optimizer states; the weights stay whole.",
                "2·Ψ + (2 + 12)·Ψ / N_d."},
      .mistakes = {unsharded,
                   zero_stage_value("optimizer_only", 1,
                                    "You sharded only the optimizer states; that is ZeRO-1."),
                   zero_stage_value("sharded_everything", 3,
                                    "You sharded the weights too; that is ZeRO-3.")},
      .difficulty = 2,
      .tags = "memory,ZeRO,data parallel",
  });
  bank.add({
      .id = "mem.zero.max_params",
      .area = "memory",
      .title = "Largest model ZeRO-3 can hold",
      .source = "Rajbhandari et al. 2020 (ZeRO) §5: 16·Ψ/N_d bytes per device with P_os+g+p",
      .statement = "Each GPU has {gpu_memory}. Training uses mixed-precision Adam (2-byte weights "
                   "and gradients, 12 bytes of optimizer state per parameter) with ZeRO stage 3 "
                   "over {dp} GPUs. Ignoring activations, what is the largest model that fits?",
      .params = {{"gpu_memory", 80e9, {24e9, 40e9, 80e9, 94e9, 141e9, 192e9}},
                 {"dp", 64, {8, 16, 64, 256, 1024}},
                 {"zero_stage", 3, {}},
                 {"params", 7e9, {}, ""}},
      .estimator = "mem.training",
      .inputs = with("mem.training", {{"optimizer_bytes", 12}, {"activations", "none"}}),
      .output = "max_params",
      .unit = answer_in::billion_params(),
      .bound = Bound::at_most,  // a larger model does not fit
      .hints = {"Each parameter costs 16 bytes in all, spread over the N_d GPUs.",
                "Ψ_max = memory × N_d / 16."},
      .mistakes = {{"forgot_sharding",
                    "Sharded over N_d GPUs, each holds only 1/N_d of the states.",
                    [](const Values& p, const Values&) { return p["gpu_memory"] / 16; }, 0},
                   times("weights_only", 8,
                         "Gradients and optimizer states take memory too: 16 bytes per "
                         "parameter, not 2."),
                   times("k_without_master", 16.0 / 12,
                         "K = 12 includes the fp32 master copy: 16 bytes per parameter.")},
      .difficulty = 2,
      .tags = "memory,ZeRO",
  });
}

void notebook(ProblemBank& bank) {
  bank.add({
      .id = "mem.training.notebook",
      .area = "memory",
      .title = "Per-GPU memory with TP and ZeRO-3 (the usual rule of thumb)",
      .source =
          "the worked example §6, calculate_memory_per_gpu (70B, TP=8 + ZeRO-3, DP=8: 188.13 GB)",
      .statement =
          "A {params}-parameter model is trained with TP = {tp} and ZeRO-3 over DP = {dp}. "
          "Weights and gradients are BF16 (2 bytes), Adam keeps 8 bytes per parameter, and "
          "activations follow the usual rule of thumb: 10 × (parameters per TP shard) × 2 "
          "bytes (ZeRO does not shard activations). How much memory does each GPU need?",
      .params = {{"params", 70e9, {7e9, 13e9, 34e9, 70e9}},
                 {"tp", 8, {2, 4, 8}},
                 {"dp", 8, {4, 8, 16, 32}},
                 {"zero_stage", 3, {}}},
      .estimator = "mem.training",
      .inputs = with("mem.training", {{"optimizer_bytes", 8}, {"activations", "rule_of_thumb"}}),
      .output = "total",
      .unit = answer_in::gb(),
      .hints = {"Divide every state by tp first: TP splits each weight matrix.",
                "ZeRO-3 then divides weights, gradients and optimizer states by dp.",
                "Activations: 10 × Ψ/tp × 2 bytes, not divided by dp."},
      .mistakes =
          {{"zero_shards_activations",
            "ZeRO shards model states, not activations: each replica keeps its own.",
            [](const Values& p, const Values& o) {
              return o["model_states"] + o["activations"] / p["dp"];
            },
            0},
           {"no_zero", "Without ZeRO each GPU keeps whole states; ZeRO-3 divides them by dp.",
            [](const Values& p, const Values& o) {
              return p["params"] / p["tp"] * 12 + o["activations"];
            },
            0},
           {"activations_not_tp_split", "The rule counts parameters per TP shard: Ψ/tp, not Ψ.",
            [](const Values& p, const Values& o) { return o["model_states"] + p["params"] * 20; },
            0}},
      .difficulty = 3,
      .tags = "memory,ZeRO,tensor parallel,activations",
  });
}

void activations(ProblemBank& bank) {
  bank.add({
      .id = "mem.activations.layer",
      .area = "memory",
      .title = "Activation memory of one transformer layer",
      .source = "Korthikanti et al. 2022, eq. (1) / Table 2 (GPT-3 layer: 2.87 GB)",
      .statement = "A transformer layer has hidden size h = {d_model:raw} and a = {n_heads:raw} "
                   "attention heads. With 16-bit activations, sequence length {seq_len:raw} and "
                   "micro-batch {micro_batch:raw}, no parallelism and no recomputation, how many "
                   "bytes of activations does it keep for the backward pass?",
      .params = {{"seq_len", 2048, {1024, 2048, 4096, 8192}},
                 {"micro_batch", 1, {1, 2, 4}},
                 {"d_model", 12288, {4096, 8192, 12288}},
                 {"n_heads", 96, {32, 64, 96}},
                 {"n_layers", 96, {}}},
      .estimator = "mem.activations",
      .output = "per_layer",
      .unit = answer_in::gb(),
      .hints = {"Korthikanti et al.: s·b·h·(34 + 5·a·s/h) bytes per layer.",
                "34·s·b·h is the linear layers, norms and dropout; 5·a·s²·b is the attention "
                "scores, softmax and its dropout mask."},
      .mistakes = {{"forgot_attention_scores",
                    "The a·s² attention scores, softmax output and dropout mask add 5·a·s²·b "
                    "bytes — often more than the rest.",
                    [](const Values& p, const Values&) {
                      return p["seq_len"] * p["micro_batch"] * p["d_model"] * 34;
                    },
                    0},
                   {"whole_model",
                    "That sums every layer; the question asks for one layer's traffic.",
                    [](const Values&, const Values& o) { return o["total"]; }, 0}},
      .difficulty = 2,
      .tags = "memory,activations,attention",
  });
  bank.add({
      .id = "mem.activations.selective",
      .area = "memory",
      .title = "What selective recomputation saves",
      .source = "Korthikanti et al. 2022 §5 (GPT-3: 5as/h = 80, saves 70%)",
      .statement = "A model has hidden size h = {d_model:raw}, a = {n_heads:raw} heads and "
                   "sequence length {seq_len:raw}, trained with tensor parallelism t = {tp:raw} "
                   "and sequence parallelism. Selective recomputation recomputes only the "
                   "attention scores, softmax and dropout. What fraction of each layer's "
                   "activation memory does it save?",
      .params = {{"seq_len", 2048, {512, 1024, 2048, 4096, 8192}},
                 {"d_model", 12288, {4096, 5120, 8192, 12288, 16384}},
                 {"n_heads", 96, {32, 40, 64, 96, 128}},
                 {"n_layers", 96, {}},
                 {"tp", 8, {}}},
      .estimator = "mem.activations",
      .inputs = with("mem.activations", {{"sequence_parallel", true}, {"recompute", "selective"}}),
      .output = "saved_fraction",
      .unit = answer_in::percent(),
      .hints = {"With TP + SP a layer keeps s·b·h/t·(34 + 5·a·s/h) bytes.",
                "Selective recomputation drops the 5·a·s/h term: saved = (5as/h) / (34 + 5as/h)."},
      .mistakes = {{"kept_not_saved", "That is the fraction kept; the question asks what is saved.",
                    [](const Values&, const Values& o) { return 1 - o["saved_fraction"]; }, 0},
                   {"ratio_of_terms",
                    "You compared the two terms (5as/h over 34); divide by their sum instead.",
                    [](const Values&, const Values& o) { return o["attention_term"] / 34; }, 0}},
      .difficulty = 3,
      .tags = "memory,activations,recomputation",
  });
  bank.add({
      .id = "mem.activations.tp_sp",
      .area = "memory",
      .title = "Activations per layer with TP, SP and selective recomputation",
      .source = "Korthikanti et al. 2022, Table 2 (sbh·34/t; GPT-3 at t = 8: 107 MB)",
      .statement = "A layer with hidden size h = {d_model:raw} and a = {n_heads:raw} heads runs "
                   "sequence length {seq_len:raw}, micro-batch {micro_batch:raw}, tensor "
                   "parallelism t = {tp:raw} with sequence parallelism, and selective activation "
                   "recomputation. How many bytes of activations does each GPU keep for it?",
      .params = {{"seq_len", 2048, {512, 1024, 2048, 4096, 8192}},
                 {"micro_batch", 1, {1, 2, 4}},
                 {"d_model", 12288, {5120, 8192, 12288}},
                 {"n_heads", 96, {40, 64, 96}},
                 {"n_layers", 96, {}},
                 {"tp", 8, {2, 4, 8}}},
      .estimator = "mem.activations",
      .inputs = with("mem.activations", {{"sequence_parallel", true}, {"recompute", "selective"}}),
      .output = "per_layer",
      .unit = answer_in::mb(),
      .hints = {"Sequence parallelism splits the 10·sbh that TP alone leaves replicated.",
                "Selective recomputation drops the attention-score term.", "34·s·b·h / t."},
      .mistakes = {{"forgot_tp_split",
                    "With sequence parallelism every term is split over the t ranks.",
                    [](const Values& p, const Values& o) { return o["per_layer"] * p["tp"]; }, 0},
                   {"tp_without_sp",
                    "Without sequence parallelism 10·sbh stays replicated; with it everything "
                    "divides by t.",
                    [](const Values& p, const Values&) {
                      return p["seq_len"] * p["micro_batch"] * p["d_model"] * (10 + 24 / p["tp"]);
                    },
                    0},
                   {"kept_attention_scores",
                    "Selective recomputation does not keep the 5·a·s/h attention term.",
                    [](const Values&, const Values& o) { return o["per_layer_no_recompute"]; }, 0}},
      .difficulty = 3,
      .tags = "memory,activations,tensor parallel,recomputation",
  });
}

void fsdp(ProblemBank& bank) {
  const char* xxl =
      "the XXL model of the FSDP worked example (126 blocks of two linear layers, d_model 16,384, "
      "d_ff 53,248; use {params} parameters, as rounded there)";
  bank.add({
      .id = "mem.fsdp.states",
      .area = "memory",
      .title = "FP32 model states on one device",
      .source = "the worked example (a): 220B × (4 + 4 + 8) bytes = 3,520 GB",
      .group = "seed004.a",
      .statement =
          "A model has {params} parameters. How much memory do its FP32 master weights, "
          "FP32 accumulated gradients and AdamW optimizer states (two FP32 moments) take in "
          "total, before any sharding?",
      .fixed_statement = "The worked example (a): for " + std::string(xxl) +
                         ", how much memory do the FP32 master weights, accumulated gradients "
                         "and AdamW optimizer states (two FP32 moments) take in total, before "
                         "any sharding?",
      .params = {{"params", 220e9, preset_param_counts()}},  // real models' exact counts
      .estimator = "mem.fsdp",
      .output = "model_states",
      .unit = answer_in::gb(),
      .hints = {"Every one of them is 4 bytes per parameter per copy.",
                "AdamW keeps two states (momentum and variance): 4 + 4 + 2·4 = 16 bytes."},
      .mistakes = {times("adam_one_state", 0.75,
                         "AdamW keeps two FP32 states per parameter, momentum and variance, so 8 "
                         "bytes, not 4."),
                   times("bf16_states", 0.5,
                         "These are FP32 (4 bytes); BF16 is for activations and the "
                         "communicated gradients."),
                   times("weights_only", 0.25,
                         "Training also holds a gradient and two optimizer states per parameter, "
                         "each as large as the FP32 weights.")},
      .difficulty = 1,
      .tags = "memory,FSDP",
  });
  bank.add({
      .id = "mem.fsdp.gpus",
      .area = "memory",
      .title = "How many GPUs' worth of model states",
      .source = "the worked example (a): 3,520 GB / 80 GB = 44 H100s",
      .group = "seed004.a",
      .statement = "A model has {params} parameters with FP32 master weights, accumulated "
                   "gradients and two AdamW moments. How many GPUs of {reference_gpu_memory} is "
                   "that much memory?",
      .params = {{"params", 220e9, preset_param_counts()},
                 {"reference_gpu_memory", 80e9, {40e9, 80e9, 94e9, 141e9, 192e9}}},
      .estimator = "mem.fsdp",
      .output = "reference_gpus",
      .unit = answer_in::gpus(),
      .integer = true,
      .bound = Bound::at_least,
      .hints = {"16 bytes per parameter.", "Divide by the GPU memory and round up."},
      .mistakes = {{"bf16_weights_only",
                    "That only holds BF16 weights; the FP32 states are 16 bytes per parameter.",
                    [](const Values& p, const Values&) {
                      return std::ceil(2 * p["params"] / p["reference_gpu_memory"]);
                    },
                    0},
                   {"forgot_optimizer", "AdamW's two FP32 moments add 8 bytes per parameter.",
                    [](const Values& p, const Values&) {
                      return std::ceil(8 * p["params"] / p["reference_gpu_memory"]);
                    },
                    0}},
      .difficulty = 1,
      .tags = "memory,FSDP",
  });
  bank.add({
      .id = "mem.fsdp.backward",
      .area = "memory",
      .title = "Activations saved for the backward pass",
      .source =
          "the worked example (a)/(b): A = 126·b·s·(d + d_ff)·2 = 143.7 GB at b = 4, s = 2048",
      .group = "seed004.a",
      .statement =
          "A model is {n_layers:raw} blocks of two linear layers, d_model = "
          "{d_model:raw} → d_ff = {d_ff:raw} → d_model. Each block keeps the inputs of "
          "both linears for the backward pass, in BF16. With batch {batch:raw} and "
          "sequence length {seq_len:raw}, how much memory is saved for backward in total (no "
          "sharding)?",
      .params = {{"n_layers", 126, {32, 64, 96, 126}},
                 {"batch", 4, {1, 2, 4, 8}},
                 {"seq_len", 2048, {1024, 2048, 4096}},
                 {"d_model", 16384, {4096, 8192, 16384}},
                 {"d_ff", 53248, {16384, 32768, 53248}},
                 {"params", 220e9, {}, ""}},
      .valid = [](const Values& p) { return p["d_ff"] > p["d_model"]; },
      .estimator = "mem.fsdp",
      .output = "backward_activations",
      .unit = answer_in::gb(),
      .hints = {"Per block: b·s·d values into the first linear and b·s·d_ff into the second.",
                "A = L · b · s · (d + d_ff) · 2 bytes."},
      .mistakes =
          {{"bf16_gradient_saving",
            "That is what BF16 gradients save over FP32 (the worked example's reading); the "
            "memory saved for backward is the activations.",
            [](const Values&, const Values& o) { return o["bf16_grad_saving"]; }, 0},
           times("fp32_activations", 2,
                 "The activations are kept in BF16, as the statement says: 2 bytes per value, not "
                 "4."),
           {"one_block_only", "That is one block; multiply by the number of blocks.",
            [](const Values& p, const Values& o) {
              return o["backward_activations"] / p["n_layers"];
            },
            0}},
      .difficulty = 2,
      .tags = "memory,activations",
  });
  bank.add({
      .id = "mem.fsdp.min_devices",
      .area = "memory",
      .title = "FSDP devices needed with activations",
      .source = "the worked example (b): (3,520 + A/2)/N + A/2 < 95 GB ⇒ N_FSDP ≥ 156",
      .group = "seed004.b",
      .statement = "For " + std::string(xxl) +
                   ", FSDP shards the FP32 model states (16 bytes per parameter) and half of the "
                   "BF16 activations over N devices; the other half is replicated. With batch "
                   "{batch:raw} and sequence length {seq_len:raw}, how many devices of "
                   "{device_memory} are needed?",
      .params = {{"params", 220e9, {}},
                 {"batch", 4, {1, 2, 4, 8}},
                 {"seq_len", 2048, {512, 1024, 2048, 4096}},
                 {"device_memory", 95e9, {80e9, 95e9, 141e9, 192e9}}},
      // Above 8,192 tokens the replicated half of the activations alone (72 GB at 8,192)
      // outgrows an 80 GB device: no number of devices fits.
      .valid = [](const Values& p) { return p["batch"] * p["seq_len"] <= 8192; },
      .estimator = "mem.fsdp",
      .output = "min_devices",
      .unit = answer_in::count(unit::none, "devices"),
      .integer = true,
      .bound = Bound::at_least,
      .hints = {"Each device holds 1/N of the states and the sharded half of the activations, "
                "plus the whole replicated half.",
                "Activations: A = blocks · b · s · (d_model + d_ff) · 2 bytes.",
                "Per device: (S + A/2)/N + A/2 must stay below the device memory.",
                "N ≥ (S + A/2) / (M − A/2), rounded up."},
      .mistakes =
          {{"ignored_activations",
            "The activations take memory too (the worked example asks for "
            "the typical batch).",
            [](const Values&, const Values& o) { return o["min_devices_model_states_only"]; }, 0},
           {"sharded_all_activations",
            "Only half of the activations are sharded; the other half is on every device.",
            [](const Values& p, const Values& o) {
              return std::ceil((o["model_states"] + o["activations"]) / p["device_memory"]);
            },
            0}},
      .difficulty = 3,
      .tags = "memory,FSDP,activations",
  });
}

// Variants take the FFN widths of a real dense model (the scenario presets); seed 0 keeps the
// worked example's XXL model (model = -1).
void ffn_of_preset(Values& p) {
  const auto& models = dense_model_presets();
  const double i = p["model"];
  if (i < 0 || i >= static_cast<double>(models.size())) return;
  const Model& m = models[static_cast<std::size_t>(i)]->model;
  p.set("d_model", m.d_model);
  p.set("d_ff", m.d_ff);
}

void fsdp_tp(ProblemBank& bank) {
  const char* setup_fixed =
      "For the XXL model of the FSDP worked example (FFN blocks d_model 16,384 → d_ff 53,248), "
      "forward pass "
      "only, on TPU v5p (C = 4.6e14 FLOP/s, W_ici = 1.8e11 B/s, M_X = 2, M_Y = 1) with "
      "X = {fsdp:raw}-way FSDP and Y = {tp:raw}-way TP, ";
  const char* setup =
      "For a model whose FFN blocks are d_model {d_model:raw} → d_ff {d_ff:raw}, forward pass "
      "only, on TPU v5p (C = 4.6e14 FLOP/s, W_ici = 1.8e11 B/s, M_X = 2, M_Y = 1) with "
      "X = {fsdp:raw}-way FSDP and Y = {tp:raw}-way TP, ";
  bank.add({
      .id = "scale.fsdp_tp.per_device",
      .area = "memory",
      .title = "Compute-bound tokens per device with FSDP + TP",
      .source =
          "the worked example (c), corrected with the Scaling Book's mixed FSDP + TP condition "
          "(≈ 395 tokens per device)",
      .group = "seed004.c",
      .statement = std::string(setup) +
                   "how many tokens per device must the batch have for the step to be "
                   "compute-bound?",
      .fixed_statement = std::string(setup_fixed) +
                         "how many tokens per device must the batch have for the step to be "
                         "compute-bound?",
      .params = {{"model", -1, indices(dense_model_presets().size())},
                 {"d_model", 16384, {}},
                 {"d_ff", 53248, {}},
                 {"fsdp", 16, {8, 16, 32, 64}},
                 {"tp", 4, {2, 4, 8}}},
      .derive = ffn_of_preset,
      .estimator = "scale.fsdp_tp",
      .output = "min_tokens_per_device",
      .unit = answer_in::count(unit::tokens, "tokens"),
      .bound = Bound::at_least,  // fewer tokens per device is not compute-bound
      .hints = {"Per layer: T_math = 4BDF/(NC), T_FSDP = 4DF/(Y·W·M_X), T_TP = 4BD/(X·W·M_Y).",
                "Compute-bound when B·F/(N·α) > F/(Y·M_X) + B/(X·M_Y), with α = C/W.",
                "Solve for B, then divide by N = X·Y."},
      .mistakes =
          {{"total_not_per_device", "That is the whole batch; divide by the X·Y devices.",
            [](const Values&, const Values& o) { return o["min_batch_tokens"]; }, 0},
           {"ignored_tp_comm",
            "The TP all-gathers and reduce-scatters grow with the batch too: include "
            "B/(X·M_Y).",
            [](const Values& p, const Values& o) { return o["alpha"] / (p["tp"] * 2); }, 0},
           {"per_fsdp_shard", "That is tokens per FSDP shard (B/X); divide by Y as well.",
            [](const Values& p, const Values& o) { return o["min_batch_tokens"] / p["fsdp"]; }, 0}},
      .difficulty = 3,
      .tags = "FSDP,tensor parallel,roofline",
  });
  bank.add({
      .id = "scale.fsdp_tp.sequences",
      .area = "memory",
      .title = "Smallest compute-bound batch in sequences",
      .source = "the worked example (c): 16 sequences of 2048 (the worked example's answer, for "
                "the wrong reason)",
      .group = "seed004.c",
      .statement = std::string(setup) +
                   "what is the smallest batch, in whole sequences of {seq_len:raw} tokens "
                   "split evenly over the FSDP shards, that is compute-bound?",
      .fixed_statement = std::string(setup_fixed) +
                         "what is the smallest batch, in whole sequences of {seq_len:raw} tokens "
                         "split evenly over the FSDP shards, that is compute-bound?",
      .params = {{"model", -1, indices(dense_model_presets().size())},
                 {"d_model", 16384, {}},
                 {"d_ff", 53248, {}},
                 {"fsdp", 16, {8, 16, 32, 64}},
                 {"tp", 4, {2, 4, 8}},
                 {"seq_len", 2048, {512, 1024, 2048, 4096}}},
      .derive = ffn_of_preset,
      .estimator = "scale.fsdp_tp",
      .output = "min_sequences",
      .unit = answer_in::count(unit::none, "sequences"),
      .integer = true,
      .bound = Bound::at_least,
      .hints = {"First the threshold in tokens: B > (F/(Y·M_X)) / (F/(N·α) − 1/(X·M_Y)).",
                "Round up to whole sequences, then to a multiple of X so every FSDP shard gets "
                "the same number."},
      .mistakes = {{"not_multiple_of_fsdp",
                    "Each of the X FSDP shards needs whole sequences: round up to a multiple of X.",
                    [](const Values& p, const Values& o) {
                      return std::ceil(o["min_batch_tokens"] / p["seq_len"]);
                    },
                    0},
                   {"per_device_threshold",
                    "You used the per-device threshold as the batch; the batch is N times it.",
                    [](const Values& p, const Values& o) {
                      return std::ceil(o["min_tokens_per_device"] / p["seq_len"]);
                    },
                    0}},
      .difficulty = 3,
      .tags = "FSDP,tensor parallel,roofline",
  });
}

void bubbles(ProblemBank& bank) {
  bank.add({
      .id = "pipe.bubble.exact",
      .area = "memory",
      .title = "Pipeline bubble fraction",
      .source = "the worked example §5: N = 4, M = 16 → 3/19 = 15.8% (approximation 18.75%)",
      .statement = "A pipeline has {stages:raw} stages and runs {microbatches:raw} microbatches "
                   "per step (GPipe / 1F1B schedule). What fraction of the step is bubble?",
      .params = {{"stages", 4, {2, 4, 6, 8, 12, 16}},
                 {"microbatches", 16, {4, 8, 12, 16, 24, 32, 48, 64}}},
      .estimator = "pipe.bubble",
      .output = "bubble_fraction",
      .unit = answer_in::percent(),
      .hints = {"The pipeline fills and drains: N − 1 idle slots per stage.",
                "Fraction of the step: (N − 1) / (M + N − 1)."},
      .mistakes = {{"approximate_vs_exact",
                    "(N − 1)/M is the approximation for M ≫ N (bubble relative to useful work); "
                    "the exact fraction of the step is (N − 1)/(M + N − 1).",
                    [](const Values&, const Values& o) { return o["bubble_approx"]; }, 0},
                   {"stages_over_microbatches",
                    "The bubble is the N − 1 slots while the pipeline fills and drains; the first "
                    "stage starts at once.",
                    [](const Values& p, const Values&) { return p["stages"] / p["microbatches"]; },
                    0}},
      .difficulty = 1,
      .tags = "pipeline",
  });
  bank.add({
      .id = "pipe.bubble.seed004d",
      .area = "memory",
      .title = "Bubble of a short pipeline",
      .source = "the worked example (d): 4 stages, 8 microbatches — it says ~12.5%; the exact "
                "bubble is 27.3%",
      .statement = "With {stages:raw} pipeline stages and {microbatches:raw} microbatches, what "
                   "fraction of the step is pipeline bubble?",
      .params = {{"stages", 4, {2, 4, 8, 16}}, {"microbatches", 8, {4, 8, 12, 16, 24, 32}}},
      .estimator = "pipe.bubble",
      .output = "bubble_fraction",
      .unit = answer_in::percent(),
      .hints = {"The pipeline fills and drains: each stage idles while the others start and "
                "finish.",
                "(N − 1) / (M + N − 1)."},
      .mistakes = {{"one_over_microbatches",
                    "1/M is one microbatch's share, not the bubble; N − 1 slots are idle.",
                    [](const Values& p, const Values&) { return 1 / p["microbatches"]; }, 0},
                   {"approximate_vs_exact",
                    "(N − 1)/M is only close to the exact (N − 1)/(M + N − 1) when M ≫ N.",
                    [](const Values&, const Values& o) { return o["bubble_approx"]; }, 0}},
      .difficulty = 1,
      .tags = "pipeline",
  });
  bank.add({
      .id = "pipe.bubble.min_microbatches",
      .area = "memory",
      .title = "Microbatches for a target bubble",
      .source =
          "the worked example §5 (“to keep bubble under 25%, need M ≥ 4N”): N = 4 needs M ≥ 9",
      .statement = "A pipeline has {stages:raw} stages. What is the fewest microbatches per "
                   "step that keeps the bubble, (N − 1)/(M + N − 1), at or below {target}?",
      .params = {{"stages", 4, {2, 3, 4, 6, 8, 12, 16, 24, 32}},
                 {"target", 0.25, {0.05, 0.1, 0.15, 0.2, 0.25}},
                 {"microbatches", 16, {}}},
      .estimator = "pipe.bubble",
      .output = "min_microbatches",
      .unit = answer_in::count(unit::none, "microbatches"),
      .integer = true,
      .bound = Bound::at_least,
      .hints = {"Solve (N − 1)/(M + N − 1) ≤ β for M.", "M ≥ (N − 1)(1 − β)/β, rounded up."},
      .mistakes =
          {{"approximate_formula",
            "(N − 1)/M ≤ β is the approximation; it asks for more microbatches than needed.",
            [](const Values&, const Values& o) { return o["min_microbatches_approx"]; }, 0},
           {"rule_of_thumb_4n",
            "M ≥ 4N is a safe rule of thumb, not the minimum the formula gives.",
            [](const Values& p, const Values&) { return 4 * p["stages"]; }, 0}},
      .difficulty = 2,
      .tags = "pipeline",
  });
  bank.add({
      .id = "pipe.bubble.p2p",
      .area = "memory",
      .title = "Point-to-point sends of a pipeline step",
      .source = "the worked example §9: 2M(N − 1) = 448 for M = 32, N = 8",
      .statement = "A pipeline with {stages:raw} stages runs {microbatches:raw} microbatches per "
                   "step. How many point-to-point sends (activations forward and gradients "
                   "backward across stage boundaries) does one step make?",
      .params = {{"stages", 8, {2, 4, 8, 16}}, {"microbatches", 32, {8, 16, 32, 64}}},
      .estimator = "pipe.bubble",
      .output = "p2p_ops",
      .unit = answer_in::count(unit::none, "sends"),
      .integer = true,
      .hints = {"There are N − 1 boundaries between N stages.",
                "Each microbatch crosses each once forward and once backward: 2·M·(N − 1)."},
      .mistakes =
          {times("forgot_backward", 0.5,
                 "Gradients cross each boundary backward too: multiply by 2."),
           {"stages_not_boundaries",
            "Sends cross the boundaries between stages: N stages have N − 1 of them.",
            [](const Values& p, const Values&) { return 2 * p["microbatches"] * p["stages"]; }, 0}},
      .difficulty = 1,
      .tags = "pipeline,network",
  });
  bank.add({
      .id = "pipe.bubble.microbatch_size",
      .area = "memory",
      .title = "Microbatch size",
      .source = "the worked example §10 (pitfall: “Microbatch size = B/N”)",
      .statement = "A global batch of {batch:raw} sequences is pipelined over {stages:raw} stages "
                   "in {microbatches:raw} microbatches. How many sequences are in a microbatch?",
      .params = {{"batch",
                  512,
                  {128, 192, 256, 320, 384, 512, 640, 768, 1024, 1280, 1536, 2048, 3072}},
                 {"stages", 8, {4, 8, 16}},
                 {"microbatches", 32, {8, 16, 24, 32, 48, 64}}},
      .valid = [](const Values& p) { return std::fmod(p["batch"], p["microbatches"]) == 0; },
      .estimator = "pipe.bubble",
      .output = "microbatch_size",
      .unit = answer_in::count(unit::none, "sequences"),
      .integer = true,
      .hints = {"The batch is split into M microbatches, whatever the number of stages.",
                "Microbatch size = global batch / M."},
      .mistakes = {{"divided_by_stages",
                    "Microbatch size is B/M; the number of stages N does not split the batch.",
                    [](const Values& p, const Values&) { return p["batch"] / p["stages"]; }, 0}},
      .difficulty = 1,
      .tags = "pipeline",
  });
}

void recommend(ProblemBank& bank) {
  bank.add({
      .id = "parallel.recommend.dp",
      .area = "memory",
      .title = "Data-parallel degree of a 3D layout",
      .source =
          "the worked example §8, recommend_parallelism (70B on 512 GPUs → TP 8, PP 2, DP 32)",
      .statement = "By the usual rule of thumb — TP = 8 within each 8-GPU node, PP = 2 for "
                   "models above 50B and min(4, nodes/2) above 100B, DP takes the rest — what is "
                   "the data-parallel degree for a {params}-parameter model on {gpus} GPUs?",
      .params = {{"params", 70e9, preset_param_counts()},
                 {"gpus", 512, {64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384}}},
      .estimator = "parallel.recommend",
      .inputs = with("parallel.recommend", {{"method", "rule_of_thumb"}}),
      .output = "dp",
      .unit = answer_in::count(unit::none, "replicas"),
      .integer = true,
      .hints = {"G = TP × PP × DP.", "DP = G / (TP · PP)."},
      .mistakes = {{"forgot_pp", "Pipeline stages use GPUs too: DP = G / (TP · PP).",
                    [](const Values& p, const Values&) { return p["gpus"] / 8; }, 0},
                   {"dp_equals_gpus",
                    "Each data-parallel replica is a whole model copy spanning TP × PP GPUs, so DP "
                    "= GPUs / (TP × PP).",
                    [](const Values& p, const Values&) { return p["gpus"]; }, 0}},
      .explain = "DP takes what TP and PP leave: DP = GPUs / (TP × PP).",
      // The rule of thumb gives DP = GPUs / (8 · PP): ten powers of two from 4 to 2,048, one
      // of them the worked example's 32.
      .variety = 9,
      .difficulty = 1,
      .tags = "tensor parallel,pipeline,data parallel",
  });
}

}  // namespace

void register_memory_problems(ProblemBank& bank) {
  zero(bank);
  notebook(bank);
  activations(bank);
  fsdp(bank);
  fsdp_tp(bank);
  bubbles(bank);
  recommend(bank);
}

}  // namespace napkin
