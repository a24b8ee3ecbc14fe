// Reading a student's answer and judging it: the number with its unit, a fraction or a
// percentage, compared with the expected value and with known mistakes.
// Pure functions with no knowledge of problems, so the page, the CLI and tests share them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/literal.hpp"

namespace napkin {

// How a problem asks for its answer. `unit` is the registry unit of the value (base SI:
// "s", "B", "frac", "GPU", "param", ...): text with a unit ("120ms", "2.147e11 bytes",
// "214.7 GB", "15.8%", "80 GPUs", "70B") is read with it. `name` is the unit the question asks
// in, and a bare number ("120", "214.7", "15.8") is read in it; `scale` is how many base
// units one `name` is. An empty name shows the answer with format_value and reads a bare
// number in base units.
struct AnswerUnit {  // literals, or a registry output's unit (the registry lives on)
  Literal unit;
  Literal name;
  double scale = 1;
};

// Common ways of asking (see problems.hpp for how to use them).
namespace answer_in {
AnswerUnit output();  // the output's own unit, shown as format_value shows it
AnswerUnit days();    // a time in s, asked in days
AnswerUnit hours();
AnswerUnit seconds();
AnswerUnit ms();
AnswerUnit us();
AnswerUnit gb();  // bytes asked in GB (1e9)
AnswerUnit tb();
AnswerUnit mb();
AnswerUnit gb_per_s();
AnswerUnit percent();         // a fraction (0..1) asked in %
AnswerUnit gpus();            // a GPU count: "80 GPUs"
AnswerUnit billion_params();  // "19B", "19 billion", bare 19
AnswerUnit billion_tokens();  // "3.5T tokens", "3500B", bare 3500
AnswerUnit zettaflop();       // FLOPs asked in 10^21 ("3675 ZFLOPs", bare 3675, 3.675e24)
AnswerUnit count(Literal unit, Literal name);  // any count: count("req/s", "QPS")
AnswerUnit yes_no();  // a boolean output ("within budget?"): yes/no, true/false; 1 or 0
}  // namespace answer_in

inline constexpr const char* kYesNo = "bool";  // AnswerUnit::unit of yes/no answers

// The expected answer as text in the asked unit: "121.7 days", "214.7 GB", "15.79%", "80 GPUs".
std::string answer_text(double value, const AnswerUnit& u);

struct ParsedAnswer {
  bool ok = false;
  std::vector<double> readings;  // base units; the most likely reading first
  std::string error;             // why it could not be read, with examples that work
  bool bare = false;             // no unit written: readings are the asked unit, then base units
  bool binary = false;           // a binary unit (GiB, MiB, ...) was written
  bool exponent = false;         // written with an exponent (1.746e11): its size is spelled out
};

// Reads "214.7 GB", "2.147e11 bytes", "120ms", "0.12 s", "15.8%", "3/19", "80 GPUs", "70B",
// "≈ 1.5 GB", "70bn", "121,7 days" (a decimal comma; "1,217" is a thousands separator, and
// "1.234,5" is refused with a question). A bare number is read in the asked unit first and in
// base units second (a student who writes 0.12 for a time asked in ms means seconds); for
// answer_in::output(), grade() adds the unit the answer box shows.
// Longer answers are refused unread (the page's answer box has the same maxlength).
constexpr std::size_t kMaxAnswerLength = 200;
ParsedAnswer parse_answer(std::string_view text, const AnswerUnit& u);

// Which side of the answer breaks a constraint the question states. "GPUs needed to fit" is a
// minimum (at_least: one fewer does not fit); "sequences that fit", "the largest model that
// fits" are maxima (at_most: one more does not fit). An answer on the breaking side is wrong,
// never close. `none`: no side breaks anything; for a count it means the count is exact
// (sends per step, microbatch size), and only the exact number is right or close.
enum class Bound { none, at_least, at_most };

struct Expected {
  double value = 0;  // base units
  AnswerUnit unit;
  double tolerance = 0.02;  // relative: within it the answer is correct
  double close = 0.10;      // relative: within it (but not tolerance) the answer is close
  bool integer = false;     // counts that must be exact ("80 GPUs"): correct only if equal
  Bound bound = Bound::none;
};

// A known wrong computation and what it evaluates to for this variant.
struct Alternative {
  std::string id;
  std::string feedback;
  double value = 0;  // base units; non-finite values never match
};

struct Judgement {
  std::string verdict;   // correct | close | wrong
  std::string mistake;   // id of the matched mistake, "" if none
  std::string feedback;  // a sentence for the student
  double given = 0;      // the reading that was judged (base units)
  double relative_error = 0;
  double score = 0;  // partial credit in [0, 1]: see kScore* below
};

// Partial credit, as numeric-practice systems give it (WeBWorK, STACK, Numbas): full marks for
// a correct answer; half for the right value in the wrong unit (GB read as GiB) and for an
// answer in the close band with no named mistake (the method right, a constant or a rounding
// off); none for a named mistake of method, or anything further off.
constexpr double kScoreCorrect = 1.0, kScoreWrongUnit = 0.5, kScoreClose = 0.5;

double relative_error(double given, double expected);

// The one rule for "this answer is that mistake", used by the grader and by the variant
// filter alike: a count matches when it rounds to the same whole number, any other value
// when it is within the problem's tolerance of the mistake's value.
bool mistake_matches(double given, double mistake, const Expected& e);

// The grader's bands: correct (within tolerance; a count: equal) and close (the close band on
// the side that keeps the constraint; a count: one more for at_least, one fewer for at_most).
bool is_correct(double given, const Expected& e);
bool is_close(double given, const Expected& e);

// The variant filter's side of the same rule: true when an answer the grader calls correct or
// close could also be read as this mistake (mistake_matches), so the variant cannot tell them
// apart and is not drawn.
bool mistake_shadows_answer(double mistake, const Expected& e);

// Mistakes every problem gets for free: for byte answers (B, B/s, B/tok), GB read as GiB and
// the reverse ("gb_vs_gib", unless the ratio is within tolerance); for a count with a bound,
// one fewer than a minimum ("rounded_down") or one more than a maximum ("rounded_up").
std::vector<Alternative> automatic_mistakes(const Expected& e);

// Correct beats a named mistake beats close beats wrong, over all readings of the answer,
// except that a reading within tolerance but nearer a mistake distinct from the key (more than
// half the tolerance away; for a count, another whole number) is that mistake.
// A matched mistake is reported with verdict "close" when it is within the close band.
// GB/GiB confusion is named only when a binary unit was written (`binary_written`) or the
// value is the other unit's exactly: "110 MB" for 107.4 MB is rounding, not MiB.
Judgement judge(const std::vector<double>& readings, const Expected& e,
                const std::vector<Alternative>& mistakes, bool binary_written = false);

// judge() for a parsed answer. A bare number is graded in the unit the answer box shows (the
// asked name, or for answer_in::output() the scaled unit format_value shows for the key:
// "349.1" in GFLOP/tok); when its other reading (base units) is 1000× or more away and that
// reading is plausible (correct, close or a known mistake) while the asked one is not, the
// verdict is "unit" and the feedback asks for the unit instead of guessing ("0.12" or "0.04"
// for 41.8 ms) — unless the unit is large and the number spells out its size ("1.746e11" or
// "174600000000" for billion parameters): then it is read in base units.
Judgement grade(const ParsedAnswer& a, const Expected& e, const std::vector<Alternative>& mistakes);

}  // namespace napkin
