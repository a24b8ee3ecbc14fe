#include "scenario/catalog_json.hpp"

#include <string>

#include "scenario/cluster.hpp"
#include "scenario/model.hpp"

namespace napkin {

namespace {
const char* ffn_name(Ffn f) {
  return f == Ffn::Gated ? "gated" : "mlp";
}
}  // namespace

Json models_json() {
  Json all = Json::array();
  for (const ModelPreset* p = model_presets_begin(); p != model_presets_end(); ++p) {
    const Model& m = p->model;
    const ModelParams c = model_params(m);
    Json j = Json::object();
    j.set("id", std::string(p->id));
    j.set("label", std::string(p->label));
    j.set("source", std::string(p->source));
    Json f = Json::object();
    f.set("layers", m.layers);
    f.set("d_model", m.d_model);
    f.set("heads", m.heads);
    f.set("kv_heads", m.kv_heads);
    f.set("head_dim", m.head_dim);
    f.set("d_ff", m.d_ff);
    f.set("ffn", ffn_name(m.ffn));
    f.set("vocab", m.vocab);
    f.set("tied_embeddings", m.tied_embeddings);
    f.set("attention", m.attention == AttentionKind::Mla ? "mla"
                       : m.kv_heads == m.heads           ? "mha"
                       : m.kv_heads == 1                 ? "mqa"
                                                         : "gqa");
    if (m.attention == AttentionKind::Mla) {
      f.set("q_lora_rank", m.q_lora_rank);
      f.set("kv_lora_rank", m.kv_lora_rank);
      f.set("rope_dim", m.rope_dim);
      f.set("v_head_dim", m.v_head_dim);
    }
    if (m.window > 0) {
      f.set("window", m.window);
      f.set("window_every", m.window_every);
    }
    if (m.experts > 0) {
      f.set("experts", m.experts);
      f.set("top_k", m.top_k);
      f.set("shared_experts", m.shared_experts);
      f.set("expert_d_ff", m.expert_d_ff > 0 ? m.expert_d_ff : m.d_ff);
      f.set("dense_layers", m.dense_layers);
    }
    j.set("fields", std::move(f));
    Json d = Json::object();
    d.set("total_params", c.total);
    d.set("active_params", c.active);
    d.set("embedding_params", c.embedding);
    d.set("kv_bytes_per_token_bf16", kv_bytes_per_token(m, 2));
    d.set("forward_flops_per_token_4k", forward_flops_per_token(m, 4096, true));
    j.set("derived", std::move(d));
    if (p->trained_tokens > 0) j.set("trained_tokens", p->trained_tokens);
    j.set("published_params", p->published_params);
    all.push(std::move(j));
  }
  return all;
}

Json gpus_json() {
  Json all = Json::array();
  for (const Gpu* g = gpus_begin(); g != gpus_end(); ++g) {
    Json j = Json::object();
    j.set("id", std::string(g->id));
    j.set("label", std::string(g->label));
    j.set("source", std::string(g->source));
    Json peaks = Json::object();
    const std::pair<const char*, double> kPeaks[] = {{"fp32", g->peak_fp32}, {"tf32", g->peak_tf32},
                                                     {"bf16", g->peak_bf16}, {"fp8", g->peak_fp8},
                                                     {"int8", g->peak_int8}, {"fp4", g->peak_fp4}};
    for (const auto& [k, v] : kPeaks)
      if (v > 0) peaks.set(k, v);  // absent where the chip has no such path
    j.set("peak_flops", std::move(peaks));
    j.set("hbm_bytes", g->hbm_bytes);
    j.set("hbm_bandwidth", g->hbm_bandwidth);
    if (g->host_memory > 0) j.set("host_memory", g->host_memory);
    if (g->sms > 0) j.set("sms", g->sms);  // absent where not modelled (TPUs)
    j.set("matmul_fraction", g->matmul_fraction > 0 ? g->matmul_fraction : kA100MatmulFraction);
    if (g->matmul_fraction_fp8 > 0) j.set("matmul_fraction_fp8", g->matmul_fraction_fp8);
    if (const Cluster* c = find_cluster(g->id)) {
      j.set("gpus_per_node", c->gpus_per_node);
      j.set("intra", std::string(c->intra.id));
      j.set("inter", std::string(c->inter.id));
    }
    all.push(std::move(j));
  }
  return all;
}

Json tiers_json() {
  Json all = Json::array();
  for (const Tier* t = tiers_begin(); t != tiers_end(); ++t) {
    Json j = Json::object();
    j.set("id", std::string(t->id));
    j.set("label", std::string(t->label));
    j.set("source", std::string(t->source));
    j.set("bandwidth", t->bandwidth);
    j.set("latency", t->latency);
    j.set("in_switch_reduction", t->in_switch_reduction);
    all.push(std::move(j));
  }
  return all;
}

}  // namespace napkin
