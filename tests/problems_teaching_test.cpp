// Issue #14.7 and #14.8: statements that say which convention they use and stand alone,
// worked solutions that stop at the asked quantity, hints that go from a nudge to the formula.
// The cases loop over the whole bank, so a problem added later is held to the same rules.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "practice/problems.hpp"

using namespace napkin;

namespace {

std::string lower(std::string t) {
  for (auto& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return t;
}

bool digit(char c) {
  return c >= '0' && c <= '9';
}

// The numbers a text shows ("16,384", "0.8", "2,048"), as written.
std::vector<std::string> numbers_in(const std::string& t) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < t.size();) {
    if (!digit(t[i]) || (i > 0 && (digit(t[i - 1]) || t[i - 1] == '.'))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < t.size() &&
           (digit(t[j]) || ((t[j] == ',' || t[j] == '.') && j + 1 < t.size() && digit(t[j + 1]))))
      ++j;
    out.push_back(t.substr(i, j - i));
    i = j;
  }
  return out;
}

// `shown` appears in `text` as a whole number (not inside a longer one).
bool quotes(const std::string& text, const std::string& shown) {
  for (std::size_t at = text.find(shown); at != std::string::npos; at = text.find(shown, at + 1)) {
    const char before = at == 0 ? ' ' : text[at - 1];
    const std::size_t end = at + shown.size();
    const char after = end < text.size() ? text[end] : ' ';
    const bool inside =
        digit(before) || before == '.' || before == ',' || digit(after) ||
        ((after == '.' || after == ',') && end + 1 < text.size() && digit(text[end + 1]));
    if (!inside) return true;
  }
  return false;
}

Json solution_of(const Problem& p, int seed) {
  const Reply r = problem_reply(p.id, seed);
  REQUIRE(r.ok);
  const Json* s = r.json.find("solution");
  REQUIRE(s != nullptr);
  Json steps;  // derivation steps may be kept as raw JSON text: read them back
  std::string error;
  REQUIRE(Json::parse(s->dump(), steps, error));
  return steps;
}

}  // namespace

// #14.7: a problem is read on its own (the page lists them one by one), so its statement never
// leans on another's: "Same data-parallel job", "The same decode step".
TEST_CASE("statements stand alone: no \"same job\", \"as before\", \"above\" (#14.7)") {
  for (const Problem& p : problem_bank().problems()) {
    for (int seed = 0; seed < 3; ++seed) {
      Result<Variant> v = make_variant(p, seed);
      REQUIRE(v.ok());
      const std::string s = lower(v.value().statement);
      CAPTURE(p.id);
      CAPTURE(s);
      for (const char* bad : {"same ", "as before", "previous", "from before", "worked example:"})
        CHECK(s.find(bad) == std::string::npos);
    }
  }
}

// #14.7: where two conventions are common, the statement says which one its key uses.
TEST_CASE("statements say which convention the key uses (#14.7)") {
  struct Case {
    const char* id;
    const char* says;
  };
  const Case cases[] = {
      // Per GPU, not the cluster's total: the 2P rule and 8·B·S·H are what one rank sends.
      {"comm.parallelism.dp_volume", "each data-parallel replica"},
      {"comm.parallelism.tp_layer", "each gpu"},
      {"comm.parallelism.tp_step", "each gpu"},
      // Chinchilla's 20 tokens per parameter, on an MoE's active or total parameters.
      {"moe.params.tokens", "per active parameter"},
      // The model states and activations before sharding, not per device.
      {"mem.fsdp.states", "in total"},
      {"mem.fsdp.backward", "in total"},
      // RL: which tokens the policy trains on (prompt + generation, Ouyang et al. 2022).
      {"rl.throughput.sync", "(prompt and generation)"},
      {"rl.throughput.speedup", "(prompt and generation)"},
  };
  for (const Case& c : cases) {
    const Problem* p = problem_bank().find(c.id);
    REQUIRE_MESSAGE(p != nullptr, c.id);
    for (int seed = 0; seed < 3; ++seed) {
      Result<Variant> v = make_variant(*p, seed);
      REQUIRE(v.ok());
      CAPTURE(c.id);
      CAPTURE(v.value().statement);
      CHECK(lower(v.value().statement).find(c.says) != std::string::npos);
    }
  }
  // Exact or rounded: the FSDP worked example rounds its 219.8B parameters to 220B; the
  // statement says to use the rounded count, which the key does.
  for (const char* id : {"mem.fsdp.states", "mem.fsdp.min_devices"}) {
    Result<Variant> v = make_variant(*problem_bank().find(id), 0);
    REQUIRE(v.ok());
    CAPTURE(v.value().statement);
    CHECK(v.value().statement.find("use 220B parameters") != std::string::npos);
    CHECK(v.value().statement.find("about") == std::string::npos);
  }
}

// #14.8: the worked solution ends at the quantity asked for (210 of 240 instances ran on to
// other outputs, some another problem's answer). When the key is not one of the estimator's
// steps (for some variant), the problem says in plain text how it follows (`explain`).
TEST_CASE("worked solutions stop at the asked quantity (#14.8)") {
  for (const Problem& p : problem_bank().problems()) {
    for (int seed = 0; seed < 3; ++seed) {
      Result<Variant> r = make_variant(p, seed);
      REQUIRE(r.ok());
      const Variant& v = r.value();
      CAPTURE(p.id);
      CAPTURE(seed);
      const Json steps = solution_of(p, seed);
      REQUIRE(steps.size() > 0);
      Json all;
      std::string error;
      REQUIRE(Json::parse(v.run.steps.dump(), all, error));
      bool in_steps = false;
      for (const Json& s : all.items())
        if (const Json* x = s.find("value"))
          in_steps =
              in_steps || (x->is_number() && relative_error(x->as_number(), v.answer) <= 1e-9);
      CHECK((in_steps || !p.explain.empty()));
      const Json& last = steps[steps.size() - 1];
      if (p.explain.empty()) {
        REQUIRE(last.find("value") != nullptr);
        CHECK(last.find("value")->as_number() == doctest::Approx(v.answer).epsilon(1e-9));
      } else {
        REQUIRE(last.find("note") != nullptr);
        CHECK(last.find("note")->as_string() == p.explain);
      }
    }
  }
}

// #14.8: hints go from a nudge to the formula. At least two; the first is never the formula
// with the statement's numbers in it (mem.fsdp.min_devices opened with
// "A = 126 · b · s · (16,384 + 53,248) · 2 bytes").
TEST_CASE("hints are progressive: two or more, the first without the statement's numbers (#14.8)") {
  for (const Problem& p : problem_bank().problems()) {
    CAPTURE(p.id);
    CHECK(p.hints.size() >= 2);
    for (int seed = 0; seed < 3; ++seed) {
      Result<Variant> v = make_variant(p, seed);
      REQUIRE(v.ok());
      const std::string hint(p.hints.front());
      int quoted = 0;
      for (const std::string& n : numbers_in(v.value().statement)) {
        const auto digits = std::count_if(n.begin(), n.end(), digit);
        if (digits >= 2 && quotes(hint, n)) ++quoted;
      }
      CAPTURE(v.value().statement);
      CAPTURE(hint);
      CHECK(quoted <= 1);
    }
  }
}

// Difficulty and tags on every problem (the bank refuses a problem without them), in words a
// student filters by: no snake_case, each tag shared by two problems or more, every difficulty
// used; the CLI / wasm list carries them.
TEST_CASE("every problem has a difficulty and tags, and the list carries them (#14)") {
  std::map<std::string, int> uses;
  int levels[4] = {0, 0, 0, 0};
  for (const Problem& p : problem_bank().problems()) {
    CAPTURE(p.id);
    REQUIRE(p.difficulty >= 1);
    REQUIRE(p.difficulty <= 3);
    ++levels[p.difficulty];
    std::size_t at = 0;
    while (at <= p.tags.size()) {
      std::size_t end = std::min(p.tags.find(',', at), p.tags.size());
      const std::string tag(p.tags.substr(at, end - at));
      CHECK_FALSE(tag.empty());
      CHECK(tag.find('_') == std::string::npos);
      CHECK(tag == std::string(tag.c_str()));
      CHECK(tag.front() != ' ');
      ++uses[tag];
      at = end + 1;
    }
  }
  for (const auto& use : uses) {
    CAPTURE(use.first);
    CHECK(use.second >= 2);
  }
  for (int d = 1; d <= 3; ++d) CHECK(levels[d] >= 10);
  const Reply list = problems_reply();
  REQUIRE(list.ok);
  const Json& first = list.json.find("problems")->items().front();
  CHECK(first.find("difficulty")->as_number() == problem_bank().problems().front().difficulty);
  CHECK(first.find("tags")->size() >= 1);
  const Reply one = problem_reply("infer.kv.gqa", 0);
  REQUIRE(one.ok);
  CHECK(one.json.find("tags")->items().front().as_string() == "KV cache");
}

// The article before a number fits how the number is read: "an 8.03B-parameter model", "an
// 80 GB GPU", "an 11,008-wide layer", but "a 70B model", "a 110B model", "a 1.8 TB/s link".
// Spoken English, not the bank's rule: the first word of the number's leading group (the digits
// before its first thousands separator, or the first one to three digits of a longer run).
namespace {
bool spoken_with_vowel(const std::string& number) {
  static const char* const ones[] = {"",        "one",     "two",       "three",    "four",
                                     "five",    "six",     "seven",     "eight",    "nine",
                                     "ten",     "eleven",  "twelve",    "thirteen", "fourteen",
                                     "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
  static const char* const tens[] = {"",      "",      "twenty",  "thirty", "forty",
                                     "fifty", "sixty", "seventy", "eighty", "ninety"};
  std::string run;
  std::size_t lead = 0;
  for (char c : number) {
    if (c == ',' && lead == 0) lead = run.size();
    if (c == ',') continue;
    if (!digit(c)) break;
    run += c;
  }
  if (lead == 0) lead = run.size() % 3 == 0 ? 3 : run.size() % 3;
  const int n = std::stoi(run.substr(0, lead));
  const char* first = n == 0 ? "zero" : n < 20 ? ones[n] : n < 100 ? tens[n / 10] : ones[n / 100];
  return std::string("aeiu").find(first[0]) != std::string::npos;  // "one" starts with a "w"
}
}  // namespace

TEST_CASE("statements put \"an\" before 8, 11, 18, 80... and \"a\" before other numbers") {
  CHECK(spoken_with_vowel("8.03"));
  CHECK(spoken_with_vowel("11,008"));
  CHECK(spoken_with_vowel("18"));
  CHECK(spoken_with_vowel("800"));
  CHECK_FALSE(spoken_with_vowel("110"));
  CHECK_FALSE(spoken_with_vowel("1.8"));
  CHECK_FALSE(spoken_with_vowel("70"));
  int an = 0;
  for (const Problem& p : problem_bank().problems())
    for (int seed = 0; seed <= 20; ++seed) {
      Result<Variant> r = make_variant(p, seed);
      REQUIRE(r.ok());
      const std::string& t = r.value().statement;
      for (std::size_t at = 0; at < t.size(); ++at) {
        if (at > 0 && t[at - 1] != ' ' && t[at - 1] != '(') continue;
        const bool a = (t[at] == 'a' || t[at] == 'A') && t.compare(at + 1, 1, " ") == 0;
        const bool an_ = (t[at] == 'a' || t[at] == 'A') && t.compare(at + 1, 2, "n ") == 0;
        const std::size_t num = at + (a ? 2 : 3);
        if (!(a || an_) || num >= t.size() || !digit(t[num])) continue;
        CAPTURE(t);
        CHECK(an_ == spoken_with_vowel(t.substr(num)));
        an += an_;
      }
    }
  CHECK(an > 0);  // the rule is exercised: the bank states 8.03B and 80 GB models
}
