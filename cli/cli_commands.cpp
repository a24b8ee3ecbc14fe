#include "cli_commands.hpp"

#include <algorithm>
#include <string_view>

#include "base/echo.hpp"
#include "builtin_problems.hpp"
#include "practice/problems.hpp"
#include "registry/registry.hpp"
#include "scenario/catalog_json.hpp"
#include "training/search.hpp"

namespace napkin {

namespace {

const char* kUsage =
    "usage: napkin list\n"
    "       napkin run ID name=value ...\n"
    "       napkin search name=value ...   (the layout search: train.step's job, gpus=N)\n"
    "       napkin hardware | models\n"
    "       napkin problems | problem ID --seed N | check ID --seed N --answer TEXT\n"
    "       napkin lint FILE...   (check problem files; docs/authoring.md)\n"
    "       --file FILE before a problem command: a course's problems join the built-in ones\n"
    "       napkin batch   (JSON lines {\"id\", \"inputs\"} on stdin, one result per line)\n";

CliOutput usage_error(const std::string& why) {
  CliOutput o;
  o.exit_code = 2;
  Json e = Json::object();
  Json inner = Json::object();
  inner.set("code", "usage");
  inner.set("message", why);
  e.set("error", std::move(inner));
  o.stdout_text = e.dump() + "\n";
  // One line: the reason and where the usage is ("napkin help").
  o.stderr_text = "napkin: " + echo_text(why, 2000) + " (napkin help lists the commands)\n";
  return o;
}

CliOutput reply_output(const Reply& r) {
  CliOutput o;
  o.stdout_text = r.json.dump() + "\n";
  if (!r.ok) {
    o.exit_code = 2;
    // One line, whatever the message echoes (a value typed with a newline in it).
    o.stderr_text = "napkin: " + echo_text(r.message, 2000) + "\n";
  }
  return o;
}

// name=value arguments from `first` on. Values stay text: the registry parses them with the
// input's unit ("70B", "80 GB").
bool name_values(const std::vector<std::string>& args, std::size_t first, Json& inputs,
                 std::string& why) {
  // No estimator has more than a few dozen inputs: past kMaxInputs the arguments are refused
  // before reading, and duplicates are found in a sorted list (20,000 arguments took 4.7 s
  // when each was compared with every other).
  constexpr std::size_t kMaxInputs = 200;
  if (args.size() > first + kMaxInputs) {
    why = std::to_string(args.size() - first) + " name=value arguments; at most " +
          std::to_string(kMaxInputs) + " are read";
    return false;
  }
  std::vector<std::string_view> names;
  for (std::size_t i = first; i < args.size(); ++i) {
    auto eq = args[i].find('=');
    if (eq == std::string::npos || eq == 0) {
      why = "expected name=value, got \"" + echo_text(args[i]) + "\"";
      return false;
    }
    names.push_back(std::string_view(args[i]).substr(0, eq));
  }
  std::vector<std::string_view> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i] == sorted[i - 1]) {
      why = "input " + echo_text(sorted[i]) + " is given twice; give each input once";
      return false;
    }
  for (std::size_t i = first; i < args.size(); ++i)
    inputs.emplace(std::string(names[i - first]), args[i].substr(names[i - first].size() + 1));
  return true;
}

// "--seed N", "--seed=N", "--answer TEXT", "--answer=TEXT" after the problem id.
struct ProblemArgs {
  std::string id, seed_text = "0", answer;
  bool has_answer = false;
  std::string error;
};

ProblemArgs problem_args(const std::vector<std::string>& args, bool want_answer) {
  ProblemArgs a;
  if (args.size() < 2) {
    a.error = args[0] + " needs a problem id (napkin problems lists them)";
    return a;
  }
  a.id = args[1];
  for (std::size_t i = 2; i < args.size() && a.error.empty(); ++i) {
    const std::string& s = args[i];
    auto take = [&](const std::string& flag, std::string& into) {
      if (s == flag) {
        if (i + 1 >= args.size()) return a.error = flag + " needs a value", true;
        into = args[++i];
        return true;
      }
      if (s.rfind(flag + "=", 0) == 0) return into = s.substr(flag.size() + 1), true;
      return false;
    };
    if (take("--seed", a.seed_text)) continue;
    if (want_answer && take("--answer", a.answer)) {
      a.has_answer = true;
      continue;
    }
    a.error = "unexpected argument \"" + s + "\"";
  }
  if (a.error.empty() && want_answer && !a.has_answer) a.error = "check needs --answer TEXT";
  return a;
}

// A seed is a whole number from 0 to kMaxSeed; anything else is refused by name.
bool parse_seed(const std::string& text, std::int64_t& seed) {
  if (text.empty() || text.size() > 10) return false;
  seed = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    seed = seed * 10 + (c - '0');
  }
  return seed <= kMaxSeed;
}

CliOutput seed_error(const std::string& text) {
  Error e{"invalid_value", "seed",
          "seed = \"" + text + "\": must be a whole number from 0 to 2147483647", Json(text),
          "0 ≤ seed ≤ 2147483647"};
  Json j = Json::object();
  j.set("error", e.to_json());
  return reply_output({false, j, e.message});
}

}  // namespace

std::string run_batch_line(const std::string& line) {
  install_builtin_problems();
  Json req;
  std::string why;
  if (!Json::parse(line, req, why) || !req.is_object())
    return "{\"error\":{\"code\":\"bad_line\"}}";
  const Json* id = req.find("id");
  const Json* inputs = req.find("inputs");
  if (!id || !id->is_string()) return "{\"error\":{\"code\":\"bad_line\"}}";
  RunResult r = registry().run(id->as_string(), inputs ? *inputs : Json::object(), false);
  Json out = Json::object();
  if (r.ok) {
    out.set("outputs", std::move(r.outputs));
  } else {
    Json full = r.error.to_json();  // the same error JSON as `run` and the wasm API
    Json e = Json::object();
    for (const char* k : {"code", "input", "message"})
      if (const Json* v = full.find(k)) e.set(k, *v);
    out.set("error", std::move(e));
  }
  return out.dump();
}

CliOutput run_cli(const std::vector<std::string>& args) {
  install_builtin_problems();
  CliOutput o;
  if (args.empty()) {  // a mistake: usage on stderr, nothing on stdout
    o.stderr_text = kUsage;
    o.exit_code = 2;
    return o;
  }
  if (args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    o.stdout_text = kUsage;
    return o;
  }
  const std::string& cmd = args[0];
  if (cmd == "list") {
    o.stdout_text = registry().list_json().dump() + "\n";
    return o;
  }
  if (cmd == "hardware") {
    Json h = registry().hardware_json();
    h.set("gpus", gpus_json());  // the typed catalog (core/scenario/cluster.cpp)
    h.set("tiers", tiers_json());
    o.stdout_text = h.dump() + "\n";
    return o;
  }
  if (cmd == "models") {
    Json m = Json::object();
    m.set("models", models_json());
    o.stdout_text = m.dump() + "\n";
    return o;
  }
  if (cmd == "search") {
    Json inputs = Json::object();
    std::string why;
    if (!name_values(args, 1, inputs, why)) return usage_error(why);
    Json r = search_run(registry(), inputs);
    o.stdout_text = r.dump() + "\n";
    if (const Json* e = r.find("error")) {
      o.exit_code = 2;
      const Json* m = e->find("message");
      o.stderr_text =
          "napkin: " + echo_text(m ? m->as_string() : std::string("search failed"), 2000) + "\n";
    }
    return o;
  }
  if (cmd == "run") {
    if (args.size() < 2) return usage_error("run needs an estimator id");
    Json inputs = Json::object();
    std::string why;
    if (!name_values(args, 2, inputs, why)) return usage_error(why);
    RunResult r = registry().run(args[1], inputs);
    o.stdout_text = r.to_json(args[1]).dump() + "\n";
    if (!r.ok) {
      o.exit_code = 2;
      o.stderr_text = "napkin: " + echo_text(r.error.message, 2000) + "\n";
    }
    return o;
  }
  if (cmd == "problems") return reply_output(problems_reply());
  if (cmd == "problem" || cmd == "check") {
    ProblemArgs a = problem_args(args, cmd == "check");
    if (!a.error.empty()) return usage_error(a.error);
    std::int64_t seed = 0;
    if (!parse_seed(a.seed_text, seed)) return seed_error(a.seed_text);
    return reply_output(cmd == "problem" ? problem_reply(a.id, seed)
                                         : check_reply(a.id, seed, a.answer));
  }
  return usage_error("unknown command \"" + cmd + "\"");
}

}  // namespace napkin
