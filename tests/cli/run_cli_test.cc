// The command line end to end, with fake units and an in-process runner in place of the
// real suite and isolator: options, exit codes, list mode, report files.
#include "cli/run_cli.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

namespace conformance {
namespace {

namespace fs = std::filesystem;

class CollectingSink : public ResultSink {
 public:
  void Emit(CheckResult result) override { results.push_back(std::move(result)); }
  std::vector<CheckResult> results;
};

TestUnit Unit(std::string name, std::string tier, std::vector<std::string> ids,
              Outcome outcome = Outcome::kPass) {
  TestUnit unit{.name = std::move(name), .tier = std::move(tier), .check_ids = ids,
                .run = nullptr, .prerequisites = {}};
  unit.run = [ids, outcome](UnitContext& context) {
    for (const std::string& id : ids) {
      CheckResult result;
      result.id = id;
      result.outcome = outcome;
      result.message = outcome == Outcome::kPass ? "" : "broken " + id;
      context.sink.Emit(result);
    }
  };
  return unit;
}

class RunCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("run_cli_test_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    suite_ = {
        Unit("load.library", "load", {"load.library.dlopen"}),
        Unit("load.se", "load", {"load.se.platform.name_regex", "load.se.device.count"}),
        Unit("runtime.memcpy", "runtime", {"runtime.memcpy.htod"}),
        Unit("stress.alloc", "stress", {"stress.alloc.many"}),
    };
  }
  void TearDown() override { fs::remove_all(dir_); }

  int Run(std::vector<std::string> args) {
    args.insert(args.begin(), "plugin_conformance");
    std::vector<const char*> argv;
    for (const std::string& arg : args) argv.push_back(arg.c_str());
    out_.str("");
    err_.str("");
    runs_ = 0;
    CliEnvironment environment{
        .build_suite =
            [this](const RunSettings&) {
              std::this_thread::sleep_for(build_suite_delay_);  // e.g. scenario files loading
              return suite_;
            },
        .run_units =
            [this](const std::vector<TestUnit>& units, const RunSettings& settings,
                   const IsolationOptions& isolation, int jobs, const UnitDone& on_done) {
              ++runs_;
              settings_ = settings;
              isolation_ = isolation;
              jobs_ = jobs;
              if (runner_throws_) throw std::runtime_error("pipe exploded");
              for (std::size_t i = 0; i < units.size(); ++i) {
                CollectingSink sink;
                UnitContext context{settings, sink};
                units[i].run(context);
                on_done(i, std::move(sink.results));
              }
            },
        .lookup = [this](std::string_view id) -> const CheckEntry* {
          return id == "load.library.dlopen" ? &entry_ : nullptr;
        },
        .env = [this](const char* name) -> const char* {
          const auto found = env_.find(name);
          return found == env_.end() ? nullptr : found->second.c_str();
        },
        .out = &out_,
        .err = &err_,
        .colour = colour_,
        .version = "1.2.3",
        .cpu_count = 6,
    };
    return RunCli(static_cast<int>(argv.size()), argv.data(), environment);
  }

  std::string Out() const { return out_.str(); }
  std::string Err() const { return err_.str(); }

  fs::path dir_;
  std::vector<TestUnit> suite_;
  std::map<std::string, std::string> env_;
  bool colour_ = false;
  bool runner_throws_ = false;
  CheckEntry entry_{"load.library.dlopen", "load", Origin::kTensorFlow,
                    "the library loads with RTLD_NOW | RTLD_LOCAL", "aborts", "link it"};
  std::ostringstream out_;
  std::ostringstream err_;
  int runs_ = 0;
  std::chrono::milliseconds build_suite_delay_{0};
  RunSettings settings_;
  IsolationOptions isolation_;
  int jobs_ = 0;
};

TEST_F(RunCliTest, HelpDocumentsExitCodesAndExitsZero) {
  EXPECT_EQ(Run({"--help"}), 0);
  EXPECT_NE(Out().find("Exit codes:"), std::string::npos) << Out();
  EXPECT_NE(Out().find("3  the plugin could not be loaded"), std::string::npos);
  EXPECT_NE(Out().find("--co-load"), std::string::npos);
  EXPECT_EQ(runs_, 0);
}

TEST_F(RunCliTest, VersionExitsZero) {
  EXPECT_EQ(Run({"--version"}), 0);
  EXPECT_NE(Out().find("plugin_conformance 1.2.3"), std::string::npos) << Out();
}

TEST_F(RunCliTest, MissingPluginIsAUsageError) {
  EXPECT_EQ(Run({}), 2);
  EXPECT_NE(Err().find("missing PLUGIN"), std::string::npos) << Err();
  EXPECT_EQ(runs_, 0);
}

TEST_F(RunCliTest, BadOptionsAreUsageErrors) {
  EXPECT_EQ(Run({"p.so", "--frobnicate"}), 2);
  EXPECT_EQ(Run({"p.so", "--timeout", "0"}), 2);
  EXPECT_EQ(Run({"p.so", "--jobs", "zero"}), 2);
  EXPECT_EQ(Run({"p.so", "--tier", "kernals"}), 2);
  EXPECT_NE(Err().find("did you mean 'kernels'?"), std::string::npos) << Err();
  EXPECT_EQ(runs_, 0);
}

TEST_F(RunCliTest, InvalidShardingEnvironmentIsAUsageError) {
  env_ = {{"GTEST_TOTAL_SHARDS", "2"}, {"GTEST_SHARD_INDEX", "2"}};
  EXPECT_EQ(Run({"p.so"}), 2);
  EXPECT_NE(Err().find("GTEST_SHARD_INDEX"), std::string::npos) << Err();
  EXPECT_EQ(Run({"--list"}), 2);  // as gtest: checked in list mode too
}

TEST_F(RunCliTest, ListPrintsSelectedIdsWithoutAPlugin) {
  EXPECT_EQ(Run({"--list"}), 0);
  EXPECT_EQ(Out(),
            "load.library.dlopen\nload.se.platform.name_regex\nload.se.device.count\n"
            "runtime.memcpy.htod\n");
  EXPECT_EQ(runs_, 0);
}

TEST_F(RunCliTest, ListHonoursFilterAndTiers) {
  EXPECT_EQ(Run({"--list", "--filter=-load.se.*", "--tier", "load,stress"}), 0);
  EXPECT_EQ(Out(), "load.library.dlopen\nstress.alloc.many\n");
}

TEST_F(RunCliTest, VerboseListAddsOriginAndRule) {
  EXPECT_EQ(Run({"--list", "-v", "--filter", "load.*"}), 0);
  EXPECT_NE(Out().find("load.library.dlopen          [TensorFlow] the library loads"),
            std::string::npos)
      << Out();
  EXPECT_NE(Out().find("\nload.se.device.count\n"), std::string::npos) << Out();
}

TEST_F(RunCliTest, ConformantRunExitsZeroAndPrintsSeedAndVerdict) {
  EXPECT_EQ(Run({"p.so", "--seed", "77"}), 0);
  EXPECT_NE(Out().find("(profile newest, seed 77)"), std::string::npos) << Out();
  EXPECT_NE(Out().find("4 checks: 4 pass"), std::string::npos) << Out();
  EXPECT_NE(Out().find("\nCONFORMANT\n"), std::string::npos) << Out();
  EXPECT_EQ(settings_.seed, 77u);
  EXPECT_EQ(settings_.plugin_path, "p.so");
}

TEST_F(RunCliTest, FailingCheckExitsOne) {
  suite_[2] = Unit("runtime.memcpy", "runtime", {"runtime.memcpy.htod"}, Outcome::kFail);
  EXPECT_EQ(Run({"p.so"}), 1);
  EXPECT_NE(Out().find("FAIL            runtime.memcpy.htod: broken runtime.memcpy.htod"),
            std::string::npos)
      << Out();
  EXPECT_NE(Out().find("NOT CONFORMANT"), std::string::npos);
}

TEST_F(RunCliTest, LibraryThatDoesNotLoadExitsThree) {
  suite_[0] = Unit("load.library", "load", {"load.library.dlopen"}, Outcome::kFail);
  EXPECT_EQ(Run({"p.so"}), 3);
  EXPECT_NE(Out().find("the plugin could not be loaded"), std::string::npos) << Out();
}

TEST_F(RunCliTest, WaivedFailureIsConformantAndStaleWaiverIsNot) {
  suite_[2] = Unit("runtime.memcpy", "runtime", {"runtime.memcpy.htod"}, Outcome::kFail);
  std::ofstream(dir_ / "w.yaml") << "- id: runtime.memcpy.*\n  reason: ticket 5\n"
                                    "- id: kernel.*\n  reason: no such checks\n";
  EXPECT_EQ(Run({"p.so", "--waivers", (dir_ / "w.yaml").string()}), 0);
  EXPECT_NE(Out().find("WAIVED"), std::string::npos) << Out();
  EXPECT_NE(Err().find("warning: " + (dir_ / "w.yaml").string() + ":3:3: waiver 'kernel.*' "
                       "matches no selected check"),
            std::string::npos)
      << Err();

  std::ofstream(dir_ / "stale.yaml") << "- id: load.se.*\n  reason: fixed long ago\n";
  EXPECT_EQ(Run({"p.so", "--waivers", (dir_ / "stale.yaml").string()}), 1);
  EXPECT_NE(Out().find("UNEXPECTED_PASS"), std::string::npos) << Out();
}

TEST_F(RunCliTest, MalformedWaiversFileIsAUsageErrorBeforeRunning) {
  std::ofstream(dir_ / "w.yaml") << "- id: x\n  resaon: typo\n";
  EXPECT_EQ(Run({"p.so", "--waivers", (dir_ / "w.yaml").string()}), 2);
  EXPECT_NE(Err().find((dir_ / "w.yaml").string() + ":2:3: waiver entry 1: unknown key "
                       "'resaon' (did you mean 'reason'?)"),
            std::string::npos)
      << Err();
  EXPECT_EQ(runs_, 0);
  EXPECT_EQ(Run({"p.so", "--waivers", (dir_ / "missing.yaml").string()}), 2);
}

// Building the suite loads and validates every scenario file; that time is part of the run.
TEST_F(RunCliTest, WallTimeIncludesBuildingTheSuite) {
  build_suite_delay_ = std::chrono::milliseconds(300);
  const fs::path json_path = dir_ / "report.json";
  EXPECT_EQ(Run({"p.so", "--json", json_path.string(), "--tier", "runtime"}), 0);
  std::ifstream json_file(json_path);
  const nlohmann::json report = nlohmann::json::parse(json_file);
  EXPECT_GE(report.at("wall_seconds").get<double>(), 0.3);
}

TEST_F(RunCliTest, WritesJsonAndJUnitReports) {
  const fs::path json_path = dir_ / "report.json";
  const fs::path junit_path = dir_ / "report.xml";
  EXPECT_EQ(Run({"p.so", "--seed", "5", "--profile", "tf2.15", "--json", json_path.string(),
                 "--junit", junit_path.string(), "--tier", "runtime"}),
            0);
  std::ifstream json_file(json_path);
  const nlohmann::json report = nlohmann::json::parse(json_file);
  EXPECT_EQ(report.at("seed"), "5");
  EXPECT_EQ(report.at("profile"), "tf2.15");
  EXPECT_EQ(report.at("tiers"), nlohmann::json::array({"runtime"}));
  ASSERT_EQ(report.at("results").size(), 1u);
  EXPECT_EQ(report.at("results")[0].at("id"), "runtime.memcpy.htod");
  std::ifstream xml_file(junit_path);
  std::stringstream xml;
  xml << xml_file.rdbuf();
  EXPECT_NE(xml.str().find("<testcase classname=\"runtime.memcpy\" name=\"htod\""),
            std::string::npos);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 2);
}

TEST_F(RunCliTest, UnusableReportPathIsAUsageErrorBeforeRunning) {
  EXPECT_EQ(Run({"p.so", "--json", (dir_ / "no" / "r.json").string()}), 2);
  EXPECT_NE(Err().find("--json: cannot write"), std::string::npos) << Err();
  EXPECT_NE(Err().find("does not exist"), std::string::npos) << Err();
  EXPECT_EQ(runs_, 0);
}

TEST_F(RunCliTest, HarnessFailureIsExitFour) {
  runner_throws_ = true;
  EXPECT_EQ(Run({"p.so"}), 4);
  EXPECT_NE(Err().find("internal error: pipe exploded"), std::string::npos) << Err();
}

TEST_F(RunCliTest, SettingsReachTheRunner) {
  EXPECT_EQ(Run({"p.so", "--co-load", "a.so", "--co-load", "b.so", "--timeout", "250",
                 "--profile", "tf2.12"}),
            0);
  EXPECT_EQ(settings_.co_loaded_plugins, (std::vector<std::string>{"a.so", "b.so"}));
  EXPECT_EQ(settings_.profile, "tf2.12");
  EXPECT_EQ(isolation_.timeout, std::chrono::milliseconds(250));
  EXPECT_TRUE(isolation_.isolate);
  EXPECT_EQ(jobs_, 12);  // default: two per CPU
}

TEST_F(RunCliTest, JobsAndIsolation) {
  EXPECT_EQ(Run({"p.so", "--jobs", "3"}), 0);
  EXPECT_EQ(jobs_, 3);
  EXPECT_EQ(Run({"p.so", "--jobs", "3", "--no-isolation"}), 0);
  EXPECT_EQ(jobs_, 1);  // in-process units cannot overlap
  EXPECT_FALSE(isolation_.isolate);
}

TEST_F(RunCliTest, TimeoutWithNoIsolationIsRefused) {
  EXPECT_EQ(Run({"p.so", "--no-isolation", "--timeout", "500"}), 2);
  EXPECT_NE(Err().find("--timeout cannot be honoured with --no-isolation"), std::string::npos)
      << Err();
}

TEST_F(RunCliTest, SeedDefaultsToAPrintedClockDerivedValue) {
  EXPECT_EQ(Run({"p.so"}), 0);
  EXPECT_NE(Out().find("seed " + std::to_string(settings_.seed) + ")"), std::string::npos)
      << Out();
}

TEST_F(RunCliTest, ShardingRunsOnlyThisShardsUnits) {
  env_ = {{"GTEST_TOTAL_SHARDS", "2"}, {"GTEST_SHARD_INDEX", "1"},
          {"GTEST_SHARD_STATUS_FILE", (dir_ / "status").string()}};
  EXPECT_EQ(Run({"p.so"}), 0);
  // Units 0 (load.library) and 2 (runtime.memcpy) go to shard 0, unit 1 (load.se, two
  // checks) to shard 1.
  EXPECT_NE(Out().find("2 checks: 2 pass"), std::string::npos) << Out();
  EXPECT_NE(Out().find("shard 2 of 2"), std::string::npos) << Out();
  EXPECT_TRUE(fs::exists(dir_ / "status"));
}

TEST_F(RunCliTest, ColourOnlyWhenTheEnvironmentSaysSo) {
  suite_[2] = Unit("runtime.memcpy", "runtime", {"runtime.memcpy.htod"}, Outcome::kFail);
  Run({"p.so"});
  EXPECT_EQ(Out().find('\x1b'), std::string::npos);
  colour_ = true;
  Run({"p.so"});
  EXPECT_NE(Out().find('\x1b'), std::string::npos);
}

}  // namespace
}  // namespace conformance
