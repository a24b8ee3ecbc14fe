// The built-in problem files (problems/*.json), compiled into the CLI and the test binaries.
#pragma once

#include <string>
#include <vector>

namespace napkin {

// Loads every built-in file into the bank once (later calls do nothing); the errors, each
// prefixed with its file's name, empty when all loaded.
const std::vector<std::string>& install_builtin_problems();

}  // namespace napkin
