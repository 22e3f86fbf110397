#include "scenario/scenario_units.h"

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
  if (auto reason = runtime::UnsupportedProfileReason(context.settings, "scenarios")) {
    log.NotSupported(loaded.id, *reason);
    return;
  }
  auto session = runtime::DeviceSession::Open(context.settings.plugin_path);
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
    case ScenarioOutcome::Kind::kPass:
      log.Pass(loaded.id, outcome.details);
      break;
    case ScenarioOutcome::Kind::kNotSupported:
      log.NotSupported(loaded.id, outcome.message);
      break;
    case ScenarioOutcome::Kind::kFail:
      log.Fail(loaded.id, outcome.message, std::nullopt, outcome.details);
      break;
  }
}

}  // namespace

std::vector<TestUnit> ScenarioUnits(const RunSettings& settings) {
  std::vector<TestUnit> units;
  for (LoadedScenario& loaded : scenario::LoadAllScenarios(settings.scenario_dirs)) {
    TestUnit unit;
    unit.name = loaded.id;
    unit.tier = loaded.tier;
    unit.check_ids = {loaded.id};
    // Without a registered StreamExecutor there is nothing to drive.
    unit.prerequisites = {"load.se.create_stream_executor"};
    unit.run = [loaded = std::move(loaded)](UnitContext& context) { RunScenario(loaded, context); };
    units.push_back(std::move(unit));
  }
  return units;
}

}  // namespace conformance
