#pragma once
// Localising a model that went wrong on the plugin to the one node, and so the one kernel, it is
// blamed on (one root cause per defect): a node whose outputs differ from the reference plugin's
// when every node is synchronised, an update that did not persist, an input a node wrote
// although it was not forwarded to it, an update that was not in stream order, or a node that
// read its inputs ahead of the stream. The models tier (model_tier.cc) runs the checks and asks
// ModelJudge why they failed.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/host_tensor.h"
#include "kernels/kernel_scenario.h"
#include "kernels/kernel_target.h"
#include "models/model_reference.h"
#include "models/model_runner.h"
#include "models/model_scenario.h"
#include "validate/check_log.h"

namespace conformance::model_diagnosis {

using kernels::HostTensor;
using models::ModelOutcome;
using models::ModelRunMode;
using models::ModelScenario;

// The first element outside the tolerance, said for a person; nullopt when they agree.
std::optional<std::string> Disagreement(const std::vector<HostTensor>& expected,
                                        const std::vector<HostTensor>& actual,
                                        const std::vector<std::string>& names,
                                        const kernels::Tolerance& tolerance);

// "MatMul (registered), Conv2D (missing)": the report's model coverage rows read it. An op of
// `without_variable_api` the plugin registers reads "(registered; no variable C API)": the
// emulated core cannot give its kernel the variables it updates, which is not the plugin's lack.
std::string OpsText(const ModelScenario& model, const std::vector<std::string>& missing,
                    const std::vector<std::string>& without_variable_api = {});

// The one kernel a model failure is blamed on: the root cause (call + problem, the problem
// naming the op) and what the person fixing it reads.
struct Blame {
  std::string call = "compute_func";
  std::string problem;
  std::string message;
  std::size_t node = 0;
  bool names_node = true;  // false: a callback of the device, not one node's kernel, is wrong

  validate::Details ToDetails(const ModelScenario& model) const;
};

// "node dense1 (MatMul)", "step 2": how messages name a node and a step.
std::string NodeLabel(const ModelScenario& model, std::size_t node);
std::string StepLabel(int step);

class ModelJudge {
 public:
  ModelJudge(kernels::KernelTarget& target, const ModelScenario& model, TF_DataType dtype,
             std::uint64_t seed)
      : target_(target),
        model_(model),
        dtype_(dtype),
        seed_(seed),
        tolerance_(model.ToleranceFor(dtype)) {}

  // One run of the model on the plugin, in `mode`.
  ModelOutcome Run(ModelRunMode mode);

  // Why `chained` disagrees (with the reference or with `sequential`): one node.
  std::optional<Blame> Diagnose(const ModelOutcome& sequential,
                                const models::ReferenceModel* reference);

 private:
  // The index of `variable` among node `n`'s DT_RESOURCE inputs (the order of its updated
  // variables in StepOutputs), or nullopt when `n` does not update it.
  std::optional<std::size_t> UpdateIndex(std::size_t n, const std::string& variable) const;

  // The last node before `k` that updates `variable` in a step.
  std::optional<std::size_t> LastWriterBefore(std::size_t k, const std::string& variable) const;

  // Without the BFC allocator: the model is right when its buffers are freed in stream order
  // (and the sequential oracle agrees), so the plugin's deallocate let queued readers down.
  std::optional<Blame> FreedUnderQueuedWork(const ModelOutcome& sequential);

  // Whether a node reads a variable's value after an earlier node of the step updated it.
  bool ReadsAnUpdatedVariable() const;

  // The sequential run's value of tensor `name` (a model input or a node's output) in `step`.
  std::optional<HostTensor> OracleValue(const ModelOutcome& sequential, std::size_t step,
                                        const std::string& name) const;

  // A variable a node read on the stream after an update is not what the update left in the
  // sequential run, although the update's own inputs (the variable, alpha, delta...) were right
  // on the stream when it ran: the update did not reach the variable in stream order (it did
  // when the host synchronised, which the sequential run does after every node). The bytes on
  // the stream come from a run that queues a device-to-device copy of those inputs right before
  // each of the nodes, as the reader itself sees them.
  std::optional<Blame> UpdateOffTheStream(const ModelOutcome& sequential);

  // Every input node `w` had on the stream (probed right before it) is the sequential run's.
  bool WriterInputsRight(const ModelOutcome& sequential,
                         const std::vector<models::StreamProbe>& probes, std::size_t step,
                         std::size_t w) const;

  std::optional<Blame> FirstWrongNode(const ModelOutcome& sequential,
                                      const models::ReferenceModel& reference);

  // A node that updates variables but left one exactly as it was before it ran, where the
  // reference changed it: the update was computed somewhere the variable does not see.
  std::optional<Blame> LostUpdate(const models::StepOutputs& got, const models::StepOutputs& want,
                                  std::size_t n, std::size_t step);

  // Every node synchronised agrees, the chain does not: find the first node that goes wrong
  // when only the work producing its inputs is still queued (held) while it computes.
  std::optional<Blame> ReadAhead(const ModelOutcome& sequential);

  kernels::KernelTarget& target_;
  const ModelScenario& model_;
  TF_DataType dtype_;
  std::uint64_t seed_;
  kernels::Tolerance tolerance_;
};

}  // namespace conformance::model_diagnosis
