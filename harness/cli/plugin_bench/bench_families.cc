#include "bench_families.h"

#include <unistd.h>

#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "allocation_benchmarks.h"
#include "isolate/in_flight.h"
#include "latency_benchmarks.h"
#include "memcpy_benchmarks.h"
#include "result_collector.h"
#include "stream_benchmarks.h"
#include "wrapper_overhead_benchmarks.h"

namespace conformance::bench {
namespace {

struct OpenedTargets {
  std::vector<std::unique_ptr<BenchTarget>> owned;
  std::vector<BenchTarget*> targets;
  std::string error;  // empty: every plugin opened
};

OpenedTargets OpenTargets(const FamilyPlan& plan) {
  OpenedTargets opened;
  auto open = [&](const char* role, const std::filesystem::path& path) {
    auto target = BenchTarget::Open(role, path);
    if (!target) {
      opened.error = std::string("cannot open ") + role + " " + path.string() + ": " +
                     target.error().Describe();
      return false;
    }
    opened.targets.push_back(target.value().get());
    opened.owned.push_back(std::move(target).value());
    return true;
  };
  if (open("candidate", plan.candidate) && !plan.reference.empty())
    open("reference", plan.reference);
  return opened;
}

CheckResult Result(std::string id, Outcome outcome, std::string message = "") {
  CheckResult result;
  result.id = std::move(id);
  result.outcome = outcome;
  result.message = std::move(message);
  return result;
}

nlohmann::json CasesJson(const std::vector<CaseInfo>& cases) {
  nlohmann::json json = nlohmann::json::array();
  for (const CaseInfo& info : cases) {
    json.push_back({{"key", info.key},
                    {"role", info.role},
                    {"metric", static_cast<int>(info.metric)},
                    {"baseline_key", info.baseline_key}});
  }
  return json;
}

// Passes every run on to ResultCollector and appends the reported benchmark's figure to the
// progress file at once, so the parent has it even if a later benchmark kills the process.
class ProgressCollector : public ResultCollector {
 public:
  ProgressCollector(std::unique_ptr<benchmark::BenchmarkReporter> display,
                    const CaseRegistry& registry, int progress_fd)
      : ResultCollector(std::move(display)), registry_(registry), progress_fd_(progress_fd) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    ResultCollector::ReportRuns(runs);
    if (runs.empty()) return;
    for (const CaseInfo& info : registry_.cases()) {
      const std::string name = BenchmarkName(info);
      if (name != runs.front().run_name.function_name) continue;
      const Figure figure = Get(name, info.metric);
      nlohmann::json line = {{"name", name}};
      if (figure.value) line["value"] = *figure.value;
      if (!figure.error.empty()) line["error"] = figure.error;
      const std::string text = line.dump() + "\n";
      if (write(progress_fd_, text.data(), text.size()) < 0) return;  // the table loses a row
    }
  }

 private:
  const CaseRegistry& registry_;
  int progress_fd_;
};

}  // namespace

const std::vector<BenchFamily>& BenchFamilies() {
  static const std::vector<BenchFamily> families = {
      {"memcpy", RegisterMemcpyBenchmarks},
      {"allocation", RegisterAllocationBenchmarks},
      {"latency", RegisterLatencyBenchmarks},
      {"stream", RegisterStreamBenchmarks},
      {"wrapper_overhead", RegisterWrapperOverheadBenchmarks},
  };
  return families;
}

std::string RegisteredCheck(const BenchFamily& family) { return RunCheck(family) + ".registered"; }
std::string RunCheck(const BenchFamily& family) { return "bench." + family.name; }

TestUnit OpenUnit(const FamilyPlan& plan) {
  TestUnit unit;
  unit.name = kOpenCheck;
  unit.tier = "bench";
  unit.check_ids = {kOpenCheck};
  unit.run = [plan](UnitContext& context) {
    in_flight::BeginCheck(kOpenCheck);
    const OpenedTargets opened = OpenTargets(plan);
    context.sink.Emit(
        Result(kOpenCheck, opened.error.empty() ? Outcome::kPass : Outcome::kFail, opened.error));
  };
  return unit;
}

TestUnit FamilyUnit(const BenchFamily& family, const FamilyPlan& plan, int progress_fd) {
  TestUnit unit;
  unit.name = RunCheck(family);
  unit.tier = "bench";
  unit.check_ids = {RegisteredCheck(family), RunCheck(family)};
  unit.run = [family, plan, progress_fd](UnitContext& context) {
    in_flight::BeginCheck(RegisteredCheck(family));
    const OpenedTargets opened = OpenTargets(plan);
    if (!opened.error.empty()) {
      context.sink.Emit(Result(RegisteredCheck(family), Outcome::kFail, opened.error));
      return;
    }
    CaseRegistry registry;
    family.register_benchmarks(registry, opened.targets);
    CheckResult registered = Result(RegisteredCheck(family), Outcome::kPass);
    registered.details["cases"] = CasesJson(registry.cases()).dump();
    context.sink.Emit(std::move(registered));

    in_flight::BeginCheck(RunCheck(family));
    // Google Benchmark's console reporter writes the context (CPU, load) to its error stream.
    std::ostringstream display_text, display_errors;
    std::unique_ptr<benchmark::BenchmarkReporter> display = plan.make_display();
    display->SetOutputStream(&display_text);
    display->SetErrorStream(&display_errors);
    ProgressCollector collector(std::move(display), registry, progress_fd);
    const std::size_t matched = benchmark::RunSpecifiedBenchmarks(&collector);
    CheckResult run = Result(RunCheck(family), Outcome::kPass);
    run.details["display"] = display_text.str();
    run.details["display_errors"] = display_errors.str();
    run.details["matched"] = std::to_string(matched);
    context.sink.Emit(std::move(run));
  };
  return unit;
}

}  // namespace conformance::bench
