#include "kernel_tier.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <variant>

#include "kernel_properties.h"
#include "recorded_units.h"
#include "kernels/case_builder.h"
#include "kernels/case_footprint.h"
#include "kernels/declared_precision.h"
#include "kernels/dtype_values.h"
#include "kernels/kernel_scenario_set.h"
#include "kernels/kernel_target.h"
#include "kernels/plugin_op_listing.h"
#include "kernels/reference_oracle.h"
#include "kernels/registered_kernels.h"
#include "kernels/value_distance.h"
#include "ops/registry.h"
#include "runtime/profile_support.h"
#include "scenario/status_codes.h"
#include "validate/check_log.h"
#include "validate/profile.h"
#include "validate/variable_updates.h"

namespace conformance {
namespace {

using kernels::CaseOutcome;
using kernels::HostTensor;
using kernels::KernelScenario;
using kernels::Outputs;
using validate::CheckLog;
using validate::Details;

using OpScenarios = std::vector<std::shared_ptr<const KernelScenario>>;

// Listing the plugin's registrations brings it up once, as a kernel unit does.
constexpr unsigned kListingSeconds = 60;

// The first problem of one case, or nullopt when it passed.
struct CaseProblem {
  std::string message;
  Details details;
};

std::string ShapesLabel(const KernelScenario& s, std::size_t shape) {
  std::string text;
  for (const auto& dims : s.shapes[shape])
    text += (text.empty() ? "" : " x ") + core::ShapeString(dims);
  return text;
}

Details Blame(const char* call, const char* problem) {
  return {{"failing_call", call}, {"problem", problem}};
}

std::optional<CaseProblem> JudgeOutputs(const KernelScenario& s, TF_DataType dtype,
                                        const kernels::Tolerance& tolerance, const Outputs& actual,
                                        const std::vector<HostTensor>& expected) {
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const std::string name =
        "'" + (i < s.outputs.size() ? s.outputs[i].name : std::to_string(i)) + "'";
    if (i >= actual.size() || !actual[i]) {
      return CaseProblem{"output " + name + " was never set",
                         Blame("compute_func", "output never set")};
    }
    const HostTensor& got = *actual[i];
    const HostTensor& want = expected[i];
    if (got.dtype != want.dtype) {
      return CaseProblem{"output " + name + " has dtype " + kernels::DtypeName(got.dtype) +
                             ", expected " + kernels::DtypeName(want.dtype),
                         Blame("compute_func", "wrong output dtype")};
    }
    if (got.shape != want.shape) {
      return CaseProblem{"output " + name + " has shape " + core::ShapeString(got.shape) +
                             ", expected " + core::ShapeString(want.shape),
                         Blame("compute_func", "wrong output shape")};
    }
    auto mismatch = kernels::CompareValues(want, got, tolerance);
    if (!mismatch && kernels::OpDefinesZeroSign(s.op))
      mismatch = kernels::CompareZeroSigns(want, got);
    if (mismatch) {
      const kernels::ValueDistance distance =
          kernels::MeasureDistance(dtype, mismatch->expected, mismatch->actual);
      Details details = Blame("compute_func", "wrong values");
      details["index"] = mismatch->index;
      details["expected"] = kernels::ValueString(dtype, mismatch->expected);
      details["actual"] = kernels::ValueString(dtype, mismatch->actual);
      details["mismatched_elements"] = std::to_string(mismatch->mismatched);
      details["tolerance"] = kernels::ToleranceText(tolerance);
      details["distance"] = kernels::DistanceText(distance);
      if (distance.ulp) details["ulp_distance"] = std::to_string(*distance.ulp);
      if (distance.relative) {
        char relative[32];
        std::snprintf(relative, sizeof relative, "%.6g", *distance.relative);
        details["relative_distance"] = relative;
      }
      return CaseProblem{
          "output " + name + " element " + mismatch->index + " is " + details["actual"] +
              ", expected " + details["expected"] + " (" + details["distance"] + "; tolerance " +
              details["tolerance"] + "; " + std::to_string(mismatch->mismatched) + " of " +
              std::to_string(want.NumElements()) + " elements outside the tolerance)",
          details};
    }
  }
  return std::nullopt;
}

// Cases of one check that no device involved can hold: said, never silently dropped.
struct Oversized {
  int count = 0;
  std::string first;  // the first one's reason, naming the limit
  void Note(const std::string& reason) {
    if (count++ == 0) first = reason;
  }
  std::string Message(std::size_t cases) const {
    return first +
           (count > 1 ? " (" + std::to_string(count) + " of " + std::to_string(cases) +
                            " cases are too large)"
                      : "") +
           (static_cast<std::size_t>(count) < cases ? "; the other cases ran and passed" : "");
  }
};

// Reference or literal expectation for one case; an error status when the reference failed.
struct Expected {
  bool available = false;
  // An op the plugin defines itself, with no literal values: the case runs for the checks that
  // need no oracle (errors, outputs set, the op's own checks), its values are not compared.
  bool no_oracle = false;
  std::string unavailable;        // why not (reference has no kernel, crashed, ...)
  bool beyond_reference = false;  // unavailable because the reference's device cannot hold it
  TF_Code code = TF_OK;
  std::string message;
  std::vector<HostTensor> outputs;
};

Expected ExpectedFor(const KernelScenario& s, std::size_t scenario_index, TF_DataType dtype,
                     std::size_t shape, const kernels::ReferenceResults& reference) {
  Expected e;
  switch (s.expect.kind) {
    case kernels::Expectation::Kind::kValues:
      e.available = true;
      e.outputs = kernels::LiteralOutputs(s, dtype);
      return e;
    case kernels::Expectation::Kind::kError:
      e.available = true;
      e.code = s.expect.error;
      return e;
    case kernels::Expectation::Kind::kReference: break;
  }
  if (s.plugin_definition) {
    e.available = true;
    e.no_oracle = true;
    return e;
  }
  if (!reference.failure.empty()) {
    e.unavailable = reference.failure;
    return e;
  }
  const kernels::ReferenceCase* found = reference.Find(scenario_index, dtype, shape);
  if (found == nullptr || !found->has_kernel) {
    e.unavailable =
        "the reference plugin has no " + s.op + " kernel for " + kernels::DtypeName(dtype);
    return e;
  }
  if (!found->oversized.empty()) {
    e.unavailable = found->oversized;
    e.beyond_reference = true;
    return e;
  }
  if (!found->harness_error.empty()) {
    e.unavailable = "the reference plugin could not run the case: " + found->harness_error;
    return e;
  }
  e.available = true;
  e.code = found->code;
  e.message = found->message;
  // A kernel that fails sets no outputs: the error code is the whole expectation.
  if (e.code != TF_OK) return e;
  for (const auto& output : found->outputs) {
    if (!output) {
      e.available = false;
      e.unavailable = "the reference plugin left an output unset";
      return e;
    }
    e.outputs.push_back(*output);
  }
  return e;
}

std::optional<CaseProblem> JudgeCase(const KernelScenario& s, TF_DataType dtype,
                                     const kernels::Tolerance& tolerance, const CaseOutcome& run,
                                     const Expected& expected) {
  const char* call = run.construction_failed ? "create_func" : "compute_func";
  if (expected.code != TF_OK) {
    if (run.code == expected.code) return std::nullopt;
    if (run.code == TF_OK) {
      return CaseProblem{"expected the kernel to fail with " + scenario::CodeName(expected.code) +
                             (expected.message.empty() ? "" : " (\"" + expected.message + "\")") +
                             ", but it reported OK",
                         Blame(call, "expected error not reported")};
    }
    return CaseProblem{"the kernel failed with " + scenario::CodeName(run.code) + " (\"" +
                           run.message + "\"), expected " + scenario::CodeName(expected.code),
                       Blame(call, "wrong error code")};
  }
  if (run.code != TF_OK) {
    return CaseProblem{std::string(run.construction_failed ? "kernel construction" : "compute") +
                           " failed with " + scenario::CodeName(run.code) + ": " + run.message,
                       Blame(call, "unexpected error")};
  }
  if (run.async_done_calls > 1) {
    return CaseProblem{"the async kernel called its done callback " +
                           std::to_string(run.async_done_calls) + " times",
                       Blame("compute_async_func", "done callback called more than once")};
  }
  if (expected.no_oracle) {
    for (std::size_t i = 0; i < s.outputs.size(); ++i) {
      if (i < run.outputs.size() && run.outputs[i]) continue;
      return CaseProblem{"output '" + s.outputs[i].name + "' was never set",
                         Blame("compute_func", "output never set")};
    }
  }
  return JudgeOutputs(s, dtype, tolerance, run.outputs, expected.outputs);
}

// Why a case check of an op the plugin defines itself, without expected values, is
// not_supported although its cases ran: nothing says what the outputs should be.
std::string NoOracleReason(const KernelScenario& s, std::size_t cases) {
  return "values not compared: " + s.op +
         " is an op the plugin defines itself (TF_RegisterOpDefinition), which the reference "
         "plugin cannot run; give the outputs under `expect: {outputs: ...}` to compare them. " +
         std::to_string(cases) + (cases == 1 ? " case" : " cases") +
         " ran without an error, for the op's own checks (kernel." + s.op +
         ".inputs_untouched, .leaks, ...)";
}

// The reference plugin runs only cases it could compute: none of an op the plugin defines.
bool NeedsReference(const OpScenarios& scenarios) {
  for (const auto& s : scenarios) {
    if (s->expect.kind == kernels::Expectation::Kind::kReference && !s->plugin_definition)
      return true;
  }
  return false;
}

std::vector<std::string> CaseIds(const OpScenarios& scenarios) {
  std::vector<std::string> ids;
  for (const auto& s : scenarios) {
    for (TF_DataType dtype : s->dtypes) ids.push_back(kernels::KernelCaseId(s->op, dtype, s->name));
  }
  return ids;
}

std::vector<std::string> PropertyIds(const std::string& op) {
  std::vector<std::string> ids;
  for (const std::string& property : KernelPropertyChecks())
    ids.push_back("kernel." + op + "." + property);
  return ids;
}

void NotSupportedAll(CheckLog& log, const std::vector<std::string>& ids,
                     const std::string& reason) {
  for (const auto& id : ids) log.NotSupported(id, reason);
}

// Records what a case left behind for the op's hygiene checks (first occurrence wins).
void NoteHygiene(const CaseOutcome& run, const std::string& label,
                 const kernel_tier::Hygiene& current, kernel_tier::Hygiene& hygiene) {
  (void)current;
  if (hygiene.changed_input.empty() && !run.changed_inputs.empty()) {
    const kernels::ChangedInput& changed = run.changed_inputs.front();
    const std::string values = changed.element == "[]" || changed.element == "[0]"
                                   ? ""
                                   : " from element " + changed.element;
    hygiene.changed_input = "input " + std::to_string(changed.index) + " of case " + label;
    if (changed.set_as_output >= 0) {
      hygiene.changed_input +=
          ": the kernel set that buffer as output " + std::to_string(changed.set_as_output) +
          " with TF_SetOutput and wrote into it, but nothing granted it the buffer (only "
          "TF_ForwardInputOrAllocateOutput does, and TensorFlow grants it only when no one else "
          "holds the input). The caller still holds that tensor: in TensorFlow it reads " +
          changed.reads + values + " instead of " + changed.was;
    } else {
      hygiene.changed_input += ": it reads " + changed.reads + values + " instead of " +
                               changed.was + ", in TensorFlow for every other holder of it too";
    }
  }
  if (hygiene.overrun.empty() && !run.overwritten_guards.empty()) {
    hygiene.overrun =
        "a buffer of " + std::to_string(run.overwritten_guards.front()) + " bytes in case " + label;
  }
  if (!hygiene.leak.empty()) return;
  if (run.leaked_tensors > 0) {
    hygiene.leak =
        std::to_string(run.leaked_tensors) + " TF_Tensor handle(s) never deleted in case " + label +
        (run.leaked_device_bytes > 0
             ? " (they keep " + std::to_string(run.leaked_device_bytes) + " bytes of device memory)"
             : "");
    hygiene.leak_problem = "TF_Tensor never deleted";
  } else if (run.leaked_statuses > 0) {
    hygiene.leak =
        std::to_string(run.leaked_statuses) + " TF_Status handle(s) never deleted in case " + label;
    hygiene.leak_problem = "TF_Status never deleted";
  } else if (run.leaked_device_bytes != 0) {
    hygiene.leak = std::to_string(run.leaked_device_bytes) +
                   " bytes of device memory not released after case " + label;
    hygiene.leak_problem = "device memory not released";
  }
}

// Whether reading a wrong case's outputs again has ever helped in this unit.
struct SettleRecord {
  int rescued = 0, failed = 0;
  bool worth_it() const { return rescued > 0 || failed == 0; }
  void Note(bool settled, bool still_wrong) {
    if (settled) ++rescued;
    if (still_wrong) ++failed;
  }
};

// Why the cases of `s` cannot run under the emulated core: a variable input needs a kernel that
// updates the variable, which needs the core's variable functions (validate/variable_updates.h,
// the models tier's rule too); nullopt when `s` has no variable input or the core exports them.
std::optional<std::string> VariablesUnavailable(const KernelScenario& s,
                                                const std::string& profile) {
  const bool has_variable = std::any_of(s.inputs.begin(), s.inputs.end(),
                                        [](const kernels::InputSpec& in) { return in.variable; });
  if (!has_variable) return std::nullopt;
  return validate::VariableUpdatesUnavailable(profile, {s.op}, "these cases' variable inputs");
}

// The cases this core cannot run, said not_supported first; the scenarios left to run. When none
// is left, the op's property checks are said not_supported for the same reason.
OpScenarios ReportUnrunnable(const OpScenarios& all_scenarios,
                             const std::vector<std::string>& property_ids, CheckLog& log,
                             const std::string& profile) {
  OpScenarios scenarios;
  std::optional<std::string> variables_unavailable;
  for (const auto& s : all_scenarios) {
    auto reason = VariablesUnavailable(*s, profile);
    if (!reason) {
      scenarios.push_back(s);
      continue;
    }
    for (TF_DataType dtype : s->dtypes)
      log.NotSupported(kernels::KernelCaseId(s->op, dtype, s->name), *reason);
    variables_unavailable = std::move(reason);
  }
  if (scenarios.empty()) NotSupportedAll(log, property_ids, *variables_unavailable);
  return scenarios;
}

std::string NotRegisteredReason(const std::string& op, const std::string& device_type) {
  return "the plugin registers no " + op + " kernel for its device type " + device_type;
}

// The unit of an op the listing found no kernel of on the plugin's device: what RunOpUnit says
// after bringing the plugin up, said while nothing is loaded.
void ReportUnregisteredOp(const std::string& op, const OpScenarios& all_scenarios,
                          const std::string& device_type, UnitContext& context) {
  const std::vector<std::string> property_ids = PropertyIds(op);
  std::vector<std::string> all = CaseIds(all_scenarios);
  all.insert(all.end(), property_ids.begin(), property_ids.end());
  CheckLog log(context.sink, all);
  const OpScenarios scenarios =
      ReportUnrunnable(all_scenarios, property_ids, log, context.settings.profile);
  if (scenarios.empty()) return;
  all = CaseIds(scenarios);
  all.insert(all.end(), property_ids.begin(), property_ids.end());
  NotSupportedAll(log, all, NotRegisteredReason(op, device_type));
}

void RunOpUnit(const std::string& op, const OpScenarios& all_scenarios, UnitContext& context) {
  const std::vector<std::string> property_ids = PropertyIds(op);
  std::vector<std::string> all = CaseIds(all_scenarios);
  all.insert(all.end(), property_ids.begin(), property_ids.end());
  CheckLog log(context.sink, all);
  const std::uint64_t seed = context.settings.seed;

  // Cases this core cannot run are said so first; the rest run (the reference too).
  const OpScenarios scenarios =
      ReportUnrunnable(all_scenarios, property_ids, log, context.settings.profile);
  if (scenarios.empty()) return;
  all = CaseIds(scenarios);  // the checks still to report
  all.insert(all.end(), property_ids.begin(), property_ids.end());

  // The reference first, in its own process, before the candidate is loaded here.
  std::vector<const KernelScenario*> raw;
  for (const auto& s : scenarios) raw.push_back(s.get());
  const kernels::ReferenceResults reference =
      NeedsReference(scenarios) ? kernels::RunOnReference(kernels::ReferencePluginPath(), raw, seed)
                                : kernels::ReferenceResults{};

  auto opened = kernels::KernelTarget::Open(context.settings.plugin_path,
                                            runtime::SessionOptionsFor(context.settings));
  if (!opened.ok()) {
    if (opened.error().kind == runtime::ErrorKind::kUnsupported) {
      NotSupportedAll(log, all, opened.error().Describe());
    } else {
      for (const auto& id : all)
        log.Skip(id, "cannot bring the plugin up: " + opened.error().Describe());
    }
    return;
  }
  kernels::KernelTarget& target = *opened.value();
  if (!target.exports_init_kernel()) {
    NotSupportedAll(log, all, "the plugin does not export TF_InitKernel");
    return;
  }
  if (!target.RegistersOp(op)) {
    NotSupportedAll(log, all, NotRegisteredReason(op, target.device_type()));
    return;
  }

  if (const std::string label = target.OnlyLabelOf(op); !label.empty()) {
    NotSupportedAll(log, all,
                    "the plugin registers " + op + " only under the label '" + label +
                        "': TensorFlow runs it only for nodes whose _kernel attr is '" + label +
                        "', so no check here can run it");
    return;
  }

  kernels::CaseRunner runner(target);
  const std::int64_t device_bytes = target.DeviceMemoryBytes();
  SettleRecord settling;
  // A device's kernel may finish its work off the stream: its value and memory failures wait
  // for work_after_compute's verdict (late_writer_failures.h). A CPU kernel runs synchronously.
  kernel_tier::LateWriterFailures held;
  kernel_tier::LateWriterFailures* hold = target.on_host() ? nullptr : &held;
  kernel_tier::Hygiene hygiene;
  hygiene.guarded = target.allocator()->guards();
  int cases_run = 0;  // the hygiene checks judge what cases left behind: none ran, none judged
  std::optional<kernel_tier::Representative> representative;
  bool representative_wrong = false;  // its values failed: a later passing case replaces it
  for (std::size_t si = 0; si < scenarios.size(); ++si) {
    const KernelScenario& s = *scenarios[si];
    for (TF_DataType dtype : s.dtypes) {
      const std::string id = kernels::KernelCaseId(s.op, dtype, s.name);
      log.Begin(id);
      const core::KernelRegistration* kernel = target.FindKernel(op, kernels::CaseAttrs(s, dtype));
      if (kernel == nullptr) {
        log.NotSupported(id, "no " + op + " kernel registered for " + s.type_attr + "=" +
                                 kernels::DtypeName(dtype) + " on " + target.device_type());
        continue;
      }
      const DeclaredPrecision* declaration =
          kernels::FindDeclaration(context.settings.declared_precision, op, dtype, s.name);
      const kernels::Tolerance tolerance = kernels::Widen(s.ToleranceFor(dtype), declaration);
      std::optional<CaseProblem> problem;
      bool values_wrong = false;  // the problem is the values of a case that ran
      std::string unavailable;
      Oversized oversized;
      int uncompared = 0;  // cases that ran with no oracle for their values
      for (std::size_t shape = 0; shape < s.shapes.size() && !problem; ++shape) {
        // Said before anything is made: neither process could hold the case.
        if (auto reason = kernels::OversizedCase(s, dtype, shape, device_bytes, "the device")) {
          oversized.Note(*reason);
          continue;
        }
        const Expected expected = ExpectedFor(s, si, dtype, shape, reference);
        if (expected.beyond_reference) {
          oversized.Note(expected.unavailable);
          continue;
        }
        if (!expected.available) {
          unavailable = expected.unavailable;
          break;
        }
        const kernels::CaseSpec spec = kernels::BuildCase(s, dtype, shape, seed);
        kernels::RunMode mode;
        // Settling (reading again for up to 300 ms) rescues a late writer. Once it has failed to
        // rescue a wrong case of this op and never rescued one, the values are wrong, not late:
        // later cases skip it, so a kernel with wrong arithmetic costs one wait, not one per
        // case (twelve of them timed the unit out on a loaded machine).
        if (settling.worth_it()) {
          mode.accept = [&](const Outputs& outputs) {
            if (expected.code != TF_OK) return true;
            return !JudgeOutputs(s, dtype, tolerance, outputs, expected.outputs).has_value();
          };
        }
        const CaseOutcome run = runner.Run(*kernel, spec, mode);
        const std::string label = kernels::DtypeName(dtype) + " " + ShapesLabel(s, shape);
        if (!run.ran) {
          unavailable = "the harness could not run case " + label + ": " + run.harness_error;
          break;
        }
        ++cases_run;
        if (expected.no_oracle) ++uncompared;
        NoteHygiene(run, label, hygiene, hygiene);
        problem = JudgeCase(s, dtype, tolerance, run, expected);
        values_wrong = problem.has_value() && run.code == TF_OK && expected.code == TF_OK;
        if (mode.accept) settling.Note(run.settled, problem.has_value() && run.code == TF_OK);
        if (problem) {
          problem->message = "case " + label + ": " + problem->message;
          problem->details["shapes"] = ShapesLabel(s, shape);
          problem->details["seed"] = std::to_string(seed);
        }
        // The op's own checks compare the candidate with itself, so a case whose values are
        // wrong (or merely outside the scenario's tolerance, then waived or declared) still
        // serves: a waived value check must not leave them skipped.
        // A case whose values passed is preferred: a late writer's first case may have been
        // read before its thread wrote, and work_after_compute compares with this baseline.
        if ((!representative || (representative_wrong && !problem)) && expected.code == TF_OK &&
            run.code == TF_OK && s.expect.kind != kernels::Expectation::Kind::kError &&
            !run.outputs.empty() && run.outputs.front() && run.outputs.front()->NumElements() > 0) {
          representative = kernel_tier::Representative{kernel, spec, run.outputs, label, tolerance};
          representative_wrong = problem.has_value();
        }
      }
      Details declared;
      if (declaration != nullptr)
        declared["declared_precision"] = kernels::DeclarationText(*declaration);
      if (problem) {
        // Every blame of a case is one of the op's kernel callbacks: named, so two kernels
        // that are wrong are two root causes (run/root_causes.h).
        problem->details["kernel"] = op;
        problem->details.insert(declared.begin(), declared.end());
        if (values_wrong && hold != nullptr) {
          hold->Hold(id, problem->message, problem->details);
        } else {
          log.Fail(id, problem->message, std::nullopt, problem->details);
        }
      } else if (!unavailable.empty()) {
        log.Skip(id, unavailable);
      } else if (oversized.count > 0) {
        log.NotSupported(id, oversized.Message(s.shapes.size()));
      } else if (uncompared > 0) {
        log.NotSupported(id, NoOracleReason(s, static_cast<std::size_t>(uncompared)));
      } else {
        declared["seed"] = std::to_string(seed);
        declared["cases"] = std::to_string(s.shapes.size());
        log.Pass(id, declared);
      }
    }
  }

  const std::string op_id = "kernel." + op + ".";
  if (cases_run == 0) {
    for (const std::string& id : property_ids)
      log.Skip(id, "no case of " + op + " ran on the plugin, so there is nothing to judge");
    return;
  }
  kernel_tier::CheckInputsUntouched(op, hygiene, hold, log);
  kernel_tier::CheckLeaks(op, hygiene, log);
  kernel_tier::CheckWritesInBounds(op, hygiene, hold, log);
  if (!representative) {
    for (const char* p : {"deterministic", "late_inputs", "work_after_compute", "reused_buffers",
                          "concurrent_computes", "inputs_released_at_enqueue", "injected_faults"}) {
      log.Skip(op_id + p, "no case of " + op + " passed with non-empty outputs to repeat");
    }
    held.Report("", log);
    return;
  }
  const std::optional<std::string> values_vary =
      kernel_tier::CheckDeterministic(op, runner, *representative, log);
  std::string late_writer;  // work_after_compute's id when it caught the kernel
  if (values_vary) {
    // Each of these compares one more run with the first: a kernel whose values vary between
    // identical runs would fail them all, and be diagnosed with ordering and caching bugs it
    // may not have.
    std::vector<const char*> comparing = {"reused_buffers", "concurrent_computes"};
    if (!target.on_host()) {
      comparing.insert(comparing.end(),
                       {"work_after_compute", "inputs_released_at_enqueue", "late_inputs"});
    }
    for (const char* p : comparing) {
      log.Skip(op_id + p, "not judged: " + *values_vary + " (kernel." + op +
                              ".deterministic), so a difference here would not show an ordering "
                              "or caching bug");
    }
  }
  if (target.on_host()) {
    // TensorFlow's CPU device runs a kernel synchronously and gives it no stream: no order
    // on a stream to get wrong.
    for (const char* p : {"late_inputs", "work_after_compute", "inputs_released_at_enqueue"}) {
      log.NotSupported(op_id + p,
                       "a CPU kernel runs synchronously on TensorFlow's CPU device, which has no "
                       "device stream (TF_GetStream fails there), so there is no stream order to "
                       "check");
    }
  } else if (!values_vary) {
    late_writer = kernel_tier::CheckWorkAfterCompute(op, runner, *representative, log);
  }
  held.Report(late_writer, log);
  const bool finishes_on_stream = late_writer.empty();
  if (!values_vary) kernel_tier::CheckReusedBuffers(op, runner, *representative, log);
  // Late: a kernel that writes through the NULL it was given crashes the unit.
  kernel_tier::CheckInjectedFaults(op, runner, *representative, log);
  // Last: the kernel checks that hold the stream, with host_callback, a call TensorFlow's
  // recorded workload never makes (docs/tensorflow/calls.md); a host_callback that crashes
  // takes no check of the op with it but these.
  if (!values_vary && !finishes_on_stream) {
    log.Skip(op_id + "concurrent_computes",
             "not judged: the kernel finishes its work off the stream (kernel." + op +
                 ".work_after_compute), so an output read once the stream is idle may still "
                 "change, and a difference would not show a race");
  } else if (!values_vary) {
    kernel_tier::CheckConcurrentComputes(op, runner, target, *representative, log);
  }
  if (!target.on_host() && !values_vary) {
    kernel_tier::CheckInputsReleasedAtEnqueue(op, runner, *representative, target.uses_bfc(), log);
    kernel_tier::CheckLateInputs(op, runner, *representative, log);
  }
}

}  // namespace

const std::vector<KernelPropertyDoc>& KernelPropertyDocs() {
  static const std::vector<KernelPropertyDoc> docs = {
      {"inputs_untouched",
       "Across all cases of the op, the kernel leaves the bytes of every input unchanged unless "
       "the core granted that input's buffer to an output (TF_ForwardInputOrAllocateOutput); an "
       "input the kernel set as an output with TF_SetOutput is still the caller's (each device "
       "input is read back after the stream is synchronised).",
       "TensorFlow shares input tensors between consumers and keeps them for the backward pass, "
       "and grants an input's buffer to an output only when no one else holds it (measured on "
       "2.21: eager AddV2 with its input still held by Python allocates anew); a kernel that "
       "writes into an input silently corrupts the caller's tensor, other ops' inputs and "
       "gradients.",
       "Write only into outputs and temporaries; to reuse an input's buffer, ask for it with "
       "TF_ForwardInputOrAllocateOutput.",
       "wrong data: other consumers of the input, and its gradients, read the overwritten values."},
      {"leaks",
       "Across all cases of the op, every TF_Tensor and TF_Status the kernel obtains is deleted, "
       "and device memory "
       "allocated during a case is back where it started once the case's tensors are released.",
       "Every leaked TF_Tensor keeps its buffer: device memory grows with each step until the "
       "model fails with "
       "out-of-memory.",
       "Call TF_DeleteTensor for every tensor from TF_GetInput, TF_AllocateOutput, TF_AllocateTemp "
       "and "
       "TF_GetMutableOutput, and TF_DeleteStatus for every status, on every path including errors.",
       "leak: device memory grows with every step until the model fails with out-of-memory."},
      {"writes_in_bounds",
       "Across all cases of the op, the kernel writes nothing past the end of any buffer: the 64 "
       "guard bytes after every input, output and temporary allocation are unchanged once the "
       "case's work has finished.",
       "TensorFlow's allocator packs tensors next to each other; a write one element past an "
       "output's end silently corrupts whichever tensor lies there.",
       "Bound every loop and launch by the tensor's element count (TF_TensorElementCount), "
       "including the tail of vectorised loops.",
       "wrong data: a neighbouring tensor is overwritten."},
      {"deterministic",
       "Running the op's representative case 8 more times with the same inputs gives "
       "bit-identical outputs every time (NaN payloads aside).",
       "Non-deterministic kernels make results irreproducible and break TF_DETERMINISTIC_OPS "
       "users' expectations.",
       "Avoid unordered floating-point reductions (atomics) or make their order fixed.",
       "none: TensorFlow promises bit-identical results only under op determinism, which a kernel "
       "may not offer."},
      {"late_inputs",
       "With the input copies still queued on the stream behind other work when compute runs (the "
       "inputs' "
       "memory poisoned before), the kernel produces the same outputs as with its inputs in place "
       "(within the case's tolerance).",
       "TensorFlow calls compute as soon as the inputs' producers have been queued; a kernel that "
       "reads inputs "
       "on the host at once, instead of ordering its work on TF_GetStream's stream, reads stale "
       "memory and "
       "returns wrong results.",
       "Queue all reads of inputs on the stream returned by TF_GetStream (or wait for it) instead "
       "of touching "
       "device memory from compute_func directly.",
       "wrong data: the kernel computes on stale input memory."},
      {"work_after_compute",
       "Outputs read by a copy queued on the stream right after compute returns hold the final "
       "values (within the case's tolerance of the first run's): the kernel's work is ordered on "
       "the stream, not finished later by a thread of its own.",
       "The next op on the stream runs as soon as its work is queued; output written later, off "
       "the stream, is "
       "read unwritten (or overwritten after it was freed and reused).",
       "Queue the kernel's work on the stream from TF_GetStream (or finish it before compute "
       "returns); use "
       "compute_async_func with the done callback for work that completes elsewhere.",
       "wrong data: the next op reads the output before it is written."},
      {"reused_buffers",
       "The same kernel instance, run once on the representative case's input buffers holding "
       "other values and then again on the same buffers holding the case's values, gives the "
       "outputs of a fresh run (within the case's tolerance).",
       "TensorFlow keeps one kernel per node and its allocator hands the same addresses to the "
       "next step; a kernel that remembers results by input address returns the previous "
       "step's result for new data.",
       "Never key cached results on tensor addresses; cache only what the attributes and shapes "
       "determine.",
       "wrong data: every step after the first returns the first step's result."},
      {"concurrent_computes",
       "The op's representative case and the same case on other input values, computed from two "
       "threads at once on one kernel instance (16 rounds; on a device the stream is held while "
       "both compute, so work queued by one call cannot finish before the other call starts), "
       "each give the outputs they give computed alone (within the case's tolerance).",
       "TensorFlow keeps one kernel object per graph node (and eager execution one per op, "
       "attributes and device) and calls its compute from several threads at once: concurrent "
       "runs of the same graph on the inter-op threads, or eager ops from several Python threads. "
       "Its OpKernel contract asks compute to be thread-safe for that reason.",
       "Keep per-call state (arguments, scratch, work descriptors) on the stack or in "
       "TF_AllocateTemp buffers, or guard shared scratch with a mutex; the kernel object may hold "
       "only what the attributes determine.",
       "wrong data: one caller of a kernel running concurrently gets the other caller's result."},
      {"injected_faults",
       "When the core makes TF_GetInput, TF_AllocateOutput (or TF_ForwardInputOrAllocateOutput) or "
       "TF_AllocateTemp fail, the kernel reports an error through TF_OpKernelContext_Failure and "
       "does not "
       "use the NULL tensor (no crash).",
       "Allocations fail when the device is full; TensorFlow then expects the op to fail with the "
       "status so the "
       "step reports out-of-memory. A kernel that ignores it crashes the process or reports "
       "success with no "
       "output.",
       "Check the TF_Status after every core call and pass errors on with "
       "TF_OpKernelContext_Failure before "
       "returning.",
       "crash: the kernel writes through the NULL tensor when the device is full."},
      {"inputs_released_at_enqueue",
       "The op's representative case is run with TensorFlow's lifetimes: the stream is held while "
       "compute queues the kernel's work, the inputs are then released and their blocks given "
       "back to the plugin's deallocate at once, and only then does the stream go on. The outputs "
       "equal the first run's (within the case's tolerance). A failure is a warning when the "
       "plugin sets use_bfc_allocator.",
       "Without its BFC allocator, TensorFlow deallocates a kernel's inputs as soon as the kernel "
       "is queued, when their last reference drops, and never waits for the stream first "
       "(measured on 2.21). With it, TensorFlow reuses its own chunks in stream order and never "
       "calls deallocate while work is queued.",
       "Give memory back in stream order (once every stream of the device has reached the "
       "deallocate call), wait for the device inside deallocate, or set use_bfc_allocator.",
       "wrong data: the kernel computes on inputs whose memory was already freed."},
  };
  return docs;
}

const std::vector<std::string>& KernelPropertyChecks() {
  static const std::vector<std::string> properties = [] {
    std::vector<std::string> names;
    for (const auto& doc : KernelPropertyDocs()) names.push_back(doc.name);
    return names;
  }();
  return properties;
}

std::vector<TestUnit> KernelTierUnits(const RunSettings& settings) {
  std::map<std::string, OpScenarios> by_op;
  std::vector<std::string> order;
  // A vendor's scenario may name any op TensorFlow registers in the release the profile
  // emulates, not only the catalogue's.
  const validate::Profile* profile = validate::FindProfile(settings.profile);
  const ops::OpRegistry* registry =
      profile != nullptr ? ops::FindOpRegistry(profile->op_registry) : nullptr;
  // And any op the plugin defines itself: listed in a child process only when some scenario
  // names an op that neither the catalogue nor the registry holds.
  std::optional<kernels::PluginOps> plugin_ops;
  if (!settings.plugin_path.empty()) {
    plugin_ops.emplace([path = settings.plugin_path] {
      return kernels::ListPluginOps(path, kernels::kPluginOpsListingSeconds);
    });
  }
  for (auto& s : kernels::LoadAllKernelScenarios(settings.scenario_dirs, registry,
                                                 plugin_ops ? &*plugin_ops : nullptr)) {
    if (!by_op.contains(s.op)) order.push_back(s.op);
    auto& scenarios = by_op[s.op];  // s.op read before s is moved from
    scenarios.push_back(std::make_shared<const KernelScenario>(std::move(s)));
  }
  // The plugin's registrations, listed once in a child while the suite is built, for the
  // recorded oracle's cells; and so that a scenario's op the plugin does not register costs no
  // child of its own (each would run the reference, bring the plugin up and find no kernel: 38
  // such children were most of a one-op plugin's kernel tier). Not listed with --tensorflow,
  // where the units find out for themselves, as they do when the listing fails.
  std::optional<kernels::KernelListing> listing;
  if (settings.judge_from_record && !settings.plugin_path.empty()) {
    auto listed = kernels::ListKernels(settings.plugin_path, kListingSeconds);
    if (auto* kernels = std::get_if<kernels::KernelListing>(&listed)) listing = std::move(*kernels);
  }
  std::vector<TestUnit> units;
  for (const std::string& op : order) {
    TestUnit unit;
    unit.name = "kernel." + op;
    unit.tier = "kernels";
    unit.check_ids = CaseIds(by_op[op]);
    for (auto& id : PropertyIds(op)) unit.check_ids.push_back(std::move(id));
    unit.prerequisites = {"load.se.create_stream_executor"};
    if (listing && listing->exports_init_kernel && !listing->own_device_ops.contains(op)) {
      unit.runs_in_parent = true;
      unit.run = [op, scenarios = by_op[op],
                  device_type = listing->device_type](UnitContext& context) {
        ReportUnregisteredOp(op, scenarios, device_type, context);
      };
    } else {
      unit.run = [op, scenarios = by_op[op]](UnitContext& context) {
        RunOpUnit(op, scenarios, context);
      };
    }
    units.push_back(std::move(unit));
  }
  // Then the registered cells no scenario covers, judged from the recorded TensorFlow oracle.
  for (TestUnit& unit : RecordedOracleUnits(settings, listing ? &*listing : nullptr))
    units.push_back(std::move(unit));
  return units;
}

}  // namespace conformance
