// Scenario files are bounded in memory and time before anything is expanded: the alias bomb,
// runaway nesting and nested repeats are refused cheaply, validation is linear, and a large
// file costs a bounded multiple of its size. Each load runs in a child process so that a
// regression (the alias bomb once reached 8.4 GB) is measured and killed, not suffered. Speed is
// not asserted here (a loaded CI machine would flip it): bench_scenario_load measures it, and
// BENCHMARKS.md records it; the children's deadlines only turn a hang into a failure.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include "scenario/scenario_set.h"
#include "scenario_text.h"

namespace conformance::scenario {
namespace {

// Set for every sanitized build (tests/CMakeLists.txt): the harness under test is instrumented
// there whether or not this file is.
#if defined(CONFORMANCE_SANITIZED_BUILD)
constexpr bool kSanitized = true;  // shadow memory and slow code: sizes and times mean nothing
#else
constexpr bool kSanitized = false;
#endif

struct Measured {
  bool finished = false;  // exited on its own before the deadline
  double seconds = 0;
  long peak_growth_kb = 0;  // peak RSS during `work` minus the RSS before it
  std::string output;       // what `work` returned
};

// Runs `work` in a child limited to `memory_limit` bytes of address space and `deadline`.
Measured MeasureInChild(const std::function<std::string()>& work, std::size_t memory_limit,
                        std::chrono::milliseconds deadline) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    if (!kSanitized) {
      const rlimit limit{memory_limit, memory_limit};
      setrlimit(RLIMIT_AS, &limit);
    }
    rusage before{};
    getrusage(RUSAGE_SELF, &before);
    const auto start = std::chrono::steady_clock::now();
    std::string output;
    try {
      output = work();
    } catch (const std::exception& error) {
      output = std::string("exception: ") + error.what();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rusage after{};
    getrusage(RUSAGE_SELF, &after);
    const std::string report = std::to_string(seconds) + "\n" +
                               std::to_string(after.ru_maxrss - before.ru_maxrss) + "\n" + output;
    ssize_t ignored = write(fds[1], report.data(), report.size());
    (void)ignored;
    _exit(0);
  }
  close(fds[1]);
  const auto give_up = std::chrono::steady_clock::now() + deadline;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > give_up) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      close(fds[0]);
      return {};
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;)
    text.append(buffer, static_cast<std::size_t>(n));
  close(fds[0]);
  Measured measured;
  std::istringstream in(text);
  measured.finished = WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
                      (in >> measured.seconds >> measured.peak_growth_kb);
  std::getline(in, measured.output);
  std::getline(in, measured.output, '\0');
  return measured;
}

std::string ReadCorpus(const std::string& name) {
  std::ifstream in(std::string(SCENARIO_CORPUS_DIR) + "/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Loads `text` as a vendor file; returns the first problem, or "loaded N".
std::string Load(const std::string& text) {
  ErrorList errors("bounds.yaml");
  const auto loaded = LoadScenarioText(text, "bounds.yaml", errors);
  if (!errors.empty()) return errors.errors().front().ToString();
  return "loaded " + std::to_string(loaded.size()) + " ops " +
         (loaded.empty() ? "0" : std::to_string(loaded.front().program->ops.size()));
}

constexpr std::size_t kGiB = std::size_t{1} << 30;

TEST(ScenarioBounds, AliasBombIsRefusedWithin100MB) {
  const std::string text = ReadCorpus("alias_bomb.yaml");
  const Measured m = MeasureInChild([&] { return Load(text); }, 2 * kGiB, std::chrono::seconds(10));
  ASSERT_TRUE(m.finished)
      << "loading the alias bomb did not finish within 10 s (or ran out of 2 GiB)";
  EXPECT_NE(m.output.find("YAML anchors (&r0) are not allowed"), std::string::npos) << m.output;
  if (kSanitized) GTEST_SKIP() << "memory is not meaningful under a sanitizer";
  EXPECT_LT(m.peak_growth_kb, 100 * 1024);
  RecordProperty("seconds", std::to_string(m.seconds));
}

TEST(ScenarioBounds, DeepNestingIsRefusedAtTheNodeBeyondTheLimit) {
  // A million levels would overflow any recursive parser; the limit stops at level 65.
  const std::string text =
      "scenarios: " + std::string(1'000'000, '[') + std::string(1'000'000, ']') + "\n";
  const Measured m = MeasureInChild([&] { return Load(text); }, 2 * kGiB, std::chrono::seconds(20));
  ASSERT_TRUE(m.finished);
  EXPECT_EQ(
      m.output,
      "bounds.yaml:1:75: nested more than 64 levels deep (mappings and lists); scenario files "
      "never need that many, flatten the nested repeat/concurrent blocks");
}

TEST(ScenarioBounds, NestedRepeatsAreRefusedBeforeUnrolling) {
  const std::string text = ReadCorpus("repeat_expands_too_far.yaml");
  const Measured m = MeasureInChild([&] { return Load(text); }, 2 * kGiB, std::chrono::seconds(10));
  ASSERT_TRUE(m.finished);
  EXPECT_NE(m.output.find("100000 repetitions of 100000 steps"), std::string::npos) << m.output;
  if (kSanitized) GTEST_SKIP() << "memory is not meaningful under a sanitizer";
  EXPECT_LT(m.peak_growth_kb, 10 * 1024);
  RecordProperty("seconds", std::to_string(m.seconds));
}

TEST(ScenarioBounds, TenThousandStepsValidate) {
  const std::string text = testing::RepeatScenarioText(10'006);
  const Measured m = MeasureInChild([&] { return Load(text); }, 2 * kGiB, std::chrono::seconds(10));
  ASSERT_TRUE(m.finished);
  EXPECT_EQ(m.output, "loaded 1 ops 10006");
  RecordProperty("seconds", std::to_string(m.seconds));
}

TEST(ScenarioBounds, OneMillionStepsValidate) {
  if (kSanitized) GTEST_SKIP() << "a million steps under a sanitizer would outlast the hang guard";
  const std::string text = testing::RepeatScenarioText(1'000'000);
  const Measured m = MeasureInChild([&] { return Load(text); }, 4 * kGiB, std::chrono::seconds(30));
  ASSERT_TRUE(m.finished);
  EXPECT_EQ(m.output, "loaded 1 ops 999996");
  RecordProperty("seconds", std::to_string(m.seconds));
  RecordProperty("peak_rss_growth_kb", std::to_string(m.peak_growth_kb));
}

TEST(ScenarioBounds, AFiveMegabyteFileCostsAtMost50TimesItsSize) {
  if (kSanitized) GTEST_SKIP() << "memory is not meaningful under a sanitizer";
  const std::size_t bytes = 5'000'000;
  const Measured m = MeasureInChild([&] { return Load(testing::FlatScenarioText(bytes)); },
                                    4 * kGiB, std::chrono::seconds(30));
  ASSERT_TRUE(m.finished);
  EXPECT_EQ(m.output.substr(0, 7), "loaded ") << m.output;
  EXPECT_LT(m.peak_growth_kb * 1024, static_cast<long>(50 * bytes))
      << "peak RSS growth " << m.peak_growth_kb << " KB";
  RecordProperty("peak_rss_growth_kb", std::to_string(m.peak_growth_kb));
}

}  // namespace
}  // namespace conformance::scenario
