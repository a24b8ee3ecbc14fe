#include "cli_commands.hpp"

#include "registry.hpp"

namespace napkin {

namespace {

const char* kUsage =
    "usage: napkin list\n"
    "       napkin run ID name=value ...\n"
    "       napkin hardware\n"
    "       napkin problems | problem ID --seed N | check ID --seed N --answer TEXT\n";

CliOutput usage_error(const std::string& why) {
  CliOutput o;
  o.exit_code = 2;
  Json e = Json::object();
  Json inner = Json::object();
  inner.set("code", "usage");
  inner.set("message", why);
  e.set("error", std::move(inner));
  o.stdout_text = e.dump() + "\n";
  o.stderr_text = "napkin: " + why + "\n" + kUsage;
  return o;
}

}  // namespace

CliOutput run_cli(const std::vector<std::string>& args) {
  CliOutput o;
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    o.stdout_text = kUsage;
    o.exit_code = args.empty() ? 2 : 0;
    return o;
  }
  const std::string& cmd = args[0];
  if (cmd == "list") {
    o.stdout_text = registry().list_json().dump() + "\n";
    return o;
  }
  if (cmd == "hardware") {
    o.stdout_text = registry().hardware_json().dump() + "\n";
    return o;
  }
  if (cmd == "run") {
    if (args.size() < 2) return usage_error("run needs an estimator id");
    Json inputs = Json::object();
    for (std::size_t i = 2; i < args.size(); ++i) {
      auto eq = args[i].find('=');
      if (eq == std::string::npos || eq == 0)
        return usage_error("expected name=value, got \"" + args[i] + "\"");
      // Values stay text: the registry parses them with the input's unit ("70B", "80 GB").
      inputs.set(args[i].substr(0, eq), args[i].substr(eq + 1));
    }
    RunResult r = registry().run(args[1], inputs);
    o.stdout_text = r.to_json(args[1]).dump() + "\n";
    if (!r.ok) {
      o.exit_code = 2;
      o.stderr_text = "napkin: " + r.error.message + "\n";
    }
    return o;
  }
  return usage_error("unknown command \"" + cmd + "\"");
}

}  // namespace napkin
