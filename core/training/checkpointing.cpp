#include "training/checkpointing.hpp"

#include <cmath>

#include "base/portable_math.hpp"
#include "base/units.hpp"
#include "root/areas.hpp"

namespace napkin {

namespace {
// Daly 2006 ("A higher order estimate of the optimum checkpoint interval for restart dumps",
// Future Generation Computer Systems 22(3)), with failures a Poisson process of mean time M: a
// segment of τ of work plus its checkpoint δ completes with probability e^{−(τ+δ)/M}, and each
// failure costs the restart R and the lost part of the segment. The expected wall-clock time per
// unit of work is then M·e^{R/M}·(e^{(τ+δ)/M} − 1)/τ, exactly; its inverse is the share of
// wall-clock time that trains (the goodput).
double goodput_share(double tau, double delta, double restart, double mtbf) {
  return tau / (mtbf * portable_exp(restart / mtbf) * portable_expm1((tau + delta) / mtbf));
}
}  // namespace

Result<CheckpointOut> train_checkpoint(const CheckpointIn& in, Derivation& d) {
  CheckpointOut o{};
  // Independent failures: a job on G GPUs is interrupted G times as often as one GPU.
  o.job_mtbf = in.gpu_mtbf / in.gpus;
  d.step("Mean time between the job's interruptions", "M", "\\frac{$m}{$G}",
         {{"m", "M_{\\text{GPU}}", in.gpu_mtbf, unit::seconds}, {"G", "G", in.gpus, unit::gpus}},
         o.job_mtbf, unit::seconds);
  o.interruptions_per_day = 86400 / o.job_mtbf;
  d.step("Interruptions per day", "n", "\\frac{86400\\,\\text{s}}{$M}",
         {{"M", "M", o.job_mtbf, unit::seconds}}, o.interruptions_per_day, unit::none);
  const double delta = in.checkpoint_time, mtbf = o.job_mtbf;
  // Young 1974 ("A first order approximation to the optimum checkpoint interval", CACM 17(9)):
  // τ = √(2δM) minimizes the first-order waste δ/τ + τ/(2M).
  o.young_interval = std::sqrt(2 * delta * mtbf);
  d.step("Young's interval", "\\tau_{\\text{Young}}", "\\sqrt{2 \\cdot $d \\cdot $M}",
         {{"d", "\\delta", delta, unit::seconds}, {"M", "M", mtbf, unit::seconds}},
         o.young_interval, unit::seconds);
  // Daly 2006's higher-order estimate: τ = √(2δM)·[1 + ⅓·√(δ/2M) + (δ/2M)/9] − δ while δ < 2M,
  // else τ = M.
  const double x = delta / (2 * mtbf);
  o.optimal_interval =
      delta < 2 * mtbf ? o.young_interval * (1 + std::sqrt(x) / 3 + x / 9) - delta : mtbf;
  d.step("Daly's optimum", "\\tau_{\\text{opt}}",
         "$Y \\cdot \\left(1 + \\frac{1}{3}\\sqrt{$x} + \\frac{$x}{9}\\right) - $d",
         {{"Y", "\\tau_{\\text{Young}}", o.young_interval, unit::seconds},
          {"x", "\\frac{\\delta}{2M}", x},
          {"d", "\\delta", delta, unit::seconds}},
         o.optimal_interval, unit::seconds);
  if (delta >= 2 * mtbf)
    d.warn(
        "A checkpoint takes longer than two mean times between interruptions: most segments "
        "fail before they are saved. Save faster (asynchronous checkpoints) or use fewer GPUs.");
  o.interval = in.interval > 0 ? in.interval : o.optimal_interval;
  o.goodput = goodput_share(o.interval, delta, in.restart_time, mtbf);
  d.step("Share of wall-clock time that trains", "g",
         "\\frac{$t}{$M \\cdot e^{$R/$M} \\cdot (e^{($t + $d)/$M} - 1)}",
         {{"t", "\\tau", o.interval, unit::seconds},
          {"M", "M", mtbf, unit::seconds},
          {"R", "R", in.restart_time, unit::seconds},
          {"d", "\\delta", delta, unit::seconds}},
         o.goodput, unit::fraction);
  o.lost_per_day = 86400 * (1 - o.goodput);
  d.step("Time lost per day", "L", "86400\\,\\text{s} \\cdot (1 - $g)",
         {{"g", "g", o.goodput, unit::fraction}}, o.lost_per_day, unit::seconds);
  if (in.interval > 0 && std::fabs(in.interval - o.optimal_interval) > 0.5 * o.optimal_interval)
    d.note("Interval",
           "The interval given is far from the optimum; saving at the optimum would train " +
               format_value(goodput_share(o.optimal_interval, delta, in.restart_time, mtbf),
                            unit::fraction) +
               " of the time.");
  return o;
}

void register_checkpointing(Registry& r) {
  using In = CheckpointIn;
  using Out = CheckpointOut;
  constexpr double kYear = 31557600;
  r.add(declare<train_checkpoint>(
      {"train.checkpoint", "Checkpoint interval and goodput", "training",
       "How often a large job is interrupted, how often to save a checkpoint (Young's and Daly's "
       "optimum), and the share of wall-clock time that still trains.",
       "Young 1974, CACM 17(9); Daly 2006, FGCS 22(3); Dubey et al. 2024 (Llama 3) §3.3.4",
       "docs/training.md#traincheckpoint"},
      {num("gpus", NAPKIN_FIELD(In, gpus), "GPUs", unit::gpus)
           .help("Accelerators in the job: any one failing interrupts all of them")
           .positive(1e7)
           .integer(),
       num("gpu_mtbf", NAPKIN_FIELD(In, gpu_mtbf), "Time between interruptions per GPU",
           unit::seconds)
           .help("Mean time between job interruptions, per GPU of the job (Llama 3: 419 "
                 "unexpected interruptions in 54 days on 16,384 GPUs = 5.8 years per GPU; it "
                 "counts host, network and software faults too)")
           .positive(1e3 * kYear),
       num("checkpoint_time", NAPKIN_FIELD(In, checkpoint_time), "Checkpoint time", unit::seconds)
           .help("Seconds training stops to save one checkpoint δ (with asynchronous saving, only "
                 "the copy to host memory)")
           .positive(30 * 86400),
       num("restart_time", NAPKIN_FIELD(In, restart_time), "Restart time", unit::seconds)
           .help("Seconds from a failure to training again R: detection, rescheduling, loading the "
                 "last checkpoint")
           .range(0, 30 * 86400),
       num("interval", NAPKIN_FIELD(In, interval), "Checkpoint interval (0 = optimal)",
           unit::seconds)
           .help("Seconds of training between checkpoints τ; 0 takes Daly's optimum")
           .range(0, kYear)},
      {out("job_mtbf", NAPKIN_FIELD(Out, job_mtbf), "Time between interruptions", unit::seconds)
           .help("M: a GPU's share ÷ the GPUs; the whole job stops at any one failure"),
       out("interruptions_per_day", NAPKIN_FIELD(Out, interruptions_per_day),
           "Interruptions per day")
           .help("One day ÷ M"),
       out("young_interval", NAPKIN_FIELD(Out, young_interval), "Young's interval", unit::seconds)
           .help("√(2δM): the first-order optimum (Young 1974)"),
       out("optimal_interval", NAPKIN_FIELD(Out, optimal_interval), "Optimal interval",
           unit::seconds)
           .help("Daly's higher-order optimum: Young's interval corrected for the checkpoint's own "
                 "length"),
       out("interval", NAPKIN_FIELD(Out, interval), "Interval used", unit::seconds)
           .help("The interval given, or the optimum"),
       out("goodput", NAPKIN_FIELD(Out, goodput), "Goodput", unit::fraction)
           .help("Share of wall-clock time that trains new steps: the rest saves checkpoints, "
                 "restarts and redoes work lost since the last checkpoint"),
       out("lost_per_day", NAPKIN_FIELD(Out, lost_per_day), "Time lost per day", unit::seconds)
           .help("One day × (1 − goodput)")}));
}

}  // namespace napkin
