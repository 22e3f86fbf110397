// Environment configuration: REFERENCE_PLUGIN_DEVICE_COUNT and REFERENCE_PLUGIN_MEMORY_BYTES.
// Both are read at SE_InitPlugin, so every test sets them before registering.
#include <string>

#include "plugin_test_support.h"

namespace reference_plugin_test {
namespace {

constexpr char kDeviceCount[] = "REFERENCE_PLUGIN_DEVICE_COUNT";
constexpr char kMemoryBytes[] = "REFERENCE_PLUGIN_MEMORY_BYTES";

TEST(ConfigTest, DeviceCountFromEnvironment) {
  ScopedEnv count(kDeviceCount, "3");
  Registration registration;
  ASSERT_TRUE(registration.ok()) << describe(registration.init_status());
  EXPECT_EQ(registration.device_count(), 3);
  TestDevice last(registration, 2);
  EXPECT_TRUE(last.ok());
  EXPECT_STREQ(last.get()->pci_bus_id, "0000:00:02.0");
}

TEST(ConfigTest, ZeroDevicesIsAllowed) {
  ScopedEnv count(kDeviceCount, "0");
  Registration registration;
  ASSERT_TRUE(registration.ok());
  EXPECT_EQ(registration.device_count(), 0);
}

TEST(ConfigTest, MalformedDeviceCountFailsRegistration) {
  for (const char* bad : {"abc", "-1", "33", "2x", ""}) {
    ScopedEnv count(kDeviceCount, bad);
    auto core = Registration::fresh_core_structs();
    core.params.platform = &core.platform;
    core.params.platform_fns = &core.platform_fns;
    TfStatus status;
    plugin_init_function()(&core.params, status);
    EXPECT_EQ(status.code(), TF_INVALID_ARGUMENT) << "'" << bad << "'";
    EXPECT_NE(status.message().find(kDeviceCount), std::string::npos) << status.message();
    EXPECT_EQ(core.platform.ext, nullptr);
  }
}

TEST(ConfigTest, MemoryBytesFromEnvironment) {
  ScopedEnv memory(kMemoryBytes, "1M");
  Registration registration;
  ASSERT_TRUE(registration.ok());
  TestDevice device(registration, 0);
  ASSERT_TRUE(device.ok());
  EXPECT_EQ(memory_usage(device).total, 1 << 20);
  EXPECT_EQ(allocator_stats(device).bytes_limit, 1 << 20);

  DeviceBuffer too_big(device, (1 << 20) + 1);
  EXPECT_FALSE(too_big.allocated());
  DeviceBuffer whole(device, 1 << 20);
  EXPECT_TRUE(whole.allocated());
  EXPECT_EQ(memory_usage(device).free, 0);
}

TEST(ConfigTest, MemoryBytesAcceptsSuffixesAndRoundsToGranules) {
  struct Case {
    const char* text;
    int64_t total;
  } cases[] = {{"64K", 64 << 10}, {"64k", 64 << 10}, {"2M", 2 << 20}, {"1000", 768}, {"256", 256}};
  for (const Case& c : cases) {
    ScopedEnv memory(kMemoryBytes, c.text);
    Registration registration;
    ASSERT_TRUE(registration.ok()) << c.text << ": " << describe(registration.init_status());
    TestDevice device(registration, 0);
    ASSERT_TRUE(device.ok());
    EXPECT_EQ(memory_usage(device).total, c.total) << c.text;
  }
}

TEST(ConfigTest, MalformedMemoryBytesFailsRegistration) {
  for (const char* bad : {"12Q", "lots", "-5", "100", "2T", "99999999999999999999999"}) {
    ScopedEnv memory(kMemoryBytes, bad);
    auto core = Registration::fresh_core_structs();
    core.params.platform = &core.platform;
    core.params.platform_fns = &core.platform_fns;
    TfStatus status;
    plugin_init_function()(&core.params, status);
    EXPECT_EQ(status.code(), TF_INVALID_ARGUMENT) << "'" << bad << "'";
    EXPECT_NE(status.message().find(kMemoryBytes), std::string::npos) << status.message();
  }
}

TEST(ConfigTest, EachDeviceGetsTheConfiguredCapacity) {
  ScopedEnv memory(kMemoryBytes, "4M");
  Registration registration;
  ASSERT_TRUE(registration.ok());
  TestDevice first(registration, 0), second(registration, 1);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(memory_usage(first).total, 4 << 20);
  EXPECT_EQ(memory_usage(second).total, 4 << 20);
}

}  // namespace
}  // namespace reference_plugin_test
