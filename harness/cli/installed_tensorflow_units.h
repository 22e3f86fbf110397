#pragma once
// --tensorflow: the installed TensorFlow's checks as units of the run, so they are listed,
// selected (--tier, --filter), sharded and waived like every other check, and a selection error
// is said before TensorFlow starts. The units are made from what is handed to TensorFlow (the
// kernel case dump, the model graph dump): one unit of tier load for the plugin's session there
// (load.in_tensorflow, runtime.session.in_tensorflow), one of tier kernels per op (its cases'
// "<case id>.in_tensorflow" and its generated cells' "kernel.<Op>.<dtype>.generated") and one of
// tier models per model graph ("model.<name>.<dtype>.installed").
//
// They do not run in children of their own: WithInstalledTensorFlow runs the emulated units as
// before and hands the installed TensorFlow's units of the same call to one session of the
// plugin in that TensorFlow, with only those units' cases and models. A shard therefore runs the
// TensorFlow leg once, for its own units (and the session unit, unreported unless it is its own).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_options.h"
#include "cli/run_cli.h"
#include "model/test_unit.h"
#include "run/run_conformance.h"

namespace conformance {

// Everything decided about the TensorFlow leg before TensorFlow runs anything.
struct InstalledTensorFlowPlan {
  std::string dir;              // the package folder used
  std::string release;          // "2.21.0"; empty when not known before the session
  nlohmann::json kernel_cases;  // the case dump (null: the kernels tier cannot be selected)
  nlohmann::json model_graphs;  // the model dump (null: the models tier cannot be selected)
};

std::vector<TestUnit> InstalledTensorFlowUnits(const InstalledTensorFlowPlan& plan);

// What the last session in TensorFlow gave, for the report's installed_tensorflow block.
struct InstalledTensorFlowSession {
  nlohmann::json driver_result;    // what TensorFlow did (harness/installed_tensorflow/README.md)
  nlohmann::json kernels;          // the kernel judgement's summary (null: no case went)
  std::string op_registry;         // the op definitions the cases were generated from
  nlohmann::json models;           // the model judgement's summary (null: no model went)
  double seconds = 0;              // the session's time, TensorFlow's loading included
  std::int64_t step_limit_ms = 0;  // each step's (a copy, an op, a case, a model): --timeout
  std::int64_t session_limit_ms = 0;  // the session's: the step limit for each of its steps
  // The session check that broke conformance (a refusal, a death), as "id: message"; empty when
  // neither did. It counts even where the session's unit ran unreported (a shard, a filter).
  std::string failure;
  std::string failure_id;
};

class InstalledTensorFlowLeg {
 public:
  InstalledTensorFlowLeg(InstalledTensorFlowPlan plan, const CliOptions& options,
                         const CliEnvironment& environment);

  // Runs one session of the plugin in the installed TensorFlow with the cases and models of
  // `units` (every one in_installed_tensorflow) and returns each unit's results, in order: a
  // declared check that got no result is skipped, with why (the session died before it, or
  // TensorFlow did not load the plugin). Throws a UsageError when TensorFlow cannot be used.
  std::vector<std::vector<CheckResult>> Run(const std::vector<TestUnit>& units);

  const InstalledTensorFlowPlan& plan() const { return plan_; }
  // nullopt while no unit of the run went to TensorFlow (a shard without any).
  const std::optional<InstalledTensorFlowSession>& session() const { return session_; }

 private:
  InstalledTensorFlowPlan plan_;
  const CliOptions& options_;
  const CliEnvironment& environment_;
  std::optional<InstalledTensorFlowSession> session_;
};

// `emulated` for the suite's own units, `leg` for the installed TensorFlow's, each unit's
// results reported under its index in the call, as UnitsRunner promises.
UnitsRunner WithInstalledTensorFlow(UnitsRunner emulated, InstalledTensorFlowLeg& leg);

}  // namespace conformance
