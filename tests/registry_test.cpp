// Properties every registered estimator must have, checked over the whole registry so a new
// estimator is covered the moment it is declared.
#include <algorithm>
#include <cmath>

#include "base/units.hpp"
#include "helpers.hpp"

using namespace napkin;

namespace {
Json example_inputs(const Estimator& e) {
  Json j = Json::object();
  for (const auto& i : e.inputs) j.set(i.name, i.example);
  return j;
}
}  // namespace

TEST_CASE("every estimator runs on its example inputs with finite outputs and a derivation") {
  REQUIRE(registry().estimators().size() >= 6);
  for (const auto& e : registry().estimators()) {
    const std::string id(e.info.id);
    CAPTURE(id);
    RunResult r = registry().run(e.info.id, example_inputs(e));
    CAPTURE(r.error.message);
    REQUIRE(r.ok);
    CHECK(r.steps.size() > 0);
    for (const auto& o : e.outputs) {
      CAPTURE(o.name);
      const Json* v = r.outputs.find(o.name);
      if (o.optional && !v) continue;  // not asked for by the example: absent, never 0
      REQUIRE(v != nullptr);
      if (o.kind == OutputKind::Number) CHECK(std::isfinite(v->as_number()));
    }
    CHECK_FALSE(e.info.title.empty());
    CHECK_FALSE(e.info.citation.empty());
    CHECK(e.info.doc.rfind("docs/", 0) == 0);
  }
}

// A LaTeX command written with one backslash in a C++ string is an escape: "\frac" becomes a
// form feed and "rac", "\text" a tab and "ext". No derivation may carry those characters.
TEST_CASE("derivations carry no control characters (a LaTeX command with one backslash)") {
  for (const auto& e : registry().estimators()) {
    const std::string id(e.info.id);
    CAPTURE(id);
    Json in = example_inputs(e);
    RunResult r = registry().run(e.info.id, in);
    REQUIRE(r.ok);
    const std::string steps = r.steps.dump();
    // The dump writes a tab as \t and other control characters as \u00XX; a real backslash
    // as \\, which the loop steps over.
    for (std::size_t at = steps.find('\\'); at != std::string::npos;
         at = steps.find('\\', at + 2)) {
      CAPTURE(steps.substr(at > 40 ? at - 40 : 0, 80));
      CHECK(steps[at + 1] != 'u');
      CHECK(steps[at + 1] != 't');
    }
  }
}

TEST_CASE("every numeric input rejects bad values by name, with what is allowed") {
  const char* bad_texts[] = {"NaN", "abc", "1e400", "-1e400", ""};
  for (const auto& e : registry().estimators()) {
    Json base = example_inputs(e);
    for (const auto& spec : e.inputs) {
      if (spec.kind != InputKind::Number) continue;
      const std::string id(e.info.id);
      CAPTURE(id);
      CAPTURE(spec.name);
      for (const char* t : bad_texts) {
        if (std::string(t).empty() && !spec.required) continue;  // empty = default
        Json in = base;
        in.set(spec.name, t);
        RunResult r = registry().run(e.info.id, in);
        CAPTURE(t);
        CHECK_FALSE(r.ok);
        CHECK(r.error.input == spec.name);
        CHECK(r.error.message.find(spec.name) != std::string::npos);
      }
      Json below = base;
      below.set(spec.name, spec.min - 1 - std::fabs(spec.min));
      RunResult r = registry().run(e.info.id, below);
      CHECK_FALSE(r.ok);
      CHECK(r.error.code == "out_of_range");
      CHECK(r.error.message.find("allowed") != std::string::npos);
      Json above = base;
      above.set(spec.name, spec.max * 10 + 1);
      CHECK_FALSE(registry().run(e.info.id, above).ok);
      if (spec.required) {
        Json missing = base;
        Json without = Json::object();
        for (const auto& [k, v] : missing.members())
          if (k != spec.name) without.set(k, v);
        RunResult m = registry().run(e.info.id, without);
        CHECK(m.error.code == "missing_input");
      }
    }
  }
}

TEST_CASE("unknown estimators and inputs are named in the error") {
  RunResult r = registry().run("train.nope", Json::object());
  CHECK(r.error.code == "unknown_estimator");
  Json in = Json::object();
  in.set("parms", 1);
  r = registry().run("train.chinchilla", in);
  CHECK(r.error.code == "unknown_input");
  CHECK(r.error.input == "parms");
}

TEST_CASE("a sweep is one call that returns a column per numeric output") {
  Json in = Json::object();
  in.set("params", 70e9);
  in.set("tokens", 2e12);
  in.set("gpus", 512);
  in.set("peak_flops", 312e12);
  std::vector<double> xs = {256, 512, 1024, -5};
  SweepResult s = registry().sweep("train.time", in, "gpus", xs);
  REQUIRE(s.ok);
  const auto& days = s.columns[4].second;
  REQUIRE(s.columns[4].first == "days");
  // Perfect scaling in this model: doubling GPUs halves the days exactly.
  CHECK(days[0] == doctest::Approx(2 * days[1]).epsilon(1e-12));
  CHECK(days[1] == doctest::Approx(121.7).epsilon(1e-3));
  CHECK(std::isnan(days[3]));
  CHECK(s.point_errors[3].find("gpus") != std::string::npos);
  CHECK_FALSE(registry().sweep("train.time", in, "nope", xs).ok);
}

TEST_CASE("charts and presets refer to estimators and inputs that exist") {
  for (const auto& c : registry().charts()) {
    CAPTURE(c.id);
    const Estimator* e = registry().find(c.estimator);
    REQUIRE(e != nullptr);
    // A chart with no x input draws one bar per series (its categories).
    if (c.x.empty())
      CHECK((c.kind == std::string_view("bar") && c.series.size() >= 2));
    else
      CHECK(e->input(c.x) != nullptr);
    for (const auto& y : c.y) {
      bool found = false;
      for (const auto& o : e->outputs) found = found || o.name == y;
      CHECK_MESSAGE(found, y);
    }
    for (const auto& s : c.series)
      for (const auto& [k, v] : s.overrides.members()) CHECK(e->input(k) != nullptr);
  }
  for (const auto& p : registry().presets()) {
    CAPTURE(p.id);
    CHECK_FALSE(p.source.empty());
    // The page groups presets by kind; any other kind would never be offered.
    CHECK((p.kind == "model" || p.kind == "gpu" || p.kind == "link" || p.kind == "precision" ||
           p.kind == "scenario"));
    // Every value must be one an estimator reads under that meaning (its declared meaning, or
    // its name when it declares none; a scenario preset sets names), or it is never applied.
    for (const auto& member : p.values.members()) {
      const std::string name = member.first;  // clang 14 cannot capture structured bindings
      bool used = false;
      for (const auto& e : registry().estimators())
        for (const auto& i : e.inputs)
          used = used || (p.kind == "scenario"   ? i.name
                          : i.preset_key.empty() ? i.name
                                                 : i.preset_key) == name;
      CHECK_MESSAGE(used, name);
    }
    for (const auto& id : p.estimators) CHECK(registry().find(id) != nullptr);
  }
}

TEST_CASE("every input's example, as the page shows it, reads back to the same number") {
  // The page fills its fields with format_value(example, unit, 10 digits) and sends that text
  // back; the round trip must be exact to 10 significant digits for every input.
  for (const auto& e : registry().estimators()) {
    for (const auto& spec : e.inputs) {
      if (spec.kind != InputKind::Number) continue;
      const std::string id(e.info.id);
      CAPTURE(id);
      CAPTURE(spec.name);
      double v = spec.example.as_number();
      std::string text = spec.unit == "$" ? format_value(v, "", {false, 10})
                                          : format_value(v, spec.unit, {false, 10});
      CAPTURE(text);
      ParsedNumber p = parse_value(text, spec.unit);
      CAPTURE(p.error);
      REQUIRE(p.ok);
      CHECK(p.value == doctest::Approx(v).epsilon(1e-9));
    }
  }
}

TEST_CASE("every worked-example preset runs on the estimators it is offered for") {
  for (const auto& p : registry().presets()) {
    if (p.kind != "scenario") continue;
    for (const auto& id : p.estimators) {
      const std::string where = std::string(p.id) + " on " + std::string(id);
      CAPTURE(where);
      const Estimator* e = registry().find(id);
      REQUIRE(e != nullptr);
      Json in = Json::object();
      for (const auto& i : e->inputs) in.set(i.name, i.example);
      for (const auto& [k, v] : p.values.members())
        if (e->input(k)) in.set(k, v);
      RunResult r = registry().run(id, in);
      CAPTURE(r.error.message);
      CHECK(r.ok);
    }
  }
}

// Issue #9.5: an output the inputs did not ask for is absent from the result (the page shows
// "—"), never a 0 that reads as an answer ("Cost $0", "DP time 0 s").
TEST_CASE("outputs that were not asked for are absent, and present once asked for") {
  struct Case {
    const char* id;
    const char* output;
    Json without, with;
  };
  auto obj = [](std::initializer_list<std::pair<const char*, Json>> f) {
    Json j = Json::object();
    for (const auto& [k, v] : f) j.set(k, v);
    return j;
  };
  const Case cases[] = {
      {"train.chinchilla", "optimal_params_for_budget", obj({{"params", 70e9}}),
       obj({{"params", 70e9}, {"compute_flops", 5.88e23}})},
      {"train.time", "cost", obj({{"params", 70e9}, {"tokens", 2e12}, {"gpus", 512}}),
       obj({{"params", 70e9}, {"tokens", 2e12}, {"gpus", 512}, {"price_per_gpu_hour", 2}})},
      {"pipe.bubble", "microbatch_size", obj({{"stages", 4}, {"microbatches", 16}}),
       obj({{"stages", 4}, {"microbatches", 16}, {"batch", 256}})},
  };
  for (const auto& c : cases) {
    CAPTURE(c.id);
    const Estimator* e = registry().find(c.id);
    REQUIRE(e != nullptr);
    bool declared_optional = false;
    for (const auto& o : e->outputs)
      if (o.name == c.output) declared_optional = o.optional;
    CHECK(declared_optional);
    RunResult a = registry().run(c.id, c.without);
    REQUIRE(a.ok);
    CHECK(a.outputs.find(c.output) == nullptr);
    CHECK(a.to_json(c.id).dump().find(c.output) == std::string::npos);
    RunResult b = registry().run(c.id, c.with);
    REQUIRE(b.ok);
    REQUIRE(b.outputs.find(c.output) != nullptr);
    CHECK(b.outputs.find(c.output)->as_number() > 0);
  }
  // A sweep reports a not-given output as null, never NaN or 0.
  SweepResult s = registry().sweep(
      "train.time", obj({{"params", 70e9}, {"tokens", 2e12}, {"gpus", 8}}), "gpus", {64, 128});
  REQUIRE(s.ok);
  CHECK(s.to_json().dump().find("\"cost\":[null,null]") != std::string::npos);
}

// Issue #9.13: the worked example's mistaken serving figures stay in the result for the tests
// and the errata, flagged so the page leaves them off the card.
TEST_CASE("hidden outputs are flagged in the list and still computed") {
  const Estimator* e = registry().find("serve.llm_gpus");
  REQUIRE(e != nullptr);
  int hidden = 0;
  for (const auto& o : e->outputs) hidden += o.hidden;
  CHECK(hidden == 4);  // weight memory, concurrency, GPUs and latency as the example has them
  CHECK(e->to_json().dump().find("\"hidden\":true") != std::string::npos);
}

// Issue #9.6: choices carry the words the page shows, errors name inputs by their label.
TEST_CASE("choices have labels and errors name the input by its label and id") {
  const Json list = registry().list_json();
  for (const auto& e : registry().estimators())
    for (const auto& i : e.inputs)
      if (i.kind == InputKind::Choice) {
        CAPTURE(i.name);
        CHECK(i.choice_labels.size() == i.choices.size());
      }
  Json in = Json::object();
  in.set("params", 70e9);
  in.set("tokens", 2e12);
  in.set("gpus", 512);
  in.set("price_per_gpu_hour", "abc");
  RunResult r = registry().run("train.time", in);
  REQUIRE_FALSE(r.ok);
  CHECK(r.error.message.find("Price per GPU-hour (price_per_gpu_hour)") == 0);
}

TEST_CASE("the first screen's questions open existing cards with existing presets") {
  const Json list = registry().list_json();
  const Json* qs = list.find("questions");
  REQUIRE(qs != nullptr);
  CHECK(qs->size() >= 4);
  for (const auto& q : qs->items()) {
    CAPTURE(q.dump());
    CHECK(registry().find(q.find("estimator")->as_string()) != nullptr);
    for (const auto& p : q.find("presets")->items()) {
      bool found = false;
      for (const auto& preset : registry().presets()) found = found || preset.id == p.as_string();
      CHECK(found);
    }
  }
}

// Issue #11.5: the page's scenario bar offers preset kinds and layout degrees that cards
// actually follow: each kind has shared presets, and each degree is an input (by declared
// meaning) of at least two estimators, so changing it in the bar changes more than one card.
TEST_CASE("the scenario bar's kinds and degrees are followed by the estimators") {
  const Json list = registry().list_json();
  const Json* sc = list.find("scenario");
  REQUIRE(sc != nullptr);
  const Json* kinds = sc->find("kinds");
  const Json* layout = sc->find("layout");
  REQUIRE(kinds != nullptr);
  REQUIRE(layout != nullptr);
  CHECK(kinds->size() == 4);  // model, accelerator, link, precision (#30.6)
  for (const auto& k : kinds->items()) {
    CAPTURE(k.dump());
    CHECK_FALSE(k.find("help")->as_string().empty());
    int shared = 0;
    for (const auto& p : registry().presets())
      shared += p.kind == k.find("kind")->as_string() && p.estimators.empty();
    CHECK(shared >= 3);
  }
  CHECK(layout->size() == 5);  // TP, PP, DP; sequence length and global batch (#30.6)
  for (const auto& d : layout->items()) {
    const std::string name = d.find("name")->as_string();
    CAPTURE(name);
    CHECK_FALSE(d.find("help")->as_string().empty());
    CHECK(d.find("integer")->as_bool());
    CHECK(d.find("min")->as_number() == 1);
    int followers = 0;
    for (const auto& e : registry().estimators())
      for (const auto& in : e.inputs)
        followers += (in.preset_key.empty() ? in.name : in.preset_key) == name;
    CHECK(followers >= 2);
  }
}

// Issue #9.6: every input and output a person meets gets a one-line help text (shown under
// the field or the result), never a raw id as its only explanation.
TEST_CASE("every input and output has a one-line help text") {
  for (const auto& e : registry().estimators()) {
    CAPTURE(std::string(e.info.id));
    for (const auto& i : e.inputs) {
      CAPTURE(i.name);
      CHECK_FALSE(i.help.empty());
    }
    for (const auto& o : e.outputs) {
      CAPTURE(o.name);
      if (!o.hidden) CHECK_FALSE(o.help.empty());
    }
  }
}

TEST_CASE("a cross-input error leads with the input's label, then its id") {
  Json in = Json::object();
  in.set("params", 70e9);
  in.set("n_layers", 80);
  in.set("pp", 100);
  RunResult r = registry().run("comm.parallelism", in);
  REQUIRE_FALSE(r.ok);
  CHECK(r.error.input == "pp");
  CHECK(r.error.message.rfind("Pipeline stages (pp) = 100: ", 0) == 0);
}

// A table output declares its columns (heading, unit, help) so the page shows them without
// guessing from the keys; every key a row holds is declared, and a parts-of-a-whole table names
// an input of its estimator and a declared column in that input's unit.
TEST_CASE("every table output declares its columns, and its rows hold no other key") {
  int tables = 0;
  for (const auto& e : registry().estimators()) {
    const std::string id(e.info.id);
    CAPTURE(id);
    for (const auto& o : e.outputs) {
      if (o.kind != OutputKind::Array) continue;
      ++tables;
      CAPTURE(o.name);
      REQUIRE_FALSE(o.columns.empty());
      for (const ColumnRow& c : o.columns) {
        CHECK(std::string_view(c.label).size() > 0);
        CHECK(std::string_view(c.help).size() > 0);
      }
      RunResult r = registry().run(e.info.id, example_inputs(e));
      REQUIRE(r.ok);
      const Json* rows = r.outputs.find(o.name);
      REQUIRE(rows != nullptr);
      REQUIRE(rows->size() > 0);
      for (const Json& row : rows->items())
        for (const auto& member : row.members()) {
          const std::string& key = member.first;  // clang 14 cannot capture a structured binding
          CAPTURE(key);
          CHECK(std::any_of(o.columns.begin(), o.columns.end(),
                            [&](const ColumnRow& c) { return key == c.name; }));
        }
      if (o.parts_of.empty()) continue;
      const InputSpec* whole = e.input(o.parts_of);
      REQUIRE(whole != nullptr);
      const auto part = std::find_if(o.columns.begin(), o.columns.end(),
                                     [&](const ColumnRow& c) { return o.parts_column == c.name; });
      REQUIRE(part != o.columns.end());
      CHECK(whole->unit == part->unit);
      CHECK_FALSE(o.parts_label.empty());
    }
  }
  CHECK(tables >= 1);  // serve.pipeline's stages
}
