// napkin: the command-line face of the registry. JSON on stdout; on bad input, exit 2 with a
// one-line message on stderr naming the input and {"error": {...}} on stdout.
#include <cstdio>
#include <cstring>
#include <string>

#include "cli_commands.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && args[0] == "batch") {  // JSON lines in, JSON lines out (tests)
    std::string line;
    for (int c; (c = std::getchar()) != EOF;) {
      if (c != '\n') {
        line += static_cast<char>(c);
        continue;
      }
      std::string out = napkin::run_batch_line(line) + "\n";
      std::fwrite(out.data(), 1, out.size(), stdout);
      line.clear();
    }
    return 0;
  }
  napkin::CliOutput o = napkin::run_cli(args);
  if (!o.stdout_text.empty()) std::fwrite(o.stdout_text.data(), 1, o.stdout_text.size(), stdout);
  if (!o.stderr_text.empty()) std::fwrite(o.stderr_text.data(), 1, o.stderr_text.size(), stderr);
  return o.exit_code;
}
