// Hardware and model presets. Each preset is a set of input values (base units) that the
// page applies to any estimator with inputs of those names; `napkin hardware` lists the
// accelerators and links. Every figure carries its source.
#include <initializer_list>
#include <utility>

#include "areas.hpp"
#include "registry.hpp"

namespace napkin {

namespace {

using Fields = std::initializer_list<std::pair<const char*, Json>>;

Preset make(std::string id, std::string label, std::string kind, std::string source, Fields f) {
  Preset p{std::move(id), std::move(label), std::move(kind), std::move(source), Json::object(), {}};
  for (const auto& [k, v] : f) p.values.set(k, v);
  return p;
}

// A model preset also fills the names some estimators use for the same quantity
// (hidden = d_model, layers = n_layers; see seeds 002/003).
Preset model(std::string id, std::string label, std::string source, double params, double tokens,
             double d, double layers, double heads, double kv_heads, double head_dim, double dff,
             double vocab, double seq, const char* ffn, bool tied) {
  return make(std::move(id), std::move(label), "model", std::move(source),
              {{"params", params},
               {"tokens", tokens},
               {"d_model", d},
               {"hidden", d},
               {"n_layers", layers},
               {"layers", layers},
               {"n_heads", heads},
               {"n_kv_heads", kv_heads},
               {"head_dim", head_dim},
               {"attention_dim", heads * head_dim},
               {"d_ff", dff},
               {"vocab", vocab},
               {"seq_len", seq},
               {"ffn", ffn},
               {"tied_embeddings", tied}});
}

// An accelerator preset: dense BF16 peak, HBM bandwidth and capacity under every input name
// the estimators use for them.
Preset accelerator(std::string id, std::string label, std::string source, double peak, double bw,
                   double mem) {
  return make(
      std::move(id), std::move(label), "gpu", std::move(source),
      {{"peak_flops", peak}, {"mem_bandwidth", bw}, {"gpu_memory", mem}, {"device_memory", mem}});
}

}  // namespace

void register_catalog(Registry& r) {
  // Models: nominal sizes as their papers name them (LLaMA-2-70B is 70B, not 68.98B), so the
  // seeds' worked examples come out exactly.
  r.add_preset(model("gpt3", "GPT-3 175B", "Brown et al. 2020, Table 2.1", 175e9, 300e9, 12288, 96,
                     96, 96, 128, 49152, 50257, 2048, "mlp", true));
  r.add_preset(model("llama2-7b", "LLaMA-2 7B", "Touvron et al. 2023, Table 1 and §2.2", 7e9, 2e12,
                     4096, 32, 32, 32, 128, 11008, 32000, 4096, "swiglu", false));
  r.add_preset(model("llama2-13b", "LLaMA-2 13B", "Touvron et al. 2023, Table 1 and §2.2", 13e9,
                     2e12, 5120, 40, 40, 40, 128, 13824, 32000, 4096, "swiglu", false));
  r.add_preset(model("llama2-70b", "LLaMA-2 70B",
                     "Touvron et al. 2023, Table 1 and §2.2 (GQA, 8 KV heads)", 70e9, 2e12, 8192,
                     80, 64, 8, 128, 28672, 32000, 4096, "swiglu", false));
  r.add_preset(model("chinchilla", "Chinchilla 70B", "Hoffmann et al. 2022, Table 4", 70e9, 1.4e12,
                     8192, 80, 64, 64, 128, 32768, 32000, 2048, "mlp", true));
  r.add_preset(model("palm-540b", "PaLM 540B", "Chowdhery et al. 2022, Table 1 and Appendix B",
                     540.35e9, 780e9, 18432, 118, 48, 1, 256, 73728, 256000, 2048, "swiglu", true));

  // Accelerators: dense BF16 tensor-core peak (no sparsity), HBM bandwidth, capacity.
  r.add_preset(accelerator("a100", "NVIDIA A100 SXM 80GB",
                           "NVIDIA A100 datasheet: 312 TFLOP/s BF16, 2,039 GB/s HBM2e, 80 GB",
                           312e12, 2.039e12, 80e9));
  r.add_preset(accelerator("h100", "NVIDIA H100 SXM",
                           "NVIDIA H100 datasheet: 989 TFLOP/s BF16 (seeds round to 990), "
                           "3.35 TB/s HBM3, 80 GB",
                           990e12, 3.35e12, 80e9));
  r.add_preset(accelerator("h200", "NVIDIA H200 SXM",
                           "NVIDIA H200 datasheet: 989 TFLOP/s BF16, 4.8 TB/s HBM3e, 141 GB",
                           990e12, 4.8e12, 141e9));
  r.add_preset(accelerator("tpu-v5p", "Google TPU v5p",
                           "Google Cloud TPU v5p documentation: 459 TFLOP/s BF16, 2,765 GB/s HBM, "
                           "95 GB",
                           459e12, 2.765e12, 95e9));
}

}  // namespace napkin
