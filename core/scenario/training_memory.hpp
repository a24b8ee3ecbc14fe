// Memory per GPU for training (docs/memory.md, docs/training.md): one function used by
// mem.training, train.step and the layout search.
#pragma once

#include "scenario/layout.hpp"
#include "scenario/model.hpp"

namespace napkin {

struct TrainingMemory {
  double weights = 0, gradients = 0, optimizer = 0, activations = 0, total = 0;
};

// Activation bytes one transformer layer keeps for the backward pass, per microbatch, on one
// GPU (Korthikanti et al. 2022, Table 2: s·b·h·(34 + 5·a·s/h) in 16-bit, divided by t with
// sequence parallelism; selective recomputation drops the 5·a·s/h term; full keeps only the
// layer input s·b·h·2). Context parallelism divides s.
double activation_bytes_per_layer(const Model& m, const Layout& l, double seq_len);

// HBM bytes the memory-bound kernels of one transformer layer move in one forward pass of one
// microbatch on one GPU: the norms, the residual adds, the FFN's activation function and, when
// the s × s scores are stored (no fused attention), the softmax and its dropout. Their FLOPs are
// negligible; their time is these bytes over HBM bandwidth (a roofline, as Calculon counts
// each layer's memory traffic: Isaev et al. 2023). `attention` is the scores' share, which
// selective recomputation runs again.
struct LayerTraffic {
  double forward = 0;    // bytes, whole layer
  double attention = 0;  // bytes, softmax + dropout over the scores (part of forward)
};
LayerTraffic layer_traffic(const Model& m, const Layout& l, double seq_len);

// Routed-expert parameters of the whole model: EP shards them (each rank of an EP group holds
// experts/ep of every MoE layer), and their gradients are reduced over the dp·cp/ep ranks that
// hold the same experts (Megatron-Core's expert-data-parallel group); the rest is replicated
// over EP and reduced over all dp·cp ranks. 0 for a dense model.
double expert_params(const Model& m);

// Weights, gradients, optimizer state (ZeRO stage over dp·cp ranks; EP shards experts) and
// activations (in-flight microbatches of 1F1B on the first stage) on the busiest GPU.
TrainingMemory training_memory(const Model& m, const Layout& l, double seq_len);
// The same with the model's parameter counts already computed (the layout search's inner loop
// hoists model_params out of it).
TrainingMemory training_memory(const Model& m, const ModelParams& p, const Layout& l,
                               double seq_len);

}  // namespace napkin
