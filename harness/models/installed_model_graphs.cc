#include "models/installed_model_graphs.h"

#include "kernels/case_json.h"
#include "kernels/dtype_values.h"
#include "models/model_runner.h"
#include "models/model_scenario_set.h"
#include "models/model_variables.h"

namespace conformance::models {
namespace {

using nlohmann::json;

json ModelJson(const ModelScenario& model, TF_DataType dtype, std::uint64_t seed) {
  const kernels::Tolerance tolerance = model.ToleranceFor(dtype);
  json nodes = json::array();
  for (const ModelNode& node : model.nodes) {
    json attrs = json::object();
    for (const auto& [name, value] : node.attrs) attrs[name] = kernels::AttrJson(value);
    nodes.push_back({{"name", node.name},
                     {"op", node.op},
                     {"inputs", node.inputs},
                     {"outputs", node.outputs},
                     {"attrs", attrs}});
  }
  json inputs = json::array();
  for (const auto& input : model.inputs) inputs.push_back(input.name);
  json variables = json::array();
  const auto initial = InitialVariableValues(model, dtype, seed);
  for (std::size_t i = 0; i < initial.size(); ++i) {
    variables.push_back(
        {{"name", model.variables[i].name}, {"value", kernels::TensorJson(initial[i])}});
  }
  json steps = json::array();
  for (int s = 0; s < model.steps; ++s) {
    json step_inputs = json::array();
    for (const auto& tensor : StepInputs(model, dtype, s, seed)) {
      step_inputs.push_back(kernels::TensorJson(tensor));
    }
    steps.push_back({{"inputs", step_inputs}});
  }
  return {
      {"model", model.name},
      {"dtype", kernels::DtypeName(dtype)},
      {"tolerance", {{"rtol", tolerance.rtol}, {"atol", tolerance.atol}, {"ulp", tolerance.ulp}}},
      {"nodes", nodes},
      {"inputs", inputs},
      {"outputs", model.outputs},
      {"variables", variables},
      {"steps", steps}};
}

std::string OpCounts(const json& ops) {
  std::string text;
  for (const auto& [op, count] : ops.items()) {
    text += (text.empty() ? "" : ", ") + std::to_string(count.get<int>()) + " " + op;
  }
  return text;
}

CheckResult Judge(const json& entry, json& summary) {
  CheckResult result;
  const std::string model = entry.value("model", "");
  result.id = "model." + model + "." + entry.value("dtype", "") + kInstalledModelSuffix;
  result.tier = "models";
  const json plugin = entry.value("plugin", json::object());
  const json rewritten = entry.value("rewritten", json::object());
  const json ran = entry.value("plugin_ops_ran", json::object());
  for (const auto& [op, count] : rewritten.items()) {
    summary["rewritten"][op] = summary["rewritten"].value(op, 0) + count.get<int>();
  }
  for (const auto& [op, count] : ran.items()) {
    summary["plugin_nodes_ran"] = summary.value("plugin_nodes_ran", 0) + count.get<int>();
  }
  result.details["rewritten"] = rewritten.empty() ? "nothing" : OpCounts(rewritten);
  result.details["device"] = plugin.value("device", "");
  if (plugin.value("died", false)) {
    // The driver's `death` (driver_main.cc): a hang is the model's timeout, a session that ran
    // out of its allowance blames no model (runtime.session.in_tensorflow says so).
    const json death = plugin.value("death", json::object());
    if (death.value("timed_out", false) && !death.value("stalled", false)) {
      result.outcome = Outcome::kSkipped;
      result.message =
          "not judged: the session inside the installed TensorFlow ran out of its "
          "allowance while it ran model " +
          model + " (runtime.session.in_tensorflow)";
      return result;
    }
    result.outcome = death.value("timed_out", false) ? Outcome::kTimeout : Outcome::kCrash;
    result.message = "the process with the plugin " + death.value("how", std::string("died")) +
                     " while the installed TensorFlow ran model " + model + " as a graph";
    result.details["failing_call"] = "compute_func";
    return result;
  }
  if (plugin.contains("error") || plugin.contains("not_run") || !entry.contains("agree")) {
    summary["not_run"] = summary.value("not_run", 0) + 1;
    result.outcome = Outcome::kNotSupported;
    result.message = "not run as a graph in the installed TensorFlow: " +
                     (plugin.contains("error")
                          ? plugin["error"].value("call", "") + ": " +
                                plugin["error"].value("message", "").substr(0, 300)
                          : plugin.value("not_run", entry["cpu"].value("not_run", "no result")));
    return result;
  }
  if (entry.value("agree", false)) {
    summary["agree"] = summary.value("agree", 0) + 1;
    result.outcome = Outcome::kPass;
    result.message =
        rewritten.empty()
            ? "agrees with TensorFlow's own kernels; the graph was not rewritten "
              "into ops of the plugin"
            : "agrees with TensorFlow's own kernels; graph rewritten: " + OpCounts(rewritten) +
                  " (" + OpCounts(ran) + " ran)";
    return result;
  }
  summary["disagree"] = summary.value("disagree", 0) + 1;
  result.outcome = Outcome::kFail;
  result.message = "model " + model +
                   " as a graph in the installed TensorFlow, with the plugin vs without it: " +
                   entry.value("difference", "");
  result.details["problem"] = "wrong values";
  result.details["failing_call"] = "compute_func";
  return result;
}

}  // namespace

json InstalledModelGraphsDump(const std::vector<std::string>& scenario_dirs, std::uint64_t seed) {
  json models = json::array();
  for (const ModelScenario& model : LoadAllModelScenarios(scenario_dirs)) {
    for (TF_DataType dtype : model.dtypes) models.push_back(ModelJson(model, dtype, seed));
  }
  return {{"seed", std::to_string(seed)}, {"models", models}};
}

InstalledModelJudgement JudgeInstalledModelGraphs(const json& model_graphs) {
  InstalledModelJudgement judgement;
  judgement.summary = {{"models", model_graphs.size()},
                       {"agree", 0},
                       {"disagree", 0},
                       {"not_run", 0},
                       {"plugin_nodes_ran", 0},
                       {"rewritten", json::object()}};
  for (const json& entry : model_graphs) {
    judgement.results.push_back(Judge(entry, judgement.summary));
  }
  return judgement;
}

}  // namespace conformance::models
