// What C-API plugins import besides the C API, hosted by the mock core (issue 28): a plugin
// importing TF_Log, the eager functions, PyRun_SimpleStringFlags and TensorFlow 2.10's
// LogMessageFatal, with versioned imports (node `tensorflow`), loads under the profile of the
// release that exports them; its fatal log is reported as its crash, with its message; and the
// releases that do not export them refuse it, naming the symbols.
#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "support/tool_run.h"

namespace {

using conformance::test_support::Result;
using conformance::test_support::RunConformance;
using conformance::test_support::ToolRun;

// Runs the variant in a scratch folder of its own, removed once the report is read (the output
// and the report stay in the returned run for the failure messages).
ToolRun RunVariant(const std::string& variant, const std::string& args) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("hosted_imports_test_" + variant + "_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  ToolRun run = RunConformance(PLUGIN_CONFORMANCE,
                               std::string(HOSTED_IMPORTS_DIR) + "/" + variant + ".so", args, dir);
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  return run;
}

std::string Outcome(const ToolRun& run, const std::string& id) {
  const auto* result = Result(run, id);
  return result == nullptr ? "(absent)" : result->value("outcome", "");
}

TEST(HostedImports, LoadUnderTheReleaseThatExportsThem) {
  const ToolRun run = RunVariant("hosted_imports", "--tier load --profile tf2.10");
  ASSERT_FALSE(run.report.is_null()) << run.output;
  EXPECT_EQ(Outcome(run, "load.library.tensorflow_cxx"), "pass") << run.output;
  EXPECT_EQ(Outcome(run, "load.library.imports"), "pass") << run.output;
  EXPECT_EQ(Outcome(run, "load.library.dlopen"), "pass") << run.output;
  // Its own imports load; the reference plugin it then opens does not: 2.10.1 defines grappler.h's
  // functions only in _pywrap_tensorflow_internal.so, which the reference plugin does not link
  // (RTLD_LOCAL; measured, tensorflow.agreement), so its dlopen fails there, SE_InitPlugin
  // returns that error, and TensorFlow 2.10 refuses the plugin with it: one root cause.
  const auto* init = Result(run, "load.se.init");
  ASSERT_NE(init, nullptr) << run.output;
  EXPECT_EQ(init->value("outcome", ""), "fail") << init->dump(2);
  EXPECT_EQ(init->at("details").value("failing_call", ""), "SE_InitPlugin") << init->dump(2);
  EXPECT_EQ(run.report.at("root_causes").size(), 1u) << run.output;
  const auto* opened = Result(run, "load.opened_libraries");
  ASSERT_NE(opened, nullptr) << run.output;
  EXPECT_EQ(opened->value("outcome", ""), "fail") << opened->dump(2);
  EXPECT_NE(opened->value("message", "").find("TF_GetOutputPropertiesListSize"), std::string::npos)
      << opened->dump(2);
  EXPECT_EQ(run.exit_code, 1) << run.output;
  // What the plugin logged, and the Python it asked for, in the unit's captured output.
  std::string output;
  for (const auto& result : run.report.at("results")) output += result.value("plugin_output", "");
  EXPECT_NE(output.find("I TF_Log] hosted_imports: TF_Log works (1)"), std::string::npos) << output;
  EXPECT_EQ(output.find("shown only with TF_CPP_MAX_VLOG_LEVEL"), std::string::npos) << output;
  EXPECT_NE(output.find("PyRun_SimpleStringFlags] no Python interpreter"), std::string::npos)
      << output;
}

TEST(HostedImports, AReleaseThatDoesNotExportThemRefusesThePlugin) {
  // TensorFlow 2.21.0 exports neither TF_Log nor tensorflow::internal::LogMessageFatal (measured:
  // specs/profiles/exports/newest_not_exported.txt): its dlopen fails on them.
  const ToolRun run = RunVariant("hosted_log_fatal", "--tier load");
  ASSERT_FALSE(run.report.is_null()) << run.output;
  EXPECT_EQ(run.exit_code, 3) << run.output;
  const auto* imports = Result(run, "load.library.imports");
  ASSERT_NE(imports, nullptr) << run.output;
  EXPECT_EQ(imports->value("outcome", ""), "fail");
  const std::string message = imports->value("message", "");
  EXPECT_NE(message.find("TF_Log"), std::string::npos) << message;
  EXPECT_NE(message.find("_ZN10tensorflow8internal15LogMessageFatalC1EPKci"), std::string::npos)
      << message;
  EXPECT_EQ(message.find("PyRun_SimpleStringFlags"), std::string::npos)
      << "every TensorFlow process has Python's symbols: " << message;
}

TEST(HostedImports, AFatalLogIsThePluginsCrashWithItsMessage) {
  const ToolRun run = RunVariant("hosted_log_fatal", "--tier load --profile tf2.10");
  ASSERT_FALSE(run.report.is_null()) << run.output;
  EXPECT_EQ(run.exit_code, 1) << run.output;
  const auto* init = Result(run, "load.se.init");
  ASSERT_NE(init, nullptr) << run.output;
  EXPECT_EQ(init->value("outcome", ""), "crash") << init->dump(2);
  const std::string message = init->value("message", "");
  EXPECT_NE(message.find("SIGABRT"), std::string::npos) << message;
  EXPECT_NE(message.find("fatal error logged at "), std::string::npos) << message;
  EXPECT_NE(message.find("hosted_imports_plugin.cc:"), std::string::npos) << message;
  EXPECT_NE(message.find("Check failed: adapter != nullptr (the device is gone)"),
            std::string::npos)
      << message;
  EXPECT_EQ(init->at("details").value("problem", ""), "fatal error logged") << init->dump(2);
}

}  // namespace
