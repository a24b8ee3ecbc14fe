// Property test of every estimator over random valid and corner inputs drawn from the
// registry's own ranges: every run either succeeds with finite outputs or fails with an error
// that says why. Under `cmake --preset asan` (ASan + UBSan, no recovery) it runs thousands of
// draws per estimator (NAPKIN_PROPERTY_RUNS), so undefined behaviour on valid input aborts.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "helpers.hpp"

using namespace napkin;

namespace {
struct Rng {
  std::uint64_t s;
  double next() {  // splitmix64
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<double>((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
  }
};

Json draw(const InputSpec& spec, Rng& r) {
  if (spec.kind == InputKind::Boolean) return Json(r.next() < 0.5);
  if (spec.kind == InputKind::Choice)
    return Json(spec.choices[static_cast<std::size_t>(r.next() * spec.choices.size())]);
  if (spec.kind != InputKind::Number) return spec.example;
  const double ex = spec.example.is_number() ? spec.example.as_number() : 0;
  const double lo = spec.min_exclusive ? std::fmax(spec.min, 1e-9) : spec.min;
  const double hi = std::fmin(spec.max, 1e18);
  const double roll = r.next();
  double v;
  if (roll < 0.4)
    v = ex;
  else if (roll < 0.5)
    v = lo;
  else if (roll < 0.55)
    v = hi;
  else if (roll < 0.8 && ex > 0)
    v = ex * std::exp((r.next() - 0.5) * 6);
  else {
    const double a = std::log10(std::fmax(lo, 1e-9)), b = std::log10(std::fmax(hi, 1e-9));
    v = std::pow(10.0, a + r.next() * (b - a));
  }
  if (spec.integer) v = std::fmax(std::ceil(lo), std::round(v));
  return Json(std::fmin(hi, std::fmax(lo, v)));
}
}  // namespace

TEST_CASE("every estimator: random valid and corner inputs give finite outputs or a clear error") {
  const char* env = std::getenv("NAPKIN_PROPERTY_RUNS");
  const int runs = env ? std::atoi(env) : 400;
  for (const Estimator& e : registry().estimators()) {
    Rng rng{std::hash<std::string_view>{}(e.info.id)};
    int ok = 0;
    for (int i = 0; i < runs; ++i) {
      Json in = Json::object();
      // Odd runs move one input from the example, so estimators whose inputs must divide each
      // other (train.step: TP | heads, PP | layers, DP × microbatch | batch) or that take 50
      // inputs (the serving cards) still land in their valid space often enough to be tested
      // there; even runs draw every input.
      const std::size_t moved =
          static_cast<std::size_t>(rng.next() * static_cast<double>(e.inputs.size()));
      for (std::size_t k = 0; k < e.inputs.size(); ++k) {
        const InputSpec& spec = e.inputs[k];
        in.set(spec.name, i % 2 && k != moved ? spec.example : draw(spec, rng));
      }
      RunResult r = registry().run(e.info.id, in, i % 4 == 0);  // derivations too, some runs
      if (r.ok) {
        ++ok;
        // Every declared output is there (an optional one may be absent, never null) and of its
        // declared kind: a NaN written as JSON null, or a number where a verdict belongs, fails
        // here, not only a non-finite number (issue #30 item 23).
        for (const OutputSpec& o : e.outputs) {
          const Json* v = r.outputs.find(o.name);
          if (!v) {
            if (!o.optional) FAIL_CHECK(e.info.id << "." << o.name << " missing for " << in.dump());
            continue;
          }
          const bool kind_ok = o.kind == OutputKind::Number    ? v->is_number()
                               : o.kind == OutputKind::Boolean ? v->is_bool()
                               : o.kind == OutputKind::Text    ? v->is_string()
                                                               : v->is_array();
          if (!kind_ok) FAIL_CHECK(e.info.id << "." << o.name << " is " << v->dump());
          if (v->is_number() && !std::isfinite(v->as_number()))
            FAIL_CHECK(e.info.id << "." << o.name << " not finite for " << in.dump());
        }
        // What the CLI and the page read is the dumped JSON: no null where a number was.
        const std::string text = r.to_json(std::string(e.info.id)).dump();
        Json back;
        std::string why;
        REQUIRE(Json::parse(text, back, why));
        for (const auto& [k, v] : back.find("outputs")->members())
          if (v.is_null()) FAIL_CHECK(e.info.id << "." << k << " dumps as null");
      } else if (r.error.message.empty()) {
        FAIL_CHECK(e.info.id << ": an error without a message for " << in.dump());
      }
    }
    CAPTURE(e.info.id);
    CAPTURE(ok);
    CHECK(ok > runs / 5);  // enough draws land in the valid space to say something
  }
}
