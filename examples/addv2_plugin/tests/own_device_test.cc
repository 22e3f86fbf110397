// The same kernel on the example plugin's own device: registered through SE_InitPlugin the
// way TensorFlow does it, then driven by the fake kernel context.
#include <gtest/gtest.h>

#include "mocks/kernel_test.h"
#include "plugin.h"

namespace {

using conformance::mocks::FakeKernelContext;
using conformance::mocks::KernelDevice;

TEST(AddV2OnTheExampleDevice, AddsOnItsOwnStream) {
  SP_Platform platform{SP_PLATFORM_STRUCT_SIZE, nullptr, nullptr, nullptr, 0, 0, 0};
  SP_PlatformFns fns{};
  fns.struct_size = SP_PLATFORM_FNS_STRUCT_SIZE;
  SE_PlatformRegistrationParams params{};
  params.struct_size = SE_PLATFORM_REGISTRATION_PARAMS_STRUCT_SIZE;
  params.platform = &platform;
  params.platform_fns = &fns;
  TF_Status* status = TF_NewStatus();
  SE_InitPlugin(&params, status);
  ASSERT_EQ(TF_GetCode(status), TF_OK);
  SP_Device device{};
  SE_CreateDeviceParams device_params{SE_CREATE_DEVICE_PARAMS_STRUCT_SIZE, nullptr, 0, &device};
  fns.create_device(&platform, &device_params, status);
  SP_StreamExecutor se{};
  SE_CreateStreamExecutorParams se_params{SE_CREATE_STREAM_EXECUTOR_PARAMS_STRUCT_SIZE, nullptr,
                                          &se};
  fns.create_stream_executor(&platform, &se_params, status);
  ASSERT_EQ(TF_GetCode(status), TF_OK);
  {
    KernelDevice on_device(se, device, example::kDeviceType);
    FakeKernelContext add(&TF_InitKernel, "AddV2", on_device);
    auto result = add.Attr("T", TF_FLOAT).Input<float>({2}, {1, 2}).Input<float>({2}, {3, 4}).Run();
    ASSERT_TRUE(result.ok()) << conformance::core::ToString(result.compute);
    EXPECT_EQ(result.Output<float>(0), (std::vector<float>{4, 6}));
  }
  fns.destroy_device(&platform, &device);
  TF_DeleteStatus(status);
}

}  // namespace
