// Calculon's enumeration, loop by loop (calculon/llm/optimal_execution.py run_command and
// search; the candidate lists from calculon/llm/llm.py get_all_tensor_parallelisms,
// get_all_pipeline_parallelisms, get_valid_pipeline_interleavings, get_valid_microbatch_sizes,
// can_redo_ag). Multiplying each loop's length gives the same count as visiting them.
#include "training/calculon_space.hpp"

namespace napkin {

namespace {
// Divisors d of n with d·seq divisible by tp (get_valid_microbatch_sizes); with the defaults,
// every divisor (_factors).
long long divisors(long long n, long long seq = 1, long long tp = 1) {
  long long c = 0;
  for (long long d = 1; d * d <= n; ++d) {
    if (n % d) continue;
    c += (d * seq) % tp == 0;
    if (d * d != n) c += (n / d * seq) % tp == 0;
  }
  return c;
}
}  // namespace

long long calculon_space(const CalculonJob& j) {
  long long total = 0;
  const long long offload = j.host_memory ? 2 : 1;  // weight_offload, optimizer_offload
  for (long long tp = 1; tp <= j.gpus; ++tp) {
    if (j.gpus % tp || j.hidden % tp || j.attn_heads % tp) continue;
    const long long max_pp = j.gpus / tp < j.blocks ? j.gpus / tp : j.blocks;
    for (long long pp = 1; pp <= max_pp; ++pp) {
      if (max_pp % pp || j.gpus % (tp * pp) || j.blocks % pp) continue;
      const long long dp = j.gpus / (tp * pp);
      if (dp > j.max_batch) continue;  // get_batch_size returns None
      const long long interleavings = pp == 1 ? 1 : divisors(j.blocks / pp);
      const long long batch = j.max_batch / dp * dp;
      const long long microbatches = divisors(batch / dp, j.seq, tp);
      const long long nets =
          (tp > 1 ? j.networks : 1) * (pp > 1 ? j.networks : 1) * (dp > 1 ? j.networks : 1);
      const long long sharding = dp > 1 ? 2 : 1, dp_overlap = dp > 1 ? 2 : 1,
                      tp_overlap = tp > 1 ? 3 : 1;
      long long per = 0;
      for (int rc = 0; rc < 3; ++rc)            // full, attn_only, none
        for (int comm = 0; comm < 3; ++comm) {  // ar, p2p_rs_ag, rs_ag
          const long long redo = comm == 2 && rc != 0 ? 2 : 1;
          const long long act_offload = rc == 0 || !j.host_memory ? 1 : 2;
          per += redo * act_offload;
        }
      total += interleavings * per * sharding * dp_overlap * tp_overlap * offload * offload *
               microbatches * nets;
    }
  }
  return total;
}

}  // namespace napkin
