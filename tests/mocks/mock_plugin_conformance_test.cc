// plugin_conformance on libmock_plugin.so: the default mock is CONFORMANT, and each fault
// configured through MOCK_PLUGIN_CONFIG is caught by exactly the check made for it, with the
// expected outcome and message; every other check passes, is not_supported or is skipped
// (a check TensorFlow would never reach after the failure).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

struct MockFault {
  const char* name;     // the test's name
  const char* config;   // MOCK_PLUGIN_CONFIG
  const char* options;  // plugin_conformance options selecting the tier
  const char* check;    // the one check that must catch it
  const char* outcome;
  const char* message;  // a substring of the check's message
};

void PrintTo(const MockFault& f, std::ostream* out) { *out << f.name << " -> " << f.check; }

constexpr const char* kLoad = "--tier load";
constexpr const char* kRuntime = "--tier runtime --filter 'runtime.*-runtime.scenario.*'";

const MockFault kFaults[] = {
    // Load tier: TensorFlow's own validation (faithful checks) ...
    {"InitFails", "error=SE_InitPlugin:INTERNAL:boom", kLoad, "load.se.init", "fail", "boom"},
    {"PlatformNameRegex", "name=bad-name", kLoad, "load.se.platform.name_regex", "fail",
     "Device name/type 'bad-name' must match [A-Z][A-Z_]*."},
    {"PlatformTypeRegex", "type=lower", kLoad, "load.se.platform.type_regex", "fail",
     "Device name/type 'lower' must match [A-Z][A-Z_]*."},
    {"NullDestroyPlatform", "null=destroy_platform", kLoad, "load.se.params.destroy_platform",
     "fail", "'destroy_platform' field in SE_PlatformRegistrationParams must be set."},
    {"NullDestroyPlatformFns", "null=destroy_platform_fns", kLoad,
     "load.se.params.destroy_platform_fns", "fail",
     "'destroy_platform_fns' field in SE_PlatformRegistrationParams must be set."},
    {"NullCreateDevice", "null=create_device", kLoad, "load.se.platform_fns.create_device", "fail",
     "'create_device' field in SP_PlatformFns must be set."},
    {"NullCreateDeviceFns", "null=create_device_fns", kLoad,
     "load.se.platform_fns.create_device_fns", "fail",
     "'create_device_fns' field in SP_PlatformFns must be set."},
    {"NullAllocate", "null=allocate", kLoad, "load.se.stream_executor.allocate", "fail",
     "'allocate' field in SP_StreamExecutor must be set."},
    {"NullCreateStream", "null=create_stream", kLoad, "load.se.stream_executor.create_stream",
     "fail", "'create_stream' field in SP_StreamExecutor must be set."},
    {"NullHostCallback", "null=host_callback", kLoad, "load.se.stream_executor.host_callback",
     "fail", "'host_callback' field in SP_StreamExecutor must be set."},
    {"NullMemZero", "null=mem_zero", kLoad, "load.se.stream_executor.mem_zero", "fail",
     "'mem_zero' field in SP_StreamExecutor must be set."},
    {"CreateDeviceFails", "error=create_device:INTERNAL:no device", kLoad, "load.se.create_device",
     "fail", "no device"},
    {"CreateDeviceFnsFails", "error=create_device_fns:INTERNAL:no fns", kLoad,
     "load.se.create_device_fns", "fail", "no fns"},
    {"CreateStreamExecutorFails", "error=create_stream_executor:INTERNAL:no table", kLoad,
     "load.se.create_stream_executor", "fail", "no table"},
    // ... and what TensorFlow does not check but crashes on or corrupts (stricter checks).
    {"NullGetDeviceCount", "null=get_device_count", kLoad, "load.se.platform_fns.get_device_count",
     "fail", "get_device_count is not set"},
    {"NullMemcpyDtoD", "null=memcpy_dtod", kLoad, "load.se.stream_executor.memcpy_dtod", "fail",
     "memcpy_dtod is not set"},
    {"DeviceCountUnwritten", "unwritten=device_count", kLoad, "load.se.device_count.written",
     "fail", "get_device_count returned without writing *device_count"},
    {"StreamExecutorPastEnd", "write_past_end=stream_executor:8", kLoad, "load.se.struct_overflow",
     "fail", "wrote 8 bytes past the end of the 288-byte SP_StreamExecutor"},
    {"PlatformFnsPastEnd", "write_past_end=platform_fns:8", kLoad, "load.se.struct_overflow",
     "fail", "wrote 8 bytes past the end of the 88-byte SP_PlatformFns"},
    {"NewerHeadersOnOlderCore", "generation=newest", "--tier load --profile tf2.7",
     "load.se.struct_overflow", "fail",
     "wrote 24 bytes past the end of the 264-byte SP_StreamExecutor"},
    // Timers, validated by the port::Status-era core (TF 2.10 to 2.15).
    {"TimerFnsFail", "error=create_timer_fns:INTERNAL:no timers", "--tier load --profile tf2.10",
     "load.se.create_timer_fns", "fail", "no timers"},
    {"NullCreateTimerFns", "null=create_timer_fns", "--tier load --profile tf2.10",
     "load.se.platform_fns.create_timer_fns", "fail",
     "'create_timer_fns' field in SP_PlatformFns must be set."},
    {"NullCreateTimer", "null=create_timer", "--tier load --profile tf2.10",
     "load.se.stream_executor.create_timer", "fail",
     "'create_timer' field in SP_StreamExecutor must be set."},
    // Graph and profiler modules.
    {"GraphInitFails", "error=TF_InitGraph:INTERNAL:no graph", kLoad, "load.graph.init", "fail",
     "no graph"},
    {"NullOptimizeFunc", "null=optimize_func", kLoad, "load.graph.optimizer.optimize_func", "fail",
     "'optimize_func' field in TP_Optimizer must be set."},
    {"CreateWithoutDestroy", "null=destroy_func", kLoad, "load.graph.optimizer.lifecycle", "fail",
     "create_func is set but destroy_func is not"},
    {"ProfilerInitFails", "error=TF_InitProfiler:INTERNAL:no profiler", kLoad, "load.profiler.init",
     "fail", "no profiler"},
    {"ProfilerDeviceTypeRegex", "profiler_device_type=MyDevice", kLoad,
     "load.profiler.profiler.device_type_regex", "fail",
     "Device name/type 'MyDevice' must match [A-Z][A-Z_]*."},
    {"NullProfilerStart", "null=start", kLoad, "load.profiler.profiler_fns.start", "fail",
     "'start' field in TP_ProfilerFns must be set."},
    {"NullCollectDataXspace", "null=collect_data_xspace", kLoad,
     "load.profiler.profiler_fns.collect_data_xspace", "fail",
     "'collect_data_xspace' field in TP_ProfilerFns must be set."},
    {"NullDestroyProfiler", "null=destroy_profiler", kLoad, "load.profiler.params.destroy_profiler",
     "fail", "'destroy_profiler' field in TF_ProfilerRegistrationParams must be set."},
    // Runtime tier (C++ checks).
    {"AllocateSizeUnwritten", "unwritten=allocate_size", kRuntime,
     "runtime.memory.allocate.size_written", "fail", "did not write size"},
    {"MemoryUsageFreeUnwritten", "unwritten=memory_usage_free", kRuntime,
     "runtime.stats.memory_usage", "fail", "without writing *free"},
    {"MemoryUsageTotalUnwritten", "unwritten=memory_usage_total", kRuntime,
     "runtime.stats.memory_usage", "fail", "without writing *total"},
    {"StatusesUnwritten", "unwritten=status", kRuntime, "runtime.statuses.written", "warning",
     "returned without writing their TF_Status"},
    {"StreamStatusError", "error=get_stream_status:INTERNAL:sticky", kRuntime,
     "runtime.stream.status", "fail", "get_stream_status of a new stream is not OK"},
    {"StreamDependencyFails", "error=create_stream_dependency:INTERNAL:no dependency", kRuntime,
     "runtime.stream.dependency", "fail", "create_stream_dependency failed"},
    {"WaitForEventFails", "error=wait_for_event:INTERNAL:no wait", kRuntime,
     "runtime.event.cross_stream_wait", "fail", "wait_for_event failed"},
    {"SyncMemcpyDtoHFails", "error=sync_memcpy_dtoh:DATA_LOSS:lost", kRuntime,
     "runtime.sync.memcpy_dtoh", "fail", "sync_memcpy_dtoh failed"},
    {"SyncMemcpyDtoDFails", "error=sync_memcpy_dtod:DATA_LOSS:lost", kRuntime,
     "runtime.sync.memcpy_dtod", "fail", "sync_memcpy_dtod failed"},
    {"SyncMemcpyHtoDFails", "error=sync_memcpy_htod:DATA_LOSS:lost", kRuntime,
     "runtime.sync.memcpy_htod", "fail", "sync_memcpy_htod failed"},
};

std::string Shell(const std::string& text) { return "'" + text + "'"; }

// Runs plugin_conformance on the mock with `config`; returns the JSON report and exit code.
nlohmann::json RunConformance(const std::string& config, const std::string& options,
                              int* exit_code) {
  const std::string json = (std::filesystem::temp_directory_path() /
                            ("mock_plugin_" + std::to_string(getpid()) + ".json"))
                               .string();
  setenv("MOCK_PLUGIN_CONFIG", config.c_str(), 1);
  const std::string command = Shell(PLUGIN_CONFORMANCE) + " " + Shell(MOCK_PLUGIN) + " " + options +
                              " --seed 7 --json " + Shell(json) + " > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(json);
  if (!in) return nlohmann::json();
  nlohmann::json report = nlohmann::json::parse(in);
  std::filesystem::remove(json);
  return report;
}

TEST(MockPlugin, DefaultMockIsConformant) {
  int exit_code = -1;
  const nlohmann::json report = RunConformance("", "", &exit_code);
  ASSERT_TRUE(report.contains("results"));
  EXPECT_EQ(exit_code, 0);
  int passed = 0;
  for (const auto& result : report.at("results")) {
    const std::string outcome = result.at("outcome");
    passed += outcome == "pass";
    EXPECT_TRUE(outcome == "pass" || outcome == "not_supported")
        << result.at("id") << " " << outcome << ": " << result.value("message", "");
  }
  EXPECT_GE(passed, 100);
}

TEST(MockPlugin, BadConfigIsReportedWithASuggestion) {
  int exit_code = -1;
  const nlohmann::json report = RunConformance("fail_alocation=2", kLoad, &exit_code);
  ASSERT_TRUE(report.contains("results"));
  EXPECT_EQ(exit_code, 1);
  bool seen = false;
  for (const auto& result : report.at("results")) {
    if (result.at("id") != "load.se.init") continue;
    seen = true;
    EXPECT_EQ(result.at("outcome"), "fail");
    EXPECT_EQ(result.value("message", ""),
              "MOCK_PLUGIN_CONFIG: unknown key 'fail_alocation'; did you mean 'fail_allocation'?");
  }
  EXPECT_TRUE(seen);
}

class MockPluginFault : public testing::TestWithParam<MockFault> {};

TEST_P(MockPluginFault, IsCaughtByExactlyItsCheck) {
  const MockFault& fault = GetParam();
  int exit_code = -1;
  const nlohmann::json report = RunConformance(fault.config, fault.options, &exit_code);
  ASSERT_TRUE(report.contains("results")) << "no JSON report for " << fault.config;
  // A warning leaves the plugin conformant (exit 0); a failure does not (exit 1).
  EXPECT_EQ(exit_code, std::string(fault.outcome) == "warning" ? 0 : 1);
  bool seen = false;
  for (const auto& result : report.at("results")) {
    const std::string id = result.at("id");
    const std::string outcome = result.at("outcome");
    const std::string message = result.value("message", "");
    if (id == fault.check) {
      seen = true;
      EXPECT_EQ(outcome, fault.outcome) << id << ": " << message;
      EXPECT_NE(message.find(fault.message), std::string::npos) << id << ": " << message;
    } else {
      EXPECT_TRUE(outcome == "pass" || outcome == "not_supported" || outcome == "skipped")
          << fault.config << " also trips " << id << " (" << outcome << "): " << message;
    }
  }
  EXPECT_TRUE(seen) << fault.check << " was not reported";
}

INSTANTIATE_TEST_SUITE_P(Faults, MockPluginFault, testing::ValuesIn(kFaults),
                         [](const testing::TestParamInfo<MockFault>& info) {
                           return info.param.name;
                         });

}  // namespace
