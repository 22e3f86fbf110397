// Plugins built against each TensorFlow header generation (generation_plugin.cc) are
// identified, decoded and driven at runtime under their own profile; the defective ones fail
// where they should, with the generation named. Runs plugin_conformance as a vendor would.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

struct ToolRun {
  int exit_code = -1;
  nlohmann::json report;
  std::map<std::string, nlohmann::json> results;  // by check id

  std::string Outcome(const std::string& id) const {
    auto it = results.find(id);
    return it == results.end() ? "absent" : it->second.at("outcome").get<std::string>();
  }
  std::string Message(const std::string& id) const {
    auto it = results.find(id);
    return it == results.end() ? "" : it->second.value("message", "");
  }
  std::string Detail(const std::string& id, const std::string& key) const {
    auto it = results.find(id);
    if (it == results.end() || !it->second.contains("details")) return "";
    return it->second.at("details").value(key, "");
  }
  // Outcomes of the results whose id starts with `prefix`: outcome -> count.
  std::map<std::string, int> Tally(const std::string& prefix) const {
    std::map<std::string, int> tally;
    for (const auto& [id, result] : results) {
      if (id.starts_with(prefix)) ++tally[result.at("outcome").get<std::string>()];
    }
    return tally;
  }
};

std::string Shell(const std::string& text) { return "'" + text + "'"; }

ToolRun RunTool(const std::string& plugin, const std::vector<std::string>& args) {
  static int serial = 0;
  const std::string json =
      (std::filesystem::temp_directory_path() /
       ("generations_" + std::to_string(getpid()) + "_" + std::to_string(++serial) + ".json"))
          .string();
  std::string command = Shell(PLUGIN_CONFORMANCE) + " " +
                        Shell(std::string(GENERATIONS_DIR) + "/" + plugin + ".so") +
                        " --seed 7 --jobs 2 --json " + Shell(json);
  for (const auto& arg : args) command += " " + Shell(arg);
  command += " > /dev/null 2>&1";
  ToolRun run;
  const int status = std::system(command.c_str());
  if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  std::ifstream in(json);
  if (!in) return run;
  run.report = nlohmann::json::parse(in);
  std::filesystem::remove(json);
  for (const auto& result : run.report.at("results")) run.results[result.at("id")] = result;
  return run;
}

bool Breaks(const std::string& outcome) {
  return outcome == "fail" || outcome == "crash" || outcome == "timeout" ||
         outcome == "unexpected_pass";
}

// Under its own profile a plugin of an older generation is conformant on load and runtime,
// the runtime tier really ran, and what is not_supported beyond what the same device built
// against the newest headers gets (one device, no unified memory) is the fills its headers
// lack, each naming the generation.
void ExpectDrivenUnderOwnProfile(const std::string& plugin, const std::string& profile,
                                 const std::string& headers) {
  const ToolRun newest = RunTool("tf210", {"--tier", "load,runtime"});
  const ToolRun run = RunTool(plugin, {"--profile", profile, "--tier", "load,runtime"});
  ASSERT_FALSE(run.results.empty()) << plugin << ": no report";
  EXPECT_EQ(run.exit_code, 0) << plugin;
  int lacking = 0;
  for (const auto& [id, result] : run.results) {
    EXPECT_FALSE(Breaks(result.at("outcome")))
        << plugin << ": " << id << ": " << result.value("message", "");
    if (!id.starts_with("runtime.") || result.at("outcome") != "not_supported") continue;
    if (newest.Outcome(id) == "not_supported") continue;
    ++lacking;
    EXPECT_NE(result.value("message", "").find("built against " + headers + " headers"),
              std::string::npos)
        << id << ": " << result.value("message", "");
  }
  EXPECT_GT(lacking, 0) << "the memset-family scenarios cannot run on " << headers << " headers";
  EXPECT_GT(run.Tally("runtime.")["pass"], 20)
      << plugin << ": the runtime tier must run, not be skipped";
  EXPECT_EQ(run.Outcome("load.se.header_generation"), "pass");
  EXPECT_NE(run.report.value("header_generation", "").find(profile == "tf2.5" ? "2.5" : "2.7"),
            std::string::npos)
      << run.report.value("header_generation", "");
}

TEST(Generations, Tf25PluginIsDrivenUnderTf25) {
  ExpectDrivenUnderOwnProfile("tf25", "tf2.5", "TensorFlow 2.5 and 2.6");
}

TEST(Generations, Tf27PluginIsDrivenUnderTf27) {
  ExpectDrivenUnderOwnProfile("tf27", "tf2.7", "TensorFlow 2.7 to 2.9");
}

TEST(Generations, NewestPluginIsConformantUnderNewest) {
  const ToolRun run = RunTool("tf210", {"--tier", "load,runtime"});
  EXPECT_EQ(run.exit_code, 0);
  for (const auto& [id, result] : run.results) {
    EXPECT_EQ(result.value("message", "").find("headers"), std::string::npos)
        << id << ": nothing lacks a callback";
  }
  EXPECT_GT(run.Tally("runtime.")["pass"], 20);
}

// The defect (host_callback accepted but never run) is caught at runtime under the plugin's
// own generation, and nothing in the load tier blames it.
TEST(Generations, Tf27DefectFailsTheRuntimeTier) {
  const ToolRun run = RunTool("tf27_lost_callback", {"--profile", "tf2.7", "--tier", "load,runtime",
                                                     "--filter", "load.*:runtime.callback.*"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.Tally("load.").count("fail"), 0u);
  EXPECT_GT(run.Tally("runtime.")["fail"], 0);
  EXPECT_EQ(run.Outcome("runtime.callback.exactly_once"), "fail");
  EXPECT_NE(run.Message("runtime.callback.exactly_once").find("never ran"), std::string::npos);
}

TEST(Generations, SizesFromTwoGenerationsAreAnImpossibleMixture) {
  const ToolRun run = RunTool("tf27_mixture", {"--profile", "tf2.7", "--tier", "load"});
  EXPECT_EQ(run.Outcome("load.se.header_generation"), "fail");
  EXPECT_NE(run.Message("load.se.header_generation").find("SP_Platform"), std::string::npos);
}

// TensorFlow >= 2.10 refuses an older plugin because memset is NULL: TensorFlow's message,
// plus the sentence saying why and what to rebuild against.
TEST(Generations, OlderPluginUnderNewestSaysWhyItIsRefused) {
  const ToolRun run = RunTool("tf27", {"--tier", "load"});
  EXPECT_EQ(run.Outcome("load.se.stream_executor.memset"), "fail");
  EXPECT_EQ(run.Message("load.se.stream_executor.memset"),
            "'memset' field in SP_StreamExecutor must be set.");
  const std::string shift = run.Detail("load.se.stream_executor.memset", "layout_shift");
  EXPECT_NE(shift.find("built against TensorFlow 2.7 to 2.9 headers"), std::string::npos) << shift;
  EXPECT_NE(shift.find("TensorFlow 2.10 and later refuses it because `memset` is NULL"),
            std::string::npos)
      << shift;
  EXPECT_NE(shift.find("fill mem_zero/memset/memset32"), std::string::npos) << shift;
  const std::string summary = run.report.at("tensorflow_verdict").value("summary", "");
  EXPECT_NE(summary.find("built against TensorFlow 2.7 to 2.9 headers"), std::string::npos)
      << summary;
}

// A newer plugin under an older core writes past its struct: the load tier fails it naming
// both generations, and the runtime tier does not drive a table that core would misread.
TEST(Generations, NewerPluginUnderOlderCoreOverflows) {
  const ToolRun run = RunTool("tf210", {"--profile", "tf2.7", "--tier", "load,runtime"});
  EXPECT_EQ(run.Outcome("load.se.struct_overflow"), "fail");
  EXPECT_NE(run.Message("load.se.struct_overflow").find("TensorFlow 2.10 and later"),
            std::string::npos);
  EXPECT_EQ(run.Tally("runtime.").count("fail"), 0u);
  EXPECT_GT(run.Tally("runtime.")["not_supported"], 0);
}

// A TF 2.10+ plugin leaving mem_zero NULL under TF 2.7: that core reads host_callback where the
// plugin's headers put mem_zero. TensorFlow's message, and the layout shift named.
TEST(Generations, NullFieldFromTheLayoutShiftSaysSo) {
  const ToolRun run = RunTool("tf210_no_mem_zero", {"--profile", "tf2.7", "--tier", "load"});
  EXPECT_EQ(run.Outcome("load.se.stream_executor.host_callback"), "fail");
  EXPECT_EQ(run.Message("load.se.stream_executor.host_callback"),
            "'host_callback' field in SP_StreamExecutor must be set.");
  const std::string shift = run.Detail("load.se.stream_executor.host_callback", "layout_shift");
  EXPECT_NE(shift.find("built against TensorFlow 2.10 and later headers"), std::string::npos)
      << shift;
  EXPECT_NE(shift.find("where those headers put `mem_zero`"), std::string::npos) << shift;
  EXPECT_NE(shift.find("layout shift"), std::string::npos) << shift;
}

}  // namespace
