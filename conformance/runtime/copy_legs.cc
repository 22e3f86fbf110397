#include "copy_legs.h"

#include <algorithm>
#include <functional>
#include <map>
#include <mutex>

namespace conformance::runtime_checks {
namespace {

constexpr std::size_t kLegBytes = 4096;
constexpr int kMaxShift = 16;

std::vector<std::byte> Complement(std::vector<std::byte> bytes) {
  for (auto& byte : bytes) byte = ~byte;
  return bytes;
}

std::string Hex(std::byte value) {
  static const char* digits = "0123456789abcdef";
  const auto v = static_cast<unsigned>(value);
  return std::string("0x") + digits[v >> 4] + digits[v & 15];
}

// The data landed `shift` bytes away from where it belongs (positive: later), everywhere both
// ranges overlap, and that is not also true of no shift at all.
bool ShiftedBy(const std::byte* actual, const std::byte* expected, std::size_t size, int shift) {
  const std::size_t magnitude = static_cast<std::size_t>(shift < 0 ? -shift : shift);
  if (magnitude >= size / 2) return false;
  for (std::size_t i = magnitude; i < size; ++i) {
    const std::size_t from = shift > 0 ? i - magnitude : i;
    const std::size_t to = shift > 0 ? i : i - magnitude;
    if (actual[to] != expected[from]) return false;
  }
  return true;
}

std::string Classify(const std::byte* actual, const std::byte* expected, std::size_t size) {
  bool constant = true;
  for (std::size_t i = 1; i < size && constant; ++i) constant = actual[i] == actual[0];
  if (constant) return actual[0] == std::byte{0} ? "all zeros" : "a constant fill of " + Hex(actual[0]);
  for (int shift = 1; shift <= kMaxShift; ++shift) {
    if (ShiftedBy(actual, expected, size, shift)) return "shifted by +" + std::to_string(shift);
    if (ShiftedBy(actual, expected, size, -shift)) return "shifted by -" + std::to_string(shift);
  }
  std::size_t prefix = 0;
  while (prefix < size && actual[prefix] == expected[prefix]) ++prefix;
  bool rest_differs = true;
  for (std::size_t i = prefix; i < size && rest_differs; ++i) rest_differs = actual[i] != expected[i];
  if (prefix > 0 && rest_differs) {
    return "only the first " + std::to_string(prefix) + " of " + std::to_string(size) + " bytes written";
  }
  std::size_t suffix = 0;
  while (suffix < size && actual[size - 1 - suffix] == expected[size - 1 - suffix]) ++suffix;
  bool head_differs = true;
  for (std::size_t i = 0; i + suffix < size && head_differs; ++i) head_differs = actual[i] != expected[i];
  if (suffix > 0 && head_differs) {
    return "only the last " + std::to_string(suffix) + " of " + std::to_string(size) + " bytes written";
  }
  return "wrong bytes";
}

runtime::CallStatus WriteThrough(runtime::Stream& stream, bool async, const runtime::DeviceRange& range,
                                 const std::vector<std::byte>& bytes) {
  runtime::CallStatus status = async ? stream.MemcpyHtoD(range, bytes.data(), bytes.size())
                                     : stream.device()->SyncMemcpyHtoD(range, bytes.data(), bytes.size());
  if (!status.ok()) return status;
  return WaitIdle(stream);
}

runtime::CallResult<std::vector<std::byte>> ReadThrough(runtime::Stream& stream, bool async,
                                                        const runtime::DeviceRange& range) {
  std::vector<std::byte> bytes(range.size(), std::byte{0xEE});
  runtime::CallStatus status = async ? stream.MemcpyDtoH(bytes.data(), range, bytes.size())
                                     : stream.device()->SyncMemcpyDtoH(bytes.data(), range, bytes.size());
  if (!status.ok()) return status.error();
  if (auto waited = WaitIdle(stream); !waited.ok()) return waited.error();
  return bytes;
}

CopyPaths Probe(runtime::Stream& stream) {
  runtime::Device& device = *stream.device();
  auto buffer = device.Allocate(kLegBytes);
  if (!buffer.ok()) return {};
  const auto pattern = SeededBytes(0x1e95, kLegBytes);
  for (bool async_in : {true, false}) {
    for (bool async_out : {true, false}) {
      if (!WriteThrough(stream, async_in, buffer->All(), pattern).ok()) continue;
      auto read = ReadThrough(stream, async_out, buffer->All());
      if (read.ok() && *read == pattern) return {async_in, async_out, true};
    }
  }
  return {};
}

std::string CallName(const char* name, bool async) { return async ? name : std::string("sync_") + name; }

// One leg: `run` writes the device buffer (or, for dtoh, the host bytes it returns); the
// bytes are compared with `expected` after the stream is idle.
struct Leg {
  std::string call;
  std::vector<std::byte> expected;
  // Returns the bytes that landed, or nullopt when the call itself failed (not this check's).
  std::function<std::optional<std::vector<std::byte>>()> run;
};

std::optional<LegFault> Judge(const Leg& leg) {
  const auto landed = leg.run();
  if (!landed || landed->size() != leg.expected.size() || *landed == leg.expected) return std::nullopt;
  return LegFault{leg.call, "wrong bytes written",
                  "wrong bytes written by " + leg.call + " (" +
                      DescribeWrongBytes(landed->data(), leg.expected.data(), landed->size()) + ")"};
}

}  // namespace

std::string DescribeWrongBytes(const std::byte* actual, const std::byte* expected, std::size_t size) {
  const auto first = FirstMismatch(actual, expected, size);
  if (!first) return "";
  return Classify(actual, expected, size) + "; " + *first;
}

Verdict WrongBytesVerdict(const std::string& call, const std::vector<std::byte>& actual,
                          const std::vector<std::byte>& expected) {
  return FaultVerdict({call, "wrong bytes written",
                       "wrong bytes written by " + call + " (" +
                           DescribeWrongBytes(actual.data(), expected.data(), std::min(actual.size(), expected.size())) +
                           ")"});
}

const CopyPaths& KnownGoodPaths(runtime::Stream& stream) {
  static std::mutex mutex;
  static std::map<const runtime::Device*, CopyPaths> probed;
  const std::lock_guard lock(mutex);
  auto found = probed.find(stream.device());
  if (found == probed.end()) found = probed.emplace(stream.device(), Probe(stream)).first;
  return found->second;
}

runtime::CallStatus CopyIn(runtime::Stream& stream, const runtime::DeviceRange& range, const std::vector<std::byte>& bytes) {
  return WriteThrough(stream, KnownGoodPaths(stream).async_in, range, bytes);
}

runtime::CallResult<std::vector<std::byte>> CopyOut(runtime::Stream& stream, const runtime::DeviceRange& range) {
  return ReadThrough(stream, KnownGoodPaths(stream).async_out, range);
}

std::vector<LegFault> FindWrongLegs(runtime::Stream& stream, std::uint64_t seed) {
  runtime::Device& device = *stream.device();
  auto first = device.Allocate(kLegBytes);
  auto second = device.Allocate(kLegBytes);
  if (!first.ok() || !second.ok()) return {};
  const runtime::DeviceRange a = first->All(), b = second->All();
  const auto pattern = SeededBytes(seed, kLegBytes);
  const auto poison = Complement(pattern);
  // The device range after `write` ran on a range pre-filled with `poison`.
  auto device_after = [&](const std::function<runtime::CallStatus()>& write) -> std::optional<std::vector<std::byte>> {
    if (!CopyIn(stream, a, poison).ok()) return std::nullopt;
    if (!write().ok() || !WaitIdle(stream).ok()) return std::nullopt;
    auto read = CopyOut(stream, a);
    return read.ok() ? std::optional(std::move(*read)) : std::nullopt;
  };
  auto host_after = [&](bool async) -> std::optional<std::vector<std::byte>> {
    if (!CopyIn(stream, a, pattern).ok()) return std::nullopt;
    std::vector<std::byte> host = poison;
    const runtime::CallStatus status = async ? stream.MemcpyDtoH(host.data(), a, kLegBytes)
                                             : device.SyncMemcpyDtoH(host.data(), a, kLegBytes);
    if (!status.ok() || !WaitIdle(stream).ok()) return std::nullopt;
    return host;
  };
  auto filled = [](std::vector<std::byte> unit) {
    std::vector<std::byte> bytes;
    while (bytes.size() < kLegBytes) bytes.insert(bytes.end(), unit.begin(), unit.end());
    return bytes;
  };

  std::vector<Leg> legs;
  for (bool async : {true, false}) {
    legs.push_back({CallName("memcpy_htod", async), pattern, [&, async] {
                      return device_after([&] {
                        return async ? stream.MemcpyHtoD(a, pattern.data(), kLegBytes)
                                     : device.SyncMemcpyHtoD(a, pattern.data(), kLegBytes);
                      });
                    }});
    legs.push_back({CallName("memcpy_dtoh", async), pattern, [&, async] { return host_after(async); }});
    if (!async && device.se().sync_memcpy_dtod == nullptr) continue;  // optional in the newest core
    legs.push_back({CallName("memcpy_dtod", async), pattern, [&, async] {
                      if (!CopyIn(stream, b, pattern).ok()) return std::optional<std::vector<std::byte>>();
                      return device_after([&] {
                        return async ? stream.MemcpyDtoD(a, b, kLegBytes) : device.SyncMemcpyDtoD(a, b, kLegBytes);
                      });
                    }});
  }
  // Plugins built against TF <= 2.9 headers have no fills; their other legs still count.
  if (stream.device()->session().GenerationHas("memset")) {
    legs.push_back({"memset", filled({std::byte{0x5a}}),
                    [&] { return device_after([&] { return stream.Memset(a, 0x5a, kLegBytes); }); }});
    legs.push_back({"memset32", filled({std::byte{0x67}, std::byte{0x45}, std::byte{0x23}, std::byte{0x01}}),
                    [&] { return device_after([&] { return stream.Memset32(a, 0x01234567u, kLegBytes); }); }});
    legs.push_back({"mem_zero", filled({std::byte{0}}),
                    [&] { return device_after([&] { return stream.MemZero(a, kLegBytes); }); }});
  }

  std::vector<LegFault> faults;
  for (const Leg& leg : legs) {
    if (auto fault = Judge(leg)) faults.push_back(std::move(*fault));
  }
  return faults;
}

std::optional<LegFault> LocaliseMismatch(runtime::Stream& stream, const runtime::DeviceRange& range,
                                         const std::vector<std::byte>& expected, const std::string& observer,
                                         std::uint64_t seed) {
  (void)WaitIdle(stream);
  auto again = CopyOut(stream, range);
  if (again.ok() && *again == expected) return std::nullopt;  // it arrived, late
  std::vector<LegFault> faults = FindWrongLegs(stream, seed);
  if (!faults.empty()) return faults.front();
  std::string how = again.ok() ? DescribeWrongBytes(again->data(), expected.data(), expected.size())
                               : "the re-read failed: " + again.error().Describe();
  return LegFault{observer, "wrong bytes written", "wrong bytes after " + observer + ", still wrong once everything "
                                                   "was synchronised (" + how + ")"};
}

Verdict FaultVerdict(const LegFault& fault) {
  return Verdict::Fail(fault.description, {{"failing_call", fault.failing_call}, {"problem", fault.problem}});
}

Verdict BlameWrongLegOr(runtime::Stream& stream, std::uint64_t seed, const std::string& observer, Verdict timing) {
  (void)WaitIdle(stream);
  std::vector<LegFault> faults = FindWrongLegs(stream, seed);
  if (!faults.empty()) return FaultVerdict(faults.front());
  timing.details.emplace("failing_call", observer);
  timing.details.emplace("problem", "late completion");
  return timing;
}

}  // namespace conformance::runtime_checks
