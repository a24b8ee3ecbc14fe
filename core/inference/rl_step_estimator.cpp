// The rl.step estimator's declaration: its inputs (the shared model first, then the batch,
// the placement, the GPUs, the engine and the trainer) and outputs, and its charts.
#include "base/units.hpp"
#include "inference/rl_step.hpp"
#include "registry/registry.hpp"
#include "scenario/accelerator_inputs.hpp"

namespace napkin {

void register_rl_step(Registry& r) {
  using In = RlStepIn;
  using Out = RlStepOut;
  r.add(with_sized_model_inputs<In>(
      declare<rl_step>(
          {"rl.step", "RL post-training step (GRPO/PPO)", "inference",
           "Time of one RL post-training step — rollouts on a serving engine, reward, "
           "log-probability passes, the update and the weight transfer — colocated, on separate "
           "GPUs, or asynchronous, and the memory each GPU needs.",
           "NeMo-RL performance summary (v0.5, v0.6); Sheng et al. 2024 (HybridFlow/veRL); Fu "
           "et al. 2025 (AReaL); Noukhovitch et al. 2025 (Asynchronous RLHF)",
           "docs/rl.md#rlstep"},
          {choice("placement", NAPKIN_FIELD(In, placement), "Placement",
                  "colocated|disaggregated|async")
               .labels("Colocated: every GPU generates, then trains|Disaggregated: separate "
                       "GPUs, one phase after the other|Asynchronous: generation runs ahead of "
                       "training")
               .help("Colocated is veRL's and NeMo-RL's default; asynchronous generates the next "
                     "batch with weights up to k steps old (staleness)")
               .group("job"),
           choice("algorithm", NAPKIN_FIELD(In, algorithm), "Algorithm", "grpo|ppo")
               .labels("GRPO (no critic)|PPO (a critic the policy's size)")
               .help("PPO adds a critic: a value pass and a second model to train")
               .group("job"),
           num("prompts", NAPKIN_FIELD(In, prompts), "Prompts per step")
               .help("Prompts each step samples (NeMo-RL's recipe: 64)")
               .range(1, 1e7)
               .integer()
               .group("job"),
           num("group_size", NAPKIN_FIELD(In, group_size), "Responses per prompt (G)")
               .help("GRPO's group: responses sampled for each prompt (1 for PPO)")
               .range(1, 1e5)
               .integer()
               .group("job"),
           num("prompt_len", NAPKIN_FIELD(In, prompt_len), "Prompt length", unit::tokens)
               .help("Tokens per prompt, on average")
               .range(1, 1e7)
               .integer()
               .group("job"),
           num("response_len_mean", NAPKIN_FIELD(In, response_len_mean), "Mean response length",
               unit::tokens)
               .help("Generated tokens per response, on average")
               .range(1, 1e7)
               .integer()
               .group("job"),
           num("response_len_max", NAPKIN_FIELD(In, response_len_max), "Longest response",
               unit::tokens)
               .help("The cap on a response (max new tokens): in a batch of thousands some "
                     "response reaches it, and the batch waits for it")
               .range(1, 1e7)
               .integer()
               .group("job"),
           num("minibatches", NAPKIN_FIELD(In, minibatches), "Optimizer steps per RL step")
               .help("The samples split into this many updates (NeMo-RL: 2,048 samples, 512 per "
                     "update = 4)")
               .range(1, 1e5)
               .integer()
               .group("job"),
           num("epochs", NAPKIN_FIELD(In, epochs), "Epochs over the samples")
               .help("Passes of training over each batch of samples (PPO's epochs; GRPO: 1)")
               .range(1, 100)
               .integer()
               .group("job"),
           flag("reference_model", NAPKIN_FIELD(In, reference_model), "Reference model (KL)")
               .help("A frozen copy of the initial policy for the KL penalty: one more forward "
                     "pass and its weights in memory")
               .group("job"),
           flag("recompute_logprobs", NAPKIN_FIELD(In, recompute_logprobs),
                "Recompute the policy's log-probs")
               .help("The trainer's own forward pass for the log-probs the engine sampled with "
                     "(NeMo-RL, veRL and AReaL do)")
               .group("job"),
           choice("reward", NAPKIN_FIELD(In, reward), "Reward", "verifier|model")
               .labels("Verifier (math or code checker)|Reward model")
               .help("A verifier costs the CPU time given; a reward model a forward pass over "
                     "every sample")
               .group("job"),
           num("reward_model_params", NAPKIN_FIELD(In, reward_model_params),
               "Reward model size (0 = the policy's)", unit::params)
               .help("Parameters of the reward model, when the reward is a model")
               .range(0, 1e15)
               .group("job"),
           num("critic_params", NAPKIN_FIELD(In, critic_params), "Critic size (0 = the policy's)",
               unit::params)
               .help("PPO's value model: its training and value pass are charged by its size "
                     "(DeepSpeed-Chat uses the reward model's)")
               .range(0, 1e15)
               .group("job"),
           num("verifier_time", NAPKIN_FIELD(In, verifier_time), "Verifier time per step",
               unit::seconds)
               .help("Wall time the checkers add to a step (0 when they overlap generation)")
               .range(0, 1e6)
               .group("job"),
           num("staleness", NAPKIN_FIELD(In, staleness), "Staleness k (async)")
               .help("Steps generation may run ahead of training: 1 = one step off-policy")
               .range(1, 64)
               .integer()
               .group("job"),
           num("total_gpus", NAPKIN_FIELD(In, total_gpus), "GPUs", unit::gpus)
               .help("Every GPU of the job: generation and training")
               .range(1, 1e6)
               .integer()
               .group("cluster"),
           num("generation_gpus", NAPKIN_FIELD(In, generation_gpus), "GPUs generating (0 = half)",
               unit::gpus)
               .help("Disaggregated and asynchronous: the GPUs that run the engine; the rest "
                     "train")
               .range(0, 1e6)
               .integer()
               .group("cluster"),
           num("gpus_per_node", NAPKIN_FIELD(In, gpus_per_node), "GPUs per node", unit::gpus)
               .help("GPUs on one NVLink domain")
               .range(1, 1024)
               .integer()
               .group("cluster"),
           peak_flops_input(NAPKIN_FIELD(In, peak_flops)).group("cluster"),
           num("peak_fp8", NAPKIN_FIELD(In, peak_fp8), "Peak FP8 FLOP/s per GPU", unit::flops)
               .help("Dense FP8 peak, for an FP8 engine; 0 = no FP8 path (the math then runs "
                     "at the BF16 peak)")
               .range(0, 1e17)
               .group("cluster"),
           hbm_bandwidth_input(NAPKIN_FIELD(In, mem_bandwidth), "HBM bandwidth", 1e14)
               .group("cluster"),
           gpu_memory_input(NAPKIN_FIELD(In, gpu_memory)).group("cluster"),
           matmul_fraction_input(NAPKIN_FIELD(In, matmul_fraction)).group("cluster"),
           matmul_fraction_fp8_input(NAPKIN_FIELD(In, matmul_fraction_fp8)).group("cluster"),
           sms_input(NAPKIN_FIELD(In, sms)).group("cluster"),
           num("intra_bandwidth", NAPKIN_FIELD(In, intra_bandwidth), "Intra-node bandwidth",
               unit::bytes_per_s)
               .help("NVLink bandwidth per GPU in one direction")
               .positive(1e15)
               .group("cluster"),
           num("intra_latency", NAPKIN_FIELD(In, intra_latency), "Intra-node latency",
               unit::seconds)
               .help("Latency of one step of a collective inside a node")
               .range(0, 1)
               .group("cluster"),
           num("inter_bandwidth", NAPKIN_FIELD(In, inter_bandwidth), "Inter-node bandwidth per GPU",
               unit::bytes_per_s)
               .help("InfiniBand or RoCE bandwidth per GPU in one direction")
               .positive(1e15)
               .group("cluster"),
           num("inter_latency", NAPKIN_FIELD(In, inter_latency), "Inter-node latency",
               unit::seconds)
               .help("Latency of one step of a collective between nodes")
               .range(0, 1)
               .group("cluster"),
           intra_efficiency_input(NAPKIN_FIELD(In, intra_efficiency)).group("cluster"),
           inter_efficiency_input(NAPKIN_FIELD(In, inter_efficiency)).group("cluster"),
           launch_latency_input(NAPKIN_FIELD(In, launch_latency)).group("cluster"),
           num("host_bandwidth", NAPKIN_FIELD(In, host_bandwidth), "GPU ↔ host bandwidth",
               unit::bytes_per_s)
               .help("What a framework's copies between GPU and host memory achieve per GPU "
                     "(many tensors: far below PCIe's 64 GB/s). 10 GB/s: NeMo-RL's refit of "
                     "Llama 3.1 8B; vLLM wakes its weights at 7.5 GB/s on an A100")
               .positive(1e13)
               .group("cluster"),
           choice("weight_sync", NAPKIN_FIELD(In, weight_sync), "Weight update",
                  "bucketed|per_tensor")
               .labels("Bucketed, from every shard (NeMo-RL)|Tensor by tensor from one rank "
                       "(verl's NCCL baseline)")
               .help("How the trainer's weights reach the engine: large buffers from every shard "
                     "at once, or one broadcast per checkpoint tensor to every rank, each paying "
                     "the collective's latency")
               .group("layout"),
           num("tensor_overhead", NAPKIN_FIELD(In, tensor_overhead), "Framework cost per tensor",
               unit::seconds)
               .help("Tensor-by-tensor updates only: what each tensor costs beyond its broadcast "
                     "(gathering it from the trainer's shards, the engine's loader). 0 by "
                     "default; verl's NCCL baseline spends 0.7–1.3 ms per tensor on Qwen3 MoE "
                     "models (docs/rl.md)")
               .range(0, 10)
               .group("layout"),
           choice("colocated_offload", NAPKIN_FIELD(In, colocated_offload),
                  "Colocated: what moves to host memory", "full|optimizer|none")
               .labels("Trainer state and engine weights (NeMo-RL)|Optimizer state only|Nothing")
               .help("While the engine generates on the training GPUs: NeMo-RL moves the "
                     "trainer's weights, gradients and optimizer to host memory and back, wakes "
                     "the engine's weights from host memory and swaps the reference model in "
                     "for its pass; or only the optimizer moves; or nothing")
               .group("layout"),
           num("gen_tp", NAPKIN_FIELD(In, gen_tp), "Engine TP")
               .help("GPUs one engine replica is split over (tensor parallel)")
               .range(1, 1024)
               .integer()
               .group("layout"),
           choice("gen_dtype", NAPKIN_FIELD(In, gen_dtype), "Engine weights", "bf16|fp8")
               .labels("BF16|FP8")
               .help("Precision of the engine's weights (FP8 generation: NeMo-RL's FP8 rows)")
               .group("layout"),
           num("gpu_memory_utilization", NAPKIN_FIELD(In, gpu_memory_utilization),
               "Engine's share of GPU memory (0 = usual)", unit::fraction)
               .help("vLLM's GPU memory utilisation setting: weights, activations and KV cache; 0 "
                     "takes "
                     "0.6 when colocated (NeMo-RL's) and vLLM's 0.9 on GPUs of its own")
               .range(0, 1)
               .group("layout"),
           gemm_share_input(NAPKIN_FIELD(In, compute_efficiency)).group("layout"),
           bandwidth_efficiency_input(NAPKIN_FIELD(In, bandwidth_efficiency)).group("layout"),
           num("step_overhead", NAPKIN_FIELD(In, step_overhead), "Engine work per step",
               unit::seconds)
               .help("The generation engine's own work each decode step that the GPU waits for "
                     "(scheduling, sampling with log-probs, detokenizing): 5 ms, what vLLM took "
                     "per step inside NeMo-RL v0.3 (Llama 3.1 8B on 8 GPUs: 58 s of generation "
                     "against 37 s of GPU work); 0 when the engine overlaps it")
               .range(0, 10)
               .group("layout"),
           num("train_tp", NAPKIN_FIELD(In, train_tp), "Trainer TP")
               .help("Tensor parallel degree of the trainer")
               .range(1, 1024)
               .integer()
               .group("layout"),
           num("train_pp", NAPKIN_FIELD(In, train_pp), "Trainer PP")
               .help("Pipeline stages of the trainer")
               .range(1, 1024)
               .integer()
               .group("layout"),
           num("train_ep", NAPKIN_FIELD(In, train_ep), "Trainer EP")
               .help("Expert parallel degree of the trainer (a mixture of experts; reuses its "
                     "data-parallel ranks)")
               .range(1, 1024)
               .integer()
               .group("layout"),
           num("zero_stage", NAPKIN_FIELD(In, zero_stage), "Trainer ZeRO stage")
               .help("3 = FSDP: parameters, gradients and optimizer sharded over data parallel")
               .range(0, 3)
               .integer()
               .group("layout"),
           choice("recompute", NAPKIN_FIELD(In, recompute), "Recomputation", "none|selective|full")
               .labels("None|Selective (attention only)|Full (per layer)")
               .help("Activation recomputation in the trainer")
               .group("layout"),
           flag("optimizer_offload", NAPKIN_FIELD(In, optimizer_offload),
                "Optimizer in host memory")
               .help("The trainer keeps Adam's state in CPU memory (DeepSpeed/veRL offload)")
               .group("layout"),
           num("train_efficiency", NAPKIN_FIELD(In, train_efficiency),
               "Trainer kernel efficiency (0 = train.step's)", unit::fraction)
               .help("Share of the best GEMM's rate the trainer's kernels reach; 0 takes "
                     "train.step's default")
               .range(0, 1)
               .group("layout"),
           num("weight_sync_bandwidth", NAPKIN_FIELD(In, weight_sync_bandwidth),
               "Weight transfer rate (0 = from the links)", unit::bytes_per_s)
               .help("A measured refit rate, when known; 0 derives it from the links")
               .range(0, 1e15)
               .group("layout")},
          {out("step_time", NAPKIN_FIELD(Out, step_time), "Step time", unit::seconds)
               .help("Wall time of one RL step"),
           out("generation_time", NAPKIN_FIELD(Out, generation_time), "Generation", unit::seconds)
               .help("Prefill and decode of every response, waiting for the longest"),
           out("logprob_time", NAPKIN_FIELD(Out, logprob_time), "Log-prob passes", unit::seconds)
               .help("Forward passes of the policy, the reference and (PPO) the critic"),
           out("reward_time", NAPKIN_FIELD(Out, reward_time), "Reward", unit::seconds)
               .help("Reward model forward pass, or the verifier time given"),
           out("train_time", NAPKIN_FIELD(Out, train_time), "Training", unit::seconds)
               .help("The updates: train.step per minibatch and epoch"),
           out("weight_sync_time", NAPKIN_FIELD(Out, weight_sync_time), "Weight transfer",
               unit::seconds)
               .help("New weights into the engine: resharded in place, or broadcast"),
           out("samples_per_second", NAPKIN_FIELD(Out, samples_per_second), "Samples/s",
               unit::samples_per_s)
               .help("Responses trained on per second"),
           out("tokens_per_second", NAPKIN_FIELD(Out, tokens_per_second), "Tokens/s",
               unit::tokens_per_s)
               .help("Prompt + response tokens trained on per second (NeMo-RL's count)"),
           out("memory_per_gpu", NAPKIN_FIELD(Out, memory_per_gpu), "Memory per GPU", unit::bytes)
               .help("The fullest GPU in its fullest phase"),
           out("fits", NAPKIN_FIELD(Out, fits), "Fits in memory")
               .help("Every GPU holds what it needs in every phase"),
           out("speedup_vs_sync", NAPKIN_FIELD(Out, speedup_vs_sync), "Speedup over sync",
               unit::times)
               .help("Async: the best synchronous step on the same GPUs ÷ this step")
               .optional(),
           out("best_sync_step_time", NAPKIN_FIELD(Out, best_sync_step_time),
               "Best synchronous step", unit::seconds)
               .help("Async: the faster of colocated and the best disaggregated split")
               .optional(),
           out("generation_gpus", NAPKIN_FIELD(Out, generation_gpus), "GPUs generating", unit::gpus)
               .help("GPUs that run the engine"),
           out("training_gpus", NAPKIN_FIELD(Out, training_gpus), "GPUs training", unit::gpus)
               .help("GPUs that run the trainer (all of them when colocated)"),
           out("replicas", NAPKIN_FIELD(Out, replicas), "Engine replicas")
               .help("Generation GPUs ÷ engine TP"),
           out("sequences_per_replica", NAPKIN_FIELD(Out, sequences_per_replica),
               "Responses per replica")
               .help("Prompts × G shared over the replicas"),
           out("concurrent_sequences", NAPKIN_FIELD(Out, concurrent_sequences),
               "Responses decoding at once")
               .help("Per replica: its responses, or as many as its KV cache holds"),
           out("decode_steps", NAPKIN_FIELD(Out, decode_steps), "Decode steps")
               .help("Steps a replica runs for one batch, the longest response included"),
           out("tail_time", NAPKIN_FIELD(Out, tail_time), "Waiting for the longest", unit::seconds)
               .help("Generation time beyond a batch whose responses all had the mean length"),
           out("generation_utilization", NAPKIN_FIELD(Out, generation_utilization),
               "Generation busy", unit::fraction)
               .help("Share of the step the generation GPUs generate (and score)"),
           out("training_utilization", NAPKIN_FIELD(Out, training_utilization), "Training busy",
               unit::fraction)
               .help("Share of the step the training GPUs run log-prob passes and updates"),
           out("offload_time", NAPKIN_FIELD(Out, offload_time), "Switching to and from the engine",
               unit::seconds)
               .help("Colocated: what moves between GPU and host memory so that the engine and "
                     "the trainer can take turns on the same GPUs")
               .optional(),
           out("best_generation_gpus", NAPKIN_FIELD(Out, best_generation_gpus),
               "Best GPUs generating", unit::gpus)
               .help("Disaggregated or async: the split of these GPUs with the shortest step")
               .optional(),
           out("best_split_step_time", NAPKIN_FIELD(Out, best_split_step_time),
               "Step at the best split", unit::seconds)
               .help("The step time at that split")
               .optional()}),
      2));
  // Item 4 of the RL issue: step time against the GPUs given to generation, each placement.
  r.add_chart({.id = "rl-step-vs-generation-gpus",
               .title = "RL step time vs GPUs generating, by placement",
               .estimator = "rl.step",
               .x = "generation_gpus",
               .x_label = "GPUs generating",
               .y_label = "Step time",
               .y_unit = unit::seconds,
               .x_min = 1,
               .x_max = 16,
               .points = 9,
               .integer_x = true,
               .y = {"step_time"},
               .series = {{"Asynchronous", object_of({{"placement", "async"}})},
                          {"Disaggregated", object_of({{"placement", "disaggregated"}})},
                          {"Colocated (all GPUs)", object_of({{"placement", "colocated"}})}},
               .x_max_input = "total_gpus"});
  r.add_chart(
      {.id = "rl-step-phases",
       .title = "Where an RL step's time goes, by GPUs generating",
       .estimator = "rl.step",
       .x = "generation_gpus",
       .x_label = "GPUs generating",
       .y_label = "Time per step",
       .y_unit = unit::seconds,
       .x_min = 1,
       .x_max = 16,
       .points = 8,
       .integer_x = true,
       .kind = "bar",
       .y = {"generation_time", "reward_time", "logprob_time", "train_time", "weight_sync_time"},
       .series = {{"Disaggregated", object_of({{"placement", "disaggregated"}})}},
       .x_max_input = "total_gpus"});

  // The phases of each placement at the user's inputs, one bar each (a chart with no x input).
  // Asynchronous phases overlap: its step is the longer of generation and training.
  r.add_chart(
      {.id = "rl-step-by-placement",
       .title = "Time in each phase, by placement (asynchronous phases overlap)",
       .estimator = "rl.step",
       .x = "",
       .x_label = "Placement",
       .y_label = "Time per step",
       .y_unit = unit::seconds,
       .x_min = 0,
       .x_max = 2,
       .points = 3,
       .kind = "bar",
       .y = {"generation_time", "reward_time", "logprob_time", "train_time", "weight_sync_time"},
       .series = {{"Colocated", object_of({{"placement", "colocated"}})},
                  {"Disaggregated", object_of({{"placement", "disaggregated"}})},
                  {"Async", object_of({{"placement", "async"}})}},
       .mark_current = false});
}

}  // namespace napkin
