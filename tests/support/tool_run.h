#pragma once
// One run of plugin_conformance from a test, in a shell: its exit code, what it printed, and the
// reports it wrote. Shared by the end-to-end tests of the vendor-facing options.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace conformance::test_support {

inline std::string Shell(const std::string& text) { return "'" + text + "'"; }

struct ToolRun {
  int exit_code = -1;
  std::string output;     // stdout and stderr
  nlohmann::json report;  // the --json report, when one was written
  std::string junit;      // the --junit report, when asked for
};

// `env` TOOL PLUGIN ARGS --json FILE [--junit FILE], its files kept in `dir`.
inline ToolRun RunConformance(const std::string& tool, const std::string& plugin,
                              const std::string& args, const std::filesystem::path& dir,
                              const std::string& env = "", bool junit = false) {
  const std::string json_path = (dir / "report.json").string();
  const std::string junit_path = (dir / "report.xml").string();
  const std::string out_path = (dir / "output.txt").string();
  std::filesystem::remove(json_path);
  std::string command =
      env + " " + Shell(tool) + " " + Shell(plugin) + " " + args + " --json " + Shell(json_path);
  if (junit) command += " --junit " + Shell(junit_path);
  command += " > " + Shell(out_path) + " 2>&1";
  ToolRun run;
  const int status = std::system(command.c_str());
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ostringstream output;
  output << std::ifstream(out_path).rdbuf();
  run.output = output.str();
  if (std::ifstream in(json_path); in) run.report = nlohmann::json::parse(in);
  if (junit) {
    std::ostringstream xml;
    xml << std::ifstream(junit_path).rdbuf();
    run.junit = xml.str();
  }
  return run;
}

// The result with check id `id` in the run's report, or nullptr.
inline const nlohmann::json* Result(const ToolRun& run, const std::string& id) {
  if (!run.report.contains("results")) return nullptr;
  for (const nlohmann::json& result : run.report.at("results")) {
    if (result.at("id") == id) return &result;
  }
  return nullptr;
}

inline std::string OutcomeOf(const ToolRun& run, const std::string& id) {
  const nlohmann::json* result = Result(run, id);
  return result == nullptr ? "(missing)" : result->at("outcome").get<std::string>();
}

}  // namespace conformance::test_support
