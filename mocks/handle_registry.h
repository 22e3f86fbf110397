#pragma once
// Maps the opaque values TensorFlow hands back to a plugin's callbacks (SP_Device.device_handle,
// SP_Platform.ext, TP_Profiler.ext, the optimizer pointer) to the mock object behind them.
// Tokens are never reused, so a callback reaching a mock that was destroyed (its plugin
// unloaded) is recognised and reported instead of touching freed memory.
#include <cstdint>
#include <string>

#include "tensorflow/c/tf_status.h"

namespace conformance::mocks {

enum class MockKind { kStreamExecutor, kPlatform, kDeviceFns, kTimerFns, kOptimizer, kProfiler };

struct RegisteredMock {
  void* object = nullptr;
  MockKind kind = MockKind::kStreamExecutor;
  int ordinal = 0;  // the device a stream-executor token stands for
};

class HandleRegistry {
 public:
  static void* Register(void* object, MockKind kind, int ordinal = 0);
  // Forgets every token of `object` (called when a mock is destroyed or unloaded).
  static void Unregister(const void* object);
  // Fills `out` and returns true when `token` names a live mock of `kind`.
  static bool Lookup(const void* token, MockKind kind, RegisteredMock* out);
};

// A callback reached a mock that no longer exists (or a handle that never named one).
// Sets `status` (FAILED_PRECONDITION) when the callback has one; otherwise prints the message
// and aborts, because a void callback has no other way to report it.
void ReportStaleMock(const char* callback, TF_Status* status);
std::string StaleMockMessage(const char* callback);

}  // namespace conformance::mocks
