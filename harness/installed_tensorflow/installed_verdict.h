#pragma once
// The verdict block's line for the installed TensorFlow, and its comparison with the suite's
// emulated verdict: the report's `installed_tensorflow` object (specs/report/report.schema.json).
#include <string>

#include <nlohmann/json.hpp>

#include "installed_tensorflow/verdicts.h"

namespace tensorflow_driver {

// What the installed TensorFlow did, in words: "loads the plugin", "aborts: CODE: MESSAGE"
// (TensorFlow logged the status and aborted), "refuses the plugin: CODE: MESSAGE" (the load
// returned it), "dies: crash" / "dies: timeout".
std::string InstalledSummary(const nlohmann::json& driver_result);

// The kernel cases' line, from the `kernels` judgement (harness/kernels/tensorflow_cpu_oracle.h):
// "kernels: 568 cases on the plugin's device agree with TensorFlow's CPU (159 op/dtype cells)" or
// "kernels: 3 of 568 cases disagree with TensorFlow's CPU (AddV2 float, ...)"; then the
// generated cases' cells: "; generated cases: 12 op/dtype cells without a scenario agree".
std::string InstalledKernelsSummary(const nlohmann::json& kernels);

// The models run as graphs there (harness/models/installed_model_graphs.h's summary):
// "models as graphs: 5 of 6 agree with TensorFlow's own kernels; graph rewritten: 7 nodes became
// _ZenFusedMatMul, ... (18 nodes of the plugin's ops ran); 1 not run".
std::string InstalledModelsSummary(const nlohmann::json& models);

// {release, dir, summary, verdict, code?, message?, agrees, emulated, installed, finding?}:
// `finding` is set when the two verdicts disagree. TensorFlow is the ground truth, so a
// disagreement is a finding against the suite, with both texts.
nlohmann::json InstalledTensorFlowReport(const nlohmann::json& driver_result,
                                         const std::string& tensorflow_dir,
                                         const Verdict& emulated);

}  // namespace tensorflow_driver
