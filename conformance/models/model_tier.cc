#include "model_tier.h"

#include <algorithm>
#include <memory>
#include <set>

#include "kernels/dtype_values.h"
#include "kernels/reference_oracle.h"
#include "kernels/value_distance.h"
#include "models/model_reference.h"
#include "models/model_scenario_set.h"
#include "runtime/profile_support.h"
#include "validate/check_log.h"
#include "validate/variable_updates.h"

namespace conformance {
namespace {

using kernels::HostTensor;
using models::ModelOutcome;
using models::ModelRunMode;
using models::ModelScenario;
using validate::CheckLog;
using validate::Details;

std::vector<std::string> PropertyNames() {
  std::vector<std::string> names;
  for (const auto& doc : ModelPropertyDocs()) names.push_back(doc.name);
  return names;
}

std::vector<std::string> CheckIds(const ModelScenario& model) {
  std::vector<std::string> ids;
  for (TF_DataType dtype : model.dtypes) {
    const std::string id = models::ModelCheckId(model.name, dtype);
    ids.push_back(id);
    for (const std::string& property : PropertyNames()) ids.push_back(id + "." + property);
  }
  return ids;
}

// The first element outside the tolerance, said for a person; nullopt when they agree.
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

// "MatMul (registered), Conv2D (missing)": the report's model coverage rows read it.
std::string OpsText(const ModelScenario& model, const std::vector<std::string>& missing) {
  std::string text;
  for (const std::string& op : model.Ops()) {
    const bool has = std::find(missing.begin(), missing.end(), op) == missing.end();
    text += (text.empty() ? "" : ", ") + op + (has ? " (registered)" : " (missing)");
  }
  return text;
}

// The one kernel a model failure is blamed on: the root cause (call + problem, the problem
// naming the op) and what the person fixing it reads.
struct Blame {
  std::string call = "compute_func";
  std::string problem;
  std::string message;
  std::size_t node = 0;

  Details ToDetails(const ModelScenario& model) const {
    return {{"failing_call", call},
            {"problem", problem},
            {"node", model.nodes[node].name},
            {"kernel", model.nodes[node].op},
            {"ops", OpsText(model, {})}};  // it ran: every op has a kernel
  }
};

std::string NodeLabel(const ModelScenario& model, std::size_t node) {
  return "node " + model.nodes[node].name + " (" + model.nodes[node].op + ")";
}

std::string StepLabel(int step) { return "step " + std::to_string(step + 1); }

class ModelJudge {
 public:
  ModelJudge(kernels::KernelTarget& target, const ModelScenario& model, TF_DataType dtype,
             std::uint64_t seed)
      : target_(target),
        model_(model),
        dtype_(dtype),
        seed_(seed),
        tolerance_(model.ToleranceFor(dtype)) {}

  ModelOutcome Run(ModelRunMode mode) {
    return models::RunModel(target_, model_, dtype_, seed_, mode);
  }

  // Why `chained` disagrees (with the reference or with `sequential`): one node.
  std::optional<Blame> Diagnose(const ModelOutcome& sequential,
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
    if (sequential.ran()) {
      if (auto blame = UpdateOffTheStream(sequential)) return blame;
    }
    return ReadAhead(sequential);
  }

 private:
  // The index of `variable` among node `n`'s DT_RESOURCE inputs (the order of its updated
  // variables in StepOutputs), or nullopt when `n` does not update it.
  std::optional<std::size_t> UpdateIndex(std::size_t n, const std::string& variable) const {
    const std::vector<std::string> names = models::NodeResultNames(model_, n);
    const std::size_t first = model_.nodes[n].outputs.size();
    for (std::size_t r = first; r < names.size(); ++r) {
      if (names[r] == variable) return r - first;
    }
    return std::nullopt;
  }

  // The last node before `k` that updates `variable` in a step.
  std::optional<std::size_t> LastWriterBefore(std::size_t k, const std::string& variable) const {
    std::optional<std::size_t> writer;
    for (std::size_t n = 0; n < k; ++n) {
      if (UpdateIndex(n, variable)) writer = n;
    }
    return writer;
  }

  // Whether a node reads a variable's value after an earlier node of the step updated it.
  bool ReadsAnUpdatedVariable() const {
    for (std::size_t k = 0; k < model_.nodes.size(); ++k) {
      for (const std::string& name : model_.nodes[k].inputs) {
        if (model_.FindVariable(name) != nullptr && !UpdateIndex(k, name) &&
            LastWriterBefore(k, name))
          return true;
      }
    }
    return false;
  }

  // The sequential run's value of tensor `name` (a model input or a node's output) in `step`.
  std::optional<HostTensor> OracleValue(const ModelOutcome& sequential, std::size_t step,
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

  // A variable a node read on the stream after an update is not what the update left in the
  // sequential run, although the update's own inputs (the variable, alpha, delta...) were right
  // on the stream when it ran: the update did not reach the variable in stream order (it did
  // when the host synchronised, which the sequential run does after every node). The bytes on
  // the stream come from a run that queues a device-to-device copy of those inputs right before
  // each of the nodes, as the reader itself sees them.
  std::optional<Blame> UpdateOffTheStream(const ModelOutcome& sequential) {
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

  // Every input node `w` had on the stream (probed right before it) is the sequential run's.
  bool WriterInputsRight(const ModelOutcome& sequential,
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

  std::optional<Blame> FirstWrongNode(const ModelOutcome& sequential,
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
          if (sequential.steps[earlier].node_buffers.at(n) ==
              sequential.steps[s].node_buffers.at(n))
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

  // A node that updates variables but left one exactly as it was before it ran, where the
  // reference changed it: the update was computed somewhere the variable does not see.
  std::optional<Blame> LostUpdate(const models::StepOutputs& got, const models::StepOutputs& want,
                                  std::size_t n, std::size_t step) {
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

  // Every node synchronised agrees, the chain does not: find the first node that goes wrong
  // when only the work producing its inputs is still queued (held) while it computes.
  std::optional<Blame> ReadAhead(const ModelOutcome& sequential) {
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

  kernels::KernelTarget& target_;
  const ModelScenario& model_;
  TF_DataType dtype_;
  std::uint64_t seed_;
  kernels::Tolerance tolerance_;
};

// How the chained run's first step placed the nodes' outputs (from their buffer addresses):
// nodes whose output took one of its inputs' buffers (forwarded, or a view such as Reshape's),
// and outputs placed in a buffer an earlier node's tensor had held (freed after its last use).
struct BufferUse {
  std::string in_input_buffer;
  int in_reused_buffer = 0;
};

BufferUse MeasureBufferUse(const ModelScenario& model, const models::StepOutputs& step) {
  BufferUse use;
  std::set<std::uintptr_t> seen;
  for (std::size_t n = 0; n < model.nodes.size() && n < step.node_buffers.size(); ++n) {
    const auto& buffers = step.node_buffers[n];
    const std::size_t inputs = std::min(model.nodes[n].inputs.size(), buffers.size());
    const std::set<std::uintptr_t> own(buffers.begin(),
                                       buffers.begin() + static_cast<long>(inputs));
    bool forwarded = false;
    for (std::size_t o = inputs; o < buffers.size(); ++o) {
      if (buffers[o] == 0) continue;
      if (own.contains(buffers[o])) {
        forwarded = true;
      } else if (seen.contains(buffers[o])) {
        ++use.in_reused_buffer;
      }
    }
    if (forwarded)
      use.in_input_buffer += (use.in_input_buffer.empty() ? "" : ", ") + model.nodes[n].name;
    seen.insert(buffers.begin(), buffers.end());
  }
  if (use.in_input_buffer.empty()) use.in_input_buffer = "none";
  return use;
}

void JudgeModel(const ModelScenario& model, TF_DataType dtype,
                const models::ReferenceModels& references, kernels::KernelTarget& target,
                std::uint64_t seed, CheckLog& log) {
  const std::string id = models::ModelCheckId(model.name, dtype);
  const std::string deterministic = id + ".deterministic", no_leaks = id + ".no_leaks",
                    sequential_id = id + ".sequential_oracle";
  const std::vector<std::string> all = {id, deterministic, no_leaks, sequential_id};
  const std::vector<std::string> missing = models::MissingOps(target, model, dtype);
  if (!missing.empty()) {
    for (const auto& check : all) {
      log.NotSupported(check, "the plugin has no " + missing.front() + " kernel for " +
                                  kernels::DtypeName(dtype) + " on " + target.device_type() +
                                  " (the model's ops: " + OpsText(model, missing) + ")");
    }
    return;
  }
  log.Begin(id);
  ModelJudge judge(target, model, dtype, seed);
  const ModelOutcome chained = judge.Run({});
  if (!chained.harness_error.empty()) {
    for (const auto& check : all)
      log.Skip(check, "the harness could not run the model: " + chained.harness_error);
    return;
  }
  if (chained.failure) {
    const auto& f = *chained.failure;
    Blame blame{.call = f.call,
                .problem = model.nodes[f.node].op + ": " + f.problem,
                .message = NodeLabel(model, f.node) + " in " + StepLabel(f.step) + ": " + f.message,
                .node = f.node};
    log.Fail(id, blame.message, std::nullopt, blame.ToDetails(model));
    for (const auto& check : {deterministic, no_leaks, sequential_id})
      log.Skip(check, "the model did not run to its end: " + blame.message);
    return;
  }
  const ModelOutcome sequential = judge.Run({.kind = ModelRunMode::Kind::kSequential});
  const models::ReferenceModel* reference =
      references.failure.empty() ? references.Find(model.name, dtype) : nullptr;
  const kernels::Tolerance tolerance = model.ToleranceFor(dtype);
  std::optional<Blame> diagnosis;
  bool diagnosed = false;
  auto diagnose = [&] {
    if (!diagnosed) diagnosis = judge.Diagnose(sequential, reference);
    diagnosed = true;
    return diagnosis;
  };
  auto fail_with = [&](const std::string& check, const std::string& what) {
    if (auto blame = diagnose()) {
      log.Fail(check, blame->message + " (" + what + ")", std::nullopt, blame->ToDetails(model));
    } else {
      log.Fail(check, what + "; no single node explains it", std::nullopt,
               {{"failing_call", "compute_func"}, {"problem", "model disagrees"}});
    }
  };

  // The model against the reference, every step.
  const std::string ops_text = OpsText(model, missing);
  if (!references.failure.empty() || reference == nullptr || !reference->unavailable.empty()) {
    log.Skip(id, !references.failure.empty() ? references.failure
                 : reference == nullptr      ? "the reference plugin sent nothing for the model"
                                             : reference->unavailable);
  } else {
    std::optional<std::string> why;
    for (std::size_t s = 0; s < chained.steps.size() && !why; ++s) {
      if (auto d = Disagreement(reference->steps.at(s).outputs, chained.steps[s].outputs,
                                model.outputs, tolerance))
        why = StepLabel(static_cast<int>(s)) + ": " + *d;
    }
    if (!why && sequential.corrupted)
      why = "a tensor was corrupted between its producer and a later consumer";
    if (why) {
      fail_with(id, *why);
    } else {
      const BufferUse use = MeasureBufferUse(model, chained.steps.front());
      log.Pass(id, {{"ops", ops_text},
                    {"outputs_in_an_input_buffer", use.in_input_buffer},
                    {"outputs_in_reused_buffers", std::to_string(use.in_reused_buffer)},
                    {"steps", std::to_string(model.steps)},
                    {"tolerance", kernels::ToleranceText(tolerance)},
                    {"seed", std::to_string(seed)}});
    }
  }

  // The sequential oracle: the same kernels with every node synchronised.
  log.Begin(sequential_id);
  if (!sequential.ran()) {
    log.Skip(sequential_id, "the sequential run did not complete: " +
                                (sequential.harness_error.empty() ? sequential.failure->message
                                                                  : sequential.harness_error));
  } else {
    std::optional<std::string> why;
    for (std::size_t s = 0; s < chained.steps.size() && !why; ++s) {
      if (auto d = Disagreement(sequential.steps.at(s).outputs, chained.steps[s].outputs,
                                model.outputs, tolerance))
        why = "chained and sequential runs differ in " + StepLabel(static_cast<int>(s)) + ": " + *d;
    }
    if (why) {
      fail_with(sequential_id, *why);
    } else {
      log.Pass(sequential_id);
    }
  }

  // Deterministic: a second chained run, fresh kernels, the same inputs.
  log.Begin(deterministic);
  const ModelOutcome again = judge.Run({});
  bool same = again.ran();
  for (std::size_t s = 0; same && s < chained.steps.size(); ++s) {
    const auto& a = chained.steps[s].outputs;
    const auto& b = again.steps.at(s).outputs;
    same = a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), kernels::SameResult);
  }
  if (same) {
    log.Pass(deterministic);
  } else {
    log.Warn(deterministic, "a second run of the model with the same inputs gave different outputs",
             {{"failing_call", "compute_func"}, {"problem", "different result on a second run"}});
  }

  // No leaks over the whole model (both steps, every node).
  log.Begin(no_leaks);
  if (chained.leaked_tensors > 0) {
    log.Fail(no_leaks,
             std::to_string(chained.leaked_tensors) +
                 " TF_Tensor handle(s) never deleted over the model",
             std::nullopt,
             {{"failing_call", "compute_func"}, {"problem", "TF_Tensor never deleted"}});
  } else if (chained.leaked_statuses > 0) {
    log.Fail(no_leaks,
             std::to_string(chained.leaked_statuses) +
                 " TF_Status handle(s) never deleted over the model",
             std::nullopt,
             {{"failing_call", "compute_func"}, {"problem", "TF_Status never deleted"}});
  } else if (chained.leaked_device_bytes != 0) {
    log.Fail(no_leaks,
             std::to_string(chained.leaked_device_bytes) +
                 " bytes of device memory not released once the model's tensors were",
             std::nullopt,
             {{"failing_call", "compute_func"}, {"problem", "device memory not released"}});
  } else {
    log.Pass(no_leaks);
  }
}

// The ops of `model`'s nodes that update variables (take one's handle), each once.
std::vector<std::string> VariableUpdaters(const ModelScenario& model) {
  std::vector<std::string> ops;
  for (std::size_t n = 0; n < model.nodes.size(); ++n) {
    const bool updates = models::NodeResultNames(model, n).size() > model.nodes[n].outputs.size();
    if (updates && std::find(ops.begin(), ops.end(), model.nodes[n].op) == ops.end())
      ops.push_back(model.nodes[n].op);
  }
  return ops;
}

// Why no plugin can run `model` under the emulated core (validate/variable_updates.h); nullopt
// when the model has no node updating a variable or the core exports the variable functions.
std::optional<std::string> VariableUpdatesUnavailable(const ModelScenario& model,
                                                      const std::string& profile_name) {
  if (model.variables.empty()) return std::nullopt;
  return validate::VariableUpdatesUnavailable(profile_name, VariableUpdaters(model),
                                              "this model's variables");
}

void RunModelUnit(const std::shared_ptr<const ModelScenario>& model, UnitContext& context) {
  const std::vector<std::string> ids = CheckIds(*model);
  CheckLog log(context.sink, ids);
  const std::optional<std::string> unavailable =
      VariableUpdatesUnavailable(*model, context.settings.profile);
  const std::uint64_t seed = context.settings.seed;
  // The reference first, in its own process, before the candidate is loaded here.
  const models::ReferenceModels references =
      unavailable
          ? models::ReferenceModels{}
          : models::RunModelsOnReference(kernels::ReferencePluginPath(), {model.get()}, seed);
  auto opened = kernels::KernelTarget::Open(context.settings.plugin_path,
                                            runtime::SessionOptionsFor(context.settings));
  if (!opened.ok()) {
    for (const auto& id : ids) {
      if (opened.error().kind == runtime::ErrorKind::kUnsupported) {
        log.NotSupported(id, opened.error().Describe());
      } else {
        log.Skip(id, "cannot bring the plugin up: " + opened.error().Describe());
      }
    }
    return;
  }
  kernels::KernelTarget& target = *opened.value();
  if (!target.exports_init_kernel()) {
    for (const auto& id : ids) log.NotSupported(id, "the plugin does not export TF_InitKernel");
    return;
  }
  if (unavailable) {  // still say which of the model's ops the plugin has (the coverage table)
    for (TF_DataType dtype : model->dtypes) {
      // Whatever the mock core lets it register, the emulated core cannot give the plugin the
      // ops that update variables.
      std::vector<std::string> missing = models::MissingOps(target, *model, dtype);
      for (const std::string& op : VariableUpdaters(*model)) {
        if (std::find(missing.begin(), missing.end(), op) == missing.end()) missing.push_back(op);
      }
      const std::string ops = OpsText(*model, missing);
      const std::string base = models::ModelCheckId(model->name, dtype);
      for (const auto& id : CheckIds(*model)) {
        if (id == base || id.starts_with(base + "."))
          log.NotSupported(id, *unavailable + " (the model's ops: " + ops + ")");
      }
    }
    return;
  }
  for (TF_DataType dtype : model->dtypes) JudgeModel(*model, dtype, references, target, seed, log);
}

}  // namespace

const std::vector<ModelPropertyDoc>& ModelPropertyDocs() {
  static const std::vector<ModelPropertyDoc> docs = {
      {"deterministic",
       "A second run of the model (fresh kernels, the same inputs, every step) gives "
       "bit-identical outputs (NaN payloads aside).",
       "Non-deterministic kernels make a model's results irreproducible and break "
       "TF_DETERMINISTIC_OPS users' expectations.",
       "Avoid unordered floating-point reductions (atomics) or make their order fixed.",
       "none: TensorFlow promises bit-identical results only under op determinism, which a "
       "kernel may not offer."},
      {"no_leaks",
       "Over the whole model (every node, every step) every TF_Tensor and TF_Status the kernels "
       "obtain is deleted, and device memory is back where it started once the model's tensors "
       "are released.",
       "Every leaked tensor keeps its buffer: device memory grows with each step until training "
       "fails with out-of-memory.",
       "Delete every tensor and status a kernel obtains, on every path.",
       "leak: device memory grows with every step until the model fails with out-of-memory."},
      {"sequential_oracle",
       "The model's outputs with the device behind the host (every kernel computed while its "
       "inputs' producers are still queued on the stream) equal those with the stream "
       "synchronised after every node (within the model's tolerance).",
       "TensorFlow's executor queues a node as soon as its producers have been queued, never "
       "waiting for the device; a kernel that reads its inputs from the host at compute time "
       "sees memory the previous kernel has not written yet.",
       "Order every read of an input on the stream from TF_GetStream (or wait for it) instead "
       "of reading device memory in compute_func.",
       "wrong data: the kernel computes on inputs the previous kernel has not written yet."},
  };
  return docs;
}

std::vector<CheckEntry> ModelCheckEntries(const ModelScenario& model, const std::string& dtype) {
  const std::string id = "model." + model.name + "." + dtype;
  std::vector<CheckEntry> entries;
  entries.push_back(CheckEntry{
      id, "model", Origin::kStricter, model.rule, model.tensorflow, model.fix,
      ConsequenceKind::kWrongData,
      "wrong data: the model's results on the device differ from the reference plugin's."});
  for (const ModelPropertyDoc& doc : ModelPropertyDocs()) {
    const std::string kind = doc.consequence.substr(0, doc.consequence.find(':'));
    entries.push_back(CheckEntry{id + "." + doc.name, "model", Origin::kStricter, doc.rule,
                                 doc.tensorflow, doc.fix,
                                 kind == "none"   ? ConsequenceKind::kNone
                                 : kind == "leak" ? ConsequenceKind::kLeak
                                                  : ConsequenceKind::kWrongData,
                                 doc.consequence});
  }
  return entries;
}

std::vector<TestUnit> ModelTierUnits(const RunSettings& settings) {
  std::vector<TestUnit> units;
  std::vector<CheckEntry> vendor_entries;
  for (auto& loaded : models::LoadAllModelScenarios(settings.scenario_dirs)) {
    auto model = std::make_shared<const ModelScenario>(std::move(loaded));
    // Vendor models are not in the compiled-in catalogue: their own texts document them.
    for (TF_DataType dtype : model->dtypes) {
      for (CheckEntry& entry : ModelCheckEntries(*model, kernels::DtypeName(dtype))) {
        if (FindCheck(entry.id) == nullptr) vendor_entries.push_back(std::move(entry));
      }
    }
    TestUnit unit;
    unit.name = "model." + model->name;
    unit.tier = "models";
    unit.check_ids = CheckIds(*model);
    unit.prerequisites = {"load.se.create_stream_executor"};
    unit.run = [model](UnitContext& context) { RunModelUnit(model, context); };
    units.push_back(std::move(unit));
  }
  AddRunTimeChecks(std::move(vendor_entries));
  return units;
}

}  // namespace conformance
