// Several devices of one plugin are independent: memory written on one is not visible on
// another, whatever the plugin shares behind the scenes.
#include <string>
#include <vector>

#include "check_support.h"
#include "runtime_units.h"

namespace conformance::runtime_checks {
namespace {

constexpr std::uint64_t kBytes = 64 << 10;

Verdict Independent(CheckEnv& env) {
  auto count = env.session.DeviceCount();
  if (!count.ok()) return Verdict::CallFailed(count.error(), "get_device_count");
  if (count.value() < 2)
    return Verdict::NotSupported("the plugin has " + std::to_string(count.value()) + " device");
  auto second = env.session.GetDevice(1);
  if (!second.ok()) return Verdict::CallFailed(second.error(), "create_device(1)");
  runtime::Device* devices[2] = {&env.device, second.value()};
  std::vector<runtime::DeviceBuffer> buffers;
  std::vector<runtime::Stream> streams;
  for (runtime::Device* device : devices) {
    auto buffer = device->Allocate(kBytes);
    if (!buffer.ok())
      return Verdict::CallFailed(buffer.error(),
                                 "allocate on device " + std::to_string(device->ordinal()));
    auto stream = device->CreateStream();
    if (!stream.ok())
      return Verdict::CallFailed(stream.error(),
                                 "create_stream on device " + std::to_string(device->ordinal()));
    buffers.push_back(std::move(buffer.value()));
    streams.push_back(std::move(stream.value()));
  }
  // Write both, then rewrite each in turn and check the other kept its bytes.
  std::vector<std::byte> contents[2] = {SeededBytes(env.seed, kBytes),
                                        SeededBytes(env.seed + 1, kBytes)};
  for (int d = 0; d < 2; ++d) {
    if (auto status = WriteDevice(streams[d], buffers[d].All(), contents[d]); !status.ok()) {
      return Verdict::CallFailed(status.error(), "writing device " + std::to_string(d));
    }
  }
  for (int d = 0; d < 2; ++d) {
    contents[d] = SeededBytes(env.seed + 2 + d, kBytes);
    if (auto status = WriteDevice(streams[d], buffers[d].All(), contents[d]); !status.ok()) {
      return Verdict::CallFailed(status.error(), "rewriting device " + std::to_string(d));
    }
    for (int other = 0; other < 2; ++other) {
      auto read = ReadDevice(streams[other], buffers[other].All());
      if (!read.ok())
        return Verdict::CallFailed(read.error(), "reading device " + std::to_string(other));
      if (auto mismatch = FirstMismatch(read->data(), contents[other].data(), kBytes)) {
        return Verdict::Fail("after writing a buffer on device " + std::to_string(d) +
                             ", a buffer on device " + std::to_string(other) +
                             " changed: " + *mismatch);
      }
    }
  }
  return Verdict::Pass({{"devices", std::to_string(count.value())}});
}

}  // namespace

std::vector<TestUnit> DeviceUnits() {
  return {MakeRuntimeUnit(
      "runtime.devices", "runtime", {"runtime.devices.independent"}, [](CheckEnv& env) {
        RunCheck(env, "runtime.devices.independent", [&] { return Independent(env); });
      })};
}

}  // namespace conformance::runtime_checks
