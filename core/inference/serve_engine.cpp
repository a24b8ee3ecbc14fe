// serve.engine: one replica of a continuous-batching engine. Memory follows vLLM's accounting
// (Kwon et al. 2023, PagedAttention: weights, a profiled activation peak, the rest of
// gpu_memory_utilization as paged KV blocks); time follows the Scaling Book's roofline per
// decode step (Austin et al. 2025, "Serving LLaMA 3-70B": the KV read is always bandwidth-
// bound, the weight read and the matmul FLOPs overlap); prefill mixes into decode steps as in
// Sarathi-Serve (Agrawal et al. 2024). Every model quantity comes from core/scenario.
#include "inference/serve_engine.hpp"

#include <algorithm>
#include <cmath>

#include "base/counts.hpp"
#include "base/units.hpp"
#include "scenario/accelerator_inputs.hpp"
#include "scenario/cluster.hpp"
#include "scenario/collective.hpp"
#include "scenario/layer_gemms.hpp"
#include "scenario/model.hpp"
#include "scenario/replica.hpp"
#include "scenario/training_memory.hpp"

namespace napkin {

namespace {

Dtype weight_dtype_of(const std::string& s) {
  return s == "fp8"    ? Dtype::Fp8
         : s == "fp16" ? Dtype::Fp16
         : s == "int8" ? Dtype::Int8
         : s == "int4" ? Dtype::Int4
                       : Dtype::Bf16;
}

std::string count_text(double v) {
  return format_value(v, unit::none);
}

// The pieces of one step, per GPU, before the roofline combines them.
struct Engine {
  Model m;
  double gpus = 1, tp = 1, pp = 1;
  double bytes_w = 2, active = 0, total = 0;
  double kv_tok_gpu = 0;  // cache bytes per token one GPU holds (its layers, its KV heads)
  double kv_reads = 1;    // times a decode step reads each cached byte (decode_attention)
  double peak = 0, bw_rate = 0;
  double fixed_share = 0;  // compute_efficiency as given; 0 = by the GEMMs' shapes
  GemmMachine gemm;        // for those shapes (core/scenario/gemm.hpp)
  double math_bytes = 2;   // bytes per operand the matmuls read (FP8/INT8 W8A8: 1)
  double w_share = 1;      // the weights' streaming share of bw_rate (quantized kernels dequantize)
  Tier link;               // between the TP ranks
  bool communicate = true;
  bool elementwise_on = true;
  bool kernels_on = true;

  // The matmuls' share of the peak for a step of `tokens` tokens on one stage: as given, or the
  // share the layer's GEMMs reach at that many rows on one TP rank (layer_gemms.hpp).
  // A step asks for the same few token counts again and again (the batch, a prompt, a chunk):
  // the last ones are kept.
  struct Cached {
    double tokens = -1;
    GemmShare share;
  };
  mutable Cached cache[4];
  mutable int cache_next = 0;
  GemmShare gemms(double tokens) const {
    const double t = std::max(1.0, tokens);
    for (const Cached& c : cache)
      if (c.tokens == t) return c.share;
    const GemmShare s = forward_gemm_share(m, t, static_cast<int>(tp), math_bytes, gemm);
    cache[cache_next] = {t, s};
    cache_next = (cache_next + 1) % 4;
    return s;
  }
  double share(double tokens) const {
    if (fixed_share > 0) return fixed_share;
    const GemmShare s = gemms(tokens);
    return s.share > 0 ? s.share : 1;
  }
  // The derivation's step for that share, when it comes from the shapes.
  void show_share(Derivation& d, const char* what, double tokens) const {
    if (fixed_share > 0) return;
    const GemmShare s = gemms(tokens);
    if (s.share <= 0) return;
    d.step(std::string("Matmul efficiency of ") + what +
               " (its GEMMs' shapes on one TP rank: tiles and waves, hw.gemm)",
           "e_C", "\\frac{$W}{$P \\cdot $t}",
           {{"W", "W_{GEMM}", s.flops, unit::flop},
            {"P", "F", peak, unit::flops},
            {"t", "t_{GEMM}", s.compute, unit::seconds}},
           s.share, unit::fraction);
  }
  double rate(double tokens) const { return peak * share(tokens); }

  // Megatron's TP (Shoeybi et al. 2019, §3): two all-reduces per layer of the step's
  // activations (BF16, d_model wide per token), on the critical path; a token's step passes
  // every stage's layers, so all L layers count. The shared collective_time prices them
  // (NCCL's LL protocol at decode sizes, Simple for prefill).
  // The fixed cost of launching every kernel of a step's forward pass (layer_gemms.hpp), paid
  // once per step whatever its batch: what keeps a small model's decode step at TP 8 from
  // shrinking with its weight read (gpt-fast's Llama 2 7B on A100: 3.04 ms a token at TP 8).
  double kernel_floor() const { return kernels_on ? forward_kernels(m) * kGemmLaunch : 0; }
  // What every step costs whatever its work: the kernels' launches and the engine's own
  // per-step work when the GPU waits for it (step_overhead).
  double overhead = 0;
  double fixed() const { return kernel_floor() + overhead; }

  double tp_comm(double tokens) const {
    if (!communicate || tp <= 1 || tokens <= 0) return 0;
    return 2.0 * m.layers *
           collective_time(Collective::AllReduce, tokens * m.d_model * 2, static_cast<int>(tp),
                           link)
               .time;
  }

  // The memory-bound kernels between the GEMMs (norms, residual adds, the FFN's activation
  // function: the shared layer_traffic that train.step charges, with fused attention) for
  // `tokens` tokens through every layer, at the achieved bandwidth. They do not overlap the
  // GEMMs: each is its own kernel between two of them.
  double elementwise(double tokens) const {
    if (!elementwise_on || tokens <= 0) return 0;
    Layout l;
    l.tp = static_cast<int>(tp);
    l.flash_attention = true;
    return layer_traffic(m, l, tokens).forward * m.layers / bw_rate;
  }

  // Weights one step reads for `tokens` tokens: dense, everything; MoE, the shared weights and
  // the experts those tokens touch (Austin et al. 2025, "Inference", MoE serving).
  double weights_read(double tokens) const {
    return params_read_per_step(total, active, m.experts, m.top_k, tokens) * bytes_w;
  }
  // The Scaling Book's general step time: t_KV + max(t_FLOPs, t_weights). `b` sequences decode
  // at context `ctx`; `extra_flops` are prefill FLOPs sharing the step (chunked prefill).
  // Weights are read once per microbatch on every stage: W/tp per GPU per cycle.
  double step(double b, double ctx, double f_tok, double extra_flops, double extra_tokens) const {
    const double t_kv = b * ctx * kv_tok_gpu * kv_reads / bw_rate;
    const double t_c = (b * f_tok + extra_flops) / (gpus * rate((b + extra_tokens) / pp));
    const double t_w = weights_read((b + extra_tokens) / pp) / tp / (bw_rate * w_share);
    return t_kv + std::max(t_c, t_w) + tp_comm((b + extra_tokens) / pp) +
           elementwise((b + extra_tokens) / pp) + fixed();
  }
};

// The matmuls' machine: W8A8 matmuls read 8-bit operands at the 8-bit best-GEMM share; the
// rest run in BF16.
void set_math(Engine& e, const ServeEngineIn& in, Dtype wt, double peak) {
  const bool eight_bit = (wt == Dtype::Fp8 || wt == Dtype::Int8) && peak != in.peak_flops;
  e.math_bytes = eight_bit ? 1 : 2;
  e.gemm = GemmMachine{peak,
                       in.mem_bandwidth,
                       in.sms,
                       eight_bit ? in.matmul_fraction_fp8 : in.matmul_fraction,
                       in.bandwidth_efficiency,
                       kGemmLaunch};
}

// The peak the weights' dtype computes at (INT4 dequantizes to BF16); 0 where the accelerator
// has no such path.
double math_peak_of(const ServeEngineIn& in, Dtype wt) {
  Gpu g;
  g.peak_bf16 = in.peak_flops;
  g.peak_fp8 = in.peak_fp8;
  g.peak_int8 = in.peak_int8;
  return peak_flops(g, wt == Dtype::Int4 ? Dtype::Bf16 : wt);
}

}  // namespace

double engine_matmul_share(const ServeEngineIn& in, const Model& model, double tokens) {
  Engine e;
  e.m = model;
  e.tp = in.tp;
  e.fixed_share = in.compute_efficiency;
  const Dtype wt = weight_dtype_of(in.weight_dtype);
  const double peak = math_peak_of(in, wt);
  e.peak = peak > 0 ? peak : in.peak_flops;
  set_math(e, in, wt, e.peak);
  return e.share(tokens);
}

namespace {

std::vector<InputDecl<ServeEngineIn>> engine_input_decls() {
  using In = ServeEngineIn;
  constexpr double kMaxTokens = 1e7;
  return {
      num<In, double>("expert_params", NAPKIN_FIELD(In, expert_params),
                      "Parameters per expert (0 = shape)", unit::params)
          .help("One expert's weights summed over layers (MoE only); 0 counts the shape's")
          .range(0, 1e15)
          .group("model.moe"),
      num<In, double>("shared_params", NAPKIN_FIELD(In, shared_params),
                      "Shared parameters (0 = shape)", unit::params)
          .help("Weights every token uses: attention, embeddings, shared experts (MoE only)")
          .range(0, 1e15)
          .group("model.moe"),
      peak_flops_input(NAPKIN_FIELD(In, peak_flops), "Peak BF16 FLOP/s per GPU").group("cluster"),
      num<In, double>("peak_fp8", NAPKIN_FIELD(In, peak_fp8), "Peak FP8 FLOP/s per GPU",
                      unit::flops)
          .help("Dense FP8 peak; 0 = no FP8 path (the math then runs at the BF16 peak)")
          .range(0, 1e17)
          .group("cluster"),
      num<In, double>("peak_int8", NAPKIN_FIELD(In, peak_int8), "Peak INT8 OP/s per GPU",
                      unit::flops)
          .help("Dense INT8 peak; 0 = no INT8 path")
          .range(0, 1e17)
          .group("cluster"),
      hbm_bandwidth_input(NAPKIN_FIELD(In, mem_bandwidth), "Memory bandwidth", 1e15)
          .group("cluster"),
      gpu_memory_input(NAPKIN_FIELD(In, gpu_memory)).group("cluster"),
      sms_input(NAPKIN_FIELD(In, sms)).group("cluster"),
      matmul_fraction_input(NAPKIN_FIELD(In, matmul_fraction)).group("cluster"),
      matmul_fraction_fp8_input(NAPKIN_FIELD(In, matmul_fraction_fp8)).group("cluster"),
      num<In, int>("tp", NAPKIN_FIELD(In, tp), "Tensor parallel (TP)")
          .help("GPUs splitting each layer; must divide the heads")
          .range(1, 1024)
          .group("layout"),
      num<In, int>("pp", NAPKIN_FIELD(In, pp), "Pipeline parallel (PP)")
          .help("Stages the layers are split into; must divide the layers")
          .range(1, 1024)
          .group("layout"),
      choice<In>("weight_dtype", NAPKIN_FIELD(In, weight_dtype), "Weights",
                 "bf16|fp16|fp8|int8|int4")
          .labels("BF16|FP16|FP8 (W8A8)|INT8 (W8A8)|INT4 (weight-only)")
          .help("Storage of the weights; FP8 and INT8 also run the math at the 8-bit peak")
          .group("engine"),
      num<In, double>("group_size", NAPKIN_FIELD(In, group_size),
                      "INT4 group size (0 = per channel)")
          .help("Weights sharing one FP16 scale in INT4 (AWQ, GPTQ: 128)")
          .range(0, 1e6)
          .integer()
          .group("engine"),
      choice<In>("kv_dtype", NAPKIN_FIELD(In, kv_dtype), "KV cache", "bf16|fp8|int8")
          .labels("BF16|FP8|INT8")
          .help("Storage of the cached keys and values")
          .group("engine"),
      choice<In>("decode_attention", NAPKIN_FIELD(In, decode_attention), "Decode attention kernel",
                 "grouped|per_head")
          .labels("Grouped-query (each KV head read once)|Per query head (no grouped-query "
                  "kernel)")
          .help("How a decode step reads the cache: grouped-query kernels (vLLM, SGLang, "
                "TensorRT-LLM's XQA since v0.8) read each KV head once; older kernels read it "
                "once per query head, the group size times the bytes")
          .group("engine"),
      num<In, double>("memory_utilization", NAPKIN_FIELD(In, memory_utilization), "GPU memory used",
                      unit::fraction)
          .help("Share of GPU memory the engine may take (vLLM's default: 90 %)")
          .range(0.01, 1)
          .group("engine"),
      num<In, double>("runtime_memory", NAPKIN_FIELD(In, runtime_memory),
                      "Runtime memory per GPU (0 = measured)", unit::bytes)
          .help("Memory outside the engine's tensors: CUDA context, workspaces, NCCL buffers and "
                "the driver's share. 0 takes vLLM's profile on an H100: 2.5 GiB at TP 1, 4.3 GiB "
                "with TP")
          .range(0, 1e13)
          .group("engine"),
      num<In, double>("block_size", NAPKIN_FIELD(In, block_size), "KV block size", unit::tokens)
          .help("Tokens per paged KV block (vLLM: 16); a sequence fills whole blocks")
          .positive(1e5)
          .integer()
          .group("engine"),
      flag<In>("chunked_prefill", NAPKIN_FIELD(In, chunked_prefill), "Chunked prefill")
          .help("Split prompts into chunks that ride along with decode steps")
          .group("engine"),
      num<In, double>("chunk_tokens", NAPKIN_FIELD(In, chunk_tokens), "Tokens per step (chunk)",
                      unit::tokens)
          .help("Prefill tokens one step takes with chunked prefill (vLLM: 2,048)")
          .positive(kMaxTokens)
          .integer()
          .group("engine"),
      gemm_share_input(NAPKIN_FIELD(In, compute_efficiency)).group("engine"),
      bandwidth_efficiency_input(NAPKIN_FIELD(In, bandwidth_efficiency)).group("engine"),
      num<In, double>("intra_bandwidth", NAPKIN_FIELD(In, intra_bandwidth), "TP link bandwidth",
                      unit::bytes_per_s)
          .help("Bandwidth per GPU, one direction, between a replica's TP ranks (NVLink)")
          .positive(1e15)
          .group("cluster"),
      num<In, double>("intra_latency", NAPKIN_FIELD(In, intra_latency), "TP link latency per step",
                      unit::seconds)
          .help("Latency of one step of an all-reduce between the TP ranks")
          .range(0, 1)
          .group("cluster"),
      intra_efficiency_input(NAPKIN_FIELD(In, intra_efficiency)).group("cluster"),
      launch_latency_input(NAPKIN_FIELD(In, launch_latency)).group("cluster"),
      flag<In>("tp_communication", NAPKIN_FIELD(In, tp_communication), "Count TP all-reduces")
          .help("Each layer's two all-reduces between TP ranks; off: the roofline alone, as the "
                "Scaling Book's serving examples")
          .group("engine"),
      flag<In>("kernel_overheads", NAPKIN_FIELD(In, kernel_overheads), "Count kernel overheads")
          .help("The memory-bound kernels between the matmuls (norms, residual adds, the FFN's "
                "activation), as train.step counts them, and every kernel's fixed launch cost; "
                "off: the roofline's matmuls and reads alone")
          .group("engine"),
      num<In, double>("step_overhead", NAPKIN_FIELD(In, step_overhead), "Engine work per step",
                      unit::seconds)
          .help("The engine's own work each step that the GPU waits for: scheduling, preparing "
                "inputs, sampling, detokenizing. 0 = overlapped with the GPU (TensorRT-LLM; vLLM "
                "with async scheduling); vLLM inside NeMo-RL waited about 5 ms a step (docs/rl.md)")
          .range(0, 10)
          .group("engine"),
      num<In, double>("prompt_len", NAPKIN_FIELD(In, prompt_len), "Prompt length", unit::tokens)
          .help("Tokens in each request's prompt (the mean, where prompts vary)")
          .positive(kMaxTokens)
          .integer()
          .group("job"),
      num<In, double>("output_len", NAPKIN_FIELD(In, output_len), "Output length", unit::tokens)
          .help("Tokens generated per request (the mean, where outputs vary)")
          .positive(kMaxTokens)
          .integer()
          .group("job"),
      num<In, double>("prefix_fraction", NAPKIN_FIELD(In, prefix_fraction), "Shared prompt prefix",
                      unit::fraction)
          .help("Share of each prompt every request shares (a system prompt); 0 = none")
          .range(0, 1)
          .group("job"),
      num<In, double>("prefix_hit_rate", NAPKIN_FIELD(In, prefix_hit_rate), "Prefix cache hit rate",
                      unit::fraction)
          .help("Share of requests that find the shared prefix in the cache")
          .range(0, 1)
          .group("job")};
}

}  // namespace

void insert_rows(Estimator& e, std::size_t at, const std::vector<InputRow>& rows,
                 const void* defaults, const Via& via) {
  std::vector<InputSpec> specs;
  std::vector<FieldRef> fields;
  for (InputRow row : rows) {
    row.field.via = via;
    specs.push_back(input_spec(row, defaults));
    fields.push_back(row.field);
  }
  e.inputs.insert(e.inputs.begin() + static_cast<std::ptrdiff_t>(at),
                  std::make_move_iterator(specs.begin()), std::make_move_iterator(specs.end()));
  e.input_fields.insert(e.input_fields.begin() + static_cast<std::ptrdiff_t>(at), fields.begin(),
                        fields.end());
}

void insert_engine_inputs(Estimator& e, std::size_t at, const void* defaults, const Via& via) {
  insert_decls(e, at, engine_input_decls(), defaults, via);
  // The shared model's inputs first (core/scenario/model_inputs.cpp).
  insert_sized_model_inputs(e, at, defaults, via.then(&base_at<ServeEngineIn, SizedModelInputs>));
}

namespace {

// The replica's machine: its layout (a shape TP and PP can split), the weights' bytes and the
// peak their dtype computes at, the achieved bandwidth and the TP link.
Result<Engine> replica_engine(const ServeEngineIn& in, const SizedModel& sized, Derivation& d) {
  Engine e;
  e.m = sized.model;
  const Model& m = e.m;
  // A layout that can be built (core/scenario/replica.cpp, shared with serve.llm_gpus and
  // rl.throughput): TP splits the query heads and the KV heads as vLLM does, PP has at most a
  // stage per layer; uneven stages are counted as even, with a warning.
  if (std::optional<Error> err = replica_shape_error(m, in.tp, in.pp, "tp", "pp", d)) return *err;
  e.tp = in.tp;
  e.pp = in.pp;
  e.gpus = static_cast<double>(in.tp) * in.pp;
  e.total = sized.total;
  e.active = sized.active;

  // Precision: bytes per weight and the peak the matmuls run at. FP8 and INT8 weights run
  // W8A8 on the GPU's 8-bit path; INT4 is weight-only (AWQ/GPTQ kernels dequantize to BF16).
  const Dtype wt = weight_dtype_of(in.weight_dtype);
  e.bytes_w = quantized_bytes_per_param(wt, wt == Dtype::Int4 ? in.group_size : 0);
  const double raw_peak = math_peak_of(in, wt);
  const double peak = raw_peak > 0 ? raw_peak : in.peak_flops;
  if (raw_peak <= 0) {
    d.note("Peak FLOP/s", "This accelerator has no " + in.weight_dtype +
                              " matmul path: the weights are dequantized and the math runs at "
                              "the BF16 peak.");
  }
  e.peak = peak;
  e.fixed_share = in.compute_efficiency;
  set_math(e, in, wt, peak);
  e.bw_rate = in.mem_bandwidth * in.bandwidth_efficiency;
  // Quantized weights stream slower than BF16 ones (dequantized_stream_share, cluster.hpp).
  // A bandwidth efficiency of 1 asks for the roofline's ideal, for quantized weights too.
  e.w_share = in.bandwidth_efficiency >= 1 ? 1 : dequantized_stream_share(wt);
  e.link = Tier{"tp",  "TP link",           "", in.intra_bandwidth, in.intra_latency,
                false, in.intra_efficiency, 1,  in.launch_latency};
  e.communicate = in.tp_communication;
  e.elementwise_on = in.kernel_overheads;
  e.kernels_on = in.kernel_overheads;
  e.overhead = in.step_overhead;
  if (e.w_share < 1)
    d.note("Quantized weights",
           "Dequantizing kernels stream " + in.weight_dtype + " weights at " +
               format_value(e.w_share, unit::fraction) +
               " of BF16's achieved bandwidth (gpt-fast on A100: 1,397, 1,069 and 863 GB/s).");

  return e;
}

// What the replica stores (vLLM's accounting): weights, the profiled activation peak and the
// runtime's memory, then whole KV blocks; the largest batch, and the batch this run takes.
struct CacheShape {
  double batch = 0, shared = 0, cached = 0;  // sequences; prefix tokens stored once; found cached
};
Result<CacheShape> size_cache(const ServeEngineIn& in, Engine& e, ServeEngineOut& o,
                              Derivation& d) {
  CacheShape c;
  // Memory per GPU (vLLM: weights, then the peak activations of a profiled forward pass of
  // the step's token budget, then the rest of gpu_memory_utilization for KV blocks).
  const double weights = e.total * e.bytes_w;
  o.weights_per_gpu = weights / e.gpus;
  d.step("Weights per GPU", "W_g", "\\frac{$N \\cdot $b}{$t \\cdot $p}",
         {{"N", "N", e.total, unit::params},
          {"b", "b_w", e.bytes_w, unit::bytes},
          {"t", "TP", e.tp},
          {"p", "PP", e.pp}},
         o.weights_per_gpu, unit::bytes);
  const Model& m = e.m;
  const bool mla = m.attention == AttentionKind::Mla;
  const double step_tokens = in.chunked_prefill ? in.chunk_tokens : in.prompt_len;
  // The largest live tensors of a layer for a step's tokens, in BF16: the residual stream in
  // and out (2·d) and the FFN's gate and up projections on this rank (2·d_ff / TP).
  o.activations_per_gpu = step_tokens * (2 * m.d_model + 2 * m.d_ff / e.tp) * 2;
  d.step("Activation peak per GPU (one step's tokens)", "A",
         "$T \\cdot (2 \\cdot $d + \\frac{2 \\cdot $f}{$t}) \\cdot 2",
         {{"T", "T_s", step_tokens, unit::tokens},
          {"d", "d", m.d_model},
          {"f", "d_{ff}", m.d_ff},
          {"t", "TP", e.tp}},
         o.activations_per_gpu, unit::bytes);
  // vLLM: KV blocks get u × CUDA's total, less the weights, the activation peak and what the
  // runtime holds outside tensors (gpu_figures.hpp cites the measurement).
  const double runtime = in.runtime_memory > 0 ? in.runtime_memory
                         : e.tp > 1            ? figures::engine_runtime_memory_tp
                                               : figures::engine_runtime_memory_tp1;
  o.kv_memory_per_gpu =
      in.gpu_memory * in.memory_utilization - o.weights_per_gpu - o.activations_per_gpu - runtime;
  if (o.kv_memory_per_gpu <= 0) {
    const double room = in.gpu_memory * in.memory_utilization - o.activations_per_gpu - runtime;
    const double need = room > 0 ? ceil_count(weights / room) : 0;
    return Error::inconsistent(
        "tp", in.tp,
        "the weights (" + format_value(o.weights_per_gpu, unit::bytes) +
            " per GPU) leave no room for the KV cache in " +
            format_value(in.gpu_memory * in.memory_utilization, unit::bytes) +
            (need > 0 ? "; use at least " + count_text(need + 1) + " GPUs (TP × PP)" : "") +
            " or smaller weights");
  }
  d.step("KV cache memory per GPU", "M_{KV}", "$u \\cdot $M - $W - $A - $R",
         {{"u", "u", in.memory_utilization, unit::fraction},
          {"M", "M", in.gpu_memory, unit::bytes},
          {"W", "W_g", o.weights_per_gpu, unit::bytes},
          {"A", "A", o.activations_per_gpu, unit::bytes},
          {"R", "R", runtime, unit::bytes}},
         o.kv_memory_per_gpu, unit::bytes);
  const double kv_b = dtype_bytes(weight_dtype_of(in.kv_dtype));
  o.kv_bytes_per_token = kv_bytes_per_token(m, kv_b);
  // KV heads split over TP ranks (replicated when TP exceeds them; MLA's latent on every rank),
  // layers over stages.
  const double kv_split = mla ? 1.0 : std::min(e.tp, static_cast<double>(m.kv_heads));
  e.kv_tok_gpu = o.kv_bytes_per_token / (e.pp * kv_split);
  o.kv_per_token_gpu = e.kv_tok_gpu;
  // A kernel without grouped-query support runs one thread block per query head, each reading
  // its KV head: a rank's query heads per KV head, heads / max(TP, n_kv), times the bytes.
  // TensorRT-LLM's XQA kernel (v0.8) removed this: Llama 2 70B FP8 at 128 in / 2,048 out on one
  // H200, 1,227 → 2,941 tokens/s per GPU (NVIDIA, "New XQA-kernel provides 2.4x more Llama-70B
  // throughput within the same latency budget", TensorRT-LLM docs, blogs/XQA-kernel.md).
  if (in.decode_attention == "per_head") {
    if (mla)
      return Error::inconsistent("decode_attention", in.decode_attention,
                                 "grouped: this model caches one latent per token (MLA), which "
                                 "every query head reads once");
    e.kv_reads = std::max(1.0, m.heads / std::max(e.tp, static_cast<double>(m.kv_heads)));
    d.step("Reads of each cached byte per decode step (a block per query head)", "g",
           "\\frac{$h}{\\max($t, $k)}",
           {{"h", "n_h", double(m.heads)}, {"t", "TP", e.tp}, {"k", "n_{kv}", double(m.kv_heads)}},
           e.kv_reads, unit::none);
  }
  d.step("KV cache per token on one GPU", "m_{KV}", "\\frac{$m}{$p \\cdot $s}",
         {{"m", "m", o.kv_bytes_per_token, unit::bytes_per_token},
          {"p", "PP", e.pp},
          {"s", "\\min(TP, n_{kv})", kv_split}},
         e.kv_tok_gpu, unit::bytes_per_token);
  // Paged blocks (Kwon et al. 2023 §4.1): whole blocks of `block_size` tokens.
  const double blocks = floor_count(o.kv_memory_per_gpu / (in.block_size * e.kv_tok_gpu));
  o.kv_capacity_tokens = blocks * in.block_size;
  d.step("KV cache capacity (whole blocks)", "C_{KV}",
         "\\left\\lfloor \\frac{$M}{$k \\cdot $m} \\right\\rfloor \\cdot $k",
         {{"M", "M_{KV}", o.kv_memory_per_gpu, unit::bytes},
          {"k", "k", in.block_size, unit::tokens},
          {"m", "m_{KV}", e.kv_tok_gpu, unit::bytes_per_token}},
         o.kv_capacity_tokens, unit::tokens);
  const double seq_len = in.prompt_len + in.output_len;
  const double blocks_per_seq = ceil_count(seq_len / in.block_size);
  // Prefix caching (vLLM's automatic prefix caching; Zheng et al. 2024, SGLang's RadixAttention):
  // the shared prefix's whole blocks are stored once; a request that finds them cached neither
  // stores nor prefills them. The last prompt token is always computed (its logits start the
  // output). Hits are counted in expectation: `cached` tokens per request.
  const double shared =
      floor_count(std::min(in.prefix_fraction * in.prompt_len, in.prompt_len - 1) / in.block_size) *
      in.block_size;
  const double cached = in.prefix_hit_rate * shared;
  o.cached_tokens = cached;
  if (cached > 0) {
    d.step("Prompt tokens found in the prefix cache (whole blocks, expected)", "P_c",
           "$h \\cdot \\left\\lfloor \\frac{$f \\cdot $P}{$k} \\right\\rfloor \\cdot $k",
           {{"h", "h", in.prefix_hit_rate, unit::fraction},
            {"f", "f", in.prefix_fraction, unit::fraction},
            {"P", "P", in.prompt_len, unit::tokens},
            {"k", "k", in.block_size, unit::tokens}},
           cached, unit::tokens);
    o.max_batch =
        floor_count((blocks - shared / in.block_size) / (blocks_per_seq - cached / in.block_size));
    d.step("Largest batch (the shared prefix stored once)", "B_{\\max}",
           "\\left\\lfloor \\frac{$C - $S}{\\lceil ($P + $O) / $k \\rceil \\cdot $k - $c} "
           "\\right\\rfloor",
           {{"C", "C_{KV}", o.kv_capacity_tokens, unit::tokens},
            {"S", "P_s", shared, unit::tokens},
            {"P", "P", in.prompt_len, unit::tokens},
            {"O", "O", in.output_len, unit::tokens},
            {"k", "k", in.block_size, unit::tokens},
            {"c", "P_c", cached, unit::tokens}},
           o.max_batch, unit::none);
  } else {
    o.max_batch = floor_count(blocks / blocks_per_seq);
    d.step("Largest batch (every sequence at its full length)", "B_{\\max}",
           "\\left\\lfloor \\frac{$C}{\\lceil ($P + $O) / $k \\rceil \\cdot $k} \\right\\rfloor",
           {{"C", "C_{KV}", o.kv_capacity_tokens, unit::tokens},
            {"P", "P", in.prompt_len, unit::tokens},
            {"O", "O", in.output_len, unit::tokens},
            {"k", "k", in.block_size, unit::tokens}},
           o.max_batch, unit::none);
  }
  if (o.max_batch < 1)
    return Error::inconsistent(
        "prompt_len", in.prompt_len,
        "one sequence of " + count_text(seq_len) + " tokens needs more KV cache than the " +
            format_value(o.kv_memory_per_gpu, unit::bytes) + " left per GPU");
  if (in.batch > o.max_batch)
    return Error::inconsistent("batch", in.batch,
                               "more sequences than the KV cache holds: at most " +
                                   count_text(o.max_batch) + " of " + count_text(seq_len) +
                                   " tokens");
  const double b = in.batch > 0 ? in.batch : o.max_batch;
  o.batch = b;
  c.batch = b;
  c.shared = shared;
  c.cached = cached;
  // Cache the batch holds at full length: its blocks, the shared prefix once.
  o.kv_tokens_used = b * (blocks_per_seq * in.block_size - cached) + (cached > 0 ? shared : 0);
  return c;
}

// One decode step at the batch: the KV read, the weights or the FLOPs, the TP all-reduces, the
// kernels between the matmuls and their launches; and the batch where it turns compute-bound.
struct DecodeShape {
  double ctx = 0, f_tok = 0;  // a sequence's mean context; FLOPs of one token there
};
DecodeShape decode_step(const ServeEngineIn& in, const SizedModel& sized, const Engine& e,
                        const CacheShape& c, ServeEngineOut& o, Derivation& d) {
  // Decode: a sequence's mean context over its output, and the FLOPs of one token there
  // (the shared forward FLOPs: 2 per active weight, plus attention over the whole context, no
  // causal halving).
  const Model& m = e.m;
  const double b = c.batch;
  DecodeShape s;
  s.ctx = in.prompt_len + in.output_len / 2;
  const double ctx = s.ctx;
  s.f_tok = forward_flops_per_token(sized, ctx, false);
  const double f_tok = s.f_tok;
  const double t_kv = b * ctx * e.kv_tok_gpu * e.kv_reads / e.bw_rate;
  const double e_dec = e.share(b / e.pp);
  e.show_share(d, "a decode step", b / e.pp);
  const double t_c = b * f_tok / (e.gpus * e.peak * e_dec);
  const double w_read = e.weights_read(b / e.pp);
  const double t_w = w_read / e.tp / (e.bw_rate * e.w_share);
  if (m.experts > 0) {
    o.experts_touched = expected_experts_touched(m, b / e.pp);
    d.step("Experts a decode step touches per layer", "E_h",
           "$E \\cdot (1 - (1 - \\frac{$k}{$E})^{$B})",
           {{"E", "E", double(m.experts)}, {"k", "k", double(m.top_k)}, {"B", "B", b / e.pp}},
           o.experts_touched, unit::none);
  } else {
    o.experts_touched = not_given;
  }
  d.step("Weight read per decode step", "t_W", "\\frac{$W}{$t \\cdot $e \\cdot $q \\cdot $B}",
         {{"W", "W_r", w_read, unit::bytes},
          {"t", "TP", e.tp},
          {"e", "e_{BW}", in.bandwidth_efficiency, unit::fraction},
          {"q", "q_w", e.w_share},
          {"B", "BW", in.mem_bandwidth, unit::bytes_per_s}},
         t_w, unit::seconds);
  {
    // With reads per query head the formula gains a factor g (the last symbol).
    const bool per_head = e.kv_reads > 1;
    const Sym kv[] = {{"b", "B", b},
                      {"S", "S", ctx, unit::tokens},
                      {"m", "m_{KV}", e.kv_tok_gpu, unit::bytes_per_token},
                      {"e", "e_{BW}", in.bandwidth_efficiency, unit::fraction},
                      {"B", "BW", in.mem_bandwidth, unit::bytes_per_s},
                      {"g", "g", e.kv_reads}};
    d.step(per_head ? "KV cache read per decode step (once per query head: g reads of each KV head)"
                    : "KV cache read per decode step",
           "t_{KV}",
           per_head ? "\\frac{$b \\cdot $S \\cdot $m \\cdot $g}{$e \\cdot $B}"
                    : "\\frac{$b \\cdot $S \\cdot $m}{$e \\cdot $B}",
           std::span<const Sym>(kv, per_head ? 6 : 5), t_kv, unit::seconds);
  }
  d.step("Matmul FLOPs per decode step", "t_C", "\\frac{$b \\cdot $f}{$g \\cdot $e \\cdot $F}",
         {{"b", "B", b},
          {"f", "f", f_tok, unit::flop_per_token},
          {"g", "G", e.gpus},
          {"e", "e_C", e_dec, unit::fraction},
          {"F", "F", e.peak, unit::flops}},
         t_c, unit::seconds);
  const double t_tp = e.tp_comm(b / e.pp);
  if (t_tp > 0)
    d.step("TP all-reduces per decode step (2 per layer, on the critical path)", "t_{TP}",
           "2 \\cdot $L \\cdot T_{AR}($v)",
           {{"L", "L", static_cast<double>(m.layers)},
            {"v", "V", b / e.pp * m.d_model * 2, unit::bytes}},
           t_tp, unit::seconds);
  const double t_el = e.elementwise(b / e.pp);
  if (t_el > 0)
    d.step("Norms, residual adds and activations per decode step (memory-bound kernels)", "t_E",
           "\\frac{$L \\cdot $m}{$e \\cdot $B}",
           {{"L", "L", static_cast<double>(m.layers)},
            {"m", "m_E", t_el * e.bw_rate / m.layers, unit::bytes},
            {"e", "e_{BW}", in.bandwidth_efficiency, unit::fraction},
            {"B", "BW", in.mem_bandwidth, unit::bytes_per_s}},
           t_el, unit::seconds);
  const double t_k = e.kernel_floor();
  if (t_k > 0)
    d.step("Kernel launches per step (a fixed cost per kernel, however small)", "t_K",
           "$n \\cdot $c",
           {{"n", "n_K", forward_kernels(m)}, {"c", "c_K", kGemmLaunch, unit::seconds}}, t_k,
           unit::seconds);
  o.decode_step = t_kv + std::max(t_c, t_w) + t_tp + t_el + t_k + e.overhead;
  {
    // The engine's own work per step, when given, is one more term (the last symbol).
    const bool own = e.overhead > 0;
    const Sym terms[] = {
        {"K", "t_{KV}", t_kv, unit::seconds},   {"C", "t_C", t_c, unit::seconds},
        {"W", "t_W", t_w, unit::seconds},       {"T", "t_{TP}", t_tp, unit::seconds},
        {"E", "t_E", t_el, unit::seconds},      {"L", "t_K", t_k, unit::seconds},
        {"O", "t_O", e.overhead, unit::seconds}};
    d.step(own ? "Decode step (the KV read never overlaps; weights and FLOPs do; the engine's own "
                 "work per step adds)"
               : "Decode step (the KV read never overlaps; weights and FLOPs do)",
           "t_s",
           own ? "$K + \\max($C, $W) + $T + $E + $L + $O" : "$K + \\max($C, $W) + $T + $E + $L",
           std::span<const Sym>(terms, own ? 7 : 6), o.decode_step, unit::seconds);
  }
  o.bound = t_c > t_w ? "compute" : "memory";
  // Past the crossover a bigger batch costs time per token: the batch whose FLOPs (at the share
  // their GEMMs reach at that batch) take as long as its weight read. Both sides grow with the
  // batch (MoE reads more experts; GEMMs fill their tiles), so it is found by bisection.
  const double w_rate = e.bw_rate * e.w_share;
  auto compute_bound = [&](double batch) {
    return batch * f_tok / (e.gpus * e.rate(batch / e.pp)) >=
           e.weights_read(batch / e.pp) / e.tp / w_rate;
  };
  double lo = 0, hi = 1;
  while (hi < 1e9 && !compute_bound(hi)) lo = hi, hi *= 2;
  for (int i = 0; i < 50 && hi < 1e9; ++i) {
    const double mid = (lo + hi) / 2;
    (compute_bound(mid) ? hi : lo) = mid;
  }
  o.crossover_batch = hi;
  if (d.recording()) {
    const double t_c_star = hi * f_tok / (e.gpus * e.rate(hi / e.pp));
    const double t_w_star = e.weights_read(hi / e.pp) / e.tp / w_rate;
    d.step(
        "Batch where the step turns compute-bound: the least batch whose FLOPs take as long as "
        "its weight read (found by bisection; the GEMMs' share changes with the batch)",
        "B^*", "\\min \\{B : t_C(B) \\ge t_W(B)\\},\\ t_C = $C,\\ t_W = $W",
        {{"C", "t_C(B^*)", t_c_star, unit::seconds}, {"W", "t_W(B^*)", t_w_star, unit::seconds}},
        o.crossover_batch, unit::none);
  }
  return s;
}

// Prefill of one request, alone and riding in the running batch's steps (chunked), its time
// to first token, and what the batch's prefills add to every sequence's time per token.
void prefill_and_rates(const ServeEngineIn& in, const SizedModel& sized, const Engine& e,
                       const CacheShape& c, const DecodeShape& s, ServeEngineOut& o,
                       Derivation& d) {
  const double b = c.batch, shared = c.shared, cached = c.cached, ctx = s.ctx, f_tok = s.f_tok;
  const double w_rate = e.bw_rate * e.w_share;
  // Prefill: 2 FLOPs per active weight per prompt token plus causal attention, on one TP group
  // (stages run one after another for a single prompt).
  // Cached prefix tokens are skipped; the rest still attend to them: the causal attention of
  // positions P_c…P is that of P tokens less that of the first P_c.
  // A request either finds the whole shared prefix cached (probability h) or none of it: each
  // per-request time below is computed for a hit (c = P_s) and a miss (c = 0) and averaged with
  // those weights, never evaluated at the expected c (the attention term and the chunk count are
  // not linear in c). The KV memory above is the batch's mean, h · P_s per sequence.
  struct PerRequest {
    double flops = 0, weights = 0, alone = 0, ttft = 0, extra = 0, gap = 0;
  };
  auto per_request = [&](double c) {
    PerRequest r;
    const double new_tokens = in.prompt_len - c;
    r.flops = in.prompt_len * forward_flops_per_token(sized, in.prompt_len, true) -
              c * forward_flops_per_token(sized, c, true);
    r.weights = e.weights_read(new_tokens);
    const double rate_alone = e.rate(new_tokens);
    r.alone = std::max(r.flops / (e.tp * rate_alone), r.weights / e.tp / w_rate) +
              e.tp_comm(new_tokens) + e.elementwise(new_tokens) + e.fixed();
    // What one request's prefill adds to the others' decode, and its own time to first token.
    // Chunked (Sarathi-Serve §4): n steps each carry a chunk beside the running decodes, so a
    // step costs max(its FLOPs with the chunk's, the weight read); unchunked (vLLM V0's
    // default), the whole prefill runs alone and every running sequence waits for it.
    if (in.chunked_prefill) {
      const double n = ceil_count(new_tokens / in.chunk_tokens);
      const double chunk = new_tokens / n;
      const double others = (b - 1) / e.pp;  // decodes sharing a chunk's step
      const double mixed = e.step(b, ctx, f_tok, r.flops / n, chunk);
      r.extra = n * (mixed - o.decode_step);
      r.gap = mixed;
      // TTFT: n mixed steps along one TP group (the stages add up to the whole model).
      const double t_kv_lat = others * ctx * e.kv_tok_gpu * e.kv_reads * e.pp / e.bw_rate;
      const double t_c_lat = (others * f_tok + r.flops / n) / (e.tp * e.rate(others + chunk));
      const double t_w_lat = e.weights_read(others + chunk) / e.tp / w_rate;
      r.ttft = n * (t_kv_lat + std::max(t_c_lat, t_w_lat) + e.tp_comm(others + chunk) +
                    e.elementwise(others + chunk) + e.fixed());
    } else {
      r.extra = std::max(r.flops / (e.gpus * rate_alone), r.weights / e.tp / w_rate) +
                e.tp_comm(new_tokens) + e.elementwise(new_tokens) + e.fixed();
      r.gap = o.decode_step + r.alone;
      r.ttft = r.alone;
    }
    return r;
  };
  const double h = shared > 0 ? in.prefix_hit_rate : 0;
  // (One evaluation when every request hits or none does; the other side then repeats it.)
  const PerRequest miss = per_request(h < 1 ? 0 : shared);
  const PerRequest hit = h > 0 && h < 1 ? per_request(shared) : miss;
  auto mean = [&](double PerRequest::*f) { return h * hit.*f + (1 - h) * miss.*f; };
  const PerRequest& shown = h > 0 ? hit : miss;  // the derivation shows a hit when there are any
  o.shared_tokens = shared;
  o.prefill_flops = mean(&PerRequest::flops);
  if (cached > 0)
    d.step("Prefill FLOPs of the uncached tokens (a hit)", "F_p",
           "($P - $c) \\cdot 2 \\cdot $N + A($P) - A($c)",
           {{"P", "P", in.prompt_len, unit::tokens},
            {"c", "P_s", shared, unit::tokens},
            {"N", "N_a", e.active, unit::params}},
           hit.flops, unit::flop);
  const double t_prefill = shown.alone;
  const double shown_tokens = in.prompt_len - (h > 0 ? shared : 0);
  e.show_share(d, "the prefill", shown_tokens);
  d.step(h > 0 ? "Prefill alone (a hit), with its TP all-reduces"
               : "Prefill alone, with its TP all-reduces",
         "t_p",
         "\\max(\\frac{$F}{$t \\cdot $e \\cdot $P}, \\frac{$W}{$t \\cdot $h \\cdot $q \\cdot $B}) "
         "+ $T + $E + $K",
         {{"F", "F_p", shown.flops, unit::flop},
          {"t", "TP", e.tp},
          {"e", "e_C", e.share(shown_tokens), unit::fraction},
          {"P", "F", e.peak, unit::flops},
          {"W", "W_r", shown.weights, unit::bytes},
          {"h", "e_{BW}", in.bandwidth_efficiency, unit::fraction},
          {"q", "q_w", e.w_share},
          {"B", "BW", in.mem_bandwidth, unit::bytes_per_s},
          {"T", "t_{TP}", e.tp_comm(shown_tokens), unit::seconds},
          {"E", "t_E", e.elementwise(shown_tokens), unit::seconds},
          {"K", e.overhead > 0 ? "t_K + t_O" : "t_K", e.fixed(), unit::seconds}},
         t_prefill, unit::seconds);
  o.prefill_time = mean(&PerRequest::alone);
  o.prefill_time_hit = hit.alone;
  o.prefill_time_miss = miss.alone;
  o.ttft_hit = hit.ttft;
  o.ttft_miss = miss.ttft;
  o.max_token_gap = std::max(hit.gap, miss.gap);
  o.ttft = mean(&PerRequest::ttft);
  const double extra = mean(&PerRequest::extra);
  if (in.chunked_prefill)
    d.step("Time to first token (chunked: prefill chunks share steps with the running batch)",
           "\\text{TTFT}", "$n \\cdot (t_{KV} + \\max(t_C, t_W) + t_{TP} + t_E + t_K)",
           {{"n", "n", ceil_count((in.prompt_len - (h > 0 ? shared : 0)) / in.chunk_tokens)}},
           shown.ttft, unit::seconds);
  else
    d.step("Time to first token (unchunked: the prefill runs alone)", "\\text{TTFT}", "$t",
           {{"t", "t_p", t_prefill, unit::seconds}}, shown.ttft, unit::seconds);
  if (h > 0 && h < 1)
    d.step("Time to first token, mean of hits and misses", "\\overline{\\text{TTFT}}",
           "$h \\cdot $a + (1 - $h) \\cdot $b",
           {{"h", "h", h, unit::fraction},
            {"a", "\\text{TTFT}_{hit}", hit.ttft, unit::seconds},
            {"b", "\\text{TTFT}_{miss}", miss.ttft, unit::seconds}},
           o.ttft, unit::seconds);
  // A sequence emits one token per step, and the other B − 1 requests' prefills fall inside
  // its output in steady state: each adds `extra` once per `output_len` tokens.
  o.tpot = o.decode_step + (b - 1) * extra / in.output_len;
  d.step("Time per output token (decode + the others' prefills)", "\\text{TPOT}",
         "$s + \\frac{($b - 1) \\cdot $x}{$O}",
         {{"s", "t_s", o.decode_step, unit::seconds},
          {"b", "B", b},
          {"x", "x", extra, unit::seconds},
          {"O", "O", in.output_len, unit::tokens}},
         o.tpot, unit::seconds);
  o.request_time = o.ttft + (in.output_len - 1) * o.tpot;
  o.tokens_per_second = b / (o.decode_step + b * extra / in.output_len);
  d.step("Output tokens per second per replica", "\\text{tok/s}",
         "\\frac{$b}{$s + $b \\cdot $x / $O}",
         {{"b", "B", b},
          {"s", "t_s", o.decode_step, unit::seconds},
          {"x", "x", extra, unit::seconds},
          {"O", "O", in.output_len, unit::tokens}},
         o.tokens_per_second, unit::tokens_per_s);
  o.tokens_per_second_per_gpu = o.tokens_per_second / e.gpus;
  if (d.recording())
    d.note("Bound", "At batch " + count_text(b) + " the decode step is " + o.bound +
                        "-bound; it turns compute-bound from batch " +
                        count_text(std::round(o.crossover_batch)) + ".");
}

}  // namespace

Result<ServeEngineOut> serve_engine(const ServeEngineIn& in, Derivation& d) {
  ServeEngineOut o{};
  // The model and its counts from the shared scenario (core/scenario/model_inputs.cpp). The
  // older MoE counts, when given, set the active weights: shared + top_k × one expert.
  SizedModelInputs shape = in;
  const bool old_counts =
      in.experts > 0 && in.active_params <= 0 && (in.shared_params > 0 || in.expert_params > 0);
  if (old_counts) {
    if (in.params > 0 && in.shared_params + in.experts * in.expert_params > in.params * 1.01)
      return Error::inconsistent("expert_params", in.expert_params,
                                 "shared + experts × expert parameters exceed the parameters (" +
                                     format_value(in.params, unit::params) + ")");
    shape.active_params = in.shared_params + in.top_k * in.expert_params;
  }
  Result<SizedModel> sized = to_sized_model(shape, d);
  if (!sized.ok()) return sized.error();
  Result<Engine> eng = replica_engine(in, sized.value(), d);
  if (!eng.ok()) return eng.error();
  Engine e = eng.value();
  o.math_peak = e.peak;
  Result<CacheShape> cache = size_cache(in, e, o, d);
  if (!cache.ok()) return cache.error();
  const DecodeShape dec = decode_step(in, sized.value(), e, cache.value(), o, d);
  prefill_and_rates(in, sized.value(), e, cache.value(), dec, o, d);
  return o;
}

void register_serve_engine(Registry& r) {
  using In = ServeEngineIn;
  using Out = ServeEngineOut;
  r.add(with_engine_inputs<In>(declare<serve_engine>(
      {"serve.engine", "Serving engine: batch, TTFT, TPOT, throughput", "inference",
       "One replica of a continuous-batching engine (vLLM, SGLang, TensorRT-LLM) on TP × PP "
       "GPUs: KV cache left after weights, the largest batch, time to first token, time per "
       "output token and tokens per second.",
       "Kwon et al. 2023 (PagedAttention); Austin et al. 2025, How to Scale Your Model "
       "(serving); Agrawal et al. 2024 (Sarathi-Serve)",
       "docs/serving.md#serveengine"},
      {num<In, double>("batch", NAPKIN_FIELD(In, batch), "Batch (0 = the most that fit)")
           .help("Sequences decoding together; 0 fills the KV cache")
           .range(0, 1e7)
           .integer()
           .group("job")},
      {out("max_batch", NAPKIN_FIELD(Out, max_batch), "Largest batch")
           .help("Sequences of prompt + output tokens the KV cache holds"),
       out("ttft", NAPKIN_FIELD(Out, ttft), "Time to first token", unit::seconds)
           .help("Prefill of one prompt at this batch (queueing not included)"),
       out("tpot", NAPKIN_FIELD(Out, tpot), "Time per output token", unit::seconds)
           .help("Mean gap between a sequence's tokens, the others' prefills included"),
       out("tokens_per_second", NAPKIN_FIELD(Out, tokens_per_second), "Tokens/s per replica",
           unit::tokens_per_s)
           .help("Output tokens per second of the whole replica"),
       out("tokens_per_second_per_gpu", NAPKIN_FIELD(Out, tokens_per_second_per_gpu),
           "Tokens/s per GPU", unit::tokens_per_s)
           .help("Replica throughput ÷ its GPUs"),
       out("bound", NAPKIN_FIELD(Out, bound), "Decode bound")
           .help("Whether the weight read or the FLOPs set the decode step"),
       out("crossover_batch", NAPKIN_FIELD(Out, crossover_batch), "Compute-bound from batch")
           .help("Batch whose FLOPs take as long as the weight read"),
       out("batch", NAPKIN_FIELD(Out, batch), "Batch used").help("The batch the times are for"),
       out("decode_step", NAPKIN_FIELD(Out, decode_step), "Decode step", unit::seconds)
           .help("One token for every sequence, no prefill"),
       out("max_token_gap", NAPKIN_FIELD(Out, max_token_gap), "Longest token gap", unit::seconds)
           .help("Longest pause in a sequence's output while a prompt is prefilled"),
       out("request_time", NAPKIN_FIELD(Out, request_time), "Request time", unit::seconds)
           .help("TTFT + the remaining tokens × TPOT"),
       out("math_peak", NAPKIN_FIELD(Out, math_peak), "Matmul peak used", unit::flops)
           .help("The GPU's peak for the weights' precision (INT4 runs at BF16's)"),
       out("weights_per_gpu", NAPKIN_FIELD(Out, weights_per_gpu), "Weights per GPU", unit::bytes)
           .help("Weight bytes each GPU holds"),
       out("activations_per_gpu", NAPKIN_FIELD(Out, activations_per_gpu), "Activation peak per GPU",
           unit::bytes)
           .help("Largest live activations of one step, kept free"),
       out("kv_memory_per_gpu", NAPKIN_FIELD(Out, kv_memory_per_gpu), "KV cache per GPU",
           unit::bytes)
           .help("Memory left for KV blocks"),
       out("kv_per_token", NAPKIN_FIELD(Out, kv_bytes_per_token), "KV cache per token",
           unit::bytes_per_token)
           .help("Cache bytes one token adds over all layers"),
       out("kv_capacity_tokens", NAPKIN_FIELD(Out, kv_capacity_tokens), "KV capacity", unit::tokens)
           .help("Tokens the KV cache holds, in whole blocks"),
       out("experts_touched", NAPKIN_FIELD(Out, experts_touched), "Experts touched per step")
           .help("Distinct experts per MoE layer one decode step reads")
           .optional()})));
  // Latency and throughput vs batch: both lines stop at the memory wall (the batch the KV
  // cache holds); the weight read is shared by the batch until the FLOPs catch up.
  r.add_chart({.id = "engine-latency-vs-batch",
               .title = "Time per output token vs batch",
               .estimator = "serve.engine",
               .x = "batch",
               .x_label = "Batch (sequences)",
               .y_label = "Time",
               .y_unit = unit::seconds,
               .x_min = 1,
               .x_max = 1024,
               .points = 40,
               .log_x = true,
               .log_y = true,
               .integer_x = true,
               .y = {"tpot", "decode_step", "ttft"}});
  r.add_chart({.id = "engine-throughput-vs-batch",
               .title = "Tokens/s per GPU vs batch, by weight precision",
               .estimator = "serve.engine",
               .x = "batch",
               .x_label = "Batch (sequences)",
               .y_label = "Output tokens/s per GPU",
               .y_unit = unit::tokens_per_s,
               .x_min = 1,
               .x_max = 1024,
               .points = 40,
               .log_x = true,
               .log_y = true,
               .integer_x = true,
               .y = {"tokens_per_second_per_gpu"},
               .series = {{"BF16 weights", object_of({{"weight_dtype", "bf16"}})},
                          {"FP8 weights", object_of({{"weight_dtype", "fp8"}})},
                          {"INT4 weights", object_of({{"weight_dtype", "int4"}})}}});
}

}  // namespace napkin
