// libFuzzer: the generic run-from-JSON entry every front end uses (Registry::run). The first
// byte picks the estimator, the rest is its inputs as JSON. Outputs must be finite and every
// error must carry a message.
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "registry/registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace napkin;
  if (size < 1) return 0;
  const auto& all = registry().estimators();
  const Estimator& e = all[data[0] % all.size()];
  Json inputs;
  std::string err;
  if (!Json::parse(std::string_view(reinterpret_cast<const char*>(data + 1), size - 1), inputs,
                   err))
    return 0;
  RunResult r = registry().run(e.info.id, inputs);
  if (r.ok) {
    for (const auto& [k, v] : r.outputs.members())
      if (v.is_number() && !std::isfinite(v.as_number())) __builtin_trap();
  } else if (r.error.message.empty()) {
    __builtin_trap();
  }
  (void)r.to_json(std::string(e.info.id)).dump();
  return 0;
}
