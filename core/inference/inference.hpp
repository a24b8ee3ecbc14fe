// LLM inference: end-to-end latency (the study notes' model; docs/inference.md), KV-cache size
// (MHA/GQA/MQA/MLA) and the roofline of one decode step. Sources are cited above each formula in
// inference.cpp and in docs/inference.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "inference/moe_counts.hpp"
#include "registry/registry.hpp"
#include "scenario/gpu_figures.hpp"
#include "scenario/model_inputs.hpp"

namespace napkin {

// The model's shape and counts are the shared ones (SizedModelInputs: default Llama 3 70B, whose
// parameters the shape counts); a model preset fills them.
struct InferLatencyIn : SizedModelInputs {
  double prompt_len = 100;
  double gen_len = 50;
  double batch = 1;
  double peak_flops = figures::h100_bf16;
  double mem_bandwidth = figures::h100_hbm_bandwidth;
  // Shares of peak an engine's kernels reach (serve.engine's defaults); 1 and 1: the ideal.
  double compute_efficiency = figures::serving_compute_share;
  double bandwidth_efficiency = figures::serving_bandwidth_share;
  double weight_bytes = 2;
  double kv_bytes = 2;
  std::string decode_model = "roofline";     // roofline | weights (the worked example's model)
  double gpu_memory = figures::h100_memory;  // only for the "does it fit" warning
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
      mha_bytes_per_token = not_given, reduction_vs_mha = not_given;  // only when n_heads > 0
  std::string attention;
};
Result<InferKvOut> infer_kv(const InferKvIn& in, Derivation& d);

struct InferDecodeIn : MoeCounts {
  double params = 70e9;
  double weight_bytes = 2;
  bool weight_only = true;  // below 2 bytes: INT8/INT4 weights dequantized in the kernel
  double batch = 1;
  double context = 4096;
  double kv_bytes_per_token = 327680;  // LLaMA-2-70B: 2·80·8·128·2
  double chips = 1;
  double mem_bandwidth = figures::h100_hbm_bandwidth;
  double peak_flops = figures::h100_bf16;
  double compute_efficiency = figures::serving_compute_share;
  double bandwidth_efficiency = figures::serving_bandwidth_share;
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
