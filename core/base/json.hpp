// A small JSON value: the generic edge between the typed core and the CLI / wasm.
// Why not a library: the core must build with no exceptions under Emscripten, and
// the needs are small (objects keep insertion order so output reads like the registry).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/literal.hpp"

namespace napkin {

class Json {
 public:
  // Raw: an array already serialized (a derivation writes its steps straight to text).
  enum class Type { Null, Bool, Number, String, Array, Object, Raw };
  using Member = std::pair<std::string, Json>;

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool b) : type_(Type::Bool), bool_(b) {}
  Json(double d) : type_(Type::Number), num_(d) {}
  Json(int i) : type_(Type::Number), num_(i) {}
  Json(long i) : type_(Type::Number), num_(static_cast<double>(i)) {}
  Json(long long i) : type_(Type::Number), num_(static_cast<double>(i)) {}
  Json(unsigned long i) : type_(Type::Number), num_(static_cast<double>(i)) {}
  Json(const char* s) : type_(Type::String), str_(s) {}
  Json(std::string s) : type_(Type::String), str_(std::move(s)) {}
  Json(std::string_view s) : type_(Type::String), str_(s) {}
  Json(Literal s) : type_(Type::String), str_(s.view()) {}

  static Json array() {
    Json j;
    j.type_ = Type::Array;
    return j;
  }
  static Json object() {
    Json j;
    j.type_ = Type::Object;
    return j;
  }
  // `text` must be a JSON array of `count` elements; it is written out as it is.
  static Json raw_array(std::string text, std::size_t count) {
    Json j;
    j.type_ = Type::Raw;
    j.str_ = std::move(text);
    j.num_ = static_cast<double>(count);
    return j;
  }

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::Null; }
  bool is_bool() const { return type_ == Type::Bool; }
  bool is_number() const { return type_ == Type::Number; }
  bool is_string() const { return type_ == Type::String; }
  bool is_array() const { return type_ == Type::Array || type_ == Type::Raw; }
  bool is_object() const { return type_ == Type::Object; }

  bool as_bool() const { return bool_; }
  double as_number() const { return num_; }
  const std::string& as_string() const { return str_; }
  const std::vector<Json>& items() const { return items_; }
  const std::vector<Member>& members() const { return members_; }

  // Arrays
  Json& push(Json v) {
    items_.push_back(std::move(v));
    return items_.back();
  }
  std::size_t size() const {
    if (type_ == Type::Raw) return static_cast<std::size_t>(num_);
    return type_ == Type::Array ? items_.size() : members_.size();
  }
  const Json& operator[](std::size_t i) const { return items_[i]; }

  // Objects: set replaces an existing key, so order is first-insertion order.
  Json& set(std::string_view key, Json v);
  // Appends a member whose key the caller knows is new (no search): for objects built in
  // one pass, like derivation steps.
  Json& add(std::string_view key, Json v) {
    type_ = Type::Object;
    members_.emplace_back(std::string(key), std::move(v));
    return members_.back().second;
  }
  // add() taking the key's string itself (no copy): for the parser.
  Json& emplace(std::string&& key, Json v) {
    type_ = Type::Object;
    members_.emplace_back(std::move(key), std::move(v));
    return members_.back().second;
  }
  const Json* find(std::string_view key) const;
  bool has(std::string_view key) const { return find(key) != nullptr; }

  std::string dump() const;
  void dump_to(std::string& out) const;

  // Parses strict JSON. On failure returns false and fills `error` with the position.
  static bool parse(std::string_view text, Json& out, std::string& error);

 private:
  Type type_ = Type::Null;
  bool bool_ = false;
  double num_ = 0;
  std::string str_;
  std::vector<Json> items_;
  std::vector<Member> members_;
};

// Shortest text that reads back to the same double (JSON has no NaN/Infinity: they
// become null, which the registry never produces for a result).
void append_number(std::string& out, double v);
// A JSON string's contents (no quotes), escaped; and the same within quotes.
void append_escaped(std::string& out, std::string_view s);
void append_quoted(std::string& out, std::string_view s);

}  // namespace napkin
