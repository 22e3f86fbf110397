#include "scenario/scenario_units.h"

#include "runtime/runtime.h"
#include "scenario/executor.h"
#include "scenario/runtime_backend.h"
#include "scenario/scenario_set.h"
#include "validate/abi_layout.h"
#include "validate/check_log.h"
#include "validate/profile.h"

namespace conformance {
namespace {

using scenario::LoadedScenario;
using scenario::ScenarioOutcome;

// The runtime layer drives the 288-byte SP_StreamExecutor only (as the C++ runtime checks).
std::optional<std::string> ProfileUnsupported(const RunSettings& settings) {
  const validate::Profile* profile = validate::FindProfile(settings.profile);
  if (profile == nullptr || profile->layout == nullptr) return std::nullopt;
  const std::size_t size = profile->layout->Struct("SP_StreamExecutor").size_of;
  if (size == runtime::kSupportedStreamExecutorStructSize) return std::nullopt;
  return "the emulated core (--profile " + settings.profile + ") has a " + std::to_string(size) +
         "-byte SP_StreamExecutor; scenarios drive the 288-byte generation only";
}

void RunScenario(const LoadedScenario& loaded, UnitContext& context) {
  validate::CheckLog log(context.sink, {loaded.id});
  log.Begin(loaded.id);
  if (auto reason = ProfileUnsupported(context.settings)) {
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
