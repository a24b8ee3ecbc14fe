// Training compute, time, utilization, parameter and FLOP counts, MoE sizes.
// Sources are cited above each formula in training.cpp and in docs/training.md.
#pragma once

#include <string>

#include "registry/registry.hpp"
#include "scenario/gpu_figures.hpp"
#include "scenario/model_inputs.hpp"

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
  double peak_flops = figures::h100_bf16;
  double mfu = 0.5;
  double flops_per_param_token = 6;
  double price_per_gpu_hour = 0;
  double gpu_power = 700;  // W per accelerator (H100 SXM's TDP); 0 = no energy figures
  double pue = 1.1;        // facility energy ÷ IT energy
};
struct TrainTimeOut {
  double total_flops, cluster_flops, seconds, hours, days, gpu_hours, cost, gpu_energy,
      facility_energy;
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

// model.params and model.flops take the shared shape inputs (scenario/model_inputs.hpp). Their
// defaults are GPT-3 175B's shapes as the worked examples count them (Brown et al. 2020, Table
// 2.1: 96 blocks of 12,288, 96 heads, a 4·d MLP, tied embeddings), without biases, norms or
// positions: the 12·L·d² rule. A model preset gives the full count.
struct ModelParamsIn : ModelInputs {
  ModelParamsIn() {
    layers = 96, heads = 96, kv_heads = 0, d_model = 12288, head_dim = 0, d_ff = 0;
    ffn = "mlp", vocab = 50257, tied_embeddings = true;
  }
  bool attention = true;  // off: FFN-only blocks (no attention projections)
  bool norms = false;     // count the norm layers' gains (norms_per_layer of them per block)
};
struct ModelParamsOut {
  double params, active_params, non_embedding_params, attention_params, ffn_params,
      embedding_params, per_layer_params, d_ff, ffn_total_params, ffn_active_params, norm_params;
};
Result<ModelParamsOut> model_params(const ModelParamsIn& in, Derivation& d);

struct ModelFlopsIn : ModelInputs {
  ModelFlopsIn() {
    layers = 96, heads = 96, kv_heads = 0, d_model = 12288, head_dim = 0, d_ff = 0;
    ffn = "mlp", vocab = 50000, tied_embeddings = true;
    norms_per_layer = 0;  // the 24·d² per block convention counts the matrices only
  }
  double seq_len = 1;
  bool include_attention = false;
  bool causal = true;  // each token attends to the tokens before it: half a sequence on average
  double params = 0;   // N for the 6N rule; 0 = the active non-embedding weights
};
struct ModelFlopsOut {
  double forward_flops_per_token, attention_flops_per_token, fwd_flops_per_layer, bwd_flops,
      step_flops, active_params, params_used, ratio_to_6n;
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
