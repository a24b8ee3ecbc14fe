#include "memory/lora.hpp"

#include "base/units.hpp"
#include "root/areas.hpp"
#include "scenario/accelerator_inputs.hpp"
#include "scenario/training_memory.hpp"

namespace napkin {

namespace {
// Bits a base weight of a linear layer takes. NF4 (Dettmers et al. 2023, §3): 4 bits, plus one
// 32-bit absmax per block of 64 (0.5 bits per weight); double quantization stores those as
// 8-bit values with one 32-bit constant per 256 blocks: 8/64 + 32/(64·256) = 0.127 bits.
// LLM.int8()'s per-row scales are negligible at these widths.
double base_bits(const std::string& base, bool double_quant) {
  if (base == "bf16") return 16;
  if (base == "int8") return 8;
  return 4 + (double_quant ? 8.0 / 64 + 32.0 / (64 * 256) : 32.0 / 64);
}
}  // namespace

Result<LoraOut> mem_lora(const LoraIn& in, Derivation& d) {
  LoraOut o{};
  Result<Model> mr = to_model(in);
  if (!mr.ok()) return mr.error();
  const Model& m = mr.value();
  // MLA's down- and up-projections (DeepSeek-V2) have other shapes than W_q, W_k, W_v, W_o.
  if (m.attention == AttentionKind::Mla)
    return Error{"inconsistent", "attention_type",
                 "attention_type = mla: adapter sizes are modelled for standard attention (MHA, "
                 "GQA, MQA)",
                 Json("mla"), "standard"};
  const ModelParams p = model_params(m);
  // Hu et al. 2021, §4.1: a frozen n × m weight gains B·A with A of r × n and B of m × r, so
  // r·(n + m) trainable parameters per adapted matrix.
  const double r = in.rank, d_m = m.d_model, q = m.heads * m.head_dim, kv = m.kv_heads * m.head_dim;
  double attention = r * (d_m + q) + r * (d_m + kv);  // W_q and W_v (the LoRA paper's choice)
  if (in.targets != "qv") attention += r * (d_m + kv) + r * (q + d_m);  // W_k and W_o
  const double matrices = m.ffn == Ffn::Gated ? 3 : 2;
  const int moe_layers = moe_layer_count(m), dense_layers = m.layers - moe_layers;
  const double expert_ff = m.expert_d_ff > 0 ? m.expert_d_ff : m.d_ff;
  const double ffn_dense = in.targets == "all" ? matrices * r * (d_m + m.d_ff) : 0;
  const double ffn_moe =
      in.targets == "all" ? (m.experts + m.shared_experts) * matrices * r * (d_m + expert_ff) : 0;
  o.adapter_params = m.layers * attention + dense_layers * ffn_dense + moe_layers * ffn_moe;
  d.step("Adapter parameters", "N_A",
         in.targets == "all" ? "$L \\cdot $a + $l \\cdot $f + $e \\cdot $g" : "$L \\cdot $a",
         {{"L", "L", double(m.layers)},
          {"a", "A_{\\text{attn}}", attention, unit::params},
          {"l", "L_{\\text{dense}}", double(dense_layers)},
          {"f", "A_{\\text{FFN}}", ffn_dense, unit::params},
          {"e", "L_{\\text{MoE}}", double(moe_layers)},
          {"g", "A_{\\text{experts}}", ffn_moe, unit::params}},
         o.adapter_params, unit::params);
  o.trainable_fraction = o.adapter_params / p.total;
  d.step("Trainable share", "f", "\\frac{$A}{$N}",
         {{"A", "N_A", o.adapter_params, unit::params}, {"N", "N", p.total, unit::params}},
         o.trainable_fraction, unit::fraction);
  // Only linear layers are quantized (bitsandbytes' Linear4bit/Linear8bitLt); embeddings, the
  // output head and the norms stay 16-bit.
  const double kept = p.embedding + p.norms, linear = p.total - kept;
  const double bits = base_bits(in.base, in.double_quant);
  o.base_bytes = linear * bits / 8 + kept * 2;
  d.step("Frozen base weights", "M_{\\text{base}}", "$W \\cdot \\frac{$b}{8} + $E \\cdot 2",
         {{"W", "N_{\\text{linear}}", linear, unit::params},
          {"b", "b", bits},
          {"E", "N_{\\text{embed+norm}}", kept, unit::params}},
         o.base_bytes, unit::bytes);
  o.adapter_states = o.adapter_params * in.adapter_bytes;
  d.step("Adapter weights, gradients and Adam states", "M_A", "$A \\cdot $k",
         {{"A", "N_A", o.adapter_params, unit::params}, {"k", "k_A", in.adapter_bytes}},
         o.adapter_states, unit::bytes);
  // Activations as for full training (Korthikanti et al. 2022; the shared count): the frozen
  // layers still pass gradients back to the adapters below them. With checkpointing each layer
  // keeps its input, and the layer being recomputed its whole set.
  Layout l;
  l.microbatch = in.micro_batch;
  l.flash_attention = true;
  const double whole = activation_bytes_per_layer(m, l, in.seq_len);
  l.recompute = Recompute::Full;
  const double kept_input = activation_bytes_per_layer(m, l, in.seq_len);
  o.activations = in.checkpointing ? m.layers * kept_input + whole : m.layers * whole;
  d.step("Activations", "M_{\\text{act}}", in.checkpointing ? "$L \\cdot $i + $w" : "$L \\cdot $w",
         {{"L", "L", double(m.layers)},
          {"i", "M_{\\text{input}}", kept_input, unit::bytes},
          {"w", "M_{\\text{layer}}", whole, unit::bytes}},
         o.activations, unit::bytes);
  o.total = o.base_bytes + o.adapter_states + o.activations;
  d.step("Memory on the GPU", "M", "$B + $A + $X",
         {{"B", "M_{\\text{base}}", o.base_bytes, unit::bytes},
          {"A", "M_A", o.adapter_states, unit::bytes},
          {"X", "M_{\\text{act}}", o.activations, unit::bytes}},
         o.total, unit::bytes);
  o.fits = o.total <= in.gpu_memory;
  if (!o.fits) {
    std::string fixes;  // what is not already done
    if (in.base != "nf4") fixes += "a 4-bit base, ";
    if (!in.checkpointing) fixes += "gradient checkpointing, ";
    fixes += "a shorter sequence or a smaller micro-batch; or shard the base over GPUs";
    d.warn("Does not fit in " + format_value(in.gpu_memory, unit::bytes, {true}) + ": " + fixes +
           ".");
  }
  o.adapter_file = o.adapter_params * 2;
  d.step("Adapter checkpoint (16-bit)", "S_A", "$A \\cdot 2",
         {{"A", "N_A", o.adapter_params, unit::params}}, o.adapter_file, unit::bytes);
  o.full_finetune = p.total * in.full_bytes;
  d.step("Full fine-tuning's model states", "M_{\\text{full}}", "$N \\cdot $k",
         {{"N", "N", p.total, unit::params}, {"k", "k", in.full_bytes}}, o.full_finetune,
         unit::bytes);
  return o;
}

void register_lora(Registry& r) {
  using In = LoraIn;
  using Out = LoraOut;
  r.add(with_model_inputs<In>(
      declare<mem_lora>(
          {"mem.lora", "Fine-tuning memory: LoRA and QLoRA", "memory",
           "Memory to fine-tune a model with low-rank adapters: the frozen base (16-bit, 8-bit or "
           "4-bit NF4), the adapters and their optimizer states, and activations; against full "
           "fine-tuning.",
           "Hu et al. 2021 (LoRA) §4; Dettmers et al. 2023 (QLoRA) §3", "docs/memory.md#memlora"},
          {num("rank", NAPKIN_FIELD(In, rank), "LoRA rank r")
               .help("Inner width of each adapter: an n × m matrix gains B·A, A of r × n and B of "
                     "m × r "
                     "(LoRA paper: 4–8; QLoRA: 64)")
               .positive(65536)
               .integer(),
           choice("targets", NAPKIN_FIELD(In, targets), "Adapted matrices", "qv|attention|all")
               .labels("Query and value (LoRA paper)|All attention projections|Every linear "
                       "layer (QLoRA)")
               .help("Which frozen matrices of each block get an adapter"),
           choice("base", NAPKIN_FIELD(In, base), "Base weights", "bf16|int8|nf4")
               .labels("16-bit (LoRA)|8-bit (LLM.int8)|4-bit NormalFloat (QLoRA)")
               .help("How the frozen linear layers are stored; embeddings and norms stay 16-bit"),
           flag("double_quant", NAPKIN_FIELD(In, double_quant), "Double quantization")
               .help("NF4 only: store the block constants in 8 bits (0.127 bits per weight "
                     "instead of 0.5)"),
           num("adapter_bytes", NAPKIN_FIELD(In, adapter_bytes), "Bytes per adapter parameter")
               .help("Weight, gradient and Adam's two moments: 12 with 16-bit adapters and 32-bit "
                     "Adam (QLoRA), 16 with 32-bit adapters")
               .positive(64),
           num("full_bytes", NAPKIN_FIELD(In, full_bytes), "Bytes per parameter, full fine-tuning")
               .help("For the comparison: 16 with mixed-precision Adam (ZeRO's count); QLoRA's "
                     "\"780 GB for 65B\" counts 12")
               .positive(64),
           num("seq_len", NAPKIN_FIELD(In, seq_len), "Sequence length", unit::tokens)
               .help("Tokens per training sequence")
               .positive(1e7)
               .integer(),
           num("micro_batch", NAPKIN_FIELD(In, micro_batch), "Micro-batch")
               .help("Sequences per forward and backward pass")
               .positive(1e5),
           flag("checkpointing", NAPKIN_FIELD(In, checkpointing), "Gradient checkpointing")
               .help("Keep only each layer's input and recompute the rest in the backward pass"),
           gpu_memory_input(NAPKIN_FIELD(In, gpu_memory))},
          {out("adapter_params", NAPKIN_FIELD(Out, adapter_params), "Adapter parameters",
               unit::params)
               .help("r·(n + m) per adapted n × m matrix, over every block"),
           out("trainable_fraction", NAPKIN_FIELD(Out, trainable_fraction), "Trainable share",
               unit::fraction)
               .help("Adapter parameters ÷ the model's"),
           out("base_bytes", NAPKIN_FIELD(Out, base_bytes), "Frozen base", unit::bytes)
               .help("Linear weights at the base's bits (NF4: 4.127 with double quantization), "
                     "embeddings and norms at 16 bits"),
           out("adapter_states", NAPKIN_FIELD(Out, adapter_states), "Adapter states", unit::bytes)
               .help("Adapter parameters × bytes each: weights, gradients, optimizer"),
           out("activations", NAPKIN_FIELD(Out, activations), "Activations", unit::bytes)
               .help("Korthikanti et al.'s count with fused attention; with checkpointing, each "
                     "layer's input plus one layer's whole set"),
           out("total", NAPKIN_FIELD(Out, total), "Total per GPU", unit::bytes)
               .help("Base + adapter states + activations"),
           out("fits", NAPKIN_FIELD(Out, fits), "Fits").help("Total ≤ the GPU's memory"),
           out("adapter_file", NAPKIN_FIELD(Out, adapter_file), "Adapter checkpoint", unit::bytes)
               .help("The adapters saved in 16 bits: all a fine-tune adds to the base"),
           out("full_finetune", NAPKIN_FIELD(Out, full_finetune), "Full fine-tuning's model states",
               unit::bytes)
               .help("Every parameter × bytes per parameter (weights, gradients, Adam), before "
                     "activations")}),
      0));
}

}  // namespace napkin
