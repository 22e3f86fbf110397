// SE_InitPlugin and the platform/device tables: what TensorFlow's core checks at load time
// and what it reads afterwards.
#include <regex>
#include <string>

#include "plugin_test_support.h"

namespace reference_plugin_test {
namespace {

bool matches_tf_name_rule(const char* name) {
  return name != nullptr && std::regex_match(name, std::regex("[A-Z][A-Z_]*"));
}

TEST(RegistrationTest, FillsPlatformAsTensorFlowRequires) {
  Registration registration;
  ASSERT_TRUE(registration.ok()) << describe(registration.init_status());
  const SP_Platform& platform = *registration.platform();
  EXPECT_EQ(platform.struct_size, SP_PLATFORM_STRUCT_SIZE);
  EXPECT_STREQ(platform.name, "REFERENCE");
  EXPECT_STREQ(platform.type, "REFDEV");
  EXPECT_TRUE(matches_tf_name_rule(platform.name));
  EXPECT_TRUE(matches_tf_name_rule(platform.type));
  EXPECT_TRUE(platform.supports_unified_memory);
  EXPECT_NE(registration.params().destroy_platform, nullptr);
  EXPECT_NE(registration.params().destroy_platform_fns, nullptr);

  const SP_PlatformFns& fns = registration.platform_fns();
  EXPECT_EQ(fns.struct_size, SP_PLATFORM_FNS_STRUCT_SIZE);
  EXPECT_NE(fns.get_device_count, nullptr);
  EXPECT_NE(fns.create_device, nullptr);
  EXPECT_NE(fns.destroy_device, nullptr);
  EXPECT_NE(fns.create_device_fns, nullptr);
  EXPECT_NE(fns.destroy_device_fns, nullptr);
  EXPECT_NE(fns.create_stream_executor, nullptr);
  EXPECT_NE(fns.destroy_stream_executor, nullptr);
  EXPECT_NE(fns.create_timer_fns, nullptr);
  EXPECT_NE(fns.destroy_timer_fns, nullptr);
}

TEST(RegistrationTest, EveryStreamExecutorCallbackIsSet) {
  Registration registration;
  ASSERT_TRUE(registration.ok());
  const SP_StreamExecutor& se = registration.se();
  EXPECT_EQ(se.struct_size, SP_STREAMEXECUTOR_STRUCT_SIZE);
  // Every member after struct_size and ext is a function pointer; all must be set, including
  // the optional ones (block_host_until_done, unified memory, timers, sync_memcpy_dtod).
  const auto* slots = reinterpret_cast<void* const*>(reinterpret_cast<const char*>(&se) + 16);
  const size_t slot_count = (sizeof(SP_StreamExecutor) - 16) / sizeof(void*);
  for (size_t i = 0; i < slot_count; ++i) {
    EXPECT_NE(slots[i], nullptr) << "SP_StreamExecutor slot at offset " << 16 + 8 * i;
  }
  EXPECT_EQ(registration.device_fns().struct_size, SP_DEVICE_FNS_STRUCT_SIZE);
  EXPECT_EQ(registration.timer_fns().struct_size, SP_TIMER_FNS_STRUCT_SIZE);
  EXPECT_NE(registration.timer_fns().nanoseconds, nullptr);
}

TEST(RegistrationTest, OverwritesAPoisonedStatusWithOk) {
  auto core = Registration::fresh_core_structs();
  core.params.platform = &core.platform;
  core.params.platform_fns = &core.platform_fns;
  TfStatus status;  // starts as an error
  plugin_init_function()(&core.params, status);
  ASSERT_TRUE(status.ok()) << describe(status);
  core.params.destroy_platform(&core.platform);
  core.params.destroy_platform_fns(&core.platform_fns);
}

TEST(RegistrationTest, RejectsAnotherMajorVersionCleanly) {
  auto core = Registration::fresh_core_structs();
  core.params.platform = &core.platform;
  core.params.platform_fns = &core.platform_fns;
  core.params.major_version = SE_MAJOR + 1;
  TfStatus status;
  plugin_init_function()(&core.params, status);
  EXPECT_EQ(status.code(), TF_FAILED_PRECONDITION);
  EXPECT_NE(status.message().find("major version"), std::string::npos) << status.message();
  // Nothing was written, nothing allocated.
  EXPECT_EQ(core.platform.name, nullptr);
  EXPECT_EQ(core.platform.ext, nullptr);
  EXPECT_EQ(core.params.destroy_platform, nullptr);
}

TEST(RegistrationTest, RejectsACoreWithTheOlderStreamExecutorLayout) {
  Registration registration;
  ASSERT_TRUE(registration.ok());
  // A TensorFlow before 2.10 pre-sets 264 (no mem_zero/memset/memset32).
  SP_StreamExecutor old_core_storage{};
  old_core_storage.struct_size = 264;
  SE_CreateStreamExecutorParams params{SE_CREATE_STREAM_EXECUTOR_PARAMS_STRUCT_SIZE, nullptr,
                                       &old_core_storage};
  TfStatus status;
  registration.platform_fns().create_stream_executor(registration.platform(), &params, status);
  EXPECT_EQ(status.code(), TF_FAILED_PRECONDITION) << describe(status);
  EXPECT_EQ(old_core_storage.allocate, nullptr);  // untouched
}

TEST(RegistrationTest, DefaultDeviceCountIsTwo) {
  ScopedEnv unset("REFERENCE_PLUGIN_DEVICE_COUNT", nullptr);
  Registration registration;
  ASSERT_TRUE(registration.ok());
  EXPECT_EQ(registration.device_count(), 2);
}

TEST(RegistrationTest, CreateDeviceFillsSpDevice) {
  Registration registration;
  ASSERT_TRUE(registration.ok());
  for (int ordinal = 0; ordinal < 2; ++ordinal) {
    TestDevice device(registration, ordinal);
    ASSERT_TRUE(device.ok());
    const SP_Device& d = *device.get();
    EXPECT_EQ(d.struct_size, SP_DEVICE_STRUCT_SIZE);
    EXPECT_EQ(d.ordinal, ordinal);
    EXPECT_NE(d.device_handle, nullptr);
    ASSERT_NE(d.hardware_name, nullptr);
    ASSERT_NE(d.device_vendor, nullptr);
    ASSERT_NE(d.pci_bus_id, nullptr);
    EXPECT_GT(std::string(d.hardware_name).size(), 0u);
    EXPECT_GT(std::string(d.device_vendor).size(), 0u);
    EXPECT_TRUE(
        std::regex_match(d.pci_bus_id, std::regex("[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]")))
        << d.pci_bus_id;
    EXPECT_EQ(std::string(d.pci_bus_id), "0000:00:0" + std::to_string(ordinal) + ".0");
  }
}

TEST(RegistrationTest, DevicesHaveDistinctHandlesAndBusIds) {
  Registration registration;
  ASSERT_TRUE(registration.ok());
  TestDevice first(registration, 0), second(registration, 1);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_NE(first.get()->device_handle, second.get()->device_handle);
  EXPECT_STRNE(first.get()->pci_bus_id, second.get()->pci_bus_id);
}

TEST(RegistrationTest, DestroyDeviceClearsWhatItOwned) {
  Registration registration;
  ASSERT_TRUE(registration.ok());
  SP_Device device{};
  device.struct_size = SP_DEVICE_STRUCT_SIZE;
  SE_CreateDeviceParams params{SE_CREATE_DEVICE_PARAMS_STRUCT_SIZE, nullptr, 1, &device};
  TfStatus status;
  registration.platform_fns().create_device(registration.platform(), &params, status);
  ASSERT_TRUE(status.ok()) << describe(status);
  registration.platform_fns().destroy_device(registration.platform(), &device);
  EXPECT_EQ(device.device_handle, nullptr);
  EXPECT_EQ(device.hardware_name, nullptr);
  EXPECT_EQ(device.pci_bus_id, nullptr);
}

TEST(RegistrationTest, CreateDeviceRejectsAnOrdinalOutOfRange) {
  Registration registration;
  ASSERT_TRUE(registration.ok());
  for (int ordinal : {-1, 2, 100}) {
    SP_Device device{};
    device.struct_size = SP_DEVICE_STRUCT_SIZE;
    SE_CreateDeviceParams params{SE_CREATE_DEVICE_PARAMS_STRUCT_SIZE, nullptr, ordinal, &device};
    TfStatus status;
    registration.platform_fns().create_device(registration.platform(), &params, status);
    EXPECT_EQ(status.code(), TF_INVALID_ARGUMENT) << ordinal << " " << describe(status);
    EXPECT_EQ(device.device_handle, nullptr);
  }
}

TEST(RegistrationTest, DeviceFnsReportPlausibleProperties) {
  Registration registration;
  ASSERT_TRUE(registration.ok());
  TestDevice device(registration, 0);
  ASSERT_TRUE(device.ok());
  const SP_DeviceFns& fns = registration.device_fns();
  EXPECT_GE(fns.get_numa_node(device.get()), 0);
  EXPECT_GT(fns.get_memory_bandwidth(device.get()), 0);
  EXPECT_GT(fns.get_gflops(device.get()), 0.0);
}

TEST(RegistrationTest, TwoRegistrationsAreIndependent) {
  Registration first;
  ASSERT_TRUE(first.ok());
  Registration second;
  ASSERT_TRUE(second.ok());
  EXPECT_NE(first.platform()->ext, second.platform()->ext);
  TestDevice a(first, 0), b(second, 0);
  EXPECT_TRUE(a.ok() && b.ok());
}

}  // namespace
}  // namespace reference_plugin_test
