#pragma once
// What the executor needs from a device, in scenario terms: slots instead of handles, one call
// per scenario step. The real implementation drives the plugin through the runtime layer
// (runtime_backend.h); tests drive an in-memory fake. Keeping the executor behind this seam
// lets its model and verification logic be tested without any plugin.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace conformance::scenario {

// What a plugin call reported. code is a TF_Code (0 = OK).
struct CallStatus {
  int code = 0;
  std::string message;
  // The plugin left an optional callback NULL (sync_memcpy_dtod, which the newest TensorFlow
  // never calls): the scenario cannot run, which is not_supported, not a failure.
  bool optional_callback_missing = false;
  // The code is plugin_conformance's, not the plugin's (the plugin returned false or NULL, left
  // an out-parameter unwritten, ...): messages must not read as if the plugin returned it.
  bool synthesized = false;
  // The callback that failed and how, in runtime/problems.h's phrases ("memcpy_dtoh",
  // "returned an error status"), so a step failure joins the root cause of the same defect
  // found by the C++ checks. Empty when the failure is not one callback's.
  std::string failing_call{};
  std::string problem{};
  bool ok() const { return code == 0; }
};

struct BufferAt {
  int slot = -1;
  uint64_t offset = 0;
};

// A copy or fill callback found writing wrong bytes on its own. failing_call and problem are
// the pair the C++ runtime checks use ("memcpy_htod", "wrong bytes written"), so the run layer
// groups a scenario's failure with theirs into one root cause.
struct WrongLeg {
  std::string failing_call{};
  std::string problem{};
  std::string description;  // "wrong bytes written by memcpy_htod (shifted by +1; byte 0 ...)"
};

// One write step of a scenario as it ran (a fill or a device-to-device copy), so a wrong result
// can be put down to that call with the step's own arguments: a callback wrong only at an odd
// size, past its end or in one direction passes the whole-buffer legs (runtime/copy_legs.h).
struct WriteCall {
  std::string call;  // "memset", "memset32", "mem_zero", "memcpy_dtod", "sync_memcpy_dtod"
  int device = 0;    // the destination's device; the source's must be the same
  uint64_t dst_size = 0, dst_offset = 0;  // the destination allocation's size, the range's start
  uint64_t src_size = 0, src_offset = 0;  // copies only: the same for the source
  uint64_t size = 0;
  uint32_t value = 0;  // memset: the byte, memset32: the pattern
};

// Slot numbers come from the Program: every creation has its own, so a backend keeps a table
// sized up front and threads of a concurrent block never touch the same entry.
class Backend {
 public:
  virtual ~Backend() = default;

  virtual void Reserve(int buffers, int streams, int events) = 0;
  virtual int DeviceCount() = 0;
  virtual bool SupportsUnifiedMemory() = 0;
  // Bytes of device memory the device reports (for `capacity` sizes); empty when unknown.
  virtual std::optional<uint64_t> DeviceCapacity(int device) = 0;

  // False when the plugin returned NULL. Size 0 may legitimately give NULL.
  virtual bool Allocate(int slot, BufferKind kind, int device, uint64_t size) = 0;
  // failing_call / problem of the last Allocate that failed in the plugin (empty: unknown), so a
  // NULL allocation groups with the runtime checks' root cause for the same callback.
  virtual std::map<std::string, std::string> LastAllocationBlame() const { return {}; }
  // After an Allocate without a slot (one expected to fail) that succeeded: whether the memory
  // is real at its far end (runtime/allocation_probe.h), so an overcommitting host device's
  // legitimate success is not a defect.
  virtual bool LastUnexpectedAllocationUsable() const { return false; }
  virtual void Deallocate(int slot) = 0;
  virtual void DeallocateNull(BufferKind kind, int device) = 0;
  // The host address of a host or unified buffer (nullptr for size 0).
  virtual uint8_t* HostAddress(int slot) = 0;

  virtual CallStatus CreateStream(int slot, int device) = 0;
  virtual void DestroyStream(int slot) = 0;
  virtual CallStatus CreateEvent(int slot, int device) = 0;
  virtual void DestroyEvent(int slot) = 0;

  // `stream` empty: the synchronous variant.
  virtual CallStatus MemcpyHtoD(std::optional<int> stream, BufferAt dst, const void* src,
                                uint64_t size) = 0;
  virtual CallStatus MemcpyDtoH(std::optional<int> stream, void* dst, BufferAt src,
                                uint64_t size) = 0;
  virtual CallStatus MemcpyDtoD(std::optional<int> stream, BufferAt dst, BufferAt src,
                                uint64_t size) = 0;
  virtual CallStatus Memset(int stream, BufferAt dst, uint8_t value, uint64_t size) = 0;
  virtual CallStatus Memset32(int stream, BufferAt dst, uint32_t value, uint64_t size) = 0;
  virtual CallStatus MemZero(int stream, BufferAt dst, uint64_t size) = 0;

  virtual CallStatus RecordEvent(int stream, int event) = 0;
  virtual CallStatus WaitForEvent(int stream, int event) = 0;
  virtual CallStatus CreateStreamDependency(int dependent, int other) = 0;
  // Queues a host callback (host_callback) that holds `stream` until the calling thread waits
  // for a while (in a host synchronisation that needs the held work), or Settle opens it. Work
  // on another stream that is not ordered after the hold then runs first, every time: an
  // ordering defect shows without depending on how fast the device is.
  virtual CallStatus HoldStream(int stream) = 0;
  virtual CallStatus BlockHostUntilDone(int stream) = 0;
  virtual CallStatus BlockHostForEvent(int event) = 0;
  virtual CallStatus SynchronizeAllActivity(int device) = 0;
  virtual CallStatus GetStreamStatus(int stream) = 0;
  virtual EventState GetEventStatus(int event) = 0;

  // Localising a read-back that differed (executor.cc), called once every step has stopped.
  // Settle: wait for every live stream and every device by every means the API offers.
  virtual void Settle() = 0;
  // The range's bytes read through copy paths known to round-trip; empty when there are none.
  virtual std::optional<std::vector<uint8_t>> ReadTrusted(BufferAt src, uint64_t size) = 0;
  // The first copy or fill callback of `device` that writes wrong bytes when checked on its own.
  virtual std::optional<WrongLeg> FindWrongLeg(int device, uint64_t seed) = 0;
  // The write done again on fresh allocations of the same sizes (the destination pre-filled with
  // the complement of seeded bytes, the source with seeded bytes, both through the known-good
  // copy paths) and waited for: the fault when the destination's bytes then differ from what the
  // call must leave (the range written, every other byte untouched). nullopt when it is right,
  // the call fails, or nothing can be judged.
  virtual std::optional<WrongLeg> ReplayWrite(const WriteCall& /*write*/, uint64_t /*seed*/) {
    return std::nullopt;
  }
  // Whether bytes written to device buffer `other` show up in device buffer `slot` (both from
  // offset 0, through the known-good copy paths): the two allocations share memory. Destroys
  // both buffers' contents; only for localising once every step stopped.
  virtual bool SharesMemory(int /*slot*/, int /*other*/) { return false; }
  // The first of `waits` (host waits the scenario called: "block_host_until_done", ...) that
  // returns before earlier work ran, each checked on its own (runtime/wait_probe.h).
  virtual std::optional<WrongLeg> FindEarlyWait(int /*device*/,
                                                const std::set<std::string>& /*waits*/) {
    return std::nullopt;
  }
};

}  // namespace conformance::scenario
