#include "derivation.hpp"

#include "units.hpp"

namespace napkin {

namespace {
bool key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
}  // namespace

std::string fill_template(std::string_view tmpl, std::initializer_list<Sym> syms, bool numeric) {
  std::string out;
  out.reserve(tmpl.size() + 32);
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
      out += "{" + format_tex(hit->value, hit->unit) + "}";
    } else {
      out += hit->tex;
    }
    i = j - 1;
  }
  return out;
}

void Derivation::step(std::string_view title, std::string_view lhs, std::string_view rhs,
                      std::initializer_list<Sym> syms, double result, std::string_view unit) {
  if (!record_) return;
  Json s = Json::object();
  std::string l(lhs);
  s.add("title", title);
  s.add("formula", l + " = " + fill_template(rhs, syms, false));
  s.add("substituted", l + " = " + fill_template(rhs, syms, true));
  s.add("result", l + " = " + format_tex(result, unit));
  s.add("value", result);
  s.add("unit", unit);
  s.add("text", format_value(result, unit));
  steps_.push(std::move(s));
}

void Derivation::note(std::string_view title, std::string_view text) {
  if (!record_) return;
  Json s = Json::object();
  s.add("title", title);
  s.add("note", text);
  steps_.push(std::move(s));
}

void Derivation::warn(std::string text) {
  if (!record_) return;
  warnings_.push(std::move(text));
}

}  // namespace napkin
