#include "leg_verdicts.h"

#include <algorithm>

namespace conformance::runtime_checks {

Verdict WrongBytesVerdict(const std::string& call, const std::vector<std::byte>& actual,
                          const std::vector<std::byte>& expected) {
  return FaultVerdict({call, runtime::kWrongBytesWritten,
                       "wrong bytes written by " + call + " (" +
                           DescribeWrongBytes(actual.data(), expected.data(),
                                              std::min(actual.size(), expected.size())) +
                           ")"});
}

Verdict FaultVerdict(const LegFault& fault) {
  return Verdict::Fail(fault.description,
                       {{"failing_call", fault.failing_call}, {"problem", fault.problem}});
}

Verdict BlameWrongLegOr(runtime::Stream& stream, std::uint64_t seed, const std::string& observer,
                        Verdict timing) {
  (void)WaitIdle(stream);
  std::vector<LegFault> faults = FindWrongLegs(stream, seed);
  if (!faults.empty()) return FaultVerdict(faults.front());
  timing.details.emplace("failing_call", observer);
  timing.details.emplace("problem", runtime::kLateCompletion);
  return timing;
}

Verdict BlameWrongLegOrKeep(runtime::Stream& stream, std::uint64_t seed, Verdict verdict) {
  (void)WaitIdle(stream);
  std::vector<LegFault> faults = FindWrongLegs(stream, seed);
  return faults.empty() ? std::move(verdict) : FaultVerdict(faults.front());
}

}  // namespace conformance::runtime_checks
