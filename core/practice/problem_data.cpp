#include "practice/problem_data.hpp"

#include <algorithm>
#include <cmath>

#include "practice/problems.hpp"
#include "registry/registry.hpp"
#include "scenario/cluster.hpp"
#include "scenario/model.hpp"

namespace napkin {

// ----------------------------------------------------------------------------------------------
// Presets: a parameter with "preset": "model" or "gpu" holds an index into the catalog (−1: none,
// the worked example's own numbers); its fields are read as NAME.FIELD.
namespace {

const ModelPreset* model_at(double i) {
  const auto n = model_presets_end() - model_presets_begin();
  if (!(i >= 0 && i < static_cast<double>(n))) return nullptr;
  return model_presets_begin() + static_cast<std::ptrdiff_t>(i);
}
const Gpu* gpu_at(double i) {
  const auto n = gpus_end() - gpus_begin();
  if (!(i >= 0 && i < static_cast<double>(n))) return nullptr;
  return gpus_begin() + static_cast<std::ptrdiff_t>(i);
}

// The fields a problem reads from a model preset: its shape as config.json states it and what
// the scenario derives from it (one function each, scenario/model.hpp).
bool model_field(const ModelPreset& preset, std::string_view f, double& x) {
  const Model& m = preset.model;
  if (f == "published_params")
    return x = preset.published_params > 0 ? preset.published_params : model_params(m).total, true;
  if (f == "layers") return x = m.layers, true;
  if (f == "d_model") return x = m.d_model, true;
  if (f == "heads") return x = m.heads, true;
  if (f == "kv_heads") return x = m.kv_heads, true;
  if (f == "head_dim") return x = m.head_dim, true;
  if (f == "d_ff") return x = m.d_ff, true;
  if (f == "vocab") return x = m.vocab, true;
  if (f == "experts") return x = m.experts, true;
  if (f == "top_k") return x = m.top_k, true;
  const ModelParams mp = model_params(m);
  if (f == "params") return x = mp.total, true;
  if (f == "active_params") return x = mp.active, true;
  if (f == "moe_layers") return x = mp.moe_layers, true;
  if (f == "expert_params") return x = mp.expert, true;
  if (f == "flops_per_token") return x = forward_flops_per_token(m, 0, true), true;
  if (f == "weight_bytes_bf16") return x = weight_bytes(m, 2, false), true;
  if (f == "kv_bytes_per_token_bf16") return x = kv_bytes_per_token(m, 2), true;
  if (f == "kv_values_per_token") return x = kv_bytes_per_token(m, 1), true;
  return false;
}

bool gpu_field(const Gpu& g, std::string_view f, double& x) {
  if (f == "peak_bf16") return x = g.peak_bf16, true;
  if (f == "peak_fp8") return x = g.peak_fp8, true;
  if (f == "peak_fp32") return x = g.peak_fp32, true;
  if (f == "peak_tf32") return x = g.peak_tf32, true;
  if (f == "peak_int8") return x = g.peak_int8, true;
  if (f == "peak_fp4") return x = g.peak_fp4, true;
  if (f == "hbm_bytes") return x = g.hbm_bytes, true;
  if (f == "hbm_bandwidth") return x = g.hbm_bandwidth, true;
  if (f == "host_memory") return x = g.host_memory, true;
  if (f == "sms") return x = g.sms, true;
  if (f == "power") return x = g.power, true;
  if (f == "matmul_fraction")
    return x = g.matmul_fraction > 0 ? g.matmul_fraction : kA100MatmulFraction, true;
  return false;
}

const char* const kModelFields =
    "layers, d_model, heads, kv_heads, head_dim, d_ff, vocab, experts, top_k, params, "
    "active_params, published_params, moe_layers, expert_params, flops_per_token, "
    "weight_bytes_bf16, "
    "kv_bytes_per_token_bf16, kv_values_per_token";
const char* const kGpuFields =
    "peak_bf16, peak_fp8, peak_fp32, peak_tf32, peak_int8, peak_fp4, hbm_bytes, hbm_bandwidth, "
    "host_memory, sms, power, matmul_fraction";

const Param* param_named(const Problem& p, std::string_view name) {
  for (const Param& q : p.params)
    if (q.name == name) return &q;
  return nullptr;
}

struct Scope {
  const Problem* problem;
  const Values* params;
};

RunResult run_entries(const std::string& estimator, const std::vector<InputEntry>& entries,
                      const Problem& p, const Values& params);

// NAME.FIELD for a preset parameter, model("id").FIELD / gpu("id").FIELD, RUN.OUTPUT.
using Lookup = ExprScope::Lookup;

Lookup preset_field(const ModelPreset* m, const Gpu* g, bool is_model, std::string_view field,
                    double& x, std::string& why) {
  if (is_model ? (!m || model_field(*m, field, x)) : (!g || gpu_field(*g, field, x))) {
    if (is_model ? !m : !g) return Lookup::absent;
    return Lookup::found;
  }
  // An unknown field is an error whether or not the preset is none: check against a real one.
  why = "no " + std::string(is_model ? "model" : "GPU") + " field \"" + std::string(field) +
        "\"; fields: " + (is_model ? kModelFields : kGpuFields);
  return Lookup::unknown;
}

Lookup resolve_dotted(const void* ctx, std::string_view head, std::string_view arg,
                      std::string_view field, double& x, std::string& why) {
  const Scope& s = *static_cast<const Scope*>(ctx);
  if (!arg.empty()) {
    const bool is_model = head == "model";
    const ModelPreset* m = is_model ? find_model(arg) : nullptr;
    const Gpu* g = is_model ? nullptr : find_gpu(arg);
    if (is_model ? !m : !g) {
      why =
          "no " + std::string(is_model ? "model" : "GPU") + " preset \"" + std::string(arg) + "\"";
      return Lookup::unknown;
    }
    return preset_field(m, g, is_model, field, x, why);
  }
  if (!s.problem) return Lookup::unknown;
  if (const Param* q = param_named(*s.problem, head); q && !q->preset.empty()) {
    const bool is_model = q->preset == "model";
    const double i = (*s.params)[head];
    // A none preset still checks its field name, against the catalog's first preset.
    double probe = 0;
    const ModelPreset* m = is_model ? model_at(i) : nullptr;
    const Gpu* g = is_model ? nullptr : gpu_at(i);
    if (is_model ? !m : !g) {
      const Lookup named =
          preset_field(is_model ? model_presets_begin() : nullptr,
                       is_model ? nullptr : gpus_begin(), is_model, field, probe, why);
      return named == Lookup::unknown ? named : Lookup::absent;
    }
    return preset_field(m, g, is_model, field, x, why);
  }
  if (s.problem->data)
    for (const AuxRun& r : s.problem->data->runs)
      if (r.name == head) {
        const RunResult rr = run_entries(r.estimator, r.inputs, *s.problem, *s.params);
        const Json* o = rr.ok ? rr.outputs.find(field) : nullptr;
        if (!o || !(o->is_number() || o->is_bool())) return Lookup::absent;
        x = o->is_bool() ? (o->as_bool() ? 1 : 0) : o->as_number();
        return Lookup::found;
      }
  why = "unknown name \"" + std::string(head) + "." + std::string(field) +
        "\" (not out.NAME, a preset parameter, model(\"id\"), gpu(\"id\") or a run)";
  return Lookup::unknown;
}

bool eval(const Expr& e, const Problem& p, const Values& params, const Values* out, double& x,
          std::string* why = nullptr) {
  Scope s{&p, &params};
  ExprScope scope{&params, out, resolve_dotted, &s};
  return e.eval(scope, x, why);
}

// A leaf of a {"json": …} input, by its path of indices and keys ("0/latency").
void set_at_path(Json& doc, std::string_view path, double x) {
  Json* at = &doc;  // Json has no mutable lookup; `doc` is this entry's own copy
  while (!path.empty() && at) {
    const std::size_t slash = path.find('/');
    const std::string_view key = path.substr(0, slash);
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
    if (at->is_array()) {
      at = const_cast<Json*>(&(*at)[static_cast<std::size_t>(std::stoul(std::string(key)))]);
    } else {
      at = const_cast<Json*>(at->find(key));
    }
  }
  if (at) *at = Json(x);
}

Json entry_value(const InputEntry& e, const Problem& p, const Values& params) {
  if (!e.condition.empty()) {
    double c = 0;
    if (!eval(e.condition, p, params, nullptr, c)) return Json();
    return entry_value(c != 0 ? *e.then : *e.otherwise, p, params);
  }
  if (e.as_json_text) {
    Json doc = e.literal;
    for (const auto& [path, expr] : e.json_leaves) {
      double x = 0;
      if (!eval(expr, p, params, nullptr, x)) return Json();
      set_at_path(doc, path, x);
    }
    return doc.dump();
  }
  if (e.expr.empty()) return e.literal;
  // "=model" alone passes the preset's id; any other expression passes its number.
  if (const std::string* only = e.expr.single_name())
    if (const Param* q = param_named(p, *only); q && !q->preset.empty()) {
      const double i = params[*only];
      if (q->preset == "model") {
        const ModelPreset* m = model_at(i);
        return m ? Json(std::string(m->id)) : Json();
      }
      const Gpu* g = gpu_at(i);
      return g ? Json(std::string(g->id)) : Json();
    }
  double x = 0;
  if (!eval(e.expr, p, params, nullptr, x)) return Json();
  return x;
}

RunResult run_entries(const std::string& estimator, const std::vector<InputEntry>& entries,
                      const Problem& p, const Values& params) {
  Json in = Json::object();
  for (const InputEntry& e : entries) {
    Json v = entry_value(e, p, params);
    if (!v.is_null()) in.set(e.name, std::move(v));
  }
  return registry().run(estimator, in, false);
}

}  // namespace

ExprScope catalog_scope(const Values* params, const Values* out) {
  static const Scope none{nullptr, nullptr};
  return {params, out, resolve_dotted, &none};
}

std::string preset_label(std::string_view kind, double index) {
  if (kind == "model") {
    const ModelPreset* m = model_at(index);
    return m ? std::string(m->label) : "";
  }
  const Gpu* g = gpu_at(index);
  return g ? std::string(g->label) : "";
}

// ----------------------------------------------------------------------------------------------
// The engine's hooks.

void derive_params(const Problem& p, Values& v) {
  if (!p.data) return;
  for (const DeriveEntry& d : p.data->derive) {
    if (!d.run.empty()) {
      const RunResult r = run_entries(d.run, d.inputs, p, v);
      const Json* o = r.ok ? r.outputs.find(d.output) : nullptr;
      v.set(d.name, o && o->is_number() ? o->as_number() : std::nan(""));
      continue;
    }
    double x = 0;
    if (eval(d.expr, p, v, nullptr, x)) v.set(d.name, x);
  }
}

bool params_valid(const Problem& p, const Values& v) {
  if (!p.data) return true;
  for (const Expr& e : p.data->valid) {
    double x = 0;
    if (!eval(e, p, v, nullptr, x) || x == 0) return false;
  }
  return true;
}

Json inputs_for(const Problem& p, const Estimator& est, const Values& params) {
  Json inputs = Json::object();
  const bool listed = p.data && (p.data->has_inputs || !p.data->pass.empty());
  if (!listed) {
    for (const auto& [name, value] : params.items()) {
      const Param* q = param_named(p, name);
      if (est.input(name) && !(q && !q->preset.empty())) inputs.set(name, value);
    }
    return inputs;
  }
  for (const std::string& name : p.data->pass)
    if (params.has(name)) inputs.set(name, params[name]);
  for (const InputEntry& e : p.data->inputs) {
    Json v = entry_value(e, p, params);
    if (!v.is_null()) inputs.set(e.name, std::move(v));
  }
  return inputs;
}

double answer_for(const Problem& p, const Values& params, const Values& out) {
  if (p.data && !p.data->answer.empty()) {
    double x = 0;
    return eval(p.data->answer, p, params, &out, x) ? x : std::nan("");
  }
  return out[p.output];
}

double mistake_value(const Problem& p, std::size_t i, const Values& params, const Values& out,
                     double answer) {
  const Mistake& m = p.mistakes[i];
  if (p.data && i < p.data->mistake_values.size() && !p.data->mistake_values[i].empty()) {
    double x = 0;
    return eval(p.data->mistake_values[i], p, params, &out, x) ? x : std::nan("");
  }
  return answer * m.factor;
}

std::vector<std::string> expression_errors(const Problem& p, const Values& params,
                                           const Values& out) {
  std::vector<std::string> errors;
  if (!p.data) return errors;
  auto check = [&](const std::string& field, const Expr& e, const Values* o) {
    double x = 0;
    std::string why;
    if (!e.empty() && !eval(e, p, params, o, x, &why) && why.rfind(Expr::kAbsent, 0) != 0)
      errors.push_back(field + ": " + why);
  };
  for (const DeriveEntry& d : p.data->derive) check("derive." + d.name, d.expr, nullptr);
  for (const Expr& e : p.data->valid) check("valid", e, nullptr);
  check("answer", p.data->answer, &out);
  for (std::size_t i = 0; i < p.data->mistake_values.size() && i < p.mistakes.size(); ++i)
    check("mistakes." + p.mistakes[i].id, p.data->mistake_values[i], &out);
  return errors;
}

bool has_answer_fn(const Problem& p) {
  return p.data && !p.data->answer.empty();
}

bool has_mistake_value(const Problem& p, std::size_t i) {
  return p.data && i < p.data->mistake_values.size() && !p.data->mistake_values[i].empty();
}

// ----------------------------------------------------------------------------------------------
// Reading a file.

bool answer_unit_named(std::string_view name, AnswerUnit& out) {
  struct Named {
    const char* name;
    AnswerUnit (*make)();
  };
  static const Named kNamed[] = {{"output", answer_in::output},
                                 {"days", answer_in::days},
                                 {"hours", answer_in::hours},
                                 {"s", answer_in::seconds},
                                 {"ms", answer_in::ms},
                                 {"µs", answer_in::us},
                                 {"us", answer_in::us},
                                 {"GB", answer_in::gb},
                                 {"TB", answer_in::tb},
                                 {"MB", answer_in::mb},
                                 {"GB/s", answer_in::gb_per_s},
                                 {"%", answer_in::percent},
                                 {"GPUs", answer_in::gpus},
                                 {"billion parameters", answer_in::billion_params},
                                 {"billion tokens", answer_in::billion_tokens},
                                 {"ZFLOP", answer_in::zettaflop},
                                 {"yes/no", answer_in::yes_no}};
  for (const Named& n : kNamed)
    if (name == n.name) return out = n.make(), true;
  return false;
}

namespace {

// One problem's reader: each field checked for its type, errors collected with the problem's id.
class Reader {
 public:
  Reader(const Json& j, std::vector<std::string>& errors) : j_(j), errors_(errors) {
    data_ = std::make_unique<ProblemData>();
    if (const Json* id = j.find("id"); id && id->is_string()) id_ = id->as_string();
  }

  bool read(Problem& p) {
    static const char* const kKnown[] = {"id",         "area",        "title",
                                         "source",     "group",       "setup",
                                         "statement",  "fixed_setup", "fixed_statement",
                                         "params",     "derive",      "valid",
                                         "estimator",  "inputs",      "pass",
                                         "runs",       "output",      "answer",
                                         "unit",       "tolerance",   "close",
                                         "integer",    "bound",       "hints",
                                         "mistakes",   "explain",     "variety",
                                         "difficulty", "tags",        "kind",
                                         "highest",    "options",     "hint_cost"};
    if (!j_.is_object()) return fail("", "a problem is a JSON object"), false;
    for (const auto& member : j_.members()) {  // not a structured binding: clang 14's lambdas
      const std::string& k = member.first;
      if (std::find_if(std::begin(kKnown), std::end(kKnown),
                       [&](const char* x) { return k == x; }) == std::end(kKnown))
        fail(k, "unknown field (docs/authoring.md lists the fields)");
    }
    p.id = text("id", true);
    p.area = text("area", true);
    p.title = text("title", true);
    p.source = text("source", false);
    p.group = text("group", false);
    p.setup = text("setup", false);
    p.statement = text("statement", true);
    p.fixed_setup = text("fixed_setup", false);
    p.fixed_statement = text("fixed_statement", false);
    p.estimator = text("estimator", true);
    p.output = text("output", false);
    p.explain = text("explain", false);
    p.tags = tags();
    read_params(p);
    read_derive();
    read_valid();
    data_->inputs = entries("inputs");
    data_->has_inputs = j_.has("inputs");
    read_pass();
    read_runs();
    if (const Json* a = j_.find("answer")) expr("answer", *a, data_->answer);
    read_unit(p);
    p.tolerance = number("tolerance", p.tolerance);
    p.close = number("close", 0);
    p.integer = flag("integer");
    p.highest = flag("highest");
    p.variety = static_cast<int>(number("variety", 15));
    p.difficulty = static_cast<int>(number("difficulty", 0));
    p.hint_cost = number("hint_cost", 0);
    if (!(p.hint_cost >= 0 && p.hint_cost < 1))
      fail("hint_cost", "a fraction of full marks each hint costs, from 0 up to (not including) 1");
    read_bound(p);
    read_hints(p);
    read_mistakes(p);
    read_kind(p);
    p.data = std::move(data_);
    return ok_;
  }

 private:
  void fail(std::string_view field, const std::string& what) {
    ok_ = false;
    errors_.push_back((id_.empty() ? std::string("a problem") : id_) +
                      (field.empty() ? "" : ", " + std::string(field)) + ": " + what);
  }
  Literal keep(std::string s) {
    data_->texts.push_back(std::move(s));
    return Literal(data_->texts.back().c_str());
  }
  Literal text(const char* field, bool required) {
    const Json* v = j_.find(field);
    if (!v) {
      if (required) fail(field, "required (text)");
      return Literal();
    }
    if (!v->is_string()) return fail(field, "must be text"), Literal();
    return keep(v->as_string());
  }
  double number(const char* field, double fallback) {
    const Json* v = j_.find(field);
    if (!v) return fallback;
    if (!v->is_number()) return fail(field, "must be a number"), fallback;
    return v->as_number();
  }
  bool flag(const char* field) {
    const Json* v = j_.find(field);
    if (!v) return false;
    if (!v->is_bool()) return fail(field, "must be true or false"), false;
    return v->as_bool();
  }
  void expr(const std::string& field, const Json& v, Expr& out) {
    if (!v.is_string()) return fail(field, "must be an expression (text)");
    std::string error;
    if (!Expr::parse(v.as_string(), out, error)) fail(field, error);
  }
  Literal tags() {
    const Json* v = j_.find("tags");
    if (!v) return fail("tags", "required: words a student filters by"), Literal();
    if (v->is_string()) return keep(v->as_string());
    if (!v->is_array())
      return fail("tags", "a list of words, or one comma-separated text"), Literal();
    std::string s;
    for (const Json& t : v->items()) {
      if (!t.is_string()) return fail("tags", "each tag is text"), Literal();
      s += (s.empty() ? "" : ",") + t.as_string();
    }
    return keep(s);
  }
  void read_params(Problem& p) {
    const Json* v = j_.find("params");
    if (!v) return;
    if (!v->is_array()) return fail("params", "a list of parameters");
    for (const Json& x : v->items()) {
      Param q;
      const Json* name = x.find("name");
      if (!x.is_object() || !name || !name->is_string())
        return fail("params", "each parameter is an object with a name");
      const std::string field = "params." + name->as_string();
      q.name = keep(name->as_string());
      const Json* preset = x.find("preset");
      if (preset) {
        if (!preset->is_string() ||
            (preset->as_string() != "model" && preset->as_string() != "gpu"))
          return fail(field, "preset must be \"model\" or \"gpu\"");
        q.preset = keep(preset->as_string());
        q.unit = "";
      }
      const bool is_model = preset && preset->as_string() == "model";
      auto value = [&](const Json& y, double& out) {
        if (!preset) {
          if (!y.is_number()) return fail(field, "values are numbers in base units"), false;
          out = y.as_number();
          return true;
        }
        if (y.is_null()) return out = -1, true;
        if (!y.is_string()) return fail(field, "a preset's values are preset ids"), false;
        if (is_model) {
          const ModelPreset* m = find_model(y.as_string());
          if (!m) return fail(field, "no model preset \"" + y.as_string() + "\""), false;
          out = static_cast<double>(m - model_presets_begin());
        } else {
          const Gpu* g = find_gpu(y.as_string());
          if (!g) return fail(field, "no GPU preset \"" + y.as_string() + "\""), false;
          out = static_cast<double>(g - gpus_begin());
        }
        return true;
      };
      const Json* fixed = x.find("fixed");
      if (!fixed) return fail(field, "needs a fixed value (the worked example's)");
      if (!value(*fixed, q.fixed)) return;
      if (const Json* c = x.find("choices")) {
        if (!c->is_array()) return fail(field, "choices is a list");
        for (const Json& y : c->items()) {
          double d = 0;
          if (!value(y, d)) return;
          q.choices.push_back(d);
        }
      }
      if (const Json* u = x.find("unit")) {
        if (!u->is_string()) return fail(field, "unit is text");
        q.unit = keep(u->as_string());
      }
      p.params.push_back(std::move(q));
    }
  }
  void read_derive() {
    const Json* v = j_.find("derive");
    if (!v) return;
    if (!v->is_object()) return fail("derive", "an object: name → expression");
    for (const auto& [name, x] : v->members()) {
      DeriveEntry d;
      d.name = name;
      if (x.is_object()) {
        const Json* run = x.find("run");
        const Json* output = x.find("output");
        if (!run || !run->is_string() || !output || !output->is_string())
          return fail("derive." + name, "a run needs \"run\" (an estimator) and \"output\"");
        d.run = run->as_string();
        d.output = output->as_string();
        if (const Json* in = x.find("inputs")) d.inputs = entries_of("derive." + name, *in);
      } else {
        expr("derive." + name, x, d.expr);
      }
      data_->derive.push_back(std::move(d));
    }
  }
  void read_valid() {
    const Json* v = j_.find("valid");
    if (!v) return;
    if (v->is_string()) {
      data_->valid.emplace_back();
      return expr("valid", *v, data_->valid.back());
    }
    if (!v->is_array()) return fail("valid", "an expression, or a list of them");
    for (const Json& x : v->items()) {
      data_->valid.emplace_back();
      expr("valid", x, data_->valid.back());
    }
  }
  std::vector<InputEntry> entries_of(const std::string& field, const Json& v) {
    std::vector<InputEntry> out;
    if (!v.is_object()) {
      fail(field, "an object: input → value or \"=expression\"");
      return out;
    }
    for (const auto& [name, x] : v.members()) out.push_back(entry(field + "." + name, name, x));
    return out;
  }
  InputEntry entry(const std::string& field, const std::string& name, const Json& x) {
    InputEntry e;
    e.name = name;
    if (x.is_object() && x.has("if")) {
      const Json* t = x.find("then");
      const Json* o = x.find("else");
      if (!t || !o) {
        fail(field, "an \"if\" needs \"then\" and \"else\"");
        return e;
      }
      expr(field, *x.find("if"), e.condition);
      e.then = std::make_unique<InputEntry>(entry(field, name, *t));
      e.otherwise = std::make_unique<InputEntry>(entry(field, name, *o));
    } else if (x.is_object() && x.has("json")) {
      e.as_json_text = true;
      e.literal = *x.find("json");
      collect_leaves(field, e.literal, "", e.json_leaves);
    } else if (x.is_string() && !x.as_string().empty() && x.as_string()[0] == '=') {
      expr(field, Json(x.as_string().substr(1)), e.expr);
    } else {
      e.literal = x;
    }
    return e;
  }
  void collect_leaves(const std::string& field, const Json& v, const std::string& path,
                      std::vector<std::pair<std::string, Expr>>& out) {
    const std::string prefix = path.empty() ? "" : path + "/";
    if (v.is_array()) {
      for (std::size_t i = 0; i < v.size(); ++i)
        collect_leaves(field, v[i], prefix + std::to_string(i), out);
    } else if (v.is_object()) {
      for (const auto& [k, x] : v.members()) collect_leaves(field, x, prefix + k, out);
    } else if (v.is_string() && !v.as_string().empty() && v.as_string()[0] == '=') {
      Expr e;
      expr(field + "." + path, Json(v.as_string().substr(1)), e);
      out.emplace_back(path, std::move(e));
    }
  }
  std::vector<InputEntry> entries(const char* field) {
    const Json* v = j_.find(field);
    return v ? entries_of(field, *v) : std::vector<InputEntry>{};
  }
  void read_pass() {
    const Json* v = j_.find("pass");
    if (!v) return;
    if (!v->is_array()) return fail("pass", "a list of parameter names");
    for (const Json& x : v->items()) {
      if (!x.is_string()) return fail("pass", "each entry is a parameter name");
      data_->pass.push_back(x.as_string());
    }
  }
  void read_runs() {
    const Json* v = j_.find("runs");
    if (!v) return;
    if (!v->is_object()) return fail("runs", "an object: name → {estimator, inputs}");
    for (const auto& [name, x] : v->members()) {
      const Json* est = x.find("estimator");
      if (!est || !est->is_string()) return fail("runs." + name, "needs an estimator id");
      AuxRun r;
      r.name = name;
      r.estimator = est->as_string();
      if (const Json* in = x.find("inputs")) r.inputs = entries_of("runs." + name, *in);
      data_->runs.push_back(std::move(r));
    }
  }
  void read_unit(Problem& p) {
    const Json* v = j_.find("unit");
    if (!v) return;
    if (v->is_string()) {
      if (!answer_unit_named(v->as_string(), p.unit))
        fail("unit", "\"" + v->as_string() +
                         "\" is not a named unit (output, days, hours, s, ms, µs, GB, TB, MB, "
                         "GB/s, %, GPUs, billion parameters, billion tokens, ZFLOP, yes/no); or "
                         "give {\"unit\", \"name\", \"scale\"}");
      return;
    }
    const Json* u = v->find("unit");
    const Json* n = v->find("name");
    if (!v->is_object() || !u || !u->is_string() || !n || !n->is_string())
      return fail("unit", "a named unit, or {\"unit\": registry unit, \"name\": shown, \"scale\"}");
    p.unit.unit = keep(u->as_string());
    p.unit.name = keep(n->as_string());
    if (const Json* s = v->find("scale")) {
      if (!s->is_number() || !(s->as_number() > 0))
        return fail("unit", "scale is a positive number");
      p.unit.scale = s->as_number();
    }
  }
  void read_bound(Problem& p) {
    const Json* v = j_.find("bound");
    if (!v) return;
    if (v->is_string() && v->as_string() == "at_least")
      p.bound = Bound::at_least;
    else if (v->is_string() && v->as_string() == "at_most")
      p.bound = Bound::at_most;
    else
      fail("bound", "\"at_least\" (a minimum) or \"at_most\" (a maximum)");
  }
  void read_hints(Problem& p) {
    const Json* v = j_.find("hints");
    if (!v || !v->is_array()) return fail("hints", "required: a list of texts, nudge first");
    for (const Json& h : v->items()) {
      if (!h.is_string()) return fail("hints", "each hint is text");
      p.hints.push_back(keep(h.as_string()));
    }
  }
  void read_mistakes(Problem& p) {
    const Json* v = j_.find("mistakes");
    if (!v) return;
    if (!v->is_array()) return fail("mistakes", "a list of {id, feedback, value or times}");
    for (const Json& x : v->items()) {
      const Json* id = x.find("id");
      const Json* fb = x.find("feedback");
      if (!x.is_object() || !id || !id->is_string() || !fb || !fb->is_string())
        return fail("mistakes", "each mistake has an id and feedback");
      Mistake m;
      m.id = keep(id->as_string());
      m.feedback = keep(fb->as_string());
      Expr e;
      if (const Json* t = x.find("times")) {
        if (!t->is_number()) return fail("mistakes." + id->as_string(), "times is a number");
        m.factor = t->as_number();
      } else if (const Json* val = x.find("value")) {
        expr("mistakes." + id->as_string(), *val, e);
      } else {
        return fail("mistakes." + id->as_string(), "needs a value (expression) or times");
      }
      p.mistakes.push_back(m);
      data_->mistake_values.push_back(std::move(e));
    }
  }
  void read_kind(Problem& p) {
    const Json* k = j_.find("kind");
    if (!k) {
      if (j_.has("options")) fail("options", "options need \"kind\": \"choice\" or \"order\"");
      return;
    }
    if (k->is_string() && k->as_string() == "choice")
      p.kind = Kind::choice;
    else if (k->is_string() && k->as_string() == "order")
      p.kind = Kind::order;
    else if (!(k->is_string() && k->as_string() == "number"))
      return fail("kind", "\"number\", \"choice\" or \"order\"");
    const Json* os = j_.find("options");
    if (!os) return;
    if (!os->is_array()) return fail("options", "a list of {label, why, set or output}");
    for (const Json& o : os->items()) {
      Option opt;
      auto field = [&](const char* f) {
        const Json* s = o.find(f);
        return s && s->is_string() ? keep(s->as_string()) : Literal();
      };
      opt.label = field("label");
      opt.why = field("why");
      opt.set = field("set");
      opt.output = field("output");
      p.options.push_back(opt);
    }
  }

  const Json& j_;
  std::vector<std::string>& errors_;
  std::unique_ptr<ProblemData> data_;
  std::string id_;
  bool ok_ = true;
};

}  // namespace

void load_problems(std::string_view json_text, ProblemBank& bank,
                   std::vector<std::string>& errors) {
  Json doc;
  std::string error;
  if (!Json::parse(json_text, doc, error)) return errors.push_back("not JSON: " + error);
  const Json* version = doc.find("napkin_problems");
  if (!doc.is_object() || !version || !version->is_number() || version->as_number() != 1)
    return errors.push_back("a problem file is {\"napkin_problems\": 1, \"problems\": [...]}");
  const Json* list = doc.find("problems");
  if (!list || !list->is_array()) return errors.push_back("\"problems\" must be a list");
  for (const Json& j : list->items()) {
    Problem p;
    if (!Reader(j, errors).read(p)) continue;
    const std::size_t before = bank.defects().size();
    if (bank.add(std::move(p), false)) continue;
    for (std::size_t i = before; i < bank.defects().size(); ++i)
      errors.push_back(bank.defects()[i]);
  }
}

}  // namespace napkin
