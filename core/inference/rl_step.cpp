#include "inference/rl_step.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "base/counts.hpp"
#include "base/units.hpp"
#include "inference/serve_engine.hpp"
#include "scenario/collective.hpp"
#include "scenario/replica.hpp"
#include "training/train_step.hpp"

namespace napkin {

namespace {

enum class Placement { Colocated, Disaggregated, Async };

Placement placement_of(const std::string& s) {
  return s == "disaggregated" ? Placement::Disaggregated
         : s == "async"       ? Placement::Async
                              : Placement::Colocated;
}

std::string whole(double v) {
  return format_value(v, unit::none);
}

// serve_engine's and train_step's errors name their own inputs; the user typed rl.step's.
Error renamed(Error e) {
  if (e.input == "tp") e.input = "gen_tp";
  if (e.input == "output_len") e.input = "response_len_mean";
  if (e.input == "memory_utilization") e.input = "gpu_memory_utilization";
  if (e.input == "weight_dtype") e.input = "gen_dtype";
  return e;
}

// The engine's share of a GPU: given, or NeMo-RL's 0.6 when it shares the GPU with the trainer
// (grpo_math_1B.yaml) and vLLM's own default, 0.9, when it has the GPU to itself.
double engine_share(const RlStepIn& in, Placement p) {
  if (in.gpu_memory_utilization > 0) return in.gpu_memory_utilization;
  return p == Placement::Colocated ? 0.6 : 0.9;
}

// The link a group of `ranks` GPUs communicates over: NVLink inside a node, the NICs once the
// group spans nodes (a ring runs at its slowest link's rate and latency).
Tier group_link(const RlStepIn& in, double ranks) {
  const bool wide = ranks > in.gpus_per_node;
  return Tier{"group",
              "group link",
              "",
              wide ? in.inter_bandwidth : in.intra_bandwidth,
              wide ? in.inter_latency : in.intra_latency,
              false,
              wide ? in.inter_efficiency : in.intra_efficiency,
              1,
              in.launch_latency};
}

// One rollout: the batch's responses generated on `gen_gpus` GPUs split into engine replicas.
struct Rollout {
  double replicas = 0, per_replica = 0, concurrent = 0, prefill = 0, decode = 0, steps = 0,
         tail = 0, fixed = 0, per_seq = 0, kv_tokens = 0;
};

// The engine's decode step is close to affine in its batch n: t(n) = a + c·n (serve.engine's
// roofline: the weight read, the TP all-reduces' latency and launch are paid once per step;
// each sequence adds its KV read, its FLOPs and its share of the all-reduced bytes). Summed
// over the steps of a batch whose responses have different lengths, Σ_t t(n(t)) = steps·a +
// c·Σ_t n(t), and Σ_t n(t) is the number of generated tokens whatever the length distribution:
// the step pays the fixed part once per step until the longest response ends, the per-sequence
// part once per token (Seer, arXiv 2511.14617 §2: the last 10 % of requests take up to half
// the rollout). Continuous batching (Yu et al. 2022, Orca) keeps the KV cache full while
// requests wait: a replica with more sequences than its cache holds runs n/b waves of mean
// length before the last, which may be a longest one.
// serve.engine at the replica's settings. Its step with a full cache and its step at batch 1 do
// not depend on how many GPUs generate, so they are run once per engine share (colocated or
// not) and reused by every split the search tries.
struct Engine {
  ServeEngineIn g;
  ServeEngineOut full, one;
};
struct Engines {
  std::optional<Engine> shared, own;  // the engine colocated with the trainer, or on its own GPUs
};

Result<Engine> engine_for(const RlStepIn& in, Placement p, Derivation& d) {
  Engine e;
  ServeEngineIn& g = e.g;
  static_cast<SizedModelInputs&>(g) = in;
  g.peak_flops = in.peak_flops;
  g.peak_fp8 = g.peak_int8 = in.peak_fp8;
  g.mem_bandwidth = in.mem_bandwidth;
  g.gpu_memory = in.gpu_memory;
  g.tp = in.gen_tp;
  g.pp = 1;
  g.weight_dtype = in.gen_dtype;
  g.memory_utilization = engine_share(in, p);
  g.compute_efficiency = in.compute_efficiency;
  g.bandwidth_efficiency = in.bandwidth_efficiency;
  g.step_overhead = in.step_overhead;
  g.sms = in.sms;
  g.matmul_fraction = in.matmul_fraction;
  g.matmul_fraction_fp8 = in.matmul_fraction_fp8;
  // An engine wider than a node all-reduces through the NICs: a ring over its TP ranks runs
  // at the slowest link's rate and latency.
  const Tier link = group_link(in, in.gen_tp);
  g.intra_bandwidth = link.bandwidth;
  g.intra_latency = link.latency;
  g.intra_efficiency = link.efficiency;
  if (in.gen_tp > in.gpus_per_node)
    d.note("Engine across nodes", "Engine TP " + whole(in.gen_tp) + " spans nodes of " +
                                      whole(in.gpus_per_node) +
                                      " GPUs: its all-reduces run at the inter-node link's rate.");
  g.launch_latency = in.launch_latency;
  g.prompt_len = in.prompt_len;
  g.output_len = in.response_len_mean;
  g.batch = 0;
  Derivation quiet(false);
  Result<ServeEngineOut> full = serve_engine(g, quiet);
  if (!full.ok()) return renamed(full.error());
  e.full = full.value();
  g.batch = 1;
  Result<ServeEngineOut> one = serve_engine(g, quiet);
  if (!one.ok()) return renamed(one.error());
  e.one = one.value();
  return e;
}

Result<const Engine*> engine_of(Engines& cache, const RlStepIn& in, Placement p, Derivation& d) {
  std::optional<Engine>& slot = p == Placement::Colocated ? cache.shared : cache.own;
  if (!slot) {
    Result<Engine> e = engine_for(in, p, d);
    if (!e.ok()) return e.error();
    slot = e.value();
  }
  return &*slot;
}

Result<Rollout> rollout(const RlStepIn& in, const SizedModel& sized, const Engine& e,
                        double gen_gpus, Placement p, Derivation& d) {
  Rollout r;
  const double samples = in.prompts * in.group_size;
  r.replicas = floor_count(gen_gpus / in.gen_tp);
  if (r.replicas < 1)
    return Error::inconsistent("gen_tp", in.gen_tp,
                               "is more than the " + whole(gen_gpus) + " GPUs that generate");
  r.per_replica = ceil_count(samples / r.replicas);
  const ServeEngineOut* full = &e.full;
  r.kv_tokens = full->kv_capacity_tokens;
  const double b = std::min(r.per_replica, full->max_batch);
  r.concurrent = b;
  double t_b = b <= 1 ? e.one.decode_step : full->decode_step;
  if (b > 1 && b < full->max_batch) {
    ServeEngineIn g = e.g;
    g.batch = b;
    Derivation quiet(false);
    Result<ServeEngineOut> at_b = serve_engine(g, quiet);
    if (!at_b.ok()) return renamed(at_b.error());
    t_b = at_b->decode_step;
  }
  const ServeEngineOut* one = &e.one;
  r.per_seq = b > 1 ? std::max(0.0, (t_b - one->decode_step) / (b - 1)) : 0;
  r.fixed = one->decode_step - r.per_seq;
  d.step("Decode step of a replica as fixed + per-sequence cost (serve.engine at 1 and at B)",
         "t(n)", "$a + $c \\cdot n",
         {{"a", "a", r.fixed, unit::seconds}, {"c", "c", r.per_seq, unit::seconds}}, t_b,
         unit::seconds);

  // The G responses to one prompt share its prefill (vLLM's prefix caching, on by default);
  // prefill is compute-bound: 2N + attention FLOPs per prompt token.
  const double prompts_here = ceil_count(r.per_replica / in.group_size);
  const double f_prompt = forward_flops_per_token(sized, in.prompt_len, true);
  const double peak = in.gen_dtype == "fp8" && in.peak_fp8 > 0 ? in.peak_fp8 : in.peak_flops;
  const double prefill_tokens = prompts_here * in.prompt_len;
  const double e_prefill = engine_matmul_share(e.g, sized.model, prefill_tokens);
  r.prefill = prefill_tokens * f_prompt / (in.gen_tp * peak * e_prefill);
  d.step("Prefill of a replica's prompts (each once: its G responses share it)",
         "T_{\\text{prefill}}", "\\frac{$n \\cdot $p \\cdot $f}{$t \\cdot $F \\cdot $e}",
         {{"n", "n_p", prompts_here},
          {"p", "p", in.prompt_len, unit::tokens},
          {"f", "f", f_prompt, unit::flop_per_token},
          {"t", "TP", double(in.gen_tp)},
          {"F", "F", peak, unit::flops},
          {"e", "e_C", e_prefill, unit::fraction}},
         r.prefill, unit::seconds);

  const double n = r.per_replica, mean = in.response_len_mean, longest = in.response_len_max;
  const double waves = std::max(0.0, n / b - 1);
  const double sync_steps = longest + waves * mean;
  r.steps = sync_steps;
  if (p == Placement::Async && in.staleness > 1) {
    // k batches in flight: the engine starts the next batch's requests while the last ones
    // of this batch finish, so it waits for a longest response once per k batches; it cannot
    // go faster than its cache's throughput (k·n sequences at most in the cache).
    const double bk = std::min(in.staleness * n, full->max_batch);
    r.steps = std::max(n * mean / bk, sync_steps / in.staleness);
    d.step("Decode steps per batch, k batches in flight", "S",
           "\\max\\left(\\frac{$n \\cdot $m}{$b},\\ \\frac{$L + $w \\cdot $m}{$k}\\right)",
           {{"n", "n", n},
            {"m", "\\overline{r}", mean, unit::tokens},
            {"b", "B_k", bk},
            {"L", "r_{\\max}", longest, unit::tokens},
            {"w", "w", waves},
            {"k", "k", in.staleness}},
           r.steps, unit::none);
  } else {
    d.step(waves > 0 ? "Decode steps: waves of mean length while requests wait for cache, then "
                       "the longest response"
                     : "Decode steps: every response starts at once; the batch ends with the "
                       "longest",
           "S", "$L + \\max(0, \\frac{$n}{$b} - 1) \\cdot $m",
           {{"L", "r_{\\max}", longest, unit::tokens},
            {"n", "n", n},
            {"b", "B", b},
            {"m", "\\overline{r}", mean, unit::tokens}},
           r.steps, unit::none);
  }
  r.decode = r.steps * r.fixed + n * mean * r.per_seq;
  d.step("Decode of a replica's responses", "T_{\\text{decode}}",
         "$S \\cdot $a + $n \\cdot $m \\cdot $c",
         {{"S", "S", r.steps},
          {"a", "a", r.fixed, unit::seconds},
          {"n", "n", n},
          {"m", "\\overline{r}", mean, unit::tokens},
          {"c", "c", r.per_seq, unit::seconds}},
         r.decode, unit::seconds);
  // What the tail costs: the same batch with every response at the mean length.
  const double mean_steps = std::max(mean, n / b * mean);
  r.tail = std::max(0.0, r.steps - mean_steps) * r.fixed;
  d.step(
      "What the longest responses cost: steps beyond a batch of mean-length responses, at "
      "the fixed cost",
      "T_{\\text{tail}}", "($S - $M) \\cdot $a",
      {{"S", "S", r.steps},
       {"M", "S_{\\overline{r}}", mean_steps},
       {"a", "a", r.fixed, unit::seconds}},
      r.tail, unit::seconds);
  return r;
}

// The trainer: train.step's layout on `train_gpus` GPUs for one optimizer step over the
// samples (prompt + mean response, packed).
struct Trainer {
  StepTimes t;
  double dp = 0, global_batch = 0;
};

Result<Trainer> trainer(const RlStepIn& in, const Model& m, double train_gpus) {
  Trainer tr;
  const double model_parallel = static_cast<double>(in.train_tp) * in.train_pp;
  tr.dp = floor_count(train_gpus / model_parallel);
  if (tr.dp < 1 || tr.dp * model_parallel != train_gpus)
    return Error::inconsistent("train_tp", in.train_tp,
                               "times train_pp (" + whole(in.train_pp) + ") must divide the " +
                                   whole(train_gpus) + " GPUs that train");
  if (std::string why = tp_split_problem(m, in.train_tp); !why.empty())
    return Error::inconsistent("train_tp", in.train_tp, why);
  if (in.train_pp > m.layers)
    return Error::inconsistent("train_pp", in.train_pp,
                               "is more than the model's " + whole(m.layers) + " layers");
  // Megatron-Core's MoE parallel folding: the expert-parallel group is drawn from the dense
  // layers' TP × DP ranks (expert TP 1).
  if (in.train_ep > 1 && (m.experts == 0 || m.experts % in.train_ep != 0 ||
                          std::fmod(tr.dp * in.train_tp, in.train_ep) != 0))
    return Error::inconsistent("train_ep", in.train_ep,
                               "must divide the experts and the trainer's TP × DP ranks (" +
                                   whole(tr.dp * in.train_tp) + "): EP reuses those ranks");
  if (tr.dp > 1e7) return Error::inconsistent("total_gpus", in.total_gpus, "is too many");
  TrainStepIn t;
  static_cast<ModelInputs&>(t) = in;
  t.peak_flops = in.peak_flops;
  t.mem_bandwidth = in.mem_bandwidth;
  t.gpu_memory = in.gpu_memory;
  t.matmul_fraction = in.matmul_fraction;
  t.attention_fraction = 0;
  t.gpus_per_node = in.gpus_per_node;
  t.intra_bandwidth = in.intra_bandwidth;
  t.intra_latency = in.intra_latency;
  t.inter_bandwidth = in.inter_bandwidth;
  t.inter_latency = in.inter_latency;
  t.intra_efficiency = in.intra_efficiency;
  t.inter_efficiency = in.inter_efficiency;
  t.launch_latency = in.launch_latency;
  t.tp = in.train_tp;
  t.pp = in.train_pp;
  t.ep = in.train_ep;
  t.dp = static_cast<int>(tr.dp);
  t.zero_stage = in.zero_stage;
  t.recompute = in.recompute;
  t.optimizer_offload = in.optimizer_offload;
  t.microbatch = 1;
  // Each optimizer step takes samples / minibatches sequences, rounded up to a whole number
  // per data-parallel rank.
  const double samples = in.prompts * in.group_size;
  tr.global_batch = ceil_count(samples / in.minibatches / tr.dp) * tr.dp;
  t.global_batch = tr.global_batch;
  t.seq_len = std::max(1.0, std::round(in.prompt_len + in.response_len_mean));
  if (in.train_efficiency > 0) t.compute_efficiency = in.train_efficiency;
  t.flash_attention = true;
  Result<StepScenario> sc = step_scenario(t);
  if (!sc.ok()) return sc.error();
  const StepModel sm = step_model(sc->model, t.seq_len);
  tr.t = train_step(sm, sc->cluster, sc->layout, sc->job);
  return tr;
}

struct Phases {
  RlStepOut o{};
  double train_branch = 0, gen_branch = 0;
};

// The step in one placement with `gen_gpus` generating (all of them when colocated).
Result<Phases> evaluate(const RlStepIn& in, const SizedModel& sized, Engines& engines, Placement p,
                        double gen_gpus, Derivation& d) {
  Phases ph;
  RlStepOut& o = ph.o;
  const bool coloc = p == Placement::Colocated;
  const double train_gpus = coloc ? in.total_gpus : in.total_gpus - gen_gpus;
  o.generation_gpus = gen_gpus;
  o.training_gpus = train_gpus;
  if (!coloc && (gen_gpus < 1 || train_gpus < 1))
    return Error::inconsistent("generation_gpus", gen_gpus,
                               "must leave GPUs for both generation and training (total_gpus = " +
                                   whole(in.total_gpus) + ")");
  const Model& m = sized.model;
  const double samples = in.prompts * in.group_size;
  const double seq = in.prompt_len + in.response_len_mean;

  Result<const Engine*> eng = engine_of(engines, in, p, d);
  if (!eng.ok()) return eng.error();
  Result<Rollout> ro = rollout(in, sized, *eng.value(), gen_gpus, p, d);
  if (!ro.ok()) return ro.error();
  const Rollout& r = ro.value();
  o.replicas = r.replicas;
  o.sequences_per_replica = r.per_replica;
  o.concurrent_sequences = r.concurrent;
  o.decode_steps = r.steps;
  o.tail_time = r.tail;
  o.generation_time = r.prefill + r.decode;
  d.step("Generation (every replica in parallel)", "T_{\\text{gen}}", "$P + $D",
         {{"P", "T_{\\text{prefill}}", r.prefill, unit::seconds},
          {"D", "T_{\\text{decode}}", r.decode, unit::seconds}},
         o.generation_time, unit::seconds);

  Result<Trainer> tr_r = trainer(in, m, train_gpus);
  if (!tr_r.ok()) return tr_r.error();
  const Trainer& tr = tr_r.value();
  const StepTimes& t = tr.t;

  // Reward: a model's forward pass over prompt + response (2 FLOPs per weight per token,
  // Kaplan et al. 2020 §2.1) on the GPUs that generate, or the checkers' own time.
  const double rm_params = in.reward_model_params > 0 ? in.reward_model_params : sized.total;
  const double gemm = in.peak_flops * in.matmul_fraction *
                      (in.train_efficiency > 0 ? in.train_efficiency : kDefaultComputeEfficiency);
  if (in.reward == "model") {
    o.reward_time = 2 * rm_params * samples * seq / (gen_gpus * gemm);
    d.step("Reward model: a forward pass over every sample", "T_{\\text{reward}}",
           "\\frac{2 \\cdot $N \\cdot $S \\cdot $s}{$G \\cdot $F}",
           {{"N", "N_{\\text{RM}}", rm_params, unit::params},
            {"S", "S", samples},
            {"s", "p + \\overline{r}", seq, unit::tokens},
            {"G", "G_{\\text{gen}}", gen_gpus},
            {"F", "F_{\\text{GEMM}}", gemm, unit::flops}},
           o.reward_time, unit::seconds);
  } else {
    o.reward_time = in.verifier_time;
  }

  // Log-probabilities: forward passes of the policy (its log-probs before the update), the
  // reference model (the KL penalty) and, for PPO, the critic's values — each a third of a
  // training step's forward + backward work (no recomputation, optimizer or gradient
  // reduction), over every sample.
  const double critic_share =
      in.algorithm == "ppo" ? (in.critic_params > 0 ? in.critic_params / sized.total : 1) : 0;
  const double passes =
      (in.recompute_logprobs ? 1 : 0) + (in.reference_model ? 1 : 0) + critic_share;
  const double fwd_work =
      (t.compute + t.elementwise + t.tp_comm + t.cp_comm + t.ep_comm + t.pp_comm + t.bubble) / 3;
  const double optimizer_steps = in.minibatches;
  o.logprob_time = passes * optimizer_steps * fwd_work;
  d.step(
      "Log-probability passes (forward only: a third of a training step's forward + backward "
      "work)",
      "T_{\\text{logp}}", "$k \\cdot $m \\cdot \\frac{$F}{3}",
      {{"k", "k", passes},
       {"m", "m", optimizer_steps},
       {"F", "T_{\\text{fwd+bwd}}", 3 * fwd_work, unit::seconds}},
      o.logprob_time, unit::seconds);
  // Training: train.step's step for each minibatch and epoch; PPO also trains a critic,
  // charged in proportion to its size (the policy's by default, as OpenRLHF's recipes; the
  // reward model's in DeepSpeed-Chat's).
  const double critics = 1 + critic_share;
  o.train_time = critics * in.epochs * optimizer_steps * t.step;
  d.step(critic_share > 0 ? "Training: the policy and the critic (by its size), train.step per "
                            "minibatch"
                          : "Training: train.step per minibatch",
         "T_{\\text{train}}", "$c \\cdot $e \\cdot $m \\cdot $T",
         {{"c", "(1 + N_{\\text{critic}} / N)", critics},
          {"e", "e", in.epochs},
          {"m", "m", optimizer_steps},
          {"T", "T_{\\text{step}}", t.step, unit::seconds}},
         o.train_time, unit::seconds);

  // Weight transfer to the engine. Colocated: the engine's TP shard gathered from the
  // trainer's shards (NVLink inside a node, the NIC when the trainer spans nodes). Otherwise a
  // pipelined broadcast from the trainer's distinct shards, each on its own NIC (NeMo-RL's
  // refit, veRL's and slime's NCCL broadcast; docs/rl.md lists measured refit times).
  const double w_bytes = sized.total * 2;
  const bool across = train_gpus > in.gpus_per_node;
  if (in.weight_sync == "per_tensor" && in.weight_sync_bandwidth <= 0) {
    // One broadcast per checkpoint tensor from one rank to every rank of the group (the trainer's
    // and the engine's; the engine's TP group alone when colocated): each pays the collective's
    // latency over that many ranks, so a model of many small tensors (an MoE's experts) syncs
    // far below the links' rate. verl's NCCL baseline on H20s (docs/advance/fully_async.md):
    // Qwen3-30B-A3B, 16 → 16 ranks, 15.76 s; Qwen3-235B-A22B, 64 → 64, 58.57 s.
    const double tensors = checkpoint_tensors(m);
    const double ranks = coloc ? in.gen_tp : train_gpus + gen_gpus;
    const Tier tier = group_link(in, ranks);
    const double per = ranks > 1 ? collective_time(Collective::Broadcast, w_bytes / tensors,
                                                   static_cast<int>(ranks), tier)
                                       .time
                                 : 0;
    o.weight_sync_time = tensors * (per + in.tensor_overhead);
    d.step(
        "Weight update tensor by tensor: one broadcast per checkpoint tensor over every rank, "
        "and the framework's own cost per tensor",
        "T_{\\text{sync}}", "$n \\cdot (T_{\\text{bcast}}($v, $r) + $c)",
        {{"n", "n_{\\text{tensors}}", tensors},
         {"v", "W / n", w_bytes / tensors, unit::bytes},
         {"r", "N", ranks},
         {"c", "c_{\\text{tensor}}", in.tensor_overhead, unit::seconds}},
        o.weight_sync_time, unit::seconds);
  } else if (in.weight_sync_bandwidth > 0) {
    o.weight_sync_time = (coloc ? w_bytes / in.gen_tp : w_bytes) / in.weight_sync_bandwidth;
    d.step(coloc ? "Weight update at the given rate (each GPU gathers its TP shard)"
                 : "Weight update at the given rate",
           "T_{\\text{sync}}", coloc ? "\\frac{$W}{$t \\cdot $B}" : "\\frac{$W}{$B}",
           {{"W", "W", w_bytes, unit::bytes},
            {"t", "TP_{\\text{gen}}", double(in.gen_tp)},
            {"B", "B_{\\text{sync}}", in.weight_sync_bandwidth, unit::bytes_per_s}},
           o.weight_sync_time, unit::seconds);
  } else if (coloc) {
    const double bw = across ? in.inter_bandwidth * in.inter_efficiency
                             : in.intra_bandwidth * in.intra_efficiency;
    o.weight_sync_time = w_bytes / in.gen_tp / bw;
    d.step("Weight resharding for the engine (each GPU gathers its TP shard)", "T_{\\text{sync}}",
           "\\frac{$W}{$t \\cdot $B}",
           {{"W", "W", w_bytes, unit::bytes},
            {"t", "TP_{\\text{gen}}", double(in.gen_tp)},
            {"B", across ? "B_{\\text{NIC}}" : "B_{\\text{NVLink}}", bw, unit::bytes_per_s}},
           o.weight_sync_time, unit::seconds);
  } else {
    const double holders =
        static_cast<double>(in.train_tp) * in.train_pp * (in.zero_stage >= 3 ? tr.dp : 1);
    const double streams = std::min({holders, double(in.gpus_per_node), gen_gpus});
    const double bw = in.inter_bandwidth * in.inter_efficiency;
    o.weight_sync_time = w_bytes / (streams * bw) + in.inter_latency;
    d.step(
        "Weight broadcast to the generation GPUs (one stream per distinct shard, a node's "
        "NICs at most)",
        "T_{\\text{sync}}", "\\frac{$W}{$s \\cdot $B} + $l",
        {{"W", "W", w_bytes, unit::bytes},
         {"s", "s", streams},
         {"B", "B_{\\text{NIC}}", bw, unit::bytes_per_s},
         {"l", "\\alpha", in.inter_latency, unit::seconds}},
        o.weight_sync_time, unit::seconds);
  }
  // Colocated: the engine and the trainer take turns on the same GPUs, so what one holds leaves
  // while the other runs. NeMo-RL (nemo_rl/algorithms/grpo.py, refit_policy_generation) moves the
  // trainer's gradients and optimizer, then its weights, to host memory before generation and
  // back before the log-prob passes and training; the engine's weights wake from host memory
  // (vLLM's level-1 sleep); the reference model's weights are swapped in for its pass and out
  // again. An optimizer already in host memory (optimizer_offload) does not move.
  o.offload_time = not_given;
  if (coloc && in.colocated_offload != "none") {
    const bool full = in.colocated_offload == "full";
    const double opt = in.optimizer_offload ? 0 : t.memory.optimizer;
    const double trainer = full ? t.memory.weights + t.memory.gradients + opt : opt;
    const double engine = full ? w_bytes / in.gen_tp : 0;
    const double reference = full && in.reference_model ? 2 * t.memory.weights : 0;
    o.offload_time = (2 * trainer + engine + reference) / in.host_bandwidth;
    if (full)
      d.step(
          "Switching the GPUs between trainer and engine: the trainer's state out and back, "
          "the engine's weights in, the reference model swapped in and out",
          "T_{\\text{switch}}", "\\frac{2 \\cdot $S + $E + $R}{$B}",
          {{"S", "M_{\\text{trainer}}", trainer, unit::bytes},
           {"E", "W_{\\text{engine}}", engine, unit::bytes},
           {"R", "2 \\cdot W_{\\text{ref}}", reference, unit::bytes},
           {"B", "B_{\\text{host}}", in.host_bandwidth, unit::bytes_per_s}},
          o.offload_time, unit::seconds);
    else
      d.step("Optimizer state to host memory and back (colocated)", "T_{\\text{switch}}",
             "\\frac{2 \\cdot $O}{$B}",
             {{"O", "M_{\\text{opt}}", opt, unit::bytes},
              {"B", "B_{\\text{host}}", in.host_bandwidth, unit::bytes_per_s}},
             o.offload_time, unit::seconds);
  }
  const double offload = std::isnan(o.offload_time) ? 0 : o.offload_time;

  ph.gen_branch = o.generation_time + o.reward_time;
  ph.train_branch = o.logprob_time + o.train_time;
  if (p == Placement::Async) {
    // The engine stops to load new weights; the trainer never waits for it.
    ph.gen_branch += o.weight_sync_time;
    o.step_time = std::max(ph.gen_branch, ph.train_branch);
  } else {
    o.step_time = ph.gen_branch + ph.train_branch + o.weight_sync_time + offload;
  }
  // One step, three sums: each GPU set waits for the other unless generation runs ahead.
  d.step(p == Placement::Async ? "Step, asynchronous: generating the next batch overlaps training "
                                 "on this one"
         : coloc               ? "Step, colocated: every GPU generates, then every GPU trains"
                               : "Step, disaggregated: each GPU set waits for the other",
         "T_{\\text{step}}",
         p == Placement::Async ? "\\max($G + $R + $W,\\ $L + $T)"
         : coloc               ? "$G + $R + $L + $T + $W + $O"
                               : "$G + $R + $L + $T + $W",
         {{"G", "T_{\\text{gen}}", o.generation_time, unit::seconds},
          {"R", "T_{\\text{reward}}", o.reward_time, unit::seconds},
          {"L", "T_{\\text{logp}}", o.logprob_time, unit::seconds},
          {"T", "T_{\\text{train}}", o.train_time, unit::seconds},
          {"W", "T_{\\text{sync}}", o.weight_sync_time, unit::seconds},
          {"O", "T_{\\text{switch}}", offload, unit::seconds}},
         o.step_time, unit::seconds);
  o.samples_per_second = samples / o.step_time;
  // Tokens trained on (prompt + response), as NeMo-RL's performance tables count them.
  o.tokens_per_second = samples * seq / o.step_time;
  o.generation_utilization = ph.gen_branch / o.step_time;
  o.training_utilization = ph.train_branch / o.step_time;

  // Memory per GPU. The trainer: train.step's weights, gradients, optimizer and activations;
  // a reference model (and a reward model, scaled by its size) as BF16 weights sharded like
  // the policy's; PPO's
  // critic another trainer. The engine: gpu_memory_utilization of the GPU (vLLM claims it).
  // Colocated with the full offload, the reference model lives in host memory (swapped in for
  // its pass) and the trainer leaves the GPUs while the engine runs.
  const bool full_offload = coloc && in.colocated_offload == "full";
  const double ref = in.reference_model && !full_offload ? t.memory.weights : 0;
  const double critic = t.memory.total * critic_share;
  const double rm = in.reward == "model" ? t.memory.weights * rm_params / sized.total : 0;
  const double engine = engine_share(in, p) * in.gpu_memory;
  const double train_phase = t.memory.total + ref + critic + (coloc ? rm : 0);
  double gen_phase = engine + (coloc ? 0 : rm);
  if (coloc)  // the trainer keeps its weights unless they went to host memory (optimizer off)
    gen_phase += (full_offload ? 0 : t.memory.weights * (1 + critic_share) + ref) + rm;
  o.memory_per_gpu = std::max(train_phase, gen_phase);
  o.fits = o.memory_per_gpu <= in.gpu_memory;
  d.step(coloc ? "Memory per GPU: the larger of the training phase and the generation phase"
               : "Memory per GPU: the larger of a training GPU and a generation GPU",
         "M", "\\max($T,\\ $G)",
         {{"T", "M_{\\text{train}}", train_phase, unit::bytes},
          {"G", "M_{\\text{gen}}", gen_phase, unit::bytes}},
         o.memory_per_gpu, unit::bytes);
  if (!o.fits && d.recording()) {
    const bool train_worse = train_phase >= gen_phase;
    d.warn(std::string(train_worse ? "Training" : "Generation") + " needs " +
           format_value(o.memory_per_gpu, unit::bytes) + " per GPU, more than its " +
           format_value(in.gpu_memory, unit::bytes) + ": " +
           (train_worse ? "raise the trainer's TP, PP or ZeRO stage, recompute activations or "
                          "keep the optimizer in host memory"
                        : "lower the engine's share of GPU memory") +
           (coloc ? ", or give generation its own GPUs (placement disaggregated or async)" : "") +
           ".");
  }
  return ph;
}

// The generation GPU counts a split can take: multiples of the engine's TP that leave the
// trainer a whole number of TP × PP groups; at most 24, spread evenly.
std::vector<double> split_candidates(const RlStepIn& in) {
  std::vector<double> all;
  const double unit_t = static_cast<double>(in.train_tp) * in.train_pp;
  for (double g = in.gen_tp; g < in.total_gpus && all.size() < 100000; g += in.gen_tp) {
    const double rest = in.total_gpus - g;
    if (std::fmod(rest, unit_t) == 0) all.push_back(g);
  }
  if (all.size() <= 24) return all;
  std::vector<double> some;
  for (int i = 0; i < 24; ++i)
    some.push_back(all[static_cast<std::size_t>(std::round(i * (all.size() - 1) / 23.0))]);
  return some;
}

double best_split(const RlStepIn& in, const SizedModel& sized, Engines& engines, Placement p,
                  double* gpus) {
  double best = not_given;
  Derivation quiet(false);
  for (double g : split_candidates(in)) {
    Result<Phases> ph = evaluate(in, sized, engines, p, g, quiet);
    if (!ph.ok() || !ph->o.fits) continue;
    if (std::isnan(best) || ph->o.step_time < best) {
      best = ph->o.step_time;
      if (gpus) *gpus = g;
    }
  }
  return best;
}

}  // namespace

Result<RlStepOut> rl_step(const RlStepIn& in, Derivation& d) {
  if (in.response_len_max < in.response_len_mean)
    return Error::inconsistent("response_len_max", in.response_len_max,
                               "must be at least the mean response length (" +
                                   format_value(in.response_len_mean, unit::tokens) + ")");
  const Placement p = placement_of(in.placement);
  if (p != Placement::Async && in.staleness != 1)
    d.warn("Staleness (" + whole(in.staleness) +
           ") applies to the asynchronous placement only; this placement is on-policy.");
  Result<SizedModel> sized = to_sized_model(in, d);
  if (!sized.ok()) return sized.error();
  double gen_gpus = in.total_gpus;
  if (p != Placement::Colocated) {
    if (in.generation_gpus >= in.total_gpus)
      return Error::inconsistent(
          "generation_gpus", in.generation_gpus,
          "must leave GPUs for training (total_gpus = " + whole(in.total_gpus) + ")");
    gen_gpus = in.generation_gpus;
    if (gen_gpus == 0) {
      // Half, rounded to whole engine replicas (NeMo-RL's recipes split about evenly).
      gen_gpus = std::max(1.0, std::round(in.total_gpus / 2 / in.gen_tp)) * in.gen_tp;
      d.step("GPUs that generate (not given: half, whole engine replicas)", "G_{\\text{gen}}",
             "\\text{round}(\\frac{$N}{2 \\cdot $t}) \\cdot $t",
             {{"N", "N", in.total_gpus, unit::gpus}, {"t", "TP_{\\text{gen}}", double(in.gen_tp)}},
             gen_gpus, unit::gpus);
    }
  } else if (in.generation_gpus > 0 && in.generation_gpus != in.total_gpus) {
    d.warn("GPUs generating (" + whole(in.generation_gpus) +
           ") is not used when colocated: every GPU generates, then every GPU trains.");
  }
  Engines engines;
  Result<Phases> ph = evaluate(in, sized.value(), engines, p, gen_gpus, d);
  if (!ph.ok()) return ph.error();
  RlStepOut o = ph->o;
  o.speedup_vs_sync = o.best_sync_step_time = not_given;
  o.best_generation_gpus = o.best_split_step_time = not_given;
  if (p != Placement::Colocated) {
    double g = 0;
    o.best_split_step_time = best_split(in, sized.value(), engines, p, &g);
    if (!std::isnan(o.best_split_step_time)) {
      o.best_generation_gpus = g;
      d.note("The best split of these GPUs",
             whole(g) + " GPUs generating and " + whole(in.total_gpus - g) +
                 " training give a step of " + format_value(o.best_split_step_time, unit::seconds) +
                 (g == gen_gpus ? " (this split)." : "."));
    }
  }
  if (p == Placement::Async) {
    // Against the best synchronous layout on the same GPUs: colocated, or disaggregated at
    // its own best split.
    Derivation quiet(false);
    Result<Phases> co =
        evaluate(in, sized.value(), engines, Placement::Colocated, in.total_gpus, quiet);
    double best = co.ok() && co->o.fits ? co->o.step_time : not_given;
    const char* which = "colocated";
    const double dis = best_split(in, sized.value(), engines, Placement::Disaggregated, nullptr);
    if (!std::isnan(dis) && (std::isnan(best) || dis < best)) best = dis, which = "disaggregated";
    if (!std::isnan(best)) {
      o.best_sync_step_time = best;
      o.speedup_vs_sync = best / o.step_time;
      d.step(std::string("Speedup over the best synchronous layout of these GPUs (") + which + ")",
             "s", "\\frac{$S}{$A}",
             {{"S", "T_{\\text{sync}}", best, unit::seconds},
              {"A", "T_{\\text{async}}", o.step_time, unit::seconds}},
             o.speedup_vs_sync, unit::times);
    }
  }
  if (d.recording()) {
    const double parts[] = {o.generation_time, o.reward_time, o.logprob_time, o.train_time,
                            o.weight_sync_time};
    const char* names[] = {"Generation", "The reward", "The log-probability passes", "Training",
                           "The weight transfer"};
    std::size_t top = 0;
    for (std::size_t i = 1; i < 5; ++i)
      if (parts[i] > parts[top]) top = i;
    d.note("What dominates", std::string(names[top]) + " is the longest phase (" +
                                 format_value(parts[top], unit::seconds) +
                                 "); waiting for the longest response "
                                 "costs " +
                                 format_value(o.tail_time, unit::seconds) + " of generation.");
  }
  return o;
}

}  // namespace napkin
