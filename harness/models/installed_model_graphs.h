#pragma once
// plugin_conformance --tensorflow: the built-in models (and --scenarios models) as graphs in the
// installed TensorFlow (harness/installed_tensorflow/model_graphs.h). Here: the models as data
// for the driver, and its findings as results of the models tier, one per (model, dtype):
// "model.<name>.<dtype>.installed". A session graph goes through TensorFlow's graph optimizer
// and the plugin's own, so this is how a CPU kernel plugin's kernels for its own ops (zentf's
// _Zen*, ITEX's _ITEX*) are judged at all.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/check_result.h"

namespace conformance::models {

inline constexpr const char* kInstalledModelSuffix = ".installed";

// {"seed", "models": [{model, dtype, tolerance, nodes: [{name, op, inputs, outputs, attrs}],
// inputs, outputs, variables, steps: [{inputs}]}]}, the form model_dump writes without the
// reference plugin's outputs. Throws scenario::ScenarioFilesError for a --scenarios folder that
// does not parse.
nlohmann::json InstalledModelGraphsDump(const std::vector<std::string>& scenario_dirs,
                                        std::uint64_t seed);

struct InstalledModelJudgement {
  // {models, agree, disagree, not_run, plugin_nodes_ran: N, rewritten: {op: nodes}}: N counts
  // the nodes of the plugin's own ops (rewritten) that ran, over every model.
  nlohmann::json summary;
  // One per model the driver reports (tier models): pass when the plugin's graph agrees with
  // TensorFlow's own within the model's tolerance (the message says what the plugin rewrote),
  // fail with the first output that differs, crash when the plugin's process died in the
  // model, not_supported when the graph could not run there (TensorFlow's message) or was not
  // built (variables).
  std::vector<CheckResult> results;
};

// `model_graphs` is the driver's "model_graphs" (JudgeModelGraphs).
InstalledModelJudgement JudgeInstalledModelGraphs(const nlohmann::json& model_graphs);

}  // namespace conformance::models
