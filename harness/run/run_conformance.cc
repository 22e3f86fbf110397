#include "run/run_conformance.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <optional>
#include <stdexcept>
#include <vector>

#include "model/no_device.h"
#include "run/repeated_results.h"
#include "run/tensorflow_verdict.h"
#include "run/tiers.h"
#include "run/unit_result_filing.h"
#include "run/unit_timing.h"
#include "run/report_string_cap.h"
#include "model/tensorflow_reach.h"
#include "run/waiver_apply.h"

namespace conformance {
namespace {

// Tiers that drive the device as TensorFlow would after loading the plugin: pointless (and
// misleading, dozens of failures) for a plugin TensorFlow refuses.

// Wave of each unit: 0 without prerequisites, else one more than the latest producer's.
std::vector<int> PrerequisiteWaves(const std::vector<TestUnit>& units) {
  std::map<std::string, std::size_t> producer;
  for (std::size_t i = 0; i < units.size(); ++i) {
    for (const std::string& id : units[i].check_ids) producer.emplace(id, i);
  }
  std::vector<int> waves(units.size(), -1);
  // Units that need a plugin TensorFlow would load run after the whole load tier, whose
  // results decide that: their wave starts after its last one, and so do the waves of the
  // units waiting for them (a runtime unit's prerequisite in another runtime unit).
  int last_load_wave = -1;
  std::function<int(std::size_t, int)> wave_of = [&](std::size_t i, int depth) -> int {
    if (waves[i] >= 0) return waves[i];
    if (depth > static_cast<int>(units.size()))
      throw std::logic_error("prerequisite cycle at unit " + units[i].name);
    int wave = NeedsALoadablePlugin(units[i]) ? last_load_wave + 1 : 0;
    for (const std::string& prerequisite : units[i].prerequisites) {
      auto it = producer.find(prerequisite);
      if (it != producer.end() && it->second != i)
        wave = std::max(wave, wave_of(it->second, depth + 1) + 1);
    }
    return waves[i] = wave;
  };
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (units[i].tier == "load") last_load_wave = std::max(last_load_wave, wave_of(i, 0));
  }
  for (std::size_t i = 0; i < units.size(); ++i) wave_of(i, 0);
  return waves;
}

bool OutcomeIs(const std::map<std::string, Outcome>& outcomes, const std::string& id,
               Outcome outcome) {
  auto it = outcomes.find(id);
  return it != outcomes.end() && it->second == outcome;
}

// A CPU kernel plugin: TensorFlow skipped its device module (no SE_InitPlugin: load.se.init is
// skipped, as for a library that does not open, whose load.kernels.init is skipped too), it has
// no NextPluggableDevice either, and TF_InitKernel ran.
bool IsCpuKernelPlugin(const std::map<std::string, Outcome>& outcomes) {
  const auto npd = outcomes.find("load.npd.init");
  const bool no_npd = npd == outcomes.end() || npd->second == Outcome::kNotSupported;
  return no_npd && OutcomeIs(outcomes, "load.se.init", Outcome::kSkipped) &&
         (OutcomeIs(outcomes, "load.kernels.init", Outcome::kPass) ||
          OutcomeIs(outcomes, "load.kernels.init", Outcome::kWarning));
}

constexpr const char* kStreamExecutorPrerequisite = "load.se.create_stream_executor";

bool DrivesAStreamExecutor(const TestUnit& unit) {
  return std::find(unit.prerequisites.begin(), unit.prerequisites.end(),
                   kStreamExecutorPrerequisite) != unit.prerequisites.end();
}

// The kernel tier runs a CPU kernel plugin's kernels on the host device
// (kernels/host_stream_executor.h): TF_InitKernel stands in for the StreamExecutor.
std::vector<std::string> PrerequisitesFor(const TestUnit& unit,
                                          const std::map<std::string, Outcome>& outcomes) {
  std::vector<std::string> prerequisites = unit.prerequisites;
  if (unit.tier != "kernels" || !IsCpuKernelPlugin(outcomes)) return prerequisites;
  for (std::string& prerequisite : prerequisites) {
    if (prerequisite == kStreamExecutorPrerequisite) prerequisite = "load.kernels.init";
  }
  return prerequisites;
}

// "load.se.init (crash)" when a prerequisite did not pass; nullopt when the unit may run.
std::optional<std::string> BlockingPrerequisite(const TestUnit& unit,
                                                const std::map<std::string, Outcome>& outcomes) {
  for (const std::string& prerequisite : PrerequisitesFor(unit, outcomes)) {
    auto it = outcomes.find(prerequisite);
    if (it == outcomes.end()) return prerequisite + " (not run)";
    if (it->second != Outcome::kPass && it->second != Outcome::kWarning) {
      return prerequisite + " (" + std::string(ToString(it->second)) + ")";
    }
  }
  return std::nullopt;
}

std::vector<CheckResult> SkippedResults(const TestUnit& unit, const std::string& message,
                                        Outcome outcome = Outcome::kSkipped) {
  std::vector<CheckResult> results;
  for (const std::string& id : unit.check_ids) {
    CheckResult result;
    result.id = id;
    result.outcome = outcome;
    result.message = message;
    results.push_back(std::move(result));
  }
  return results;
}

// "load.library.dlopen: cannot open ..." for the first load.library.* result that breaks
// conformance, reported or not; empty when there is none.
// A failure before a not_supported: a plugin with C++ imports the mock core cannot host, one of
// which no TensorFlow release exports either, is refused by load.library.dlopen, which logs
// after load.library.tensorflow_cxx.
std::string LoadFailure(const std::vector<CheckResult>& results) {
  for (const bool failures_only : {true, false}) {
    for (const CheckResult& result : results) {
      if (!KeepsPluginFromLoading(result)) continue;
      if (failures_only && result.outcome == Outcome::kNotSupported) continue;
      return result.id + ": " +
             (result.message.empty() ? std::string(ToString(result.outcome)) : result.message);
    }
  }
  return "";
}

// --repeat: the whole wave runs plan.repeat times (a unit's runs never overlap each other, as
// with the runners of Vulkan's CTS), then each unit's runs merge into one result list.
std::vector<std::vector<CheckResult>> RunRepeatedly(const std::vector<TestUnit>& units,
                                                    const RunPlan& plan,
                                                    const UnitsRunner& runner) {
  std::vector<std::vector<std::vector<CheckResult>>> runs(units.size());
  for (int run = 0; run < plan.repeat; ++run) {
    runner(units, plan.settings, plan.isolation, plan.jobs,
           [&](std::size_t index, std::vector<CheckResult> results) {
             if (index >= units.size() || runs[index].size() != static_cast<std::size_t>(run)) {
               throw std::logic_error("unit runner reported unit " + std::to_string(index) +
                                      " twice or out of range");
             }
             std::vector<std::string> dropped;  // reported once, by finish_unit's own filing
             runs[index].push_back(FileUnitResults(units[index], std::move(results), dropped));
           });
  }
  std::vector<std::vector<CheckResult>> merged;
  merged.reserve(runs.size());
  for (auto& unit_runs : runs) merged.push_back(MergeRepeatedRuns(std::move(unit_runs)));
  return merged;
}

}  // namespace

RunReport StartReport(const RunPlan& plan, const Selection& selection) {
  RunReport report;
  report.tool_version = plan.tool_version;
  report.plugin_path = plan.settings.plugin_path;
  report.co_loaded_plugins = plan.settings.co_loaded_plugins;
  report.profile = plan.settings.profile;
  report.seed = plan.settings.seed;
  report.tiers = selection.tiers;
  report.named_tiers = selection.named_tiers;
  report.filter = selection.filter.text();
  report.shard = selection.shard;
  report.jobs = plan.jobs;
  report.timeout_ms = plan.isolation.timeout.count();
  report.isolation = plan.isolation.isolate;
  report.repeat = plan.repeat;
  report.declared_precision = plan.settings.declared_precision;
  report.started_at = IsoUtc(std::chrono::system_clock::now());
  report.host = CurrentHost();
  return report;
}

RunReport RunConformance(const std::vector<TestUnit>& suite, const RunPlan& plan,
                         const UnitsRunner& runner, const RunObserver& observer) {
  const Selection selection = Select(suite, plan.selection);
  RunReport report = StartReport(plan, selection);
  if (observer.on_start) observer.on_start(report);
  const auto started = std::chrono::steady_clock::now();

  std::vector<TestUnit> units;
  units.reserve(selection.units.size());
  for (const SelectedUnit& selected : selection.units) {
    units.push_back(suite[selected.suite_index]);
  }

  // Slots per unit: units finish in any order, the report lists them in suite order.
  std::vector<std::optional<std::vector<CheckResult>>> per_unit(units.size());
  std::size_t units_done = 0;
  std::map<std::string, Outcome> outcomes;  // every result so far, reported or not
  std::vector<std::vector<CheckResult>> all_results(units.size());  // reported or not
  auto finish_unit = [&](std::size_t unit_index, std::vector<CheckResult> results) {
    if (unit_index >= units.size() || per_unit[unit_index]) {
      throw std::logic_error("unit runner reported unit " + std::to_string(unit_index) +
                             " twice or out of range");
    }
    std::vector<std::string> dropped;
    results = FileUnitResults(units[unit_index], std::move(results), dropped);
    // DESIGN.md: a stricter check that names no consequence only warns, whatever its code says.
    for (CheckResult& result : results) {
      if (result.outcome == Outcome::kFail && plan.may_fail && !plan.may_fail(result.id)) {
        result.outcome = Outcome::kWarning;
        result.details["downgraded"] =
            "its catalogue entry names no consequence a TensorFlow user would hit";
      }
      // And a failure TensorFlow was measured never to reach (model/tensorflow_reach.h).
      DowngradeUnreached(result, plan.settings.profile);
    }
    for (const std::string& id : dropped) {
      const std::string warning = "unit " + units[unit_index].name + " reported a result for '" +
                                  id + "', which is not one of its checks or came twice; ignored";
      report.warnings.push_back(warning);
      if (observer.on_warning) observer.on_warning(warning);
    }
    for (const CheckResult& result : results) outcomes[result.id] = result.outcome;
    all_results[unit_index] = results;
    std::vector<CheckResult> reported;
    if (selection.units[unit_index].reported) {
      for (CheckResult& result : results) {
        if (selection.Reports(result.id)) reported.push_back(std::move(result));
      }
    }
    per_unit[unit_index] = std::move(reported);
    ++units_done;
    if (observer.on_unit_done) {
      observer.on_unit_done(units[unit_index], *per_unit[unit_index], units_done, units.size());
    }
  };

  // Units run in waves: a unit runs once the units producing its prerequisites have finished,
  // and only if those prerequisites passed; otherwise its checks are reported skipped.
  const std::vector<int> waves = PrerequisiteWaves(units);
  const int last_wave = waves.empty() ? -1 : *std::max_element(waves.begin(), waves.end());
  // The emulation's results: what the suite's TensorFlow verdict is made of. The installed
  // TensorFlow's own units (--tensorflow) are what that verdict is compared with, not part of it.
  const auto results_so_far = [&] {
    std::vector<CheckResult> so_far;
    for (std::size_t i = 0; i < units.size(); ++i) {
      if (units[i].in_installed_tensorflow) continue;
      so_far.insert(so_far.end(), all_results[i].begin(), all_results[i].end());
    }
    return so_far;
  };
  for (int wave = 0; wave <= last_wave; ++wave) {
    std::vector<TestUnit> runnable;
    std::vector<std::size_t> runnable_index;
    std::optional<nlohmann::json> verdict;
    bool verdict_known = false;
    for (std::size_t i = 0; i < units.size(); ++i) {
      if (waves[i] != wave) continue;
      if (units[i].tier != "kernels" && DrivesAStreamExecutor(units[i]) &&
          IsCpuKernelPlugin(outcomes)) {
        // The models tier keeps tensors on a device stream between nodes (and holds it back for
        // its ordering checks); it has not been ported to the host device.
        const std::string reason =
            units[i].tier == "models"
                ? std::string(kNoStreamExecutorModule) +
                      " (the models tier runs on a device stream; not on the host device yet)"
                : std::string(kNoStreamExecutorModule);
        finish_unit(i, SkippedResults(units[i], reason, Outcome::kNotSupported));
        continue;
      }
      if (DrivesAStreamExecutor(units[i]) &&
          OutcomeIs(outcomes, std::string(kDeviceCountCheck), Outcome::kNotSupported)) {
        finish_unit(i, SkippedResults(units[i], std::string(kNoDeviceSkip)));
        continue;
      }
      if (auto blocked = BlockingPrerequisite(units[i], outcomes)) {
        // A prerequisite that is not_supported means the plugin does not provide that module
        // (no profiler, no kernels): its dependents are absent too, not blocked by a failure.
        const bool absent = blocked->ends_with(" (not_supported)");
        finish_unit(i, absent ? SkippedResults(units[i], "not supported: prerequisite " + *blocked,
                                               Outcome::kNotSupported)
                              : SkippedResults(units[i], "not run: prerequisite " + *blocked +
                                                             " did not pass"));
        continue;
      }
      if (NeedsALoadablePlugin(units[i]) && !plan.force_runtime) {
        if (!verdict_known) verdict = TensorFlowVerdict(results_so_far(), plan.origin_of);
        verdict_known = true;
        if (TensorFlowRefuses(verdict)) {
          finish_unit(
              i, SkippedResults(units[i],
                                "not run: TensorFlow " +
                                    verdict->value("summary", std::string("refuses the plugin")) +
                                    " (--force-runtime runs it anyway)"));
          continue;
        }
      }
      runnable.push_back(WithCheckTiming(units[i]));
      runnable_index.push_back(i);
    }
    if (runnable.empty()) continue;
    if (plan.repeat <= 1) {
      runner(runnable, plan.settings, plan.isolation, plan.jobs,
             [&](std::size_t index, std::vector<CheckResult> results) {
               if (index >= runnable_index.size()) {
                 throw std::logic_error("unit runner reported unit " + std::to_string(index) +
                                        " out of range");
               }
               finish_unit(runnable_index[index], std::move(results));
             });
      continue;
    }
    std::vector<std::vector<CheckResult>> merged = RunRepeatedly(runnable, plan, runner);
    for (std::size_t i = 0; i < runnable.size(); ++i)
      finish_unit(runnable_index[i], std::move(merged[i]));
  }
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (!per_unit[i]) {
      throw std::logic_error("unit runner never reported unit '" + units[i].name + "'");
    }
    for (CheckResult& result : *per_unit[i]) report.results.push_back(std::move(result));
  }

  CapReportStrings(report.results);
  const WaiverApplication waived = ApplyWaivers(
      report.results, plan.waivers,
      WaiverContext{plan.settings.profile, plan.today.value_or(TodayUtc()), selection.check_ids});
  for (const std::string& warning : waived.warnings) {
    report.warnings.push_back(warning);
    if (observer.on_warning) observer.on_warning(warning);
  }
  FillTensorFlowVerdict(report, results_so_far(), plan.origin_of);
  report.load_failure = LoadFailure(results_so_far());
  for (const CheckResult& result : results_so_far()) {
    if (result.id == kDeviceCountCheck && result.outcome == Outcome::kNotSupported)
      report.no_device = kNoDeviceReason;
  }
  report.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace conformance
