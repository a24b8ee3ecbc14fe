// Failures and checkpoints of a long training job: how often the whole job is interrupted, how
// often to save (Young 1974; Daly 2006), and the share of wall-clock time that still trains.
// Sources are cited above each formula in checkpointing.cpp and in docs/training.md.
#pragma once

#include "registry/registry.hpp"

namespace napkin {

// Defaults: Llama 3 405B's pre-training (Dubey et al. 2024, §3.3.4): 419 unexpected
// interruptions in a 54-day snapshot on 16,384 H100s, one per 2,111.5 GPU-days, rounded to
// 2,112 days so that the form shows a number a person would type.
struct CheckpointIn {
  double gpus = 16384;
  double gpu_mtbf = 2112.0 * 86400;  // s of one GPU's share between interruptions
  double checkpoint_time = 10;       // s the job stops to save one checkpoint
  double restart_time = 600;         // s to detect a failure, restart and reload
  double interval = 0;               // s of training between checkpoints; 0 = the optimum
};
struct CheckpointOut {
  double job_mtbf, interruptions_per_day, young_interval, optimal_interval, interval, goodput,
      lost_per_day;
};
Result<CheckpointOut> train_checkpoint(const CheckpointIn& in, Derivation& d);

}  // namespace napkin
