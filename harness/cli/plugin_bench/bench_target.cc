#include "bench_target.h"

#include <utility>

namespace conformance::bench {

runtime::CallResult<std::unique_ptr<BenchTarget>> BenchTarget::Open(
    std::string role, const std::filesystem::path& plugin) {
  // The runtime tier's default options (poisoned statuses): the wrapper-overhead benchmarks
  // then measure the wrappers as the conformance checks use them. Timed loops call the raw
  // table, which the session options do not affect.
  auto session = runtime::DeviceSession::Open(plugin);
  if (!session) return session.error();
  auto device = session.value()->GetDevice(0);
  if (!device) return device.error();
  return std::unique_ptr<BenchTarget>(
      new BenchTarget(std::move(role), plugin, std::move(session).value(), device.value()));
}

}  // namespace conformance::bench
