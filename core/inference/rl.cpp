#include "inference/rl.hpp"

#include <algorithm>
#include <string>

#include "base/counts.hpp"
#include "base/units.hpp"
#include "inference/inference.hpp"
#include "scenario/accelerator_inputs.hpp"
#include "scenario/replica.hpp"

namespace napkin {

// The study notes' RL model ("estimate_rl_throughput"; docs/rl.md), with two corrections an
// inference engineer would make (docs/errata.md keeps the worked example's model as options):
//   generate = infer.latency of the replica's sequences on a replica of k GPUs that holds the
//              policy's weights and cache (ideal tensor parallelism: k× the FLOP/s and the
//              bandwidth); the roofline decode reads every sequence's cache (Pope et al. 2022
//              §3), the worked example's decode only the weights, on one GPU;
//   score    = prefill of a reward model reward_model_fraction·N over prompt + generation, on
//              the GPUs not training (all of them in sync, the generation share in async), each
//              bound by its FLOPs or one read of the reward model's weights; the worked example
//              runs it on one GPU;
//   train    = epochs · 6·N·B·(p + g) / (GPUs · peak · MFU)  (Kaplan et al. 2020, 6N per token),
//   sync     = generate + score + train on all GPUs,
//   async    = max(generate + score, train on async_train_fraction of the GPUs).
Result<RlThroughputOut> rl_throughput(const RlThroughputIn& in, Derivation& d) {
  if (in.generation_replicas > in.batch)
    return Error::inconsistent("generation_replicas", in.generation_replicas,
                               "must be at most batch (" + format_value(in.batch, unit::none) +
                                   "): each replica needs at least one sequence");
  RlThroughputOut o{};
  o.train_gpus_sync = in.total_gpus;
  o.train_gpus_async = floor_count(in.total_gpus * in.async_train_fraction);
  if (o.train_gpus_async < 1)
    return Error::inconsistent("async_train_fraction", in.async_train_fraction,
                               "leaves no GPU for training in async mode (total_gpus = " +
                                   format_value(in.total_gpus, unit::none) + ")");
  if (o.train_gpus_async >= in.total_gpus)
    return Error::inconsistent("async_train_fraction", in.async_train_fraction,
                               "leaves no GPU for generation in async mode");
  const double gen_gpus_async = in.total_gpus - o.train_gpus_async;
  o.sequences_per_replica = ceil_count(in.batch / in.generation_replicas);

  Result<SizedModel> sized = to_sized_model(in, d);
  if (!sized.ok()) return sized.error();
  const Model& m = sized->model;
  const double params = sized->total, na = sized->active;
  InferLatencyIn g;
  static_cast<SizedModelInputs&>(g) = in;
  g.prompt_len = in.prompt_len;
  g.gen_len = in.gen_len;
  g.batch = o.sequences_per_replica;
  g.peak_flops = in.peak_flops;
  g.mem_bandwidth = in.mem_bandwidth;
  g.compute_efficiency = in.compute_efficiency;
  g.bandwidth_efficiency = in.bandwidth_efficiency;
  g.weight_bytes = in.weight_bytes;
  g.decode_model = in.decode_model;
  Derivation quiet(false);
  Result<InferLatencyOut> one = infer_latency(g, quiet);
  if (!one.ok()) return one.error();
  // Memory of one replica: the policy's weights and its sequences' cache at full length.
  o.generation_memory = one->memory_needed;
  d.step("Memory of one generation replica (weights + its sequences' KV cache)", "M_{\\text{gen}}",
         "$W + $b \\cdot ($p + $g) \\cdot $m",
         {{"W", "W", one->weights_memory, unit::bytes},
          {"b", "b_{\\text{rep}}", o.sequences_per_replica},
          {"p", "p", in.prompt_len, unit::tokens},
          {"g", "g", in.gen_len, unit::tokens},
          {"m", "m_{kv}", one->kv_bytes_per_token, unit::bytes_per_token}},
         o.generation_memory, unit::bytes);
  // A replica is a TP × PP shape that can be built (core/scenario/replica.cpp, as serve.engine
  // and serve.llm_gpus): TP within a node splitting the heads, PP stages dividing the layers.
  const int node = static_cast<int>(in.gpus_per_node);
  ReplicaShape shape;
  if (in.gpus_per_replica > 0) {
    Result<ReplicaShape> given =
        split_replica(m, static_cast<int>(in.gpus_per_replica), node, "gpus_per_replica", d);
    if (!given.ok()) return given.error();
    shape = given.value();
  } else {
    shape = smallest_replica(m, o.generation_memory, in.gpu_memory, node);
    if (shape.tp == 0)
      return Error::inconsistent(
          "gpu_memory", in.gpu_memory,
          "too small: even TP " + format_value(node, unit::none) + " × PP " +
              format_value(m.layers, unit::none) + " GPUs cannot hold a generation replica (" +
              format_value(o.generation_memory, unit::bytes) + "); raise generation_replicas");
  }
  const double k = static_cast<double>(shape.tp) * shape.pp;
  d.step(
      "GPUs per generation replica: TP (within a node, splitting the heads) × PP (dividing "
      "the layers)",
      "k", "$t \\cdot $p", {{"t", "TP", double(shape.tp)}, {"p", "PP", double(shape.pp)}}, k,
      unit::gpus);
  o.gpus_per_replica = k;
  if (k * in.gpu_memory < o.generation_memory) {
    const ReplicaShape fit = smallest_replica(m, o.generation_memory, in.gpu_memory, node);
    const double need = fit.tp > 0 ? static_cast<double>(fit.tp) * fit.pp
                                   : ceil_count(o.generation_memory / in.gpu_memory);
    d.warn("The policy's weights (" + format_value(one->weights_memory, unit::bytes) +
           ") and the cache of " + format_value(o.sequences_per_replica, unit::none) +
           " sequences need " + format_value(o.generation_memory, unit::bytes) + "; a replica of " +
           format_value(k, unit::none) +
           " GPU(s) (GPUs per generation replica, gpus_per_replica) holds " +
           format_value(k * in.gpu_memory, unit::bytes) + ": it needs at least " +
           format_value(need, unit::none) + " GPUs. The times below assume it fits.");
  }
  if (in.generation_replicas * k > gen_gpus_async)
    return Error::inconsistent(
        in.generation_replicas > 1 ? "generation_replicas" : "gpus_per_replica",
        in.generation_replicas > 1 ? in.generation_replicas : k,
        "generation needs " + format_value(in.generation_replicas * k, unit::none) +
            " GPUs (replicas × GPUs per replica), more than the " +
            format_value(gen_gpus_async, unit::none) +
            " left for generation in async mode (total_gpus − the training share)");

  Result<InferLatencyOut> gen = one;
  if (k > 1) {
    g.peak_flops = k * in.peak_flops;
    g.mem_bandwidth = k * in.mem_bandwidth;
    gen = infer_latency(g, quiet);
    if (!gen.ok()) return gen.error();
  }
  o.generate_time = gen->total_time;
  const bool worked = in.decode_model == "weights";
  d.step(worked ? "Generation (infer.latency, the worked example's model: compute-only prefill, "
                  "decode reads the weights, on k GPUs)"
                : "Generation (infer.latency, roofline: prefill and every decode step bound by "
                  "FLOPs or by reading the weights and the batch's cache, on k GPUs)",
         "T_{\\text{gen}}", "$P + $D",
         {{"P", "T_{\\text{prefill}}", gen->prefill_time, unit::seconds},
          {"D", "T_{\\text{decode}}", gen->decode_time, unit::seconds}},
         o.generate_time, unit::seconds);

  // FLOPs per token of the policy over a whole sample (prompt + response, causal attention;
  // Kaplan et al. 2020 Table 1), or 2N in the worked example's model. The reward model is the
  // policy scaled by reward_model_fraction, its FLOPs per token too.
  const double seq = in.prompt_len + in.gen_len;
  const double f_fwd = worked ? 2 * na : forward_flops_step(sized.value(), seq, true, d);
  const double reward_params = params * in.reward_model_fraction;
  const double f_reward = worked ? 2 * reward_params : in.reward_model_fraction * f_fwd;
  d.step("Reward-model FLOPs per token", "F_{\\text{RM}}", worked ? "2 \\cdot $R" : "$r \\cdot $F",
         {{"R", "N_{\\text{RM}}", reward_params, unit::params},
          {"r", "r", in.reward_model_fraction, unit::fraction},
          {"F", "F_{\\text{fwd}}", f_fwd, unit::flop_per_token}},
         f_reward, unit::flop_per_token);
  const double score_flops = in.batch * seq * f_reward;
  // The reward model's prefill over G GPUs: its FLOPs split G ways, or one read of its weights
  // per GPU, whichever is longer (the prefill roofline, Pope et al. 2022 §3).
  // Scoring at the same achieved rates as generation (1 and 1: the worked example's peak).
  const double f_score = in.peak_flops * in.compute_efficiency;
  const double bw_score = in.mem_bandwidth * in.bandwidth_efficiency;
  const double reward_read = reward_params * in.weight_bytes / bw_score;
  auto score_time_on = [&](double gpus) {
    return std::max(score_flops / (gpus * f_score), reward_read);
  };
  const bool one_gpu = in.score_on == "one_gpu";
  o.score_gpus = one_gpu ? 1 : in.total_gpus;
  o.score_time = one_gpu ? score_flops / f_score : score_time_on(in.total_gpus);
  o.score_time_async = one_gpu ? o.score_time : score_time_on(gen_gpus_async);
  if (one_gpu)
    d.step(
        "Scoring on one GPU (the worked example): reward-model prefill over prompt + "
        "generation",
        "T_{\\text{score}}", "\\frac{$b \\cdot ($p + $g) \\cdot $f}{$F}",
        {{"b", "b", in.batch},
         {"p", "p", in.prompt_len, unit::tokens},
         {"g", "g", in.gen_len, unit::tokens},
         {"f", "F_{\\text{RM}}", f_reward, unit::flop_per_token},
         {"F", "F", f_score, unit::flops}},
        o.score_time, unit::seconds);
  else {
    // Synchronous on every GPU, asynchronous on those not training.
    for (const bool sync : {true, false})
      d.step(sync ? "Scoring, synchronous: reward-model prefill over prompt + generation on every "
                    "GPU"
                  : "Scoring, asynchronous: on the GPUs not training",
             sync ? "T_{\\text{score}}" : "T'_{\\text{score}}",
             "\\max\\left(\\frac{$b \\cdot ($p + $g) \\cdot $f}{$G \\cdot $F},\\ "
             "\\frac{$R \\cdot $w}{$B}\\right)",
             {{"b", "b", in.batch},
              {"p", "p", in.prompt_len, unit::tokens},
              {"g", "g", in.gen_len, unit::tokens},
              {"f", "F_{\\text{RM}}", f_reward, unit::flop_per_token},
              {"R", "N_{\\text{RM}}", reward_params, unit::params},
              {"G", sync ? "G" : "G_{\\text{gen}}", sync ? in.total_gpus : gen_gpus_async},
              {"F", "F", f_score, unit::flops},
              {"w", "b_w", in.weight_bytes, unit::bytes},
              {"B", "BW", bw_score, unit::bytes_per_s}},
             sync ? o.score_time : o.score_time_async, unit::seconds);
  }

  // Training: 3 forward passes' FLOPs per token, forward + backward (Kaplan et al. 2020 §2.1:
  // 6N; train.step's 3·F_fwd with attention); a mixture of experts trains only the routed ones.
  const double train_flops = in.ppo_epochs * 3 * f_fwd * in.batch * seq;
  o.train_time_sync = train_flops / (o.train_gpus_sync * in.peak_flops * in.mfu);
  d.step("Training, synchronous (all GPUs)", "T_{\\text{train}}",
         "\\frac{$e \\cdot 3 \\cdot $f \\cdot $b \\cdot ($p + $g)}{$G \\cdot $F \\cdot $u}",
         {{"e", "e", in.ppo_epochs},
          {"f", worked ? "2 N" : "F_{\\text{fwd}}", f_fwd, unit::flop_per_token},
          {"b", "b", in.batch},
          {"p", "p", in.prompt_len, unit::tokens},
          {"g", "g", in.gen_len, unit::tokens},
          {"G", "G", o.train_gpus_sync},
          {"F", "F", in.peak_flops, unit::flops},
          {"u", "\\text{MFU}", in.mfu, unit::fraction}},
         o.train_time_sync, unit::seconds);
  o.train_time_async = train_flops / (o.train_gpus_async * in.peak_flops * in.mfu);
  d.step("Training, asynchronous (its share of the GPUs)", "T'_{\\text{train}}",
         "$T \\cdot \\frac{$G}{$Ga}",
         {{"T", "T_{\\text{train}}", o.train_time_sync, unit::seconds},
          {"G", "G", o.train_gpus_sync},
          {"Ga", "G_{\\text{train}}", o.train_gpus_async}},
         o.train_time_async, unit::seconds);

  o.sync_iteration_time = o.generate_time + o.score_time + o.train_time_sync;
  d.step("Synchronous iteration: generate, then score, then train", "T_{\\text{sync}}",
         "$G + $S + $T",
         {{"G", "T_{\\text{gen}}", o.generate_time, unit::seconds},
          {"S", "T_{\\text{score}}", o.score_time, unit::seconds},
          {"T", "T_{\\text{train}}", o.train_time_sync, unit::seconds}},
         o.sync_iteration_time, unit::seconds);
  o.async_iteration_time = std::max(o.generate_time + o.score_time_async, o.train_time_async);
  d.step("Asynchronous iteration: training overlaps the next generation", "T_{\\text{async}}",
         "\\max($G + $S,\\ $T)",
         {{"G", "T_{\\text{gen}}", o.generate_time, unit::seconds},
          {"S", "T'_{\\text{score}}", o.score_time_async, unit::seconds},
          {"T", "T'_{\\text{train}}", o.train_time_async, unit::seconds}},
         o.async_iteration_time, unit::seconds);
  o.sync_samples_per_second = in.batch / o.sync_iteration_time;
  o.async_samples_per_second = in.batch / o.async_iteration_time;
  d.step("Synchronous throughput", "S_{\\text{sync}}", "\\frac{$b}{$T}",
         {{"b", "b", in.batch}, {"T", "T_{\\text{sync}}", o.sync_iteration_time, unit::seconds}},
         o.sync_samples_per_second, unit::samples_per_s);
  d.step("Asynchronous throughput", "S_{\\text{async}}", "\\frac{$b}{$T}",
         {{"b", "b", in.batch}, {"T", "T_{\\text{async}}", o.async_iteration_time, unit::seconds}},
         o.async_samples_per_second, unit::samples_per_s);
  // The seed counts generated tokens only.
  o.sync_tokens_per_second = o.sync_samples_per_second * in.gen_len;
  o.async_tokens_per_second = o.async_samples_per_second * in.gen_len;
  o.speedup = o.sync_iteration_time / o.async_iteration_time;
  d.step("Speedup of async over sync", "s", "\\frac{$S}{$A}",
         {{"S", "T_{\\text{sync}}", o.sync_iteration_time, unit::seconds},
          {"A", "T_{\\text{async}}", o.async_iteration_time, unit::seconds}},
         o.speedup, unit::times);
  const bool gen_dominates = o.generate_time + o.score_time_async >= o.train_time_async;
  d.note("What limits async",
         gen_dominates ? "Generation + scoring is the longer branch: async hides training "
                         "entirely, and only faster generation (more replicas) helps further."
                       : "Training on its share of the GPUs is the longer branch: give training "
                         "more GPUs (the async training fraction) to go faster.");
  if (in.generation_replicas * k < gen_gpus_async)
    d.note("Idle GPUs during generation",
           "Generation runs on " + format_value(in.generation_replicas * k, unit::none) +
               " GPU(s) (replicas × GPUs per replica) while " +
               format_value(gen_gpus_async, unit::none) +
               " are free for it in async mode (and every GPU in sync): raise the generation "
               "replicas to spread the batch.");
  return o;
}

void register_rl(Registry& r) {
  using In = RlThroughputIn;
  using Out = RlThroughputOut;
  r.add(with_sized_model_inputs<In>(
      declare<rl_throughput>(
          {"rl.throughput", "RL training: sync vs async", "inference",
           "Iteration time and throughput of RLHF/PPO when generation, scoring and training run "
           "one "
           "after another on the same GPUs, or overlap on separate GPU sets.",
           "Kaplan et al. 2020 §2.1 (6N per token)", "docs/rl.md#rlthroughput"},
          {num("batch", NAPKIN_FIELD(In, batch), "Batch (prompts per iteration)")
               .help("Prompts per iteration")
               .range(1, 1e7)
               .integer()
               .required(),
           num("prompt_len", NAPKIN_FIELD(In, prompt_len), "Prompt length", unit::tokens)
               .help("Tokens per prompt")
               .range(1, 1e7)
               .integer(),
           num("gen_len", NAPKIN_FIELD(In, gen_len), "Generated tokens", unit::tokens)
               .help("Tokens generated per prompt")
               .range(1, 1e7)
               .integer(),
           num("ppo_epochs", NAPKIN_FIELD(In, ppo_epochs), "PPO epochs")
               .help("Passes over each batch in training")
               .range(1, 1000)
               .integer(),
           num("total_gpus", NAPKIN_FIELD(In, total_gpus), "Total GPUs", unit::gpus)
               .help("Accelerators for generation, scoring and training")
               .range(1, 1e7)
               .integer()
               .required(),
           peak_flops_input(NAPKIN_FIELD(In, peak_flops), "Peak FLOP/s per GPU"),
           hbm_bandwidth_input(NAPKIN_FIELD(In, mem_bandwidth), "Memory bandwidth", 1e15),
           compute_efficiency_input(NAPKIN_FIELD(In, compute_efficiency)),
           bandwidth_efficiency_input(NAPKIN_FIELD(In, bandwidth_efficiency)),
           num("mfu", NAPKIN_FIELD(In, mfu), "Training MFU", unit::fraction)
               .help("Share of peak the training step reaches")
               .positive(1),
           num("reward_model_fraction", NAPKIN_FIELD(In, reward_model_fraction),
               "Reward model size / policy size")
               .help("Reward-model size as a fraction of the policy")
               .positive(10),
           num("async_train_fraction", NAPKIN_FIELD(In, async_train_fraction),
               "Async: share of GPUs training", unit::fraction)
               .help("Async: share of GPUs that train while the rest generate")
               .positive(1),
           num("generation_replicas", NAPKIN_FIELD(In, generation_replicas), "Generation replicas")
               .range(1, 1e6)
               .integer()
               .help("1 = the worked example's single replica; the batch is split evenly across "
                     "replicas"),
           num("weight_bytes", NAPKIN_FIELD(In, weight_bytes), "Bytes per weight", unit::bytes)
               .help("2 for BF16 weights")
               .positive(8),
           gpu_memory_input(NAPKIN_FIELD(In, gpu_memory)),
           num("gpus_per_replica", NAPKIN_FIELD(In, gpus_per_replica),
               "GPUs per generation replica (0 = fewest)")
               .help("GPUs one generation replica is split over, TP × PP; 0 picks the smallest "
                     "shape whose memory holds the weights and the cache")
               .range(0, 65536)
               .integer(),
           num("gpus_per_node", NAPKIN_FIELD(In, gpus_per_node), "GPUs per node (largest TP)",
               unit::gpus)
               .help("GPUs joined by NVLink: tensor parallelism stays within them")
               .range(1, 1024)
               .integer(),
           choice("decode_model", NAPKIN_FIELD(In, decode_model), "Generation model",
                  "roofline|weights")
               .labels("Roofline (weights, KV cache and FLOPs)|Weights only (worked example)")
               .help("roofline: steps bound by FLOPs (2N + attention) or memory, cache read "
                     "included; weights: the worked example's (2N FLOPs, weight-only decode)"),
           choice("score_on", NAPKIN_FIELD(In, score_on), "Scoring runs on", "all|one_gpu")
               .labels("The GPUs not training|One GPU (worked example)")
               .help("All: the reward model is spread over every GPU not training; one GPU: "
                     "the worked example's")},
          {out("generate_time", NAPKIN_FIELD(Out, generate_time), "Generation", unit::seconds)
               .help("Decoding the batch's responses"),
           out("score_time", NAPKIN_FIELD(Out, score_time), "Scoring", unit::seconds)
               .help("Reward model over prompts and responses (sync: on every GPU)"),
           out("train_time_sync", NAPKIN_FIELD(Out, train_time_sync), "Training (sync)",
               unit::seconds)
               .help("PPO update on every GPU"),
           out("train_time_async", NAPKIN_FIELD(Out, train_time_async), "Training (async)",
               unit::seconds)
               .help("PPO update on the training share of GPUs"),
           out("sync_iteration_time", NAPKIN_FIELD(Out, sync_iteration_time), "Iteration (sync)",
               unit::seconds)
               .help("Generate + score + train, one after another"),
           out("async_iteration_time", NAPKIN_FIELD(Out, async_iteration_time), "Iteration (async)",
               unit::seconds)
               .help("The slower of generation and training, overlapped"),
           out("sync_samples_per_second", NAPKIN_FIELD(Out, sync_samples_per_second),
               "Samples/s (sync)", unit::samples_per_s)
               .help("Prompts per second, synchronous"),
           out("async_samples_per_second", NAPKIN_FIELD(Out, async_samples_per_second),
               "Samples/s (async)", unit::samples_per_s)
               .help("Prompts per second, asynchronous"),
           out("sync_tokens_per_second", NAPKIN_FIELD(Out, sync_tokens_per_second),
               "Generated tok/s (sync)", unit::tokens_per_s)
               .help("Generated tokens per second, synchronous"),
           out("async_tokens_per_second", NAPKIN_FIELD(Out, async_tokens_per_second),
               "Generated tok/s (async)", unit::tokens_per_s)
               .help("Generated tokens per second, asynchronous"),
           out("speedup", NAPKIN_FIELD(Out, speedup), "Async speedup", unit::times)
               .help("Async ÷ sync throughput"),
           out("train_gpus_sync", NAPKIN_FIELD(Out, train_gpus_sync), "Training GPUs (sync)",
               unit::gpus)
               .help("GPUs training in the synchronous loop"),
           out("train_gpus_async", NAPKIN_FIELD(Out, train_gpus_async), "Training GPUs (async)",
               unit::gpus)
               .help("GPUs training in the asynchronous loop"),
           out("sequences_per_replica", NAPKIN_FIELD(Out, sequences_per_replica),
               "Sequences per replica")
               .help("Prompts each generation replica decodes"),
           out("gpus_per_replica", NAPKIN_FIELD(Out, gpus_per_replica),
               "GPUs per generation replica", unit::gpus)
               .help("GPUs one generation replica is split over"),
           out("generation_memory", NAPKIN_FIELD(Out, generation_memory),
               "Memory of a generation replica", unit::bytes)
               .help("Policy weights + the cache of its sequences at full length"),
           out("score_time_async", NAPKIN_FIELD(Out, score_time_async), "Scoring (async)",
               unit::seconds)
               .help("Reward model on the GPUs not training, in async mode")}),
      0));
}

}  // namespace napkin
