// Console output: plain when piped, colour only when asked, one line per problem.
#include "report/console_report.h"

#include <gtest/gtest.h>

#include <sstream>

#include "report/op_coverage.h"
#include "report/terminal_colour.h"
#include "sample_report.h"

namespace conformance {
namespace {

std::string Summary(const RunReport& report, ConsoleStyle style) {
  std::ostringstream out;
  WriteConsoleSummary(out, report, style, testing::SampleLookup());
  return out.str();
}

TEST(TerminalColourTest, OnlyOnATerminalWithoutNoColor) {
  EXPECT_TRUE(ColourWanted(true, nullptr, "xterm-256color"));
  EXPECT_TRUE(ColourWanted(true, "", "xterm"));  // NO_COLOR set but empty: ignored
  EXPECT_FALSE(ColourWanted(false, nullptr, "xterm"));
  EXPECT_FALSE(ColourWanted(true, "1", "xterm"));
  EXPECT_FALSE(ColourWanted(true, nullptr, "dumb"));
}

TEST(ConsoleReportTest, PlainOutputHasNoEscapeSequences) {
  const std::string text = Summary(testing::SampleReport(), ConsoleStyle{false, false});
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
}

TEST(ConsoleReportTest, ColourOutputColoursOutcomesAndVerdict) {
  const std::string text = Summary(testing::SampleReport(), ConsoleStyle{false, true});
  EXPECT_NE(text.find("\x1b[31mFAIL"), std::string::npos) << text;
  EXPECT_NE(text.find("\x1b[1m\x1b[31mNOT CONFORMANT\x1b[0m"), std::string::npos) << text;
}

TEST(ConsoleReportTest, OneLinePerNonPassWithOriginLabel) {
  const std::string text = Summary(testing::SampleReport(), ConsoleStyle{});
  EXPECT_NE(text.find("  FAIL            load.se.platform.name_regex [TensorFlow]: Platform name"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  CRASH           runtime.memcpy.htod.unaligned [stricter]: "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("UNEXPECTED_PASS kernel.AddV2.float.broadcast"), std::string::npos);
  EXPECT_EQ(text.find("load.library.dlopen"), std::string::npos);  // a pass: not listed
  EXPECT_EQ(text.find("PASS            single"), std::string::npos);
}

TEST(ConsoleReportTest, CrashDetailsAreIndented) {
  const std::string text = Summary(testing::SampleReport(), ConsoleStyle{});
  EXPECT_NE(text.find("\n                  signal: SIGSEGV\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n                  last call: SP_StreamExecutor.memcpy_htod\n"),
            std::string::npos);
  EXPECT_NE(text.find("\n                  backtrace:\n                    #0 memcpy_htod"),
            std::string::npos)
      << text;
}

TEST(ConsoleReportTest, PluginOutputOnlyInVerboseMode) {
  const std::string quiet = Summary(testing::SampleReport(), ConsoleStyle{});
  EXPECT_EQ(quiet.find("plugin output"), std::string::npos) << quiet;
  const std::string verbose = Summary(testing::SampleReport(), ConsoleStyle{true, false});
  EXPECT_NE(verbose.find("\n                  plugin output:\n                    plugin: init "
                         "<dev0> & go\n                    plugin: second line\n"),
            std::string::npos)
      << verbose;
}

TEST(ConsoleReportTest, PluginTextCannotInjectTerminalEscapes) {
  const std::string text = Summary(testing::SampleReport(), ConsoleStyle{});
  EXPECT_NE(text.find("control \\x01\\x02\\x1B[31m chars"), std::string::npos) << text;
}

TEST(ConsoleReportTest, CountsAndVerdictLines) {
  const std::string text = Summary(testing::SampleReport(), ConsoleStyle{});
  EXPECT_NE(
      text.find("10 checks: 2 pass, 1 fail, 1 warning, 1 not_supported, 1 crash, "
                "1 timeout, 1 waived, 1 unexpected_pass, 1 skipped in 3.250 s "
                "(seed 18446744073709551615)\nNOT CONFORMANT: 4 checks failed, crashed, timed out "
                "or passed although waived\n"),
      std::string::npos)
      << text;
}

TEST(ConsoleReportTest, RunsOfSkippedResultsWithOneReasonShareALine) {
  RunReport report;
  for (const char* id : {"load.se.a", "load.se.b", "load.se.c", "load.se.d"}) {
    CheckResult skipped;
    skipped.id = id;
    skipped.outcome = Outcome::kSkipped;
    skipped.message = "SE_InitPlugin crashed";
    report.results.push_back(skipped);
  }
  const std::string collapsed = Summary(report, ConsoleStyle{});
  EXPECT_NE(collapsed.find("  SKIPPED         load.se.a ... load.se.d (4 checks): SE_InitPlugin "
                           "crashed\n"),
            std::string::npos)
      << collapsed;
  EXPECT_EQ(collapsed.find("load.se.b"), std::string::npos);
  const std::string verbose = Summary(report, ConsoleStyle{true, false});
  EXPECT_NE(verbose.find("load.se.b"), std::string::npos) << verbose;
  report.results.resize(2);  // two stay separate lines
  EXPECT_NE(Summary(report, ConsoleStyle{}).find("load.se.b"), std::string::npos);
}

// Kernel cases of ops (or dtypes) the plugin registers no kernel for: each op's message names
// the op, yet they are one kind of absence and share a line, naming how many ops.
TEST(ConsoleReportTest, KernelCasesWithoutAKernelShareALineAcrossOps) {
  RunReport report;
  for (const char* op : {"Sub", "Mul"}) {
    for (const char* check : {".float.basic", ".leaks"}) {
      CheckResult absent;
      absent.id = std::string("kernel.") + op + check;
      absent.outcome = Outcome::kNotSupported;
      absent.message =
          std::string("the plugin registers no ") + op + " kernel for its device type X";
      report.results.push_back(absent);
    }
  }
  const std::string text = Summary(report, ConsoleStyle{});
  EXPECT_NE(text.find("kernel.Sub.float.basic ... kernel.Mul.leaks (4 checks): no kernel "
                      "registered on the plugin's device for these ops or dtypes (2 ops; -v lists "
                      "each)\n"),
            std::string::npos)
      << text;
}

// TensorFlow's tutorial sample: TensorFlow refuses it, and the runtime checks whose prerequisite
// was skipped for that reason sit among the others; they join the run (one line, counted), and a
// run of such skips alone keeps its own reason.
TEST(ConsoleReportTest, SkipsBehindASkipJoinTheRunOfTheirCause) {
  RunReport report;
  const std::string refuses = "not run: TensorFlow refuses the plugin";
  const std::string behind = "not run: prerequisite runtime.a (skipped) did not pass";
  const std::pair<const char*, const std::string*> rows[] = {
      {"graph.a", &behind},    {"graph.b", &behind},   {"graph.c", &behind},
      {"runtime.a", &refuses}, {"runtime.b", &behind}, {"runtime.c", &refuses},
      {"runtime.d", &behind},  {"runtime.e", &refuses}};
  for (const auto& [id, message] : rows) {
    CheckResult skipped;
    skipped.id = id;
    skipped.outcome = Outcome::kSkipped;
    skipped.message = *message;
    report.results.push_back(skipped);
  }
  const std::string text = Summary(report, ConsoleStyle{});
  EXPECT_NE(text.find("  SKIPPED         graph.a ... graph.c (3 checks): " + behind + "\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  SKIPPED         runtime.a ... runtime.e (5 checks): " + refuses +
                      "; 2 of them behind a prerequisite skipped so (-v lists each)\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("runtime.b"), std::string::npos) << text;
  EXPECT_NE(Summary(report, ConsoleStyle{true, false}).find("runtime.b"), std::string::npos);
}

// A failure whose root cause is listed with its call: the call and problem are said there once,
// not again under the check (-v shows them under each check too).
TEST(ConsoleReportRootCausesTest, CallAndProblemAreSaidOnceWithTheCause) {
  RunReport report;
  for (const char* field : {"mem_zero", "memset"}) {
    CheckResult fail;
    fail.id = std::string("load.se.stream_executor.") + field;
    fail.outcome = Outcome::kFail;
    fail.message = std::string("'") + field + "' field in SP_StreamExecutor must be set.";
    fail.tf_code = 9;
    fail.details = {{"failing_call", field}, {"problem", "callback not set (NULL)"}};
    report.results.push_back(fail);
  }
  const std::string text = Summary(report, ConsoleStyle{});
  EXPECT_NE(text.find("  1. mem_zero: callback not set (NULL) (1 check)\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("must be set.\n                  TF_Code: 9\n  FAIL"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("failing_call:"), std::string::npos) << text;
  EXPECT_EQ(text.find("problem:"), std::string::npos) << text;
  const std::string verbose = Summary(report, ConsoleStyle{true, false});
  EXPECT_NE(verbose.find("failing_call: memset\n"), std::string::npos) << verbose;
}

// A plugin without a device: why and what to do first, the distinct verdict last.
TEST(ConsoleReportTest, NoDeviceSaysWhyAndWhatToDo) {
  RunReport report;
  CheckResult count;
  count.id = "load.se.device_count.positive";
  count.tier = "load";
  count.outcome = Outcome::kNotSupported;
  CheckResult pass = count;
  pass.id = "load.se.init";
  pass.outcome = Outcome::kPass;
  CheckResult skipped = count;
  skipped.id = "runtime.x";
  skipped.tier = "runtime";
  skipped.outcome = Outcome::kSkipped;
  report.results = {pass, count, skipped};
  report.tiers = {"load", "runtime"};
  report.no_device = "get_device_count reported 0 devices";
  const std::string text = Summary(report, ConsoleStyle{});
  EXPECT_EQ(text.find("No device: get_device_count reported 0 devices."), 0U) << text;
  EXPECT_NE(text.find("Not run: runtime."), std::string::npos) << text;
  EXPECT_NE(text.find("NO DEVICE (not conformant, exit 5)"), std::string::npos) << text;
  report.tiers = {"load"};
  report.results.pop_back();
  EXPECT_NE(Summary(report, ConsoleStyle{}).find("CONFORMANT IN THE DEVICE-FREE TIERS ONLY"),
            std::string::npos);
}

TEST(ConsoleReportTest, ConformantRun) {
  RunReport report;
  report.seed = 7;
  CheckResult pass;
  pass.id = "load.library.dlopen";
  report.results = {pass, pass};
  const std::string text = Summary(report, ConsoleStyle{});
  EXPECT_EQ(text, "2 checks: 2 pass in 0.000 s (seed 7)\nCONFORMANT\n");
}

// The header generation follows TensorFlow's verdict as a clause, or as a sentence of its own
// after TensorFlow's message when that ends one ("... must be set.", not "... must be set.;").
TEST(ConsoleReportTest, TensorFlowLineJoinsTheHeaderGeneration) {
  RunReport report;
  report.header_generation = "TF 2.10 and later";
  report.tensorflow_verdict = nlohmann::json{{"summary", "loads the plugin"}};
  EXPECT_NE(Summary(report, ConsoleStyle{})
                .find("TensorFlow: loads the plugin; built against TF 2.10 and later headers\n"),
            std::string::npos);
  report.tensorflow_verdict =
      nlohmann::json{{"summary",
                      "refuses the plugin (TF_Code 9): 'destroy_platform' field in "
                      "SE_PlatformRegistrationParams must be set."}};
  EXPECT_NE(Summary(report, ConsoleStyle{})
                .find("must be set. Built against TF 2.10 and later headers\n"),
            std::string::npos)
      << Summary(report, ConsoleStyle{});
}

TEST(ConsoleReportTest, LibraryLoadFailureIsExplained) {
  RunReport report;
  CheckResult fail;
  fail.id = "load.library.dlopen";
  fail.outcome = Outcome::kFail;
  report.results = {fail};
  EXPECT_NE(Summary(report, ConsoleStyle{}).find("NOT CONFORMANT: the plugin could not be loaded"),
            std::string::npos);
}

TEST(ConsoleReportTest, VerboseListsPassesWithTimes) {
  const std::string text = Summary(testing::SampleReport(), ConsoleStyle{true, false});
  EXPECT_NE(text.find("  PASS            load.library.dlopen [TensorFlow] (0.013 s)"),
            std::string::npos)
      << text;
}

TEST(ConsoleReportTest, HeaderShowsSeedAndSelection) {
  std::ostringstream out;
  WriteConsoleHeader(out, testing::SampleReport(), ConsoleStyle{});
  EXPECT_NE(out.str().find("(profile tf2.15, seed 18446744073709551615)"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("shard 2 of 3"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace conformance

namespace conformance {
namespace {

TEST(ConsoleReportRootCausesTest, ListedFirstOnceWithTheirChecks) {
  const std::string text = Summary(testing::SampleReport(), ConsoleStyle{});
  const std::size_t causes = text.find("2 root causes:\n");
  ASSERT_NE(causes, std::string::npos) << text;
  EXPECT_EQ(causes, 0u) << text;  // before anything else
  EXPECT_NE(text.find("  2. memcpy_htod: crashed (2 checks)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("     checks: runtime.memcpy.htod.unaligned runtime.stream.sync\n"),
            std::string::npos)
      << text;
  // A failure without failing_call/problem is a root cause of its own, named by its message.
  EXPECT_NE(text.find("  1. Platform name"), std::string::npos) << text;
}

TEST(ConsoleReportRootCausesTest, AKernelCallbacksCauseNamesItsKernel) {
  const std::string text = Summary(testing::KernelSampleReport(), ConsoleStyle{});
  EXPECT_NE(text.find("3 root causes:\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  1. compute_func (Relu): wrong values (2 checks)\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  2. compute_func (MatMul): wrong values (1 check)\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  3. deallocate: freed while queued work still reads it (2 checks)\n"),
            std::string::npos)
      << text;
}

// Issue 29 item 18: the registered cells no check judged, one line; -v lists each.
TEST(ConsoleReportRootCausesTest, RegisteredKernelsNoCheckJudgedAreSaid) {
  const std::string text = Summary(testing::KernelSampleReport(), ConsoleStyle{});
  EXPECT_NE(text.find(std::string("Registered kernels: judged 4 of 6 (op, dtype) cells; 2 not "
                                  "judged: Floor (float, double) (") +
                      kNoScenarioReason + ")\n"),
            std::string::npos)
      << text;
  const std::string verbose = Summary(testing::KernelSampleReport(), ConsoleStyle{true, false});
  EXPECT_NE(verbose.find(std::string("\n  Floor double: ") + kNoScenarioReason), std::string::npos)
      << verbose;
}

TEST(ConsoleReportRootCausesTest, NoSectionWithoutFailures) {
  RunReport report;
  CheckResult pass;
  pass.id = "load.a";
  report.results = {pass};
  EXPECT_EQ(Summary(report, ConsoleStyle{}).find("root cause"), std::string::npos);
}

}  // namespace
}  // namespace conformance
