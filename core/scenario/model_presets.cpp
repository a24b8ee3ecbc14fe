// Real models from their released configurations (Hugging Face config.json of the released
// weights, or the paper's architecture table). Counts are pinned in tests/scenario_test.cpp.
#include "scenario/model.hpp"

namespace napkin {

namespace {

constexpr Model gpt(int layers, double d, int heads, double positions, double vocab) {
  Model m;
  m.layers = layers;
  m.d_model = d;
  m.heads = m.kv_heads = heads;
  m.head_dim = d / heads;
  m.d_ff = 4 * d;
  m.ffn = Ffn::Mlp;
  m.vocab = vocab;
  m.tied_embeddings = true;
  m.positions = positions;
  m.biases = true;
  m.norm_bias = true;
  return m;
}

constexpr Model llama(int layers, double d, int heads, int kv, double dff, double vocab) {
  Model m;
  m.layers = layers;
  m.d_model = d;
  m.heads = heads;
  m.kv_heads = kv;
  m.head_dim = d / heads;
  m.d_ff = dff;
  m.vocab = vocab;
  return m;
}

constexpr Model with_window(Model m, double window, int every) {
  m.window = window;
  m.window_every = every;
  return m;
}

constexpr Model with_experts(Model m, int experts, int top_k) {
  m.experts = experts;
  m.top_k = top_k;
  return m;
}

constexpr Model qwen(int layers, double d, int heads, int kv, double dff) {
  Model m = llama(layers, d, heads, kv, dff, 152064);
  m.qkv_bias = true;
  return m;
}

constexpr Model gemma2(int layers, double d, int heads, int kv, double head_dim, double dff) {
  Model m = llama(layers, d, heads, kv, dff, 256000);
  m.head_dim = head_dim;
  m.tied_embeddings = true;
  m.norms_per_layer = 4;  // pre- and post-norms around attention and the FFN
  return with_window(m, 4096, 2);
}

constexpr Model deepseek_v3() {
  Model m = llama(61, 7168, 128, 128, 18432, 129280);
  m.attention = AttentionKind::Mla;
  m.head_dim = 128;  // qk_nope_head_dim
  m.q_lora_rank = 1536;
  m.kv_lora_rank = 512;
  m.rope_dim = 64;
  m.v_head_dim = 128;
  m.experts = 256;
  m.top_k = 8;
  m.shared_experts = 1;
  m.expert_d_ff = 2048;
  m.dense_layers = 3;
  return m;
}

constexpr Model palm() {
  Model m = llama(118, 18432, 48, 1, 73728, 256000);
  m.head_dim = 256;
  m.tied_embeddings = true;
  m.norms_per_layer = 1;  // one LayerNorm before the parallel attention and FFN
  return m;
}

constexpr Model chinchilla() {
  Model m = llama(80, 8192, 64, 64, 32768, 32000);
  m.ffn = Ffn::Mlp;
  m.tied_embeddings = true;
  m.relative_positions = true;  // Rae et al. 2021 §3: Transformer-XL relative positions
  return m;
}

const ModelPreset kModels[] = {
    {"gpt2", "GPT-2 (124M)", "Radford et al. 2019; Hugging Face gpt2 config.json",
     gpt(12, 768, 12, 1024, 50257), 0, 124e6, 1024},
    {"gpt3", "GPT-3 175B", "Brown et al. 2020, Table 2.1", gpt(96, 12288, 96, 2048, 50257), 300e9,
     175e9, 2048},
    {"llama2-7b", "Llama 2 7B", "Touvron et al. 2023; meta-llama/Llama-2-7b-hf config.json",
     llama(32, 4096, 32, 32, 11008, 32000), 2e12, 7e9, 4096},
    {"llama2-13b", "Llama 2 13B", "Touvron et al. 2023; meta-llama/Llama-2-13b-hf config.json",
     llama(40, 5120, 40, 40, 13824, 32000), 2e12, 13e9, 4096},
    {"llama2-70b", "Llama 2 70B",
     "Touvron et al. 2023 (GQA, 8 KV heads); Llama-2-70b-hf config.json",
     llama(80, 8192, 64, 8, 28672, 32000), 2e12, 70e9, 4096},
    {"llama3-8b", "Llama 3 8B", "Llama 3 model card; Meta-Llama-3-8B config.json",
     llama(32, 4096, 32, 8, 14336, 128256), 15e12, 8e9, 8192},
    {"llama3-70b", "Llama 3 70B", "Llama 3 model card; Meta-Llama-3-70B config.json",
     llama(80, 8192, 64, 8, 28672, 128256), 15e12, 70e9, 8192},
    {"llama3-405b", "Llama 3.1 405B", "Llama 3 Herd of Models 2024, Table 3; Llama-3.1-405B config",
     llama(126, 16384, 128, 8, 53248, 128256), 15.6e12, 405e9, 8192},
    {"mistral-7b", "Mistral 7B", "Jiang et al. 2023, Table 1; Mistral-7B-v0.1 config.json",
     with_window(llama(32, 4096, 32, 8, 14336, 32000), 4096, 0), 0, 7.3e9, 8192},
    {"mixtral-8x7b", "Mixtral 8×7B", "Jiang et al. 2024, Table 1; Mixtral-8x7B-v0.1 config.json",
     with_experts(llama(32, 4096, 32, 8, 14336, 32000), 8, 2), 0, 46.7e9, 32768},
    {"mixtral-8x22b", "Mixtral 8×22B", "Mistral AI 2024; Mixtral-8x22B-v0.1 config.json",
     with_experts(llama(56, 6144, 48, 8, 16384, 32768), 8, 2), 0, 141e9, 65536},
    {"qwen2.5-7b", "Qwen2.5 7B", "Qwen2.5 technical report 2024, Table 1; Qwen2.5-7B config.json",
     qwen(28, 3584, 28, 4, 18944), 18e12, 7.61e9, 32768},
    {"qwen2.5-72b", "Qwen2.5 72B",
     "Qwen2.5 technical report 2024, Table 1; Qwen2.5-72B config.json",
     qwen(80, 8192, 64, 8, 29568), 18e12, 72.7e9, 32768},
    {"gemma2-9b", "Gemma 2 9B", "Gemma Team 2024, Table 1; google/gemma-2-9b config.json",
     gemma2(42, 3584, 16, 8, 256, 14336), 8e12, 9.24e9, 8192},
    {"gemma2-27b", "Gemma 2 27B", "Gemma Team 2024, Table 1; google/gemma-2-27b config.json",
     gemma2(46, 4608, 32, 16, 128, 36864), 13e12, 27.2e9, 8192},
    {"deepseek-v3", "DeepSeek-V3 (671B, 37B active)",
     "DeepSeek-AI 2024, §2 and §4.2; deepseek-ai/DeepSeek-V3 config.json (MTP module not counted)",
     deepseek_v3(), 14.8e12, 671e9, 4096},
    {"chinchilla", "Chinchilla 70B", "Hoffmann et al. 2022, Table 4", chinchilla(), 1.4e12, 70e9,
     2048},
    {"palm-540b", "PaLM 540B",
     "Chowdhery et al. 2022, Table 1 and Appendix B (multi-query attention)", palm(), 780e9,
     540.35e9, 2048},
    {"mt-nlg-530b", "MT-NLG 530B", "Smith et al. 2022, Table 1", gpt(105, 20480, 128, 2048, 50257),
     270e9, 530e9, 2048},
};

}  // namespace

const ModelPreset* model_presets_begin() {
  return kModels;
}
const ModelPreset* model_presets_end() {
  return kModels + sizeof kModels / sizeof kModels[0];
}
const ModelPreset* find_model(std::string_view id) {
  for (const ModelPreset* p = model_presets_begin(); p != model_presets_end(); ++p)
    if (p->id == id) return p;
  return nullptr;
}

}  // namespace napkin
