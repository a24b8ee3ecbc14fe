// serve.engine: one replica of a continuous-batching engine (vLLM, SGLang, TensorRT-LLM) on
// TP × PP GPUs: KV-cache capacity, the largest batch, TTFT, time per output token and
// throughput from a roofline per step. Sources above each formula in serve_engine.cpp and in
// docs/serving.md.
#pragma once

#include <cstddef>
#include <iterator>
#include <string>
#include <vector>

#include "base/units.hpp"
#include "registry/registry.hpp"
#include "scenario/cluster.hpp"
#include "scenario/gpu_figures.hpp"
#include "scenario/model_inputs.hpp"

namespace napkin {

// The model is the shared one (SizedModelInputs: Llama 3 70B's shape, the llama3-70b preset;
// params and active_params 0 = the shape's counts).
struct ServeEngineIn : SizedModelInputs {
  // Older names for an MoE's counts, kept working: with either given (and active_params not),
  // the active weights are shared + top_k × expert. A model preset gives both.
  double expert_params = 0;  // one expert's weights summed over layers
  double shared_params = 0;  // weights every token uses
  // Accelerator: H100 SXM (NVIDIA datasheet, the h100 preset).
  double peak_flops = figures::h100_bf16, peak_fp8 = figures::h100_fp8,
         peak_int8 = figures::h100_fp8;
  double mem_bandwidth = figures::h100_hbm_bandwidth, gpu_memory = figures::h100_memory;
  // What its GEMMs reach by shape (core/scenario/gemm.hpp): SMs and the measured best GEMMs.
  double sms = 132, matmul_fraction = kH100MatmulFraction,
         matmul_fraction_fp8 = kH100Fp8MatmulFraction;
  // Layout and precision.
  int tp = 4, pp = 1;
  std::string weight_dtype = "bf16", kv_dtype = "bf16";
  double group_size = 128;
  // Engine.
  // How the decode attention kernel reads the cache: "grouped" (each KV head once per step, as
  // vLLM's, SGLang's and TensorRT-LLM's XQA kernels do) or "per_head" (once per query head, as
  // TensorRT-LLM's masked multi-head kernel before v0.8).
  std::string decode_attention = "grouped";
  double memory_utilization = 0.9;  // vLLM's gpu_memory_utilization
  double runtime_memory = 0;        // bytes per GPU outside tensors; 0 = vLLM's measured, by TP
  double block_size = 16;           // tokens per paged KV block (vLLM's default)
  bool chunked_prefill = true;
  double chunk_tokens = 2048;  // prefill tokens mixed into one step
  // compute_efficiency 0: each step's matmuls at the share their shapes reach (layer_gemms.hpp).
  double compute_efficiency = 0, bandwidth_efficiency = figures::engine_bandwidth_share;
  // The link between a replica's TP ranks (H100 NVLink 4 and what NCCL achieves on it,
  // core/scenario/cluster.cpp): each layer's two all-reduces of the step's activations.
  double intra_bandwidth = 450e9, intra_latency = 3e-6,
         intra_efficiency = figures::nvlink4_ring_share, launch_latency = figures::nccl_launch;
  bool tp_communication = true;  // false: the roofline alone, as the Scaling Book's examples
  bool kernel_overheads = true;  // false: no kernels between the matmuls, no launch costs
  // The engine's own work per step that the GPU waits for (scheduling, preparing inputs,
  // sampling, detokenizing when not overlapped with the step): 0 = overlapped.
  double step_overhead = 0;
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
  // Prefix caching: the shared prefix (whole blocks), the tokens a request finds cached in
  // expectation, and the per-request times of a hit and of a miss (their mean is ttft,
  // prefill_time, prefill_flops; a side no request takes repeats the other's).
  double shared_tokens, cached_tokens, kv_tokens_used, prefill_flops, prefill_time,
      prefill_time_hit, prefill_time_miss, ttft_hit, ttft_miss, kv_per_token_gpu;
};

// The share of the math's peak a replica's matmuls reach for a step of `tokens` tokens on one
// stage: compute_efficiency when given, else the GEMMs' shapes on one TP rank (layer_gemms.hpp).
// `model` is the replica's sized model; the peak is the weights' math path (math_peak).
struct Model;
double engine_matmul_share(const ServeEngineIn& in, const Model& model, double tokens);

// The inputs of one replica, declared once (serve_engine.cpp) for every estimator built on
// serve_engine (its input struct derives from ServeEngineIn): the model, the GPU, the layout,
// the engine's settings, the request lengths and the shared prefix. `batch` is left to each
// estimator: it means different things to them. Inserted after the first `at` inputs of a
// declared estimator, like the model inputs (one copy in wasm for every estimator); `via`
// reaches the ServeEngineIn inside the estimator's struct.
void insert_engine_inputs(Estimator& e, std::size_t at, const void* defaults, const Via& via);

template <class In>
Estimator with_engine_inputs(Estimator e, std::size_t at = 0) {
  const In defaults{};
  insert_engine_inputs(e, at, &defaults, Via{}.then(&base_at<In, ServeEngineIn>));
  return e;
}

// Inserts declarations made over a base struct into an estimator over a struct that derives
// from it (`via` reaches the base), their defaults read from `defaults` (non-template: one copy).
void insert_rows(Estimator& e, std::size_t at, const std::vector<InputRow>& rows,
                 const void* defaults, const Via& via);
template <class B>
void insert_decls(Estimator& e, std::size_t at, const std::vector<InputDecl<B>>& decls,
                  const void* defaults, const Via& via) {
  insert_rows(e, at, std::vector<InputRow>(decls.begin(), decls.end()), defaults, via);
}

Result<ServeEngineOut> serve_engine(const ServeEngineIn& in, Derivation& d);

void register_serve_engine(Registry& r);

}  // namespace napkin
