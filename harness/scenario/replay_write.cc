// RuntimeBackend::ReplayWrite: one write step of a scenario done again on its own, with its own
// arguments. The whole-buffer legs (runtime/copy_legs.h) copy and fill 4096 bytes at offset 0
// and 256 with nothing past the end, so a fill wrong only at an odd size, one that runs a byte
// past its range, or a synchronous copy the wrong way round passes them; done again with the
// step's size and offsets, on allocations of the step's sizes, the same call shows its fault.
#include <algorithm>
#include <cstring>

#include "runtime/byte_patterns.h"
#include "runtime/copy_legs.h"
#include "runtime/problems.h"
#include "runtime/wait_idle.h"
#include "scenario/runtime_backend.h"

namespace conformance::scenario {
namespace {

std::vector<std::byte> Complement(std::vector<std::byte> bytes) {
  for (std::byte& b : bytes) b = ~b;
  return bytes;
}

// The bytes the call must leave in the range it writes: `unit` repeated, or the source's.
std::vector<std::byte> Written(const WriteCall& write, const std::vector<std::byte>& source) {
  std::vector<std::byte> bytes(write.size);
  if (write.call.ends_with("memcpy_dtod")) {
    std::copy_n(source.begin() + static_cast<std::ptrdiff_t>(write.src_offset), write.size,
                bytes.begin());
    return bytes;
  }
  std::vector<std::byte> unit{std::byte{0}};
  if (write.call == "memset") unit = {static_cast<std::byte>(write.value & 0xffu)};
  if (write.call == "memset32") {
    unit.resize(4);
    std::memcpy(unit.data(), &write.value, 4);  // the device's (host's) byte order
  }
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = unit[i % unit.size()];
  return bytes;
}

std::string Arguments(const WriteCall& write) {
  std::string text = std::to_string(write.size) + " bytes at offset " +
                     std::to_string(write.dst_offset) + " of a " + std::to_string(write.dst_size) +
                     "-byte allocation";
  if (write.call.ends_with("memcpy_dtod"))
    text += ", from offset " + std::to_string(write.src_offset) + " of a " +
            std::to_string(write.src_size) + "-byte one";
  return text;
}

}  // namespace

std::optional<WrongLeg> RuntimeBackend::ReplayWrite(const WriteCall& write, uint64_t seed) {
  const bool copy = write.call.ends_with("memcpy_dtod");
  if (write.dst_offset + write.size > write.dst_size ||
      (copy && write.src_offset + write.size > write.src_size) || write.size == 0)
    return std::nullopt;
  runtime::Device* target = DeviceAt(write.device);
  if (!target) return std::nullopt;
  auto stream = target->CreateStream();
  if (!stream.ok() || !runtime::KnownGoodPaths(*stream).trusted) return std::nullopt;
  auto dst = target->Allocate(write.dst_size);
  auto src = target->Allocate(copy ? write.src_size : 1);
  if (!dst.ok() || !src.ok()) return std::nullopt;
  const std::vector<std::byte> poison = Complement(runtime::SeededBytes(seed, write.dst_size));
  const std::vector<std::byte> source = runtime::SeededBytes(seed + 1, copy ? write.src_size : 1);
  if (!runtime::CopyIn(*stream, dst->All(), poison).ok()) return std::nullopt;
  if (copy && !runtime::CopyIn(*stream, src->All(), source).ok()) return std::nullopt;

  const runtime::DeviceRange at = dst->Range(write.dst_offset, write.size);
  runtime::CallStatus status;
  if (write.call == "memset") {
    status = stream->Memset(at, static_cast<uint8_t>(write.value & 0xffu), write.size);
  } else if (write.call == "memset32") {
    status = stream->Memset32(at, write.value, write.size);
  } else if (write.call == "mem_zero") {
    status = stream->MemZero(at, write.size);
  } else if (write.call == "memcpy_dtod") {
    status = stream->MemcpyDtoD(at, src->Range(write.src_offset, write.size), write.size);
  } else if (write.call == "sync_memcpy_dtod") {
    status = target->SyncMemcpyDtoD(at, src->Range(write.src_offset, write.size), write.size);
  } else {
    return std::nullopt;
  }
  if (!status.ok() || !runtime::WaitIdle(*stream).ok()) return std::nullopt;
  auto landed = runtime::CopyOut(*stream, dst->All());
  if (!landed.ok() || landed->size() != poison.size()) return std::nullopt;
  std::vector<std::byte> expected = poison;
  const std::vector<std::byte> written = Written(write, source);
  std::copy(written.begin(), written.end(),
            expected.begin() + static_cast<std::ptrdiff_t>(write.dst_offset));
  if (*landed == expected) return std::nullopt;
  return WrongLeg{write.call, runtime::kWrongBytesWritten,
                  "wrong bytes written by " + write.call +
                      " done again on its own with its step's "
                      "arguments (" +
                      Arguments(write) + "; " +
                      runtime::DescribeWrongBytes(landed->data(), expected.data(), landed->size()) +
                      ")"};
}

}  // namespace conformance::scenario
