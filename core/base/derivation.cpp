#include "base/derivation.hpp"

#include "base/units.hpp"

namespace napkin {

namespace {
bool key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
}  // namespace

void append_template(std::string& out, std::string_view tmpl, std::initializer_list<Sym> syms,
                     bool numeric) {
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] != '$') {
      // Copy up to the next placeholder in one append (cheaper than char by char).
      std::size_t next = tmpl.find('$', i);
      if (next == std::string_view::npos) next = tmpl.size();
      out.append(tmpl.data() + i, next - i);
      i = next - 1;
      continue;
    }
    std::size_t j = i + 1;
    while (j < tmpl.size() && key_char(tmpl[j])) ++j;
    std::string_view key = tmpl.substr(i + 1, j - i - 1);
    const Sym* hit = nullptr;
    for (const auto& s : syms)
      if (s.key == key) hit = &s;
    if (!hit) {
      out += tmpl.substr(i, j - i);  // unknown placeholder stays visible rather than vanishing
    } else if (numeric) {
      // Braces keep "2^{...}" and "\frac" arguments intact around a formatted number.
      out += '{';
      append_tex(out, hit->value, hit->unit);
      out += '}';
    } else {
      out += hit->tex;
    }
    i = j - 1;
  }
}

std::string fill_template(std::string_view tmpl, std::initializer_list<Sym> syms, bool numeric) {
  std::string out;
  append_template(out, tmpl, syms, numeric);
  return out;
}

void Derivation::begin_step(std::string_view title) {
  if (count_++) steps_ += ',';
  steps_ += "{\"title\":";
  append_quoted(steps_, title);
}

void Derivation::step(std::string_view title, std::string_view lhs, std::string_view rhs,
                      std::initializer_list<Sym> syms, double result, std::string_view unit) {
  if (!record_) return;
  // One scratch string, reused: its capacity survives from step to step.
  auto field = [&](const char* name, auto&& fill) {
    steps_ += name;
    scratch_.clear();
    fill(scratch_);
    append_quoted(steps_, scratch_);
  };
  auto equation = [&](std::string& out) {
    out += lhs;
    out += " = ";
  };
  begin_step(title);
  field(",\"formula\":", [&](std::string& out) {
    equation(out);
    append_template(out, rhs, syms, false);
  });
  field(",\"substituted\":", [&](std::string& out) {
    equation(out);
    append_template(out, rhs, syms, true);
  });
  field(",\"result\":", [&](std::string& out) {
    equation(out);
    append_tex(out, result, unit);
  });
  steps_ += ",\"value\":";
  append_number(steps_, result);
  steps_ += ",\"unit\":";
  append_quoted(steps_, unit);
  field(",\"text\":", [&](std::string& out) { append_value(out, result, unit); });
  steps_ += '}';
}

void Derivation::note(std::string_view title, std::string_view text) {
  if (!record_) return;
  begin_step(title);
  steps_ += ",\"note\":";
  append_quoted(steps_, text);
  steps_ += '}';
}

void Derivation::warn(std::string text) {
  if (!record_) return;
  warnings_.push(std::move(text));
}

}  // namespace napkin
