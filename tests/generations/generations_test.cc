// Plugins built against each TensorFlow header generation (generation_plugin.cc) are
// identified, decoded and driven at runtime under their own profile; the defective ones fail
// where they should, with the generation named. Runs plugin_conformance as a vendor would.
#include <algorithm>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
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
// lack (`lacks_fills`), each naming the generation.
void ExpectDrivenUnderOwnProfile(const std::string& plugin, const std::string& profile,
                                 const std::string& headers, bool lacks_fills) {
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
  if (lacks_fills) {
    EXPECT_GT(lacking, 0) << "the memset-family scenarios cannot run on " << headers << " headers";
  } else {
    EXPECT_EQ(lacking, 0) << headers << " headers have every callback the newest have";
  }
  EXPECT_GT(run.Tally("runtime.")["pass"], 20)
      << plugin << ": the runtime tier must run, not be skipped";
  EXPECT_EQ(run.Outcome("load.se.header_generation"), "pass");
  EXPECT_NE(run.report.value("header_generation", "").find(profile == "tf2.5" ? "2.5" : "2.7"),
            std::string::npos)
      << run.report.value("header_generation", "");
}

TEST(Generations, Tf25PluginIsDrivenUnderTf25) {
  ExpectDrivenUnderOwnProfile("tf25", "tf2.5", "TensorFlow 2.5 and 2.6", true);
}

// 2.5 and 2.6 share their headers and differ in what they export: a release number picks its own.
TEST(Generations, A25Or26ReleasePicksItsOwnProfile) {
  for (const auto& [release, profile] : std::vector<std::pair<std::string, std::string>>{
           {"2.6", "tf2.6"}, {"2.6.5", "tf2.6"}, {"2.5.3", "tf2.5"}}) {
    const ToolRun run = RunTool("tf25", {"--profile", release, "--tier", "load"});
    EXPECT_EQ(run.report.value("profile", ""), profile) << release;
    EXPECT_EQ(run.Outcome("load.se.header_generation"), "pass") << release;
  }
}

// The layout of the tensorflow-cpu 2.7.4 and 2.8.4 wheels' headers: the 288-byte executor with
// a 34-byte SP_Platform. It was once called an impossible mixture of two generations.
TEST(Generations, Tf27PluginIsDrivenUnderTf27) {
  ExpectDrivenUnderOwnProfile("tf27", "tf2.7", "TensorFlow 2.7 and 2.8", false);
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
  const ToolRun run = RunTool("tf25_mixture", {"--profile", "tf2.5", "--tier", "load"});
  EXPECT_EQ(run.Outcome("load.se.header_generation"), "fail");
  EXPECT_NE(run.Message("load.se.header_generation").find("SP_Platform"), std::string::npos);
}

// TensorFlow >= 2.7 refuses an older plugin because memset is NULL: TensorFlow's message,
// plus the sentence saying why and what to rebuild against.
TEST(Generations, OlderPluginUnderNewestSaysWhyItIsRefused) {
  const ToolRun run = RunTool("tf25", {"--tier", "load"});
  EXPECT_EQ(run.Outcome("load.se.stream_executor.memset"), "fail");
  EXPECT_EQ(run.Message("load.se.stream_executor.memset"),
            "'memset' field in SP_StreamExecutor must be set.");
  const std::string shift = run.Detail("load.se.stream_executor.memset", "layout_shift");
  EXPECT_NE(shift.find("built against TensorFlow 2.5 and 2.6 headers"), std::string::npos) << shift;
  EXPECT_NE(shift.find("TensorFlow 2.9 and later refuses it because `memset` is NULL"),
            std::string::npos)
      << shift;
  EXPECT_NE(shift.find("fill mem_zero/memset/memset32"), std::string::npos) << shift;
  const std::string summary = run.report.at("tensorflow_verdict").value("summary", "");
  EXPECT_NE(summary.find("built against TensorFlow 2.5 and 2.6 headers"), std::string::npos)
      << summary;
}

// A newer plugin under an older core writes past its struct: the load tier fails it naming
// both generations, and the runtime tier does not drive a table that core would misread.
TEST(Generations, NewerPluginUnderOlderCoreOverflows) {
  const ToolRun run = RunTool("tf210", {"--profile", "tf2.5", "--tier", "load,runtime"});
  EXPECT_EQ(run.Outcome("load.se.struct_overflow"), "fail");
  EXPECT_NE(run.Message("load.se.struct_overflow").find("TensorFlow 2.9 and later"),
            std::string::npos);
  EXPECT_EQ(run.Tally("runtime.").count("fail"), 0u);
  EXPECT_GT(run.Tally("runtime.")["not_supported"], 0);
}

// A TF 2.9+ plugin leaving mem_zero NULL under TF 2.5: that core reads host_callback where the
// plugin's headers put mem_zero. TensorFlow's message, and the layout shift named.
TEST(Generations, NullFieldFromTheLayoutShiftSaysSo) {
  const ToolRun run = RunTool("tf210_no_mem_zero", {"--profile", "tf2.5", "--tier", "load"});
  EXPECT_EQ(run.Outcome("load.se.stream_executor.host_callback"), "fail");
  EXPECT_EQ(run.Message("load.se.stream_executor.host_callback"),
            "'host_callback' field in SP_StreamExecutor must be set.");
  const std::string shift = run.Detail("load.se.stream_executor.host_callback", "layout_shift");
  EXPECT_NE(shift.find("built against TensorFlow 2.9 and later headers"), std::string::npos)
      << shift;
  EXPECT_NE(shift.find("where those headers put `mem_zero`"), std::string::npos) << shift;
  EXPECT_NE(shift.find("layout shift"), std::string::npos) << shift;
}

// Under --profile the import audit is that core's: every symbol it lacks is listed, with what
// that TensorFlow's dlopen says; the newest core exports it.
TEST(Generations, ImportAuditFollowsTheProfile) {
  const ToolRun older = RunTool("tf210_newer_import", {"--profile", "tf2.10", "--tier", "load"});
  EXPECT_EQ(older.exit_code, 3);
  EXPECT_EQ(older.Outcome("load.library.imports"), "fail");
  EXPECT_EQ(older.results.at("load.library.imports").value("tf_code", -1), 5);
  EXPECT_EQ(older.Detail("load.library.imports", "missing_symbols"), "TF_GetDeviceId");
  EXPECT_TRUE(older.Detail("load.library.imports", "tensorflow_message")
                  .ends_with("tf210_newer_import.so: undefined symbol: TF_GetDeviceId, version "
                             "tensorflow"))  // glibc names a versioned import's node
      << older.Detail("load.library.imports", "tensorflow_message");
  EXPECT_NE(
      older.Message("load.library.imports").find("TensorFlow 2.10 does not export: TF_GetDeviceId"),
      std::string::npos)
      << older.Message("load.library.imports");
  EXPECT_EQ(older.Outcome("load.library.dlopen"), "skipped");

  const ToolRun newest = RunTool("tf210_newer_import", {"--tier", "load"});
  EXPECT_EQ(newest.exit_code, 0);
  EXPECT_EQ(newest.Outcome("load.library.imports"), "pass");
}

// --matrix on a plugin: its rows by profile name, and the exit code.
struct Matrix {
  int exit_code = -1;
  std::map<std::string, nlohmann::json> rows;

  const nlohmann::json& Row(const std::string& profile) const { return rows.at(profile); }
  std::vector<std::string> BuiltFor() const {
    std::vector<std::string> names;
    for (const auto& [name, row] : rows) {
      if (row.at("built_for")) names.push_back(name);
    }
    return names;
  }
};

// Every profile, newest first, and the releases each stands for (specs/profiles/*.yaml).
const std::vector<std::pair<std::string, std::string>> kProfiles = {
    {"newest", "2.21"},   {"tf2.19", "2.19-2.20"}, {"tf2.18", "2.18"}, {"tf2.17", "2.17"},
    {"tf2.16", "2.16"},   {"tf2.15", "2.15"},      {"tf2.14", "2.14"}, {"tf2.13", "2.13"},
    {"tf2.12", "2.12"},   {"tf2.11", "2.11"},      {"tf2.10", "2.10"}, {"tf2.9", "2.9"},
    {"tf2.7", "2.7-2.8"}, {"tf2.6", "2.6"},        {"tf2.5", "2.5"}};

// The profiles from `newest` down to `oldest` (both included), newest first.
std::vector<std::string> ProfilesDownTo(const std::string& oldest) {
  std::vector<std::string> names;
  for (const auto& [name, releases] : kProfiles) {
    names.push_back(name);
    if (name == oldest) break;
  }
  return names;
}

Matrix RunMatrix(const std::string& plugin_path, const std::vector<std::string>& args = {}) {
  const std::string json = (std::filesystem::temp_directory_path() /
                            ("generations_matrix_" + std::to_string(getpid()) + ".json"))
                               .string();
  std::string command = Shell(PLUGIN_CONFORMANCE) + " " + Shell(plugin_path) +
                        " --matrix --seed 7 --jobs 2 --json " + Shell(json);
  for (const auto& arg : args) command += " " + Shell(arg);
  command += " > /dev/null 2>&1";
  Matrix matrix;
  const int status = std::system(command.c_str());
  if (WIFEXITED(status)) matrix.exit_code = WEXITSTATUS(status);
  std::ifstream in(json);
  if (!in) return matrix;
  const auto report = nlohmann::json::parse(in);
  std::filesystem::remove(json);
  for (const auto& row : report.at("matrix").at("rows")) matrix.rows[row.at("profile")] = row;
  return matrix;
}

Matrix GenerationMatrix(const std::string& plugin, const std::vector<std::string>& args = {}) {
  return RunMatrix(std::string(GENERATIONS_DIR) + "/" + plugin + ".so", args);
}

std::string Why(const Matrix& matrix, const std::string& profile) {
  return matrix.Row(profile).at("why");
}

// Loads under `profile`, conformant, and the runtime tier really ran there.
void ExpectDrivenIn(const Matrix& matrix, const std::string& profile) {
  const auto& row = matrix.Row(profile);
  EXPECT_EQ(row.at("loads"), true) << profile << ": " << row.at("why");
  EXPECT_EQ(row.at("verdict"), "conformant") << profile << ": " << row.at("why");
  EXPECT_EQ(row.at("why"), "loads") << profile;
  EXPECT_GT(row.at("runtime_pass").get<int>(), 20) << profile;
  EXPECT_EQ(row.at("runtime_fail"), 0) << profile;
  EXPECT_TRUE(row.at("missing_symbols").empty()) << profile;
}

// Refused by a TensorFlow 2.7+ core: host_callback is read past the older 264-byte executor.
void ExpectLayoutRefusal(const Matrix& matrix, const std::string& profile,
                         const std::string& headers) {
  const auto& row = matrix.Row(profile);
  EXPECT_EQ(row.at("loads"), false) << profile;
  EXPECT_EQ(row.at("runtime"), "skipped") << profile;
  const std::string why = row.at("why");
  EXPECT_NE(why.find("'host_callback' field in SP_StreamExecutor must be set."), std::string::npos)
      << profile << ": " << why;
  EXPECT_NE(why.find("built against " + headers + " headers"), std::string::npos)
      << profile << ": " << why;
}

// TensorFlow 2.7 and later require mem_zero/memset/memset32 (measured on the 2.7.4 wheel), which
// the 2.5/2.6 headers lack: only the tf2.6 and tf2.5 cores load this plugin.
TEST(GenerationMatrix, Tf25LoadsOnTf26AndTf25Only) {
  const Matrix matrix = GenerationMatrix("tf25");
  ASSERT_EQ(matrix.rows.size(), kProfiles.size());
  EXPECT_EQ(matrix.exit_code, 0);
  for (const std::string& profile : ProfilesDownTo("tf2.7"))
    ExpectLayoutRefusal(matrix, profile, "TensorFlow 2.5 and 2.6");
  ExpectDrivenIn(matrix, "tf2.6");
  ExpectDrivenIn(matrix, "tf2.5");
  EXPECT_EQ(matrix.BuiltFor(), (std::vector<std::string>{"tf2.5", "tf2.6"}));
}

// The 2.7/2.8 headers have the executor of every later release and a SP_Platform that ends one
// byte earlier, inside the padding of the 40-byte struct: every core from 2.7 on loads and drives
// it; the 264-byte executor of 2.5/2.6 is overflowed.
TEST(GenerationMatrix, Tf27LoadsOnTf27AndLater) {
  const Matrix matrix = GenerationMatrix("tf27");
  ASSERT_EQ(matrix.rows.size(), kProfiles.size());
  EXPECT_EQ(matrix.exit_code, 0);
  for (const std::string& profile : ProfilesDownTo("tf2.7")) ExpectDrivenIn(matrix, profile);
  for (const char* older : {"tf2.6", "tf2.5"}) {
    EXPECT_EQ(matrix.Row(older).at("verdict"), "not conformant") << older;
    EXPECT_TRUE(Why(matrix, older).starts_with("loads, but load.se.struct_overflow: "))
        << Why(matrix, older);
  }
  EXPECT_EQ(matrix.BuiltFor(), std::vector<std::string>{"tf2.7"});
}

// Older cores load a newer plugin (TensorFlow checks no upper bound) but it writes past their
// executor: the row says so, and the runtime tier does not drive a table they would misread.
// The 2.7/2.8 core loads it too: its SP_Platform.force_memory_growth falls in the padding of
// that release's 40-byte struct, and the executors are the same.
TEST(GenerationMatrix, Tf210RunsOnTf27AndLaterAndOverflowsOlderCores) {
  const Matrix matrix = GenerationMatrix("tf210");
  ASSERT_EQ(matrix.rows.size(), kProfiles.size());
  EXPECT_EQ(matrix.exit_code, 0);
  for (const std::string& profile : ProfilesDownTo("tf2.7")) ExpectDrivenIn(matrix, profile);
  for (const char* older : {"tf2.6", "tf2.5"}) {
    const auto& row = matrix.Row(older);
    EXPECT_EQ(row.at("loads"), true) << older;
    EXPECT_EQ(row.at("verdict"), "not conformant") << older;
    EXPECT_TRUE(Why(matrix, older).starts_with("loads, but load.se.struct_overflow: "))
        << Why(matrix, older);
    EXPECT_EQ(row.at("runtime_pass"), 0) << older;
  }
  EXPECT_EQ(matrix.BuiltFor(),
            (std::vector<std::string>{"newest", "tf2.10", "tf2.11", "tf2.12", "tf2.13", "tf2.14",
                                      "tf2.15", "tf2.16", "tf2.17", "tf2.18", "tf2.19", "tf2.9"}));
}

// A getter the release audit's facts show first in TensorFlow 2.12: every older row refuses the
// plugin at dlopen and names it; the plugin was built for the newest release, so its exit code is
// that row's.
TEST(GenerationMatrix, ImportOfANewerSymbolIsRefusedByOlderCoresNamingIt) {
  const Matrix matrix = GenerationMatrix("tf210_newer_import");
  ASSERT_EQ(matrix.rows.size(), kProfiles.size());
  for (const std::string& profile : ProfilesDownTo("tf2.12")) ExpectDrivenIn(matrix, profile);
  const std::map<std::string, std::string> releases = {{"tf2.11", "2.11"}, {"tf2.10", "2.10"},
                                                       {"tf2.9", "2.9"},   {"tf2.7", "2.7-2.8"},
                                                       {"tf2.6", "2.6"},   {"tf2.5", "2.5"}};
  for (const auto& [profile, range] : releases) {
    const auto& row = matrix.Row(profile);
    EXPECT_EQ(row.at("loads"), false) << profile;
    EXPECT_EQ(row.at("verdict"), "not loaded") << profile;
    EXPECT_EQ(row.at("missing_symbols"), nlohmann::json::array({"TF_GetDeviceId"})) << profile;
    EXPECT_EQ(Why(matrix, profile),
              "dlopen fails: TensorFlow " + range + " does not export TF_GetDeviceId");
  }
  EXPECT_EQ(matrix.BuiltFor(),
            (std::vector<std::string>{"newest", "tf2.12", "tf2.13", "tf2.14", "tf2.15", "tf2.16",
                                      "tf2.17", "tf2.18", "tf2.19"}));
  EXPECT_EQ(matrix.exit_code, 0);
}

// kernels_experimental.h, which Vulten imports: TensorFlow 2.15.1 exports it, 2.21.0 does not
// (measured; tensorflow.agreement compares this plugin with both wheels), and the release audit
// finds it in 2.16.2 to 2.18.1's libtensorflow_framework.so.2 and in no library of 2.19 to 2.21.
TEST(GenerationMatrix, VariableOpsImportIsRefusedFrom219On) {
  const Matrix matrix = GenerationMatrix("tf215_variable_import");
  ASSERT_EQ(matrix.rows.size(), kProfiles.size());
  for (const char* profile :
       {"tf2.18", "tf2.17", "tf2.16", "tf2.15", "tf2.14", "tf2.11", "tf2.10", "tf2.9"})
    ExpectDrivenIn(matrix, profile);
  for (const auto& [profile, range] : std::vector<std::pair<std::string, std::string>>{
           {"newest", "2.21"}, {"tf2.19", "2.19-2.20"}}) {
    const auto& row = matrix.Row(profile);
    EXPECT_EQ(row.at("loads"), false) << profile;
    EXPECT_EQ(row.at("missing_symbols"), nlohmann::json::array({"TF_AssignUpdateVariable"}))
        << profile;
    EXPECT_EQ(Why(matrix, profile),
              "dlopen fails: TensorFlow " + range + " does not export TF_AssignUpdateVariable");
  }
}

// One import each that the release audit's facts show first in 2.9, 2.11, 2.13, 2.14 and 2.17
// (2.12's is ImportOfANewerSymbolIsRefusedByOlderCoresNamingIt's), and TF_Log, which every release
// up to 2.20 exports and 2.21.0 does not: the profile of the first release exporting it and every
// newer one up to `newest` load the plugin, every other one refuses it naming that import alone.
// The load tier decides it, so only that tier runs.
TEST(GenerationMatrix, EachReleaseLoadsTheImportItAdded) {
  struct Case {
    const char* plugin;
    const char* symbol;
    const char* first;   // the profile of the release that first exports it
    const char* newest;  // the newest profile exporting it
  };
  for (const Case& each : {Case{"tf29_import", "TF_IsRefInput", "tf2.9", "tf2.18"},
                           Case{"tf211_import", "TF_GetMutableOutput", "tf2.11", "newest"},
                           Case{"tf213_import", "TF_NewAsyncKernelBuilder", "tf2.13", "newest"},
                           Case{"tf214_import", "TF_ForEachPayload", "tf2.14", "newest"},
                           Case{"tf217_import", "TF_TensorDefaultAlignment", "tf2.17", "newest"},
                           Case{"tf220_log_import", "TF_Log", "tf2.5", "tf2.19"}}) {
    SCOPED_TRACE(each.plugin);
    const Matrix matrix = GenerationMatrix(each.plugin, {"--tier", "load"});
    ASSERT_EQ(matrix.rows.size(), kProfiles.size());
    bool exported = false;  // walking newest first: from `newest` down to `first`
    for (const auto& [profile, releases] : kProfiles) {
      if (profile == each.newest) exported = true;
      const auto& row = matrix.Row(profile);
      if (exported) {
        EXPECT_EQ(row.at("loads"), true) << profile << ": " << row.at("why");
        EXPECT_TRUE(row.at("missing_symbols").empty()) << profile;
      } else {
        EXPECT_EQ(row.at("loads"), false) << profile;
        EXPECT_EQ(row.at("missing_symbols"), nlohmann::json::array({each.symbol})) << profile;
      }
      if (profile == each.first) exported = false;
    }
  }
}

// The reference plugin uses TF_GetOpKernelName, which kernels.cc of TensorFlow 2.10 defines and
// the 2.7 headers lack, and grappler.h's functions, which TensorFlow 2.10.1 defines only in
// _pywrap_tensorflow_internal.so and 2.15.1 only in libtensorflow_cc.so.2 (out of a plugin's
// reach there: both refuse the plugin, measured). Only 2.19 and later (RTLD_GLOBAL) load it:
// `tf2.19` and `newest`, whose headers it was built for.
TEST(GenerationMatrix, ReferencePlugin) {
  const Matrix matrix = RunMatrix(REFERENCE_PLUGIN);
  ASSERT_EQ(matrix.rows.size(), kProfiles.size());
  EXPECT_EQ(matrix.exit_code, 0);
  ExpectDrivenIn(matrix, "newest");
  ExpectDrivenIn(matrix, "tf2.19");
  // 2.5 to 2.18 load their libraries RTLD_LOCAL, with grappler.h's functions
  // in _pywrap_tensorflow_internal.so or libtensorflow_cc.so.2 (the release audit's facts); 2.5
  // to 2.9 also lack TF_GetOpKernelName.
  for (const char* older : {"tf2.9", "tf2.7", "tf2.6", "tf2.5"}) {
    const auto missing = matrix.Row(older).at("missing_symbols").get<std::vector<std::string>>();
    EXPECT_NE(std::find(missing.begin(), missing.end(), "TF_GetOpKernelName"), missing.end())
        << older;
  }
  for (const char* local : {"tf2.18", "tf2.17", "tf2.16", "tf2.15", "tf2.14", "tf2.13", "tf2.12",
                            "tf2.11", "tf2.10", "tf2.9", "tf2.7", "tf2.6", "tf2.5"}) {
    EXPECT_EQ(matrix.Row(local).at("loads"), false) << local;
    const auto missing = matrix.Row(local).at("missing_symbols").get<std::vector<std::string>>();
    EXPECT_NE(std::find(missing.begin(), missing.end(), "TF_GetOutputPropertiesListSize"),
              missing.end())
        << local;
  }
  EXPECT_EQ(matrix.BuiltFor(), (std::vector<std::string>{"newest", "tf2.19"}));
}

}  // namespace
