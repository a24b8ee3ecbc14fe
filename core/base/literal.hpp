// A string literal held as one pointer. Declarations made only of literals (the practice
// bank's problems) then compile to one store per text, where a std::string cost a constructor
// and a destructor call each: a third of the bank's wasm.
#pragma once

#include <string>
#include <string_view>

namespace napkin {

class Literal {
 public:
  constexpr Literal() = default;
  constexpr Literal(const char* s) : s_(s ? s : "") {}
  // Only text with static storage: a std::string's buffer would dangle.
  Literal(const std::string&) = delete;
  constexpr operator std::string_view() const { return s_; }
  constexpr std::string_view view() const { return s_; }
  constexpr const char* c_str() const { return s_; }
  constexpr bool empty() const { return *s_ == '\0'; }
  constexpr std::size_t size() const { return view().size(); }
  constexpr std::size_t find(std::string_view what, std::size_t from = 0) const {
    return view().find(what, from);
  }
  constexpr std::size_t find(char c, std::size_t from = 0) const { return view().find(c, from); }
  constexpr std::string_view substr(std::size_t at, std::size_t n = std::string_view::npos) const {
    return view().substr(at, n);
  }
  friend bool operator==(Literal a, std::string_view b) { return a.view() == b; }
  friend std::string operator+(std::string a, Literal b) { return a.append(b.view()); }
  friend std::string operator+(Literal a, std::string_view b) {
    return std::string(a.view()).append(b);
  }
  friend std::string operator+(const char* a, Literal b) { return std::string(a).append(b.view()); }

 private:
  const char* s_ = "";
};

}  // namespace napkin
