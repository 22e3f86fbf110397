#include "kernels/clock_readings.h"

#include <chrono>
#include <cmath>

#include "kernels/dtype_values.h"

namespace conformance::kernels {
namespace {

std::vector<CaseSpec> ClockCases(TF_DataType /*dtype*/, const TypeConstraints& /*types*/) {
  CaseSpec spec;
  spec.outputs.push_back({"ts", TF_DOUBLE});
  return {spec};
}

double WallClockSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::optional<std::string> JudgeReading(const CaseSpec& /*spec*/, const Outputs& outputs) {
  const HostTensor& reading = *outputs.front();
  if (auto wrong = DtypeAndShape(reading, "ts", TF_DOUBLE, {})) return wrong;
  const double value = reading.At(0);
  const double now = WallClockSeconds();
  if (!std::isfinite(value) || std::abs(value - now) > kClockSlackSeconds) {
    return "the timestamp is " + DrawNumber(value) + ", not within " +
           DrawNumber(kClockSlackSeconds) + " s of the wall clock's " + DrawNumber(now) +
           " (seconds since the Unix epoch)";
  }
  return std::nullopt;
}

std::optional<std::string> BackInTime(const CaseSpec& /*spec*/, const Outputs& first,
                                      const Outputs& second) {
  if (!first.front() || !second.front() || first.front()->NumElements() != 1 ||
      second.front()->NumElements() != 1)
    return std::nullopt;
  const double earlier = first.front()->At(0);
  const double later = second.front()->At(0);
  if (later >= earlier) return std::nullopt;
  return "the second step's timestamp " + DrawNumber(later) + " is before the first step's " +
         DrawNumber(earlier);
}

}  // namespace

const DrawKind kClockReadings{ClockCases, JudgeReading, BackInTime};

}  // namespace conformance::kernels
