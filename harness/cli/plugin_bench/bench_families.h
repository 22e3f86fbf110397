#pragma once
// plugin_bench runs each benchmark family in its own child process, with the conformance run's
// isolator (harness/isolate): a plugin that crashes or hangs in one benchmark costs that
// family's remaining benchmarks, is reported (signal, benchmark in flight, backtrace), and the
// other families still run. Families run one after another, never side by side, so they do
// not disturb each other's figures.
//
// Each family is a TestUnit with two checks:
//   bench.<family>.registered  the benchmarks it registered (details["cases"], JSON), emitted
//                              before any of them runs, so a crash can be put in its rows;
//   bench.<family>             the run: details["display"] (Google Benchmark's output, in the
//                              chosen format) and details["matched"].
// Figures do not wait for the end of the family: the child appends one JSON line per finished
// benchmark to the family's progress file (a memfd the parent made), so what ran before a
// crash or hang still reaches the table.
// Unit bench.open opens the plugins once before any family, so a plugin that cannot be opened
// is reported as such (exit code 3), not as a crash of every family.
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_target.h"
#include "case_registry.h"
#include "model/test_unit.h"

namespace conformance::bench {

struct BenchFamily {
  std::string name;  // "memcpy", "allocation", ...
  void (*register_benchmarks)(CaseRegistry& registry, std::span<BenchTarget* const> targets);
};

const std::vector<BenchFamily>& BenchFamilies();

struct FamilyPlan {
  std::filesystem::path candidate;
  std::filesystem::path reference;  // empty: candidate only
  // Makes the display reporter Google Benchmark would have used (console or JSON).
  std::function<std::unique_ptr<benchmark::BenchmarkReporter>()> make_display;
};

inline constexpr const char* kOpenCheck = "bench.open";
std::string RegisteredCheck(const BenchFamily& family);  // "bench.<family>.registered"
std::string RunCheck(const BenchFamily& family);         // "bench.<family>"

TestUnit OpenUnit(const FamilyPlan& plan);
// `progress_fd`: where the child appends {"name", "value" | "error"} lines (see above).
TestUnit FamilyUnit(const BenchFamily& family, const FamilyPlan& plan, int progress_fd);

}  // namespace conformance::bench
