// serve.engine: one replica of a continuous-batching engine (vLLM, SGLang, TensorRT-LLM) on
// TP × PP GPUs: KV-cache capacity, the largest batch, TTFT, time per output token and
// throughput from a roofline per step. Sources above each formula in serve_engine.cpp and in
// docs/serving.md.
#pragma once

#include <string>
#include <vector>

#include "base/units.hpp"
#include "registry/registry.hpp"

namespace napkin {

struct ServeEngineIn {
  // Model: Llama 3 70B's shape (the llama3-70b preset; Grattafiori et al. 2024, Table 3).
  double params = 70553706496;
  double n_layers = 80, d_model = 8192, n_heads = 64, n_kv_heads = 8, head_dim = 128, d_ff = 28672;
  double latent_dim = 0, rope_dim = 0;  // MLA's cached latent and RoPE key widths; 0 = GQA/MHA
  double experts = 0, top_k = 0;        // routed experts per MoE layer (0 = dense), per token
  double expert_params = 0;             // one expert's weights summed over layers
  double shared_params = 0;             // weights every token uses (MoE only)
  // Accelerator: H100 SXM (NVIDIA datasheet, the h100 preset).
  double peak_flops = 989.4e12, peak_fp8 = 1978.9e12, peak_int8 = 1978.9e12;
  double mem_bandwidth = 3.35e12, gpu_memory = 80.0 * 1073741824.0;
  // Layout and precision.
  int tp = 4, pp = 1;
  std::string weight_dtype = "bf16", kv_dtype = "bf16";
  double group_size = 128;
  // Engine.
  double memory_utilization = 0.9;  // vLLM's gpu_memory_utilization
  double block_size = 16;           // tokens per paged KV block (vLLM's default)
  bool chunked_prefill = true;
  double chunk_tokens = 2048;  // prefill tokens mixed into one step
  double compute_efficiency = 0.5, bandwidth_efficiency = 0.6;
  // Load.
  double prompt_len = 2048, output_len = 256;
  double batch = 0;  // concurrent sequences; 0 = the most the KV cache holds
  // Prefix caching: the share of each prompt that is a prefix shared by all requests, and the
  // share of requests that find it cached (0 = no prefix caching).
  double prefix_fraction = 0, prefix_hit_rate = 1;
};

struct ServeEngineOut {
  double weights_per_gpu, activations_per_gpu, kv_memory_per_gpu, kv_bytes_per_token,
      kv_capacity_tokens, max_batch, batch, ttft, tpot, decode_step, max_token_gap, request_time,
      tokens_per_second, tokens_per_second_per_gpu, crossover_batch, experts_touched, math_peak;
  std::string bound;
  // Not declared outputs; for the estimators built on this one (prefix cache, disaggregation).
  double cached_tokens, kv_tokens_used, prefill_flops, prefill_time, kv_per_token_gpu;
};

// The inputs of one replica, declared once for every estimator built on serve_engine (its
// input struct derives from ServeEngineIn): the model, the GPU, the layout, the engine's
// settings and the request lengths. `batch` is left to each estimator: it means different
// things to them.
template <class In>
std::vector<InputDecl<In>> serve_engine_inputs() {
  constexpr double kMaxTokens = 1e7;
  return {
      num<In, double>("params", &In::params, "Parameters", unit::params)
          .help("All weights, every expert included (they all sit in memory)")
          .positive(1e15)
          .group("model"),
      num<In, double>("n_layers", &In::n_layers, "Layers")
          .help("Transformer blocks")
          .positive(1e4)
          .integer()
          .group("model"),
      num<In, double>("d_model", &In::d_model, "Model width")
          .help("Hidden size, for the activation peak")
          .positive(1e6)
          .integer()
          .group("model"),
      num<In, double>("n_heads", &In::n_heads, "Attention heads")
          .help("Query heads; TP must divide them")
          .positive(1e4)
          .integer()
          .group("model"),
      num<In, double>("n_kv_heads", &In::n_kv_heads, "KV heads")
          .help("Heads of keys and values (GQA groups); split or replicated over TP")
          .positive(1e4)
          .integer()
          .group("model"),
      num<In, double>("head_dim", &In::head_dim, "Head width")
          .help("Size of one head")
          .positive(1e5)
          .integer()
          .group("model"),
      num<In, double>("d_ff", &In::d_ff, "FFN width")
          .help("FFN hidden size, for the activation peak")
          .positive(1e7)
          .integer()
          .group("model"),
      num<In, double>("latent_dim", &In::latent_dim, "MLA latent width (0 = not MLA)")
          .help("Multi-head latent attention caches this latent per layer (DeepSeek-V3: 512)")
          .range(0, 1e6)
          .integer()
          .group("model"),
      num<In, double>("rope_dim", &In::rope_dim, "MLA RoPE key width")
          .help("MLA's cached RoPE key width (DeepSeek-V3: 64)")
          .range(0, 1e5)
          .integer()
          .group("model"),
      num<In, double>("experts", &In::experts, "Routed experts (0 = dense)")
          .help("Experts per MoE layer; 0 for a dense model")
          .range(0, 1e5)
          .integer()
          .group("model"),
      num<In, double>("top_k", &In::top_k, "Experts per token")
          .help("Experts each token is routed to (MoE only)")
          .range(0, 1e4)
          .integer()
          .group("model"),
      num<In, double>("expert_params", &In::expert_params, "Parameters per expert", unit::params)
          .help("One expert's weights summed over layers (MoE only)")
          .range(0, 1e15)
          .group("model"),
      num<In, double>("shared_params", &In::shared_params, "Shared parameters", unit::params)
          .help("Weights every token uses: attention, embeddings, shared experts (MoE only)")
          .range(0, 1e15)
          .group("model"),
      num<In, double>("peak_flops", &In::peak_flops, "Peak BF16 FLOP/s per GPU", unit::flops)
          .help("Dense BF16 tensor peak, from the datasheet")
          .positive(1e17)
          .group("cluster"),
      num<In, double>("peak_fp8", &In::peak_fp8, "Peak FP8 FLOP/s per GPU", unit::flops)
          .help("Dense FP8 peak; 0 = no FP8 path (the math then runs at the BF16 peak)")
          .range(0, 1e17)
          .group("cluster"),
      num<In, double>("peak_int8", &In::peak_int8, "Peak INT8 OP/s per GPU", unit::flops)
          .help("Dense INT8 peak; 0 = no INT8 path")
          .range(0, 1e17)
          .group("cluster"),
      num<In, double>("mem_bandwidth", &In::mem_bandwidth, "Memory bandwidth", unit::bytes_per_s)
          .help("HBM bandwidth of one GPU")
          .positive(1e15)
          .group("cluster"),
      num<In, double>("gpu_memory", &In::gpu_memory, "GPU memory", unit::bytes)
          .help("HBM of one GPU")
          .range(1e8, 1e14)
          .group("cluster"),
      num<In, int>("tp", &In::tp, "Tensor parallel (TP)")
          .help("GPUs splitting each layer; must divide the heads")
          .range(1, 1024)
          .group("layout"),
      num<In, int>("pp", &In::pp, "Pipeline parallel (PP)")
          .help("Stages the layers are split into; must divide the layers")
          .range(1, 1024)
          .group("layout"),
      choice<In>("weight_dtype", &In::weight_dtype, "Weights",
                 {"bf16", "fp16", "fp8", "int8", "int4"})
          .labels({"BF16", "FP16", "FP8 (W8A8)", "INT8 (W8A8)", "INT4 (weight-only)"})
          .help("Storage of the weights; FP8 and INT8 also run the math at the 8-bit peak")
          .group("engine"),
      num<In, double>("group_size", &In::group_size, "INT4 group size (0 = per channel)")
          .help("Weights sharing one FP16 scale in INT4 (AWQ, GPTQ: 128)")
          .range(0, 1e6)
          .integer()
          .group("engine"),
      choice<In>("kv_dtype", &In::kv_dtype, "KV cache", {"bf16", "fp8", "int8"})
          .labels({"BF16", "FP8", "INT8"})
          .help("Storage of the cached keys and values")
          .group("engine"),
      num<In, double>("memory_utilization", &In::memory_utilization, "GPU memory used",
                      unit::fraction)
          .help("Share of GPU memory the engine may take (vLLM's default: 90 %)")
          .range(0.01, 1)
          .group("engine"),
      num<In, double>("block_size", &In::block_size, "KV block size", unit::tokens)
          .help("Tokens per paged KV block (vLLM: 16); a sequence fills whole blocks")
          .positive(1e5)
          .integer()
          .group("engine"),
      flag<In>("chunked_prefill", &In::chunked_prefill, "Chunked prefill")
          .help("Split prompts into chunks that ride along with decode steps")
          .group("engine"),
      num<In, double>("chunk_tokens", &In::chunk_tokens, "Tokens per step (chunk)", unit::tokens)
          .help("Prefill tokens one step takes with chunked prefill (vLLM: 2,048)")
          .positive(kMaxTokens)
          .integer()
          .group("engine"),
      num<In, double>("compute_efficiency", &In::compute_efficiency, "Matmul efficiency",
                      unit::fraction)
          .help("Share of peak FLOP/s the matmuls reach (prefill MFU)")
          .positive(1)
          .group("engine"),
      num<In, double>("bandwidth_efficiency", &In::bandwidth_efficiency, "Bandwidth efficiency",
                      unit::fraction)
          .help("Share of HBM bandwidth decode reaches (memory-bandwidth utilization)")
          .positive(1)
          .group("engine"),
      num<In, double>("prompt_len", &In::prompt_len, "Prompt length", unit::tokens)
          .help("Tokens in each request's prompt (the mean, where prompts vary)")
          .positive(kMaxTokens)
          .integer()
          .group("job"),
      num<In, double>("output_len", &In::output_len, "Output length", unit::tokens)
          .help("Tokens generated per request (the mean, where outputs vary)")
          .positive(kMaxTokens)
          .integer()
          .group("job"),
      num<In, double>("prefix_fraction", &In::prefix_fraction, "Shared prompt prefix",
                      unit::fraction)
          .help("Share of each prompt every request shares (a system prompt); 0 = none")
          .range(0, 1)
          .group("job"),
      num<In, double>("prefix_hit_rate", &In::prefix_hit_rate, "Prefix cache hit rate",
                      unit::fraction)
          .help("Share of requests that find the shared prefix in the cache")
          .range(0, 1)
          .group("job")};
}

Result<ServeEngineOut> serve_engine(const ServeEngineIn& in, Derivation& d);

void register_serve_engine(Registry& r);

}  // namespace napkin
