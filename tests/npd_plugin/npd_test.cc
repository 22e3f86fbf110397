// The NextPluggableDevice fixture (libhost_npd_plugin.so): TFNPD_InitPlugin called as TensorFlow
// calls it (dlopen RTLD_NOW | RTLD_LOCAL, struct_size pre-filled, the rest zero), the params it
// fills and the host-memory TFNPD_Api it returns.
#include <dlfcn.h>

#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "plugin_test_support.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/core/common_runtime/next_pluggable_device/c/plugin_c_api.h"

namespace reference_plugin_test {
namespace {

using InitNpdFn = const TFNPD_Api* (*)(TFNPD_PluginParams*, TF_Status*);

// The layout of the 2.15.1 and 2.21.0 wheels' own plugin_c_api.h (compiled and measured; 2.21.0
// calls TFNPD_GetDeviceCount at offset 160 of the table): a member missing here shifts every
// later one, and TensorFlow calls the wrong function.
static_assert(TFNPD_Api_STRUCT_SIZE == 176);
static_assert(offsetof(TFNPD_Api, TFNPD_GetDeviceCount) == 160);
static_assert(TFNPD_PLUGIN_PARAMS_STRUCT_SIZE == 37);  // what both pre-fill

class NpdModuleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static void* const library = dlopen(NPD_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library, nullptr) << dlerror();
    auto init = reinterpret_cast<InitNpdFn>(dlsym(library, "TFNPD_InitPlugin"));
    ASSERT_NE(init, nullptr);
    std::memset(&params_, 0, sizeof params_);
    params_.struct_size = TFNPD_PLUGIN_PARAMS_STRUCT_SIZE;
    api_ = init(&params_, status_);
    ASSERT_TRUE(status_.ok()) << describe(status_);
    ASSERT_NE(api_, nullptr);
  }

  TFNPD_PluginParams params_;
  const TFNPD_Api* api_ = nullptr;
  TfStatus status_;
};

TEST_F(NpdModuleTest, FillsTheParamsAndAFullTable) {
  EXPECT_STREQ(params_.device_type, "REFDEV_NPD");
  EXPECT_STREQ(params_.compilation_device_name, "XLA_REFDEV_NPD");
  EXPECT_TRUE(params_.is_pluggable_device);
  EXPECT_EQ(api_->struct_size, TFNPD_Api_STRUCT_SIZE);
  // Every function member is set: TensorFlow calls them without NULL tests.
  const auto* members = reinterpret_cast<void* const*>(&api_->TFNPD_NewDeviceEvent);
  const size_t count =
      (TFNPD_Api_STRUCT_SIZE - offsetof(TFNPD_Api, TFNPD_NewDeviceEvent)) / sizeof(void*);
  EXPECT_EQ(count, 20u);
  for (size_t i = 0; i < count; ++i) EXPECT_NE(members[i], nullptr) << "member " << i;
  status_.poison();
  EXPECT_EQ(api_->TFNPD_GetDeviceCount(status_), 1);
  EXPECT_TRUE(status_.ok());
}

TEST_F(NpdModuleTest, AllocatesAndCopiesTensorsThroughHostMemory) {
  TFNPD_DeviceAllocator* allocator = api_->TFNPD_DeviceAllocatorCreate(0);
  void* memory = api_->TFNPD_DeviceAllocateRaw(allocator, 64, 100);
  ASSERT_NE(memory, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(memory) % 64, 0u);
  api_->TFNPD_DeviceDeallocateRaw(allocator, memory);
  EXPECT_FALSE(api_->TFNPD_DeviceAllocatorAllocatesOpaqueHandle(allocator));
  api_->TFNPD_DeviceAllocatorDelete(allocator);

  const int64_t dims[] = {3};
  TF_Tensor* host = TF_AllocateTensor(TF_FLOAT, dims, 1, 3 * sizeof(float));
  TF_Tensor* device = TF_AllocateTensor(TF_FLOAT, dims, 1, 3 * sizeof(float));
  const float values[] = {1.5f, -2, 3};
  std::memcpy(TF_TensorData(host), values, sizeof values);
  TFNPD_DeviceContext* context = api_->TFNPD_DeviceContextCreate(0);
  status_.poison();
  TFNPD_DeviceEvent* event = api_->TFNPD_HostTensorToDeviceTensor(context, host, device, status_);
  ASSERT_TRUE(status_.ok()) << describe(status_);
  ASSERT_NE(event, nullptr);
  EXPECT_TRUE(api_->TFNPD_DeviceEventIsReady(event));
  status_.poison();
  api_->TFNPD_DeviceEventAwait(event, status_);
  EXPECT_TRUE(status_.ok());
  api_->TFNPD_DeviceEventDelete(event);
  // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison,cert-exp42-c,cert-flp37-c): a byte copy
  EXPECT_EQ(std::memcmp(TF_TensorData(device), values, sizeof values), 0);

  const int64_t short_dims[] = {2};
  TF_Tensor* too_small = TF_AllocateTensor(TF_FLOAT, short_dims, 1, 2 * sizeof(float));
  EXPECT_EQ(api_->TFNPD_DeviceTensorToHostTensor(context, device, too_small, status_), nullptr);
  EXPECT_EQ(status_.code(), TF_INVALID_ARGUMENT);
  api_->TFNPD_DeviceContextDelete(context);
  TF_DeleteTensor(too_small);
  TF_DeleteTensor(device);
  TF_DeleteTensor(host);
}

}  // namespace
}  // namespace reference_plugin_test
