// --tensorflow DIR|auto through the real command-line logic, with fake units and a fake
// installed TensorFlow (its driver's JSON): the folder check, the profile the release picks,
// the verdict line and the finding against the suite. tests/tensorflow runs the real thing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/run_cli.h"
#include "installed_tensorflow/driver_process.h"

#include "../support/collecting_sink.h"

namespace conformance {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using test_support::CollectingSink;

json LoadedIn(const std::string& release) {
  return {{"tensorflow_version", release},
          {"outcome", "loaded"},
          {"load_status", {{"code", 0}, {"message", ""}}},
          {"devices_outcome", "created"}};
}

class TensorFlowOptionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tensorflow_option_test_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "tensorflow");
    std::ofstream(dir_ / "tensorflow" / "libtensorflow_cc.so.2") << "stands in for the wheel";
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string TensorFlowDir() const { return (dir_ / "tensorflow").string(); }

  int Run(std::vector<std::string> args) {
    args.insert(args.begin(), {"plugin_conformance", plugin_});
    std::vector<const char*> argv;
    argv.reserve(args.size());
    for (const std::string& arg : args) argv.push_back(arg.c_str());
    out_.str("");
    err_.str("");
    TestUnit unit{.name = "load.library",
                  .tier = suite_tier_,
                  .check_ids = {"load.library.dlopen"},
                  .run = nullptr,
                  .prerequisites = {}};
    unit.run = [](UnitContext& context) {
      CheckResult result;
      result.id = "load.library.dlopen";
      result.outcome = Outcome::kPass;
      context.sink.Emit(result);
    };
    CliEnvironment environment{
        .build_suite =
            [this, unit](const RunSettings& settings) {
              profile_ = settings.profile;
              return std::vector<TestUnit>{unit};
            },
        .run_units =
            [](const std::vector<TestUnit>& units, const RunSettings& settings,
               const IsolationOptions&, int, const UnitDone& on_done) {
              for (std::size_t i = 0; i < units.size(); ++i) {
                CollectingSink sink;
                UnitContext context{settings, sink};
                units[i].run(context);
                on_done(i, std::move(sink.results));
              }
            },
        .lookup = {},
        .env = [this](const char* name) -> const char* {
          const auto found = env_.find(name);
          return found == env_.end() ? nullptr : found->second.c_str();
        },
        .out = &out_,
        .err = &err_,
        .version = "1.2.3",
        .profiles = {"newest", "tf2.10", "tf2.7"},
        .generations = {{"newest", "2.19-2.21", "2.19"},
                        {"tf2.10", "2.10-2.15", "2.10"},
                        {"tf2.7", "2.7-2.8", "2.7"}},
        .run_installed_tensorflow =
            [this](const InstalledTensorFlowRequest& request) {
              ++installed_runs_;
              asked_dir_ = request.tensorflow_dir;
              asked_plugin_ = request.plugin;
              if (driver_fails_) throw std::runtime_error("dlopen libpython3.11.so.1.0: no");
              // The release probe (no plugin) goes through; the plugin's session dies.
              if (driver_dies_ && !request.plugin.empty()) {
                throw tensorflow_driver::DriverDied(
                    "the TensorFlow driver was killed by signal 6: type_error", false, 150000);
              }
              if (!request.plugin.empty()) {
                ++plugin_sessions_;
                session_limit_ms_ = request.timeout_ms;
                step_limit_ms_ = request.step_timeout_ms;
                kernel_cases_path_ = request.kernel_cases;
              }
              json result = driver_result_;
              // A session that died in its own steps reached no kernel case.
              if (!request.kernel_cases.empty() && !driver_result_.contains("died")) {
                std::ifstream in(request.kernel_cases);
                cases_handed_ = json::parse(in);
                result["kernel_cases"] = json::array();
                for (const json& kernel_case : cases_handed_.at("cases")) {
                  result["kernel_cases"].push_back({{"id", kernel_case.at("id")}});
                }
              }
              return result;
            },
    };
    if (with_kernels_) {
      environment.installed_kernel_cases = [this](const InstalledCaseRequest& request) {
        kernel_seed_ = request.seed;
        kernel_request_ = request;
        return json{
            {"cases",
             json::array(
                 {{{"id", "kernel.AddV2.float.same_shape"}, {"op", "AddV2"}},
                  {{"id", "kernel.Relu.float.generated"}, {"op", "Relu"}, {"generated", true}}})}};
      };
      environment.judge_installed_kernels = [this](const json& cases, const json& ran) {
        judged_cases_ = cases;
        judged_ran_ = ran;
        // AddV2's case disagrees, Relu's generated cell agrees.
        std::vector<CheckResult> results;
        for (const json& entry : ran) {
          CheckResult result;
          if (entry.at("id") == "kernel.AddV2.float.same_shape") {
            result.id = "kernel.AddV2.float.same_shape.in_tensorflow";
            result.outcome = Outcome::kFail;
            result.message = "disagrees with TensorFlow's own CPU kernel";
            result.details["failing_call"] = "compute_func";
            result.details["problem"] = "wrong values";
            result.details["kernel"] = "AddV2";
          } else {
            result.id = entry.at("id");
            result.outcome = Outcome::kPass;
          }
          results.push_back(std::move(result));
        }
        return std::pair{
            json{{"cases", 1},
                 {"compared", 1},
                 {"agree", 0},
                 {"not_on_device", 0},
                 {"disagreements", json::array({{{"op", "AddV2"}, {"dtype", "float"}}})},
                 {"cells", {{"AddV2", {{"float", "disagrees"}}}}}},
            std::move(results)};
      };
    }
    return RunCli(static_cast<int>(argv.size()), argv.data(), environment);
  }

  // The pip metadata beside the package folder, as a wheel installs it: the release is read
  // from it without starting TensorFlow.
  void InstallMetadata(const std::string& release) {
    const fs::path dist_info = dir_ / ("tensorflow_cpu-" + release + ".dist-info");
    fs::create_directories(dist_info);
    std::ofstream(dist_info / "top_level.txt") << "tensorflow\n";
    std::ofstream(dist_info / "METADATA")
        << "Metadata-Version: 2.1\nName: tensorflow-cpu\nVersion: " << release
        << "\n\nlong description\n";
  }

  std::vector<std::string> ResultIds(const json& report) const {
    std::vector<std::string> ids;
    for (const json& result : report.at("results")) ids.push_back(result.at("id"));
    return ids;
  }

  json JsonReport() const {
    std::ifstream in(dir_ / "report.json");
    return json::parse(in);
  }

  static json ResultOf(const json& report, const std::string& id) {
    for (const json& result : report.at("results")) {
      if (result.at("id") == id) return result;
    }
    return json::object();
  }

  fs::path dir_;
  std::ostringstream out_;
  std::ostringstream err_;
  std::string profile_;
  json driver_result_ = LoadedIn("2.21.0");
  bool driver_fails_ = false;
  bool driver_dies_ = false;
  bool with_kernels_ = false;
  std::uint64_t kernel_seed_ = 0;
  InstalledCaseRequest kernel_request_;
  json judged_cases_;
  json judged_ran_;
  int installed_runs_ = 0;
  std::string plugin_ = "plugin.so";
  std::string suite_tier_ = "load";  // the tier of the fake suite's one unit
  int plugin_sessions_ = 0;
  std::int64_t session_limit_ms_ = 0;  // the last plugin session's allowance
  std::int64_t step_limit_ms_ = 0;     // runs of the driver with the plugin (not the release probe)
  std::map<std::string, std::string> env_;
  std::string asked_dir_;
  std::string asked_plugin_;
  std::string kernel_cases_path_;
  json cases_handed_;
};

TEST_F(TensorFlowOptionTest, AFolderWithoutTheLibraryIsAUsageErrorNamingIt) {
  const fs::path empty = dir_ / "empty";
  fs::create_directories(empty);
  EXPECT_EQ(Run({"--tensorflow", empty.string()}), 2);
  EXPECT_NE(err_.str().find((empty / "libtensorflow_cc.so.2").string()), std::string::npos)
      << err_.str();
  EXPECT_EQ(installed_runs_, 0);
}

TEST_F(TensorFlowOptionTest, TheVerdictBlockGainsTheInstalledLine) {
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--json", (dir_ / "report.json").string()}), 0)
      << err_.str();
  EXPECT_EQ(asked_dir_, TensorFlowDir());
  EXPECT_EQ(asked_plugin_, "plugin.so");
  EXPECT_EQ(profile_, "newest");
  EXPECT_NE(out_.str().find("TensorFlow: loads the plugin\nTensorFlow 2.21.0 (installed): loads "
                            "the plugin\n"),
            std::string::npos)
      << out_.str();
  const json installed = JsonReport().at("installed_tensorflow");
  EXPECT_EQ(installed.at("release"), "2.21.0");
  EXPECT_EQ(installed.at("dir"), TensorFlowDir());
  EXPECT_TRUE(installed.at("agrees").get<bool>());
}

TEST_F(TensorFlowOptionTest, TheInstalledReleasePicksTheProfile) {
  driver_result_ = LoadedIn("2.15.1");
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir()}), 0) << err_.str();
  EXPECT_EQ(profile_, "tf2.10");
  EXPECT_NE(err_.str().find("TensorFlow 2.15.1 (installed) is emulated by profile tf2.10"),
            std::string::npos)
      << err_.str();
}

TEST_F(TensorFlowOptionTest, AGivenProfileWins) {
  driver_result_ = LoadedIn("2.15.1");
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--profile", "tf2.7"}), 0) << err_.str();
  EXPECT_EQ(profile_, "tf2.7");
}

TEST_F(TensorFlowOptionTest, AContradictionIsAFindingAgainstTheSuite) {
  driver_result_ = {{"tensorflow_version", "2.21.0"},
                    {"outcome", "aborted"},
                    {"fatal", {{"message", "no good"}, {"code", 9}}}};
  // The installed TensorFlow is the ground truth: its refusal fails the run (issue 29).
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--json", (dir_ / "report.json").string()}), 1);
  EXPECT_NE(out_.str().find("TensorFlow 2.21.0 (installed): aborts: FAILED_PRECONDITION: no good"),
            std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find("FINDING against the suite: the suite's emulated verdict (loads) "
                            "contradicts TensorFlow 2.21.0 (installed) (refuses: "
                            "FAILED_PRECONDITION (9): no good)"),
            std::string::npos)
      << out_.str();
  const json report = JsonReport();
  EXPECT_FALSE(report.at("installed_tensorflow").at("agrees").get<bool>());
  ASSERT_FALSE(report.at("warnings").empty());
  EXPECT_NE(report.at("warnings").back().get<std::string>().find("finding against the suite"),
            std::string::npos);
  EXPECT_EQ(ResultOf(report, "load.in_tensorflow").value("outcome", ""), "fail");
  EXPECT_EQ(ResultOf(report, "load.in_tensorflow").value("tf_code", 0), 9);
}

// Issue 29: the plugin's process died in the session's first ops inside TensorFlow; whatever the
// emulated tiers said, the run is not conformant, with a result naming the kernel.
TEST_F(TensorFlowOptionTest, ADeathInsideTensorFlowFailsTheRun) {
  driver_result_["died"] = {
      {"in_flight", {{"step", "op"}, {"op", "AddV2"}}}, {"signal", 11}, {"timed_out", false}};
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--json", (dir_ / "report.json").string()}), 1)
      << out_.str();
  const json result = ResultOf(JsonReport(), "runtime.session.in_tensorflow");
  EXPECT_EQ(result.value("outcome", ""), "crash");
  EXPECT_NE(result.value("message", "").find("AddV2"), std::string::npos) << result;
}

// Issue 29: a copy inside TensorFlow that came back with other bytes fails the run on
// runtime.copy.in_tensorflow, naming the dtype; the session itself went to its end.
TEST_F(TensorFlowOptionTest, AWrongCopyInsideTensorFlowFailsTheRun) {
  driver_result_["copies"] = json::array({{{"dtype", "float"}, {"equal", true}},
                                          {{"dtype", "int8"}, {"equal", false}},
                                          {{"dtype", "int32"}, {"equal", false}}});
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--json", (dir_ / "report.json").string()}), 1)
      << out_.str();
  const json report = JsonReport();
  const json copy = ResultOf(report, "runtime.copy.in_tensorflow");
  EXPECT_EQ(copy.value("outcome", ""), "fail") << copy;
  EXPECT_NE(copy.value("message", "").find("int8"), std::string::npos) << copy;
  EXPECT_NE(copy.value("message", "").find("2 of 3"), std::string::npos) << copy;
  EXPECT_EQ(ResultOf(report, "runtime.session.in_tensorflow").value("outcome", ""), "pass");

  driver_result_["copies"] = json::array({{{"dtype", "float"}, {"equal", true}}});
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--json", (dir_ / "report.json").string()}), 0)
      << out_.str();
  EXPECT_EQ(ResultOf(JsonReport(), "runtime.copy.in_tensorflow").value("outcome", ""), "pass");
}

// Issue 29: a driver that dies (here its own JSON crashed it) is a result of the run, with every
// report written, never a usage error.
TEST_F(TensorFlowOptionTest, ADriverThatDiesIsAResultWithTheReportsWritten) {
  driver_dies_ = true;
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--json", (dir_ / "report.json").string(),
                 "--junit", (dir_ / "report.xml").string()}),
            1)
      << err_.str();
  EXPECT_TRUE(fs::exists(dir_ / "report.xml"));
  const json report = JsonReport();
  const json result = ResultOf(report, "runtime.session.in_tensorflow");
  EXPECT_EQ(result.value("outcome", ""), "crash");
  EXPECT_NE(result.value("message", "").find("killed by signal 6: type_error"), std::string::npos)
      << result;
  const json& installed = report.at("installed_tensorflow");
  EXPECT_EQ(installed.at("verdict"), "unknown");
  EXPECT_FALSE(installed.contains("finding")) << installed;  // nothing TensorFlow said
}

TEST_F(TensorFlowOptionTest, ATensorFlowThatCannotBeLoadedIsAUsageError) {
  driver_fails_ = true;
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir()}), 2);
  EXPECT_NE(err_.str().find("TensorFlow could not be used: dlopen libpython3.11.so.1.0: no"),
            std::string::npos)
      << err_.str();
}

TEST_F(TensorFlowOptionTest, NotWithMatrix) {
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--matrix"}), 2);
  EXPECT_NE(err_.str().find("--tensorflow: not with --matrix"), std::string::npos) << err_.str();
  EXPECT_EQ(installed_runs_, 0);
}

TEST_F(TensorFlowOptionTest, KernelCasesGoToTensorFlowAndADisagreementFailsTheRun) {
  with_kernels_ = true;
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--seed", "7", "--json",
                 (dir_ / "report.json").string()}),
            1)
      << err_.str();
  EXPECT_EQ(kernel_seed_, 7u);  // the run's seed: the same inputs as the kernel tier's
  EXPECT_EQ(cases_handed_.at("cases").size(), 2u);
  EXPECT_FALSE(fs::exists(kernel_cases_path_));  // the case file is the run's only
  EXPECT_EQ(judged_ran_.size(), 2u);
  EXPECT_NE(out_.str().find("TensorFlow 2.21.0 (installed): kernels: 1 of 1 cases disagree with "
                            "TensorFlow's CPU (AddV2 float)"),
            std::string::npos)
      << out_.str();
  const json report = JsonReport();
  EXPECT_EQ(report.at("installed_tensorflow").at("kernels").at("cells").at("AddV2").at("float"),
            "disagrees");
  bool failed = false;
  for (const json& result : report.at("results")) {
    failed |= result.at("id") == "kernel.AddV2.float.same_shape.in_tensorflow" &&
              result.at("outcome") == "fail";
  }
  EXPECT_TRUE(failed);
}

// Issue 19: a vendor's --scenarios folders run in TensorFlow too, and the cases are generated
// for the plugin being judged (its registrations decide which cells get generated cases).
TEST_F(TensorFlowOptionTest, VendorScenarioFoldersAndThePluginGoWithTheKernelCases) {
  with_kernels_ = true;
  const fs::path vendor = dir_ / "vendor_scenarios";
  fs::create_directories(vendor);
  Run({"--tensorflow", TensorFlowDir(), "--scenarios", vendor.string(), "--seed", "3"});
  EXPECT_EQ(kernel_request_.plugin, "plugin.so");
  EXPECT_EQ(kernel_request_.scenario_dirs, std::vector<std::string>{vendor.string()});
  EXPECT_EQ(kernel_request_.seed, 3u);
}

// The installed release is asked first (the driver without a plugin), so the cases are
// generated from that release's op definitions.
TEST_F(TensorFlowOptionTest, TheKernelCasesFollowTheInstalledRelease) {
  with_kernels_ = true;
  driver_result_ = LoadedIn("2.15.1");
  Run({"--tensorflow", TensorFlowDir()});
  EXPECT_EQ(kernel_request_.release, "2.15.1");
  EXPECT_EQ(installed_runs_, 2);  // the release, then the plugin
  EXPECT_EQ(asked_plugin_, "plugin.so");
}

TEST_F(TensorFlowOptionTest, NoKernelCasesWithoutTheKernelsTier) {
  with_kernels_ = true;
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--tier", "load"}), 0) << err_.str();
  EXPECT_TRUE(kernel_cases_path_.empty());
}

// Issue 29 item 15: the profile judges its releases, the installed TensorFlow itself; where they
// differ, a contradiction is no finding against the suite, and the report says why.
TEST_F(TensorFlowOptionTest, AProfileOfAnotherReleaseMakesNoFinding) {
  driver_result_ = {{"tensorflow_version", "2.21.0"},
                    {"outcome", "aborted"},
                    {"fatal", {{"message", "no good"}, {"code", 9}}}};
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--profile", "tf2.10", "--json",
                 (dir_ / "report.json").string()}),
            1);  // TensorFlow's refusal still counts for its own release
  EXPECT_EQ(out_.str().find("FINDING"), std::string::npos) << out_.str();
  EXPECT_NE(
      out_.str().find("Different releases: the emulated tiers judged profile tf2.10 "
                      "(TensorFlow 2.10-2.15), the installed TensorFlow 2.21.0 judged itself"),
      std::string::npos)
      << out_.str();
  const json report = JsonReport();
  EXPECT_FALSE(report.at("installed_tensorflow").contains("finding"));
  for (const json& warning : report.at("warnings")) {
    EXPECT_EQ(warning.get<std::string>().find("finding against the suite"), std::string::npos);
  }
  EXPECT_EQ(ResultOf(report, "load.in_tensorflow").value("outcome", ""), "fail");
}

// Issue 29: a death in the session's first ops, with only the kernels tier selected: the session's
// unit runs unreported, the kernel cases it kept from running are skipped, and the run is still
// not conformant, saying why.
TEST_F(TensorFlowOptionTest, AnUnreportedSessionDeathStillFailsTheRun) {
  with_kernels_ = true;
  InstallMetadata("2.21.0");
  suite_tier_ = "kernels";
  driver_result_["died"] = {
      {"in_flight", {{"step", "op"}, {"op", "AddV2"}}}, {"signal", 11}, {"timed_out", false}};
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--tier", "kernels", "--json",
                 (dir_ / "report.json").string()}),
            1)
      << out_.str();
  const json report = JsonReport();
  EXPECT_TRUE(ResultOf(report, "runtime.session.in_tensorflow").empty());  // not selected
  EXPECT_EQ(ResultOf(report, "kernel.Relu.float.generated").value("outcome", ""), "skipped");
  EXPECT_NE(report.at("installed_tensorflow").value("session_failure", "").find("AddV2"),
            std::string::npos)
      << report.at("installed_tensorflow");
}

// Issue 29 item 8: --timeout is the limit of each case, and the session gets it for every case
// it runs (a slow but correct plugin never runs out of the session's allowance); both are stated.
TEST_F(TensorFlowOptionTest, TheSessionsAllowanceIsTheLimitForEachCase) {
  with_kernels_ = true;
  InstallMetadata("2.21.0");
  const std::string report = (dir_ / "report.json").string();
  Run({"--tensorflow", TensorFlowDir(), "--timeout", "7000", "--json", report});
  const std::int64_t with_two_cases = session_limit_ms_;
  EXPECT_EQ(step_limit_ms_, 7000);
  EXPECT_EQ(JsonReport().at("installed_tensorflow").value("step_limit_ms", 0), 7000);
  EXPECT_EQ(JsonReport().at("installed_tensorflow").value("session_limit_ms", 0), with_two_cases);
  EXPECT_NE(out_.str().find("time limits: 7000 ms per case or step (--timeout)"), std::string::npos)
      << out_.str();
  Run({"--tensorflow", TensorFlowDir(), "--timeout", "7000", "--filter", "*:-*.generated"});
  EXPECT_EQ(with_two_cases - session_limit_ms_, 7000);  // one case fewer, one limit less
}

// Issue 29 items 6 and 13: the installed TensorFlow's checks are units of the run.

TEST_F(TensorFlowOptionTest, TheInstalledTensorFlowsChecksAreListedWithoutStartingIt) {
  with_kernels_ = true;
  InstallMetadata("2.21.0");
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--list"}), 0) << err_.str();
  for (const char* id :
       {"load.library.dlopen", "load.in_tensorflow", "runtime.session.in_tensorflow",
        "kernel.AddV2.float.same_shape.in_tensorflow", "kernel.Relu.float.generated"}) {
    EXPECT_NE(out_.str().find(std::string(id) + "\n"), std::string::npos) << id << "\n"
                                                                          << out_.str();
  }
  EXPECT_EQ(installed_runs_, 0);  // the release came from the package's metadata
  EXPECT_EQ(kernel_request_.release, "2.21.0");
}

TEST_F(TensorFlowOptionTest, ASelectionErrorIsSaidBeforeTensorFlowStarts) {
  with_kernels_ = true;
  InstallMetadata("2.21.0");
  // An ELF file, so the selection error is what the run stops at.
  const fs::path plugin = dir_ / "plugin.so";
  std::ofstream(plugin) << "\x7f"
                           "ELF stands in for the plugin";
  plugin_ = plugin.string();
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--filter", "nosuch.*"}), 2);
  EXPECT_NE(err_.str().find("--filter 'nosuch.*' selects no check"), std::string::npos)
      << err_.str();
  EXPECT_EQ(installed_runs_, 0);
}

TEST_F(TensorFlowOptionTest, TheFilterSelectsTheInstalledTensorFlowsChecks) {
  with_kernels_ = true;
  InstallMetadata("2.21.0");
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--filter", "load.*", "--json",
                 (dir_ / "report.json").string()}),
            0)
      << err_.str() << out_.str();
  EXPECT_EQ(ResultIds(JsonReport()),
            (std::vector<std::string>{"load.library.dlopen", "load.in_tensorflow"}));
  EXPECT_EQ(plugin_sessions_, 1);
  EXPECT_TRUE(kernel_cases_path_.empty());  // no case of an unselected check went to TensorFlow

  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--filter", "*.generated", "--json",
                 (dir_ / "report.json").string()}),
            0)
      << err_.str() << out_.str();
  EXPECT_EQ(ResultIds(JsonReport()), (std::vector<std::string>{"kernel.Relu.float.generated"}));
  EXPECT_EQ(cases_handed_.at("cases").size(), 1u);  // Relu's only
  EXPECT_EQ(cases_handed_.at("cases")[0].at("id"), "kernel.Relu.float.generated");
}

TEST_F(TensorFlowOptionTest, ShardsSplitTheInstalledTensorFlowsChecks) {
  with_kernels_ = true;
  InstallMetadata("2.21.0");
  const std::string report = (dir_ / "report.json").string();
  ASSERT_EQ(Run({"--tensorflow", TensorFlowDir(), "--json", report}), 1) << err_.str();
  const std::vector<std::string> whole = ResultIds(JsonReport());
  EXPECT_EQ(std::set<std::string>(whole.begin(), whole.end()),
            (std::set<std::string>{
                "load.library.dlopen", "load.in_tensorflow", "runtime.session.in_tensorflow",
                "runtime.copy.in_tensorflow", "runtime.float_ops.in_tensorflow",
                "kernel.AddV2.float.same_shape.in_tensorflow", "kernel.Relu.float.generated"}));
  std::multiset<std::string> union_of_shards;
  env_["GTEST_TOTAL_SHARDS"] = "2";
  for (const char* index : {"0", "1"}) {
    env_["GTEST_SHARD_INDEX"] = index;
    plugin_sessions_ = 0;
    Run({"--tensorflow", TensorFlowDir(), "--json", report});
    EXPECT_LE(plugin_sessions_, 1) << "shard " << index;  // one TensorFlow session per shard
    for (const std::string& id : ResultIds(JsonReport())) union_of_shards.insert(id);
  }
  EXPECT_EQ(union_of_shards, std::multiset<std::string>(whole.begin(), whole.end()));
}

TEST_F(TensorFlowOptionTest, WaiversApplyToTheInstalledTensorFlowsChecks) {
  with_kernels_ = true;
  InstallMetadata("2.21.0");
  const std::string report = (dir_ / "report.json").string();
  const auto waived_run = [&](const std::string& waivers) {
    const fs::path file = dir_ / "waivers.yaml";
    std::ofstream(file) << waivers;
    return Run({"--tensorflow", TensorFlowDir(), "--waivers", file.string(), "--json", report});
  };
  EXPECT_EQ(waived_run("- id: kernel.AddV2.float.same_shape.in_tensorflow\n  reason: ticket 1\n"),
            0)
      << err_.str();
  EXPECT_EQ(ResultOf(JsonReport(), "kernel.AddV2.float.same_shape.in_tensorflow").at("outcome"),
            "waived");
  EXPECT_EQ(err_.str().find("matches no selected check"), std::string::npos) << err_.str();
  EXPECT_EQ(waived_run("- id: kernel.AddV2.*.in_tensorflow\n  reason: ticket 1\n"), 0)
      << err_.str();
  EXPECT_EQ(waived_run("- callback: compute_func\n  problem: wrong values\n  kernel: AddV2\n"
                       "  reason: ticket 1\n"),
            0)
      << err_.str();
  // The round trip: the baseline a failing run writes makes the next run conformant.
  const fs::path baseline = dir_ / "baseline.yaml";
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--write-waivers", baseline.string()}), 1);
  EXPECT_EQ(Run({"--tensorflow", TensorFlowDir(), "--waivers", baseline.string()}), 0)
      << err_.str() << out_.str();
  EXPECT_NE(out_.str().find("CONFORMANT"), std::string::npos) << out_.str();
}

}  // namespace
}  // namespace conformance
