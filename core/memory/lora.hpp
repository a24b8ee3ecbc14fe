// Fine-tuning memory with low-rank adapters: LoRA (Hu et al. 2021) on a frozen 16-bit base and
// QLoRA (Dettmers et al. 2023) on a 4-bit NormalFloat base. Sources are cited above each formula
// in lora.cpp and in docs/memory.md.
#pragma once

#include <string>

#include "registry/registry.hpp"
#include "scenario/gpu_figures.hpp"
#include "scenario/model_inputs.hpp"

namespace napkin {

// Defaults: the shared model shape (Llama 3 70B), QLoRA's recipe (Dettmers et al. 2023, §4 and
// Appendix B.2): NF4 base with double quantization, r = 64 on every linear layer, 16-bit adapters
// with 32-bit Adam states, gradient checkpointing, one 512-token sequence.
struct LoraIn : ModelInputs {
  double rank = 64;
  std::string targets = "all";  // qv | attention | all
  std::string base = "nf4";     // bf16 | int8 | nf4
  bool double_quant = true;     // NF4's block constants quantized again (0.127 bits, not 0.5)
  double adapter_bytes = 12;    // per trainable parameter: weight + gradient + Adam's m and v
  double full_bytes = 16;       // per parameter for full fine-tuning, for comparison
  double seq_len = 512;
  int micro_batch = 1;
  bool checkpointing = true;
  double gpu_memory = figures::h100_memory;
};
struct LoraOut {
  double adapter_params, trainable_fraction, base_bytes, adapter_states, activations, total;
  bool fits;
  double adapter_file, full_finetune;
};
Result<LoraOut> mem_lora(const LoraIn& in, Derivation& d);

}  // namespace napkin
