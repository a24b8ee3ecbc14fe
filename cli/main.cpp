// napkin: the command-line face of the registry. JSON on stdout; on bad input, exit 2 with a
// one-line message on stderr naming the input and {"error": {...}} on stdout.
//
// Files are read here (the core and cli_commands see only text): `napkin lint FILE...` checks
// problem files, and `--file FILE` before a problem command loads a course's file first.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "builtin_problems.hpp"
#include "cli_commands.hpp"
#include "practice/lint.hpp"
#include "practice/problems.hpp"

namespace {

bool read_file(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

void put(const std::string& s, std::FILE* to) {
  std::fwrite(s.data(), 1, s.size(), to);
}

// napkin lint FILE...: each file's findings; exit 1 when any file has an error.
int lint(const std::vector<std::string>& files) {
  if (files.empty())
    return put("napkin lint FILE...: name the problem files to check\n", stderr), 2;
  int code = 0;
  for (const std::string& f : files) {
    std::string text;
    if (!read_file(f, text)) {
      put("napkin lint: cannot read " + f + "\n", stderr);
      code = 2;
      continue;
    }
    napkin::Reply r = napkin::lint_reply(text);
    napkin::Json j = r.json;
    j.set("file", f);
    put(j.dump() + "\n", stdout);
    for (const napkin::Json& e : j.find("errors")->items())
      put(f + ": error: " + e.as_string() + "\n", stderr);
    for (const napkin::Json& w : j.find("warnings")->items())
      put(f + ": warning: " + w.as_string() + "\n", stderr);
    if (!r.ok && code == 0) code = 1;
  }
  return code;
}

}  // namespace

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
  if (!args.empty() && args[0] == "lint") return lint({args.begin() + 1, args.end()});
  // --file FILE (any number, anywhere): a course's problems join the built-in ones.
  napkin::install_builtin_problems();
  for (std::size_t i = 0; i < args.size();) {
    if (args[i] != "--file") {
      ++i;
      continue;
    }
    std::string text;
    if (i + 1 >= args.size() || !read_file(args[i + 1], text)) {
      put("napkin: --file needs a readable problem file" +
              (i + 1 < args.size() ? ": cannot read " + args[i + 1] : std::string()) + "\n",
          stderr);
      return 2;
    }
    const std::vector<std::string> errors = napkin::load_into_bank(text);
    for (const std::string& e : errors) put(args[i + 1] + ": " + e + "\n", stderr);
    if (!errors.empty())
      return put("napkin: fix the file (napkin lint " + args[i + 1] + ")\n", stderr), 2;
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(i),
               args.begin() + static_cast<std::ptrdiff_t>(i) + 2);
  }
  napkin::CliOutput o = napkin::run_cli(args);
  if (!o.stdout_text.empty()) put(o.stdout_text, stdout);
  if (!o.stderr_text.empty()) put(o.stderr_text, stderr);
  return o.exit_code;
}
