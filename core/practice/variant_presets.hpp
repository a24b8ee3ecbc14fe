// Real models and real accelerators for the variants of practice problems (issue #14.6): a
// variant draws a preset's index and `derive` fills in its numbers, so a statement never pairs
// 312 TFLOP/s with 3.35 TB/s or gives a 405B model 80 layers of width 8,192. The numbers
// come from the scenario presets (core/scenario/model_presets.cpp, cluster.cpp); nothing is
// retyped here.
#pragma once

#include <vector>

#include "scenario/cluster.hpp"
#include "scenario/model.hpp"

namespace napkin {

// The parameter counts of every model preset, exact (model_params), ascending and distinct.
const std::vector<double>& preset_param_counts();

// Dense model presets (no experts), in catalog order; a problem's choice is an index into it.
const std::vector<const ModelPreset*>& dense_model_presets();

// Accelerators with a BF16 peak and an HBM bandwidth, in catalog order.
const std::vector<const Gpu*>& accelerator_presets();

// `derive` for a parameter "gpu" indexing accelerator_presets(): sets "peak_flops" (BF16),
// "mem_bandwidth" and "gpu_memory" from the preset; a negative index (seed 0) keeps the
// worked example's own numbers.
class Values;
void accelerator_of_preset(Values& p);

// {0, 1, ..., n - 1}: the choices of a parameter that indexes one of the lists above.
std::vector<double> indices(std::size_t n);

}  // namespace napkin
