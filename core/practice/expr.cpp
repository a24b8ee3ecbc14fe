#include "practice/expr.hpp"

#include <cmath>
#include <cstdlib>

#include "base/number_text.hpp"
#include "practice/problems.hpp"

namespace napkin {

namespace {

struct Fn {
  const char* name;
  int min_args, max_args;  // max -1: any number
};
constexpr Fn kFns[] = {{"min", 1, -1},  {"max", 1, -1},  {"ceil", 1, 1}, {"floor", 1, 1},
                       {"round", 1, 1}, {"abs", 1, 1},   {"sqrt", 1, 1}, {"log", 1, 1},
                       {"log2", 1, 1},  {"log10", 1, 1}, {"exp", 1, 1},  {"pow", 2, 2},
                       {"mod", 2, 2}};

bool ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool ident_char(char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}

}  // namespace

// Recursive descent, lowest precedence first: ?:, ||, &&, comparisons, + -, * /, unary, ^.
class ExprParser {
 public:
  ExprParser(std::string_view s, Expr& e) : s_(s), e_(e) {}

  bool run(std::string& error) {
    if (!ternary()) return error = error_, false;
    skip();
    if (at_ < s_.size())
      return error = where("unexpected \"" + std::string(1, s_[at_]) + "\""), false;
    return true;
  }

 private:
  using Code = Expr::Code;

  void skip() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\t' || s_[at_] == '\n')) ++at_;
  }
  bool eat(std::string_view tok) {
    skip();
    if (s_.substr(at_, tok.size()) != tok) return false;
    at_ += tok.size();
    return true;
  }
  std::string where(const std::string& what) const {
    return what + " at character " + std::to_string(at_ + 1) + " of \"" + std::string(s_) + "\"";
  }
  bool fail(const std::string& what) {
    if (error_.empty()) error_ = where(what);
    return false;
  }
  void emit(Code c) { e_.ops_.push_back({c}); }

  bool ternary() {
    if (!logic_or()) return false;
    if (!eat("?")) return true;
    if (!ternary()) return false;
    if (!eat(":")) return fail("expected \":\" after the \"?\" branch");
    if (!ternary()) return false;
    emit(Code::cond);
    return true;
  }
  bool logic_or() {
    if (!logic_and()) return false;
    while (eat("||")) {
      if (!logic_and()) return false;
      emit(Code::or_);
    }
    return true;
  }
  bool logic_and() {
    if (!compare()) return false;
    while (eat("&&")) {
      if (!compare()) return false;
      emit(Code::and_);
    }
    return true;
  }
  bool compare() {
    if (!sum()) return false;
    for (;;) {
      Code c;
      if (eat("<="))
        c = Code::le;
      else if (eat(">="))
        c = Code::ge;
      else if (eat("=="))
        c = Code::eq;
      else if (eat("!="))
        c = Code::ne;
      else if (eat("<"))
        c = Code::lt;
      else if (eat(">"))
        c = Code::gt;
      else
        return true;
      if (!sum()) return false;
      emit(c);
    }
  }
  bool sum() {
    if (!product()) return false;
    for (;;) {
      Code c;
      if (eat("+"))
        c = Code::add;
      else if (eat("-"))
        c = Code::sub;
      else
        return true;
      if (!product()) return false;
      emit(c);
    }
  }
  bool product() {
    if (!unary()) return false;
    for (;;) {
      Code c;
      if (eat("*"))
        c = Code::mul;
      else if (eat("/"))
        c = Code::div;
      else
        return true;
      if (!unary()) return false;
      emit(c);
    }
  }
  bool unary() {
    if (eat("-")) {
      if (!unary()) return false;
      emit(Code::neg);
      return true;
    }
    if (eat("!")) {
      if (!unary()) return false;
      emit(Code::not_);
      return true;
    }
    if (eat("+")) return unary();
    return power();
  }
  bool power() {
    if (!primary()) return false;
    if (eat("^")) {  // right-associative, binds tighter than unary minus on its left: -2^2 = -4
      if (!unary()) return false;
      emit(Code::pow);
    }
    return true;
  }
  bool primary() {
    skip();
    if (at_ >= s_.size()) return fail("the expression ends too early");
    const char c = s_[at_];
    if (c == '(') {
      ++at_;
      if (!ternary()) return false;
      if (!eat(")")) return fail("expected \")\"");
      return true;
    }
    if ((c >= '0' && c <= '9') || c == '.') return number();
    if (ident_start(c)) return name();
    return fail("unexpected \"" + std::string(1, c) + "\"");
  }
  bool number() {
    std::size_t end = at_;
    while (end < s_.size() && ((s_[end] >= '0' && s_[end] <= '9') || s_[end] == '.')) ++end;
    if (end < s_.size() && (s_[end] == 'e' || s_[end] == 'E')) {
      std::size_t e = end + 1;
      if (e < s_.size() && (s_[e] == '+' || s_[e] == '-')) ++e;
      if (e < s_.size() && s_[e] >= '0' && s_[e] <= '9') {
        end = e;
        while (end < s_.size() && s_[end] >= '0' && s_[end] <= '9') ++end;
      }
    }
    double x = 0;
    if (!read_decimal(s_.substr(at_, end - at_), x)) return fail("not a number");
    at_ = end;
    Expr::Op op{Code::number};
    op.number = x;
    e_.ops_.push_back(std::move(op));
    return true;
  }
  std::string ident() {
    const std::size_t from = at_;
    while (at_ < s_.size() && ident_char(s_[at_])) ++at_;
    return std::string(s_.substr(from, at_ - from));
  }
  bool name() {
    std::string head = ident();
    skip();
    if (at_ < s_.size() && s_[at_] == '(') {
      // A named preset, model("id").FIELD, or a function call.
      if (head == "model" || head == "gpu") {
        ++at_;
        skip();
        if (at_ >= s_.size() || s_[at_] != '"') return fail("expected a quoted preset id");
        const std::size_t close = s_.find('"', at_ + 1);
        if (close == std::string_view::npos) return fail("unclosed quote");
        std::string arg(s_.substr(at_ + 1, close - at_ - 1));
        at_ = close + 1;
        if (!eat(")")) return fail("expected \")\" after the preset id");
        if (!eat(".")) return fail("expected .FIELD after " + head + "(\"" + arg + "\")");
        skip();
        std::string field = ident();
        if (field.empty()) return fail("expected a field name");
        Expr::Op op{Code::dotted};
        op.name = head;
        op.arg = arg;
        op.field = field;
        e_.ops_.push_back(std::move(op));
        return true;
      }
      std::size_t fn = 0;
      while (fn < std::size(kFns) && head != kFns[fn].name) ++fn;
      if (fn == std::size(kFns)) return fail("unknown function \"" + head + "\"");
      ++at_;
      int n = 0;
      if (!eat(")")) {
        do {
          if (!ternary()) return false;
          ++n;
        } while (eat(","));
        if (!eat(")")) return fail("expected \")\" or \",\" in " + head + "(…)");
      }
      if (n < kFns[fn].min_args || (kFns[fn].max_args >= 0 && n > kFns[fn].max_args))
        return fail(head + "() takes " + std::to_string(kFns[fn].min_args) +
                    (kFns[fn].max_args == kFns[fn].min_args ? "" : " or more") + " argument(s)");
      Expr::Op op{Code::call};
      op.fn = static_cast<std::uint16_t>(fn);
      op.arity = static_cast<std::uint16_t>(n);
      e_.ops_.push_back(std::move(op));
      return true;
    }
    if (at_ < s_.size() && s_[at_] == '.') {
      ++at_;
      std::string field = ident();
      if (field.empty()) return fail("expected a name after \"" + head + ".\"");
      Expr::Op op{Code::dotted};
      op.name = head;
      op.field = field;
      e_.ops_.push_back(std::move(op));
      return true;
    }
    if (head == "true" || head == "false") {
      Expr::Op op{Code::number};
      op.number = head == "true" ? 1 : 0;
      e_.ops_.push_back(std::move(op));
      return true;
    }
    Expr::Op op{Code::param};
    op.name = head;
    e_.ops_.push_back(std::move(op));
    return true;
  }

  std::string_view s_;
  Expr& e_;
  std::size_t at_ = 0;
  std::string error_;
};

bool Expr::parse(std::string_view text, Expr& out, std::string& error) {
  out = Expr();
  out.text_ = std::string(text);
  if (text.size() > 2000) return error = "an expression is limited to 2,000 characters", false;
  ExprParser p(out.text_, out);
  if (!p.run(error)) return out = Expr(), false;
  return true;
}

const char* const Expr::kAbsent = "a preset it reads is none";

bool Expr::eval(const ExprScope& scope, double& value, std::string* why) const {
  // Each slot carries "absent" (a preset that is none) so that only the branch a ?: picks
  // decides; an unknown name is an error at once.
  struct Slot {
    double v;
    bool absent;
  };
  Slot stack[64];
  std::size_t n = 0;
  auto bad = [&](const std::string& w) {
    if (why) *why = w + " in \"" + text_ + "\"";
    return false;
  };
  for (const Op& op : ops_) {
    if (n + 1 >= std::size(stack)) return bad("the expression is too deeply nested");
    switch (op.code) {
      case Code::number: stack[n++] = {op.number, false}; break;
      case Code::param: {
        if (!scope.params || !scope.params->has(op.name))
          return bad("unknown parameter \"" + op.name + "\"");
        stack[n++] = {(*scope.params)[op.name], false};
        break;
      }
      case Code::dotted: {
        double x = 0;
        if (op.name == "out" && op.arg.empty()) {
          if (!scope.out || !scope.out->has(op.field))
            return bad("the run has no output \"" + op.field + "\"");
          stack[n++] = {(*scope.out)[op.field], false};
          break;
        }
        std::string unknown;
        const ExprScope::Lookup found =
            scope.dotted ? scope.dotted(scope.ctx, op.name, op.arg, op.field, x, unknown)
                         : ExprScope::Lookup::unknown;
        if (found == ExprScope::Lookup::unknown)
          return bad(unknown.empty() ? "unknown name \"" + op.name + "." + op.field + "\""
                                     : unknown);
        stack[n++] = {x, found == ExprScope::Lookup::absent};
        break;
      }
      case Code::neg: stack[n - 1].v = -stack[n - 1].v; break;
      case Code::not_: stack[n - 1].v = stack[n - 1].v == 0 ? 1 : 0; break;
      case Code::cond: {
        const Slot c = stack[n - 3], a = stack[n - 2], b = stack[n - 1];
        n -= 3;
        stack[n++] = c.absent ? c : (c.v != 0 ? a : b);
        break;
      }
      case Code::call: {
        const std::size_t k = op.arity;
        Slot* a = stack + n - k;
        bool absent = false;
        for (std::size_t i = 0; i < k; ++i) absent = absent || a[i].absent;
        double r = a[0].v;
        switch (op.fn) {
          case 0:
            for (std::size_t i = 1; i < k; ++i) r = std::min(r, a[i].v);
            break;
          case 1:
            for (std::size_t i = 1; i < k; ++i) r = std::max(r, a[i].v);
            break;
          case 2: r = std::ceil(r); break;
          case 3: r = std::floor(r); break;
          case 4: r = std::round(r); break;
          case 5: r = std::fabs(r); break;
          case 6: r = std::sqrt(r); break;
          case 7: r = std::log(r); break;
          case 8: r = std::log2(r); break;
          case 9: r = std::log10(r); break;
          case 10: r = std::exp(r); break;
          case 11: r = std::pow(r, a[1].v); break;
          case 12: r = std::fmod(r, a[1].v); break;
          default: break;
        }
        n -= k;
        stack[n++] = {r, absent};
        break;
      }
      default: {  // binary operators
        const Slot a = stack[n - 2], b = stack[n - 1];
        double r = 0;
        switch (op.code) {
          case Code::add: r = a.v + b.v; break;
          case Code::sub: r = a.v - b.v; break;
          case Code::mul: r = a.v * b.v; break;
          case Code::div: r = a.v / b.v; break;
          case Code::pow: r = std::pow(a.v, b.v); break;
          case Code::lt: r = a.v < b.v; break;
          case Code::le: r = a.v <= b.v; break;
          case Code::gt: r = a.v > b.v; break;
          case Code::ge: r = a.v >= b.v; break;
          case Code::eq: r = a.v == b.v; break;
          case Code::ne: r = a.v != b.v; break;
          case Code::and_: r = a.v != 0 && b.v != 0; break;
          case Code::or_: r = a.v != 0 || b.v != 0; break;
          default: break;
        }
        n -= 2;
        stack[n++] = {r, a.absent || b.absent};
        break;
      }
    }
  }
  if (n != 1) return bad("the expression does not reduce to one value");
  if (stack[0].absent) return bad(kAbsent);
  value = stack[0].v;
  if (!std::isfinite(value)) return bad("the value is not a finite number");
  return true;
}

}  // namespace napkin
