// The suite's main: the built-in problem files are loaded first, as the CLI loads them.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "builtin_problems.hpp"

int main(int argc, char** argv) {
  napkin::install_builtin_problems();
  doctest::Context context(argc, argv);
  return context.run();
}
