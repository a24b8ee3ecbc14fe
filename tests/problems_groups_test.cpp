// Multi-part problems (issue #14, "Build: multi-part problems"): the parts of a group are one
// scenario, so for any seed they state the same model, GPU and numbers, and a later part builds
// on an earlier part's true answer, not on a variant of its own.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "helpers.hpp"
#include "practice/problems.hpp"

using namespace napkin;

namespace {

// A constant of one part (its own ZeRO stage, layout or link): declared without choices and
// holding that value, not derived from the draw.
bool constant_of(const Problem& p, const Values& v, std::string_view name) {
  for (const Param& q : p.params)
    if (q.name == name) return q.choices.empty() && v[name] == q.fixed;
  return false;
}

// The parameters two parts share: those both variants carry that neither holds as a constant.
bool shared(const Problem& a, const Variant& va, const Problem& b, const Variant& vb,
            std::string_view name) {
  return va.params.has(name) && vb.params.has(name) && !constant_of(a, va.params, name) &&
         !constant_of(b, vb.params, name);
}

std::map<std::string, std::vector<const Problem*>> groups() {
  std::map<std::string, std::vector<const Problem*>> g;
  for (const Problem& p : problem_bank().problems())
    if (!p.group.empty()) g[std::string(p.group)].push_back(&p);
  return g;
}

}  // namespace

TEST_CASE("the parts of a group share one draw: equal shared parameters for seeds 1-20") {
  const auto all = groups();
  CHECK(all.size() >= 20);
  int compared = 0;
  for (const auto& entry : all) {
    const std::string& group = entry.first;
    const std::vector<const Problem*>& parts = entry.second;
    CAPTURE(group);
    if (parts.size() < 2) continue;  // a group of one is not a multi-part problem
    for (int seed = 1; seed <= 20; ++seed) {
      CAPTURE(seed);
      std::vector<Variant> v;
      for (const Problem* p : parts) {
        Result<Variant> r = make_variant(*p, seed);
        REQUIRE(r.ok());
        v.push_back(r.value());
      }
      // Every parameter two parts both declare has one value in the variant.
      for (std::size_t i = 0; i < parts.size(); ++i)
        for (std::size_t j = i + 1; j < parts.size(); ++j)
          for (const Param& q : parts[i]->params) {
            if (!shared(*parts[i], v[i], *parts[j], v[j], q.name)) continue;
            CAPTURE(parts[i]->id);
            CAPTURE(parts[j]->id);
            CAPTURE(q.name);
            CHECK(v[i].params[q.name] == v[j].params[q.name]);
            ++compared;
          }
    }
  }
  CHECK(compared > 1000);
}

// Seed 0 is the source's own scenario, the same for every part too.
TEST_CASE("the parts of a group state the same numbers at seed 0") {
  for (const auto& entry : groups()) {
    const std::string& group = entry.first;
    const std::vector<const Problem*>& parts = entry.second;
    CAPTURE(group);
    std::vector<Variant> v;
    for (const Problem* p : parts) {
      Result<Variant> r = make_variant(*p, 0);
      REQUIRE(r.ok());
      v.push_back(r.value());
    }
    for (std::size_t j = 1; j < parts.size(); ++j)
      for (const Param& q : parts[0]->params) {
        if (!shared(*parts[0], v[0], *parts[j], v[j], q.name)) continue;
        CAPTURE(parts[j]->id);
        CAPTURE(q.name);
        CHECK(v[0].params[q.name] == v[j].params[q.name]);
      }
  }
}
