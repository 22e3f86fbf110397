// plugin_conformance against plugins that attack the harness (hostile_plugin.c): forging
// results through inherited descriptors, killing or tracing the harness. The harness must
// survive, write its report, and never call such a plugin conformant.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <elf.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

extern char** environ;

namespace conformance {
namespace {

using ::testing::HasSubstr;

struct HarnessRun {
  bool exited = false;
  int exit_code = -1;
  int signal = 0;
  std::string console;
  nlohmann::json report;
};

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string PluginPath(const std::string& attack) {
  return std::string(HOSTILE_PLUGIN_DIR) + "/libhostile_" + attack + ".so";
}

// Runs the harness in its own process group, so an attack on the harness's group that got
// through would end this run only, not the test runner.
HarnessRun RunHarnessOn(const std::string& plugin, const std::string& name) {
  const std::string stem =
      ::testing::TempDir() + "hostile_" + std::to_string(getpid()) + "_" + name;
  const std::string json_path = stem + ".json";
  const std::string console_path = stem + ".txt";
  std::vector<std::string> args = {
      PLUGIN_CONFORMANCE_EXE, plugin, "--tier", "load", "--json", json_path, "--timeout", "20000"};
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, console_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  pid_t pid = -1;
  HarnessRun run;
  const int error =
      posix_spawn(&pid, PLUGIN_CONFORMANCE_EXE, &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (error != 0) return run;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  run.exited = WIFEXITED(status);
  run.exit_code = run.exited ? WEXITSTATUS(status) : -1;
  run.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  run.console = ReadFile(console_path);
  run.report = nlohmann::json::parse(ReadFile(json_path), nullptr, false);
  // Both files live in the shared temporary folder; what the test needs is now in memory.
  std::remove(json_path.c_str());
  std::remove(console_path.c_str());
  return run;
}

HarnessRun RunHarness(const std::string& attack) {
  return RunHarnessOn(PluginPath(attack), attack);
}

const nlohmann::json* FindResult(const HarnessRun& run, const std::string& id) {
  if (!run.report.is_object() || !run.report.contains("results")) return nullptr;
  for (const auto& result : run.report["results"]) {
    // A problem of the unit as a whole is filed under the check that was in flight, keeping
    // the unit's name in details.filed_as (run/unit_result_filing.h).
    const bool filed_as =
        result.contains("details") && result["details"].value("filed_as", "") == id;
    if (result.value("id", "") == id || filed_as) return &result;
  }
  return nullptr;
}

// Exit 1, a report that says not conformant, and the attack reported against SE_InitPlugin.
void ExpectCaught(const HarnessRun& run, const std::string& message) {
  ASSERT_TRUE(run.exited) << "the harness was killed by signal " << run.signal << "\n"
                          << run.console;
  EXPECT_EQ(run.exit_code, 1) << run.console;
  ASSERT_TRUE(run.report.is_object()) << "no JSON report\n" << run.console;
  EXPECT_EQ(run.report.value("conformant", true), false);
  EXPECT_THAT(run.console, HasSubstr("\nNOT CONFORMANT: ")) << run.console;
  const nlohmann::json* init = FindResult(run, "load.se.init");
  ASSERT_NE(init, nullptr) << run.console;
  EXPECT_EQ(init->value("outcome", ""), "crash") << init->dump(2);
  EXPECT_THAT(init->value("message", ""), HasSubstr(message)) << init->dump(2);
  for (const auto& result : run.report["results"]) {
    const std::string id = result.value("id", "");
    if (id.rfind("load.se.", 0) == 0 && id != "load.se.init") {
      EXPECT_NE(result.value("outcome", ""), "pass") << "forged or unearned pass: " << id;
    }
  }
}

TEST(HostilePlugins, ForgingThroughLowDescriptorsThenExitZeroIsACrash) {
  ExpectCaught(RunHarness("forge_low_fds"), "the plugin called _exit(0) during SE_InitPlugin");
}

TEST(HostilePlugins, ForgingThroughEveryOpenDescriptorIsRejectedForLackOfTheToken) {
  const HarnessRun run = RunHarness("forge_all_fds");
  ExpectCaught(run, "the plugin called _exit(0) during SE_InitPlugin");
  const nlohmann::json* stream = FindResult(run, "load.modules");
  ASSERT_NE(stream, nullptr) << "the forged records reached the result pipe unreported";
  EXPECT_EQ(stream->value("outcome", ""), "fail");
  EXPECT_THAT(stream->value("message", ""),
              HasSubstr("12 records in the unit's result stream were not written by the harness "
                        "(no token, or the wrong one)"));
}

TEST(HostilePlugins, KillingTheHarnessIsRefusedAndReported) {
  ExpectCaught(RunHarness("kill_parent"),
               "the plugin tried to kill the harness (kill(PPID, SIGKILL)) in SE_InitPlugin");
}

TEST(HostilePlugins, TgkillOfTheHarnessIsRefusedAndReported) {
  ExpectCaught(RunHarness("tgkill_parent"), "the plugin tried to kill the harness (tgkill(PPID, ");
}

TEST(HostilePlugins, KillingTheOwnProcessGroupIsRefusedAndReported) {
  ExpectCaught(RunHarness("kill_group"), "the plugin tried to kill the harness (kill(0, SIGKILL))");
}

TEST(HostilePlugins, KillingTheHarnessGroupIsRefusedAndReported) {
  ExpectCaught(RunHarness("kill_parent_group"),
               "the plugin tried to kill the harness (kill(-PGID, SIGKILL))");
}

TEST(HostilePlugins, TracingTheHarnessIsRefusedAndReported) {
  ExpectCaught(RunHarness("ptrace_parent"),
               "the plugin tried to trace the harness (ptrace(16, PPID");
}

// The reference plugin cut inside its last loadable segment: dlopen of it dies of SIGBUS (or
// fails), so the unit must report the examination's finding and never dlopen it itself.
TEST(BrokenFiles, TruncatedPluginIsReportedAsSuchWithExitCode3) {
  const std::string bytes = ReadFile(REFERENCE_PLUGIN);
  ASSERT_GT(bytes.size(), sizeof(Elf64_Ehdr));
  Elf64_Ehdr header;
  std::memcpy(&header, bytes.data(), sizeof(header));
  std::uint64_t last_load = 0;
  for (int i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    std::memcpy(&segment,
                bytes.data() + header.e_phoff + static_cast<std::size_t>(i) * header.e_phentsize,
                sizeof(segment));
    if (segment.p_type == PT_LOAD && segment.p_filesz > 0) last_load = segment.p_offset;
  }
  const std::string path = ::testing::TempDir() + "truncated_" + std::to_string(getpid()) + ".so";
  std::ofstream(path, std::ios::binary) << bytes.substr(0, last_load + 16);

  const HarnessRun run = RunHarnessOn(path, "truncated");
  std::remove(path.c_str());
  ASSERT_TRUE(run.exited) << run.console;
  EXPECT_EQ(run.exit_code, 3) << run.console;
  ASSERT_TRUE(run.report.is_object()) << run.console;
  const nlohmann::json* elf = FindResult(run, "load.library.elf");
  ASSERT_NE(elf, nullptr) << run.console;
  EXPECT_EQ(elf->value("outcome", ""), "fail");
  EXPECT_THAT(elf->value("message", ""), HasSubstr("truncated ELF file"));
  for (const auto& result : run.report["results"]) {
    EXPECT_NE(result.value("outcome", ""), "crash") << result.dump(2);
  }
}

}  // namespace
}  // namespace conformance
