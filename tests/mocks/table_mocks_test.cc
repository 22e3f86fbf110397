// The table mocks: their default actions are a working device, each fault-injection one-liner
// does exactly what it says, tables are laid out per TensorFlow generation, and misuse (an
// expectation on a callback the generation lacks, a mock used after unloading) is reported
// clearly.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "mocks/platform_mock.h"
#include "mocks/stream_executor_mock.h"

namespace conformance::mocks {
namespace {

using ::testing::_;
using ::testing::NiceMock;

class Status {
 public:
  Status() : status_(TF_NewStatus()) { TF_SetStatus(status_, TF_UNKNOWN, "poisoned"); }
  ~Status() { TF_DeleteStatus(status_); }
  operator TF_Status*() { return status_; }
  TF_Code code() const { return TF_GetCode(status_); }
  std::string message() const { return TF_Message(status_); }

 private:
  TF_Status* status_;
};

class TableMockTest : public ::testing::Test {
 protected:
  NiceMock<MockStreamExecutor> se_;
  SP_Device device_ = se_.MakeDevice(0);
  SP_StreamExecutor table_ = se_.Table();

  SP_DeviceMemoryBase Allocate(uint64_t size) {
    SP_DeviceMemoryBase memory{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, nullptr, 0, 0};
    table_.allocate(&device_, size, 0, &memory);
    return memory;
  }
  SP_Stream CreateStream() {
    SP_Stream stream = nullptr;
    Status status;
    table_.create_stream(&device_, &stream, status);
    EXPECT_EQ(status.code(), TF_OK);
    return stream;
  }
};

TEST_F(TableMockTest, DefaultsAreAWorkingDevice) {
  SP_DeviceMemoryBase memory = Allocate(16);
  ASSERT_NE(memory.opaque, nullptr);
  EXPECT_EQ(memory.size, 16u);
  SP_Stream stream = CreateStream();
  const std::vector<uint8_t> in{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  std::vector<uint8_t> out(16, 0);
  Status status;
  table_.memcpy_htod(&device_, stream, &memory, in.data(), 16, status);
  table_.memcpy_dtoh(&device_, stream, out.data(), &memory, 16, status);
  table_.block_host_until_done(&device_, stream, status);
  EXPECT_EQ(status.code(), TF_OK);
  EXPECT_EQ(out, in);
  table_.destroy_stream(&device_, stream);
  table_.deallocate(&device_, &memory);
}

TEST_F(TableMockTest, ExpectationsSeeCallsAndDefaultActionsStillRun) {
  EXPECT_CALL(se_, Allocate(&device_, 64, 0, _));
  EXPECT_NE(Allocate(64).opaque, nullptr);
}

TEST_F(TableMockTest, FailNthAllocation) {
  se_.FailAllocation(2);
  EXPECT_NE(Allocate(8).opaque, nullptr);
  EXPECT_EQ(Allocate(8).opaque, nullptr);
  EXPECT_NE(Allocate(8).opaque, nullptr);
}

TEST_F(TableMockTest, ReturnErrorFromAChosenCall) {
  se_.ReturnError(Callback::kCreateStream, TF_RESOURCE_EXHAUSTED, "no more queues");
  SP_Stream stream = nullptr;
  Status status;
  table_.create_stream(&device_, &stream, status);
  EXPECT_EQ(status.code(), TF_RESOURCE_EXHAUSTED);
  EXPECT_EQ(status.message(), "no more queues");
  EXPECT_EQ(stream, nullptr);
}

TEST_F(TableMockTest, DelayStreamBehindAGate) {
  SP_Stream stream = CreateStream();
  SP_Event event = nullptr;
  Status status;
  table_.create_event(&device_, &event, status);
  Gate gate = se_.DelayStream(&device_, stream);
  table_.record_event(&device_, stream, event, status);
  EXPECT_EQ(table_.get_event_status(&device_, event), SE_EVENT_PENDING);
  gate.Open();
  table_.block_host_for_event(&device_, event, status);
  EXPECT_EQ(table_.get_event_status(&device_, event), SE_EVENT_COMPLETE);
  table_.destroy_event(&device_, event);
  table_.destroy_stream(&device_, stream);
}

// TensorFlow copies a tensor from device 0 to device 1 of one plugin with
// create_stream_dependency(device 0, a device-0 stream, a device-1 stream) and memcpy_dtod on
// device 0's stream into device 1's memory (docs/tensorflow/calls.md): the mock, like a driver,
// accepts the other device's stream and memory, and the copy waits for that stream's work.
TEST_F(TableMockTest, CopyToAnotherDeviceWaitsForItsStream) {
  SP_Device other = se_.MakeDevice(1);
  SP_DeviceMemoryBase source = Allocate(8);
  SP_DeviceMemoryBase target{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, nullptr, 0, 0};
  table_.allocate(&other, 8, 0, &target);
  ASSERT_NE(target.opaque, nullptr);
  SP_Stream copier = CreateStream();
  SP_Stream receiver = nullptr;
  Status status;
  table_.create_stream(&other, &receiver, status);
  const std::vector<uint8_t> in{1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<uint8_t> stale(8, 0xEE);
  table_.memcpy_htod(&device_, copier, &source, in.data(), 8, status);
  Gate gate = se_.DelayStream(&other, receiver);
  table_.memcpy_htod(&other, receiver, &target, stale.data(), 8, status);
  Status dependency;
  table_.create_stream_dependency(&device_, copier, receiver, dependency);
  EXPECT_EQ(dependency.code(), TF_OK) << dependency.message();
  Status copy;
  table_.memcpy_dtod(&device_, copier, &target, &source, 8, copy);
  EXPECT_EQ(copy.code(), TF_OK) << copy.message();
  gate.Open();  // the stale bytes land first, then the copy that waited for them
  table_.block_host_until_done(&device_, copier, status);
  std::vector<uint8_t> out(8, 0);
  table_.memcpy_dtoh(&other, receiver, out.data(), &target, 8, status);
  table_.block_host_until_done(&other, receiver, status);
  EXPECT_EQ(out, in);
  table_.destroy_stream(&other, receiver);
  table_.destroy_stream(&device_, copier);
  table_.deallocate(&other, &target);
  table_.deallocate(&device_, &source);
}

TEST_F(TableMockTest, NeverCompleteAnEvent) {
  se_.NeverCompleteEvents();
  SP_Stream stream = CreateStream();
  SP_Event event = nullptr;
  Status status;
  table_.create_event(&device_, &event, status);
  table_.record_event(&device_, stream, event, status);
  table_.block_host_until_done(&device_, stream, status);
  EXPECT_EQ(table_.get_event_status(&device_, event), SE_EVENT_PENDING);
  table_.destroy_event(&device_, event);
  table_.destroy_stream(&device_, stream);
}

TEST_F(TableMockTest, LeaveAnOutParameterUnwritten) {
  se_.LeaveUnwritten(OutParam::kAllocateSize);
  SP_DeviceMemoryBase memory{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, nullptr, 12345, 0};
  table_.allocate(&device_, 64, 0, &memory);
  EXPECT_NE(memory.opaque, nullptr);
  EXPECT_EQ(memory.size, 12345u);
  table_.deallocate(&device_, &memory);
}

TEST(TableMockLayout, WritePastTheStructsEnd) {
  NiceMock<MockStreamExecutor> se;
  se.WritePastEnd(8);
  std::vector<unsigned char> storage(288 + 16, 0);
  se.FillTable(storage.data());
  EXPECT_EQ(storage[288], 0x3C);
  EXPECT_EQ(storage[295], 0x3C);
  EXPECT_EQ(storage[296], 0);
}

// write_past_end=STRUCT:BYTES:FILL: another value past the end (measuring whether TensorFlow's
// outcome depends on it).
TEST(TableMockLayout, WritePastTheStructsEndWithAChosenFill) {
  NiceMock<MockStreamExecutor> se;
  se.faults().WritePastEnd(FilledStruct::kStreamExecutor, 4, 0xFF);
  std::vector<unsigned char> storage(288 + 16, 0);
  se.FillTable(storage.data());
  EXPECT_EQ(storage[288], 0xFF);
  EXPECT_EQ(storage[291], 0xFF);
  EXPECT_EQ(storage[292], 0);
}

TEST(TableMockLayout, OlderGenerationsHaveHostCallbackAt256AndNoMemsetFamily) {
  NiceMock<MockStreamExecutor> se(Generation::kTf2_5);
  std::vector<unsigned char> storage(288, 0xEE);
  se.FillTable(storage.data());
  size_t struct_size = 0;
  std::memcpy(&struct_size, storage.data(), sizeof struct_size);
  EXPECT_EQ(struct_size, 264u);
  void* host_callback = nullptr;
  std::memcpy(&host_callback, storage.data() + 256, sizeof host_callback);
  EXPECT_NE(host_callback, nullptr);
  EXPECT_EQ(storage[264], 0xEE) << "a 264-byte table was written past its end";
  EXPECT_FALSE(se.Has(Callback::kMemZero));
  EXPECT_TRUE(se.Has(Callback::kHostCallback));
}

TEST(TableMockMisuse, ExpectationOnACallbackTheGenerationLacks) {
  NiceMock<MockStreamExecutor> se(Generation::kTf2_5);
  EXPECT_NONFATAL_FAILURE(
      { EXPECT_MOCK_CALL(se, MemZero(_, _, _, _, _)).Times(0); },
      "SP_StreamExecutor.mem_zero does not exist in the tf2.5 header generation");
}

TEST(TableMockMisuse, MockUsedAfterItsPluginWasUnloaded) {
  MockPlugin plugin;
  SP_Device device = plugin.se.MakeDevice(0);
  SP_StreamExecutor table = plugin.se.Table();
  plugin.platform.Unload();
  SP_Stream stream = nullptr;
  Status status;
  table.create_stream(&device, &stream, status);
  EXPECT_EQ(status.code(), TF_FAILED_PRECONDITION);
  EXPECT_THAT(status.message(), ::testing::HasSubstr("create_stream was called on a mock that no "
                                                     "longer exists: its plugin was unloaded"));
}

// SE_InitPlugin and the platform tables, driven the way TensorFlow's core drives them.
struct Registered {
  SP_Platform platform{};
  SP_PlatformFns fns{};
  SE_PlatformRegistrationParams params{};
  SP_Device device{};
  SP_StreamExecutor se{};
  explicit Registered(MockPlugin& plugin) {
    params.struct_size = SE_PLATFORM_REGISTRATION_PARAMS_STRUCT_SIZE;
    params.platform = &platform;
    params.platform_fns = &fns;
    Status status;
    plugin.InitPlugin(&params, status);
    EXPECT_EQ(status.code(), TF_OK);
    SE_CreateDeviceParams device_params{SE_CREATE_DEVICE_PARAMS_STRUCT_SIZE, nullptr, 0, &device};
    fns.create_device(&platform, &device_params, status);
    SE_CreateStreamExecutorParams se_params{SE_CREATE_STREAM_EXECUTOR_PARAMS_STRUCT_SIZE, nullptr,
                                            &se};
    fns.create_stream_executor(&platform, &se_params, status);
    EXPECT_EQ(status.code(), TF_OK);
  }
};

TEST(MockPlugin, RegistersAWorkingPlatform) {
  MockPlugin plugin;
  EXPECT_CALL(plugin.platform, CreateDevice(_, _, _));
  Registered registered(plugin);
  EXPECT_STREQ(registered.platform.name, "MOCK");
  EXPECT_EQ(registered.platform.struct_size, 35u);
  int count = 0;
  Status status;
  registered.fns.get_device_count(&registered.platform, &count, status);
  EXPECT_EQ(count, 2);
  SP_DeviceMemoryBase memory{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, nullptr, 0, 0};
  registered.se.allocate(&registered.device, 32, 0, &memory);
  EXPECT_NE(memory.opaque, nullptr);
  registered.se.deallocate(&registered.device, &memory);
  registered.fns.destroy_device(&registered.platform, &registered.device);
}

TEST(TableMockMisuse, CallbackAfterTensorFlowUnloadedThePlugin) {
  MockPlugin plugin;
  Registered registered(plugin);
  registered.params.destroy_platform_fns(&registered.fns);
  registered.params.destroy_platform(&registered.platform);
  SP_Stream stream = nullptr;
  Status status;
  registered.se.create_stream(&registered.device, &stream, status);
  EXPECT_EQ(status.code(), TF_FAILED_PRECONDITION);
  EXPECT_THAT(status.message(), ::testing::HasSubstr("its plugin was unloaded"));
}

TEST(TableMockMisuse, VoidCallbackAfterUnloadAbortsWithTheReason) {
  SP_StreamExecutor table{};
  SP_Device device{};
  {
    NiceMock<MockStreamExecutor> se;
    device = se.MakeDevice(0);
    table = se.Table();
  }
  SP_DeviceMemoryBase memory{};
  EXPECT_DEATH(table.deallocate(&device, &memory),
               "deallocate was called on a mock that no longer exists");
}

}  // namespace
}  // namespace conformance::mocks
