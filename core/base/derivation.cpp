#include "base/derivation.hpp"

#include <algorithm>

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

namespace {
constexpr char kFieldEnd = '\x1f', kStepEnd = '\x1e', kEscape = '\x1c';
bool is_reserved(char c) {
  return (static_cast<unsigned char>(c) & 0xFC) == 0x1C;
}
}  // namespace

void Derivation::put(std::string_view s) {
  for (char c : s)
    if (is_reserved(c)) {
      for (char ch : s) {
        if (is_reserved(ch)) records_ += kEscape, ch = static_cast<char>(ch ^ 0x40);
        records_ += ch;
      }
      return;
    }
  records_.append(s.data(), s.size());
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
    records_ += " = ";
  };
  put(title);
  records_ += kFieldEnd;
  equation();
  expand_template(rhs, syms, false, piece, value);
  records_ += kFieldEnd;
  equation();
  expand_template(rhs, syms, true, piece, value);
  records_ += kFieldEnd;
  scratch_.clear();
  text_.clear();
  append_tex(scratch_, result, unit);
  append_value(text_, result, unit);
  equation();
  put(scratch_);
  records_ += kFieldEnd;
  append_number(records_, result);
  records_ += kFieldEnd;
  put(unit);
  records_ += kFieldEnd;
  put(text_);
  records_ += kStepEnd;
}

void Derivation::note(std::string_view title, std::string_view text) {
  if (!record_) return;
  put(title);
  records_ += kFieldEnd;
  put(text);
  records_ += kStepEnd;
}

void Derivation::warn(std::string text) {
  if (!record_) return;
  warnings_.push(std::move(text));
}

Json Derivation::steps() const {
  static constexpr const char* kStepKeys[] = {"title", "formula", "substituted", "result",
                                              "value", "unit",    "text"};
  static constexpr const char* kNoteKeys[] = {"title", "note"};
  std::string out = "[", field;
  // Room for the keys and the escapes (LaTeX doubles each backslash) up front: one allocation.
  out.reserve(records_.size() + records_.size() / 4 + 64);
  std::size_t count = 0;
  std::string_view fields[7];
  for (std::size_t at = 0; at < records_.size();) {
    const std::size_t end = records_.find(kStepEnd, at);
    int n = 0;
    for (std::size_t from = at; n < 7;) {
      const std::size_t stop = std::min(records_.find(kFieldEnd, from), end);
      fields[n++] = std::string_view(records_).substr(from, stop - from);
      if (stop == end) break;
      from = stop + 1;
    }
    const char* const* keys = n == 2 ? kNoteKeys : kStepKeys;
    out += count++ ? ",{" : "{";
    for (int i = 0; i < n; ++i) {
      if (i) out += ',';
      append_quoted(out, keys[i]);
      out += ':';
      if (keys[i] == kStepKeys[4]) {
        out += fields[i];  // already JSON number text
        continue;
      }
      // A field holds an escaped byte \x1c–\x1f only where its text had one (almost never):
      // otherwise it is quoted straight from the records, without a copy a byte at a time.
      if (fields[i].find(kEscape) == std::string_view::npos) {
        append_quoted(out, fields[i]);
        continue;
      }
      field.clear();
      for (std::size_t k = 0; k < fields[i].size(); ++k)
        field += fields[i][k] == kEscape ? static_cast<char>(fields[i][++k] ^ 0x40) : fields[i][k];
      append_quoted(out, field);
    }
    out += '}';
    at = end + 1;
  }
  out += ']';
  return Json::raw_array(std::move(out), count);
}

}  // namespace napkin
