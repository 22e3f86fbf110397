#include "random_units.h"

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "catalogue/catalogue.h"
#include "run/root_causes.h"
#include "kernels/kernel_scenario.h"
#include "kernels/kernel_target.h"
#include "kernels/random_draws.h"
#include "runtime/profile_support.h"
#include "validate/check_log.h"

namespace conformance {
namespace {

using kernels::StatefulRandomOp;

constexpr const char* kCaseName = "random_draws";

struct DrawCell {
  const StatefulRandomOp* random_op;
  TF_DataType dtype;        // of the draws
  TF_DataType shape_dtype;  // of the shape input: the registration's T, else int32
  std::string id;
};

TF_DataType Constraint(const kernels::RegisteredKernel& kernel, std::string_view attr,
                       TF_DataType otherwise) {
  for (const auto& [name, dtype] : kernel.type_constraints) {
    if (name == attr) return static_cast<TF_DataType>(dtype);
  }
  return otherwise;
}

std::vector<DrawCell> Cells(const std::vector<kernels::RegisteredKernel>& registered) {
  std::vector<DrawCell> cells;
  std::set<std::string> seen;
  for (const kernels::RegisteredKernel& kernel : registered) {
    const StatefulRandomOp* random_op = kernels::FindStatefulRandomOp(kernel.op);
    if (random_op == nullptr) continue;
    const auto unset = static_cast<TF_DataType>(-1);
    const TF_DataType dtype = Constraint(kernel, random_op->output_attr, unset);
    if (dtype == unset) continue;  // every dtype: no cell to name (the load tier says so)
    DrawCell cell{random_op, dtype, Constraint(kernel, "T", TF_INT32),
                  kernels::KernelCaseId(kernel.op, dtype, kCaseName)};
    if (seen.insert(cell.id).second) cells.push_back(std::move(cell));
  }
  return cells;
}

void JudgeCell(const DrawCell& cell, kernels::KernelTarget& target, validate::CheckLog& log) {
  const kernels::CaseSpec spec = kernels::DrawCase(*cell.random_op, cell.dtype, cell.shape_dtype);
  const core::KernelRegistration* kernel = target.FindKernel(spec.op, spec.attrs);
  if (kernel == nullptr) {
    log.NotSupported(cell.id, "not judged: no kernel the plugin registers for " + spec.op + " on " +
                                  target.device_type() + " matches the draw's attrs");
    return;
  }
  kernels::RunMode mode;
  for (const kernels::CaseInput& input : spec.inputs)
    mode.earlier_step_inputs.push_back(input.value);
  mode.keep_earlier_step_outputs = true;
  const kernels::CaseOutcome run = kernels::CaseRunner(target).Run(*kernel, spec, mode);
  if (!run.ran) {
    log.NotSupported(cell.id,
                     "not judged: the harness could not run the draw: " + run.harness_error);
    return;
  }
  const validate::Details blame = {
      {kFailingCallKey, "compute_func"}, {kProblemKey, "random draws"}, {"kernel", spec.op}};
  if (run.code != TF_OK) {
    log.Fail(cell.id, spec.op + " failed a [64,64] draw: " + run.message, run.code, blame);
    return;
  }
  const kernels::Outputs& first = run.earlier_step_outputs;
  const kernels::Outputs& second = run.outputs;
  if (first.empty() || !first.front() || second.empty() || !second.front()) {
    log.Fail(cell.id, spec.op + " reported OK but never set its output", std::nullopt, blame);
    return;
  }
  for (const kernels::HostTensor* draw : {&*first.front(), &*second.front()}) {
    if (auto problem = kernels::JudgeDraw(*cell.random_op, spec, *draw)) {
      log.Fail(cell.id, "the plugin's " + spec.op + " kernel: " + *problem, std::nullopt, blame);
      return;
    }
  }
  if (auto problem = kernels::JudgeSuccessiveDraws(*first.front(), *second.front())) {
    log.Fail(cell.id, "the plugin's " + spec.op + " kernel: " + *problem, std::nullopt, blame);
    return;
  }
  log.Pass(cell.id, {{"judged",
                      "two steps of one kernel instance: shape, support, mean and "
                      "variance of each draw, and a fresh second draw"}});
}

std::vector<CheckEntry> Entries(const std::vector<DrawCell>& cells) {
  std::vector<CheckEntry> entries;
  for (const DrawCell& cell : cells) {
    if (FindCheck(cell.id) != nullptr) continue;
    entries.push_back(CheckEntry{
        cell.id, "kernel", Origin::kStricter,
        "On the plugin's device, a stateful random op's kernel draws a [64,64] tensor of the "
        "requested dtype whose every value lies in the distribution's support and whose mean "
        "and variance are the distribution's within six standard errors; a second compute of "
        "the same kernel instance draws anew.",
        "TensorFlow keeps one kernel per node and computes it on every step, so a kernel that "
        "starts its generator over each compute repeats its draws; its values go unchecked "
        "into initializers, dropout masks and noise.",
        "Keep the generator's state in the kernel object (seeded from the seed attrs, or at "
        "random when both are 0) and advance it on every compute; draw in [0, 1) for "
        "RandomUniform, and resample beyond two standard deviations for TruncatedNormal.",
        ConsequenceKind::kWrongData,
        "wrong data: repeated or misdistributed random values flow silently into training."});
  }
  return entries;
}

}  // namespace

std::vector<TestUnit> RandomDrawUnits(const std::vector<kernels::RegisteredKernel>& kernels) {
  std::vector<DrawCell> cells = Cells(kernels);
  if (cells.empty()) return {};
  AddRunTimeChecks(Entries(cells));
  TestUnit unit;
  unit.name = "kernel.random_draws";
  unit.tier = "kernels";
  for (const DrawCell& cell : cells) unit.check_ids.push_back(cell.id);
  unit.prerequisites = {"load.se.create_stream_executor"};
  unit.run = [cells = std::make_shared<const std::vector<DrawCell>>(std::move(cells))](
                 UnitContext& context) {
    validate::CheckLog log(context.sink, [&] {
      std::vector<std::string> ids;
      for (const DrawCell& cell : *cells) ids.push_back(cell.id);
      return ids;
    }());
    auto opened = kernels::KernelTarget::Open(context.settings.plugin_path,
                                              runtime::SessionOptionsFor(context.settings));
    if (!opened.ok()) {
      for (const DrawCell& cell : *cells) {
        log.Skip(cell.id, "cannot bring the plugin up: " + opened.error().Describe());
      }
      return;
    }
    for (const DrawCell& cell : *cells) {
      log.Begin(cell.id);  // a crash is the cell's
      JudgeCell(cell, *opened.value(), log);
    }
  };
  return {std::move(unit)};
}

}  // namespace conformance
