// Training compute, time, utilization, parameter and FLOP counts, MoE sizes.
// Sources are cited above each formula in training.cpp and in docs/training.md.
#pragma once

#include <string>

#include "registry/registry.hpp"

namespace napkin {

struct ChinchillaIn {
  double params = 70e9;
  double tokens_per_param = 20;
  double tokens = 0;         // tokens actually trained on; 0 = not given
  double compute_flops = 0;  // a compute budget; 0 = not given
};
struct ChinchillaOut {
  double optimal_tokens, compute_flops, tokens_per_param_actual, optimal_params_for_budget,
      optimal_tokens_for_budget;
};
Result<ChinchillaOut> train_chinchilla(const ChinchillaIn& in, Derivation& d);

struct TrainTimeIn {
  double params = 70e9;
  double tokens = 2e12;
  double gpus = 512;
  double peak_flops = 990e12;
  double mfu = 0.5;
  double flops_per_param_token = 6;
  double price_per_gpu_hour = 0;
};
struct TrainTimeOut {
  double total_flops, cluster_flops, seconds, hours, days, gpu_hours, cost;
};
Result<TrainTimeOut> train_time(const TrainTimeIn& in, Derivation& d);

struct TrainMfuIn {
  double params = 540.35e9;
  double tokens_per_second = 238.3e3;
  double gpus = 6144;
  double peak_flops = 275e12;
  double n_layers = 118;
  double d_model = 18432;
  double seq_len = 2048;
  double attention_dim = 12288;  // heads × head_dim; 0 = d_model
  std::string recompute = "none";
};
struct TrainMfuOut {
  double flops_per_token, hardware_flops_per_token, achieved_flops, mfu, hfu;
};
Result<TrainMfuOut> train_mfu(const TrainMfuIn& in, Derivation& d);

struct ModelParamsIn {
  double d_model = 12288;
  double n_layers = 96;
  double d_ff = 0;  // 0 = 4·d (mlp) or LLaMA's 8d/3 rounded up to 256 (swiglu)
  double vocab = 50257;
  double n_heads = 96;
  double n_kv_heads = 0;  // 0 = n_heads (multi-head attention)
  double head_dim = 0;    // 0 = d_model / n_heads
  std::string ffn = "mlp";
  bool attention = true;
  bool tied_embeddings = true;
  bool biases = false;
  bool norms = false;    // LayerNorm/RMSNorm gains: 2·d per block + d final
  double positions = 0;  // learned position embeddings (GPT-3: 2048)
};
struct ModelParamsOut {
  double params, non_embedding_params, attention_params, ffn_params, embedding_params,
      per_layer_params, d_ff;
};
Result<ModelParamsOut> model_params(const ModelParamsIn& in, Derivation& d);

struct ModelFlopsIn {
  double d_model = 12288;
  double n_layers = 96;
  double seq_len = 1;
  double vocab = 50000;
  double d_ff = 0;
  bool include_attention = false;
  double params = 0;  // 0 = estimate from the shapes
};
struct ModelFlopsOut {
  double fwd_flops_per_layer, fwd_flops, bwd_flops, step_flops, ratio_to_6n, params_used;
};
Result<ModelFlopsOut> model_flops(const ModelFlopsIn& in, Derivation& d);

struct MoeParamsIn {
  double shared_params = 5e9;
  double num_experts = 8;
  double expert_params = 7e9;
  double top_k = 2;
  double tokens_per_param = 20;
};
struct MoeParamsOut {
  double total_params, active_params, active_fraction, optimal_tokens;
};
Result<MoeParamsOut> moe_params(const MoeParamsIn& in, Derivation& d);

}  // namespace napkin
