// serve.speculative: a draft model proposes k tokens per step and the target verifies them in
// one run (Leviathan et al. 2023). The expected tokens and the speedup come from
// core/scenario/speculative.cpp.
#include "inference/serve_speculative.hpp"

#include "base/units.hpp"
#include "scenario/speculative.hpp"

namespace napkin {

Result<ServeSpeculativeOut> serve_speculative(const ServeSpeculativeIn& in, Derivation& d) {
  ServeSpeculativeOut o{};
  // The draft's cost per step relative to the target's: at small batch decode reads the
  // weights one token uses once per step, the active ones of a mixture of experts (Pope et al.
  // 2022 §3; the counts a model preset gives from model_params, core/scenario/model.cpp), so
  // the step times are in the ratio of the active weights (same precision).
  double c = in.cost_ratio;
  if (c <= 0) {
    const double target = in.active_params > 0 ? in.active_params : in.params;
    const double draft = in.draft_active_params > 0 ? in.draft_active_params : in.draft_params;
    if (target > in.params)
      return Error::inconsistent("active_params", in.active_params,
                                 "must be at most the target's parameters (" +
                                     format_value(in.params, unit::params) + ")");
    if (draft > in.draft_params)
      return Error::inconsistent("draft_active_params", in.draft_active_params,
                                 "must be at most the draft's parameters (" +
                                     format_value(in.draft_params, unit::params) + ")");
    if (draft >= target)
      return Error::inconsistent(
          in.draft_active_params > 0 ? "draft_active_params" : "draft_params", draft,
          "the draft must use fewer weights per token than the target (" +
              format_value(target, unit::params) + ")");
    c = draft / target;
    d.step("Draft step ÷ target step (each reads the weights a token uses once per step)", "c",
           "\\frac{$n}{$N}",
           {{"n", "N_{d,a}", draft, unit::params}, {"N", "N_a", target, unit::params}}, c,
           unit::none);
  }
  o.cost_ratio = c;
  const int k_max = static_cast<int>(in.max_draft_len);
  if (in.draft_len > k_max)
    return Error::inconsistent("draft_len", in.draft_len,
                               "more than the longest draft searched (max_draft_len = " +
                                   format_value(k_max, unit::none) + ")");
  const double a = in.acceptance_rate;
  o.best_draft_len = best_draft_len(a, c, k_max);
  o.best_speedup = speculative_speedup(a, static_cast<int>(o.best_draft_len), c);
  const int k =
      in.draft_len > 0 ? static_cast<int>(in.draft_len) : static_cast<int>(o.best_draft_len);
  o.draft_len = k;
  o.expected_tokens_per_step = speculative_tokens_per_step(a, k);
  d.step("Tokens per target step (Leviathan et al. 2023, eq. 1)", "E",
         "\\frac{1 - $a^{$k + 1}}{1 - $a}",
         {{"a", "\\alpha", a}, {"k", "k", static_cast<double>(k)}}, o.expected_tokens_per_step,
         unit::none);
  o.speedup = speculative_speedup(a, k, c);
  d.step(
      "Speedup over plain decoding (Theorem 3.8)", "s", "\\frac{$E}{$k \\cdot $c + 1}",
      {{"E", "E", o.expected_tokens_per_step}, {"k", "k", static_cast<double>(k)}, {"c", "c", c}},
      o.speedup, unit::times);
  if (in.draft_len <= 0)
    d.note("Best draft length", "k = " + format_value(o.best_draft_len, unit::none) +
                                    " gives the largest speedup among 1…" +
                                    format_value(k_max, unit::none) + ".");
  if (in.tpot > 0) {
    o.tpot_speculative = in.tpot / o.speedup;
    d.step("Time per output token with speculation", "\\text{TPOT}_s", "\\frac{$t}{$s}",
           {{"t", "\\text{TPOT}", in.tpot, unit::seconds}, {"s", "s", o.speedup, unit::times}},
           o.tpot_speculative, unit::seconds);
  } else {
    o.tpot_speculative = not_given;
  }
  if (o.speedup < 1)
    d.warn("Speculation slows decoding here: drafting " + format_value(k, unit::none) +
           (k == 1 ? " token" : " tokens") +
           " costs more time than the accepted ones save. It pays only when the acceptance "
           "rate exceeds the draft's cost per step (Leviathan et al. 2023, Corollary 3.9).");
  return o;
}

void register_serve_speculative(Registry& r) {
  using In = ServeSpeculativeIn;
  using Out = ServeSpeculativeOut;
  r.add(declare<serve_speculative>(
      {"serve.speculative", "Speculative decoding: tokens per step, speedup, best draft length",
       "inference",
       "A small draft model proposes k tokens and the target checks them in one step: the "
       "tokens each target step yields, the speedup after the draft's cost, and the best k.",
       "Leviathan, Kalman & Matias 2023, Fast Inference from Transformers via Speculative "
       "Decoding (ICML)",
       "docs/serving.md#servespeculative"},
      {num("params", NAPKIN_FIELD(In, params), "Target parameters", unit::params)
           .help("Weights of the model being served")
           .positive(1e15)
           .group("model"),
       num("draft_params", NAPKIN_FIELD(In, draft_params), "Draft parameters", unit::params)
           .help("Weights of the small model that drafts tokens")
           .positive(1e15)
           .group("model"),
       num("active_params", NAPKIN_FIELD(In, active_params), "Target active parameters (0 = all)",
           unit::params)
           .help("Weights the target uses per token: a mixture of experts' routed and shared "
                 "experts; 0 for a dense model")
           .range(0, 1e15)
           .group("model"),
       num("draft_active_params", NAPKIN_FIELD(In, draft_active_params),
           "Draft active parameters (0 = all)", unit::params)
           .help("Weights the draft uses per token, for a mixture-of-experts draft; 0 for a dense "
                 "one")
           .range(0, 1e15)
           .group("model"),
       num("cost_ratio", NAPKIN_FIELD(In, cost_ratio), "Draft cost per step (0 = from the weights)")
           .help("Time of one draft step ÷ one target step; 0 = the ratio of their active weights")
           .range(0, 10)
           .group("job"),
       num("acceptance_rate", NAPKIN_FIELD(In, acceptance_rate), "Acceptance rate", unit::fraction)
           .help("Chance the target accepts a drafted token (measured: 0.6 to 0.9)")
           .range(0, 1)
           .group("job"),
       num("draft_len", NAPKIN_FIELD(In, draft_len), "Draft length (0 = the best)")
           .help("Tokens the draft proposes per target step")
           .range(0, 1024)
           .integer()
           .group("job"),
       num("max_draft_len", NAPKIN_FIELD(In, max_draft_len), "Longest draft tried")
           .help("The best draft length is searched from 1 to this")
           .range(1, 1024)
           .integer()
           .group("job"),
       num("tpot", NAPKIN_FIELD(In, tpot), "Time per token without it (0 = none)", unit::seconds)
           .help("The target's time per output token alone, e.g. from the serving engine card")
           .range(0, 1e3)
           .group("job")},
      {out("expected_tokens_per_step", NAPKIN_FIELD(Out, expected_tokens_per_step),
           "Tokens per target step")
           .help("Accepted draft tokens plus the target's own, on average"),
       out("speedup", NAPKIN_FIELD(Out, speedup), "Speedup", unit::times)
           .help("Decoding speed with speculation ÷ without, the draft's time included"),
       out("best_draft_len", NAPKIN_FIELD(Out, best_draft_len), "Best draft length")
           .help("The draft length with the largest speedup"),
       out("best_speedup", NAPKIN_FIELD(Out, best_speedup), "Speedup at the best length",
           unit::times)
           .help("What the best draft length gives"),
       out("draft_len", NAPKIN_FIELD(Out, draft_len), "Draft length used")
           .help("The k the numbers are for"),
       out("cost_ratio", NAPKIN_FIELD(Out, cost_ratio), "Draft cost per step")
           .help("One draft step's time ÷ one target step's"),
       out("tpot_speculative", NAPKIN_FIELD(Out, tpot_speculative), "Time per token with it",
           unit::seconds)
           .help("The target's time per token ÷ the speedup")
           .optional()}));
  r.add_chart({.id = "speculative-speedup-vs-draft",
               .title = "Speedup vs draft length, by acceptance rate",
               .estimator = "serve.speculative",
               .x = "draft_len",
               .x_label = "Draft length k (tokens)",
               .y_label = "Speedup",
               .y_unit = unit::times,
               .x_min = 1,
               .x_max = 16,
               .points = 16,
               .integer_x = true,
               .y = {"speedup"},
               .series = {{"α = 0.6", object_of({{"acceptance_rate", 0.6}})},
                          {"α = 0.7", object_of({{"acceptance_rate", 0.7}})},
                          {"α = 0.8", object_of({{"acceptance_rate", 0.8}})},
                          {"α = 0.9", object_of({{"acceptance_rate", 0.9}})}}});
}

}  // namespace napkin
