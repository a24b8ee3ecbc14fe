// Practice problems on parallel training, written against the scenario presets: the
// expert-parallel all-to-all (comm.ep_alltoall), FSDP's collectives (comm.collective), model
// states under TP, PP and ZeRO (mem.training), whether a layout fits (train.step), parameter
// counts of released models (model.params, moe.params), Llama 3's training time (train.time)
// and interleaved pipelines (pipe.bubble). Seed 0 of each is a released model's own numbers.
#include <cmath>
#include <string_view>
#include <vector>

#include "base/units.hpp"
#include "practice/problems.hpp"
#include "practice/variant_presets.hpp"

namespace napkin {

namespace {

// ---- presets ----------------------------------------------------------------------------------
const std::vector<const ModelPreset*>& moe_presets() {
  static const std::vector<const ModelPreset*> list = [] {
    std::vector<const ModelPreset*> v;
    for (const ModelPreset* m = model_presets_begin(); m != model_presets_end(); ++m)
      if (m->model.experts > 0) v.push_back(m);
    return v;
  }();
  return list;
}

double index_in(const std::vector<const ModelPreset*>& list, std::string_view id) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i]->id == id) return static_cast<double>(i);
  return 0;
}

const ModelPreset& pick(const std::vector<const ModelPreset*>& list, const Values& p) {
  const double i = p["model"];
  return *list[i >= 0 && i < static_cast<double>(list.size()) ? static_cast<std::size_t>(i) : 0];
}

// Dense presets with a gated (SwiGLU) feed-forward, untied embeddings and no biases: the
// Llama-style shapes a student counts with one formula (a sliding window changes no count).
const std::vector<const ModelPreset*>& llama_like() {
  static const std::vector<const ModelPreset*> list = [] {
    std::vector<const ModelPreset*> v;
    for (const ModelPreset* m : dense_model_presets()) {
      const Model& x = m->model;
      if (x.ffn == Ffn::Gated && !x.biases && !x.qkv_bias && !x.tied_embeddings &&
          x.attention == AttentionKind::Standard && x.norms_per_layer == 2 && x.positions == 0 &&
          !x.relative_positions)
        v.push_back(m);
    }
    return v;
  }();
  return list;
}

// ---- expert parallelism -------------------------------------------------------------------
void moe_shape(Values& p) {
  const Model& m = pick(moe_presets(), p).model;
  p.set("hidden", m.d_model);
  p.set("top_k", m.top_k);
  p.set("moe_layers", model_params(m).moe_layers);
}

std::vector<Param> ep_params() {
  return {{"model", index_in(moe_presets(), "deepseek-v3"), indices(moe_presets().size())},
          {"tokens", 4096, {1024, 2048, 3072, 4096, 6144, 8192}},
          {"dtype_bytes", 2, {1, 2}},
          {"ep", 64, {4, 8, 16, 32, 64}},
          {"bandwidth", 50e9, {25e9, 50e9, 100e9}},
          {"latency", 5e-6},
          {"hidden", 0},
          {"top_k", 0},
          {"moe_layers", 0}};
}

void expert_parallel(ProblemBank& bank) {
  bank.add({
      .id = "comm.ep.payload",
      .area = "comm",
      .title = "What one GPU dispatches to the experts",
      .source = "DeepSeek-AI 2024 (DeepSeek-V3 report) §2.1.2, §3.2: hidden 7,168, top-8 of 256 "
                "routed experts, 58 MoE layers, 64-way expert parallelism",
      .group = "ep.deepseek",
      .statement = "An MoE model has hidden size {hidden} and sends each token to its top "
                   "{top_k:raw} experts, spread over {ep:raw} GPUs. Each GPU holds a microbatch "
                   "of {tokens} tokens in {dtype_bytes:raw}-byte values. How many bytes does one "
                   "GPU's dispatch all-to-all carry, counting the rows that stay on the GPU?",
      .fixed_statement = "DeepSeek-V3 (hidden size {hidden}) sends each token to {top_k:raw} of "
                         "its 256 routed experts, spread over {ep:raw} GPUs. Each GPU holds a "
                         "microbatch of {tokens} tokens in {dtype_bytes:raw}-byte values. How many "
                         "bytes does one GPU's dispatch all-to-all carry, counting the rows that "
                         "stay on the GPU?",
      .params = ep_params(),
      .derive = moe_shape,
      .estimator = "comm.ep_alltoall",
      .output = "payload_bytes",
      .unit = answer_in::mb(),
      .hints = {"A token's hidden vector is copied once for every expert it is routed to.",
                "P = tokens × top-k × hidden × bytes per value."},
      .mistakes = {{"one_copy_per_token",
                    "Each token goes to top-k experts, possibly on k different GPUs: the "
                    "dispatch carries k copies of its row, not one.",
                    [](const Values& p, const Values& out) {
                      return out["payload_bytes"] / p["top_k"];
                    },
                    0},
                   {"elements_not_bytes",
                    "That counts values; each value takes the stated number of bytes.",
                    [](const Values& p, const Values& out) {
                      return out["payload_bytes"] / p["dtype_bytes"];
                    },
                    0}},
      .difficulty = 1,
      .tags = "MoE,expert parallel,network",
  });

  bank.add({
      .id = "comm.ep.per_rank",
      .area = "comm",
      .title = "Bytes that leave a GPU per all-to-all",
      .source =
          "DeepSeek-AI 2024 (DeepSeek-V3 report) §3.2; uniform routing as in comm.ep_alltoall",
      .group = "ep.deepseek",
      .statement = "An MoE model has hidden size {hidden} and sends each token to its top "
                   "{top_k:raw} experts, spread evenly over {ep:raw} GPUs with routing uniform "
                   "across them. Each GPU dispatches a microbatch of {tokens} tokens in "
                   "{dtype_bytes:raw}-byte values. How many bytes leave one GPU per all-to-all?",
      .params = ep_params(),
      .derive = moe_shape,
      .estimator = "comm.ep_alltoall",
      .output = "bytes_per_rank",
      .unit = answer_in::mb(),
      .hints = {"Rows routed to an expert on the same GPU never touch the network.",
                "Sent = (N − 1)/N × tokens × top-k × hidden × bytes."},
      .mistakes =
          {{"divided_by_ranks",
            "Each GPU sends to N − 1 others, 1/N of its rows to each: together (N − 1)/N "
            "of them, not 1/N.",
            [](const Values& p, const Values& out) { return out["payload_bytes"] / p["ep"]; }, 0},
           {"one_copy_per_token",
            "Each token goes to top-k experts: the dispatch carries k copies of its row.",
            [](const Values& p, const Values& out) { return out["bytes_per_rank"] / p["top_k"]; },
            0}},
      .difficulty = 2,
      .tags = "MoE,expert parallel,network",
  });

  bank.add({
      .id = "comm.ep.count",
      .area = "comm",
      .title = "All-to-alls in a forward pass",
      .source = "Lepikhin et al. 2021 (GShard) §2.2: dispatch and combine per MoE layer; "
                "DeepSeek-V3 has 58 MoE layers",
      .group = "ep.deepseek",
      .statement = "A model has {moe_layers:raw} MoE layers and runs them with expert "
                   "parallelism: tokens travel to the GPUs holding their experts, and the "
                   "experts' outputs travel back. How many all-to-alls does one forward pass of "
                   "a microbatch make?",
      .params = {{"moe_layers", 58, {12, 16, 24, 26, 27, 28, 32, 40, 48, 56, 59, 60, 61, 64, 94}},
                 {"tokens", 4096},
                 {"hidden", 7168},
                 {"top_k", 8},
                 {"ep", 64}},
      .estimator = "comm.ep_alltoall",
      .output = "alltoalls",
      .unit = answer_in::count(unit::none, "all-to-alls"),
      .integer = true,
      .hints = {"Count the trips per MoE layer: out to the experts, and back.",
                "2 × MoE layers (dispatch + combine)."},
      .mistakes = {times("dispatch_only", 0.5,
                         "The outputs must come back to the token's GPU: a combine all-to-all "
                         "follows every dispatch."),
                   times("counted_backward", 2,
                         "That counts the backward pass too; the question asks for the forward "
                         "pass (backward adds as many again).")},
      .difficulty = 1,
      .tags = "MoE,expert parallel",
  });

  bank.add({
      .id = "comm.ep.time",
      .area = "comm",
      .title = "Time of a forward pass's all-to-alls",
      .source = "DeepSeek-AI 2024 (DeepSeek-V3 report) §3.2.1: cross-node InfiniBand at 50 GB/s; "
                "α–β model of comm.ep_alltoall",
      .group = "ep.deepseek",
      .statement = "An MoE model has hidden size {hidden}, top-{top_k:raw} routing and "
                   "{moe_layers:raw} MoE layers, with experts over {ep:raw} GPUs and uniform "
                   "routing. Each GPU's microbatch is {tokens} tokens in {dtype_bytes:raw}-byte "
                   "values; links give {bandwidth} per GPU and {latency} per message step (an "
                   "all-to-all takes N − 1 steps). How long do the forward pass's all-to-alls "
                   "take, dispatch and combine, with no overlap?",
      .params = ep_params(),
      .derive = moe_shape,
      .estimator = "comm.ep_alltoall",
      .output = "time",
      .unit = answer_in::ms(),
      .hints = {"First the bytes one GPU sends per all-to-all, then how many all-to-alls.",
                "One all-to-all: (N − 1)·α + (N − 1)/N × tokens × k × hidden × bytes / β.",
                "Times 2 per MoE layer."},
      .mistakes =
          {times("dispatch_only", 0.5,
                 "Every MoE layer has two all-to-alls, dispatch and combine: the outputs "
                 "travel back."),
           {"one_copy_per_token",
            "Each token goes to top-k experts: k copies of its row cross the network.",
            [](const Values& p, const Values& out) {
              return out["latency_time"] + out["bandwidth_time"] / p["top_k"];
            },
            0},
           {"one_layer_only", "That is one MoE layer; the forward pass runs all of them.",
            [](const Values& p, const Values& out) { return out["time"] / p["moe_layers"]; }, 0}},
      .difficulty = 2,
      .tags = "MoE,expert parallel,network,latency",
  });
}

// ---- FSDP's collectives -----------------------------------------------------------------------
// One layer's BF16 weights of a released dense model: what FSDP gathers before the layer runs.
void layer_bytes(Values& p) {
  const ModelParams c = model_params(pick(dense_model_presets(), p).model);
  p.set("bytes", 2 * (c.attention_per_layer + c.dense_ffn_per_layer));
}

Json collective(const Values& p, const char* op) {
  Json j = Json::object();
  j.set("op", op);
  j.set("algorithm", "ring");
  j.set("in_switch_reduction", false);
  for (const char* k : {"bytes", "ranks", "bandwidth", "latency"}) j.set(k, p[k]);
  return j;
}

double dense_index(std::string_view id) {
  return index_in(dense_model_presets(), id);
}

std::vector<Param> fsdp_params() {
  return {{"model", dense_index("llama3-70b"), indices(dense_model_presets().size())},
          {"bytes", 0, {}, unit::bytes},
          {"ranks", 8, {2, 4, 8, 16, 32, 64}},
          {"bandwidth", 450e9, {50e9, 100e9, 450e9, 900e9}},
          {"latency", 3e-6, {3e-6, 5e-6, 10e-6}}};
}

void collectives(ProblemBank& bank) {
  bank.add({
      .id = "comm.collective.all_gather",
      .area = "comm",
      .title = "Bytes each GPU sends in an FSDP all-gather",
      .source = "Zhao et al. 2023 (PyTorch FSDP) §3: all-gather each unit's weights before use; "
                "Llama 3 70B layer from its config.json",
      .group = "collective.fsdp",
      .statement = "FSDP shards a layer's BF16 weights ({bytes} in all) over {ranks:raw} GPUs and "
                   "all-gathers them before the layer runs. With a ring, how many bytes does "
                   "each GPU send?",
      .fixed_statement = "FSDP shards one Llama 3 70B layer's BF16 weights ({bytes}) over "
                         "{ranks:raw} GPUs and all-gathers them before the layer runs. With a "
                         "ring, how many bytes does each GPU send?",
      .params = fsdp_params(),
      .derive = layer_bytes,
      .estimator = "comm.collective",
      .inputs = [](const Values& p) { return collective(p, "all_gather"); },
      .output = "bytes_per_rank",
      .unit = answer_in::gb(),
      .hints = {"Every GPU must end with the whole layer and already has its own shard.",
                "Each GPU sends its shard around the ring N − 1 times: (N − 1)/N × P."},
      .mistakes = {times("all_reduce_2x", 2 * 1.0,
                         "2(N − 1)/N × P is an all-reduce (a reduce-scatter then an all-gather); "
                         "an all-gather alone is half of it."),
                   {"own_shard_only",
                    "P/N is one shard; the ring forwards the others' shards too, N − 1 of them.",
                    [](const Values& p, const Values&) { return p["bytes"] / p["ranks"]; }, 0}},
      .difficulty = 1,
      .tags = "FSDP,network",
  });

  bank.add({
      .id = "comm.collective.reduce_scatter",
      .area = "comm",
      .title = "Time of an FSDP gradient reduce-scatter",
      .source = "Zhao et al. 2023 (PyTorch FSDP) §3: gradients reduce-scattered per unit; "
                "NVIDIA H100 SXM: NVLink 900 GB/s both ways (450 GB/s each way)",
      .group = "collective.fsdp",
      .statement = "After the backward pass of a layer, FSDP reduce-scatters its BF16 gradients "
                   "({bytes}) over {ranks:raw} GPUs with a ring, at {bandwidth} per GPU and "
                   "{latency} per step. How long does it take (α–β model)?",
      .fixed_statement = "After the backward pass of one Llama 3 70B layer, FSDP reduce-scatters "
                         "its BF16 gradients ({bytes}) over {ranks:raw} H100s with a ring over "
                         "NVLink, {bandwidth} per GPU and {latency} per step. How long does it "
                         "take (α–β model)?",
      .params = fsdp_params(),
      .derive = layer_bytes,
      .estimator = "comm.collective",
      .inputs = [](const Values& p) { return collective(p, "reduce_scatter"); },
      .output = "time",
      .unit = answer_in::ms(),
      .hints = {"A reduce-scatter is the first half of a ring all-reduce.",
                "T = (N − 1)·α + (N − 1)/N × P / β."},
      .mistakes = {{"all_reduce_time",
                    "That is an all-reduce, twice the steps and bytes; FSDP only needs each "
                    "GPU's own shard of the summed gradients.",
                    [](const Values&, const Values& out) {
                      return 2 * out["latency_time"] + 2 * out["bandwidth_time"];
                    },
                    0},
                   {"whole_tensor_per_step",
                    "Each of the N − 1 steps moves one shard, P/N, not the whole tensor.",
                    [](const Values& p, const Values& out) {
                      return out["latency_time"] + (p["ranks"] - 1) * p["bytes"] / p["bandwidth"];
                    },
                    0}},
      .difficulty = 2,
      .tags = "FSDP,all-reduce,network,latency",
  });

  bank.add({
      .id = "comm.collective.crossover",
      .area = "comm",
      .title = "Where an all-reduce stops being latency-bound",
      .source = "Thakur, Rabenseifner & Gropp 2005 (α–β costs of ring collectives); "
                "nccl-tests' busbw convention",
      .statement = "{ranks:raw} GPUs ring-all-reduce a message over links of {bandwidth} per GPU "
                   "with {latency} per step. At what message size do the latency term and the "
                   "bandwidth term take equal time?",
      .params = {{"bytes", 1e9},
                 {"ranks", 8, {2, 4, 8, 16, 32, 64, 128}},
                 {"bandwidth", 450e9, {25e9, 50e9, 100e9, 450e9, 900e9}},
                 {"latency", 3e-6, {2e-6, 3e-6, 5e-6, 10e-6}}},
      .estimator = "comm.collective",
      .inputs = [](const Values& p) { return collective(p, "all_reduce"); },
      .output = "crossover_bytes",
      .unit = answer_in::mb(),
      .hints = {"Write both terms of a ring all-reduce as functions of the size P.",
                "2(N − 1)·α = 2(N − 1)/N × P / β, so P* = N·α·β."},
      .mistakes = {{"forgot_n",
                    "α·β is the size one link moves in one latency; a ring splits the message "
                    "into N chunks, so the crossover is N times larger.",
                    [](const Values& p, const Values&) { return p["latency"] * p["bandwidth"]; },
                    0}},
      .difficulty = 2,
      .tags = "all-reduce,network,latency",
  });

  bank.add({
      .id = "comm.collective.latency_bound",
      .area = "comm",
      .title = "Latency-bound or bandwidth-bound?",
      .source = "Thakur, Rabenseifner & Gropp 2005 (α–β costs of ring collectives)",
      .statement = "{ranks:raw} GPUs ring-all-reduce {bytes} over links of {bandwidth} per GPU "
                   "with {latency} per step. Does the latency term take longer than the "
                   "bandwidth term?",
      .params = {{"bytes", 65536, {4096, 65536, 1048576, 16777216, 268435456, 1073741824}},
                 {"ranks", 8, {2, 4, 8, 16, 64, 256}},
                 {"bandwidth", 450e9, {25e9, 50e9, 450e9}},
                 {"latency", 3e-6, {3e-6, 10e-6}}},
      // Far enough from the crossover that the comparison, not rounding, decides it.
      .valid =
          [](const Values& p) {
            const double r = p["bytes"] / (p["ranks"] * p["latency"] * p["bandwidth"]);
            return r < 0.5 || r > 2;
          },
      .estimator = "comm.collective",
      .inputs = [](const Values& p) { return collective(p, "all_reduce"); },
      .output = "time",
      .answer =
          [](const Values&, const Values& out) {
            return out["latency_time"] > out["bandwidth_time"] ? 1.0 : 0.0;
          },
      .unit = answer_in::yes_no(),
      .hints = {"Each term grows with something different: steps with N, bytes with the size.",
                "Latency wins below P* = N·α·β; compare the message with that."},
      .mistakes = {{"compared_wrong_way",
                    "Latency: 2(N − 1)·α; bandwidth: 2(N − 1)/N × P / β. The latency term wins "
                    "only while the message is below N·α·β.",
                    [](const Values&, const Values& out) {
                      return out["latency_time"] > out["bandwidth_time"] ? 0.0 : 1.0;
                    },
                    0}},
      .explain = "The latency term 2(N − 1)·α is larger than the bandwidth term 2(N − 1)/N × P / "
                 "β exactly when the message is below N·α·β: yes below it, no above.",
      .difficulty = 2,
      .tags = "all-reduce,latency,conceptual",
  });

  bank.add({
      .id = "comm.collective.busbw",
      .area = "comm",
      .title = "The bus bandwidth nccl-tests would report",
      .source = "NVIDIA nccl-tests doc/PERFORMANCE.md: busbw = algbw × 2(N − 1)/N for "
                "all-reduce; α–β model of comm.collective",
      .statement = "{ranks:raw} GPUs ring-all-reduce {bytes} over links of {bandwidth} per GPU "
                   "with {latency} per step. nccl-tests reports the bus bandwidth: the bytes "
                   "each GPU sends, 2(N − 1)/N × size, over the time taken. What would it report?",
      .params = {{"bytes", 16777216, {1048576, 4194304, 16777216, 67108864, 268435456}},
                 {"ranks", 8, {4, 8, 16, 64}},
                 {"bandwidth", 450e9, {50e9, 100e9, 450e9}},
                 {"latency", 3e-6, {3e-6, 5e-6, 10e-6}}},
      .estimator = "comm.collective",
      .inputs = [](const Values& p) { return collective(p, "all_reduce"); },
      .output = "bus_bandwidth",
      .unit = answer_in::gb_per_s(),
      .hints = {"First the time (α–β), then divide the bytes one GPU sends by it.",
                "T = 2(N − 1)·α + 2(N − 1)/N × P / β; busbw = 2(N − 1)/N × P / T."},
      .mistakes = {{"algorithm_bandwidth",
                    "Size / time is nccl-tests' algbw; busbw scales it by 2(N − 1)/N so that it "
                    "compares with the link speed.",
                    [](const Values&, const Values& out) { return out["algorithm_bandwidth"]; }, 0},
                   {"link_bandwidth",
                    "The link's bandwidth is the ceiling; the latency steps keep a finite message "
                    "below it.",
                    [](const Values& p, const Values&) { return p["bandwidth"]; }, 0}},
      .difficulty = 3,
      .tags = "all-reduce,network,latency",
  });

  bank.add({
      .id = "comm.collective.pp_send",
      .area = "comm",
      .title = "Sending a microbatch to the next pipeline stage",
      .source = "Dubey et al. 2024 (Llama 3) Table 4: 405B with PP 16 and 8,192-token sequences; "
                "hidden 16,384 from its config.json; 400 Gb/s RoCE per GPU (§3.3.1)",
      .statement = "A pipeline stage passes its output activations (microbatch {micro_batch:raw} "
                   "× {seq_len} tokens × hidden {hidden:raw}, in BF16) to the next stage's GPU "
                   "over {bandwidth} with {latency} of latency. How long does the send take?",
      .params = {{"seq_len", 8192, {2048, 4096, 8192}, unit::tokens},
                 {"hidden", 16384, {4096, 5120, 8192, 12288, 16384}, ""},
                 {"micro_batch", 1, {1, 2, 4}, ""},
                 {"bytes", 0},
                 {"ranks", 2},
                 {"bandwidth", 50e9, {25e9, 50e9, 100e9, 450e9}},
                 {"latency", 5e-6}},
      .derive =
          [](Values& p) { p.set("bytes", 2 * p["seq_len"] * p["hidden"] * p["micro_batch"]); },
      .estimator = "comm.collective",
      .inputs = [](const Values& p) { return collective(p, "p2p"); },
      .output = "time",
      .unit = answer_in::ms(),
      .hints = {"A point-to-point send moves the tensor once: no ring, no (N − 1)/N.",
                "T = α + b·s·h·2 bytes / β."},
      .mistakes = {times("ring_2x", 2,
                         "A send between two stages is not an all-reduce: the tensor crosses the "
                         "link once."),
                   {"bits_for_bytes",
                    "Links are quoted in bytes per second here; b·s·h BF16 values are 2 bytes "
                    "each.",
                    [](const Values& p, const Values& out) {
                      return p["latency"] + (out["time"] - p["latency"]) / 2;
                    },
                    0}},
      .difficulty = 1,
      .tags = "pipeline,network",
  });
}

// ---- model states under TP, PP and ZeRO -------------------------------------------------------
void preset_params(Values& p) {
  p.set("params", model_params(pick(dense_model_presets(), p).model).total);
}

std::vector<Param> states_params(double zero) {
  return {{"model", dense_index("llama3-70b"), indices(dense_model_presets().size())},
          {"params", 0, {}, unit::params},
          {"tp", 8, {1, 2, 4, 8}},
          {"pp", 1, {1, 2, 4, 8}},
          {"dp", 16, {8, 16, 32, 64}},
          {"zero_stage", zero}};
}

Json states_inputs(const Values& p) {
  Json j = Json::object();
  for (const char* k : {"params", "tp", "pp", "dp", "zero_stage"}) j.set(k, p[k]);
  if (p.has("gpu_memory")) j.set("gpu_memory", p["gpu_memory"]);
  j.set("weight_bytes", 2);
  j.set("grad_bytes", 2);
  j.set("optimizer_bytes", 12);
  j.set("activations", "none");
  return j;
}

template <int W, int G, int O, bool ShardAll>
double states_with(const Values& p, const Values&) {
  const double split = p["tp"] * p["pp"] * (ShardAll ? p["dp"] : 1);
  return p["params"] * (W + G + O) / split;
}

void model_states(ProblemBank& bank) {
  bank.add({
      .id = "mem.states.tp_pp",
      .area = "memory",
      .title = "Model states per GPU under TP and PP",
      .source = "Rajbhandari et al. 2020 (ZeRO) §3: 2 + 2 + 12 bytes per parameter; Llama 3 70B "
                "config.json (70.55B)",
      .group = "mem.llama70b",
      .statement = "A {params}-parameter model trains with mixed-precision Adam: 2-byte weights "
                   "and gradients and 12 bytes of FP32 master weights and moments per parameter. "
                   "It is split with TP = {tp:raw} and PP = {pp:raw}, no ZeRO. How much memory "
                   "do the model states take per GPU?",
      .fixed_statement = "Llama 3 70B ({params} parameters) trains with mixed-precision Adam: "
                         "2-byte weights and gradients and 12 bytes of FP32 master weights and "
                         "moments per parameter. It is split with TP = {tp:raw} and PP = "
                         "{pp:raw}, no ZeRO. How much memory do the model states take per GPU?",
      .params = states_params(0),
      .derive = preset_params,
      .estimator = "mem.training",
      .inputs = states_inputs,
      .output = "model_states",
      .unit = answer_in::gb(),
      .hints = {"Add up the bytes one parameter costs, then see how many GPUs share each "
                "parameter.",
                "(2 + 2 + 12) × N / (TP × PP)."},
      .mistakes = {{"not_split",
                    "TP and PP each hold a different part of the model: divide by TP × PP.",
                    [](const Values& p, const Values&) { return 16 * p["params"]; }, 0},
                   {"weights_only",
                    "The gradients and Adam's states live on the GPU too: 16 bytes per "
                    "parameter, not 2.",
                    &states_with<2, 0, 0, false>, 0},
                   {"no_master_copy",
                    "Mixed precision keeps an FP32 master copy of the weights besides the two "
                    "moments: 12 bytes of optimizer state, not 8.",
                    &states_with<2, 2, 8, false>, 0}},
      .difficulty = 1,
      .tags = "memory,tensor parallel,pipeline",
  });
  bank.add({
      .id = "mem.states.zero1",
      .area = "memory",
      .title = "Model states per GPU with ZeRO-1",
      .source = "Rajbhandari et al. 2020 (ZeRO) §5.1: stage 1 partitions the optimizer states "
                "over data parallelism",
      .group = "mem.llama70b",
      .statement = "A {params}-parameter model trains with mixed-precision Adam (2-byte weights "
                   "and gradients, 12 bytes of optimizer state per parameter), TP = {tp:raw}, "
                   "PP = {pp:raw} and ZeRO stage 1 over DP = {dp:raw}. How much memory do the "
                   "model states take per GPU?",
      .fixed_statement = "Llama 3 70B ({params} parameters) trains with mixed-precision Adam "
                         "(2-byte weights and gradients, 12 bytes of optimizer state per "
                         "parameter), TP = {tp:raw}, PP = {pp:raw} and ZeRO stage 1 over DP = "
                         "{dp:raw}. How much memory do the model states take per GPU?",
      .params = states_params(1),
      .derive = preset_params,
      .estimator = "mem.training",
      .inputs = states_inputs,
      .output = "model_states",
      .unit = answer_in::gb(),
      .hints = {"Stage 1 shards one of the three kinds of state over the data-parallel "
                "replicas; the other two stay whole.",
                "(2 + 2 + 12 / DP) × N / (TP × PP)."},
      .mistakes = {{"sharded_everything",
                    "That is ZeRO-3: stage 1 shards only the optimizer states; weights and "
                    "gradients stay whole on every replica.",
                    &states_with<2, 2, 12, true>, 0},
                   {"not_sharded", "ZeRO-1 divides the 12 bytes of optimizer state by DP.",
                    &states_with<2, 2, 12, false>, 0},
                   {"sharded_gradients",
                    "That is ZeRO-2, which shards the gradients too; stage 1 keeps them whole.",
                    [](const Values& p, const Values&) {
                      return p["params"] * (2 + 14 / p["dp"]) / (p["tp"] * p["pp"]);
                    },
                    0}},
      .difficulty = 2,
      .tags = "memory,ZeRO,data parallel",
  });

  bank.add({
      .id = "mem.states.fits",
      .area = "memory",
      .title = "Do the model states fit?",
      .source = "Rajbhandari et al. 2020 (ZeRO) §5: the stages' per-GPU states; H100 SXM: 80 GiB",
      .group = "mem.llama70b",
      .statement = "A {params}-parameter model trains with mixed-precision Adam (2 + 2 + 12 bytes "
                   "per parameter), TP = {tp:raw}, PP = {pp:raw} and ZeRO stage "
                   "{zero_stage:raw} over DP = {dp:raw}, on GPUs of {gpu_memory}. Ignoring "
                   "activations, do the model states fit in one GPU's memory?",
      .params = {{"model", dense_index("llama3-70b"), indices(dense_model_presets().size())},
                 {"params", 0, {}, unit::params},
                 {"tp", 8, {1, 2, 4, 8}},
                 {"pp", 1, {1, 2, 4, 8}},
                 {"dp", 16, {8, 16, 32, 64}},
                 {"zero_stage", 0, {0, 1, 2, 3}},
                 {"gpu_memory", 85899345920, {}, unit::bytes}},
      .derive = preset_params,
      // Clear by a 15 % margin either way: the stages, not rounding, decide it.
      .valid =
          [](const Values& p) {
            const double split = p["tp"] * p["pp"], d = p["dp"], s = p["zero_stage"];
            const double bytes =
                p["params"] *
                ((s >= 3 ? 2 / d : 2) + (s >= 2 ? 2 / d : 2) + (s >= 1 ? 12 / d : 12)) / split;
            const double r = bytes / p["gpu_memory"];
            return r < 0.85 || r > 1.15;
          },
      .estimator = "mem.training",
      .inputs = states_inputs,
      .output = "fits",
      .unit = answer_in::yes_no(),
      .hints = {"Work out the bytes per GPU first; 80 GiB is 85.9 GB.",
                "Per GPU: N / (TP × PP) × (2 + 2 + 12), with ZeRO dividing the optimizer states "
                "(stage ≥ 1), the gradients (≥ 2) and the weights (3) by DP."},
      .mistakes = {{"wrong_call",
                    "Per GPU the states are N / (TP × PP) × (2 + 2 + 12) bytes, less what ZeRO "
                    "shards over DP (optimizer from stage 1, gradients from 2, weights at 3); "
                    "compare that with the GPU's memory.",
                    [](const Values&, const Values& out) { return out["fits"] > 0.5 ? 0.0 : 1.0; },
                    0}},
      .explain = "Compare the model states per GPU in the steps above with the GPU's memory: yes "
                 "if they are smaller.",
      .difficulty = 2,
      .tags = "memory,ZeRO,tensor parallel,conceptual",
  });

  bank.add({
      .id = "mem.states.max_params",
      .area = "memory",
      .title = "The largest model a layout holds",
      .source = "Rajbhandari et al. 2020 (ZeRO) §5, Table 1's accounting; H100 SXM: 80 GiB",
      .group = "mem.llama70b",
      .statement = "Training uses mixed-precision Adam (2 + 2 + 12 bytes per parameter) with TP "
                   "= {tp:raw}, PP = {pp:raw} and ZeRO stage {zero_stage:raw} over DP = "
                   "{dp:raw}, on GPUs of {gpu_memory}. Ignoring activations, what is the "
                   "largest model whose states fit?",
      .params = {{"params", 70e9},
                 {"tp", 8, {1, 2, 4, 8}},
                 {"pp", 1, {1, 2, 4, 8}},
                 {"dp", 16, {8, 16, 32, 64}},
                 {"zero_stage", 1, {0, 1, 2, 3}},
                 {"gpu_memory", 85899345920, {}, unit::bytes}},
      .estimator = "mem.training",
      .inputs = states_inputs,
      .output = "max_params",
      .unit = answer_in::billion_params(),
      .bound = Bound::at_most,  // a bigger model does not fit
      .hints = {"Turn it around: the bytes one parameter costs on one GPU, then how many such "
                "parameters the memory holds.",
                "Bytes per parameter per GPU = (2 or 2/DP) + (2 or 2/DP) + (12 or 12/DP), all "
                "over TP × PP; N = memory / that."},
      .mistakes = {{"ignored_split",
                    "TP and PP divide every state: a GPU holds 1/(TP × PP) of the model.",
                    [](const Values& p, const Values& out) {
                      return out["max_params"] / (p["tp"] * p["pp"]);
                    },
                    0},
                   {"gib_as_gb", "An \"80 GB\" H100 holds 80 GiB, 85.9e9 bytes.",
                    [](const Values&, const Values& out) {
                      return out["max_params"] * 80e9 / 85899345920.0;
                    },
                    0}},
      .difficulty = 2,
      .tags = "memory,ZeRO,tensor parallel",
  });

  bank.add({
      .id = "train.step.fits",
      .area = "training",
      .title = "Does this 3D layout fit on A100s?",
      .source = "Narayanan et al. 2021 (Megatron-LM on 3,072 GPUs), Table 1: GPT-3 175B with "
                "TP 8 × PP 8 on 80 GB A100s",
      .statement = "GPT-3 175B (96 layers of width 12,288, 2,048-token sequences) trains with TP "
                   "= {tp:raw}, PP = {pp:raw}, DP = {dp:raw}, ZeRO stage {zero_stage:raw}, "
                   "microbatch 1, full activation recomputation and mixed-precision Adam (16 "
                   "bytes per parameter), on 80 GB A100s. Does each GPU's memory hold it?",
      .params = {{"tp", 8, {1, 2, 4, 8}},
                 {"pp", 8, {1, 2, 4, 8, 16}},
                 {"dp", 16, {8, 16, 32, 64}},
                 {"zero_stage", 0, {0, 1, 2, 3}}},
      // Clear by 25 % either way: the states, which a student can count, decide it.
      .valid =
          [](const Values& p) {
            Json in = Json::object();
            for (const char* k : {"tp", "pp", "dp", "zero_stage"}) in.set(k, p[k]);
            const RunResult r = registry().run("train.step", in, false);
            if (!r.ok) return false;
            const double m = r.outputs.find("memory_per_gpu")->as_number() / 85899345920.0;
            return m < 0.75 || m > 1.25;
          },
      .estimator = "train.step",
      .output = "fits",
      .unit = answer_in::yes_no(),
      .hints = {"At microbatch 1 with full recomputation, the model states dominate.",
                "States per GPU: 175B × 16 bytes / (TP × PP), divided further by DP for what "
                "ZeRO shards; compare with 80 GiB (85.9 GB)."},
      .mistakes = {{"wrong_call",
                    "Per GPU the model states are 175B × 16 bytes / (TP × PP), less what ZeRO "
                    "shards over DP; with full recomputation the activations add little. Compare "
                    "that with 85.9 GB.",
                    [](const Values&, const Values& out) { return out["fits"] > 0.5 ? 0.0 : 1.0; },
                    0}},
      .explain = "Compare the memory per GPU in the last step with 80 GiB (85.9 GB): yes if it "
                 "is smaller.",
      .difficulty = 2,
      .tags = "memory,tensor parallel,pipeline,conceptual",
  });
}

// ---- parameter counts of released models ------------------------------------------------------
void llama_shape(Values& p) {
  const Model& m = pick(llama_like(), p).model;
  p.set("n_layers", m.layers);
  p.set("d_model", m.d_model);
  p.set("n_heads", m.heads);
  p.set("n_kv_heads", m.kv_heads);
  p.set("head_dim", m.head_dim);
  p.set("d_ff", m.d_ff);
  p.set("vocab", m.vocab);
  p.set("params", model_params(m).total);
}

Json preset_model(const Values& p) {
  Json j = Json::object();
  j.set("model", std::string(pick(llama_like(), p).id));
  return j;
}

std::vector<Param> llama_params() {
  return {{"model", index_in(llama_like(), "llama3-8b"), indices(llama_like().size())},
          {"n_layers", 0},
          {"d_model", 0},
          {"n_heads", 0},
          {"n_kv_heads", 0},
          {"head_dim", 0},
          {"d_ff", 0},
          {"vocab", 0},
          {"params", 0, {}, unit::params}};
}

void counts(ProblemBank& bank) {
  bank.add({
      .id = "model.params.llama",
      .area = "training",
      .title = "Parameters of a Llama-style model",
      .source = "Meta-Llama-3-8B config.json: 8,030,261,248 parameters; Touvron et al. 2023",
      .group = "model.llama",
      .statement = "A decoder has {n_layers:raw} layers of width d = {d_model:raw}: attention "
                   "with {n_heads:raw} query heads and {n_kv_heads:raw} key/value heads of "
                   "{head_dim:raw}, a SwiGLU feed-forward of width {d_ff:raw} (three d × d_ff "
                   "matrices), a vocabulary of {vocab:raw} with separate input and output "
                   "embeddings, RMSNorm, no biases. How many parameters does it have?",
      .params = llama_params(),
      .derive = llama_shape,
      .estimator = "model.params",
      .inputs = preset_model,
      .output = "params",
      .unit = answer_in::billion_params(),
      .hints = {"Count per layer (attention, then feed-forward), times the layers, then the two "
                "embedding matrices.",
                "Attention: d·(h·hd) for Q and O each, d·(kv·hd) for K and V each; FFN: 3·d·d_ff; "
                "embeddings: 2·V·d."},
      .mistakes = {{"kv_as_mha",
                    "K and V have only the key/value heads (grouped-query attention): "
                    "d × KV heads × head width each, not d × d.",
                    [](const Values& p, const Values& out) {
                      return out["params"] + 2 * p["n_layers"] * p["d_model"] *
                                                 (p["n_heads"] - p["n_kv_heads"]) * p["head_dim"];
                    },
                    0},
                   {"two_ffn_matrices",
                    "SwiGLU has three matrices (gate, up and down), not a GELU MLP's two.",
                    [](const Values& p, const Values& out) {
                      return out["params"] - p["n_layers"] * p["d_model"] * p["d_ff"];
                    },
                    0}},
      .variety = 4,
      .difficulty = 3,
      .tags = "parameters,attention",
  });

  bank.add({
      .id = "model.params.embedding_share",
      .area = "training",
      .title = "How much of a model is embeddings",
      .source = "Meta-Llama-3-8B config.json: 2 × 128,256 × 4,096 embedding weights of 8.03B",
      .group = "model.llama",
      .statement = "A decoder has {n_layers:raw} layers of width d = {d_model:raw} (attention with "
                   "{n_heads:raw} query and {n_kv_heads:raw} key/value heads of {head_dim:raw}, "
                   "SwiGLU width {d_ff:raw}) and a vocabulary of {vocab:raw} with separate input "
                   "and output embeddings. What share of its parameters are the embeddings?",
      .params = llama_params(),
      .derive = llama_shape,
      .estimator = "model.params",
      .inputs = preset_model,
      .output = "embedding_params",
      .answer = [](const Values&,
                   const Values& out) { return out["embedding_params"] / out["params"]; },
      .unit = answer_in::percent(),
      .hints = {"A large vocabulary costs V·d per embedding matrix, whatever the depth.",
                "Share = 2·V·d / total parameters."},
      .mistakes = {{"one_matrix", "Untied embeddings are two V × d matrices, input and output.",
                    [](const Values&, const Values& out) {
                      return out["embedding_params"] / 2 / out["params"];
                    },
                    0}},
      .explain = "The embeddings' share is the embedding parameters divided by all the "
                 "parameters.",
      .variety = 4,  // the group's space (model.params.llama)
      .difficulty = 2,
      .tags = "parameters",
  });

  // Mixtral and DeepSeek-V3 split as moe.params sees them: one expert's weights over all MoE
  // layers, and everything else (attention, embeddings, routers, shared experts).
  auto moe_split = [](Values& p) {
    const Model& m = pick(moe_presets(), p).model;
    const ModelParams c = model_params(m);
    p.set("num_experts", m.experts);
    p.set("top_k", m.top_k);
    p.set("moe_layers", c.moe_layers);
    p.set("expert_params", c.expert * c.moe_layers);
    p.set("shared_params", c.total - m.experts * c.expert * c.moe_layers);
  };
  const std::vector<Param> moe_params = {
      {"model", index_in(moe_presets(), "mixtral-8x7b"), indices(moe_presets().size())},
      {"num_experts", 0},
      {"top_k", 0},
      {"moe_layers", 0},
      {"expert_params", 0, {}, unit::params},
      {"shared_params", 0, {}, unit::params}};
  bank.add({
      .id = "moe.real.active",
      .area = "training",
      .title = "Active parameters of Mixtral",
      .source = "Jiang et al. 2024 (Mixtral of Experts) §2: 47B parameters, 13B active",
      .group = "moe.real",
      .statement = "An MoE model has {num_experts:raw} routed experts in each of its "
                   "{moe_layers:raw} MoE layers; one expert, across those layers, holds "
                   "{expert_params} parameters, and everything else (attention, embeddings, "
                   "routers, any shared experts) {shared_params}. Each token is routed to "
                   "{top_k:raw} experts. How many parameters does a token use?",
      .params = moe_params,
      .derive = moe_split,
      .estimator = "moe.params",
      .output = "active_params",
      .unit = answer_in::billion_params(),
      .hints = {"Everything that is not a routed expert runs for every token.",
                "Active = shared + top-k × one expert."},
      .mistakes = {{"total_instead_of_active",
                    "That is every expert; a token runs only through its top-k.",
                    [](const Values&, const Values& out) { return out["total_params"]; }, 0},
                   {"experts_only",
                    "Attention and embeddings run for every token too: add the shared part.",
                    [](const Values& p, const Values&) { return p["top_k"] * p["expert_params"]; },
                    0}},
      .variety = 2,
      .difficulty = 1,
      .tags = "MoE,parameters",
  });

  bank.add({
      .id = "moe.real.total",
      .area = "training",
      .title = "Why Mixtral 8×7B is not 56B",
      .source = "Jiang et al. 2024 (Mixtral of Experts) §2: 47B parameters in all",
      .group = "moe.real",
      .statement = "An MoE model has {num_experts:raw} routed experts in each of its "
                   "{moe_layers:raw} MoE layers; one expert, across those layers, holds "
                   "{expert_params} parameters, and everything else (attention, embeddings, "
                   "routers, any shared experts) {shared_params}. How many parameters does it "
                   "store in all?",
      .params = moe_params,
      .derive = moe_split,
      .estimator = "moe.params",
      .output = "total_params",
      .unit = answer_in::billion_params(),
      .hints = {"The experts share the attention and embeddings: count those once.",
                "Total = shared + experts × one expert."},
      .mistakes = {{"whole_model_per_expert",
                    "That counts a whole model per expert (the name \"8×7B\" invites it); the "
                    "experts share attention and embeddings, which are stored once.",
                    [](const Values& p, const Values&) {
                      return p["num_experts"] * (p["expert_params"] + p["shared_params"]);
                    },
                    0},
                   {"active_instead_of_total",
                    "That is what one token uses; the model stores every expert.",
                    [](const Values&, const Values& out) { return out["active_params"]; }, 0}},
      .variety = 2,
      .difficulty = 1,
      .tags = "MoE,parameters",
  });

  bank.add({
      .id = "train.chinchilla.moe_ratio",
      .area = "training",
      .title = "Tokens per active parameter of an MoE",
      .source = "DeepSeek-AI 2024 (DeepSeek-V3 report): 14.8T tokens, 671B total, 37B active",
      .statement = "An MoE model with {params} active of {total_params} parameters was trained "
                   "on {tokens} tokens. How many tokens per active parameter is that (the "
                   "Chinchilla ratio counts the parameters a token uses)?",
      .fixed_statement = "DeepSeek-V3 ({params} active of {total_params} parameters) was trained "
                         "on {tokens} tokens. How many tokens per active parameter is that (the "
                         "Chinchilla ratio counts the parameters a token uses)?",
      .params = {{"params", 37e9, {2.7e9, 12.9e9, 14e9, 21e9, 22e9, 37e9, 39e9}},
                 {"total_params", 671e9, {}, unit::params},
                 {"tokens", 14.8e12, {2e12, 4e12, 8e12, 14.8e12, 18e12, 36e12}}},
      // Totals that go with the active counts: Qwen1.5-MoE 2.7B/14.3B, Mixtral 8×7B 12.9/46.7,
      // Qwen2-57B-A14B, DeepSeek-V2 21/236, Qwen3-235B-A22B, DeepSeek-V3 37/671,
      // Mixtral 8×22B 39/141.
      .derive =
          [](Values& p) {
            const double a = p["params"];
            p.set("total_params", a == 2.7e9    ? 14.3e9
                                  : a == 12.9e9 ? 46.7e9
                                  : a == 14e9   ? 57e9
                                  : a == 21e9   ? 236e9
                                  : a == 22e9   ? 235e9
                                  : a == 39e9   ? 141e9
                                                : 671e9);
          },
      .estimator = "train.chinchilla",
      .output = "tokens_per_param_actual",
      .unit = answer_in::count(unit::times, "tokens per parameter"),
      .hints = {"Which parameters set the compute per token?",
                "Divide the training tokens by the active parameters."},
      .mistakes = {{"used_total",
                    "Compute per token follows the active parameters; dividing by the total "
                    "makes an MoE look undertrained.",
                    [](const Values& p, const Values&) { return p["tokens"] / p["total_params"]; },
                    0}},
      .difficulty = 1,
      .tags = "MoE,scaling laws",
  });
}

// ---- Llama 3's training run ---------------------------------------------------------------
bool some_days(const Values& p) {
  const double days =
      6 * p["params"] * p["tokens"] / (p["gpus"] * p["peak_flops"] * p["mfu"]) / 86400;
  return days >= 2 && days <= 400;
}

std::vector<Param> llama3_run() {
  return {{"params", 405.85e9, {8.03e9, 70.55e9, 405.85e9}},
          {"tokens", 15.6e12, {15e12, 15.6e12}},
          {"gpus", 16384, {2048, 4096, 8192, 16384}},
          {"peak_flops", 989.4e12},
          {"mfu", 0.4, {0.38, 0.4, 0.43}}};
}

void llama3_training(ProblemBank& bank) {
  bank.add({
      .id = "train.time.llama3",
      .area = "training",
      .title = "How long Llama 3 405B trained",
      .source = "Dubey et al. 2024 (The Llama 3 Herd of Models) §3.3: 15.6T tokens, 16K H100s "
                "at 38–43 % BF16 MFU",
      .group = "train.llama3",
      .statement = "A dense model with {params} parameters trains on {tokens} tokens on {gpus} "
                   "H100s ({peak_flops} dense BF16 each) at {mfu} MFU. How many days does it take?",
      .fixed_statement = "Llama 3 405B ({params} parameters) trains on {tokens} tokens on {gpus} "
                         "H100s ({peak_flops} dense BF16 each) at {mfu} MFU. How many days does "
                         "it take, with no failures?",
      .params = llama3_run(),
      .valid = some_days,
      .estimator = "train.time",
      .output = "seconds",
      .unit = answer_in::days(),
      .hints = {"Total work, then what the cluster sustains.",
                "Days = 6·N·D / (GPUs × peak × MFU) / 86,400."},
      .mistakes = {times("hours_not_days", 24,
                         "That is the time in hours; the question asks for days, 24 hours each."),
                   {"forgot_mfu",
                    "GPUs sustain peak × MFU, not their peak: at 40 % the run takes 2.5× longer.",
                    [](const Values& p, const Values& out) { return out["seconds"] * p["mfu"]; },
                    0},
                   times("forward_only", 1.0 / 3,
                         "2·N per token is the forward pass; training adds a backward pass of "
                         "twice that: 6·N.")},
      .difficulty = 2,
      .tags = "training time,FLOPs,MFU",
  });

  bank.add({
      .id = "train.time.llama3_gpu_hours",
      .area = "training",
      .title = "GPU-hours of Llama 3 405B",
      .source = "Dubey et al. 2024 §3.3; the Llama 3.1 model card reports 30.84M H100-hours for "
                "405B (with restarts and evaluation)",
      .group = "train.llama3",
      .statement = "A dense model with {params} parameters trains on {tokens} tokens on {gpus} "
                   "H100s ({peak_flops} dense BF16 each) at {mfu} MFU. How many GPU-hours is "
                   "that?",
      .fixed_statement = "Llama 3 405B ({params} parameters) trains on {tokens} tokens on {gpus} "
                         "H100s ({peak_flops} dense BF16 each) at {mfu} MFU. How many GPU-hours "
                         "is that, with no failures?",
      .params = llama3_run(),
      .valid = some_days,
      .estimator = "train.time",
      .output = "gpu_hours",
      .unit = answer_in::count(unit::gpu_hours, "GPU-hours"),
      .hints = {"GPU-hours do not depend on how many GPUs share the work.",
                "GPU-hours = 6·N·D / (peak × MFU) / 3,600."},
      .mistakes = {{"wall_clock_hours",
                    "That is the wall-clock time; every GPU is busy all of it, so multiply by "
                    "the GPUs.",
                    [](const Values&, const Values& out) { return out["hours"]; }, 0},
                   {"forgot_mfu",
                    "GPUs sustain peak × MFU, not their peak: at 40 % MFU the work takes 2.5× the "
                    "GPU-hours.",
                    [](const Values& p, const Values& out) { return out["gpu_hours"] * p["mfu"]; },
                    0}},
      .difficulty = 2,
      .tags = "training time,MFU",
  });
}

// ---- interleaved pipelines --------------------------------------------------------------------
void interleaving(ProblemBank& bank) {
  bank.add({
      .id = "pipe.bubble.interleaved",
      .area = "memory",
      .title = "Bubble of an interleaved pipeline",
      .source = "Narayanan et al. 2021 (Megatron-LM) §2.2.2: v model chunks per GPU shrink the "
                "bubble v-fold",
      .statement = "A pipeline has {stages:raw} stages and runs {microbatches:raw} microbatches "
                   "per step; each GPU holds {interleave:raw} non-adjacent model chunks "
                   "(interleaved 1F1B). What fraction of the step is bubble?",
      .params = {{"stages", 8, {4, 8, 16}},
                 {"microbatches", 16, {8, 16, 32, 64}},
                 {"interleave", 4, {2, 3, 4, 6}}},
      .estimator = "pipe.bubble",
      .output = "bubble_fraction",
      .unit = answer_in::percent(),
      .hints = {"Interleaving makes each fill-and-drain slot v times shorter; the count of "
                "slots stays N − 1.",
                "Bubble = (N − 1) / (v·M + N − 1)."},
      .mistakes = {{"not_interleaved",
                    "That is plain 1F1B; with v chunks per GPU each bubble slot is 1/v as long.",
                    [](const Values& p, const Values&) {
                      return (p["stages"] - 1) / (p["microbatches"] + p["stages"] - 1);
                    },
                    0},
                   {"approximate",
                    "(N − 1)/(v·M) is the bubble relative to the work, not its share of the "
                    "step: add the bubble to the denominator.",
                    [](const Values& p, const Values&) {
                      return (p["stages"] - 1) / (p["interleave"] * p["microbatches"]);
                    },
                    0}},
      .difficulty = 2,
      .tags = "pipeline",
  });
}

}  // namespace

void register_parallel_problems(ProblemBank& bank) {
  expert_parallel(bank);
  collectives(bank);
  model_states(bank);
  counts(bank);
  llama3_training(bank);
  interleaving(bank);
}

}  // namespace napkin
