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
  TF_DataType dtype;               // of the draws
  kernels::TypeConstraints types;  // the registration's, for the op's other type attrs
  std::string id;
};

std::vector<DrawCell> Cells(const std::vector<kernels::RegisteredKernel>& registered) {
  std::vector<DrawCell> cells;
  std::set<std::string> seen;
  for (const kernels::RegisteredKernel& kernel : registered) {
    const StatefulRandomOp* random_op = kernels::FindStatefulRandomOp(kernel.op);
    if (random_op == nullptr) continue;
    const auto unset = static_cast<TF_DataType>(-1);
    // An op of fixed dtypes (the candidate samplers) has one cell.
    const TF_DataType dtype =
        random_op->output_attr.empty()
            ? random_op->fixed_dtype
            : kernels::TypeOr(kernel.type_constraints, random_op->output_attr, unset);
    if (dtype == unset) continue;  // every dtype: no cell to name (the load tier says so)
    DrawCell cell{random_op, dtype, kernel.type_constraints,
                  kernels::KernelCaseId(kernel.op, dtype, kCaseName)};
    if (seen.insert(cell.id).second) cells.push_back(std::move(cell));
  }
  return cells;
}

// One case: two steps of one kernel instance, each judged, then the second against the first.
// The failure, or nullopt; `not_judged` says why the case could not run at all.
std::optional<std::string> JudgeCase(const DrawCell& cell, const kernels::CaseSpec& spec,
                                     kernels::KernelTarget& target, std::string& not_judged,
                                     std::optional<TF_Code>& code) {
  const core::KernelRegistration* kernel = target.FindKernel(spec.op, spec.attrs);
  if (kernel == nullptr) {
    not_judged = "not judged: no kernel the plugin registers for " + spec.op + " on " +
                 target.device_type() + " matches the draw's attrs";
    return std::nullopt;
  }
  kernels::RunMode mode;
  for (const kernels::CaseInput& input : spec.inputs)
    mode.earlier_step_inputs.push_back(input.value);
  mode.keep_earlier_step_outputs = true;
  mode.variables_carry_over = true;  // a state variable moves on, as a seed's generator does
  const kernels::CaseOutcome run = kernels::CaseRunner(target).Run(*kernel, spec, mode);
  if (!run.ran) {
    not_judged = "not judged: the harness could not run the draw: " + run.harness_error;
    return std::nullopt;
  }
  if (run.code != TF_OK) {
    code = run.code;
    return spec.op + " failed its draw: " + run.message;
  }
  for (const kernels::Outputs* draw : {&run.earlier_step_outputs, &run.outputs}) {
    if (auto problem = kernels::JudgeDraw(*cell.random_op, spec, *draw))
      return "the plugin's " + spec.op + " kernel: " + *problem;
  }
  if (auto problem = kernels::JudgeSuccessiveDraws(*cell.random_op, spec, run.earlier_step_outputs,
                                                   run.outputs))
    return "the plugin's " + spec.op + " kernel: " + *problem;
  return std::nullopt;
}

void JudgeCell(const DrawCell& cell, kernels::KernelTarget& target, validate::CheckLog& log) {
  const validate::Details blame = {{kFailingCallKey, "compute_func"},
                                   {kProblemKey, "random draws"},
                                   {"kernel", std::string(cell.random_op->op)}};
  const std::vector<kernels::CaseSpec> cases =
      kernels::DrawCases(*cell.random_op, cell.dtype, cell.types);
  for (const kernels::CaseSpec& spec : cases) {
    std::string not_judged;
    std::optional<TF_Code> code;
    if (auto problem = JudgeCase(cell, spec, target, not_judged, code)) {
      log.Fail(cell.id, *problem, code, blame);
      return;
    }
    if (!not_judged.empty()) {
      log.NotSupported(cell.id, not_judged);
      return;
    }
  }
  log.Pass(cell.id,
           {{"judged", "two steps of one kernel instance on " + std::to_string(cases.size()) +
                           " case(s): each draw's dtype, shape, support and "
                           "distribution, and a fresh second draw"}});
}

std::vector<CheckEntry> Entries(const std::vector<DrawCell>& cells) {
  std::vector<CheckEntry> entries;
  for (const DrawCell& cell : cells) {
    if (FindCheck(cell.id) != nullptr) continue;
    entries.push_back(CheckEntry{
        cell.id, "kernel", Origin::kStricter,
        "On the plugin's device, a stateful random op's kernel draws outputs of the requested "
        "dtype and shape whose every value lies where TensorFlow's CPU puts them (the "
        "distribution's support, classes of nonzero probability, candidates within range_max, "
        "crops inside the image) and whose mean or variance, where the distribution has one, "
        "lies within a bound a correct generator misses less than once in 10^6 runs; a second "
        "compute of the same kernel instance draws anew.",
        "TensorFlow keeps one kernel per node and computes it on every step, so a kernel that "
        "starts its generator over each compute repeats its draws; its values go unchecked "
        "into initializers, dropout masks and noise.",
        "Keep the generator's state in the kernel object (seeded from the seed attrs, or at "
        "random when both are 0) and advance it on every compute; draw in [0, 1) for "
        "RandomUniform, resample beyond two standard deviations for TruncatedNormal, never "
        "draw a class of logit -inf (Multinomial) or a candidate outside [0, range_max).",
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
