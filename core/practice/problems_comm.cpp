// Practice problems of the comm area: collectives, parallelism volumes, ZeRO, the TP bill and
// the roofline. Seed 0 of each is a seed's worked example or practice problem (as `source`
// says); the mistakes are the seeds' own "Common mistakes" and "Red flags" (forgetting the ring
// 2×, elements instead of bytes, per-device vs total traffic) and GB vs GiB (automatic).
#include "base/units.hpp"
#include "practice/problems.hpp"
#include "practice/variant_presets.hpp"

namespace napkin {

namespace {

const char* kRing =
    "A ring all-reduce is a reduce-scatter followed by an all-gather: each rank sends "
    "2·P·(N−1)/N bytes, about 2P.";

Mistake forgot_ring() {
  return times("forgot_ring_2x", 0.5,
               "You counted the tensor once; a ring all-reduce moves it twice (reduce-scatter, "
               "then all-gather): 2× the logical size.");
}

// Values of a seed 000 problem 1 / seed 002 GPT-3 style parallelism setup.
// `derive` for a parameter "model" indexing dense_model_presets(): its exact size, width and
// depth; seed 0 (model = -1) keeps the worked example's.
void shape_of_preset(Values& p) {
  const auto& models = dense_model_presets();
  const double i = p["model"];
  if (i < 0 || i >= static_cast<double>(models.size())) return;
  const Model& m = models[static_cast<std::size_t>(i)]->model;
  p.set("params", model_params(m).total);
  p.set("d_model", m.d_model);
  p.set("n_layers", m.layers);
}

// The TP bill's problems state ring all-reduces: the inputs say so (auto may pick a tree).
Json ring_tp_inputs(const Values& p) {
  Json j = Json::object();
  for (const char* k :
       {"hidden", "tokens", "layers", "tp", "bandwidth", "latency", "compute_time", "dtype_bytes"})
    if (p.has(k)) j.set(k, p[k]);
  j.set("algorithm", "ring");
  return j;
}

Json parallelism_inputs(const Values& p) {
  Json j = Json::object();
  for (const char* k :
       {"params", "grad_bytes", "batch", "seq_len", "d_model", "n_layers", "activation_bytes", "tp",
        "pp", "dp", "microbatches", "bandwidth", "latency"})
    if (p.has(k)) j.set(k, p[k]);
  return j;
}

void collectives(ProblemBank& bank) {
  bank.add({
      .id = "comm.allreduce.bytes",
      .area = "comm",
      .title = "Bytes per GPU in a ring all-reduce",
      .source = "the worked example §11 (1 GB on 4 GPUs → 1.5 GB per device)",
      .statement = "{ranks} GPUs all-reduce a {bytes} gradient tensor with a ring all-reduce. "
                   "Exactly how many bytes does each GPU send?",
      .params = {{"bytes", 1e9, {1e9, 2e9, 14e9, 28e9, 140e9}}, {"ranks", 4, {2, 4, 8, 16}}},
      .estimator = "comm.collective",
      .inputs =
          [](const Values& p) {
            Json j = Json::object();
            j.set("op", "all_reduce");
            j.set("bytes", p["bytes"]);
            j.set("ranks", p["ranks"]);
            j.set("algorithm", "ring");
            return j;
          },
      .output = "bytes_per_rank",
      .unit = answer_in::gb(),
      .hints = {kRing, "Reduce-scatter: N−1 steps of P/N each; all-gather: the same again."},
      .mistakes = {{"approx_2p",
                    "2P is the large-N approximation; with few GPUs the exact 2P(N−1)/N is "
                    "noticeably smaller.",
                    [](const Values& p, const Values&) { return 2 * p["bytes"]; }, 0},
                   forgot_ring(),
                   {"total_instead_of_per_device",
                    "That is the traffic summed over all GPUs; each GPU sends 1/N of it.",
                    [](const Values&, const Values& out) { return out["total_bytes"]; }, 0}},
      .difficulty = 1,
      .tags = "all-reduce,network",
  });

  bank.add({
      .id = "comm.allreduce.latency_bound",
      .area = "comm",
      .title = "A small all-reduce over Ethernet",
      .source =
          "the worked example (8 KB decode payloads are latency-bound); nccl-tests PERFORMANCE.md",
      .statement = "{ranks} GPUs ring-all-reduce a tensor of {bytes} over a link of {bandwidth} "
                   "per GPU with {latency} per step. Using the α–β model, how long does it take?",
      .params = {{"bytes", 8192, {4096, 8192, 16384, 65536}},
                 {"ranks", 8, {2, 4, 8, 16}},
                 {"bandwidth", 1.25e9, {1.25e9, 12.5e9, 50e9}},
                 {"latency", 50e-6, {5e-6, 10e-6, 50e-6}}},
      .valid =
          [](const Values& p) {  // latency-bound draws only, like the seed's decode payloads
            return (p["ranks"] - 1) * p["latency"] > p["bytes"] / p["bandwidth"];
          },
      .estimator = "comm.collective",
      .inputs =
          [](const Values& p) {
            Json j = Json::object();
            for (const char* k : {"bytes", "ranks", "bandwidth", "latency"}) j.set(k, p[k]);
            j.set("op", "all_reduce");
            j.set("algorithm", "ring");
            return j;
          },
      .output = "time",
      .unit = answer_in::us(),
      .hints = {"time = steps × α + bytes per rank / bandwidth.",
                "A ring all-reduce takes 2(N−1) sequential steps.", kRing},
      .mistakes = {{"one_latency_per_collective",
                    "A ring pays the latency at every one of its 2(N−1) steps, not once.",
                    [](const Values& p, const Values& out) {
                      return p["latency"] + out["bandwidth_time"];
                    },
                    0},
                   {"bandwidth_only",
                    "For a message this small the latency term dominates; you left it out.",
                    [](const Values&, const Values& out) { return out["bandwidth_time"]; }, 0},
                   {"n_minus_1_steps",
                    "N−1 steps is one phase; an all-reduce is reduce-scatter plus all-gather, "
                    "2(N−1) steps.",
                    [](const Values& p, const Values& out) {
                      return (p["ranks"] - 1) * p["latency"] + out["bandwidth_time"];
                    },
                    0}},
      .difficulty = 2,
      .tags = "all-reduce,network,latency",
  });
}

void parallelism(ProblemBank& bank) {
  bank.add({
      .id = "comm.parallelism.dp_volume",
      .area = "comm",
      .title = "Data-parallel traffic per step",
      .source = "the worked example practice problem 1 (a): 2P = 2 × 13B × 4 bytes = 104 GB",
      .group = "seed000.p1",
      .statement = "A {params}-parameter model is trained with data parallelism; gradients are "
                   "{grad_bytes:raw}-byte floats. With the 2P rule for a ring all-reduce, how "
                   "many bytes does each data-parallel replica send per step?",
      .fixed_statement = "A 13B model (D = 5120, L = 40) trains with B = 32, S = 4096, TP = 8, "
                         "DP = 64 and FP32 ({grad_bytes:raw}-byte) gradients. With the 2P rule, "
                         "how many bytes does each data-parallel replica send per step?",
      .params = {{"params", 13e9, preset_param_counts()},
                 {"grad_bytes", 4, {2, 4}},
                 {"dp", 64, {8, 64, 256}}},
      .estimator = "comm.parallelism",
      .inputs = parallelism_inputs,
      .output = "dp_bytes",
      .unit = answer_in::gb(),
      .hints = {"DP all-reduces every gradient once per step.", kRing,
                "2 × parameters × bytes per gradient."},
      .mistakes = {forgot_ring(),
                   {"elements_instead_of_bytes",
                    "That is 2P in elements; multiply by the bytes per gradient.",
                    [](const Values& p, const Values&) { return 2 * p["params"]; }, 0}},
      .difficulty = 1,
      .tags = "data parallel,all-reduce,network",
  });

  auto tp_inputs = [](const Values& p) {
    Json j = parallelism_inputs(p);
    j.set("dp", 1);
    return j;
  };
  // Variants: a real dense model's width and depth together (the scenario presets).
  const std::vector<Param> tp_params = {{"model", -1, indices(dense_model_presets().size())},
                                        {"params", 13e9},
                                        {"batch", 32, {8, 16, 32, 64}},
                                        {"seq_len", 4096, {2048, 4096, 8192}},
                                        {"d_model", 5120, {}},
                                        {"n_layers", 40, {}},
                                        {"activation_bytes", 2, {2, 4}},
                                        {"tp", 8, {2, 4, 8}}};
  Mistake tp_elements = {
      "elements_instead_of_bytes",
      "8·B·S·H counts elements (the worked example's 5.37 \"GB\"): multiply by the "
      "bytes per activation.",
      [](const Values& p, const Values& out) {
        return out["tp_bytes_per_layer"] / p["activation_bytes"];
      },
      0};
  bank.add({
      .id = "comm.parallelism.tp_layer",
      .area = "comm",
      .title = "Tensor-parallel traffic per layer",
      .source = "the worked example practice problem 1 (b), in bytes (the worked example's 5.37 "
                "\"GB\" are elements)",
      .group = "seed000.p1",
      .statement =
          "Megatron tensor parallelism (TP = {tp:raw}) with B = {batch:raw}, S = "
          "{seq_len:raw}, H = {d_model:raw} and {activation_bytes:raw}-byte activations. "
          "Counting the physical volume as the worked examples do (4 all-reduces per "
          "layer, ring 2×, (N−1)/N ignored), how many bytes does each GPU send for one layer per "
          "step?",
      .fixed_statement = "A 13B model (D = {d_model:raw}, L = {n_layers:raw}) "
                         "trains with B = {batch:raw}, S = {seq_len:raw}, TP = {tp:raw}, DP = 64 "
                         "and BF16 ({activation_bytes:raw}-byte) activations. With 8·B·S·H per "
                         "layer, how many bytes does each GPU send for one layer per step?",
      .params = tp_params,
      .derive = shape_of_preset,
      .estimator = "comm.parallelism",
      .inputs = tp_inputs,
      .output = "tp_bytes_per_layer",
      .unit = answer_in::gb(),
      .hints = {"Each all-reduce carries one activation tensor of B·S·H values.",
                "2 all-reduces in forward, 2 in backward; a ring moves each twice.",
                "8 × B × S × H × bytes per value."},
      .mistakes = {tp_elements,
                   times("forward_only", 0.5,
                         "Forward has 2 all-reduces per layer, backward 2 more: 4 in all."),
                   {"whole_model",
                    "That sums every layer; the question asks for one layer's traffic.",
                    [](const Values&, const Values& out) { return out["tp_bytes"]; }, 0}},
      .difficulty = 2,
      .tags = "tensor parallel,all-reduce,network",
  });

  bank.add({
      .id = "comm.parallelism.tp_step",
      .area = "comm",
      .title = "Tensor-parallel traffic per step",
      .source =
          "the worked example practice problem 1 (b): 214.7 \"GB\" in elements = 429.5 GB in BF16",
      .group = "seed000.p1",
      .statement =
          "Megatron tensor parallelism (TP = {tp:raw}) trains a {n_layers:raw}-layer model "
          "with B = {batch:raw}, S = {seq_len:raw}, H = {d_model:raw} and "
          "{activation_bytes:raw}-byte activations. How many bytes does each GPU send for TP per "
          "training step (8·B·S·H per layer)?",
      .fixed_statement = "A 13B model (D = {d_model:raw}, L = {n_layers:raw}) "
                         "trains with B = {batch:raw}, S = {seq_len:raw}, TP = {tp:raw}, DP = 64 "
                         "and BF16 ({activation_bytes:raw}-byte) activations. How many bytes "
                         "does each GPU send for TP per training step (8·B·S·H per layer)?",
      .params = tp_params,
      .derive = shape_of_preset,
      .estimator = "comm.parallelism",
      .inputs = tp_inputs,
      .output = "tp_bytes",
      .unit = answer_in::gb(),
      .hints = {"First one layer: 8 × B × S × H × bytes.", "Then times the number of layers."},
      .mistakes =
          {{"elements_instead_of_bytes",
            "That is the element count (the worked example's 214.7 \"GB\"): multiply by the bytes "
            "per activation.",
            [](const Values& p, const Values& out) {
              return out["tp_bytes"] / p["activation_bytes"];
            },
            0},
           {"one_layer_only", "That is one layer; multiply by the number of layers.",
            [](const Values&, const Values& out) { return out["tp_bytes_per_layer"]; }, 0}},
      .difficulty = 2,
      .tags = "tensor parallel,all-reduce,network",
  });

  bank.add({
      .id = "comm.parallelism.pp_volume",
      .area = "comm",
      .title = "Pipeline-parallel traffic",
      .source = "the worked example §1 PP example (134 M elements per boundary × 3 = 402 M; 805 MB "
                "in BF16)",
      .statement = "A pipeline of {pp:raw} stages passes activations of B = {batch:raw}, S = "
                   "{seq_len:raw}, H = {d_model:raw} in {activation_bytes:raw}-byte values. How "
                   "many bytes cross all the stage boundaries in the forward pass?",
      .params = {{"batch", 16, {8, 16, 32}},
                 {"seq_len", 2048, {2048, 4096}},
                 {"d_model", 4096, {4096, 8192, 12288}},
                 {"n_layers", 32},
                 {"activation_bytes", 2, {2, 4}},
                 {"pp", 4, {4, 8, 16}},
                 {"tp", 1},
                 {"dp", 1}},
      .estimator = "comm.parallelism",
      .inputs = parallelism_inputs,
      .output = "pp_bytes",
      .unit = answer_in::mb(),
      .hints = {"Each boundary is a point-to-point send of one activation tensor: no ring, no 2×.",
                "A pipeline of N stages has N − 1 boundaries."},
      .mistakes =
          {{"elements_instead_of_bytes",
            "That counts elements (the worked example's 402 MB): multiply by the bytes per value.",
            [](const Values& p, const Values& out) {
              return out["pp_bytes"] / p["activation_bytes"];
            },
            0},
           times("ring_factor_on_p2p", 2,
                 "Pipeline sends are point-to-point: there is no ring all-reduce 2×."),
           {"n_boundaries",
            "Sends cross the boundaries between stages: N stages have N − 1 of them, not N.",
            [](const Values& p, const Values& out) {
              return out["pp_bytes_per_boundary"] * p["pp"];
            },
            0},
           {"one_boundary",
            "Every one of the N − 1 boundaries carries the activations, not just one.",
            [](const Values&, const Values& out) { return out["pp_bytes_per_boundary"]; }, 0}},
      .difficulty = 2,
      .tags = "pipeline,network",
  });

  // Variants: the exact parameter counts of the scenario's model presets.
  const std::vector<Param> gpt3 = {{"params", 175e9, preset_param_counts()},
                                   {"grad_bytes", 2},
                                   {"tp", 1},
                                   {"pp", 1},
                                   {"dp", 1024, {64, 256, 1024, 4096}},
                                   {"bandwidth", 200e9, {25e9, 50e9, 100e9, 200e9}},
                                   {"latency", 0}};
  bank.add({
      .id = "comm.parallelism.dp_time",
      .area = "comm",
      .title = "How long the DP all-reduce takes",
      .source = "the worked example §11 (GPT-3 over InfiniBand 200 GB/s: 700 GB → 3.5 s)",
      .group = "seed002.gpt3",
      .statement = "A {params}-parameter model with BF16 gradients is trained data-parallel on "
                   "{dp:raw} GPUs, each with {bandwidth} of network bandwidth. Ignoring latency "
                   "and overlap, how long does the gradient all-reduce take per step?",
      .fixed_statement = "GPT-3 ({params} parameters, BF16 gradients) is trained data-parallel on "
                         "{dp:raw} GPUs over InfiniBand at {bandwidth} per GPU. Ignoring latency "
                         "and overlap, how long does the gradient all-reduce take per step?",
      .params = gpt3,
      .estimator = "comm.parallelism",
      .inputs = parallelism_inputs,
      .output = "dp_time",
      .unit = answer_in::seconds(),
      .hints = {"Per-device volume sets the time: 2P(N−1)/N ≈ 2P bytes.",
                "time = bytes per device / bandwidth per device."},
      .mistakes = {forgot_ring(),
                   {"total_traffic_over_one_link",
                    "You divided the traffic of all GPUs by one GPU's link; each GPU only sends "
                    "its own share.",
                    [](const Values& p, const Values& out) {
                      return out["dp_total_traffic"] / p["bandwidth"];
                    },
                    0},
                   times("bits_for_bytes", 8,
                         "Network speeds in Gb/s are bits: 200 Gb/s is 25 GB/s. Here the "
                         "bandwidth is already in bytes.")},
      .difficulty = 2,
      .tags = "data parallel,all-reduce,network",
  });

  bank.add({
      .id = "comm.parallelism.dp_total",
      .area = "comm",
      .title = "Total DP traffic across the cluster",
      .source = "the worked example §11 (DP on 1024 GPUs: 700 GB per device, 716.8 TB in total)",
      .group = "seed002.gpt3",
      .statement = "A {params}-parameter model is trained data-parallel on {dp:raw} GPUs with BF16 "
                   "gradients. "
                   "How much traffic does one gradient all-reduce put on the network, summed "
                   "over all GPUs (what the switches must carry)?",
      .params = gpt3,
      .estimator = "comm.parallelism",
      .inputs = parallelism_inputs,
      .output = "dp_total_traffic",
      .unit = answer_in::tb(),
      .hints = {"Each GPU sends 2P(N−1)/N ≈ 2P bytes.", "Total = per-device × number of GPUs."},
      .mistakes = {{"per_device_instead_of_total",
                    "That is one GPU's share; the network carries it for every GPU.",
                    [](const Values&, const Values& out) { return out["dp_bytes_exact"]; }, 0},
                   forgot_ring()},
      .difficulty = 2,
      .tags = "data parallel,all-reduce,network",
  });

  bank.add({
      .id = "comm.parallelism.fsdp_volume",
      .area = "comm",
      .title = "FSDP traffic per step",
      .source = "the worked example §4 and §9 (GPT-3: FSDP 3P = 1050 GB, 1.5× DP)",
      .group = "seed002.gpt3",
      .statement = "A {params}-parameter model in BF16 is trained with FSDP (ZeRO-3) on {dp:raw} "
                   "GPUs. Using the large-N approximation, how many bytes does each GPU "
                   "communicate per step?",
      .params = gpt3,
      .estimator = "comm.parallelism",
      .inputs = parallelism_inputs,
      .output = "fsdp_bytes",
      .unit = answer_in::gb(),
      .hints = {"Forward: all-gather every layer's parameters (P).",
                "Backward: all-gather them again (P) and reduce-scatter the gradients (P)."},
      .mistakes = {times("dp_volume", 2.0 / 3,
                         "2P is plain DP; FSDP also all-gathers the parameters in forward and "
                         "backward: 3P."),
                   times("forward_gather_only", 1.0 / 3,
                         "That is the forward all-gather only; backward gathers again and "
                         "reduce-scatters the gradients."),
                   {"elements_instead_of_bytes",
                    "3P in elements; multiply by 2 bytes per BF16 value.",
                    [](const Values& p, const Values&) { return 3 * p["params"]; }, 0}},
      .difficulty = 2,
      .tags = "FSDP,ZeRO,network",
  });

  bank.add({
      .id = "comm.parallelism.tp_ops",
      .area = "comm",
      .title = "How many TP all-reduces per step",
      .source = "the worked example §9 (TP: 4L = 384 per step for GPT-3, L = 96)",
      .group = "seed002.gpt3",
      .statement = "A {n_layers:raw}-layer transformer is trained with Megatron tensor "
                   "parallelism. How many all-reduces does one training step issue?",
      .params =
          // Depths of released models (GPT-2 12 … Llama 3.1 405B 126).
      {{"n_layers",
        96,
        {12, 24, 26, 28, 32, 36, 40, 42, 46, 48, 60, 61, 64, 80, 88, 94, 105, 118, 126}},
       {"tp", 8},
       {"dp", 1},
       {"pp", 1}},
      .estimator = "comm.parallelism",
      .inputs = parallelism_inputs,
      .output = "tp_ops",
      .unit = answer_in::count(unit::none, "all-reduces"),
      .integer = true,
      .hints = {"Per layer: one after attention, one after the MLP, in forward.",
                "Backward mirrors forward."},
      .mistakes = {times("forward_only", 0.5,
                         "That is forward only; backward has the same two all-reduces per layer."),
                   {"one_layer",
                    "Every layer does the same communication: multiply one layer by the layers.",
                    [](const Values&, const Values&) { return 4.0; }, 0}},
      .difficulty = 1,
      .tags = "tensor parallel,all-reduce",
  });

  bank.add({
      .id = "comm.parallelism.pp_ops",
      .area = "comm",
      .title = "How many pipeline sends per step",
      .source = "the worked example §9 (PP: 2M(N−1) = 448 per step, M = 32, N = 8)",
      .group = "seed002.gpt3",
      .statement = "A pipeline of {pp:raw} stages runs {microbatches:raw} microbatches per step. "
                   "How many point-to-point sends (activations forward, gradients backward) "
                   "happen per step?",
      .params = {{"pp", 8, {2, 4, 8, 16}},
                 {"microbatches", 32, {8, 16, 32, 64}},
                 {"batch", 64},
                 {"n_layers", 96},
                 {"tp", 1},
                 {"dp", 1}},
      .estimator = "comm.parallelism",
      .inputs = parallelism_inputs,
      .output = "pp_ops",
      .unit = answer_in::count(unit::none, "sends"),
      .integer = true,
      .hints = {"Each microbatch crosses every boundary once forward and once backward.",
                "N stages have N − 1 boundaries."},
      .mistakes =
          {times("forward_only", 0.5,
                 "The backward pass sends gradients back across every boundary, one send per "
                 "microbatch, as many as the forward."),
           {"n_boundaries",
            "Sends cross the boundaries between stages: N stages have N − 1 of them, not N.",
            [](const Values& p, const Values&) { return 2 * p["microbatches"] * p["pp"]; }, 0}},
      .difficulty = 1,
      .tags = "pipeline,network",
  });
}

void zero_and_tp(ProblemBank& bank) {
  bank.add({
      .id = "comm.zero.seed_time",
      .area = "comm",
      .title = "ZeRO-3 communication time (the worked example's model)",
      .source = "the worked example §7 (70B, 80 layers, DP 64, 400 GB/s, 2 µs → ZeRO-3 689.4 ms)",
      .statement = "A {params}-parameter model with {n_layers:raw} layers runs ZeRO-3 on {dp:raw} "
                   "GPUs in BF16. Assume each layer needs one all-gather and one reduce-scatter "
                   "of its parameters, each costing {latency} plus (N−1)/N of the layer's bytes "
                   "over {bandwidth}. How long is the communication per step?",
      .params = {{"params", 70e9, {7e9, 13e9, 70e9, 175e9}},
                 {"n_layers", 80, {32, 40, 80, 96}},
                 {"dp", 64, {8, 16, 64, 256}},
                 {"zero_stage", 3},
                 {"bandwidth", 400e9, {50e9, 100e9, 400e9}},
                 {"latency", 2e-6, {2e-6, 5e-6}}},
      .estimator = "comm.zero",
      .output = "time",
      .unit = answer_in::ms(),
      .hints = {"A layer holds P/L parameters, 2 bytes each.",
                "Per collective: α + (N−1)/N × layer bytes / bandwidth.",
                "Two collectives per layer, times the layers."},
      .mistakes = {{"one_layer_only",
                    "Every layer does the same communication: multiply one layer by the layers.",
                    [](const Values&, const Values& out) { return out["time_per_layer"]; }, 0},
                   times("one_collective_per_layer", 0.5,
                         "Each layer needs an all-gather and a reduce-scatter: two collectives.")},
      .difficulty = 3,
      .tags = "ZeRO,FSDP,network,latency",
  });

  bank.add({
      .id = "comm.zero.paper_volume",
      .area = "comm",
      .title = "ZeRO-3 volume per GPU (the ZeRO paper)",
      .source = "Rajbhandari et al. 2020 (ZeRO) §7.2.2: 3Ψ, 1.5× DP; the worked example counts 2Ψ",
      .statement = "By the ZeRO paper's accounting, how many bytes does each of {dp:raw} GPUs "
                   "communicate per step for a {params}-parameter model in BF16 under ZeRO "
                   "stage 3 (use the exact (N−1)/N)?",
      .params = {{"params", 70e9, {7e9, 13e9, 70e9, 175e9}},
                 {"n_layers", 80},
                 {"dp", 64, {8, 16, 64, 256}},
                 {"zero_stage", 3}},
      .estimator = "comm.zero",
      .output = "bytes_paper",
      .unit = answer_in::gb(),
      .hints = {"Forward all-gather of the parameters, backward all-gather again, and a "
                "reduce-scatter of the gradients.",
                "Three collectives of (N−1)/N × Ψ bytes each."},
      .mistakes =
          {{"seed_2psi",
            "The worked example counts one all-gather; the backward pass gathers the parameters "
            "again, so ZeRO-3 moves 3Ψ, not 2Ψ.",
            [](const Values&, const Values& out) { return out["bytes"]; }, 0},
           {"elements_instead_of_bytes",
            "3Ψ counts values; each BF16 value is 2 bytes, so the bytes are twice that.",
            [](const Values&, const Values& out) { return out["bytes_paper"] / 2; }, 0}},
      .difficulty = 2,
      .tags = "ZeRO,FSDP,network",
  });

  const std::vector<Param> decode = {
      {"hidden", 4096, {2048, 4096, 5120, 8192}}, {"tokens", 1},
      {"layers", 32, {24, 32, 40, 80}},           {"tp", 2, {2, 4, 8}},
      {"bandwidth", 1.25e9, {1.25e9, 12.5e9}},    {"latency", 50e-6, {10e-6, 25e-6, 50e-6}},
      {"compute_time", 8e-3, {4e-3, 8e-3, 16e-3}}};
  bank.add({
      .id = "comm.tp_step.latency",
      .area = "comm",
      .title = "The latency bill of TP decode",
      .source = "the worked example (64 all-reduces × 2 × 50 µs = 6.4 ms over 10 GbE)",
      .group = "seed003",
      .statement =
          "A {layers:raw}-layer model decodes one token with TP = {tp:raw} over a link "
          "with {latency} per hop. Each layer does two ring all-reduces. How much time per "
          "token goes to latency alone?",
      .params = decode,
      .estimator = "comm.tp_step",
      .inputs = ring_tp_inputs,
      .output = "latency_time",
      .unit = answer_in::ms(),
      .hints = {"All-reduces per token: 2 per layer × layers.",
                "A ring all-reduce takes 2(N−1) sequential hops, each paying the latency."},
      .mistakes =
          {{"one_hop_per_allreduce",
            "A ring all-reduce is 2(N−1) sequential hops, each paying the latency.",
            [](const Values& p, const Values& out) { return out["allreduces"] * p["latency"]; }, 0},
           {"one_allreduce_per_layer",
            "Megatron all-reduces twice per layer: after attention and after the MLP.",
            [](const Values&, const Values& out) { return out["latency_time"] / 2; }, 0}},
      .difficulty = 1,
      .tags = "tensor parallel,latency,decode",
  });

  bank.add({
      .id = "comm.tp_step.fraction",
      .area = "comm",
      .title = "Is TP over this link noise or fatal?",
      .source = "the worked example (10 GbE: > 40% of the 8 ms decode step; NVLink: < 10%)",
      .group = "seed003",
      .statement = "A decode step computes for {compute_time}. With TP = {tp:raw}, "
                   "{layers:raw} layers, hidden {hidden:raw} in BF16 (one token), two ring "
                   "all-reduces per layer over {bandwidth} with {latency} per hop, what share "
                   "of the step (compute + communication, no overlap) is communication?",
      .params = decode,
      .estimator = "comm.tp_step",
      .inputs = ring_tp_inputs,
      .output = "comm_fraction",
      .unit = answer_in::percent(),
      .hints = {"Payload = hidden × 2 bytes; per all-reduce each rank sends 2(N−1)/N of it.",
                "Communication = all-reduces × (2(N−1) × latency + bytes / bandwidth).",
                "Share = communication / (compute + communication)."},
      .mistakes =
          {{"ratio_to_compute",
            "That divides by the compute alone; the step is compute plus communication.",
            [](const Values& p, const Values& out) { return out["comm_time"] / p["compute_time"]; },
            0},
           {"bandwidth_only", "For 8 KB messages the latency term dominates; you left it out.",
            [](const Values& p, const Values& out) {
              return out["bandwidth_time"] / (p["compute_time"] + out["bandwidth_time"]);
            },
            0}},
      .difficulty = 2,
      .tags = "tensor parallel,latency,decode,network",
  });

  bank.add({
      .id = "comm.tp_step.fraction_nvlink",
      .area = "comm",
      .title = "A TP decode step inside a node",
      .source = "the worked example (NVLink, 3 µs per hop: under 1 ms, < 10% of the 8 ms step)",
      .group = "seed003",
      .statement =
          "A decode step ({compute_time} of compute, TP = {tp:raw}, {layers:raw} "
          "layers, hidden {hidden:raw} in BF16, one token, two ring all-reduces per "
          "layer) runs over NVLink: {nvlink_bandwidth} per GPU and {nvlink_latency} per hop. What "
          "share of the step is communication?",
      .params = {{"hidden", 4096, {4096, 8192}},
                 {"tokens", 1},
                 {"layers", 32, {32, 80}},
                 {"tp", 2, {2, 4, 8}},
                 // Its own link: the other parts' is the slow one.
                 {"nvlink_bandwidth", 300e9, {300e9, 450e9, 900e9}, unit::bytes_per_s},
                 {"nvlink_latency", 3e-6, {1e-6, 3e-6}, unit::seconds},
                 {"compute_time", 8e-3, {8e-3, 16e-3}}},
      .estimator = "comm.tp_step",
      .inputs =
          [](const Values& p) {
            Json j = ring_tp_inputs(p);
            j.set("bandwidth", p["nvlink_bandwidth"]);
            j.set("latency", p["nvlink_latency"]);
            return j;
          },
      .output = "comm_fraction",
      .unit = answer_in::percent(),
      .hints = {"Communication = all-reduces × (2(N−1) × latency + bytes / bandwidth).",
                "Share = communication / (compute + communication)."},
      .mistakes = {{"one_hop_per_allreduce",
                    "A ring all-reduce is 2(N−1) sequential hops, each paying the latency.",
                    [](const Values& p, const Values& out) {
                      const double c =
                          out["allreduces"] * p["nvlink_latency"] + out["bandwidth_time"];
                      return c / (p["compute_time"] + c);
                    },
                    0},
                   {"bandwidth_only", "Even on NVLink the hops cost more than the 8 KB transfers.",
                    [](const Values& p, const Values& out) {
                      return out["bandwidth_time"] / (p["compute_time"] + out["bandwidth_time"]);
                    },
                    0}},
      .difficulty = 2,
      .tags = "tensor parallel,latency,decode,network",
  });

  bank.add({
      .id = "comm.tp_step.payload",
      .area = "comm",
      .title = "The TP all-reduce payload",
      .source = "the worked example (one decode token of an 8B model: 4096 × 2 = 8 KB; prefill "
                "2048: 16 MB)",
      .group = "seed003",
      .statement = "A model with hidden size {hidden:raw} runs tensor-parallel in BF16. How big is "
                   "the payload of each all-reduce when the step carries T = {tokens:raw} "
                   "token(s)?",
      .params = {{"hidden", 4096, {2048, 3072, 4096, 5120, 8192, 12288, 16384}},
                 {"tokens", 1, {1, 16, 256, 2048}},
                 {"layers", 32}},
      .estimator = "comm.tp_step",
      .inputs = ring_tp_inputs,
      .output = "payload_bytes",
      .unit = answer_in::output(),
      .tolerance = 0.03,  // "8 KB" for 8,192 bytes is 2.3% off and what the seed writes
      .hints = {"The all-reduce sums one activation row per token.", "tokens × hidden × 2 bytes."},
      .mistakes = {{"elements_instead_of_bytes", "That counts values; BF16 is 2 bytes per value.",
                    [](const Values&, const Values& out) { return out["payload_bytes"] / 2; }, 0},
                   times("ring_factor_in_payload", 2,
                         "The payload is the tensor itself; the ring's 2× is the traffic, not the "
                         "payload.")},
      .difficulty = 1,
      .tags = "tensor parallel,all-reduce",
  });
}

void roofline(ProblemBank& bank) {
  bank.add({
      .id = "hw.roofline.ridge",
      .area = "comm",
      .title = "Where the roofline bends",
      .source = "the worked example §2; NVIDIA H100 datasheet (989 TFLOP/s BF16, 3.35 TB/s)",
      .statement = "An accelerator peaks at {peak_flops} and streams HBM at {mem_bandwidth}. "
                   "Above what arithmetic intensity is a kernel compute-bound?",
      // Variants: a real accelerator's HBM bandwidth with its dense BF16 or FP8 peak.
      .params = {{"gpu", -1, indices(accelerator_presets().size())},
                 {"fp8", 0, {0, 1}},
                 {"peak_flops", 990e12, {}, unit::flops},
                 {"mem_bandwidth", 3.35e12, {}, unit::bytes_per_s},
                 {"gpu_memory", 80e9, {}, unit::bytes}},
      .derive =
          [](Values& p) {
            accelerator_of_preset(p);
            const double i = p["gpu"];
            if (i >= 0 && p["fp8"] == 1)
              p.set("peak_flops", accelerator_presets()[static_cast<std::size_t>(i)]->peak_fp8);
          },
      .valid = [](const Values& p) { return p["peak_flops"] > 0; },  // no FP8 path: no draw
      .estimator = "hw.roofline",
      .output = "ridge_intensity",
      .unit = answer_in::count(unit::flop_per_byte, "FLOP/B"),
      .hints = {"Attainable = min(peak, bandwidth × intensity).",
                "The two roofs meet at intensity = peak / bandwidth."},
      .mistakes = {{"inverted", "That is bandwidth / peak; the ridge is peak FLOP/s over bytes/s.",
                    [](const Values& p, const Values&) {
                      return p["mem_bandwidth"] / p["peak_flops"];
                    },
                    0}},
      .difficulty = 1,
      .tags = "roofline",
  });

  bank.add({
      .id = "hw.roofline.attainable",
      .area = "comm",
      .title = "What a memory-bound kernel attains",
      .source = "the worked example §1–2 (LLM decode sits on the slanted roof)",
      .statement =
          "A kernel has an arithmetic intensity of {intensity:raw} FLOP/B (per byte of HBM "
          "traffic) on a GPU with "
          "{peak_flops} peak and {mem_bandwidth} of HBM bandwidth. What throughput can "
          "it attain at best?",
      .params = {{"gpu", -1, indices(accelerator_presets().size())},  // real pairs
                 {"peak_flops", 990e12, {}, unit::flops},
                 {"mem_bandwidth", 3.35e12, {}, unit::bytes_per_s},
                 {"gpu_memory", 80e9, {}, unit::bytes},
                 {"intensity", 1, {1, 2, 4, 8, 16, 32, 64, 128}}},
      .derive = accelerator_of_preset,
      .estimator = "hw.roofline",
      .output = "attainable_flops",
      .unit = {unit::flops, "TFLOP/s", 1e12},
      .hints = {"Compare the intensity with the ridge, peak / bandwidth.",
                "Below the ridge: bandwidth × intensity."},
      .mistakes = {{"assumed_peak",
                    "Below the ridge the kernel is memory-bound: it cannot reach peak.",
                    [](const Values& p, const Values&) { return p["peak_flops"]; }, 0}},
      .difficulty = 1,
      .tags = "roofline",
  });
}

}  // namespace

void register_comm_problems(ProblemBank& bank) {
  collectives(bank);
  parallelism(bank);
  zero_and_tp(bank);
  roofline(bank);
}

}  // namespace napkin
