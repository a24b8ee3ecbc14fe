// The CLI's commands as a pure function of its arguments (no I/O here), so the same code is
// tested natively and in wasm, and main() only prints.
#pragma once

#include <string>
#include <vector>

namespace napkin {

struct CliOutput {
  int exit_code = 0;
  std::string stdout_text;
  std::string stderr_text;
};

// napkin list | run ID name=value… | hardware | problems | problem ID --seed N |
//        check ID --seed N --answer TEXT | help
CliOutput run_cli(const std::vector<std::string>& args);

// `napkin batch`: one line of JSON {"id", "inputs"} in, one line of the run's JSON out (its
// outputs and warnings, or its error). The native half of the property-based parity tests:
// thousands of runs without a process each.
std::string run_batch_line(const std::string& line);

}  // namespace napkin
