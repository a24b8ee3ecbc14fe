// How many layouts Calculon's search enumerates for the same job, counted without running it,
// so that `napkin search` can set its own space beside Calculon's dimension by dimension
// (docs/training.md#the-search-space-beside-calculons).
#pragma once

namespace napkin {

struct CalculonJob {
  long long gpus = 512;        // num_procs
  long long max_batch = 1536;  // max_batch_size: the batch is its largest multiple of DP
  long long hidden = 12288, attn_heads = 96, blocks = 96, seq = 2048;
  bool host_memory = true;  // the system has a second memory tier (mem2): offloads are tried
  int networks = 2;         // network tiers a group may be placed on (a100_80g.json: 2)
};

// The count of Calculon's llm-optimal-execution (calculon/llm/optimal_execution.py at
// calculon-ai/calculon caa4b11, fused activation on, TP and DP overlap allowed): every
// (tp, pp, interleaving, recomputation, optimizer sharding, TP communication kind, all-gather
// redo, DP overlap, TP overlap, three offloads, microbatch, and a network for each group of
// degree > 1) that its loops visit, whether it runs or raises.
long long calculon_space(const CalculonJob& job);

}  // namespace napkin
