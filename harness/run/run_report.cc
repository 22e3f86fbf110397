#include "run/run_report.h"

#include <sys/utsname.h>

#include <ctime>

namespace conformance {

HostInfo CurrentHost() {
  utsname name{};
  if (uname(&name) != 0) return {};
  return HostInfo{name.sysname, name.nodename, name.release, name.version, name.machine};
}

std::map<Outcome, int> RunReport::Counts() const {
  std::map<Outcome, int> counts;
  for (Outcome outcome : kAllOutcomes) counts[outcome] = 0;
  for (const CheckResult& result : results) ++counts[result.outcome];
  return counts;
}

bool RunReport::Conformant() const {
  for (const CheckResult& result : results) {
    if (BreaksConformance(result.outcome)) return false;
  }
  return true;
}

std::string IsoUtc(std::chrono::system_clock::time_point time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace conformance
