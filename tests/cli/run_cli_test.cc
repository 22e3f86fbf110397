// The command line end to end, with fake units and an in-process runner in place of the
// real suite and isolator: options, exit codes, list mode, report files.
#include "cli/run_cli.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "../support/collecting_sink.h"

namespace conformance {
namespace {

namespace fs = std::filesystem;

using test_support::CollectingSink;

TestUnit Unit(std::string name, std::string tier, const std::vector<std::string>& ids,
              Outcome outcome = Outcome::kPass) {
  TestUnit unit{.name = std::move(name),
                .tier = std::move(tier),
                .check_ids = ids,
                .run = nullptr,
                .prerequisites = {}};
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
 public:  // the option table's checks read the fixture's state
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
    argv.reserve(args.size());
    for (const std::string& arg : args) argv.push_back(arg.c_str());
    out_.str("");
    err_.str("");
    runs_ = 0;
    ran_.clear();
    built_tiers_.clear();
    CliEnvironment environment{
        .build_suite =
            [this](const RunSettings& settings) {
              std::this_thread::sleep_for(build_suite_delay_);  // e.g. scenario files loading
              built_tiers_.push_back(settings.built_tiers);
              // As BuildSuite does: the load tier always, the others only when built.
              std::vector<TestUnit> units;
              for (const TestUnit& unit : suite_) {
                if (unit.tier == "load" || settings.BuildsTier(unit.tier)) units.push_back(unit);
              }
              return units;
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
                ran_.push_back(units[i].name);
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
        .profiles = {"newest", "tf2.10", "tf2.7"},
        .generations = generations_,
    };
    environment.list_registered_cells = list_registered_cells_;
    return RunCli(static_cast<int>(argv.size()), argv.data(), environment);
  }

  std::string Out() const { return out_.str(); }

  // A file that starts like an ELF object, for options that look at the file before running.
  std::string ElfFile(const std::string& name) const {
    std::ofstream(dir_ / name) << "\x7f"
                                  "ELF rest of it";
    return (dir_ / name).string();
  }
  std::string Err() const { return err_.str(); }

  fs::path dir_;
  std::vector<TestUnit> suite_;
  std::map<std::string, std::string> env_;
  bool colour_ = false;
  bool runner_throws_ = false;
  std::vector<MatrixGeneration> generations_;  // the profiles' releases, for --profile RELEASE
  decltype(CliEnvironment::list_registered_cells) list_registered_cells_;
  CheckEntry entry_{"load.library.dlopen",
                    "load",
                    Origin::kTensorFlow,
                    "the library loads with RTLD_NOW | RTLD_LOCAL",
                    "aborts",
                    "link it"};
  std::ostringstream out_;
  std::ostringstream err_;
  int runs_ = 0;
  std::chrono::milliseconds build_suite_delay_{0};
  std::vector<std::string> ran_;                       // unit names, in the order they ran
  std::vector<std::vector<std::string>> built_tiers_;  // RunSettings::built_tiers of each build
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
  // The runtime tier still needs a check that passed (see AllWaivedTierIsNotConformant).
  suite_.push_back(Unit("runtime.event", "runtime", {"runtime.event.record"}));
  std::ofstream(dir_ / "w.yaml") << "- id: runtime.memcpy.*\n  reason: ticket 5\n"
                                    "- id: kernel.*\n  reason: no such checks\n";
  EXPECT_EQ(Run({"p.so", "--waivers", (dir_ / "w.yaml").string()}), 0);
  EXPECT_NE(Out().find("WAIVED"), std::string::npos) << Out();
  EXPECT_NE(Err().find("warning: " + (dir_ / "w.yaml").string() +
                       ":3:3: waiver 'kernel.*' "
                       "matches no selected check"),
            std::string::npos)
      << Err();

  // An exact id names a check expected to fail: its pass is news. A glob only waives failures.
  std::ofstream(dir_ / "stale.yaml") << "- id: load.se.device.count\n  reason: fixed long ago\n";
  EXPECT_EQ(Run({"p.so", "--waivers", (dir_ / "stale.yaml").string()}), 1);
  EXPECT_NE(Out().find("UNEXPECTED_PASS"), std::string::npos) << Out();
  std::ofstream(dir_ / "glob.yaml") << "- id: runtime.memcpy.*\n  reason: ticket 5\n"
                                       "- id: load.se.*\n  reason: some may fail\n";
  EXPECT_EQ(Run({"p.so", "--waivers", (dir_ / "glob.yaml").string()}), 0) << Out();
  EXPECT_EQ(Out().find("UNEXPECTED_PASS"), std::string::npos) << Out();
  EXPECT_NE(Err().find("unused waiver: 'load.se.*' matches no failing check"), std::string::npos)
      << Err();
}

TEST_F(RunCliTest, WriteWaiversWritesTheBaselineTheNextRunPassesWith) {
  suite_[2] = Unit("runtime.memcpy", "runtime", {"runtime.memcpy.htod"}, Outcome::kFail);
  suite_.push_back(Unit("runtime.event", "runtime", {"runtime.event.record"}));
  const std::string baseline = (dir_ / "baseline.yaml").string();
  EXPECT_EQ(Run({"p.so", "--write-waivers", baseline}), 1);
  std::ifstream in(baseline);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("- id: \"runtime.memcpy.htod\"\n"), std::string::npos) << text;
  EXPECT_NE(text.find("reason: \"TODO: say why, and link the ticket\""), std::string::npos) << text;
  EXPECT_EQ(text.find("load.library.dlopen"), std::string::npos) << text;  // passed
  EXPECT_EQ(Run({"p.so", "--waivers", baseline}), 0) << Out() << Err();
  EXPECT_NE(Out().find("WAIVED"), std::string::npos) << Out();
  EXPECT_EQ(Run({"--list", "--write-waivers", baseline}), 2);
}

TEST_F(RunCliTest, EveryErrorOfAWaiversFileIncludingAnUnknownProfileIsReported) {
  std::ofstream(dir_ / "w.yaml") << "- id: a\n  reason: r\n  profile: tf2.100\n"
                                    "- id: b\n  resaon: typo\n";
  EXPECT_EQ(Run({"p.so", "--waivers", (dir_ / "w.yaml").string()}), 2);
  EXPECT_NE(Err().find(":3:12: waiver entry 1: profile 'tf2.100' matches no profile (did you mean "
                       "'tf2.10'?); known profiles: newest tf2.10 tf2.7"),
            std::string::npos)
      << Err();
  EXPECT_NE(Err().find(":5:3: waiver entry 2: unknown key 'resaon'"), std::string::npos) << Err();
  EXPECT_EQ(runs_, 0);
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

// Issue 29 item 18: with the kernels tier, the plugin's registered cells are listed after the run
// and the report says which no check judged; without the tier nothing is listed.
TEST_F(RunCliTest, RegisteredKernelsNoCheckJudgedAreReported) {
  suite_.push_back(
      Unit("kernel.AddV2", "kernels", {"kernel.AddV2.float.basic", "kernel.AddV2.leaks"}));
  int listed = 0;
  list_registered_cells_ = [&](const std::string& plugin, const std::string& profile)
      -> std::variant<std::vector<std::pair<std::string, std::string>>, std::string> {
    ++listed;
    EXPECT_EQ(plugin, "p.so");
    EXPECT_EQ(profile, "newest");
    return std::vector<std::pair<std::string, std::string>>{{"AddV2", "float"}, {"Floor", "float"}};
  };
  const fs::path json_path = dir_ / "report.json";
  EXPECT_EQ(Run({"p.so", "--json", json_path.string()}), 0) << Out();
  EXPECT_EQ(listed, 1);
  const nlohmann::json report = nlohmann::json::parse(std::ifstream(json_path));
  EXPECT_EQ(report.at("registered_kernels"),
            nlohmann::json::parse(R"([{"op": "AddV2", "dtype": "float", "scenario": true},
                                       {"op": "Floor", "dtype": "float", "scenario": false}])"));
  const auto& registered = report.at("op_coverage").at("registered_kernels");
  EXPECT_EQ(registered.at("judged"), 1);
  EXPECT_EQ(registered.at("cells"), 2);
  EXPECT_NE(Out().find("Registered kernels: judged 1 of 2 (op, dtype) cells; 1 not judged: Floor "
                       "(float) (no check ran it: no built-in scenario covers it"),
            std::string::npos)
      << Out();

  EXPECT_EQ(Run({"p.so", "--tier", "load"}), 0);
  EXPECT_EQ(listed, 1) << "the kernels tier did not run: nothing to list";

  list_registered_cells_ = [](const std::string&, const std::string&)
      -> std::variant<std::vector<std::pair<std::string, std::string>>, std::string> {
    return std::string("the plugin's kernel registrations: the child died");
  };
  EXPECT_EQ(Run({"p.so", "--json", json_path.string()}), 0);
  EXPECT_NE(Err().find("warning: the plugin's kernel registrations could not be listed"),
            std::string::npos)
      << Err();
  const nlohmann::json unlisted = nlohmann::json::parse(std::ifstream(json_path));
  EXPECT_FALSE(unlisted.contains("registered_kernels"));
  EXPECT_EQ(unlisted.at("warnings").size(), 1u) << unlisted.at("warnings").dump();
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
  EXPECT_EQ(Run({"p.so", "--seed", "5", "--profile", "tf2.10", "--json", json_path.string(),
                 "--junit", junit_path.string(), "--tier", "runtime"}),
            0);
  std::ifstream json_file(json_path);
  const nlohmann::json report = nlohmann::json::parse(json_file);
  EXPECT_EQ(report.at("seed"), "5");
  EXPECT_EQ(report.at("profile"), "tf2.10");
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
  const std::string a = ElfFile("a.so");
  const std::string b = ElfFile("b.so");
  EXPECT_EQ(Run({"p.so", "--co-load", a, "--co-load", b, "--timeout", "250", "--profile", "tf2.7"}),
            0);
  EXPECT_EQ(settings_.co_loaded_plugins, (std::vector<std::string>{a, b}));
  EXPECT_EQ(settings_.profile, "tf2.7");
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

// A gate must feed every run the same inputs: without --seed the seed is fixed (and printed);
// --seed random derives one from the clock.
TEST_F(RunCliTest, SeedDefaultsToAFixedPrintedValue) {
  EXPECT_EQ(Run({"p.so"}), 0);
  EXPECT_EQ(settings_.seed, kDefaultSeed);
  EXPECT_NE(Out().find("seed " + std::to_string(kDefaultSeed) + ")"), std::string::npos) << Out();
  EXPECT_EQ(Run({"p.so"}), 0);
  EXPECT_EQ(settings_.seed, kDefaultSeed);
}

TEST_F(RunCliTest, SeedRandomIsClockDerivedAndPrinted) {
  std::vector<std::uint64_t> seeds;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(Run({"p.so", "--seed", "random"}), 0);
    EXPECT_NE(Out().find("seed " + std::to_string(settings_.seed) + ")"), std::string::npos)
        << Out();
    seeds.push_back(settings_.seed);
  }
  // Three clock-derived 32-bit seeds: all equal by chance once in 2^64 runs.
  EXPECT_FALSE(seeds[0] == seeds[1] && seeds[1] == seeds[2]);
}

TEST_F(RunCliTest, ShardingRunsOnlyThisShardsUnits) {
  env_ = {{"GTEST_TOTAL_SHARDS", "2"},
          {"GTEST_SHARD_INDEX", "1"},
          {"GTEST_SHARD_STATUS_FILE", (dir_ / "status").string()}};
  EXPECT_EQ(Run({"p.so"}), 0);
  // Units 0 (load.library) and 2 (runtime.memcpy) go to shard 0, unit 1 (load.se, two
  // checks) to shard 1.
  EXPECT_NE(Out().find("2 checks: 2 pass"), std::string::npos) << Out();
  EXPECT_NE(Out().find("shard 2 of 2"), std::string::npos) << Out();
  EXPECT_TRUE(fs::exists(dir_ / "status"));
}

// Issue 17: a shard that holds no load check states the verdict of the whole run, which it gets
// by running the whole load tier unreported: here load.se (shard 1) makes TensorFlow refuse the
// plugin, so shard 0 must not say it loads, and skips its runtime unit for TensorFlow's reason.
TEST_F(RunCliTest, ShardWithoutTheRefusingCheckStatesTheRefusal) {
  suite_[1].run = [](UnitContext& context) {
    CheckResult name;
    name.id = "load.se.platform.name_regex";
    name.outcome = Outcome::kFail;
    name.message = "Device name/type 'x' must match [A-Z][A-Z_]*.";
    name.tf_code = 3;
    context.sink.Emit(name);
    CheckResult count;
    count.id = "load.se.device.count";
    count.outcome = Outcome::kPass;
    context.sink.Emit(count);
  };
  env_ = {{"GTEST_TOTAL_SHARDS", "2"}, {"GTEST_SHARD_INDEX", "0"}};
  Run({"p.so"});
  EXPECT_NE(Out().find("TensorFlow: refuses the plugin (TF_Code 3)"), std::string::npos) << Out();
  EXPECT_EQ(Out().find("TensorFlow: loads the plugin"), std::string::npos) << Out();
  EXPECT_EQ(Out().find("load.se.platform.name_regex"), std::string::npos)
      << "a helper's result was reported: " << Out();
}

TEST_F(RunCliTest, ColourOnlyWhenTheEnvironmentSaysSo) {
  suite_[2] = Unit("runtime.memcpy", "runtime", {"runtime.memcpy.htod"}, Outcome::kFail);
  Run({"p.so"});
  EXPECT_EQ(Out().find('\x1b'), std::string::npos);
  colour_ = true;
  Run({"p.so"});
  EXPECT_NE(Out().find('\x1b'), std::string::npos);
}

// Issue 6 §2: every option works before and after PLUGIN; list-valued options take a
// comma-separated value or repeat. Each row says what the option must have changed.
struct OptionRow {
  std::string name;
  std::vector<std::string> args;  // the option and its values, without PLUGIN
  std::function<void(RunCliTest&)> check;
  int exit_code = 0;
  std::function<void(RunCliTest&)> setup = [](RunCliTest&) {};
};

// load.se fails with a TF_Code: TensorFlow refuses the plugin.
TestUnit RefusedLoadUnit() {
  TestUnit unit{.name = "load.se",
                .tier = "load",
                .check_ids = {"load.se.platform.name_regex"},
                .run = nullptr,
                .prerequisites = {}};
  unit.run = [](UnitContext& context) {
    CheckResult refused;
    refused.id = "load.se.platform.name_regex";
    refused.outcome = Outcome::kFail;
    refused.tf_code = 9;
    context.sink.Emit(refused);
  };
  return unit;
}

TEST_F(RunCliTest, EveryOptionWorksBeforeAndAfterThePlugin) {
  const std::string a = ElfFile("a.so");
  const std::string b = ElfFile("b.so");
  std::ofstream(dir_ / "w.yaml") << "- id: graph.*\n  reason: r\n";
  fs::create_directories(dir_ / "scenarios");
  const std::string json = (dir_ / "r.json").string();
  const std::string junit = (dir_ / "r.xml").string();
  const std::vector<OptionRow> rows = {
      {"--filter",
       {"--filter", "load.*"},
       [](RunCliTest& t) {
         EXPECT_NE(t.Out().find("3 checks: 3 pass"), std::string::npos) << t.Out();
       }},
      {"--tier comma",
       {"--tier", "load,stress"},
       [](RunCliTest& t) {
         EXPECT_NE(t.Out().find("tiers load,stress;"), std::string::npos) << t.Out();
       }},
      {"--tier repeated",
       {"--tier", "load", "--tier", "stress"},
       [](RunCliTest& t) {
         EXPECT_NE(t.Out().find("tiers load,stress;"), std::string::npos) << t.Out();
       }},
      {"--timeout",
       {"--timeout", "250"},
       [](RunCliTest& t) { EXPECT_EQ(t.isolation_.timeout, std::chrono::milliseconds(250)); }},
      {"--seed",
       {"--seed", "18446744073709551615"},
       [](RunCliTest& t) { EXPECT_EQ(t.settings_.seed, 18446744073709551615u); }},
      {"--jobs", {"--jobs", "3"}, [](RunCliTest& t) { EXPECT_EQ(t.jobs_, 3); }},
      {"--repeat",
       {"--repeat", "3"},
       [](RunCliTest& t) {
         EXPECT_EQ(std::count(t.ran_.begin(), t.ran_.end(), "runtime.memcpy"), 3);
         EXPECT_NE(t.Out().find("every unit runs 3 times (--repeat)"), std::string::npos)
             << t.Out();
       }},
      {"--json",
       {"--json", json},
       [json](RunCliTest&) {
         EXPECT_TRUE(fs::exists(json));
         fs::remove(json);
       }},
      {"--junit",
       {"--junit", junit},
       [junit](RunCliTest&) {
         EXPECT_TRUE(fs::exists(junit));
         fs::remove(junit);
       }},
      {"--waivers",
       {"--waivers", (dir_ / "w.yaml").string()},
       [](RunCliTest& t) {
         EXPECT_NE(t.Err().find("matches no selected check"), std::string::npos) << t.Err();
       }},
      {"--write-waivers",
       {"--write-waivers", (dir_ / "baseline.yaml").string()},
       [this](RunCliTest&) {
         EXPECT_TRUE(fs::exists(dir_ / "baseline.yaml"));
         fs::remove(dir_ / "baseline.yaml");
       }},
      {"--profile",
       {"--profile", "tf2.7"},
       [](RunCliTest& t) { EXPECT_EQ(t.settings_.profile, "tf2.7"); }},
      {"--co-load comma",
       {"--co-load", a + "," + b},
       [a, b](RunCliTest& t) {
         EXPECT_EQ(t.settings_.co_loaded_plugins, (std::vector<std::string>{a, b}));
       }},
      {"--co-load repeated",
       {"--co-load", a, "--co-load", b},
       [a, b](RunCliTest& t) {
         EXPECT_EQ(t.settings_.co_loaded_plugins, (std::vector<std::string>{a, b}));
       }},
      {"--scenarios",
       {"--scenarios", (dir_ / "scenarios").string()},
       [this](RunCliTest& t) {
         EXPECT_EQ(t.settings_.scenario_dirs,
                   (std::vector<std::string>{(dir_ / "scenarios").string()}));
       }},
      {"--no-isolation",
       {"--no-isolation"},
       [](RunCliTest& t) { EXPECT_FALSE(t.isolation_.isolate); }},
      {"--force-runtime",
       {"--force-runtime"},
       [](RunCliTest& t) {
         EXPECT_NE(std::find(t.ran_.begin(), t.ran_.end(), "runtime.memcpy"), t.ran_.end());
         EXPECT_EQ(t.Out().find("not run: TensorFlow refuses"), std::string::npos) << t.Out();
       },
       1,
       [](RunCliTest& t) { t.suite_[1] = RefusedLoadUnit(); }},
      {"-v",
       {"-v"},
       [](RunCliTest& t) { EXPECT_NE(t.Out().find("PASS "), std::string::npos) << t.Out(); }},
      {"--verbose",
       {"--verbose"},
       [](RunCliTest& t) { EXPECT_NE(t.Out().find("PASS "), std::string::npos) << t.Out(); }},
  };
  const std::vector<TestUnit> suite = suite_;
  for (const OptionRow& row : rows) {
    for (const bool before : {true, false}) {
      SCOPED_TRACE(row.name + (before ? " before PLUGIN" : " after PLUGIN"));
      suite_ = suite;
      row.setup(*this);
      std::vector<std::string> args = row.args;
      if (before) {
        args.push_back("p.so");
      } else {
        args.insert(args.begin(), "p.so");
      }
      EXPECT_EQ(Run(args), row.exit_code) << Err();
      EXPECT_EQ(settings_.plugin_path, "p.so");
      row.check(*this);
    }
  }
}

TEST_F(RunCliTest, ListWorksWithOptionsOnEitherSide) {
  EXPECT_EQ(Run({"--tier", "stress", "--list"}), 0);
  EXPECT_EQ(Out(), "stress.alloc.many\n");
  EXPECT_EQ(Run({"--list", "--tier", "stress"}), 0);
  EXPECT_EQ(Out(), "stress.alloc.many\n");
}

TEST_F(RunCliTest, AnUnknownTierBeforeThePluginSaysSo) {
  EXPECT_EQ(Run({"--tier", "bogus", "p.so"}), 2);
  EXPECT_NE(Err().find("plugin_conformance: error: unknown tier 'bogus'"), std::string::npos)
      << Err();
}

TEST_F(RunCliTest, ParseErrorsCarryThePrefixAndSuggestions) {
  EXPECT_EQ(Run({"p.so", "--tiers", "load"}), 2);
  EXPECT_NE(Err().find("plugin_conformance: error: unknown option '--tiers' (did you mean "
                       "'--tier'?)"),
            std::string::npos)
      << Err();
  EXPECT_EQ(Run({"p.so", "--timeout"}), 2);
  EXPECT_EQ(Err().rfind("plugin_conformance: error: ", 0), 0u) << Err();
  EXPECT_EQ(Run({"p.so", "q.so"}), 2);
  EXPECT_NE(Err().find("unexpected argument 'q.so'"), std::string::npos) << Err();
  EXPECT_EQ(runs_, 0);
}

TEST_F(RunCliTest, NumbersAreStrict) {
  EXPECT_EQ(Run({"p.so", "--timeout", "abc"}), 2);
  EXPECT_NE(Err().find("--timeout: 'abc' is not a number"), std::string::npos) << Err();
  EXPECT_EQ(Run({"p.so", "--seed", "-1"}), 2);
  EXPECT_NE(Err().find("--seed: '-1' is negative"), std::string::npos) << Err();
  EXPECT_EQ(Run({"p.so", "--seed", "18446744073709551616"}), 2);
  EXPECT_NE(Err().find("is out of range"), std::string::npos) << Err();
  EXPECT_EQ(Run({"p.so", "--jobs", "0"}), 2);
  EXPECT_EQ(Run({"p.so", "--repeat", "0"}), 2);
  EXPECT_NE(Err().find("--repeat: "), std::string::npos) << Err();
  EXPECT_EQ(Run({"p.so", "--timeout", "12abc"}), 2);
  EXPECT_EQ(runs_, 0);
}

TEST_F(RunCliTest, UnknownOrEmptyProfileIsAUsageError) {
  EXPECT_EQ(Run({"p.so", "--profile", "tf2.100"}), 2);
  EXPECT_NE(Err().find("unknown profile 'tf2.100' (did you mean 'tf2.10'?); known profiles: "
                       "newest tf2.10 tf2.7"),
            std::string::npos)
      << Err();
  EXPECT_EQ(Run({"p.so", "--profile", ""}), 2);
  EXPECT_NE(Err().find("--profile: empty profile name"), std::string::npos) << Err();
  EXPECT_EQ(runs_, 0);
}

// --profile 2.17 or 2.17.1: the profile whose releases hold it, said on stderr.
TEST_F(RunCliTest, AReleasePicksTheProfileThatStandsForIt) {
  generations_ = {{"newest", "2.19-2.21", "TF 2.9 and later"},
                  {"tf2.10", "2.10", "TF 2.9 and later"},
                  {"tf2.7", "2.7-2.8", "TF 2.7 and 2.8"}};
  for (const auto& [release, profile] :
       std::vector<std::pair<std::string, std::string>>{{"2.20", "newest"},
                                                        {"2.21.0", "newest"},
                                                        {"2.10.1", "tf2.10"},
                                                        {"2.7", "tf2.7"},
                                                        {"2.8.4", "tf2.7"}}) {
    EXPECT_EQ(Run({"p.so", "--profile", release}), 0) << release << ": " << Err();
    EXPECT_EQ(settings_.profile, profile) << release;
    EXPECT_NE(Err().find("TensorFlow " + release + " is emulated by profile " + profile),
              std::string::npos)
        << Err();
  }
  EXPECT_EQ(Run({"p.so", "--profile", "tf2.10"}), 0);  // the names stay
  EXPECT_EQ(settings_.profile, "tf2.10");
}

// A release no profile stands for (older than the oldest, newer than the newest, or between two
// ranges) is a usage error that names the releases every profile stands for.
TEST_F(RunCliTest, AReleaseNoProfileStandsForIsAUsageError) {
  generations_ = {{"newest", "2.19-2.21", "TF 2.9 and later"},
                  {"tf2.10", "2.10", "TF 2.9 and later"},
                  {"tf2.7", "2.7-2.8", "TF 2.7 and 2.8"}};
  for (const char* release : {"2.4", "2.22", "2.22.0", "2.9"}) {
    EXPECT_EQ(Run({"p.so", "--profile", release}), 2) << release;
    EXPECT_NE(Err().find(std::string("--profile ") + release +
                         ": no profile stands for TensorFlow " + release +
                         "; known releases: 2.19-2.21 (newest), 2.10 (tf2.10), 2.7-2.8 (tf2.7)"),
              std::string::npos)
        << Err();
  }
  EXPECT_EQ(runs_, 0);
}

TEST_F(RunCliTest, ASelectionWithoutChecksIsAUsageErrorUnlessThePluginIsMissing) {
  const std::string plugin = ElfFile("p.so");
  EXPECT_EQ(Run({plugin, "--filter", "no.such.*"}), 2);
  EXPECT_NE(Err().find("selects no check"), std::string::npos) << Err();
  EXPECT_EQ(Run({plugin, "--tier", "kernels"}), 2);
  EXPECT_NE(Err().find("tier 'kernels' has no checks"), std::string::npos) << Err();
  EXPECT_EQ(Run({(dir_ / "missing.so").string(), "--tier", "kernels"}), 3);
  EXPECT_NE(Err().find("could not be loaded"), std::string::npos) << Err();
  EXPECT_EQ(runs_, 0);
}

// A run that names its tiers builds only theirs (the others' scenario files are not parsed), and
// says the same as with every tier built.
TEST_F(RunCliTest, NamedTiersBuildOnlyTheirUnits) {
  const std::string plugin = ElfFile("p.so");
  EXPECT_EQ(Run({plugin, "--tier", "load"}), 0) << Err();
  EXPECT_EQ(built_tiers_, (std::vector<std::vector<std::string>>{{"load"}}));
  EXPECT_EQ(ran_, (std::vector<std::string>{"load.library", "load.se"}));
  EXPECT_EQ(Run({plugin, "--tier", "stress,load"}), 0) << Err();
  EXPECT_EQ(built_tiers_, (std::vector<std::vector<std::string>>{{"load", "stress"}}));
  // Every tier: by default, with `all`, for --list, and with vendor scenario files (a bad one
  // is a usage error whatever the tiers).
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{plugin},
        {plugin, "--tier", "load,all"},
        {"--list", "--tier", "load"},
        {plugin, "--tier", "load", "--scenarios", dir_.string()}}) {
    Run(args);
    EXPECT_EQ(built_tiers_, (std::vector<std::vector<std::string>>{{}})) << args.back();
  }
  // A filter that selects nothing of the named tier is told where its checks are, from the
  // whole suite built for the message.
  EXPECT_EQ(Run({plugin, "--tier", "load", "--filter", "runtime.*"}), 2);
  EXPECT_NE(Err().find("it selects checks of tier runtime"), std::string::npos) << Err();
  EXPECT_EQ(built_tiers_, (std::vector<std::vector<std::string>>{{"load"}, {}}));
  EXPECT_EQ(runs_, 0);
}

TEST_F(RunCliTest, AllWaivedTierIsNotConformant) {
  suite_[2] = Unit("runtime.memcpy", "runtime", {"runtime.memcpy.htod"}, Outcome::kFail);
  std::ofstream(dir_ / "w.yaml") << "- id: runtime.memcpy.*\n  reason: ticket 5\n";
  EXPECT_EQ(Run({"p.so", "--waivers", (dir_ / "w.yaml").string()}), 1);
  EXPECT_NE(Out().find("NOT CONFORMANT: no check passed in tier runtime"), std::string::npos)
      << Out();
}

TEST_F(RunCliTest, ConsoleJsonAndJUnitAgreeOnTheVerdict) {
  suite_[2] = Unit("runtime.memcpy", "runtime", {"runtime.memcpy.htod"}, Outcome::kSkipped);
  const fs::path json_path = dir_ / "r.json";
  const fs::path junit_path = dir_ / "r.xml";
  EXPECT_EQ(Run({"p.so", "--json", json_path.string(), "--junit", junit_path.string()}), 1);
  EXPECT_NE(Out().find("NOT CONFORMANT"), std::string::npos) << Out();
  std::ifstream json_file(json_path);
  const nlohmann::json report = nlohmann::json::parse(json_file);
  EXPECT_EQ(report.at("conformant"), false);
  EXPECT_EQ(report.at("not_conformant_reason"),
            "no check passed in tier runtime (nothing was verified there)");
  std::stringstream xml;
  xml << std::ifstream(junit_path).rdbuf();
  EXPECT_NE(xml.str().find("<property name=\"conformant\" value=\"false\"/>"), std::string::npos);
}

TEST_F(RunCliTest, CoLoadedPluginMustExist) {
  EXPECT_EQ(Run({"p.so", "--co-load", (dir_ / "missing.so").string()}), 2);
  EXPECT_NE(Err().find("--co-load: '" + (dir_ / "missing.so").string() + "': No such file"),
            std::string::npos)
      << Err();
  EXPECT_EQ(runs_, 0);
}

TEST_F(RunCliTest, ReportPathRules) {
  EXPECT_EQ(Run({"p.so", "--json", ""}), 2);
  EXPECT_NE(Err().find("--json: an empty file name"), std::string::npos) << Err();
  const std::string same = (dir_ / "same").string();
  EXPECT_EQ(Run({"p.so", "--json", same, "--junit", same}), 2);
  EXPECT_NE(Err().find("--json and --junit name the same file"), std::string::npos) << Err();
  EXPECT_EQ(Run({"p.so", "--json", "-", "--junit", "-"}), 2);
  EXPECT_EQ(runs_, 0);
}

TEST_F(RunCliTest, JsonOnStandardOutputMovesTheConsoleReportToStandardError) {
  EXPECT_EQ(Run({"p.so", "--json", "-"}), 0);
  const nlohmann::json report = nlohmann::json::parse(Out());  // nothing else on stdout
  EXPECT_EQ(report.at("conformant"), true);
  EXPECT_NE(Err().find("CONFORMANT"), std::string::npos) << Err();
}

TEST_F(RunCliTest, ListWithJsonWritesTheCatalogue) {
  const fs::path path = dir_ / "catalogue.json";
  EXPECT_EQ(Run({"--list", "--json", path.string(), "--filter", "load.library.*"}), 0);
  std::ifstream file(path);
  const nlohmann::json catalogue = nlohmann::json::parse(file);
  ASSERT_EQ(catalogue.at("checks").size(), 1u);
  EXPECT_EQ(catalogue.at("checks")[0].at("id"), "load.library.dlopen");
  EXPECT_EQ(catalogue.at("checks")[0].at("tier"), "load");
  EXPECT_EQ(catalogue.at("checks")[0].at("origin"), "tensorflow");
  EXPECT_EQ(Run({"--list", "--junit", path.string()}), 2);
}

TEST_F(RunCliTest, AReportThatCannotBeWrittenIsExitFour) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  EXPECT_EQ(Run({"p.so", "--json", "/dev/full"}), 4);
  EXPECT_NE(Err().find("cannot write '/dev/full': No space left on device"), std::string::npos)
      << Err();
}

}  // namespace
}  // namespace conformance
