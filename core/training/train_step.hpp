// One optimizer step of training (SPEC §9), typed: the function train.step's estimator and the
// layout search both call, so the search ranks layouts by exactly the numbers the card shows.
#pragma once

#include "scenario/cluster.hpp"
#include "scenario/layout.hpp"
#include "scenario/model.hpp"
#include "scenario/training_memory.hpp"

namespace napkin {

struct StepJob {
  double global_batch = 1536;  // sequences per optimizer step
  double seq_len = 2048;
  double compute_efficiency = 0.5;  // fraction of peak large GEMMs reach
  Dtype math = Dtype::Bf16;
};

struct StepTimes {
  double step = 0, compute = 0, recompute = 0, bubble = 0;
  double tp_comm = 0, cp_comm = 0, ep_comm = 0, pp_comm = 0, dp_comm = 0;  // exposed parts
  double tokens_per_second = 0, mfu = 0, hfu = 0, model_flops_per_gpu = 0;
  TrainingMemory memory;
  bool fits = false;
};

// Per-model constants the search hoists out of its loop: FLOPs per token and parameters.
struct StepModel {
  Model model;
  double forward_flops_per_token = 0;  // causal attention at the job's sequence length
  double attention_score_flops = 0;    // the part selective recomputation repeats
  ModelParams params;
};
StepModel step_model(const Model& m, double seq_len);

// Time and memory of one step. The layout's microbatches field is derived from the job.
StepTimes train_step(const StepModel& sm, const Cluster& c, const Layout& l, const StepJob& job);

}  // namespace napkin

namespace napkin {
class Registry;
void register_train_step(Registry& r);  // the train.step estimator
}  // namespace napkin
