#include "scenario/scenario_units.h"

#include <iostream>

#include "catalogue/catalogue.h"
#include "model/tensorflow_reach.h"
#include "runtime/problems.h"
#include "runtime/profile_support.h"
#include "runtime/runtime.h"
#include "scenario/executor.h"
#include "scenario/runtime_backend.h"
#include "scenario/scenario_set.h"
#include "validate/check_log.h"

namespace conformance {
namespace {

using scenario::LoadedScenario;
using scenario::ScenarioOutcome;

void RunScenario(const LoadedScenario& loaded, UnitContext& context) {
  validate::CheckLog log(context.sink, {loaded.id});
  log.Begin(loaded.id);
  auto session = runtime::DeviceSession::Open(context.settings.plugin_path,
                                              runtime::SessionOptionsFor(context.settings));
  if (!session.ok()) {
    const runtime::Error& error = session.error();
    if (error.kind == runtime::ErrorKind::kUnsupported) {
      log.NotSupported(loaded.id, error.Describe());
    } else {
      log.Skip(loaded.id, "cannot bring the plugin's StreamExecutor up: " + error.Describe());
    }
    return;
  }
  ScenarioOutcome outcome;
  {
    // The backend's wrappers must be gone before the session is.
    scenario::RuntimeBackend backend(*session.value());
    outcome = scenario::RunProgram(*loaded.program, backend, context.settings.seed);
  }
  switch (outcome.kind) {
    case ScenarioOutcome::Kind::kPass: log.Pass(loaded.id, outcome.details); break;
    case ScenarioOutcome::Kind::kNotSupported: log.NotSupported(loaded.id, outcome.message); break;
    case ScenarioOutcome::Kind::kFail:
      // Whether TensorFlow reaches the defect can depend on it (model/tensorflow_reach.h).
      outcome.details[std::string(kUsesBfcDetail)] =
          session.value()->platform().use_bfc_allocator != 0 ? "1" : "0";
      log.Fail(loaded.id, outcome.message, std::nullopt, outcome.details);
      break;
  }
}

// Whether any step (repeats and threads included) allocates plugin host memory.
bool AllocatesHostMemory(const std::vector<scenario::Step>& steps) {
  for (const scenario::Step& step : steps) {
    if (step.kind == scenario::StepKind::kAllocate &&
        step.buffer_kind == scenario::BufferKind::kHost)
      return true;
    if (AllocatesHostMemory(step.body)) return true;
    for (const auto& thread : step.threads) {
      if (AllocatesHostMemory(thread)) return true;
    }
  }
  return false;
}

// Vendor scenarios are not in the compiled-in catalogue; their own rule/tensorflow/fix text
// documents them in --list -v and the reports.
void AddVendorEntries(const std::vector<LoadedScenario>& scenarios) {
  std::vector<CheckEntry> entries;
  for (const LoadedScenario& loaded : scenarios) {
    if (FindCheck(loaded.id)) continue;  // a built-in
    entries.push_back(CheckEntry{loaded.id, "runtime", Origin::kStricter, loaded.scenario->rule,
                                 loaded.scenario->tensorflow, loaded.scenario->fix});
  }
  AddRunTimeChecks(std::move(entries));
}

}  // namespace

std::vector<TestUnit> ScenarioUnits(const RunSettings& settings) {
  std::vector<TestUnit> units;
  std::vector<std::string> warnings;
  std::vector<LoadedScenario> scenarios =
      scenario::LoadAllScenarios(settings.scenario_dirs, &warnings);
  for (const std::string& warning : warnings)
    std::cerr << "plugin_conformance: warning: " << warning << '\n';
  AddVendorEntries(scenarios);
  for (LoadedScenario& loaded : scenarios) {
    TestUnit unit;
    unit.name = loaded.id;
    unit.tier = loaded.tier;
    unit.check_ids = {loaded.id};
    // Without a registered StreamExecutor there is nothing to drive.
    unit.prerequisites = {"load.se.create_stream_executor"};
    // Host memory the plugin hands out shorter than asked would be written past its end here,
    // corrupting the heap; that check says so first, blaming host_memory_allocate.
    if (AllocatesHostMemory(loaded.scenario->steps))
      unit.prerequisites.push_back(runtime::kHostAllocationSizesCheck);
    unit.run = [loaded = std::move(loaded)](UnitContext& context) { RunScenario(loaded, context); };
    units.push_back(std::move(unit));
  }
  return units;
}

}  // namespace conformance
