#pragma once
// gmock classes for SP_PlatformFns (with SE_InitPlugin's own work), SP_DeviceFns and
// SP_TimerFns, and MockPlugin: the four wired together into a plugin whose default actions
// register a working device platform (name MOCK, device type MOCK_DEVICE, two devices).
//
//   MockPlugin plugin;                          // NiceMock tables inside
//   plugin.platform.options().device_count = 1;
//   EXPECT_CALL(plugin.platform, CreateDevice).Times(1);
//   SE_InitPlugin-style: plugin.InitPlugin(&params, status);
#include <gmock/gmock.h>

#include <atomic>
#include <cstdint>
#include <string>

#include "mocks/faults.h"
#include "mocks/generation.h"
#include "mocks/stream_executor_mock.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace conformance::mocks {

// SP_DeviceFns has no way back to a mock but the device; the newest live MockDeviceFns is
// the one its callbacks reach.
class MockDeviceFns {
 public:
  MockDeviceFns();
  virtual ~MockDeviceFns();
  MOCK_METHOD(int32_t, GetNumaNode, (const SP_Device*));
  MOCK_METHOD(int64_t, GetMemoryBandwidth, (const SP_Device*));
  MOCK_METHOD(double, GetGflops, (const SP_Device*));
  void Fill(SP_DeviceFns* table) const;
  static MockDeviceFns* Current();

 private:
  void* token_;
};

// Likewise SP_TimerFns.nanoseconds only gets the timer: the newest live MockTimerFns.
class MockTimerFns {
 public:
  MockTimerFns();
  virtual ~MockTimerFns();
  MOCK_METHOD(uint64_t, Nanoseconds, (SP_Timer));
  void Fill(SP_TimerFns* table) const;
  static MockTimerFns* Current();

 private:
  void* token_;
};

struct PlatformOptions {
  std::string name = "MOCK";
  std::string type = "MOCK_DEVICE";
  int device_count = 2;
  bool supports_unified_memory = true;
  bool use_bfc_allocator = true;  // written only when the generation has the field
};

class MockPlatform {
 public:
  MockPlatform(MockStreamExecutor& se, MockDeviceFns& device_fns, MockTimerFns& timer_fns);
  virtual ~MockPlatform();

  // SE_InitPlugin: fills SP_Platform, SP_PlatformFns and the two destroy callbacks.
  MOCK_METHOD(void, InitPlugin, (SE_PlatformRegistrationParams*, TF_Status*));
  MOCK_METHOD(void, GetDeviceCount, (const SP_Platform*, int*, TF_Status*));
  MOCK_METHOD(void, CreateDevice, (const SP_Platform*, SE_CreateDeviceParams*, TF_Status*));
  MOCK_METHOD(void, DestroyDevice, (const SP_Platform*, SP_Device*));
  MOCK_METHOD(void, CreateDeviceFns, (const SP_Platform*, SE_CreateDeviceFnsParams*, TF_Status*));
  MOCK_METHOD(void, DestroyDeviceFns, (const SP_Platform*, SP_DeviceFns*));
  MOCK_METHOD(void, CreateStreamExecutor,
              (const SP_Platform*, SE_CreateStreamExecutorParams*, TF_Status*));
  MOCK_METHOD(void, DestroyStreamExecutor, (const SP_Platform*, SP_StreamExecutor*));
  MOCK_METHOD(void, CreateTimerFns, (const SP_Platform*, SP_TimerFns*, TF_Status*));
  MOCK_METHOD(void, DestroyTimerFns, (const SP_Platform*, SP_TimerFns*));
  MOCK_METHOD(void, DestroyPlatform, (SP_Platform*));
  MOCK_METHOD(void, DestroyPlatformFns, (SP_PlatformFns*));

  PlatformOptions& options() { return options_; }
  // Faults of the platform-level callbacks, by C field name ("create_device", ...).
  void ReturnError(std::string_view callback, TF_Code code, std::string message) {
    faults_.SetError(callback, {code, std::move(message)});
  }
  void LeaveNull(std::string_view callback) { faults_.LeaveNull(callback); }
  void LeaveUnwritten(OutParam param) { faults_.LeaveUnwritten(param); }
  void WritePastEnd(FilledStruct which, std::size_t bytes,
                    unsigned char fill = PastEndWrite::kDefaultFill) {
    faults_.WritePastEnd(which, bytes, fill);
  }
  Faults& faults() { return faults_; }

  // Every table's callbacks now report "used after its plugin was unloaded" (what
  // destroy_platform + destroy_platform_fns do by default).
  void Unload();
  static MockPlatform* FromPlatform(const SP_Platform* platform);
  static MockPlatform* FromPlatformFns(const SP_PlatformFns* fns);

 private:
  void InstallDefaultActions();
  void UnloadTables();
  void FillPlatform(SP_Platform* platform);
  void FillPlatformFns(SP_PlatformFns* fns);

  MockStreamExecutor& se_;
  MockDeviceFns& device_fns_;
  MockTimerFns& timer_fns_;
  PlatformOptions options_;
  Faults faults_;
  void* token_;
  std::atomic<int> destroy_calls_{0};
};

// A whole StreamExecutor plugin made of mocks. Tables are NiceMocks: calls nobody expects
// run the default actions silently.
class MockPlugin {
 public:
  explicit MockPlugin(Generation generation = Generation::kNewest);
  ::testing::NiceMock<MockStreamExecutor> se;
  ::testing::NiceMock<MockDeviceFns> device_fns;
  ::testing::NiceMock<MockTimerFns> timer_fns;
  ::testing::NiceMock<MockPlatform> platform;

  // What an exported SE_InitPlugin does.
  void InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status) {
    platform.InitPlugin(params, status);
  }
};

}  // namespace conformance::mocks
