#pragma once
// Test support for the reference plugin: loads libreference_plugin.so the way TensorFlow
// does (dlopen RTLD_NOW | RTLD_LOCAL, structs pre-filled with struct_size and zeros), and
// small RAII wrappers so each test reads as the sequence of device operations it checks.
#include <gtest/gtest.h>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/tf_status.h"

namespace reference_plugin_test {

// An owned TF_Status. New statuses start out poisoned with an error, so a test notices a
// callback that forgets to write its status on success.
class TfStatus {
 public:
  TfStatus();
  ~TfStatus();
  TfStatus(const TfStatus&) = delete;
  TfStatus& operator=(const TfStatus&) = delete;

  TF_Status* get() { return status_; }
  operator TF_Status*() { return status_; }
  TF_Code code() const { return TF_GetCode(status_); }
  std::string message() const { return TF_Message(status_); }
  bool ok() const { return code() == TF_OK; }
  void poison();  // set to an error again before the next call

 private:
  TF_Status* status_;
};

// "code: message", for assertion output.
std::string describe(const TfStatus& status);

// Sets or unsets an environment variable for the lifetime of the object.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value);  // value nullptr = unset
  ~ScopedEnv();

 private:
  std::string name_;
  std::optional<std::string> previous_;
};

using InitPluginFn = void (*)(SE_PlatformRegistrationParams*, TF_Status*);

// An exported symbol of the reference plugin (dlopen'ed once per process, never closed).
void* plugin_symbol(const char* name);
// SE_InitPlugin of the reference plugin.
InitPluginFn plugin_init_function();

// One registration of the plugin, done like TensorFlow's core: SE_InitPlugin, then
// create_device_fns, create_stream_executor and create_timer_fns. The core keeps by-value
// copies of what the plugin filled and passes pointers to its copies, and so does this class.
// Teardown runs the destroy callbacks in the core's order.
class Registration {
 public:
  // Registers with default core structs; check init_status() afterwards.
  Registration();
  // For tests of SE_InitPlugin itself: lets the test edit the structs before the call.
  struct CoreStructs {
    SE_PlatformRegistrationParams params{};
    SP_Platform platform{};
    SP_PlatformFns platform_fns{};
  };
  static CoreStructs fresh_core_structs();  // struct_size set, rest zero, version 0.0.1

  ~Registration();
  Registration(const Registration&) = delete;
  Registration& operator=(const Registration&) = delete;

  const TfStatus& init_status() const { return init_status_; }
  bool ok() const { return ok_; }

  const SP_Platform* platform() const { return &platform_; }
  const SP_PlatformFns& platform_fns() const { return platform_fns_; }
  const SP_DeviceFns& device_fns() const { return device_fns_; }
  const SP_StreamExecutor& se() const { return se_; }
  const SP_TimerFns& timer_fns() const { return timer_fns_; }
  const SE_PlatformRegistrationParams& params() const { return params_; }

  int device_count() const;

 private:
  TfStatus init_status_;
  bool ok_ = false;
  SE_PlatformRegistrationParams params_{};
  SP_Platform platform_{};
  SP_PlatformFns platform_fns_{};
  SP_DeviceFns device_fns_{};
  SP_StreamExecutor se_{};
  SP_TimerFns timer_fns_{};
  bool device_fns_created_ = false, se_created_ = false, timer_fns_created_ = false;
};

// A device created with create_device; like the core, callbacks get a copy of the SP_Device.
class TestDevice {
 public:
  TestDevice(const Registration& registration, int ordinal);
  ~TestDevice();
  TestDevice(const TestDevice&) = delete;
  TestDevice& operator=(const TestDevice&) = delete;

  bool ok() const { return created_; }
  const SP_Device* get() const { return &device_; }
  const SP_StreamExecutor& se() const { return registration_.se(); }
  const Registration& registration() const { return registration_; }

 private:
  const Registration& registration_;
  SP_Device device_{};
  bool created_ = false;
};

// Device memory; freed on destruction. at() builds an SP_DeviceMemoryBase for a sub-range,
// the way the core builds one for a slice of a buffer.
class DeviceBuffer {
 public:
  DeviceBuffer(const TestDevice& device, uint64_t size);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  SP_DeviceMemoryBase* get() { return &memory_; }
  bool allocated() const { return memory_.opaque != nullptr; }
  uint64_t size() const { return memory_.size; }
  SP_DeviceMemoryBase at(uint64_t offset, uint64_t size) const;
  void release();  // deallocate now

 private:
  const TestDevice& device_;
  SP_DeviceMemoryBase memory_{};
};

class TestStream {
 public:
  explicit TestStream(const TestDevice& device);
  ~TestStream();
  TestStream(const TestStream&) = delete;
  TestStream& operator=(const TestStream&) = delete;

  SP_Stream get() const { return stream_; }
  // block_host_until_done; returns the status.
  TF_Code wait(std::string* message = nullptr);
  TF_Code status(std::string* message = nullptr);
  void destroy();  // destroy_stream now

 private:
  const TestDevice& device_;
  SP_Stream stream_ = nullptr;
};

class TestEvent {
 public:
  explicit TestEvent(const TestDevice& device);
  ~TestEvent();
  TestEvent(const TestEvent&) = delete;
  TestEvent& operator=(const TestEvent&) = delete;

  SP_Event get() const { return event_; }
  SE_EventStatus state() const;
  TF_Code record(const TestStream& stream);
  void destroy();

 private:
  const TestDevice& device_;
  SP_Event event_ = nullptr;
};

// Stalls a stream: enqueue() queues a host callback that blocks the stream's worker until
// open() is called. Lets a test observe "queued but not yet run" deterministically.
// The destructor opens the gate, so declare it after the streams it blocks.
class Gate {
 public:
  Gate();
  ~Gate();
  void enqueue(const TestDevice& device, const TestStream& stream);
  void open();
  // Blocks until the stream has reached the gate (its worker is now waiting in it).
  void wait_until_reached();

 private:
  // Shared with the queued callbacks, which may still be waking up after the Gate is gone.
  struct State {
    std::mutex mutex;
    std::condition_variable changed;
    bool open = false;
    int reached = 0;
  };
  static void block(void* state, TF_Status* status);
  std::shared_ptr<State> state_;
};

// Queues a host callback that runs `fn` and reports `code` (TF_OK by default).
void enqueue_host_function(const TestDevice& device, const TestStream& stream,
                           std::function<void()> fn, TF_Code code = TF_OK,
                           const char* message = "");

// Reads device memory synchronously (sync_memcpy_dtoh) into a fresh vector.
std::vector<uint8_t> read_device(const TestDevice& device, const SP_DeviceMemoryBase& memory,
                                 uint64_t size);
// Writes device memory synchronously (sync_memcpy_htod).
void write_device(const TestDevice& device, SP_DeviceMemoryBase memory,
                  const std::vector<uint8_t>& bytes);

// Deterministic pseudo-random bytes.
std::vector<uint8_t> pattern_bytes(uint64_t size, uint32_t seed);

// Allocator statistics as the core would ask for them.
SP_AllocatorStats allocator_stats(const TestDevice& device);
struct MemoryUsage {
  int64_t free = -1;
  int64_t total = -1;
};
MemoryUsage memory_usage(const TestDevice& device);

// Fixture: one registration and device 0 ready to use.
class ReferencePluginTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  const SP_StreamExecutor& se() const { return registration_->se(); }
  const TestDevice& device() const { return *device_; }
  Registration& registration() { return *registration_; }

  std::unique_ptr<Registration> registration_;
  std::unique_ptr<TestDevice> device_;
};

}  // namespace reference_plugin_test
