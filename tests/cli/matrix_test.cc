// The compatibility matrix: rows made from run reports (run/compatibility_matrix.h), which
// rows decide the exit code, and --matrix through the real command-line logic with fake units
// whose load result depends on the profile.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/run_cli.h"
#include "run/compatibility_matrix.h"

namespace conformance {
namespace {

namespace fs = std::filesystem;

CheckResult Result(std::string id, std::string tier, Outcome outcome, std::string message = "",
                   std::map<std::string, std::string> details = {}) {
  CheckResult result;
  result.id = std::move(id);
  result.tier = std::move(tier);
  result.outcome = outcome;
  result.message = std::move(message);
  result.details = std::move(details);
  return result;
}

RunReport LoadingReport() {
  RunReport report;
  report.tensorflow_verdict = nlohmann::json{{"loads", true}, {"summary", "loads the plugin"}};
  report.header_generation = "TF 2.7 era";
  report.results = {Result("load.library.dlopen", "load", Outcome::kPass),
                    Result("runtime.a", "runtime", Outcome::kPass),
                    Result("runtime.b", "runtime", Outcome::kPass),
                    Result("runtime.c", "runtime", Outcome::kFail, "wrong bytes"),
                    Result("runtime.d", "runtime", Outcome::kNotSupported)};
  return report;
}

RunReport MissingSymbolReport() {
  RunReport report;
  report.tensorflow_verdict =
      nlohmann::json{{"loads", false}, {"summary", "refuses the plugin (TF_Code 5): ..."}};
  report.results = {Result("load.library.imports", "load", Outcome::kFail, "2 symbols",
                           {{"missing_symbols", "TF_GetDeviceId,TF_SetPayload"}}),
                    Result("runtime.a", "runtime", Outcome::kSkipped)};
  return report;
}

const MatrixGeneration kNewest{"newest", "2.19-2.21", "TF 2.10 and later"};
const MatrixGeneration kTf210{"tf2.10", "2.10-2.15", "TF 2.10 and later"};
const MatrixGeneration kTf27{"tf2.7", "2.7-2.8", "TF 2.7 era"};

TEST(MatrixRow, LoadingRowCountsRuntimeOutcomes) {
  const MatrixRow row = MakeMatrixRow(kTf27, LoadingReport());
  EXPECT_TRUE(row.loads);
  EXPECT_EQ(row.why, "loads");
  EXPECT_EQ(row.tensorflow, "2.7-2.8");
  EXPECT_EQ(row.runtime, "2 pass, 1 fail, 1 not_supported");
  EXPECT_EQ(row.runtime_pass, 2);
  EXPECT_EQ(row.runtime_fail, 1);
  EXPECT_EQ(row.verdict, "not conformant");
  EXPECT_EQ(row.header_generation, "TF 2.7 era");
}

TEST(MatrixRow, MissingSymbolsAreNamed) {
  const MatrixRow row = MakeMatrixRow(kTf27, MissingSymbolReport());
  EXPECT_FALSE(row.loads);
  EXPECT_EQ(row.missing_symbols, (std::vector<std::string>{"TF_GetDeviceId", "TF_SetPayload"}));
  EXPECT_EQ(row.why,
            "dlopen fails: TensorFlow 2.7-2.8 does not export TF_GetDeviceId, "
            "TF_SetPayload");
  EXPECT_EQ(row.runtime, "skipped");
}

TEST(MatrixRow, RefusalWithoutMissingSymbolsQuotesTensorFlow) {
  RunReport report = LoadingReport();
  report.tensorflow_verdict = nlohmann::json{
      {"loads", false}, {"summary", "refuses the plugin (TF_Code 9): 'memset' field ..."}};
  EXPECT_EQ(MakeMatrixRow(kNewest, report).why,
            "refuses the plugin (TF_Code 9): 'memset' field ...");
}

TEST(MatrixRow, StricterLoadFailureIsSaidEvenWhereTensorFlowLoads) {
  RunReport report = LoadingReport();
  report.results.push_back(
      Result("load.se.struct_overflow", "load", Outcome::kFail, "writes past byte 264"));
  const MatrixRow row = MakeMatrixRow(kTf27, report);
  EXPECT_TRUE(row.loads);
  EXPECT_EQ(row.why, "loads, but load.se.struct_overflow: writes past byte 264");
}

TEST(MatrixBuiltFor, HeaderGenerationNarrowedByImports) {
  RunReport newest = LoadingReport();
  newest.header_generation = "TF 2.10 and later";
  RunReport tf210 = MissingSymbolReport();
  tf210.header_generation = "TF 2.10 and later";
  std::vector<MatrixRow> rows = {MakeMatrixRow(kNewest, newest), MakeMatrixRow(kTf210, tf210),
                                 MakeMatrixRow(kTf27, MissingSymbolReport())};
  MarkBuiltFor(rows, {kNewest, kTf210, kTf27});
  EXPECT_TRUE(rows[0].built_for);
  EXPECT_FALSE(rows[1].built_for) << "2.10 lacks what the plugin imports";
  EXPECT_FALSE(rows[2].built_for);
  EXPECT_EQ(MatrixExitCode(rows), ExitCode::kNotConformant);  // the newest row's runtime fail
}

TEST(MatrixBuiltFor, WhenImportsExcludeEveryRowOfItsGenerationTheyAllCount) {
  RunReport tf27 = MissingSymbolReport();
  tf27.header_generation = "TF 2.7 era";
  std::vector<MatrixRow> rows = {MakeMatrixRow(kNewest, LoadingReport()),
                                 MakeMatrixRow(kTf27, tf27)};
  rows[0].header_generation = "";
  rows[0].exit_code = ExitCode::kConformant;
  MarkBuiltFor(rows, {kNewest, kTf27});
  EXPECT_FALSE(rows[0].built_for);
  EXPECT_TRUE(rows[1].built_for);
  EXPECT_EQ(MatrixExitCode(rows), ExitCode::kPluginNotLoaded);
}

TEST(MatrixBuiltFor, NoDecodedGenerationMeansTheNewestRow) {
  std::vector<MatrixRow> rows = {MakeMatrixRow(kNewest, MissingSymbolReport()),
                                 MakeMatrixRow(kTf27, MissingSymbolReport())};
  rows[1].exit_code = ExitCode::kNotConformant;
  MarkBuiltFor(rows, {kNewest, kTf27});
  EXPECT_TRUE(rows[0].built_for);
  EXPECT_FALSE(rows[1].built_for);
  EXPECT_EQ(MatrixExitCode(rows), ExitCode::kPluginNotLoaded);
}

TEST(MatrixJson, RowValuesAreFlat) {
  const auto json = MatrixJson(
      {MakeMatrixRow(kTf27, LoadingReport()), MakeMatrixRow(kTf27, MissingSymbolReport())});
  ASSERT_EQ(json.at("rows").size(), 2u);
  for (const auto& row : json.at("rows")) {
    for (const auto& [key, value] : row.items()) {
      const bool flat =
          value.is_string() || value.is_number() || value.is_boolean() ||
          (value.is_array() &&
           std::all_of(value.begin(), value.end(), [](const auto& v) { return v.is_string(); }));
      EXPECT_TRUE(flat) << key;
    }
  }
  EXPECT_EQ(json.at("rows")[1].at("missing_symbols")[0], "TF_GetDeviceId");
  EXPECT_EQ(json.at("rows")[0].at("tensorflow"), "2.7-2.8");
}

// --matrix through RunCli: one run per generation, each under its profile.
class MatrixCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    json_ = fs::temp_directory_path() / ("matrix_test_" + std::to_string(getpid()) + ".json");
  }
  void TearDown() override { fs::remove(json_); }

  int Run(std::vector<std::string> args) {
    args.insert(args.begin(), "plugin_conformance");
    std::vector<const char*> argv;
    argv.reserve(args.size());
    for (const std::string& arg : args) argv.push_back(arg.c_str());
    profiles_run_.clear();
    CliEnvironment environment{
        .build_suite =
            [this](const RunSettings& settings) {
              built_tiers_.push_back(settings.built_tiers);
              return Suite();
            },
        .run_units =
            [this](const std::vector<TestUnit>& units, const RunSettings& settings,
                   const IsolationOptions&, int, const UnitDone& on_done) {
              profiles_run_.push_back(settings.profile);
              seeds_.push_back(settings.seed);
              for (std::size_t i = 0; i < units.size(); ++i) {
                Collecting sink;
                UnitContext context{settings, sink};
                units[i].run(context);
                on_done(i, std::move(sink.results));
              }
            },
        .lookup = {},
        .env = [](const char*) -> const char* { return nullptr; },
        .out = &out_,
        .err = &err_,
        .colour = false,
        .version = "1.2.3",
        .cpu_count = 1,
        .profiles = {"newest", "tf2.7"},
        .generations = {kNewest, kTf27},
    };
    return RunCli(static_cast<int>(argv.size()), argv.data(), environment);
  }

  class Collecting : public ResultSink {
   public:
    void Emit(CheckResult result) override { results.push_back(std::move(result)); }
    std::vector<CheckResult> results;
  };

  // The plugin imports TF_GetDeviceId, which the tf2.7 core lacks.
  static std::vector<TestUnit> Suite() {
    TestUnit load{.name = "load.library",
                  .tier = "load",
                  .check_ids = {"load.library.imports", "load.library.dlopen"},
                  .run = {},
                  .prerequisites = {}};
    load.run = [](UnitContext& context) {
      CheckResult imports;
      imports.id = "load.library.imports";
      CheckResult dlopen;
      dlopen.id = "load.library.dlopen";
      if (context.settings.profile == "tf2.7") {
        imports.outcome = Outcome::kFail;
        imports.tf_code = 5;
        imports.message = "undefined symbol: TF_GetDeviceId";
        imports.details["missing_symbols"] = "TF_GetDeviceId";
        dlopen.outcome = Outcome::kSkipped;
      }
      context.sink.Emit(imports);
      context.sink.Emit(dlopen);
    };
    TestUnit runtime{.name = "runtime.copy",
                     .tier = "runtime",
                     .check_ids = {"runtime.copy"},
                     .run = {},
                     .prerequisites = {}};
    runtime.run = [](UnitContext& context) {
      CheckResult result;
      result.id = "runtime.copy";
      context.sink.Emit(result);
    };
    TestUnit kernels{.name = "kernels.add",
                     .tier = "kernels",
                     .check_ids = {"kernels.add"},
                     .run = {},
                     .prerequisites = {}};
    kernels.run = [](UnitContext& context) {
      CheckResult result;
      result.id = "kernels.add";
      context.sink.Emit(result);
    };
    return {load, runtime, kernels};
  }

  fs::path json_;
  std::ostringstream out_;
  std::ostringstream err_;
  std::vector<std::string> profiles_run_;
  std::vector<std::uint64_t> seeds_;
  std::vector<std::vector<std::string>> built_tiers_;  // RunSettings::built_tiers of each build
};

// Each row builds only the tiers it runs, as a run that names its tiers does: not every tier's
// scenario files once per profile. Vendor scenario files are still checked whole.
TEST_F(MatrixCliTest, EachRowBuildsOnlyItsTiers) {
  EXPECT_EQ(Run({"p.so", "--matrix", "--json", json_.string()}), 0) << err_.str();
  EXPECT_EQ(built_tiers_,
            (std::vector<std::vector<std::string>>{{"load", "runtime"}, {"load", "runtime"}}));
  built_tiers_.clear();
  EXPECT_EQ(Run({"p.so", "--matrix", "--tier", "load", "--json", json_.string()}), 0);
  EXPECT_EQ(built_tiers_, (std::vector<std::vector<std::string>>{{"load"}, {"load"}}));
  built_tiers_.clear();
  const fs::path scenarios =
      fs::temp_directory_path() / ("matrix_scenarios_" + std::to_string(getpid()));
  fs::create_directories(scenarios);
  Run({"p.so", "--matrix", "--scenarios", scenarios.string(), "--json", json_.string()});
  fs::remove_all(scenarios);
  EXPECT_EQ(built_tiers_, (std::vector<std::vector<std::string>>{{}, {}}));
}

TEST_F(MatrixCliTest, OneRowPerGenerationInTheTableAndTheJson) {
  EXPECT_EQ(Run({"p.so", "--matrix", "--json", json_.string()}), 0) << err_.str();
  // One run per generation, newest first (a run calls the runner once per prerequisite wave).
  std::vector<std::string> runs = profiles_run_;
  runs.erase(std::unique(runs.begin(), runs.end()), runs.end());
  EXPECT_EQ(runs, (std::vector<std::string>{"newest", "tf2.7"}));
  ASSERT_FALSE(seeds_.empty());
  EXPECT_EQ(std::count(seeds_.begin(), seeds_.end(), seeds_.front()),
            static_cast<std::ptrdiff_t>(seeds_.size()))
      << "one seed for the whole matrix";
  const std::string out = out_.str();
  EXPECT_NE(out.find("Compatibility matrix for p.so"), std::string::npos) << out;
  EXPECT_NE(out.find("missing symbols: TF_GetDeviceId"), std::string::npos) << out;
  std::ifstream in(json_);
  const auto report = nlohmann::json::parse(in);
  EXPECT_EQ(report.at("profile"), "newest") << "the newest generation's report, plus the matrix";
  const auto& rows = report.at("matrix").at("rows");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].at("profile"), "newest");
  EXPECT_EQ(rows[0].at("loads"), true);
  EXPECT_EQ(rows[0].at("runtime"), "1 pass, 0 fail");
  EXPECT_EQ(rows[0].at("built_for"), true);
  EXPECT_EQ(rows[1].at("loads"), false);
  EXPECT_EQ(rows[1].at("runtime"), "skipped");
  for (const auto& result : report.at("results")) {
    EXPECT_FALSE(result.at("id").get<std::string>().starts_with("kernels."))
        << "load and runtime only by default";
  }
}

TEST_F(MatrixCliTest, HtmlPageShowsTheMatrixOfTheSameRun) {
  const fs::path html = fs::path(json_).replace_extension(".html");
  EXPECT_EQ(Run({"p.so", "--matrix", "--json", json_.string(), "--html", html.string()}), 0)
      << err_.str();
  std::ifstream in(html);
  std::stringstream page;
  page << in.rdbuf();
  fs::remove(html);
  const std::string text = page.str();
  const std::size_t table = text.find("<table id=\"matrix-table\">");
  ASSERT_NE(table, std::string::npos) << "no matrix table in the page";
  EXPECT_NE(text.find("TF_GetDeviceId", table), std::string::npos)
      << "the tf2.7 row's missing symbol is not in the matrix table";
}

TEST_F(MatrixCliTest, TierAddsToLoad) {
  EXPECT_EQ(Run({"p.so", "--matrix", "--tier", "kernels", "--json", json_.string()}), 0);
  std::ifstream in(json_);
  const auto report = nlohmann::json::parse(in);
  EXPECT_EQ(report.at("tiers"), (nlohmann::json{"load", "kernels"}));
  const auto& rows = report.at("matrix").at("rows");
  EXPECT_EQ(rows[0].at("kernels"), "1 pass, 0 fail");
  EXPECT_EQ(rows[0].at("runtime"), "not run");
  EXPECT_EQ(rows[1].at("kernels"), "skipped");
  EXPECT_NE(out_.str().find("kernels: 1 pass, 0 fail"), std::string::npos) << out_.str();
}

TEST_F(MatrixCliTest, ProfileJunitAndListAreUsageErrors) {
  EXPECT_EQ(Run({"p.so", "--matrix", "--profile", "tf2.7"}), 2);
  EXPECT_NE(err_.str().find("drop --profile"), std::string::npos) << err_.str();
  EXPECT_EQ(Run({"p.so", "--matrix", "--junit", json_.string()}), 2);
  EXPECT_NE(err_.str().find("--matrix writes no JUnit report"), std::string::npos) << err_.str();
  EXPECT_EQ(Run({"--matrix", "--list"}), 2);
  EXPECT_TRUE(profiles_run_.empty());
}

}  // namespace
}  // namespace conformance
