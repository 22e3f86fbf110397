#include "model_diagnosis.h"

#include <algorithm>
#include <map>

#include "kernels/dtype_values.h"
#include "kernels/value_distance.h"
#include "runtime/problems.h"

namespace conformance::model_diagnosis {

std::optional<std::string> Disagreement(const std::vector<HostTensor>& expected,
                                        const std::vector<HostTensor>& actual,
                                        const std::vector<std::string>& names,
                                        const kernels::Tolerance& tolerance) {
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const std::string name = "'" + (i < names.size() ? names[i] : std::to_string(i)) + "'";
    if (i >= actual.size()) return "output " + name + " is missing";
    if (actual[i].dtype != expected[i].dtype || actual[i].shape != expected[i].shape) {
      return "output " + name + " is " + kernels::DtypeName(actual[i].dtype) + " " +
             core::ShapeString(actual[i].shape) + ", expected " +
             kernels::DtypeName(expected[i].dtype) + " " + core::ShapeString(expected[i].shape);
    }
    if (auto mismatch = kernels::CompareValues(expected[i], actual[i], tolerance)) {
      return "output " + name + " element " + mismatch->index + " is " +
             kernels::ValueString(expected[i].dtype, mismatch->actual) + ", expected " +
             kernels::ValueString(expected[i].dtype, mismatch->expected) + " (" +
             std::to_string(mismatch->mismatched) + " of " +
             std::to_string(expected[i].NumElements()) + " elements outside " +
             kernels::ToleranceText(tolerance) + ")";
    }
  }
  return std::nullopt;
}

std::string OpsText(const ModelScenario& model, const std::vector<std::string>& missing,
                    const std::vector<std::string>& without_variable_api) {
  const auto holds = [](const std::vector<std::string>& ops, const std::string& op) {
    return std::find(ops.begin(), ops.end(), op) != ops.end();
  };
  std::string text;
  for (const std::string& op : model.Ops()) {
    const char* state = holds(missing, op)                ? " (missing)"
                        : holds(without_variable_api, op) ? " (registered; no variable C API)"
                                                          : " (registered)";
    text += (text.empty() ? "" : ", ") + op + state;
  }
  return text;
}

validate::Details Blame::ToDetails(const ModelScenario& model) const {
  validate::Details details = {{"failing_call", call},
                               {"problem", problem},
                               {"ops", OpsText(model, {})}};  // it ran: every op has a kernel
  if (names_node) {
    details["node"] = model.nodes[node].name;
    details["kernel"] = model.nodes[node].op;
  }
  return details;
}

std::string NodeLabel(const ModelScenario& model, std::size_t node) {
  return "node " + model.nodes[node].name + " (" + model.nodes[node].op + ")";
}

std::string StepLabel(int step) { return "step " + std::to_string(step + 1); }

ModelOutcome ModelJudge::Run(ModelRunMode mode) {
  return models::RunModel(target_, model_, dtype_, seed_, mode);
}

std::optional<Blame> ModelJudge::Diagnose(const ModelOutcome& sequential,
                                          const models::ReferenceModel* reference) {
  if (sequential.corrupted) {
    const auto& c = *sequential.corrupted;
    return Blame{
        .problem = model_.nodes[c.node].op + ": wrote into an input a later node still reads",
        .message = NodeLabel(model_, c.node) + " changed tensor '" + c.tensor + "' in " +
                   StepLabel(c.step) +
                   ", which a later node (or the model's output) still reads: the core "
                   "had not forwarded it to the kernel (it had other consumers), so its "
                   "buffer was not the kernel's to write",
        .node = c.node};
  }
  if (reference != nullptr && sequential.ran()) {
    if (auto blame = FirstWrongNode(sequential, *reference)) return blame;
  }
  if (auto blame = FreedUnderQueuedWork(sequential)) return blame;
  if (sequential.ran()) {
    if (auto blame = UpdateOffTheStream(sequential)) return blame;
  }
  return ReadAhead(sequential);
}

std::optional<Blame> ModelJudge::FreedUnderQueuedWork(const ModelOutcome& sequential) {
  if (target_.uses_bfc() || !sequential.ran()) return std::nullopt;
  const ModelOutcome deferred = Run({.defer_release = true});
  if (!deferred.ran()) return std::nullopt;
  for (std::size_t s = 0; s < deferred.steps.size() && s < sequential.steps.size(); ++s) {
    if (Disagreement(sequential.steps[s].outputs, deferred.steps[s].outputs, model_.outputs,
                     tolerance_))
      return std::nullopt;  // wrong with the buffers kept too: not the free
  }
  return Blame{.call = "deallocate",
               .problem = runtime::kFreedUnderQueuedWork,
               .message =
                   "the model computes right when its tensors' buffers go back in stream "
                   "order, and wrong when they go to deallocate the moment their last "
                   "reader is queued, as TensorFlow frees them. " +
                   std::string(runtime::kFreedUnderQueuedWorkConsequence),
               .names_node = false};
}

std::optional<std::size_t> ModelJudge::UpdateIndex(std::size_t n,
                                                   const std::string& variable) const {
  const std::vector<std::string> names = models::NodeResultNames(model_, n);
  const std::size_t first = model_.nodes[n].outputs.size();
  for (std::size_t r = first; r < names.size(); ++r) {
    if (names[r] == variable) return r - first;
  }
  return std::nullopt;
}

std::optional<std::size_t> ModelJudge::LastWriterBefore(std::size_t k,
                                                        const std::string& variable) const {
  std::optional<std::size_t> writer;
  for (std::size_t n = 0; n < k; ++n) {
    if (UpdateIndex(n, variable)) writer = n;
  }
  return writer;
}

bool ModelJudge::ReadsAnUpdatedVariable() const {
  for (std::size_t k = 0; k < model_.nodes.size(); ++k) {
    for (const std::string& name : model_.nodes[k].inputs) {
      if (model_.FindVariable(name) != nullptr && !UpdateIndex(k, name) &&
          LastWriterBefore(k, name))
        return true;
    }
  }
  return false;
}

std::optional<HostTensor> ModelJudge::OracleValue(const ModelOutcome& sequential, std::size_t step,
                                                  const std::string& name) const {
  for (std::size_t i = 0; i < model_.inputs.size(); ++i) {
    if (model_.inputs[i].name == name)
      return models::StepInputs(model_, dtype_, static_cast<int>(step), seed_).at(i);
  }
  for (std::size_t n = 0; n < model_.nodes.size(); ++n) {
    const auto& outs = model_.nodes[n].outputs;
    const auto it = std::find(outs.begin(), outs.end(), name);
    if (it != outs.end())
      return sequential.steps.at(step).node_outputs.at(n).at(
          static_cast<std::size_t>(it - outs.begin()));
  }
  return std::nullopt;
}

std::optional<Blame> ModelJudge::UpdateOffTheStream(const ModelOutcome& sequential) {
  if (!ReadsAnUpdatedVariable()) return std::nullopt;
  const ModelOutcome probed = Run({.probe_variables = true});
  if (!probed.ran()) return std::nullopt;
  for (std::size_t s = 0; s < probed.steps.size() && s < sequential.steps.size(); ++s) {
    const models::StepOutputs& oracle = sequential.steps[s];
    const std::vector<models::StreamProbe>& probes = probed.steps[s].probes;
    for (const models::StreamProbe& read : probes) {
      if (model_.FindVariable(read.tensor) == nullptr || UpdateIndex(read.node, read.tensor))
        continue;  // not a read of a variable's value
      const std::optional<std::size_t> writer = LastWriterBefore(read.node, read.tensor);
      if (!writer) continue;
      const std::size_t w = *writer;
      const std::size_t first = model_.nodes[w].outputs.size();
      const HostTensor& updated =
          oracle.node_outputs.at(w).at(first + *UpdateIndex(w, read.tensor));
      auto why = Disagreement({updated}, {read.value}, {read.tensor}, tolerance_);
      if (!why) continue;
      if (why->starts_with("output ")) why = why->substr(7);  // a variable, not an output
      if (!WriterInputsRight(sequential, probes, s, w)) continue;
      bool unchanged = false;
      for (const models::StreamProbe& before : probes) {
        if (before.node == w && before.tensor == read.tensor)
          unchanged = before.value.bytes == read.value.bytes;
      }
      return Blame{
          .problem = model_.nodes[w].op + ": variable update not in stream order",
          .message = NodeLabel(model_, w) + " in " + StepLabel(static_cast<int>(s)) +
                     " updated variable '" + read.tensor + "' from the right inputs, but " +
                     NodeLabel(model_, read.node) +
                     ", queued after it on the stream with no host synchronisation between, "
                     "read " +
                     (unchanged ? "the value from before the update" : "another value") + " (" +
                     *why +
                     "): the update reached the variable only when the host synchronised; "
                     "kernels queued after it on the stream read the old value",
          .node = w};
    }
  }
  return std::nullopt;
}

bool ModelJudge::WriterInputsRight(const ModelOutcome& sequential,
                                   const std::vector<models::StreamProbe>& probes, std::size_t step,
                                   std::size_t w) const {
  const models::StepOutputs& oracle = sequential.steps.at(step);
  bool probed = false;
  for (const models::StreamProbe& input : probes) {
    if (input.node != w) continue;
    probed = true;
    std::optional<HostTensor> want;
    if (const auto v = UpdateIndex(w, input.tensor)) {
      want = oracle.node_variables_before.at(w).at(*v);
    } else {
      want = OracleValue(sequential, step, input.tensor);
    }
    if (!want || Disagreement({*want}, {input.value}, {input.tensor}, tolerance_)) return false;
  }
  return probed;
}

std::optional<Blame> ModelJudge::FirstWrongNode(const ModelOutcome& sequential,
                                                const models::ReferenceModel& reference) {
  for (std::size_t s = 0; s < sequential.steps.size() && s < reference.steps.size(); ++s) {
    for (std::size_t n = 0; n < model_.nodes.size(); ++n) {
      const auto& got = sequential.steps[s].node_outputs.at(n);
      const auto& want = reference.steps[s].node_outputs.at(n);
      const auto why = Disagreement(want, got, models::NodeResultNames(model_, n), tolerance_);
      if (!why) continue;
      if (auto lost = LostUpdate(sequential.steps[s], reference.steps[s], n, s)) return lost;
      // Right in an earlier step on exactly these buffers, wrong now that they hold new
      // values: a result remembered by address (TensorFlow's allocator hands a node the
      // buffers of the step before).
      std::optional<std::size_t> same_buffers_as;
      for (std::size_t earlier = 0; earlier < s; ++earlier) {
        if (sequential.steps[earlier].node_buffers.at(n) == sequential.steps[s].node_buffers.at(n))
          same_buffers_as = earlier;
      }
      Blame blame{
          .problem = model_.nodes[n].op + (same_buffers_as ? ": stale result for reused buffers"
                                                           : ": wrong values in a chain"),
          .message = NodeLabel(model_, n) + " in " + StepLabel(static_cast<int>(s)) + ": " + *why,
          .node = n};
      if (same_buffers_as) {
        blame.message += "; it was right in " + StepLabel(static_cast<int>(*same_buffers_as)) +
                         " on the very same input and output buffers, which now hold new values";
      }
      return blame;
    }
  }
  return std::nullopt;
}

std::optional<Blame> ModelJudge::LostUpdate(const models::StepOutputs& got,
                                            const models::StepOutputs& want, std::size_t n,
                                            std::size_t step) {
  const auto& before = got.node_variables_before.at(n);
  const std::size_t first = model_.nodes[n].outputs.size();
  const std::vector<std::string> names = models::NodeResultNames(model_, n);
  for (std::size_t v = 0; v < before.size(); ++v) {
    const std::size_t r = first + v;
    if (r >= got.node_outputs[n].size() || r >= want.node_outputs[n].size()) break;
    if (got.node_outputs[n][r].bytes != before[v].bytes ||
        want.node_outputs[n][r].bytes == before[v].bytes)
      continue;
    return Blame{
        .problem = model_.nodes[n].op + ": variable update did not persist",
        .message = NodeLabel(model_, n) + " in " + StepLabel(static_cast<int>(step)) +
                   " left variable '" + names[r] +
                   "' as it was, where the reference plugin updated it: the update must be "
                   "written into the tensor "
                   "TF_GetInputTensorFromVariable returns, which is the variable's "
                   "buffer, so that the next step reads it",
        .node = n};
  }
  return std::nullopt;
}

std::optional<Blame> ModelJudge::ReadAhead(const ModelOutcome& sequential) {
  std::map<std::string, std::size_t> producer;
  for (std::size_t n = 0; n < model_.nodes.size(); ++n) {
    for (const std::string& name : model_.nodes[n].outputs) producer[name] = n;
  }
  for (std::size_t k = 0; k < model_.nodes.size(); ++k) {
    std::optional<std::size_t> first;
    for (const std::string& name : model_.nodes[k].inputs) {
      if (auto it = producer.find(name); it != producer.end())
        first = std::min(first.value_or(it->second), it->second);
    }
    if (!first) continue;
    const ModelOutcome window =
        Run({.kind = ModelRunMode::Kind::kWindow, .window_first = *first, .window_last = k});
    if (!window.ran()) continue;
    for (std::size_t s = 0; s < window.steps.size() && s < sequential.steps.size(); ++s) {
      const auto why =
          Disagreement(sequential.steps[s].node_outputs.at(k), window.steps[s].node_outputs.at(k),
                       models::NodeResultNames(model_, k), tolerance_);
      if (!why) continue;
      return Blame{.problem = model_.nodes[k].op + ": read inputs ahead of the stream",
                   .message = NodeLabel(model_, k) +
                              " computed on inputs an earlier node had not written yet (its "
                              "work was queued on the stream but not done when compute ran): " +
                              *why,
                   .node = k};
    }
  }
  return std::nullopt;
}

}  // namespace conformance::model_diagnosis
