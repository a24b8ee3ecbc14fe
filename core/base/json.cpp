#include "base/json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "base/number_text.hpp"

namespace napkin {

Json& Json::set(std::string_view key, Json v) {
  type_ = Type::Object;
  for (auto& m : members_) {
    if (m.first == key) {
      m.second = std::move(v);
      return m.second;
    }
  }
  members_.emplace_back(std::string(key), std::move(v));
  return members_.back().second;
}

const Json* Json::find(std::string_view key) const {
  for (const auto& m : members_)
    if (m.first == key) return &m.second;
  return nullptr;
}

void append_number(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    // Whole numbers digit by digit (printf's %f is slow for big integers; std::to_string
    // allocates a string per number).
    char buf[20];
    char* end = buf + sizeof buf;
    char* p = end;
    auto n = static_cast<unsigned long long>(std::fabs(v));
    do {
      *--p = static_cast<char>('0' + n % 10);
      n /= 10;
    } while (n);
    if (v < 0) *--p = '-';
    out.append(p, static_cast<std::size_t>(end - p));
    return;
  }
  append_shortest(out, v);
}

void append_escaped(std::string& out, std::string_view s) {
  // Written through a pointer into space reserved up front (at most 6 bytes per input byte):
  // derivations are LaTeX, a backslash every few characters, and a string call per escape
  // dominated a run in the size-optimized wasm build.
  static const char kHex[] = "0123456789abcdef";
  std::size_t length = 0;
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    length += (c >= 0x20 && c != '"' && c != '\\')                             ? 1
              : (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t') ? 2
                                                                               : 6;
  }
  if (length == s.size()) {  // nothing to escape (labels, help, most text): one copy
    out.append(s.data(), s.size());
    return;
  }
  const std::size_t start = out.size();
  out.resize(start + length);
  char* p = &out[start];
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c != '"' && c != '\\') {
      *p++ = ch;
      continue;
    }
    *p++ = '\\';
    switch (c) {
      case '"': *p++ = '"'; break;
      case '\\': *p++ = '\\'; break;
      case '\n': *p++ = 'n'; break;
      case '\r': *p++ = 'r'; break;
      case '\t': *p++ = 't'; break;
      default:
        *p++ = 'u';
        *p++ = '0';
        *p++ = '0';
        *p++ = kHex[c >> 4];
        *p++ = kHex[c & 15];
    }
  }
}

void append_quoted(std::string& out, std::string_view s) {
  out += '"';
  append_escaped(out, s);
  out += '"';
}

void Json::dump_to(std::string& out) const {
  switch (type_) {
    case Type::Null: out += "null"; break;
    case Type::Bool: out += bool_ ? "true" : "false"; break;
    case Type::Number: append_number(out, num_); break;
    case Type::String: append_quoted(out, str_); break;
    case Type::Raw: out += str_; break;
    case Type::Array: {
      out += '[';
      bool first = true;
      for (const auto& v : items_) {
        if (!first) out += ',';
        first = false;
        v.dump_to(out);
      }
      out += ']';
      break;
    }
    case Type::Object: {
      out += '{';
      bool first = true;
      for (const auto& [k, v] : members_) {
        if (!first) out += ',';
        first = false;
        append_quoted(out, k);
        out += ':';
        v.dump_to(out);
      }
      out += '}';
      break;
    }
  }
}

std::string Json::dump() const {
  std::string s;
  s.reserve(4096);  // a run's JSON is a few KB: avoid regrowing it step by step
  dump_to(s);
  return s;
}

namespace {

bool has_duplicate_key(const Json& object) {
  std::vector<std::string_view> keys;
  keys.reserve(object.members().size());
  for (const auto& m : object.members()) keys.push_back(m.first);
  std::sort(keys.begin(), keys.end());
  return std::adjacent_find(keys.begin(), keys.end()) != keys.end();
}

struct Parser {
  std::string_view t;
  std::size_t i = 0;
  std::string err;
  int depth = 0;

  void ws() {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\n' || t[i] == '\r' || t[i] == '\t')) ++i;
  }
  bool fail(const char* what) {
    if (err.empty()) err = std::string(what) + " at character " + std::to_string(i + 1);
    return false;
  }
  bool lit(std::string_view w) {
    if (t.substr(i, w.size()) != w) return false;
    i += w.size();
    return true;
  }
  static void put_utf8(std::string& s, unsigned cp) {
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else if (cp < 0x800) {
      s += static_cast<char>(0xC0 | (cp >> 6));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      s += static_cast<char>(0xE0 | (cp >> 12));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      s += static_cast<char>(0xF0 | (cp >> 18));
      s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  bool hex4(unsigned& cp) {
    if (i + 4 > t.size()) return fail("truncated \\u escape");
    cp = 0;
    for (int k = 0; k < 4; ++k) {
      char c = t[i++];
      cp <<= 4;
      if (c >= '0' && c <= '9')
        cp |= c - '0';
      else if (c >= 'a' && c <= 'f')
        cp |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        cp |= c - 'A' + 10;
      else
        return fail("bad \\u escape");
    }
    return true;
  }
  bool str(std::string& s) {
    ++i;  // opening quote
    while (i < t.size()) {
      // The plain run up to the next quote, escape or control character, in one append.
      std::size_t j = i;
      while (j < t.size() && t[j] != '"' && t[j] != '\\' &&
             static_cast<unsigned char>(t[j]) >= 0x20)
        ++j;
      s.append(t.data() + i, j - i);
      i = j;
      if (i >= t.size()) break;
      char c = t[i++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in string");
      if (i >= t.size()) break;
      char e = t[i++];
      switch (e) {
        case '"': s += '"'; break;
        case '\\': s += '\\'; break;
        case '/': s += '/'; break;
        case 'b': s += '\b'; break;
        case 'f': s += '\f'; break;
        case 'n': s += '\n'; break;
        case 'r': s += '\r'; break;
        case 't': s += '\t'; break;
        case 'u': {
          unsigned cp;
          if (!hex4(cp)) return false;
          // A surrogate must come as a high–low pair; a lone one has no UTF-8 encoding.
          if (cp >= 0xDC00 && cp < 0xE000) return fail("lone low surrogate");
          if (cp >= 0xD800 && cp < 0xDC00) {
            unsigned lo;
            if (!lit("\\u") || !hex4(lo) || lo < 0xDC00 || lo >= 0xE000)
              return fail("lone high surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          put_utf8(s, cp);
          break;
        }
        default: return fail("bad escape");
      }
    }
    return fail("unterminated string");
  }
  bool value(Json& out) {
    if (++depth > 64) return fail("nesting too deep");
    ws();
    if (i >= t.size()) return fail("unexpected end");
    char c = t[i];
    bool ok = true;
    if (c == '{') {
      ++i;
      out = Json::object();
      ws();
      if (i < t.size() && t[i] == '}') {
        ++i;
      } else {
        for (;;) {
          ws();
          if (i >= t.size() || t[i] != '"') return fail("expected a quoted key");
          std::string k;
          if (!str(k)) return false;
          ws();
          if (i >= t.size() || t[i] != ':') return fail("expected ':'");
          ++i;
          Json v;
          if (!value(v)) return false;
          // Which of two equal keys would count is a guess, so they are refused. Small objects
          // are checked key by key; a large one once it is read, in a sorted list (50,000 keys
          // compared with each other took 19 s).
          if (out.members().size() < 32 && out.has(k)) return fail("duplicate key");
          out.emplace(std::move(k), std::move(v));
          ws();
          if (i < t.size() && t[i] == ',') {
            ++i;
            continue;
          }
          if (i < t.size() && t[i] == '}') {
            ++i;
            if (out.members().size() > 32 && has_duplicate_key(out)) return fail("duplicate key");
            break;
          }
          return fail("expected ',' or '}'");
        }
      }
    } else if (c == '[') {
      ++i;
      out = Json::array();
      ws();
      if (i < t.size() && t[i] == ']') {
        ++i;
      } else {
        for (;;) {
          Json v;
          if (!value(v)) return false;
          out.push(std::move(v));
          ws();
          if (i < t.size() && t[i] == ',') {
            ++i;
            continue;
          }
          if (i < t.size() && t[i] == ']') {
            ++i;
            break;
          }
          return fail("expected ',' or ']'");
        }
      }
    } else if (c == '"') {
      std::string s;
      ok = str(s);
      out = Json(std::move(s));
    } else if (lit("true")) {
      out = Json(true);
    } else if (lit("false")) {
      out = Json(false);
    } else if (lit("null")) {
      out = Json();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      // RFC 8259 §6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? — no "01", "1.",
      // "-.5" or "+1".
      std::size_t start = i;
      auto digits = [&] {
        const std::size_t from = i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
        return i > from;
      };
      if (t[i] == '-') ++i;
      if (i < t.size() && t[i] == '0') {
        ++i;
      } else if (!digits()) {
        return fail("bad number");
      }
      if (i < t.size() && t[i] == '.') {
        ++i;
        if (!digits()) return fail("bad number");
      }
      if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
        if (!digits()) return fail("bad number");
      }
      if (i < t.size() && t[i] >= '0' && t[i] <= '9') return fail("bad number");
      double d = 0;
      if (!read_decimal(t.substr(start, i - start), d)) return fail("bad number");
      out = Json(d);
    } else {
      return fail("unexpected character");
    }
    --depth;
    return ok;
  }
};

}  // namespace

bool Json::parse(std::string_view text, Json& out, std::string& error) {
  Parser p{text};
  if (!p.value(out)) {
    error = p.err;
    return false;
  }
  p.ws();
  if (p.i != text.size()) {
    error = "trailing text at character " + std::to_string(p.i + 1);
    return false;
  }
  return true;
}

}  // namespace napkin
