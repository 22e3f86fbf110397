#pragma once
// The known-good copy paths and leg-by-leg localisation (runtime/copy_legs.h, shared with the
// scenario engine) turned into check verdicts: a failure that names the callback writing wrong
// bytes, with details failing_call and problem so the run layer reports one root cause.
#include <cstdint>
#include <string>
#include <vector>

#include "check_support.h"
#include "runtime/copy_legs.h"

namespace conformance::runtime_checks {

using runtime::CopyIn;
using runtime::CopyOut;
using runtime::CopyPaths;
using runtime::DescribeWrongBytes;
using runtime::FindWrongLegs;
using runtime::KnownGoodPaths;
using runtime::LegFault;
using runtime::LocaliseMismatch;

// "wrong bytes written by <call> (shifted by +1): byte 1 of 4096: ..." as a failed verdict
// with details failing_call = call and problem = "wrong bytes written".
Verdict WrongBytesVerdict(const std::string& call, const std::vector<std::byte>& actual,
                          const std::vector<std::byte>& expected);

Verdict FaultVerdict(const LegFault& fault);

// For a check whose read-back differed and that would call it a matter of timing (order,
// waiting): when a leg writes wrong bytes on its own, that leg is blamed instead; otherwise
// `timing` stands, marked as a late completion of `observer`.
Verdict BlameWrongLegOr(runtime::Stream& stream, std::uint64_t seed, const std::string& observer,
                        Verdict timing);

// For a check whose read-back differed and whose own subject would otherwise be blamed: when a
// copy or fill leg writes wrong bytes on its own (at an allocation's base or inside it), that leg
// is blamed instead; otherwise `verdict` stands as it is.
Verdict BlameWrongLegOrKeep(runtime::Stream& stream, std::uint64_t seed, Verdict verdict);

}  // namespace conformance::runtime_checks
