#include "practice/problems.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <set>

#include "base/number_text.hpp"
#include "base/units.hpp"
#include "scenario/cluster.hpp"
#include "scenario/model.hpp"

namespace napkin {

// ----------------------------------------------------------------------------------------------
double Values::operator[](std::string_view name) const {
  for (const auto& [k, v] : items_)
    if (k == name) return v;
  return std::nan("");
}

void Values::set(std::string_view name, double v) {
  for (auto& [k, x] : items_)
    if (k == name) {
      x = v;
      return;
    }
  items_.emplace_back(std::string(name), v);
}

bool Values::has(std::string_view name) const {
  return std::any_of(items_.begin(), items_.end(),
                     [&](const auto& kv) { return kv.first == name; });
}

Json Values::to_json() const {
  Json j = Json::object();
  for (const auto& [k, v] : items_) j.set(k, v);
  return j;
}

namespace {

const char* const kAreas[] = {"training", "memory", "comm", "inference"};

// splitmix64 (Steele, Lea & Flood 2014): tiny, portable, the same stream on every platform,
// unlike <random>'s distributions.
struct Rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
};

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001B3ull;
  }
  return h;
}

// Counts read better bare in a sentence ("512 GPUs", "70B parameters").
bool shown_bare(std::string_view u) {
  return u.empty() || u == unit::params || u == unit::tokens || u == unit::gpus ||
         u == unit::gpu_hours || u == unit::tokens_per_s || u == unit::requests_per_s ||
         u == unit::samples_per_s;
}

// "an" when a number is read with a vowel sound first: eight, eighty, eight hundred...,
// eleven and eighteen (thousand, million...). Its leading group of digits decides: the digits
// before the first thousands separator, or the first n mod 3 of an unseparated run.
bool reads_with_an(std::string_view shown) {
  std::string digits;
  std::size_t lead = 0;
  for (char c : shown) {
    if (c == ',' && !lead) lead = digits.size();
    if (c != ',' && (c < '0' || c > '9')) break;
    if (c != ',') digits += c;
  }
  if (digits.empty()) return false;
  if (!lead) lead = digits.size() % 3 ? digits.size() % 3 : 3;
  const std::string_view group = std::string_view(digits).substr(0, lead);
  return group[0] == '8' || group == "11" || group == "18";
}

// The article just written before a filled number, made to fit it: "A 8.03B" → "An 8.03B".
void fit_article(std::string& out, std::string_view shown) {
  const std::size_t n = out.size();
  auto word_at = [&](std::size_t at) {
    return at == 0 || out[at - 1] == ' ' || out[at - 1] == '(';
  };
  const bool an = reads_with_an(shown);
  if (n >= 2 && (out[n - 2] == 'a' || out[n - 2] == 'A') && out[n - 1] == ' ' && word_at(n - 2)) {
    if (an) out.insert(n - 1, "n");
  } else if (n >= 3 && (out[n - 3] == 'a' || out[n - 3] == 'A') && out[n - 2] == 'n' &&
             out[n - 1] == ' ' && word_at(n - 3) && !an) {
    out.erase(n - 2, 1);
  }
}

std::string fill_statement(std::string_view tmpl, const Problem& p, const Values& v) {
  std::string out;
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    std::size_t close = tmpl.find('}', i);
    if (tmpl[i] != '{' || close == std::string::npos) {
      out += tmpl[i];
      continue;
    }
    std::string key(tmpl.substr(i + 1, close - i - 1));
    bool raw = false;
    if (auto colon = key.find(':'); colon != std::string::npos) {
      raw = key.substr(colon + 1) == "raw";
      key = key.substr(0, colon);
    }
    const Param* param = nullptr;
    for (const auto& q : p.params)
      if (q.name == key) param = &q;
    if (!param && !v.has(key)) {  // unknown: left visible, and the bank's tests catch it
      out += tmpl[i];
      continue;
    }
    std::string u = param ? param->unit.c_str() : "";
    const std::string shown = param && !param->preset.empty()
                                  ? preset_label(param->preset.view(), v[key])
                              : (raw || shown_bare(u)) ? format_value(v[key], unit::none)
                                                       : format_value(v[key], u);
    fit_article(out, shown);
    out += shown;
    i = close;
  }
  return out;
}

bool mistake_coincides(double alt, double answer, const Problem& p) {
  // The grader's rule, from the student's side (answer.cpp): a variant is dropped when the
  // answer, or an answer the grader still calls close, would be read as this mistake.
  return mistake_shadows_answer(alt, {answer, p.unit, p.tolerance, p.close, p.integer, p.bound});
}

Error unknown_problem(std::string_view id) {
  return {"unknown_problem", "",
          "unknown problem \"" + std::string(id) + "\"; `napkin problems` lists them",
          Json(std::string(id)), ""};
}

Json error_json(const Error& e) {
  Json j = Json::object();
  j.set("error", e.to_json());
  return j;
}

Reply fail(const Error& e) {
  return {false, error_json(e), e.message};
}

Json tag_list(const Problem& p) {
  Json a = Json::array();
  for (std::size_t at = 0; at < p.tags.size();) {
    std::size_t end = std::min(p.tags.view().find(',', at), p.tags.size());
    a.push(p.tags.view().substr(at, end - at));
    at = end + 1;
  }
  return a;
}

Json mistake_ids(const Problem& p) {
  Json a = Json::array();
  for (const auto& m : p.mistakes) a.push(m.id);
  // GB for GiB is recognised in typed numbers only: a choice or an order has no unit to slip.
  if (p.kind == Kind::number && (p.unit.unit == unit::bytes || p.unit.unit == unit::bytes_per_s))
    a.push("gb_vs_gib");
  return a;
}

Json answer_json(double value, const AnswerUnit& u) {
  Json a = Json::object();
  a.set("value", value);
  a.set("unit", u.unit);
  a.set("name", u.name);
  a.set("scale", u.scale);
  a.set("text", answer_text(value, u));
  return a;
}

}  // namespace

// ----------------------------------------------------------------------------------------------
bool ProblemBank::add(Problem p, bool keep_defective) {
  const std::size_t before = defects_.size();
  auto defect = [&](const std::string& what) { defects_.push_back(p.id + ": " + what); };
  if (p.id.empty()) defect("empty id");
  if (find(p.id)) defect("duplicate id");
  if (std::none_of(std::begin(kAreas), std::end(kAreas),
                   [&](const char* a) { return p.area == a; }))
    defect("area \"" + p.area + "\" is not training, memory, comm or inference");
  if (p.title.empty() || p.statement.empty()) defect("needs a title and a statement");
  if (p.hints.empty()) defect("needs at least one hint");
  if (p.difficulty < 1 || p.difficulty > 3) defect("difficulty must be 1, 2 or 3");
  if (p.tags.empty()) defect("needs tags");
  const Estimator* est = registry().find(p.estimator);
  if (!est) {
    defect("unknown estimator \"" + p.estimator + "\"");
  } else {
    const OutputSpec* out = nullptr;
    for (const auto& o : est->outputs)
      if (o.name == p.output) out = &o;
    if (!out) {
      defect("\"" + p.output + "\" is not an output of " + p.estimator);
    } else {
      if (p.unit.unit.empty() && p.unit.name.empty())
        p.unit.unit = out->unit.c_str();  // the registry lives on
      bool same = p.unit.unit == out->unit || (out->unit.empty() && p.unit.unit == unit::times) ||
                  (out->kind == OutputKind::Boolean && p.unit.unit == kYesNo);
      if (p.unit.unit == kYesNo) p.integer = true;
      if (!same && !has_answer_fn(p))
        defect("answer unit \"" + p.unit.unit + "\" differs from " + p.output + "'s unit \"" +
               out->unit + "\": give an answer expression that converts, or the output's own unit");
    }
    for (auto& q : p.params)
      if (q.unit == "?") {
        const InputSpec* in = est->input(q.name);
        q.unit = in ? in->unit.c_str() : "";  // the registry lives on
      }
  }
  for (std::size_t i = 0; i < p.mistakes.size(); ++i) {
    const Mistake& m = p.mistakes[i];
    if (m.id.empty() || m.feedback.empty()) defect("a mistake needs an id and feedback");
    if (!has_mistake_value(p, i) && m.factor == 0)
      defect("mistake " + m.id + " has no value and no factor");
    if (m.id == "gb_vs_gib") defect("gb_vs_gib is automatic; do not declare it");
    for (std::size_t j = 0; j < i; ++j)
      if (p.mistakes[j].id == m.id) defect("duplicate mistake " + m.id);
  }
  if ((p.kind == Kind::number) != p.options.empty() || p.options.size() == 1 ||
      (p.kind == Kind::order && p.options.size() < 3))
    defect("a choice needs two options or more, an order three; a number none");
  for (const Option& o : p.options)
    if (o.label.empty() || o.why.empty() || (o.set.empty() && o.output.empty()))
      defect("an option needs a label, a why, and a set or an output");
  if (p.close == 0) p.close = std::max(3 * p.tolerance, 0.10);
  const bool clean = defects_.size() == before;
  if (clean || keep_defective) problems_.push_back(std::move(p));
  return clean;
}

const Problem* ProblemBank::find(std::string_view id) const {
  for (const auto& p : problems_)
    if (p.id == id) return &p;
  return nullptr;
}

namespace {
ProblemBank& the_bank() {
  static ProblemBank bank;
  return bank;
}
}  // namespace

const ProblemBank& problem_bank() {
  return the_bank();
}

std::vector<std::string> load_into_bank(std::string_view json_text) {
  std::vector<std::string> errors;
  load_problems(json_text, the_bank(), errors);
  return errors;
}

Reply load_reply(std::string_view json_text) {
  const std::size_t before = the_bank().problems().size();
  const std::vector<std::string> errors = load_into_bank(json_text);
  Json ids = Json::array();
  for (std::size_t i = before; i < the_bank().problems().size(); ++i)
    ids.push(the_bank().problems()[i].id);
  Json list = Json::array();
  for (const std::string& e : errors) list.push(e);
  Json j = Json::object();
  j.set("loaded", static_cast<double>(ids.size()));
  j.set("ids", std::move(ids));
  j.set("errors", std::move(list));
  return {true, std::move(j), ""};
}

Expected Variant::expected() const {
  return {answer,         problem->unit,    problem->tolerance,
          problem->close, problem->integer, problem->bound};
}

// ----------------------------------------------------------------------------------------------
namespace {

// The parts a problem's variants are drawn with: every problem of its group, in bank order
// (the parts of a multi-part problem are one scenario), or the problem alone.
std::vector<const Problem*> parts_of(const Problem& p, const ProblemBank& bank) {
  std::vector<const Problem*> parts;
  if (!p.group.empty())
    for (const Problem& q : bank.problems())
      if (q.group == p.group) parts.push_back(&q);
  if (std::find(parts.begin(), parts.end(), &p) == parts.end()) parts = {&p};
  return parts;
}

// A problem's parameters as seed 0 states them.
Values fixed_params(const Problem& p) {
  Values v;
  for (const auto& q : p.params) v.set(q.name, q.fixed);
  derive_params(p, v);
  return v;
}

// One part's parameters out of its group's draw: the drawn value of each parameter it declares
// with choices, its own value of each it declares without (a constant of this part: its ZeRO
// stage, its layout, its link), then its own derived values.
Values project(const Problem& p, const Values& draw) {
  Values v;
  for (const auto& q : p.params) v.set(q.name, q.choices.empty() ? q.fixed : draw[q.name]);
  derive_params(p, v);
  return v;
}

// Seeds ≥ 1 walk the combinations of the parameters' choices in a fixed pseudo-random order
// (offset and stride from splitmix64 on the first part's id). The parameters are those of every
// part of the group, a name declared by several parts drawn once (from the first declaration
// that has choices), so the parts share one draw. When there are few enough combinations, the
// walk keeps only those every part's `valid` accepts and that differ from the source's numbers,
// so consecutive seeds give different variants until the combinations run out.
class Draws {
 public:
  explicit Draws(std::vector<const Problem*> parts)
      : parts_(std::move(parts)), rng_{fnv1a(parts_[0]->id)} {
    for (const Problem* p : parts_)
      for (const auto& q : p->params) {
        auto same = std::find_if(params_.begin(), params_.end(),
                                 [&](const Param* x) { return x->name == q.name; });
        if (same == params_.end())
          params_.push_back(&q);
        else if ((*same)->choices.empty() && !q.choices.empty())
          *same = &q;
      }
    for (const Param* q : params_) fixed_.set(q->name, q->fixed);
    fixed_ = derived(fixed_);
    total_ = 1;
    for (const Param* q : params_) {
      const std::uint64_t n = std::max<std::size_t>(1, q->choices.size());
      total_ = total_ > (1ull << 31) / n ? 0 : total_ * n;  // 0: too many, draw at random
      if (total_ == 0) break;
    }
    if (total_ == 0) return;
    offset_ = rng_.next() % total_;
    stride_ = rng_.next() % total_;
    while (total_ > 1 && std::gcd(stride_, total_) != 1) stride_ = (stride_ + 1) % total_;
    if (total_ > kEnumerate) return;
    for (std::uint64_t k = 0; k < total_; ++k) {
      const std::uint64_t index = at(k);
      Values v = decode(index);
      if (acceptable(v)) order_.push_back(index);
    }
  }

  // The parameters of draw `k` ≥ 1; false when the draw is refused.
  bool draw(std::int64_t k1, Values& v) {
    const auto k = static_cast<std::uint64_t>(k1 - 1);
    if (!order_.empty()) {
      v = decode(order_[k % order_.size()]);
      return true;
    }
    if (total_ > 0 && total_ <= kEnumerate) return false;  // nothing acceptable
    if (total_ > 0) {
      v = decode(at(k % total_));
    } else {
      rng_.state ^= static_cast<std::uint64_t>(k1) * 0xD1B54A32D192ED03ull;
      Values d;
      for (const Param* q : params_)
        d.set(q->name, q->choices.empty() ? q->fixed : q->choices[rng_.below(q->choices.size())]);
      v = derived(std::move(d));
    }
    return acceptable(v);
  }

  // The random walk's state (too many combinations to enumerate), so that a pool built in
  // several calls draws what one call would.
  std::uint64_t rng_state() const { return rng_.state; }
  void set_rng_state(std::uint64_t s) { rng_.state = s; }

  // True when draw k was the last of an enumerated walk (every combination seen).
  bool exhausted(std::int64_t k) const {
    return !order_.empty() && static_cast<std::uint64_t>(k) >= order_.size();
  }

 private:
  static constexpr std::uint64_t kEnumerate = 4096;

  std::uint64_t at(std::uint64_t k) const { return (offset_ + k * stride_) % total_; }

  Values derived(Values v) const {
    for (const Problem* p : parts_) derive_params(*p, v);
    return v;
  }

  Values decode(std::uint64_t index) const {
    Values v;
    for (const Param* q : params_) {
      if (q->choices.empty()) {
        v.set(q->name, q->fixed);
        continue;
      }
      v.set(q->name, q->choices[index % q->choices.size()]);
      index /= q->choices.size();
    }
    return derived(std::move(v));
  }

  bool acceptable(const Values& v) const {
    for (const Problem* p : parts_)
      if (!params_valid(*p, project(*p, v))) return false;
    if (total_ == 1) return true;
    for (const Param* q : params_)
      if (v[q->name] != fixed_[q->name]) return true;
    return false;  // a random seed is not the source's numbers
  }

  std::vector<const Problem*> parts_;
  std::vector<const Param*> params_;
  Values fixed_;
  Rng rng_;
  std::uint64_t total_ = 1, offset_ = 0, stride_ = 1;
  std::vector<std::uint64_t> order_;
};

}  // namespace

bool apply_option(std::string_view set, Values& p) {
  while (!set.empty()) {
    const std::size_t sp = set.find(' ');
    const std::string_view item = set.substr(0, sp);
    set = sp == std::string_view::npos ? std::string_view() : set.substr(sp + 1);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0) return false;
    const bool scale = item[eq - 1] == '*';
    const std::string_view name = item.substr(0, scale ? eq - 1 : eq), value = item.substr(eq + 1);
    if (name == "gpu") {
      const Gpu* g = find_gpu(value);
      if (!g) return false;
      p.set("peak_flops", g->peak_bf16);
      p.set("mem_bandwidth", g->hbm_bandwidth);
    } else if (name == "model") {
      const ModelPreset* m = find_model(value);
      if (!m) return false;
      p.set("n_layers", m->model.layers);
      p.set("n_heads", m->model.heads);
      p.set("n_kv_heads", m->model.kv_heads);
      p.set("head_dim", m->model.head_dim);
    } else {
      double x = 0;
      if (!read_decimal(value, x)) return false;
      p.set(name, scale ? p[name] * x : x);
    }
  }
  return true;
}

namespace {

// The estimator's run for these parameters, its numeric outputs (booleans as 0/1) in `out`.
// `steps`: whether the run records its derivation (a variant shown to a student does; the
// draws that build a problem's pool of variants need only the numbers, and run 3–5× faster).
RunResult run_for(const Problem& p, const Estimator& est, const Values& params, Values& out,
                  bool steps = true) {
  const Json inputs = inputs_for(p, est, params);
  RunResult r = registry().run(p.estimator, inputs, steps);
  for (const auto& [name, value] : r.outputs.members())
    if (value.is_number())
      out.set(name, value.as_number());
    else if (value.is_bool())
      out.set(name, value.as_bool() ? 1 : 0);
  return r;
}

// Option indices from the best value (lowest, or highest) to the worst; ties keep their order.
std::vector<std::size_t> ranked(const std::vector<double>& x, bool highest) {
  std::vector<std::size_t> r;
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::size_t at = r.size();
    while (at > 0 && (highest ? x[i] > x[r[at - 1]] : x[i] < x[r[at - 1]])) --at;
    r.insert(r.begin() + static_cast<std::ptrdiff_t>(at), i);
  }
  return r;
}

// The order a variant shows n options in: the author's at seed 0; after it a Fisher–Yates
// shuffle driven by the seed (splitmix64, so native and wasm agree).
std::vector<std::size_t> shown_options(std::size_t n, std::int64_t seed) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::uint64_t x = static_cast<std::uint64_t>(seed) * 0x9E3779B97F4A7C15ULL;
  for (std::size_t i = n; seed != 0 && i > 1; --i) {
    x += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    std::swap(order[i - 1], order[z % i]);
  }
  return order;
}

// Where the option with index i (into problem->options) is shown, from 0.
std::size_t shown_at(const Variant& v, std::size_t i) {
  for (std::size_t k = 0; k < v.shown.size(); ++k)
    if (v.shown[k] == i) return k;
  return i;
}

// A choice or order problem's options: each one's value, and the key. False when an option
// cannot be run; `distinct` false when the key is not clear: the best two (an order: any two
// neighbours) within 10 % of each other, or an order the options are already shown in.
bool evaluate_options(const Problem& p, const Estimator& est, Variant& v, std::string& why,
                      bool& distinct) {
  for (const Option& o : p.options) {
    double x = v.outputs[o.output];
    if (o.output.empty()) {
      Values q = v.params, out;
      if (!apply_option(o.set, q)) return why = "an option's set does not read", false;
      RunResult r = run_for(p, est, q, out, false);
      if (!r.ok) return why = r.error.message, false;
      x = answer_for(p, q, out);
    }
    if (!std::isfinite(x)) return why = "an option's value is not a finite number", false;
    v.option_values.push_back(x);
  }
  const auto& x = v.option_values;
  v.key = ranked(x, p.highest);
  bool shown_order = true;
  for (std::size_t i = 0; i < v.key.size(); ++i) {
    shown_order = shown_order && v.key[i] == i;
    if (i > 0 && (p.kind == Kind::order || i == 1) &&
        relative_error(x[v.key[i]], x[v.key[i - 1]]) < 0.10)
      distinct = false;
  }
  if (p.kind == Kind::order && shown_order) distinct = false;
  if (p.kind == Kind::choice) v.key.resize(1);
  v.answer = static_cast<double>(v.key[0]) + 1;  // in the author's order until shown (show())
  return true;
}

// The order a variant shows its options in (Variant::shown), and its answer in that order. An
// order the shuffle happens to show already sorted has its first two options swapped.
void show(Variant& v) {
  const Problem& p = *v.problem;
  if (p.kind == Kind::number) return;
  v.shown = shown_options(p.options.size(), v.seed);
  if (p.kind == Kind::order && v.key.size() >= 2 &&
      std::equal(v.key.begin(), v.key.end(), v.shown.begin()))
    std::swap(v.shown[0], v.shown[1]);
  v.answer = static_cast<double>(shown_at(v, v.key[0])) + 1;
}

// One variant from its parameters: the estimator's run, the answer, the mistakes. False (with
// `why`) when the run fails or the answer is not finite; `distinct` is false when a mistake
// could not be told from the answer (mistake_coincides). `shown`: a variant a student sees, with
// its derivation and feedback texts; the pool's draws need only its numbers.
bool evaluate(const Problem& p, const Estimator& est, Values params, std::int64_t seed, Variant& v,
              std::string& why, bool& distinct, bool shown = true) {
  v = Variant{};
  v.problem = &p;
  v.seed = seed;
  v.params = std::move(params);
  v.run = run_for(p, est, v.params, v.outputs, shown);
  if (!v.run.ok) return why = v.run.error.message, false;
  distinct = true;
  if (p.kind != Kind::number) return evaluate_options(p, est, v, why, distinct);
  v.answer = answer_for(p, v.params, v.outputs);
  if (!std::isfinite(v.answer)) return why = "the answer is not a finite number", false;
  for (std::size_t i = 0; i < p.mistakes.size(); ++i) {
    const Mistake& m = p.mistakes[i];
    double alt = mistake_value(p, i, v.params, v.outputs, v.answer);
    v.mistakes.push_back(
        {std::string(m.id), shown ? fill_statement(m.feedback, p, v.params) : std::string(), alt});
    if (mistake_coincides(alt, v.answer, p)) distinct = false;
  }
  return true;
}

constexpr std::size_t kPoolSize = 200;  // distinct variants kept per problem
constexpr int kPoolTries = 4096;        // draws tried to find them

std::string statement_of(const Problem& p, const Values& params, std::int64_t seed) {
  const bool fixed = seed == 0 && !p.fixed_statement.empty();
  return fill_statement(fixed ? p.fixed_setup + p.fixed_statement : p.setup + p.statement, p,
                        params);
}

}  // namespace

// True when a number problem's answer is one of the numbers its statement gives (a draw the
// pool leaves out; lint reports it at seed 0, which an author chooses).
bool answer_is_a_given(const Variant& v) {
  const Problem& p = *v.problem;
  if (p.kind != Kind::number || p.unit.unit == kYesNo || v.answer == 0) return false;
  const bool fixed = v.seed == 0 && !p.fixed_statement.empty();
  const std::string shown = fixed ? p.fixed_setup + p.fixed_statement : p.setup + p.statement;
  for (const auto& item : v.params.items())
    if (relative_error(item.second, v.answer) < 1e-9 &&
        (shown.find("{" + item.first + "}") != std::string::npos ||
         shown.find("{" + item.first + ":raw}") != std::string::npos))
      return true;
  return false;
}

// Seeds ≥ 1 index a pool built once per group (or lone problem): draws in the fixed
// pseudo-random order of Draws, each kept only when, for every part, every mistake is
// distinguishable from its answer and its statement is not the source's, and the answers, as
// shown, are new — not seed 0's and not an earlier draw's (a yes/no answer: its numbers). So
// seeds 1, 2, 3... give different answers, none the worked example's, until the pool runs out;
// then it repeats. Each part reads its own parameters out of the shared draw (project).
static const std::vector<Values>& variant_pool(const Problem& p, const ProblemBank& bank,
                                               std::size_t need) {
  const std::vector<const Problem*> parts = parts_of(p, bank);
  const Problem& owner = *parts[0];  // the group's pool lives on its first part
  if (owner.pool_built || owner.pool.size() >= need) return owner.pool;
  // Grown geometrically (8, 24, 56, ...): seeds asked one by one rebuild the draws a few times,
  // not once per seed.
  need = std::min(kPoolSize, std::max(need, 2 * owner.pool.size() + 8));
  std::vector<const Estimator*> est;
  std::vector<std::string> source;  // each part's statement at seed 0
  for (const Problem* q : parts) {
    est.push_back(registry().find(q->estimator));
    if (!est.back()) return owner.pool;
    source.push_back(statement_of(*q, fixed_params(*q), 0));
  }
  Draws draws(parts);
  if (owner.pool_next > 0) draws.set_rng_state(owner.pool_rng);
  Variant v;
  std::string why;
  bool distinct = true;
  // The parts' answers; a yes/no answer has two values: its variants differ by their numbers.
  auto key = [&](const Values& draw, std::int64_t seed, bool& ok) {
    std::string k;
    ok = true;
    for (std::size_t i = 0; i < parts.size() && ok; ++i) {
      const Problem& q = *parts[i];
      const Values params = seed == 0 ? fixed_params(q) : project(q, draw);
      ok = evaluate(q, *est[i], params, seed, v, why, distinct, false) && (seed == 0 || distinct) &&
           (seed == 0 || statement_of(q, params, seed) != source[i]) &&
           (seed == 0 || !answer_is_a_given(v));
      k += answer_text(v.answer, q.unit) +
           (q.unit.unit == kYesNo || q.kind != Kind::number ? v.params.to_json().dump() : "") + "|";
    }
    return k;
  };
  bool ok = true;
  if (owner.pool_next == 0)
    if (const std::string k = key(Values{}, 0, ok); ok) owner.pool_answers.insert(k);
  std::vector<Values>& pool = owner.pool;
  for (int k = owner.pool_next; k < kPoolTries && pool.size() < kPoolSize && pool.size() < need;
       ++k) {
    owner.pool_next = k + 1;
    Values params;
    if (!draws.draw(k + 1, params)) continue;
    const std::string answers = key(params, k + 1, ok);
    if (!ok || !owner.pool_answers.insert(answers).second) continue;
    pool.push_back(std::move(params));
    if (draws.exhausted(k + 1)) {
      owner.pool_built = true;
      break;
    }
  }
  if (owner.pool_next >= kPoolTries || pool.size() >= kPoolSize) owner.pool_built = true;
  owner.pool_rng = draws.rng_state();
  return pool;
}

std::size_t variant_count(const Problem& p, const ProblemBank* bank) {
  return variant_pool(p, bank ? *bank : problem_bank(), kPoolSize).size();
}

Result<Variant> make_variant(const Problem& p, std::int64_t seed, const ProblemBank* bank) {
  if (seed < 0 || seed > kMaxSeed)
    return Error{"invalid_value", "seed",
                 "seed = " + std::to_string(seed) + ": must be an integer from 0 to 2147483647",
                 Json(static_cast<double>(seed)), "0 ≤ seed ≤ 2147483647"};
  const Estimator* est = registry().find(p.estimator);
  if (!est) return unknown_problem(p.id);
  Values params = fixed_params(p);  // seed 0, and any seed of a problem with no variants
  if (seed > 0) {
    const auto k = static_cast<std::size_t>(seed - 1);
    const std::vector<Values>& pool = variant_pool(p, bank ? *bank : problem_bank(), k + 1);
    if (!pool.empty()) params = project(p, pool[k < pool.size() ? k : k % pool.size()]);
  }
  Variant v;
  std::string why;
  bool distinct = true;
  if (!evaluate(p, *est, std::move(params), seed, v, why, distinct))
    return Error{"internal", "", "problem " + p.id + " cannot be built: " + why, Json(p.id), ""};
  v.statement = statement_of(p, v.params, seed);
  show(v);
  return v;
}

// ----------------------------------------------------------------------------------------------
namespace {

std::string option_label(const Variant& v, std::size_t i) {
  return fill_statement(v.problem->options[i].label, *v.problem, v.params);
}

// The options from the key's end: each with its value and why.
Json option_steps(const Variant& v) {
  const Problem& p = *v.problem;
  Json out = Json::array();
  for (std::size_t i : ranked(v.option_values, p.highest)) {
    Json s = Json::object();
    s.set("title", option_label(v, i));
    s.set("text", answer_text(v.option_values[i], p.unit));
    s.set("note", fill_statement(p.options[i].why, p, v.params));
    out.push(std::move(s));
  }
  return out;
}

Json kind_answer(const Variant& v) {
  Json a = Json::object(), order = Json::array();
  std::string text;
  for (std::size_t i : v.key) {
    order.push(static_cast<double>(shown_at(v, i)));
    text += (text.empty() ? "" : " → ") + option_label(v, i);
  }
  a.set("value", v.answer);
  a.set("order", std::move(order));
  a.set("text", text);
  return a;
}

// A choice: one option's number; an order: every option's number once, in the student's order
// ("2, 1, 3"). Right is the key; an order one swap of neighbours away is close (half marks).
Reply check_kind(const Variant& v, std::string_view answer) {
  const Problem& p = *v.problem;
  const std::size_t n = p.options.size();
  std::vector<std::size_t> given;
  std::vector<bool> seen(n, false);
  bool ok = true;
  for (std::size_t i = 0; i < answer.size(); ++i) {
    if (answer[i] < '0' || answer[i] > '9') continue;
    std::size_t k = 0;
    for (; i < answer.size() && answer[i] >= '0' && answer[i] <= '9' && k <= n; ++i)
      k = k * 10 + static_cast<std::size_t>(answer[i] - '0');
    ok = ok && k >= 1 && k <= n && !seen[k - 1];
    // The student numbers the options as shown; the key is in the author's indices.
    if (ok) seen[k - 1] = true, given.push_back(v.shown.size() == n ? v.shown[k - 1] : k - 1);
  }
  if (!ok || given.size() != v.key.size()) {
    const std::string want = p.kind == Kind::choice
                                 ? "one option's number, 1 to " + std::to_string(n)
                                 : "each option's number once, in order (e.g. 2, 1, 3)";
    return fail({"invalid_value", "answer",
                 "answer \"" + std::string(answer) + "\" must be " + want,
                 Json(std::string(answer)), ""});
  }
  std::size_t first = 0, wrong = 0;
  for (std::size_t i = given.size(); i-- > 0;)
    if (given[i] != v.key[i]) first = i, ++wrong;
  const bool swap = wrong == 2 && first + 1 < n && given[first] == v.key[first + 1] &&
                    given[first + 1] == v.key[first];
  std::string verdict = wrong == 0 ? "correct" : swap ? "close" : "wrong";
  std::string feedback = fill_statement(p.options[given[0]].why, p, v.params);
  if (p.kind == Kind::order)
    feedback = wrong == 0 ? "Right order."
                          : "“" + option_label(v, v.key[first]) + "” comes before “" +
                                option_label(v, given[first]) + "”.";
  Json j = Json::object();
  j.set("id", p.id);
  j.set("seed", static_cast<double>(v.seed));
  j.set("verdict", verdict);
  j.set("score", wrong == 0 ? kScoreCorrect : swap ? kScoreClose : 0.0);
  j.set("mistake", Json());
  j.set("feedback", feedback);
  Json g = Json::object();
  g.set("text", std::string(answer));
  j.set("given", std::move(g));
  j.set("expected", kind_answer(v));
  return {true, std::move(j), ""};
}

}  // namespace

Json solution_steps(const Variant& v) {
  Json all, out = Json::array();
  std::string err;
  if (v.problem->kind != Kind::number) out = option_steps(v);
  if (v.problem->kind != Kind::number || !Json::parse(v.run.steps.dump(), all, err))
    return out;  // the registry writes valid JSON
  auto at = [&](double want) -> std::size_t {
    for (std::size_t i = 0; i < all.size(); ++i)
      if (const Json* x = all[i].find("value"))
        if (x->is_number() && relative_error(x->as_number(), want) <= 1e-9) return i;
    return all.size();
  };
  std::size_t last = at(v.answer);
  if (last == all.size()) last = at(v.outputs[v.problem->output]);
  for (std::size_t i = 0; i < all.size() && i <= last; ++i) out.push(all[i]);
  if (!v.problem->explain.empty()) {
    Json note = Json::object();
    note.add("title", "How the answer follows");
    note.add("note", fill_statement(v.problem->explain, *v.problem, v.params));
    out.push(std::move(note));
  }
  return out;
}

Reply problems_reply() {
  Json list = Json::array();
  for (const auto& p : problem_bank().problems()) {
    Json j = Json::object();
    j.set("id", p.id);
    j.set("area", p.area);
    j.set("title", p.title);
    j.set("group", p.group);
    j.set("source", p.source);
    j.set("difficulty", p.difficulty);
    j.set("tags", tag_list(p));
    j.set("estimator", p.estimator);
    j.set("output", p.output);
    j.set("mistakes", mistake_ids(p));
    if (p.kind != Kind::number) j.set("kind", p.kind == Kind::choice ? "choice" : "order");
    list.push(std::move(j));
  }
  Json j = Json::object();
  j.set("problems", std::move(list));
  return {true, std::move(j), ""};
}

Reply problem_reply(std::string_view id, std::int64_t seed) {
  const Problem* p = problem_bank().find(id);
  if (!p) return fail(unknown_problem(id));
  Result<Variant> r = make_variant(*p, seed);
  if (!r.ok()) return fail(r.error());
  const Variant& v = r.value();
  Json j = Json::object();
  j.set("id", p->id);
  j.set("area", p->area);
  j.set("title", p->title);
  j.set("group", p->group);
  j.set("source", p->source);
  j.set("seed", static_cast<double>(seed));
  j.set("difficulty", p->difficulty);
  j.set("tags", tag_list(*p));
  j.set("params", v.params.to_json());
  j.set("statement", v.statement);
  j.set("estimator", p->estimator);
  j.set("inputs", v.run.inputs);
  j.set("output", p->output);
  if (p->kind != Kind::number) {
    j.set("kind", p->kind == Kind::choice ? "choice" : "order");
    Json options = Json::array();
    for (std::size_t i = 0; i < p->options.size(); ++i)
      options.push(option_label(v, v.shown.size() == p->options.size() ? v.shown[i] : i));
    j.set("options", std::move(options));
  }
  j.set("answer", p->kind == Kind::number ? answer_json(v.answer, p->unit) : kind_answer(v));
  j.set("tolerance", p->tolerance);
  j.set("close", p->close);
  j.set("integer", p->integer);
  Json hints = Json::array();  // templates too: a variant's hint quotes its own numbers
  for (const Literal& h : p->hints) hints.push(fill_statement(h, *p, v.params));
  j.set("hints", std::move(hints));
  j.set("hint_cost", p->hint_cost);
  j.set("mistakes", mistake_ids(*p));
  j.set("solution", solution_steps(v));
  j.set("warnings", v.run.warnings);
  return {true, std::move(j), ""};
}

Reply check_reply(std::string_view id, std::int64_t seed, std::string_view answer) {
  const Problem* p = problem_bank().find(id);
  if (!p) return fail(unknown_problem(id));
  Result<Variant> r = make_variant(*p, seed);
  if (!r.ok()) return fail(r.error());
  const Variant& v = r.value();
  if (p->kind != Kind::number) return check_kind(v, answer);
  ParsedAnswer parsed = parse_answer(answer, p->unit);
  if (!parsed.ok)
    return fail(
        {"invalid_value", "answer", "answer " + parsed.error, Json(std::string(answer)), ""});
  Judgement g = grade(parsed, v.expected(), v.mistakes);
  if (g.verdict == "unit")
    return fail({"invalid_value", "answer", "answer \"" + std::string(answer) + "\" " + g.feedback,
                 Json(std::string(answer)), ""});
  Json j = Json::object();
  j.set("id", p->id);
  j.set("seed", static_cast<double>(seed));
  j.set("verdict", g.verdict);
  j.set("score", g.score);
  j.set("mistake", g.mistake.empty() ? Json() : Json(g.mistake));
  j.set("feedback", g.feedback);
  Json given = Json::object();
  given.set("text", std::string(answer));
  given.set("value", g.given);
  j.set("given", std::move(given));
  j.set("expected", answer_json(v.answer, p->unit));
  j.set("relative_error", g.relative_error);
  return {true, std::move(j), ""};
}

}  // namespace napkin
