#include "runtime/copy_legs.h"

#include <algorithm>
#include <functional>
#include <map>
#include <mutex>
#include <set>

#include "runtime/byte_patterns.h"
#include "runtime/device.h"
#include "runtime/device_session.h"
#include "runtime/wait_idle.h"

namespace conformance::runtime {
namespace {

constexpr std::size_t kLegBytes = 4096;
// Where the interior legs start: a multiple of TensorFlow's 256-byte BFC granule, as its
// sub-allocations are.
constexpr std::uint64_t kInteriorOffset = 256;

std::vector<std::byte> Complement(std::vector<std::byte> bytes) {
  for (auto& byte : bytes) byte = ~byte;
  return bytes;
}

CallStatus WriteThrough(Stream& stream, bool async, const DeviceRange& range,
                        const std::vector<std::byte>& bytes) {
  CallStatus status = async ? stream.MemcpyHtoD(range, bytes.data(), bytes.size())
                            : stream.device()->SyncMemcpyHtoD(range, bytes.data(), bytes.size());
  if (!status.ok()) return status;
  return WaitIdle(stream);
}

CallResult<std::vector<std::byte>> ReadThrough(Stream& stream, bool async,
                                               const DeviceRange& range) {
  std::vector<std::byte> bytes(range.size(), std::byte{0xEE});
  CallStatus status = async ? stream.MemcpyDtoH(bytes.data(), range, bytes.size())
                            : stream.device()->SyncMemcpyDtoH(bytes.data(), range, bytes.size());
  if (!status.ok()) return status.error();
  if (auto waited = WaitIdle(stream); !waited.ok()) return waited.error();
  return bytes;
}

CopyPaths Probe(Stream& stream) {
  Device& device = *stream.device();
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

// One leg: `run` writes the device buffer (or, for dtoh, the host bytes it returns); the
// bytes are compared with `expected` after the stream is idle.
struct Leg {
  std::string call;
  std::vector<std::byte> expected;
  // Returns the bytes that landed, or nullopt when the call itself failed (not this check's).
  std::function<std::optional<std::vector<std::byte>>()> run;
};

std::optional<LegFault> Judge(const Leg& leg, std::uint64_t offset) {
  const auto landed = leg.run();
  if (!landed || landed->size() != leg.expected.size() || *landed == leg.expected)
    return std::nullopt;
  const std::string where =
      offset == 0 ? ""
                  : " at an address inside an allocation (opaque + " + std::to_string(offset) + ")";
  return LegFault{leg.call, kWrongBytesWritten,
                  "wrong bytes written by " + leg.call + where + " (" +
                      DescribeWrongBytes(landed->data(), leg.expected.data(), landed->size()) +
                      ")"};
}

// The legs on `kLegBytes` at `offset` into allocations of offset + kLegBytes bytes. The
// known-good paths always move whole allocations (their probe ran at the base), and a leg's
// bytes are judged on the whole allocation, so a callback that ignores an address's offset
// shows as wrong bytes of that callback and of no other.
std::vector<LegFault> FindWrongLegsAt(Stream& stream, std::uint64_t seed, std::uint64_t offset,
                                      const std::set<std::string>& skip) {
  Device& device = *stream.device();
  const std::uint64_t whole = offset + kLegBytes;
  auto first = device.Allocate(whole);
  auto second = device.Allocate(whole);
  if (!first.ok() || !second.ok()) return {};
  const DeviceRange a = first->Range(offset, kLegBytes), b = second->Range(offset, kLegBytes);
  const DeviceRange a_all = first->All(), b_all = second->All();
  const auto pattern = SeededBytes(seed, kLegBytes);
  const auto poison = Complement(SeededBytes(seed, whole));
  // `bytes` where the leg's range lies in the whole allocation, `poison` around it.
  auto spliced = [&](const std::vector<std::byte>& bytes) {
    std::vector<std::byte> all = poison;
    std::copy(bytes.begin(), bytes.end(), all.begin() + static_cast<std::ptrdiff_t>(offset));
    return all;
  };
  // The whole allocation after `write` ran on it pre-filled with `poison`.
  auto device_after =
      [&](const std::function<CallStatus()>& write) -> std::optional<std::vector<std::byte>> {
    if (!CopyIn(stream, a_all, poison).ok()) return std::nullopt;
    if (!write().ok() || !WaitIdle(stream).ok()) return std::nullopt;
    auto read = CopyOut(stream, a_all);
    return read.ok() ? std::optional(std::move(*read)) : std::nullopt;
  };
  auto host_after = [&]() -> std::optional<std::vector<std::byte>> {
    if (!CopyIn(stream, a_all, spliced(pattern)).ok()) return std::nullopt;
    std::vector<std::byte> host = Complement(pattern);
    if (!stream.MemcpyDtoH(host.data(), a, kLegBytes).ok() || !WaitIdle(stream).ok())
      return std::nullopt;
    return host;
  };
  auto filled = [](std::vector<std::byte> unit) {
    std::vector<std::byte> bytes;
    while (bytes.size() < kLegBytes) bytes.insert(bytes.end(), unit.begin(), unit.end());
    return bytes;
  };

  std::vector<Leg> legs;
  legs.push_back({"memcpy_htod", spliced(pattern), [&] {
                    return device_after(
                        [&] { return stream.MemcpyHtoD(a, pattern.data(), kLegBytes); });
                  }});
  legs.push_back({"memcpy_dtoh", pattern, [&] { return host_after(); }});
  legs.push_back({"memcpy_dtod", spliced(pattern), [&] {
                    if (!CopyIn(stream, b_all, spliced(pattern)).ok())
                      return std::optional<std::vector<std::byte>>();
                    return device_after([&] { return stream.MemcpyDtoD(a, b, kLegBytes); });
                  }});
  // Plugins built against TF <= 2.9 headers have no fills; their other legs still count.
  if (stream.device()->session().GenerationHas("memset")) {
    legs.push_back({"memset", spliced(filled({std::byte{0x5a}})), [&] {
                      return device_after([&] { return stream.Memset(a, 0x5a, kLegBytes); });
                    }});
    legs.push_back(
        {"memset32",
         spliced(filled({std::byte{0x67}, std::byte{0x45}, std::byte{0x23}, std::byte{0x01}})),
         [&] { return device_after([&] { return stream.Memset32(a, 0x01234567u, kLegBytes); }); }});
    legs.push_back({"mem_zero", spliced(filled({std::byte{0}})),
                    [&] { return device_after([&] { return stream.MemZero(a, kLegBytes); }); }});
  }

  std::vector<LegFault> faults;
  for (const Leg& leg : legs) {
    if (skip.contains(leg.call)) continue;
    if (auto fault = Judge(leg, offset)) faults.push_back(std::move(*fault));
  }
  return faults;
}

}  // namespace

const CopyPaths& KnownGoodPaths(Stream& stream) {
  static std::mutex mutex;
  static std::map<const Device*, CopyPaths> probed;
  const std::lock_guard lock(mutex);
  auto found = probed.find(stream.device());
  if (found == probed.end()) found = probed.emplace(stream.device(), Probe(stream)).first;
  return found->second;
}

CallStatus CopyIn(Stream& stream, const DeviceRange& range, const std::vector<std::byte>& bytes) {
  return WriteThrough(stream, KnownGoodPaths(stream).async_in, range, bytes);
}

CallResult<std::vector<std::byte>> CopyOut(Stream& stream, const DeviceRange& range) {
  return ReadThrough(stream, KnownGoodPaths(stream).async_out, range);
}

std::vector<LegFault> FindWrongLegs(Stream& stream, std::uint64_t seed) {
  std::vector<LegFault> faults;
  // At the base of an allocation, then inside one (TensorFlow's BFC sub-allocations and sliced
  // tensors: 950 of the 1009 device-to-host copies of its recorded workload). A leg wrong at the
  // base is not judged again inside.
  std::set<std::string> wrong;
  for (const std::uint64_t offset : {std::uint64_t{0}, kInteriorOffset}) {
    for (LegFault& fault : FindWrongLegsAt(stream, seed, offset, wrong)) {
      wrong.insert(fault.failing_call);
      faults.push_back(std::move(fault));
    }
  }
  return faults;
}

std::optional<LegFault> LocaliseMismatch(Stream& stream, const DeviceRange& range,
                                         const std::vector<std::byte>& expected,
                                         const std::string& observer, std::uint64_t seed) {
  (void)WaitIdle(stream);
  auto again = CopyOut(stream, range);
  if (again.ok() && *again == expected) return std::nullopt;  // it arrived, late
  std::vector<LegFault> faults = FindWrongLegs(stream, seed);
  if (!faults.empty()) return faults.front();
  std::string how = again.ok() ? DescribeWrongBytes(again->data(), expected.data(), expected.size())
                               : "the re-read failed: " + again.error().Describe();
  return LegFault{observer, kWrongBytesWritten,
                  "wrong bytes after " + observer +
                      ", still wrong once everything was synchronised (" + how + ")"};
}

}  // namespace conformance::runtime
