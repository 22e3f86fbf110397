// The op coverage table: cells from case checks, properties, and its console and JSON forms.
#include "report/op_coverage.h"

#include <gtest/gtest.h>

#include <sstream>

#include "report/console_report.h"
#include "report/html_tables.h"
#include "report/json_report.h"
#include "report/op_coverage_console.h"

namespace conformance {
namespace {

CheckResult Result(std::string id, Outcome outcome) {
  CheckResult result;
  result.id = std::move(id);
  result.outcome = outcome;
  return result;
}

// AddV2: float fails in one of two cases, int32 passes, half not registered; Relu not
// registered at all; one load check and a load.kernels check that must be ignored.
std::vector<CheckResult> KernelResults() {
  return {
      Result("load.kernels.device_type", Outcome::kPass),
      Result("kernel.AddV2.float.basic", Outcome::kPass),
      Result("kernel.AddV2.float.broadcast", Outcome::kFail),
      Result("kernel.AddV2.int32.basic", Outcome::kPass),
      Result("kernel.AddV2.int32.broadcast", Outcome::kWarning),
      Result("kernel.AddV2.half.basic", Outcome::kNotSupported),
      Result("kernel.AddV2.leaks", Outcome::kPass),
      Result("kernel.AddV2.late_inputs", Outcome::kFail),
      Result("kernel.Relu.float.basic", Outcome::kNotSupported),
      Result("kernel.Relu.float.edge.nan", Outcome::kNotSupported),  // a dotted case name
      Result("kernel.Relu.leaks", Outcome::kNotSupported),
  };
}

TEST(OpCoverageTest, CellsCombineEveryCaseOfOpAndDtype) {
  const CoverageTable table = BuildCoverageTable(KernelResults());
  ASSERT_EQ(table.ops.size(), 2u);
  const OpCoverage& add = table.ops[0];
  EXPECT_EQ(add.op, "AddV2");
  ASSERT_EQ(add.cells.size(), 3u);
  EXPECT_EQ(add.Cell("float")->state, CellState::kFailed);
  EXPECT_EQ(add.Cell("float")->checks,
            (std::vector<std::string>{"kernel.AddV2.float.basic", "kernel.AddV2.float.broadcast"}));
  EXPECT_EQ(add.Cell("int32")->state, CellState::kPassed);  // a warning is not a failure
  EXPECT_EQ(add.Cell("half")->state, CellState::kNotRegistered);
  EXPECT_TRUE(add.Registered());
  ASSERT_EQ(add.properties.size(), 2u);
  EXPECT_EQ(add.properties[1], (std::pair<std::string, Outcome>{"late_inputs", Outcome::kFail}));

  const OpCoverage& relu = table.ops[1];
  EXPECT_FALSE(relu.Registered());
  ASSERT_EQ(relu.cells.size(), 1u);
  EXPECT_EQ(relu.Cell("float")->checks.size(), 2u);
  EXPECT_EQ(table.dtypes, (std::vector<std::string>{"float", "int32", "half"}));
  const auto counts = table.CellCounts();
  EXPECT_EQ(counts.at(CellState::kPassed), 1);
  EXPECT_EQ(counts.at(CellState::kFailed), 1);
  EXPECT_EQ(counts.at(CellState::kNotRegistered), 2);
  EXPECT_EQ(counts.at(CellState::kSkipped), 0);
}

TEST(OpCoverageTest, MostSevereCaseDecidesTheCell) {
  // Whatever order the cases come in: a failure beats a waiver beats a skip beats a pass, and
  // a not_supported case only leaves the cell not registered when no case ran.
  const auto state = [](std::vector<Outcome> outcomes) {
    std::vector<CheckResult> results;
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
      results.push_back(Result("kernel.Mul.float.c" + std::to_string(i), outcomes[i]));
    }
    return BuildCoverageTable(results).ops.at(0).cells.at(0).state;
  };
  EXPECT_EQ(state({Outcome::kPass, Outcome::kCrash}), CellState::kFailed);
  EXPECT_EQ(state({Outcome::kTimeout, Outcome::kPass}), CellState::kFailed);
  EXPECT_EQ(state({Outcome::kUnexpectedPass}), CellState::kFailed);
  EXPECT_EQ(state({Outcome::kWaived, Outcome::kSkipped}), CellState::kWaived);
  EXPECT_EQ(state({Outcome::kPass, Outcome::kSkipped}), CellState::kSkipped);
  EXPECT_EQ(state({Outcome::kNotSupported, Outcome::kPass}), CellState::kPassed);
  EXPECT_EQ(state({Outcome::kNotSupported, Outcome::kNotSupported}), CellState::kNotRegistered);
}

// --tensorflow's generated cells (kernel.<Op>.<dtype>.generated): a pass is `generated`, not
// `passed` (no scenario stands behind it); a failure is a failure; a cell not generated (its
// inputs must relate) is not run, never not registered.
TEST(OpCoverageTest, GeneratedCellsHaveTheirOwnState) {
  CheckResult not_generated = Result("kernel.Sum.float.generated", Outcome::kNotSupported);
  not_generated.message =
      "no cases generated for Sum (float): input 'reduction_indices' is typed "
      "by attr Tidx, so its values must relate to the other inputs";
  const CoverageTable table =
      BuildCoverageTable({Result("kernel.Floor.float.generated", Outcome::kPass),
                          Result("kernel.Floor.double.generated", Outcome::kFail), not_generated});
  const OpCoverage& floor = table.ops.at(0);
  EXPECT_EQ(floor.Cell("float")->state, CellState::kGenerated);
  EXPECT_EQ(floor.Cell("double")->state, CellState::kFailed);
  EXPECT_TRUE(floor.Registered());
  EXPECT_EQ(table.ops.at(1).Cell("float")->state, CellState::kNotRun);
  EXPECT_EQ(ToString(CellState::kGenerated), "generated");
  EXPECT_EQ(table.CellCounts().at(CellState::kGenerated), 1);
}

// Issue 29 item 18: which registered cells a check judged, and why the others were not.
TEST(OpCoverageTest, RegisteredCellsNoCheckJudgedSayWhy) {
  std::vector<CheckResult> results = KernelResults();
  CheckResult skipped = Result("kernel.Mul.float.basic", Outcome::kSkipped);
  skipped.message = "not run: prerequisite load.se.create_stream_executor did not pass";
  results.push_back(skipped);
  const CoverageTable table = BuildCoverageTable(results);
  const std::vector<RegisteredCell> registered = {
      {"AddV2", "float", true},     // failed: judged
      {"AddV2", "int32", true},     // passed: judged
      {"AddV2", "int64", false},    // the op has checks, this dtype none
      {"Mul", "float", true},       // skipped
      {"Sub", "float", true},       // a scenario, but not selected
      {"Floor", "float", false},    // no scenario
      {"Relu", kEveryDtype, true},  // a kernel of every dtype, whose op judged nothing
  };
  const RegisteredCoverage coverage = JudgeRegisteredCells(registered, table, results, false);
  EXPECT_EQ(coverage.cells, 7);
  EXPECT_EQ(coverage.judged, 2);
  ASSERT_EQ(coverage.unjudged.size(), 5u);
  EXPECT_EQ(coverage.unjudged[0].reason, kNoScenarioReason);
  EXPECT_EQ(coverage.unjudged[1].reason,
            "skipped: not run: prerequisite load.se.create_stream_executor did not pass");
  EXPECT_EQ(coverage.unjudged[2].reason, "not selected in this run (--filter or sharding)");
  EXPECT_EQ(coverage.unjudged[3].op, "Floor");
  EXPECT_EQ(coverage.unjudged[3].reason, kNoScenarioReason);
  EXPECT_EQ(coverage.unjudged[4].reason, "not registered");
  // With --tensorflow, a cell without a check had no generated cases either.
  EXPECT_NE(JudgeRegisteredCells({{"Floor", "float", false}}, table, results, true)
                .unjudged.at(0)
                .reason.find("the installed TensorFlow generated no cases"),
            std::string::npos);
  // A kernel of every dtype counts as each dtype its op's row has: AddV2's float (failed) and
  // int32 (passed) are judged; Mul's only dtype was skipped, so it is one cell not judged.
  const RegisteredCoverage every = JudgeRegisteredCells(
      {{"AddV2", kEveryDtype, true}, {"Mul", kEveryDtype, true}}, table, results, false);
  EXPECT_EQ(every.cells, 3);
  EXPECT_EQ(every.judged, 2);
  ASSERT_EQ(every.unjudged.size(), 1u);
  EXPECT_EQ(every.unjudged[0].op, "Mul");
  EXPECT_EQ(every.unjudged[0].dtype, "float");
}

TEST(OpCoverageTest, NoKernelResultsNoTable) {
  EXPECT_TRUE(BuildCoverageTable({Result("load.kernels.duplicates", Outcome::kFail),
                                  Result("kernel.", Outcome::kFail),
                                  Result("kernel.AddV2", Outcome::kFail)})
                  .empty());
}

TEST(OpCoverageConsoleTest, CompactGroupsDtypesByStateAndListsFailingProperties) {
  std::ostringstream out;
  WriteCoverageTable(out, BuildCoverageTable(KernelResults()), false, false);
  const std::string text = out.str();
  EXPECT_NE(text.find("Op coverage: 2 ops (1 registered), 4 op×dtype cells: 1 passed, 1 failed, "
                      "2 not registered\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  AddV2                   passed int32; failed float; not registered half; "
                      "properties: late_inputs fail\n"),
            std::string::npos)
      << text;
  // An op without any kernel of the plugin and without a finding: named on one line.
  EXPECT_NE(
      text.find("  1 op with no kernel of the plugin, or no case run: Relu (-v lists each)\n"),
      std::string::npos)
      << text;
}

// No op's case ran (the plugin did not load, or had no device): one line, not one per op.
TEST(OpCoverageConsoleTest, OpsWhoseCasesDidNotRunAreOneLine) {
  const std::vector<CheckResult> skipped = {Result("kernel.AddV2.float.basic", Outcome::kSkipped),
                                            Result("kernel.Relu.float.basic", Outcome::kSkipped),
                                            Result("kernel.Relu.leaks", Outcome::kSkipped)};
  std::ostringstream compact;
  WriteCoverageTable(compact, BuildCoverageTable(skipped), false, false);
  EXPECT_NE(compact.str().find("  (no op's case ran; -v lists each op)\n"), std::string::npos)
      << compact.str();
  EXPECT_EQ(compact.str().find("  AddV2 "), std::string::npos) << compact.str();
  std::ostringstream verbose;
  WriteCoverageTable(verbose, BuildCoverageTable(skipped), true, false);
  EXPECT_NE(verbose.str().find("  AddV2 "), std::string::npos) << verbose.str();
}

TEST(OpCoverageConsoleTest, VerboseShowsTheGrid) {
  std::ostringstream out;
  WriteCoverageTable(out, BuildCoverageTable(KernelResults()), true, false);
  const std::string text = out.str();
  EXPECT_NE(text.find("  op                      float  int32  half   properties\n"),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find("  AddV2                   FAIL   pass   -      leaks pass, late_inputs fail\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("  Relu                    -                    leaks not_supported\n"),
            std::string::npos)
      << text;
}

// An op name longer than the usual column (ResourceApplyGradientDescent, 28 characters) widens
// the column for every row instead of running into its first state.
TEST(OpCoverageConsoleTest, ALongOpNameWidensTheColumn) {
  std::vector<CheckResult> results = KernelResults();
  results.push_back(Result("kernel.ResourceApplyGradientDescent.float.basic", Outcome::kPass));
  for (const bool verbose : {false, true}) {
    std::ostringstream out;
    WriteCoverageTable(out, BuildCoverageTable(results), verbose, false);
    const std::string text = out.str();
    EXPECT_NE(text.find(verbose ? "  ResourceApplyGradientDescent pass"
                                : "  ResourceApplyGradientDescent passed float\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(verbose ? "  AddV2                        FAIL"
                                : "  AddV2                        passed int32"),
              std::string::npos)
        << text;
  }
}

TEST(OpCoverageConsoleTest, SummaryShowsTheTableOnlyWhenKernelsRan) {
  RunReport report;
  report.results = KernelResults();
  std::ostringstream with_kernels;
  WriteConsoleSummary(with_kernels, report, ConsoleStyle{});
  EXPECT_NE(with_kernels.str().find("Op coverage: 2 ops"), std::string::npos) << with_kernels.str();

  report.results = {Result("load.se.platform", Outcome::kPass)};
  std::ostringstream without;
  WriteConsoleSummary(without, report, ConsoleStyle{});
  EXPECT_EQ(without.str().find("Op coverage"), std::string::npos) << without.str();
}

TEST(OpCoverageJsonTest, ReportCarriesTheTableOnlyWhenKernelsRan) {
  RunReport report;
  report.results = KernelResults();
  const nlohmann::ordered_json json = RunReportToJson(report);
  ASSERT_TRUE(json.contains("op_coverage"));
  const auto& coverage = json.at("op_coverage");
  EXPECT_EQ(coverage.at("dtypes"), nlohmann::ordered_json({"float", "int32", "half"}));
  EXPECT_EQ(coverage.at("cell_counts").at("not_registered"), 2);
  const auto& add = coverage.at("ops").at(0);
  EXPECT_EQ(add.at("op"), "AddV2");
  EXPECT_EQ(add.at("registered"), true);
  EXPECT_EQ(add.at("cells").at("float").at("state"), "failed");
  EXPECT_EQ(add.at("cells").at("half").at("state"), "not_registered");
  EXPECT_EQ(add.at("properties").at("late_inputs"), "fail");
  EXPECT_EQ(coverage.at("ops").at(1).at("registered"), false);

  report.results = {Result("load.se.platform", Outcome::kPass)};
  EXPECT_FALSE(RunReportToJson(report).contains("op_coverage"));
}

// The models tier: one row per model × dtype, with the model's ops as the check lists them (a
// passing check's `ops` detail, a not_supported reason's tail); properties are not rows.
std::vector<CheckResult> ModelResults() {
  CheckResult passed = Result("model.mlp_forward.float", Outcome::kPass);
  passed.details["ops"] = "MatMul (registered), Relu (registered)";
  CheckResult lacks = Result("model.cnn.float", Outcome::kNotSupported);
  lacks.message =
      "the plugin has no Conv2D kernel for float on MY_DEVICE (the model's ops: Conv2D (missing), "
      "Relu (registered))";
  CheckResult core = Result("model.sgd.float", Outcome::kNotSupported);
  core.message =
      "TensorFlow 2.19 to 2.21 (profile newest) export no resource-variable C API to plugins (...) "
      "(the "
      "model's ops: MatMul (registered), ResourceApplyGradientDescent (missing))";
  CheckResult failed = Result("model.mlp_residual.float", Outcome::kFail);
  failed.details["ops"] = "AddV2 (registered)";
  return {passed, Result("model.mlp_forward.float.no_leaks", Outcome::kFail),
          lacks,  core,
          failed, Result("model.skipped.float", Outcome::kSkipped)};
}

TEST(ModelCoverageTest, ARowPerModelWithTheOpsThePluginHas) {
  const CoverageTable table = BuildCoverageTable(ModelResults());
  EXPECT_FALSE(table.empty());
  EXPECT_TRUE(table.ops.empty());
  ASSERT_EQ(table.models.size(), 5u);
  const ModelCoverage& forward = table.models[0];
  EXPECT_EQ(forward.model, "mlp_forward");
  EXPECT_EQ(forward.dtype, "float");
  EXPECT_EQ(forward.state, CellState::kPassed);
  ASSERT_EQ(forward.ops.size(), 2u);
  EXPECT_EQ(forward.ops[1].op, "Relu");
  EXPECT_TRUE(forward.ops[1].registered);
  const ModelCoverage& cnn = table.models[1];
  EXPECT_EQ(cnn.state, CellState::kNotRegistered);  // the plugin lacks Conv2D
  ASSERT_EQ(cnn.ops.size(), 2u);
  EXPECT_FALSE(cnn.ops[0].registered);
  EXPECT_EQ(table.models[2].state, CellState::kNotRun);  // the core, not the plugin
  EXPECT_FALSE(table.models[2].ops[1].registered);
  EXPECT_EQ(table.models[3].state, CellState::kFailed);
  EXPECT_TRUE(table.models[4].ops.empty());  // skipped: says nothing about its ops
}

TEST(ModelCoverageTest, ConsoleJsonAndHtmlShowTheRows) {
  std::ostringstream out;
  WriteCoverageTable(out, BuildCoverageTable(ModelResults()), false, false);
  const std::string text = out.str();
  EXPECT_NE(text.find("Model op coverage: 5 models: 1 passed, 1 failed, 1 skipped, 1 not run, 1 "
                      "not registered\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  cnn.float               not registered; 1 of 2 ops registered: Relu; "
                      "missing: Conv2D\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Op coverage:"), std::string::npos) << text;  // no kernel results

  RunReport report;
  report.results = ModelResults();
  const nlohmann::ordered_json json = RunReportToJson(report);
  ASSERT_TRUE(json.contains("op_coverage"));
  const auto& sgd = json.at("op_coverage").at("models").at(2);
  EXPECT_EQ(sgd.at("model"), "sgd");
  EXPECT_EQ(sgd.at("state"), "not_run");
  EXPECT_EQ(sgd.at("ops").at(1).at("op"), "ResourceApplyGradientDescent");
  EXPECT_EQ(sgd.at("ops").at(1).at("registered"), false);

  std::string html;
  AppendOpCoverage(html, json);
  EXPECT_NE(html.find("id=\"model-coverage-table\""), std::string::npos) << html;
  EXPECT_NE(html.find("Conv2D missing"), std::string::npos) << html;
  EXPECT_EQ(html.find("id=\"op-coverage-table\""), std::string::npos) << html;
}

}  // namespace
}  // namespace conformance
