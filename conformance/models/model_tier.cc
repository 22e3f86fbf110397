#include "model_tier.h"

#include "model_diagnosis.h"

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
using model_diagnosis::Blame;
using model_diagnosis::Disagreement;
using model_diagnosis::ModelJudge;
using model_diagnosis::NodeLabel;
using model_diagnosis::OpsText;
using model_diagnosis::StepLabel;
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
  const models::ReferenceModel* reference =
      references.failure.empty() ? references.Find(model.name, dtype) : nullptr;
  if (chained.failure && reference != nullptr && reference->failed_node == chained.failure->node) {
    // The reference plugin fails the same node: the model asks something no kernel can do
    // (shapes the op refuses, say), which is the model file's mistake, not the plugin's.
    const std::string why = "the model itself is wrong, not the plugin: " + reference->unavailable +
                            ", and the plugin fails the same node (" + chained.failure->message +
                            "); fix the model in " + model.file;
    for (const auto& check : all) log.Skip(check, why);
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
      // The plugin may register the ops that update variables (the reference plugin does): what
      // the emulated core lacks is the variable C API their kernels need, said as such.
      const std::vector<std::string> missing = models::MissingOps(target, *model, dtype);
      const std::string ops = OpsText(*model, missing, VariableUpdaters(*model));
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
