#pragma once
// What a mock has been told to get wrong. The fault-injection one-liners of the mocks set
// these; the default actions read them (an action a test sets itself replaces them).
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "mocks/callbacks.h"
#include "tensorflow/c/tf_status.h"

namespace conformance::mocks {

// Out-parameters a mock can be told never to write.
enum class OutParam {
  kAllocateMemory,    // allocate leaves SP_DeviceMemoryBase (opaque, size) as it found it
  kAllocateSize,      // allocate writes opaque but not size
  kCreateStream,      // create_stream reports OK without writing *stream
  kCreateEvent,       // create_event reports OK without writing *event
  kMemoryUsageFree,   // device_memory_usage leaves *free
  kMemoryUsageTotal,  // device_memory_usage leaves *total
  kStatus,            // status-reporting callbacks never write TF_OK on success
  kDeviceCount,       // get_device_count leaves *device_count
  kStructSize,        // tables are filled without struct_size
  kAllocatorStats,    // get_allocator_stats returns true without writing the statistics
};

// Structs a mock fills that can be written past their end.
enum class FilledStruct {
  kPlatform,
  kPlatformFns,
  kStreamExecutor,
  kDeviceFns,
  kTimerFns,
  kDevice
};

// What the mock writes past the end of one struct: `bytes` bytes of `fill`. The default fill is
// a recognisable pattern; another (0x00, 0xFF) shows whether TensorFlow's outcome depends on
// the value that lands past the struct or only on where it lands.
struct PastEndWrite {
  static constexpr unsigned char kDefaultFill = 0x3C;
  std::size_t bytes = 0;
  unsigned char fill = kDefaultFill;
};

struct InjectedError {
  TF_Code code = TF_INTERNAL;
  std::string message;
};

class Faults {
 public:
  void FailAllocation(int nth) {
    Locked([&] { failing_allocations_.insert(nth); });
  }
  // Counts an allocate call; true when this one must fail.
  bool NextAllocationFails() {
    std::lock_guard lock(mutex_);
    return failing_allocations_.count(++allocations_) > 0;
  }
  // Callbacks are named by their C field name ("create_stream", "get_device_count", ...).
  void SetError(std::string_view callback, InjectedError error) {
    Locked([&] { errors_[std::string(callback)] = std::move(error); });
  }
  // Sets `status` to the injected error of `callback`, if any; true when it did.
  bool Inject(std::string_view callback, TF_Status* status) const {
    std::lock_guard lock(mutex_);
    auto it = errors_.find(callback);
    if (it == errors_.end()) return false;
    if (status != nullptr) TF_SetStatus(status, it->second.code, it->second.message.c_str());
    return true;
  }
  bool Inject(Callback callback, TF_Status* status) const {
    return Inject(CallbackName(callback), status);
  }
  bool HasError(std::string_view callback) const {
    std::lock_guard lock(mutex_);
    return errors_.find(callback) != errors_.end();
  }
  bool HasError(Callback callback) const { return HasError(CallbackName(callback)); }
  // Tables are filled with this callback left NULL.
  void LeaveNull(std::string_view callback) {
    Locked([&] { null_callbacks_.insert(std::string(callback)); });
  }
  bool IsNull(std::string_view callback) const {
    std::lock_guard lock(mutex_);
    return null_callbacks_.find(callback) != null_callbacks_.end();
  }
  void LeaveUnwritten(OutParam param) {
    Locked([&] { unwritten_.insert(param); });
  }
  bool Unwritten(OutParam param) const {
    std::lock_guard lock(mutex_);
    return unwritten_.count(param) > 0;
  }
  void WritePastEnd(FilledStruct which, std::size_t bytes,
                    unsigned char fill = PastEndWrite::kDefaultFill) {
    Locked([&] { past_end_[which] = {bytes, fill}; });
  }
  PastEndWrite PastEnd(FilledStruct which) const {
    std::lock_guard lock(mutex_);
    auto it = past_end_.find(which);
    return it == past_end_.end() ? PastEndWrite{} : it->second;
  }
  // The nth stream created (counting from 1) never runs its work: a gate nobody opens is the
  // first thing queued on it, so whoever waits for the stream hangs, and so does destroying
  // the mock. For libmock_plugin.so under the harness, whose timeout ends the process; a unit
  // test delays a stream with MockStreamExecutor::DelayStream and opens the gate.
  void StallStream(int nth) {
    Locked([&] { stalled_streams_.insert(nth); });
  }
  // Counts a create_stream call; true when this stream must stall.
  bool NextStreamStalls() {
    std::lock_guard lock(mutex_);
    return stalled_streams_.count(++streams_) > 0;
  }
  // The struct_size written into a struct, named as in MOCK_PLUGIN_CONFIG ("platform",
  // "se_params", "optimizer", ...): `value`, or nullopt to leave what the core pre-filled.
  // Core-filled registration params count: a plugin must not touch their struct_size.
  void SetStructSize(std::string_view which, std::optional<std::uint64_t> value) {
    Locked([&] { struct_sizes_[std::string(which)] = value; });
  }
  // After the mock filled `which`: applies its struct_size fault to `field`, which held
  // `before` when the callback started.
  void ApplyStructSize(std::string_view which, std::size_t before, std::size_t* field) const {
    std::lock_guard lock(mutex_);
    auto it = struct_sizes_.find(which);
    if (it != struct_sizes_.end()) *field = it->second ? *it->second : before;
  }
  void NeverCompleteEvents() {
    Locked([&] { events_never_complete_ = true; });
  }
  bool EventsNeverComplete() const {
    std::lock_guard lock(mutex_);
    return events_never_complete_;
  }

 private:
  template <typename F>
  void Locked(F f) {
    std::lock_guard lock(mutex_);
    f();
  }
  mutable std::mutex mutex_;
  int allocations_ = 0, streams_ = 0;
  std::set<int> failing_allocations_, stalled_streams_;
  std::map<std::string, InjectedError, std::less<>> errors_;
  std::set<std::string, std::less<>> null_callbacks_;
  std::set<OutParam> unwritten_;
  std::map<FilledStruct, PastEndWrite> past_end_;
  std::map<std::string, std::optional<std::uint64_t>, std::less<>> struct_sizes_;
  bool events_never_complete_ = false;
};

// Writes `write.bytes` bytes of `write.fill` right after a struct of `size` bytes.
void ScribblePastEnd(void* storage, std::size_t size, PastEndWrite write);
// Sets TF_OK unless the mock was told never to write statuses.
void ReportOk(const Faults& faults, TF_Status* status);

}  // namespace conformance::mocks
