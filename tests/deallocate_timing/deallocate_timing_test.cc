// TensorFlow's timing, not the harness's convenience, decides a plugin's verdict: without its
// BFC allocator TensorFlow deallocates a kernel's inputs right after queuing the kernel. Each
// lifetime plugin (lifetime_plugin.cc) is run the way a vendor runs the tool (default tiers)
// and must get the verdict TensorFlow's behaviour implies:
//   at_once          NOT CONFORMANT, exactly one root cause, on deallocate (runtime, kernel and
//                    model checks);
//   stream_ordered   CONFORMANT, the new checks pass;
//   waits            CONFORMANT (deallocate waits for the device, as cudaFree does);
//   bfc_at_once      CONFORMANT with the new checks as warnings only.
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/tool_run.h"

namespace {

using conformance::test_support::Result;
using conformance::test_support::RunConformance;
using conformance::test_support::ToolRun;

constexpr const char* kRuntimeCheck = "runtime.memory.deallocate.queued_work";
constexpr const char* kKernelCheck = "kernel.AddV2.inputs_released_at_enqueue";
constexpr const char* kModelCheck = "model.mlp_forward.float";

class LifetimeRun : public ::testing::Test {
 protected:
  ToolRun Run(const std::string& variant) {
    dir_ = std::filesystem::temp_directory_path() /
           ("deallocate_timing_" + variant + "_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
    return RunConformance(PLUGIN_CONFORMANCE,
                          std::string(LIFETIME_PLUGINS_DIR) + "/" + variant + ".so", "--seed 7",
                          dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // The outcomes of every kernel.<Op>.inputs_released_at_enqueue that ran (the optimizer's
  // are not_supported: TensorFlow 2.21, the newest profile, exports no resource-variable
  // API).
  static std::set<std::string> KernelPropertyOutcomes(const ToolRun& run) {
    std::set<std::string> outcomes;
    for (const auto& result : run.report.at("results")) {
      const std::string outcome = result.at("outcome");
      if (result.at("id").get<std::string>().ends_with(".inputs_released_at_enqueue") &&
          outcome != "not_supported")
        outcomes.insert(outcome);
    }
    return outcomes;
  }

  // A legal way to give memory back: CONFORMANT, and the new checks pass.
  void ExpectConformant(const std::string& variant) {
    const ToolRun run = Run(variant);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    const auto* runtime = Result(run, kRuntimeCheck);
    ASSERT_NE(runtime, nullptr);
    EXPECT_EQ(runtime->at("outcome"), "pass") << runtime->dump(2);
    EXPECT_EQ(KernelPropertyOutcomes(run), std::set<std::string>{"pass"});
  }

  std::filesystem::path dir_;
};

TEST_F(LifetimeRun, FreeingAtOnceIsOneRootCauseOnDeallocate) {
  const ToolRun run = Run("at_once");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  ASSERT_TRUE(run.report.contains("root_causes")) << run.output;
  const auto& causes = run.report.at("root_causes");
  ASSERT_EQ(causes.size(), 1u) << causes.dump(2);
  EXPECT_EQ(causes[0].at("call"), "deallocate") << causes.dump(2);
  EXPECT_EQ(causes[0].at("problem"), "freed while queued work still reads it");
  const auto* runtime = Result(run, kRuntimeCheck);
  ASSERT_NE(runtime, nullptr);
  EXPECT_EQ(runtime->at("outcome"), "fail") << runtime->dump(2);
  const auto* kernel = Result(run, kKernelCheck);
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->at("outcome"), "fail") << kernel->dump(2);
  // The models tier frees a graph's tensors as TensorFlow does too, and says why it fails.
  const auto* model = Result(run, kModelCheck);
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->at("outcome"), "fail") << model->dump(2);
  // Every failure in the run is that root cause's: no other check blames anything else.
  for (const auto& result : run.report.at("results")) {
    if (result.at("outcome") != "fail") continue;
    EXPECT_EQ(result.value("details", nlohmann::json::object()).value("failing_call", ""),
              "deallocate")
        << result.dump(2);
  }
}

TEST_F(LifetimeRun, StreamOrderedFreeIsConformant) { ExpectConformant("stream_ordered"); }

TEST_F(LifetimeRun, DeallocateThatWaitsForTheDeviceIsConformant) { ExpectConformant("waits"); }

TEST_F(LifetimeRun, FreeingAtOnceBehindTheBfcAllocatorIsOnlyAWarning) {
  const ToolRun run = Run("bfc_at_once");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const auto* runtime = Result(run, kRuntimeCheck);
  ASSERT_NE(runtime, nullptr);
  EXPECT_EQ(runtime->at("outcome"), "warning") << runtime->dump(2);
  const auto* kernel = Result(run, kKernelCheck);
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->at("outcome"), "warning") << kernel->dump(2);
  // Kernels that forward their inputs or have none on the device pass; none fails.
  const std::set<std::string> allowed = {"pass", "warning"};
  for (const std::string& outcome : KernelPropertyOutcomes(run))
    EXPECT_TRUE(allowed.contains(outcome)) << outcome;
}

}  // namespace
