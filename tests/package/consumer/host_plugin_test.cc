// A plugin's own unit test, built against the installed package only: the clean-room headers
// and the mock TensorFlow core (TF_NewStatus, TF_SetStatus, ... come from
// libtensorflow_framework.so.2 of the package).
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/tf_status.h"

extern "C" void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status);

namespace {

class HostPluginTest : public testing::Test {
 protected:
  void SetUp() override {
    params_.struct_size = SE_PLATFORM_REGISTRATION_PARAMS_STRUCT_SIZE;
    params_.platform = &platform_;
    params_.platform_fns = &platform_fns_;
    SE_InitPlugin(&params_, status_);
    ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);

    SE_CreateDeviceParams device_params{SE_CREATE_DEVICE_PARAMS_STRUCT_SIZE};
    device_params.ordinal = 0;
    device_params.device = &device_;
    platform_fns_.create_device(&platform_, &device_params, status_);
    ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);

    SE_CreateStreamExecutorParams se_params{SE_CREATE_STREAM_EXECUTOR_PARAMS_STRUCT_SIZE};
    se_params.stream_executor = &se_;
    platform_fns_.create_stream_executor(&platform_, &se_params, status_);
    ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  }
  void TearDown() override { TF_DeleteStatus(status_); }

  TF_Status* status_ = TF_NewStatus();
  SE_PlatformRegistrationParams params_{};
  SP_Platform platform_{SP_PLATFORM_STRUCT_SIZE};
  SP_PlatformFns platform_fns_{SP_PLATFORM_FNS_STRUCT_SIZE};
  SP_Device device_{SP_DEVICE_STRUCT_SIZE};
  SP_StreamExecutor se_{SP_STREAMEXECUTOR_STRUCT_SIZE};
};

TEST_F(HostPluginTest, RegistersItsPlatform) {
  EXPECT_EQ(std::string(platform_.name), "HOSTSAMPLE");
  EXPECT_EQ(platform_.struct_size, SP_PLATFORM_STRUCT_SIZE);
}

TEST_F(HostPluginTest, CopiesRoundTripThroughTheDevice) {
  SP_DeviceMemoryBase memory{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE};
  se_.allocate(&device_, 64, 0, &memory);
  ASSERT_NE(memory.opaque, nullptr);
  const char sent[] = "through the device";
  char received[sizeof(sent)] = {};
  se_.sync_memcpy_htod(&device_, &memory, sent, sizeof(sent), status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK);
  se_.sync_memcpy_dtoh(&device_, received, &memory, sizeof(sent), status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK);
  EXPECT_STREQ(received, sent);
  se_.deallocate(&device_, &memory);
}

TEST_F(HostPluginTest, MockCoreStatusCarriesCodeAndMessage) {
  TF_SetStatus(status_, TF_INVALID_ARGUMENT, "from the mock core");
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(status_), "from the mock core");
}

}  // namespace
