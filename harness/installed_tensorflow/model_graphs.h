#pragma once
// The built-in models (conformance/models, as model_dump writes them) as GRAPHS in the installed
// TensorFlow: a TF_Graph of Placeholders and the model's nodes, run step by step by a
// TF_Session. A session's graph goes through TensorFlow's graph optimizer (grappler) and the
// plugin's own (TF_InitGraph), which is the only way the kernels of a CPU kernel plugin's own
// ops (zentf's `_Zen*`, ITEX's `_ITEX*`) ever run: its optimizer rewrites standard ops into
// them. Each run asks for the partition graphs and a full trace (RunOptions), so the result says
// which ops the optimized graph held and which of its nodes ran.
//
// The same models run in a second child that never loads the plugin (TensorFlow's own CPU
// kernels, the oracle); JudgeModelGraphs compares the two within each model's tolerance.
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "installed_tensorflow/tensorflow_c_api.h"

namespace tensorflow_driver {

// The report step of a model run in the plugin's child, and in the child without the plugin.
inline constexpr const char* kModelGraphStep = "model_graph";
inline constexpr const char* kBaselineModelGraphStep = "baseline_model_graph";

// Every model of the dump file at `models_path` on `device` (the plugin's device, or
// TensorFlow's CPU for a CPU kernel plugin), one step `step` each: {model, dtype, device,
// steps: [[output tensor...]...], graph_ops: {op: count} (the optimized partition graphs of the
// first step), ran_ops: {op: count} (the nodes the trace saw run)}, or {model, dtype, error:
// {call, code, message}}, or {model, dtype, not_run: why} for a model this path cannot build
// (resource variables).
void RunModelGraphs(const TensorFlowCApi& api, const std::string& models_path,
                    const std::string& device, const char* step, std::FILE* report);

// The results of `step` in a child's report; a model that started and never ended (the child
// died in it) as {model, dtype, died: true}.
nlohmann::json ModelGraphResults(const std::string& report, const std::string& step);

// Every op type in the plugin's optimized graphs (its results' graph_ops), to ask the process
// without the plugin about.
nlohmann::json PluginGraphOps(const nlohmann::json& plugin);

// How many kernels (any device) this process's registry holds for `op`; 0 for an op it does
// not know.
int KernelCount(const TensorFlowCApi& api, const std::string& op);

// {model, dtype, plugin: ..., cpu: ...} per model → the driver result's "model_graphs": each
// gains "agree" and, when it is false, "difference" (the first output that differs: step,
// output name, element, values); "rewritten": {op: count} for ops in the plugin's optimized
// graph TensorFlow without the plugin has no kernel for (`kernels_without_plugin`: {op: count}
// from KernelCount in the second child); "plugin_ops_ran": the nodes of those ops that ran.
// The tolerance comes from each model entry of the dump.
nlohmann::json JudgeModelGraphs(const nlohmann::json& models_dump, const nlohmann::json& plugin,
                                const nlohmann::json& cpu,
                                const nlohmann::json& kernels_without_plugin);

}  // namespace tensorflow_driver
