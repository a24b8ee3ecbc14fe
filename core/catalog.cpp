// Hardware and model presets. Each preset is a set of input values (base units) that the
// page applies to any estimator with inputs of those names; `napkin hardware` lists the
// accelerators and links. Every figure carries its source.
#include <initializer_list>
#include <utility>

#include "areas.hpp"
#include "registry.hpp"

namespace napkin {

namespace {

Preset make(std::string id, std::string label, std::string kind, std::string source, Fields f) {
  return Preset{std::move(id),     std::move(label), std::move(kind),
                std::move(source), object_of(f),     {}};
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

// A link preset: per-rank bandwidth in one direction and a per-step latency, under the input
// names the communication estimators use (comm.collective, comm.parallelism, comm.zero,
// comm.tp_step, comm.ep_alltoall all read `bandwidth` and `latency`).
Preset link(std::string id, std::string label, std::string source, double bw, double latency) {
  return make(std::move(id), std::move(label), "link", std::move(source),
              {{"bandwidth", bw}, {"latency", latency}});
}

}  // namespace

void register_catalog(Registry& r) {
  // The first screen's entry points: the questions people bring, each with a worked setup.
  r.add_question({"How long will training take?", "train.time", {"llama2-70b", "a100"}});
  r.add_question({"Will the model fit in GPU memory?", "mem.training", {}});
  r.add_question({"What does the all-reduce cost?", "comm.collective", {"nvlink4"}});
  r.add_question({"How many GPUs to serve this?", "serve.llm_gpus", {}});
  r.add_question({"How big is the KV cache?", "infer.kv", {"llama2-70b"}});
  r.add_question({"How many tokens for a compute-optimal model?", "train.chinchilla", {}});

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
  r.add_preset(accelerator("v100", "NVIDIA V100 SXM2 32GB",
                           "NVIDIA V100 datasheet: 125 TFLOP/s FP16 tensor core (V100 has no "
                           "BF16), 900 GB/s HBM2, 32 GB",
                           125e12, 900e9, 32e9));
  r.add_preset(accelerator("a100-40gb", "NVIDIA A100 SXM 40GB (1,555 GB/s HBM2)",
                           "NVIDIA A100 datasheet: 312 TFLOP/s BF16, 1,555 GB/s HBM2, 40 GB",
                           312e12, 1.555e12, 40e9));
  r.add_preset(accelerator("b200", "NVIDIA B200 (HGX)",
                           "NVIDIA HGX B200 specifications: FP16/BF16 tensor 4.5 PFLOP/s with "
                           "sparsity = 2.25 PFLOP/s dense, 180 GB HBM3e, 7.7 TB/s",
                           2.25e15, 7.7e12, 180e9));
  r.add_preset(accelerator("tpu-v5e", "Google TPU v5e",
                           "Google Cloud TPU v5e documentation: 197 TFLOP/s BF16, 819 GB/s HBM2, "
                           "16 GB",
                           197e12, 819e9, 16e9));

  // Links: bandwidth per rank in one direction (what a ring step can push), latency per step.
  // Vendor bandwidths are usually quoted bidirectional ("900 GB/s NVLink"): halve them.
  // Latencies are order-of-magnitude end-to-end figures for one step of a collective; the
  // vendors do not publish them, so each says where it comes from.
  r.add_preset(link("nvlink3", "NVLink 3 (A100): 300 GB/s, 3 µs",
                    "NVIDIA A100 datasheet: 600 GB/s NVLink total (bidirectional) = 300 GB/s per "
                    "direction; 3 µs per hop from a worked example",
                    300e9, 3e-6));
  r.add_preset(link("nvlink4", "NVLink 4 (H100): 450 GB/s, 3 µs",
                    "NVIDIA H100 datasheet: 900 GB/s NVLink total (bidirectional) = 450 GB/s per "
                    "direction; 3 µs per hop from a worked example",
                    450e9, 3e-6));
  r.add_preset(link("nvlink5", "NVLink 5 (B200): 900 GB/s, 3 µs",
                    "NVIDIA HGX B200 specifications: 1.8 TB/s NVLink per GPU (bidirectional) = "
                    "900 GB/s per direction; 3 µs per hop from a worked example",
                    900e9, 3e-6));
  r.add_preset(link("ib-ndr", "InfiniBand NDR 400 Gb/s: 50 GB/s, 5 µs",
                    "NVIDIA Quantum-2 / ConnectX-7: 400 Gb/s per port = 50 GB/s per direction "
                    "(one NIC per GPU); 5 µs from the “~2–5 µs” range a worked example gives",
                    50e9, 5e-6));
  r.add_preset(link("ib-hdr", "InfiniBand HDR 200 Gb/s: 25 GB/s, 5 µs",
                    "NVIDIA Quantum / ConnectX-6: 200 Gb/s per port = 25 GB/s per direction; "
                    "5 µs from the ~2–5 µs range a worked example gives",
                    25e9, 5e-6));
  r.add_preset(link("eth100", "100 GbE: 12.5 GB/s, 10 µs",
                    "IEEE 802.3 100 Gb/s = 12.5 GB/s per direction; 10 µs from a worked example "
                    "(ETHERNET_LATENCY)",
                    12.5e9, 10e-6));
  r.add_preset(
      link("eth10", "10 GbE: 1.25 GB/s, 50 µs",
           "IEEE 802.3 10 Gb/s = 1.25 GB/s per direction; 50 µs round trip from a worked example",
           1.25e9, 50e-6));
  // The seeds' own link numbers, kept as they wrote them so their examples reproduce
  // (docs/errata.md, Communication).
  r.add_preset(link("seed001-nvlink", "NVLink as a worked example states it: 600 GB/s, 1 µs",
                    "Worked example (600 GB/s, “NVLink 4.0 (H100)”; H100 "
                    "is 450 GB/s per direction, 600 is A100's bidirectional total)",
                    600e9, 1e-6));
  r.add_preset(link("seed001-infiniband",
                    "InfiniBand as a worked example states it: 400 GB/s, 2 µs",
                    "Worked example (400 GB/s, “NDR”: NDR is 400 Gb/s "
                    "= 50 GB/s per port)",
                    400e9, 2e-6));
  r.add_preset(link("seed001-ethernet", "Ethernet as a worked example states it: 100 GB/s, 10 µs",
                    "Worked example (100 GB/s, “100GbE”: 100 Gb/s is "
                    "12.5 GB/s)",
                    100e9, 10e-6));
  r.add_preset(link("seed002-nvlink", "NVLink (A100 total, 600 GB/s) — worked example's figure",
                    "Worked example (“NVLink ~600 GB/s”, A100's bidirectional total); "
                    "latency not given, 1 µs as the other worked example",
                    600e9, 1e-6));
  r.add_preset(link("seed002-infiniband", "InfiniBand 200 GB/s — worked example's figure",
                    "Worked example (“InfiniBand ~200 GB/s”, the DP 3.5 s "
                    "example); latency not given, 2 µs as the other worked example",
                    200e9, 2e-6));
  r.add_preset(link("seed003-nvlink", "NVLink hop, 3 µs — worked example's figure",
                    "Worked example (“a 3 µs NVLink hop”; bandwidth not given: "
                    "A100 NVLink 3, 300 GB/s)",
                    300e9, 3e-6));
  r.add_preset(link("seed003-10gbe", "10 GbE, 50 µs round trip — worked example's figure",
                    "Worked example (“a 50 µs Ethernet round-trip”, 10 GbE)", 1.25e9, 50e-6));
}

}  // namespace napkin
