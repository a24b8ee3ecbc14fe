#include "base/derivation.hpp"

#include "base/units.hpp"

namespace napkin {

namespace {
bool key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
}  // namespace

namespace {
// Writes a template with its `$key` placeholders filled, as `put` gives each piece: a run of
// literal text, a symbol's TeX, or a value's TeX (numeric).
template <class Put, class PutValue>
void expand_template(std::string_view tmpl, std::span<const Sym> syms, bool numeric, Put put,
                     PutValue put_value) {
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] != '$') {
      // Up to the next placeholder in one piece (cheaper than char by char).
      std::size_t next = tmpl.find('$', i);
      if (next == std::string_view::npos) next = tmpl.size();
      put(tmpl.substr(i, next - i));
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
      put(tmpl.substr(i, j - i));  // unknown placeholder stays visible rather than vanishing
    } else if (numeric) {
      // Braces keep "2^{...}" and "\frac" arguments intact around a formatted number.
      put("{");
      put_value(*hit);
      put("}");
    } else {
      put(hit->tex);
    }
    i = j - 1;
  }
}
}  // namespace

void append_template(std::string& out, std::string_view tmpl, std::initializer_list<Sym> syms,
                     bool numeric) {
  expand_template(
      tmpl, std::span<const Sym>(syms.begin(), syms.size()), numeric,
      [&](std::string_view piece) { out += piece; },
      [&](const Sym& s) { append_tex(out, s.value, s.unit); });
}

std::string fill_template(std::string_view tmpl, std::initializer_list<Sym> syms, bool numeric) {
  std::string out;
  append_template(out, tmpl, syms, numeric);
  return out;
}

// Each field's text goes straight into the steps' JSON, escaped as it is written: one pass, no
// intermediate form (a run's largest cost in the size-optimized wasm build).
void Derivation::put(std::string_view s) {
  append_escaped(json_, s);
}

void Derivation::open_step() {
  json_ += count_++ ? ",{" : "{";
}

void Derivation::step(std::string_view title, std::string_view lhs, std::string_view rhs,
                      std::span<const Sym> syms, double result, std::string_view unit) {
  if (!record_) return;
  auto piece = [&](std::string_view p) { put(p); };
  // A formatted number passes through `scratch_` (one string, reused: its capacity survives).
  auto value = [&](const Sym& s) {
    scratch_.clear();
    append_tex(scratch_, s.value, s.unit);
    put(scratch_);
  };
  auto equation = [&] {
    put(lhs);
    json_ += " = ";
  };
  open_step();
  json_ += "\"title\":\"";
  put(title);
  json_ += "\",\"formula\":\"";
  equation();
  expand_template(rhs, syms, false, piece, value);
  json_ += "\",\"substituted\":\"";
  equation();
  expand_template(rhs, syms, true, piece, value);
  scratch_.clear();
  text_.clear();
  append_tex(scratch_, result, unit);
  append_value(text_, result, unit);
  json_ += "\",\"result\":\"";
  equation();
  put(scratch_);
  json_ += "\",\"value\":";
  append_number(json_, result);
  json_ += ",\"unit\":\"";
  put(unit);
  json_ += "\",\"text\":\"";
  put(text_);
  json_ += "\"}";
}

void Derivation::note(std::string_view title, std::string_view text) {
  if (!record_) return;
  open_step();
  json_ += "\"title\":\"";
  put(title);
  json_ += "\",\"note\":\"";
  put(text);
  json_ += "\"}";
}

void Derivation::warn(std::string text) {
  if (!record_) return;
  warnings_.push(std::move(text));
}

Json Derivation::steps() const {
  return Json::raw_array(json_ + "]", count_);
}

Json Derivation::take_steps() {
  json_ += ']';
  return Json::raw_array(std::move(json_), count_);
}

}  // namespace napkin
