// Practice problems on serving, written against the scenario presets: the KV cache of released
// models (infer.kv), a decode step on the roofline (hw.roofline), speculative decoding's time
// per token (serve.speculative) and a replica's weights per GPU (serve.engine). Seed 0 of each
// is a released model on a released GPU.
#include <cmath>
#include <string_view>
#include <vector>

#include "base/units.hpp"
#include "practice/problems.hpp"
#include "practice/variant_presets.hpp"

namespace napkin {

namespace {

// Dense presets whose every layer attends to the whole context (no sliding windows): their KV
// cache is layers × 2 × KV heads × head width per token.
const std::vector<const ModelPreset*>& full_attention() {
  static const std::vector<const ModelPreset*> list = [] {
    std::vector<const ModelPreset*> v;
    for (const ModelPreset* m : dense_model_presets())
      if (m->model.attention == AttentionKind::Standard && m->model.window == 0) v.push_back(m);
    return v;
  }();
  return list;
}

double index_of(const std::vector<const ModelPreset*>& list, std::string_view id) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i]->id == id) return static_cast<double>(i);
  return 0;
}

const Model& model_at(const std::vector<const ModelPreset*>& list, const Values& p) {
  const double i = p["model"];
  return list[i >= 0 && i < static_cast<double>(list.size()) ? static_cast<std::size_t>(i) : 0]
      ->model;
}

double gpu_index(std::string_view id) {
  const auto& gpus = accelerator_presets();
  for (std::size_t i = 0; i < gpus.size(); ++i)
    if (gpus[i]->id == id) return static_cast<double>(i);
  return 0;
}

// ---- KV cache -----------------------------------------------------------------------------
void kv_shape(Values& p) {
  const Model& m = model_at(full_attention(), p);
  p.set("n_layers", m.layers);
  p.set("n_heads", m.heads);
  p.set("n_kv_heads", m.kv_heads);
  p.set("head_dim", m.head_dim);
}

std::vector<Param> kv_params() {
  return {{"model", index_of(full_attention(), "llama3-8b"), indices(full_attention().size())},
          {"kv_bytes", 2, {1, 2}},
          {"seq_len", 8192, {2048, 4096, 8192, 32768}},
          {"batch", 32, {1, 8, 16, 32, 64}},
          {"n_layers", 0},
          {"n_heads", 0},
          {"n_kv_heads", 0},
          {"head_dim", 0}};
}

void kv_cache(ProblemBank& bank) {
  bank.add({
      .id = "infer.kv.per_token",
      .area = "inference",
      .title = "KV cache per token",
      .source = "Ainslie et al. 2023 (GQA); Meta-Llama-3-8B config.json: 32 layers, 8 KV heads "
                "of 128 → 131,072 bytes per token in BF16",
      .group = "kv.gqa",
      .statement = "A model has {n_layers:raw} layers with {n_heads:raw} query heads and "
                   "{n_kv_heads:raw} key/value heads of width {head_dim:raw}. Its KV cache "
                   "stores {kv_bytes:raw}-byte values. How many bytes does one token add to the "
                   "cache, over all layers?",
      .params = kv_params(),
      .derive = kv_shape,
      .estimator = "infer.kv",
      .output = "bytes_per_token",
      .unit = {unit::bytes_per_token, "kB", 1e3},
      .hints = {"Per layer a token stores a key and a value for each key/value head, not for "
                "each query head.",
                "2 × layers × KV heads × head width × bytes."},
      .mistakes = {times("forgot_k_and_v", 0.5,
                         "The cache holds keys and values: two vectors per head, not one."),
                   {"query_heads",
                    "Grouped-query attention caches only the key/value heads; the query heads "
                    "share them.",
                    [](const Values& p, const Values& out) {
                      return out["bytes_per_token"] * p["n_heads"] / p["n_kv_heads"];
                    },
                    0},
                   {"one_layer", "Every layer keeps its own keys and values: times the layers.",
                    [](const Values& p, const Values& out) {
                      return out["bytes_per_token"] / p["n_layers"];
                    },
                    0}},
      .difficulty = 1,
      .tags = "KV cache,attention",
  });

  bank.add({
      .id = "infer.kv.batch",
      .area = "inference",
      .title = "KV cache of a batch",
      .source = "Kwon et al. 2023 (vLLM) §3: the cache grows with batch × sequence length; "
                "Meta-Llama-3-8B config.json",
      .group = "kv.gqa",
      .statement = "A model has {n_layers:raw} layers with {n_kv_heads:raw} key/value heads of "
                   "width {head_dim:raw} ({n_heads:raw} query heads), and caches "
                   "{kv_bytes:raw}-byte values. How much KV cache do {batch:raw} sequences of "
                   "{seq_len} tokens hold?",
      .params = kv_params(),
      .derive = kv_shape,
      .estimator = "infer.kv",
      .output = "bytes_total",
      .unit = answer_in::gb(),
      .hints = {"First one token's cache, then how many tokens are held at once.",
                "2 × layers × KV heads × head width × bytes × tokens × sequences."},
      .mistakes =
          {{"one_sequence", "That is one sequence; the batch holds all of them.",
            [](const Values& p, const Values& out) { return out["bytes_total"] / p["batch"]; }, 0},
           {"query_heads",
            "Only the key/value heads are cached; counting every query head is the "
            "multi-head cache GQA avoids.",
            [](const Values& p, const Values& out) {
              return out["bytes_total"] * p["n_heads"] / p["n_kv_heads"];
            },
            0},
           times("forgot_k_and_v", 0.5,
                 "Attention needs both the keys and the values of past tokens: two vectors per "
                 "head.")},
      .difficulty = 2,
      .tags = "KV cache,memory",
  });

  bank.add({
      .id = "infer.kv.gqa_saving",
      .area = "inference",
      .title = "What grouped-query attention saves",
      .source = "Ainslie et al. 2023 (GQA) §2: H query heads share G key/value heads",
      .group = "kv.gqa",
      .statement = "A model has {n_heads:raw} query heads and {n_kv_heads:raw} key/value heads "
                   "of width {head_dim:raw}. How many times smaller is its KV cache than if "
                   "every query head had its own key and value?",
      .params = kv_params(),
      .derive = kv_shape,
      .estimator = "infer.kv",
      .output = "reduction_vs_mha",
      .unit = answer_in::count(unit::times, "×"),
      .hints = {"Only the number of cached heads changes; layers and widths cancel.",
                "Query heads / key-value heads."},
      .mistakes = {{"inverted",
                    "That is the GQA cache as a fraction of the multi-head one; the question "
                    "asks how many times smaller, the inverse.",
                    [](const Values& p, const Values&) { return p["n_kv_heads"] / p["n_heads"]; },
                    0}},
      .difficulty = 1,
      .tags = "KV cache,attention",
  });

  bank.add({
      .id = "infer.kv.fits",
      .area = "inference",
      .title = "Does the batch's cache fit?",
      .source = "Kwon et al. 2023 (vLLM) §3; Meta-Llama-3-8B config.json",
      .group = "kv.gqa",
      .statement = "A model has {n_layers:raw} layers with {n_kv_heads:raw} key/value heads of "
                   "width {head_dim:raw} ({n_heads:raw} query heads) and caches "
                   "{kv_bytes:raw}-byte values. After its weights, {free} of GPU memory is left. "
                   "Does the cache of {batch:raw} sequences of {seq_len} tokens fit in it?",
      .params =
          [] {
            std::vector<Param> v = kv_params();
            v.push_back({"free", 60e9, {10e9, 20e9, 40e9, 60e9, 120e9}, unit::bytes});
            return v;
          }(),
      .derive = kv_shape,
      .valid =
          [](const Values& p) {
            const double r = 2 * p["n_layers"] * p["n_kv_heads"] * p["head_dim"] * p["kv_bytes"] *
                             p["seq_len"] * p["batch"] / p["free"];
            return r < 0.8 || r > 1.25;
          },
      .estimator = "infer.kv",
      .output = "bytes_total",
      .answer = [](const Values& p,
                   const Values& out) { return out["bytes_total"] <= p["free"] ? 1.0 : 0.0; },
      .unit = answer_in::yes_no(),
      .hints = {"The cache grows with every token of every sequence held at once.",
                "2 × layers × KV heads × head width × bytes × tokens × sequences, against the "
                "memory left."},
      .mistakes = {{"wrong_call",
                    "The cache is 2 × layers × KV heads × head width × bytes per token, times "
                    "every token of every sequence; compare that total with the memory left.",
                    [](const Values& p, const Values& out) {
                      return out["bytes_total"] <= p["free"] ? 0.0 : 1.0;
                    },
                    0}},
      .explain = "Compare the cache for the batch (the last step) with the memory left: yes if "
                 "it is no larger.",
      .difficulty = 2,
      .tags = "KV cache,memory,conceptual",
  });

  bank.add({
      .id = "infer.kv.mla_saving",
      .area = "inference",
      .title = "What latent attention saves",
      .source = "DeepSeek-AI 2024 (DeepSeek-V2) §2.1: MLA caches a d_c = 512 latent and a 64-wide "
                "RoPE key per layer; DeepSeek-V3 has 128 heads of 128",
      .statement = "A model with multi-head latent attention caches, per token and layer, a "
                   "latent of {latent_dim:raw} and a RoPE key of {rope_dim:raw}. It has "
                   "{n_heads:raw} heads of width {head_dim:raw}. How many times smaller is its "
                   "cache than multi-head attention's (a key and a value per head)?",
      .fixed_statement = "DeepSeek-V3 caches, per token and layer, a latent of {latent_dim:raw} "
                         "and a RoPE key of {rope_dim:raw}; it has {n_heads:raw} heads of width "
                         "{head_dim:raw}. How many times smaller is its cache than multi-head "
                         "attention's (a key and a value per head)?",
      .params = {{"latent_dim", 512, {256, 384, 512, 1024}},
                 {"rope_dim", 64, {32, 64}},
                 {"n_heads", 128, {16, 32, 64, 128}},
                 {"head_dim", 128, {64, 128}},
                 {"n_layers", 61},
                 {"n_kv_heads", 0}},
      .estimator = "infer.kv",
      .output = "reduction_vs_mha",
      .unit = answer_in::count(unit::times, "×"),
      .hints = {"Both caches have the same layers and tokens: compare one token in one layer.",
                "MHA: 2 × heads × head width; MLA: latent + RoPE key."},
      .mistakes = {{"forgot_rope_key",
                    "MLA caches the decoupled RoPE key beside the latent: it adds to the "
                    "cache.",
                    [](const Values& p, const Values&) {
                      return 2 * p["n_heads"] * p["head_dim"] / p["latent_dim"];
                    },
                    0},
                   {"keys_only",
                    "Multi-head attention caches a key and a value per head: 2 × heads × width.",
                    [](const Values&, const Values& out) { return out["reduction_vs_mha"] / 2; },
                    0}},
      .difficulty = 2,
      .tags = "KV cache,attention",
  });
}

// ---- a decode step on the roofline --------------------------------------------------------
// One decode step of a released model in BF16 at a batch: the matmuls' FLOPs (forward FLOPs
// per token at no context, times the batch) and one read of every weight.
void step_work(Values& p) {
  accelerator_of_preset(p);
  const Model& m = model_at(dense_model_presets(), p);
  p.set("params", model_params(m).total);
  p.set("flops", p["batch"] * forward_flops_per_token(m, 0, true));
  p.set("bytes", weight_bytes(m, 2, false));
}

std::vector<Param> step_params() {
  return {{"model", index_of(dense_model_presets(), "llama3-8b"),
           indices(dense_model_presets().size())},
          {"gpu", gpu_index("h100"), indices(accelerator_presets().size())},
          {"batch", 64, {1, 4, 16, 64, 256, 1024}},
          {"params", 0, {}, unit::params},
          {"flops", 0, {}, unit::flop},
          {"bytes", 0, {}, unit::bytes},
          {"peak_flops", 0, {}, unit::flops},
          {"mem_bandwidth", 0, {}, unit::bytes_per_s},
          {"gpu_memory", 0, {}, unit::bytes}};
}

Json step_inputs(const Values& p) {
  Json j = Json::object();
  for (const char* k : {"peak_flops", "mem_bandwidth", "flops", "bytes"}) j.set(k, p[k]);
  return j;
}

// Far enough from the ridge that the comparison, not rounding, decides compute- or memory-bound.
bool clear_of_ridge(const Values& p) {
  const double r = (p["flops"] / p["bytes"]) / (p["peak_flops"] / p["mem_bandwidth"]);
  return r < 0.7 || r > 1.4;
}

void roofline(ProblemBank& bank) {
  bank.add({
      .id = "hw.roofline.step_time",
      .area = "inference",
      .title = "The shortest a decode step can take",
      .source = "Williams et al. 2009 (roofline); Pope et al. 2022 §2: decode reads every weight "
                "per step; NVIDIA H100 SXM: 989.4 TFLOP/s BF16, 3.35 TB/s",
      .group = "roofline.step",
      .statement = "A decode step of a {params}-parameter model in BF16 at batch {batch:raw} does "
                   "{flops} of matmuls and reads {bytes} of weights (ignore the KV cache) on a "
                   "GPU with {peak_flops} and {mem_bandwidth}. What is the shortest the step "
                   "can take?",
      .params = step_params(),
      .derive = step_work,
      .valid = clear_of_ridge,
      .estimator = "hw.roofline",
      .inputs = step_inputs,
      .output = "time",
      .unit = answer_in::ms(),
      .hints = {"The GPU computes and streams memory at the same time: the slower of the two "
                "sets the pace.",
                "t = max(FLOPs / peak, bytes / bandwidth)."},
      .mistakes = {{"added_both",
                    "Compute and memory traffic overlap; the step takes the longer of the two, "
                    "not their sum.",
                    [](const Values&, const Values& out) {
                      return out["compute_time"] + out["memory_time"];
                    },
                    0},
                   {"wrong_side",
                    "That is the shorter of the two times; the step waits for the longer.",
                    [](const Values&, const Values& out) {
                      return std::min(out["compute_time"], out["memory_time"]);
                    },
                    0}},
      .difficulty = 1,
      .tags = "roofline,decode",
  });

  bank.add({
      .id = "hw.roofline.step_bound",
      .area = "inference",
      .title = "Is this decode step compute-bound?",
      .source = "Williams et al. 2009 (roofline); Pope et al. 2022 §2",
      .group = "roofline.step",
      .statement = "A decode step of a {params}-parameter model in BF16 at batch {batch:raw} does "
                   "{flops} of matmuls and reads {bytes} of weights (ignore the KV cache) on a "
                   "GPU with {peak_flops} and {mem_bandwidth}. Is the step compute-bound?",
      .params = step_params(),
      .derive = step_work,
      .valid = clear_of_ridge,
      .estimator = "hw.roofline",
      .inputs = step_inputs,
      .output = "time",
      .answer =
          [](const Values&, const Values& out) {
            return out["compute_time"] > out["memory_time"] ? 1.0 : 0.0;
          },
      .unit = answer_in::yes_no(),
      .hints = {"Compare the step's FLOPs per byte with the GPU's.",
                "Intensity = FLOPs / bytes (about the batch size here); compute-bound above "
                "peak / bandwidth."},
      .mistakes = {{"wrong_call",
                    "Each weight (2 bytes) does 2 FLOPs per sequence, so the intensity is about "
                    "the batch; the step is compute-bound only above peak / bandwidth, about "
                    "300 FLOP per byte on an H100.",
                    [](const Values&, const Values& out) {
                      return out["compute_time"] > out["memory_time"] ? 0.0 : 1.0;
                    },
                    0}},
      .explain = "The step is compute-bound when its compute time is the longer of the two, "
                 "which is when its FLOPs per byte exceed peak / bandwidth.",
      .difficulty = 2,
      .tags = "roofline,decode,batching,conceptual",
  });
}

// ---- speculative decoding and a replica's weights -----------------------------------------
void speculative(ProblemBank& bank) {
  bank.add({
      .id = "serve.speculative.tpot",
      .area = "inference",
      .title = "Time per token with a draft model",
      .source = "Leviathan et al. 2023, eq. 1 and Theorem 3.8; Llama 3 8B drafting for Llama 3 "
                "70B (8.03B / 70.55B = 0.114 of a step)",
      .statement = "Llama 3 70B decodes at {tpot} per token. Llama 3 8B drafts {draft_len:raw} "
                   "tokens per target step (a draft step costs 0.114 of a target step: both read "
                   "their weights once), each accepted with probability {acceptance_rate}, up to "
                   "the first rejection, after which the target adds one. What is the time per "
                   "output token now?",
      .params = {{"tpot", 0.03, {0.012, 0.02, 0.03, 0.045, 0.06}},
                 {"draft_len", 4, {2, 3, 4, 5, 6, 8}},
                 {"acceptance_rate", 0.8, {0.6, 0.7, 0.8, 0.9}},
                 {"params", 70553706496},
                 {"draft_params", 8030261248}},
      .estimator = "serve.speculative",
      .output = "tpot_speculative",
      .unit = answer_in::ms(),
      .hints = {"A cycle costs k draft steps plus one target step and yields more than one "
                "token on average.",
                "Tokens per cycle E = (1 − α^(k+1)) / (1 − α); TPOT' = TPOT × (k·c + 1) / E."},
      .mistakes = {{"free_draft",
                    "The draft's k steps cost time too: k × 0.114 of a target step per cycle.",
                    [](const Values& p, const Values& out) {
                      return p["tpot"] / out["expected_tokens_per_step"];
                    },
                    0},
                   {"all_accepted",
                    "Not every drafted token survives: the cycle yields (1 − α^(k+1)) / (1 − α) "
                    "tokens on average, not k + 1.",
                    [](const Values& p, const Values& out) {
                      return p["tpot"] * (p["draft_len"] * out["cost_ratio"] + 1) /
                             (p["draft_len"] + 1);
                    },
                    0}},
      .difficulty = 2,
      .tags = "speculative decoding,decode,latency",
  });

  bank.add({
      .id = "serve.engine.weights_per_gpu",
      .area = "inference",
      .title = "Weights per GPU of a tensor-parallel replica",
      .source = "Meta-Llama-3 8B / 70B / 3.1-405B config.json; Shoeybi et al. 2019 "
                "(Megatron-LM) §3: TP splits every weight matrix",
      .statement = "A {params}-parameter dense model is served with {weight_bytes:raw}-byte "
                   "weights on {tp:raw} GPUs with tensor parallelism. How much weight memory "
                   "does each GPU hold?",
      .fixed_statement = "Llama 3 70B ({params} parameters) is served with {weight_bytes:raw}-byte "
                         "weights on {tp:raw} GPUs with tensor parallelism. How much weight "
                         "memory does each GPU hold?",
      .params = {{"model",
                  index_of(dense_model_presets(), "llama3-70b"),
                  {index_of(dense_model_presets(), "llama3-8b"),
                   index_of(dense_model_presets(), "llama3-70b"),
                   index_of(dense_model_presets(), "llama3-405b")}},
                 {"params", 0, {}, unit::params},
                 {"tp", 4, {1, 2, 4, 8}},
                 {"weight_bytes", 2, {1, 2}}},
      .derive =
          [](Values& p) {
            p.set("params", model_params(model_at(dense_model_presets(), p)).total);
          },
      .estimator = "serve.engine",
      .inputs =
          [](const Values& p) {
            Json j = Json::object();
            const double i = p["model"];
            j.set("model", std::string(dense_model_presets()[static_cast<std::size_t>(i)]->id));
            j.set("gpu", "h200");
            j.set("tp", p["tp"]);
            j.set("weight_dtype", p["weight_bytes"] == 1 ? "fp8" : "bf16");
            return j;
          },
      .output = "weights_per_gpu",
      .unit = answer_in::gb(),
      .hints = {"Tensor parallelism gives each GPU a slice of every weight matrix.",
                "Parameters × bytes per weight / TP."},
      .mistakes =
          {{"not_split", "Each GPU holds only its 1/TP slice of every matrix.",
            [](const Values& p, const Values& out) { return out["weights_per_gpu"] * p["tp"]; }, 0},
           {"one_byte_per_weight", "Count the stated bytes per weight: BF16 is 2, FP8 is 1.",
            [](const Values& p, const Values& out) {
              return out["weights_per_gpu"] / p["weight_bytes"];
            },
            0}},
      .variety = 6,
      .difficulty = 1,
      .tags = "memory,tensor parallel,quantization",
  });
}

}  // namespace

void register_serving_problems(ProblemBank& bank) {
  kv_cache(bank);
  roofline(bank);
  speculative(bank);
}

}  // namespace napkin
