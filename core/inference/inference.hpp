// LLM inference: end-to-end latency (seed 001), KV-cache size (MHA/GQA/MQA/MLA) and the
// roofline of one decode step. Sources are cited above each formula in inference.cpp and in
// docs/inference.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "inference/moe_counts.hpp"
#include "registry/registry.hpp"

namespace napkin {

// The attention shape that sets the KV cache per token, for estimators that take a model's
// size and depth rather than its whole shape (infer.latency, serve.llm_gpus). 0 heads is the
// worked example's multi-head cache, 2·L·d per token.
struct KvShape {
  double n_layers = 80;
  double d_model = 8192;
  double n_heads = 0;     // 0 = unknown: the seed's MHA cache, 2·L·d per token
  double n_kv_heads = 0;  // 0 = n_heads (MHA)
  double head_dim = 0;    // 0 = d_model / n_heads (Gemma 2 9B: 256, not 3584 / 16)
  double latent_dim = 0;  // MLA: cache L·(latent_dim + rope_dim) elements per token instead
  double rope_dim = 0;
};

// Those inputs, declared once for every estimator whose input struct derives from KvShape.
template <class In>
std::vector<InputDecl<In>> kv_shape_inputs() {
  return {num<In, double>("n_layers", &In::n_layers, "Layers L")
              .help("Transformer blocks, for the KV cache")
              .range(1, 1e4)
              .integer(),
          num<In, double>("d_model", &In::d_model, "Model width d")
              .help("Hidden size, for the KV cache")
              .range(1, 1e6)
              .integer(),
          num<In, double>("n_heads", &In::n_heads, "Attention heads (0 = MHA cache 2·L·d)")
              .help("Attention heads; 0 assumes a full multi-head cache of 2·L·d")
              .range(0, 1e4)
              .integer(),
          num<In, double>("n_kv_heads", &In::n_kv_heads, "KV heads (0 = as many as query heads)")
              .range(0, 1e4)
              .integer()
              .help("GQA: LLaMA-2-70B has 64 query heads and 8 KV heads"),
          num<In, double>("head_dim", &In::head_dim, "Head width (0 = model width ÷ heads)")
              .range(0, 1e5)
              .integer()
              .help("Per-head width; Gemma 2 9B uses 256 with 16 heads of a 3,584-wide model"),
          num<In, double>("latent_dim", &In::latent_dim, "MLA latent width (0 = not MLA)")
              .range(0, 1e6)
              .integer()
              .help("DeepSeek-V2/V3: 512; replaces the per-head cache"),
          num<In, double>("rope_dim", &In::rope_dim, "MLA RoPE key width")
              .help("MLA's decoupled RoPE key width (0 = not MLA)")
              .range(0, 1e5)
              .integer()};
}

// The shape's cross-input checks (an error naming the input), and a warning for each width the
// cache formula in use does not read.
std::optional<Error> check_kv_shape(const KvShape& in, Derivation& d);

struct InferLatencyIn : KvShape, MoeCounts {
  double params = 70e9;
  double prompt_len = 100;
  double gen_len = 50;
  double batch = 1;
  double peak_flops = 990e12;
  double mem_bandwidth = 3.35e12;
  double weight_bytes = 2;
  double kv_bytes = 2;
  std::string decode_model = "roofline";  // roofline | weights (seed 001's model)
  double gpu_memory = 80e9;               // only for the "does it fit" warning
};
struct InferLatencyOut {
  double prefill_time, decode_time_per_token, decode_time, total_time, tokens_per_second,
      kv_bytes_per_token, kv_bytes_per_sequence, kv_bytes_total, prefill_flops, weights_memory,
      memory_needed, active_params;
  std::string decode_bound;
};
Result<InferLatencyOut> infer_latency(const InferLatencyIn& in, Derivation& d);

struct InferKvIn {
  double n_layers = 80;
  double n_kv_heads = 8;
  double head_dim = 128;
  double kv_bytes = 2;
  double seq_len = 4096;
  double batch = 1;
  double latent_dim = 0;  // MLA compressed KV width d_c; 0 = not MLA
  double rope_dim = 0;    // MLA decoupled RoPE key width d_h^R
  double n_heads = 0;     // query heads, for the comparison with MHA; 0 = unknown
};
struct InferKvOut {
  double bytes_per_token, bytes_per_sequence, bytes_total, elements_per_token_per_layer,
      mha_bytes_per_token, reduction_vs_mha;
  std::string attention;
};
Result<InferKvOut> infer_kv(const InferKvIn& in, Derivation& d);

struct InferDecodeIn : MoeCounts {
  double params = 70e9;
  double weight_bytes = 2;
  double batch = 1;
  double context = 4096;
  double kv_bytes_per_token = 327680;  // LLaMA-2-70B: 2·80·8·128·2
  double chips = 1;
  double mem_bandwidth = 3.35e12;
  double peak_flops = 990e12;
};
struct InferDecodeOut {
  double step_time, tokens_per_second, weight_time, kv_time, compute_time, memory_time,
      crossover_batch, memory_per_chip, weights_read, experts_touched;
  std::string bound;
};
Result<InferDecodeOut> infer_decode(const InferDecodeIn& in, Derivation& d);

// Charts and presets of the inference, serving and RL estimators (inference_presets.cpp).
void register_inference_extras(Registry& r);

}  // namespace napkin
