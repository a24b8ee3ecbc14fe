// Charts and scenario presets of the memory area: data the page draws and applies.
#include <initializer_list>
#include <string>
#include <utility>

#include "base/units.hpp"
#include "memory/memory.hpp"

namespace napkin {

namespace {

// This file lists the inputs before the estimators they apply to.
Preset scenario(std::string_view id, std::string_view label, std::string_view source, Fields f,
                std::vector<std::string_view> estimators) {
  return napkin::scenario(id, label, source, std::move(estimators), f);
}

// The study notes' notebook's LLaMA-2-70B configurations.
Preset notebook_row(const char* id, const char* label, int tp, int dp, int zero, bool gc) {
  return scenario(id, label, "Worked example (its 70B table)",
                  {{"params", 70e9},
                   {"tp", tp},
                   {"pp", 1},
                   {"dp", dp},
                   {"zero_stage", zero},
                   {"checkpointing", gc},
                   {"weight_bytes", 2},
                   {"grad_bytes", 2},
                   {"optimizer_bytes", 8},
                   {"activations", "rule_of_thumb"},
                   {"gpu_memory", 80e9}},
                  {"mem.training"});
}

}  // namespace

void register_memory_charts(Registry& r) {
  r.add_chart({.id = "mem-zero-breakdown",
               .title = "Memory per GPU by ZeRO stage",
               .estimator = "mem.training",
               .x = "zero_stage",
               .x_label = "ZeRO stage",
               .y_label = "Memory per GPU",
               .y_unit = unit::bytes,
               .x_min = 0,
               .x_max = 3,
               .points = 4,
               .integer_x = true,
               .kind = "bar",
               .y = {"weights", "gradients", "optimizer", "activations"},
               .hline_input = "gpu_memory"});
  r.add_chart({.id = "pipe-bubble-microbatches",
               .title = "Pipeline bubble vs microbatches",
               .estimator = "pipe.bubble",
               .x = "microbatches",
               .x_label = "Microbatches M",
               .y_label = "Bubble (fraction of the step)",
               .y_unit = unit::fraction,
               .x_min = 1,
               .x_max = 64,
               .points = 64,
               .integer_x = true,
               .y = {"bubble_fraction"},
               .series = {{"2 stages", object_of({{"stages", 2}, {"batch", 0}})},
                          {"4 stages", object_of({{"stages", 4}, {"batch", 0}})},
                          {"8 stages", object_of({{"stages", 8}, {"batch", 0}})},
                          {"16 stages", object_of({{"stages", 16}, {"batch", 0}})}}});
  r.add_chart({.id = "act-per-layer-seq",
               .title = "Activation memory per layer vs sequence length",
               .estimator = "mem.activations",
               .x = "seq_len",
               .x_label = "Sequence length",
               .y_label = "Activations per layer",
               .y_unit = unit::bytes,
               .x_min = 512,
               .x_max = 32768,
               .points = 31,
               .log_x = true,
               .log_y = true,
               .integer_x = true,
               .y = {"per_layer"},
               .series = {{"No recomputation", object_of({{"recompute", "none"}})},
                          {"Selective recomputation", object_of({{"recompute", "selective"}})},
                          {"Full recomputation", object_of({{"recompute", "full"}})}}});
  r.add_chart({.id = "fsdp-per-device",
               .title = "FSDP memory per device vs N_FSDP",
               .estimator = "mem.fsdp",
               .x = "n_fsdp",
               .x_label = "FSDP devices",
               .y_label = "Memory per device",
               .y_unit = unit::bytes,
               .x_min = 8,
               .x_max = 1024,
               .points = 50,
               .log_x = true,
               .log_y = true,
               .integer_x = true,
               .y = {"per_device"},
               .hline_input = "device_memory"});
  r.add_chart({.id = "fsdp-tp-times",
               .title = "FSDP + TP forward pass: compute vs communication",
               .estimator = "scale.fsdp_tp",
               .x = "batch_tokens",
               .x_label = "Batch (tokens)",
               .y_label = "Time per forward pass",
               .y_unit = unit::seconds,
               .x_min = 2048,
               .x_max = 524288,
               .points = 50,
               .log_x = true,
               .log_y = true,
               .y = {"compute_time", "fsdp_comm_time", "tp_comm_time"}});

  // The XXL worked example's model: FFN-only blocks (attention, embeddings and output layer
  // omitted).
  r.add_preset(scenario("seed004-xxl", "XXL model, 4D parallelism (worked example)",
                        "Worked example: width 16,384, FFN width 53,248, 126 FFN-only blocks; TPU "
                        "v5p (95 GB, C = 4.6e14 FLOP/s, W_ici = 1.8e11 B/s), X = 16, Y = 4",
                        {{"params", 219848638464.0},
                         {"d_model", 16384},
                         {"d_ff", 53248},
                         {"n_layers", 126},
                         {"attention", false},
                         {"vocab", 0},
                         {"batch", 4},
                         {"seq_len", 2048},
                         {"master_bytes", 4},
                         {"grad_bytes", 4},
                         {"optimizer_bytes", 8},
                         {"activation_bytes", 2},
                         {"activation_sharded_fraction", 0.5},
                         {"device_memory", 95e9},
                         {"reference_gpu_memory", 80e9},
                         {"fsdp", 16},
                         {"tp", 4},
                         {"peak_flops", 4.6e14},
                         {"ici_bandwidth", 1.8e11},
                         {"fsdp_axes", 2},
                         {"tp_axes", 1},
                         {"batch_tokens", 0}},
                        {"mem.fsdp", "scale.fsdp_tp", "model.params"}));

  r.add_preset(notebook_row("llama70b-baseline", "LLaMA-2-70B: no parallelism", 1, 1, 0, false));
  r.add_preset(notebook_row("llama70b-tp8", "LLaMA-2-70B: TP=8", 8, 1, 0, false));
  r.add_preset(notebook_row("llama70b-tp8-gc", "LLaMA-2-70B: TP=8 + checkpointing", 8, 1, 0, true));
  r.add_preset(
      notebook_row("llama70b-tp8-zero1", "LLaMA-2-70B: TP=8 + ZeRO-1 (DP=8)", 8, 8, 1, false));
  r.add_preset(
      notebook_row("llama70b-tp8-zero2", "LLaMA-2-70B: TP=8 + ZeRO-2 (DP=8)", 8, 8, 2, false));
  r.add_preset(
      notebook_row("llama70b-tp8-zero3", "LLaMA-2-70B: TP=8 + ZeRO-3 (DP=8)", 8, 8, 3, false));
  r.add_preset(scenario("zero-7.5b-64", "ZeRO paper: 7.5B on 64 GPUs (K = 12)",
                        "Rajbhandari et al. 2020, Figure 1: 120 GB → 31.4 / 16.6 / 1.9 GB",
                        {{"params", 7.5e9},
                         {"tp", 1},
                         {"pp", 1},
                         {"dp", 64},
                         {"zero_stage", 3},
                         {"weight_bytes", 2},
                         {"grad_bytes", 2},
                         {"optimizer_bytes", 12},
                         {"activations", "none"}},
                        {"mem.training"}));

  r.add_preset(scenario("korthikanti-gpt3", "GPT-3 175B, TP 8 + SP + selective (Korthikanti)",
                        "Korthikanti et al. 2022, Table 3 (a=96, h=12288, L=96, t=8, p=8)",
                        {{"seq_len", 2048},
                         {"micro_batch", 1},
                         {"d_model", 12288},
                         {"n_heads", 96},
                         {"n_layers", 96},
                         {"tp", 8},
                         {"sequence_parallel", true},
                         {"recompute", "selective"},
                         {"pp", 8}},
                        {"mem.activations"}));
  r.add_preset(scenario("korthikanti-mtnlg", "MT-NLG 530B, TP 8 + SP + selective (Korthikanti)",
                        "Korthikanti et al. 2022, Table 3 (a=128, h=20480, L=105, t=8, p=35)",
                        {{"seq_len", 2048},
                         {"micro_batch", 1},
                         {"d_model", 20480},
                         {"n_heads", 128},
                         {"n_layers", 105},
                         {"tp", 8},
                         {"sequence_parallel", true},
                         {"recompute", "selective"},
                         {"pp", 35}},
                        {"mem.activations"}));

  r.add_preset(scenario(
      "seed002-bubble-4x16", "4 stages, 16 microbatches (worked example)",
      "Worked example: 3/19 = 15.8% exact, 3/16 = 18.75% approximate",
      {{"stages", 4}, {"microbatches", 16}, {"batch", 0}, {"interleave", 1}, {"target", 0.25}},
      {"pipe.bubble"}));
  r.add_preset(scenario(
      "seed002-bubble-8x32", "8 stages, 32 microbatches (worked example)",
      "Worked example: 2M(N−1) = 448 point-to-point sends per step",
      {{"stages", 8}, {"microbatches", 32}, {"batch", 0}, {"interleave", 1}, {"target", 0}},
      {"pipe.bubble"}));
  r.add_preset(
      scenario("seed004-bubble-4x8", "4 stages, 8 microbatches (worked example)",
               "Worked example claims ~12.5%; the bubble is 3/11 = 27.3%",
               {{"stages", 4}, {"microbatches", 8}, {"batch", 0}, {"interleave", 1}, {"target", 0}},
               {"pipe.bubble"}));

  r.add_preset(scenario("seed001-7b-64", "LLaMA-2-7B on 64 GPUs (worked example)",
                        "Worked example (its test cases)",
                        {{"params", 7e9},
                         {"gpus", 64},
                         {"gpus_per_node", 8},
                         {"gpu_memory", 80e9},
                         {"method", "rule_of_thumb"}},
                        {"parallel.recommend"}));
  r.add_preset(scenario("seed001-70b-512", "LLaMA-2-70B on 512 GPUs (worked example)",
                        "Worked example (its test cases)",
                        {{"params", 70e9},
                         {"gpus", 512},
                         {"gpus_per_node", 8},
                         {"gpu_memory", 80e9},
                         {"method", "rule_of_thumb"}},
                        {"parallel.recommend"}));
  r.add_preset(scenario("seed001-175b-1024", "GPT-3 175B on 1024 GPUs (worked example)",
                        "Worked example (its test cases)",
                        {{"params", 175e9},
                         {"gpus", 1024},
                         {"gpus_per_node", 8},
                         {"gpu_memory", 80e9},
                         {"method", "rule_of_thumb"}},
                        {"parallel.recommend"}));
}

}  // namespace napkin
