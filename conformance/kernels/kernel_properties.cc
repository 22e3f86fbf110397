#include "kernel_properties.h"

#include <algorithm>
#include <optional>

#include "kernels/concurrent_computes.h"
#include "kernels/dtype_values.h"
#include "runtime/problems.h"

namespace conformance::kernel_tier {
namespace {

using kernels::CaseOutcome;
using kernels::Outputs;
using kernels::RunMode;
using validate::Details;

// Rounds of concurrent computes. A kernel whose queued work reads per-call state from the kernel
// object shows it in the first round (the stream is held while both compute); one racing on
// scratch inside compute itself needs both threads there together, which the barrier makes
// likely in each round.
constexpr int kConcurrentRounds = 16;

// Repeats of the representative case after its first run. A kernel that sums in a random
// order changes its bits in nearly every run, so it escapes 8 repeats with a negligible chance;
// a deterministic one costs 8 short runs.
constexpr int kDeterminismRepeats = 8;

std::string Id(const std::string& op, const char* property) {
  return "kernel." + op + "." + property;
}

// A blame of the op's own compute_func names the op: each kernel's defect is a root cause of its
// own (run/root_causes.h).
Details KernelBlame(const std::string& op, const std::string& problem) {
  return {{"failing_call", "compute_func"}, {"problem", problem}, {"kernel", op}};
}

Details KernelBlame(const std::string& op, const std::string& problem, const Representative& rep) {
  Details details = KernelBlame(op, problem);
  details["case"] = rep.label;
  return details;
}

}  // namespace

bool SameOutputs(const Outputs& a, const Outputs& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].has_value() != b[i].has_value()) return false;
    if (a[i] && !kernels::SameResult(*a[i], *b[i])) return false;
  }
  return true;
}

bool OutputsWithin(const Outputs& expected, const Outputs& actual,
                   const kernels::Tolerance& tolerance) {
  if (expected.size() != actual.size()) return false;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (expected[i].has_value() != actual[i].has_value()) return false;
    if (!expected[i]) continue;
    const kernels::HostTensor& want = *expected[i];
    const kernels::HostTensor& got = *actual[i];
    if (want.dtype != got.dtype || want.shape != got.shape) return false;
    if (kernels::CompareValues(want, got, tolerance)) return false;
  }
  return true;
}

// Fails `id` at once, or holds the failure for work_after_compute's verdict.
void FailOrHold(const std::string& id, std::string message, Details details,
                LateWriterFailures* hold, validate::CheckLog& log) {
  if (hold != nullptr) {
    hold->Hold(id, std::move(message), std::move(details));
  } else {
    log.Fail(id, std::move(message), std::nullopt, std::move(details));
  }
}

void CheckInputsUntouched(const std::string& op, const Hygiene& hygiene, LateWriterFailures* hold,
                          validate::CheckLog& log) {
  const std::string id = Id(op, "inputs_untouched");
  log.Begin(id);
  if (hygiene.changed_input.empty()) {
    log.Pass(id);
    return;
  }
  FailOrHold(
      id,
      "the kernel wrote into an input whose buffer was not granted to it: " + hygiene.changed_input,
      KernelBlame(op, "input overwritten"), hold, log);
}

void CheckLeaks(const std::string& op, const Hygiene& hygiene, validate::CheckLog& log) {
  const std::string id = Id(op, "leaks");
  log.Begin(id);
  if (hygiene.leak.empty()) {
    log.Pass(id);
    return;
  }
  log.Fail(id, hygiene.leak, std::nullopt, KernelBlame(op, hygiene.leak_problem));
}

void CheckWritesInBounds(const std::string& op, const Hygiene& hygiene, LateWriterFailures* hold,
                         validate::CheckLog& log) {
  const std::string id = Id(op, "writes_in_bounds");
  log.Begin(id);
  if (!hygiene.guarded) {
    log.NotSupported(
        id,
        "the plugin does not set SP_Platform.use_bfc_allocator: TensorFlow gives every "
        "tensor an allocation of its own, so nothing of TensorFlow's lies past a "
        "buffer's end");
    return;
  }
  if (hygiene.overrun.empty()) {
    log.Pass(id);
    return;
  }
  FailOrHold(id,
             "the kernel wrote past the end of " + hygiene.overrun +
                 ": the guard bytes after it changed, where TensorFlow's allocator keeps other "
                 "tensors",
             KernelBlame(op, "write past a buffer's end"), hold, log);
}

std::optional<std::string> CheckDeterministic(const std::string& op, kernels::CaseRunner& runner,
                                              const Representative& rep, validate::CheckLog& log) {
  const std::string id = Id(op, "deterministic");
  log.Begin(id);
  RunMode mode;
  // Settle only for a late writer (values outside the tolerance); other bits are the finding.
  mode.accept = [&](const Outputs& outputs) {
    return OutputsWithin(rep.baseline, outputs, rep.tolerance);
  };
  // Several repeats, so a kernel whose rounding changes from run to run is found on every run
  // of the suite, not only when one repeat happens to differ: the verdict itself must repeat.
  for (int repeat = 1; repeat <= kDeterminismRepeats; ++repeat) {
    const CaseOutcome again = runner.Run(*rep.kernel, rep.spec, mode);
    if (!again.ran) {
      log.Skip(id, again.harness_error);
      return std::nullopt;
    }
    if (!SameOutputs(again.outputs, rep.baseline)) {
      const std::string run =
          "run " + std::to_string(repeat + 1) + " of the same inputs (" + rep.label + ") gave ";
      if (OutputsWithin(rep.baseline, again.outputs, rep.tolerance)) {
        log.Fail(id, run + "other bits than the first", std::nullopt,
                 KernelBlame(op, "different result on a second run", rep));
        return std::nullopt;
      }
      const std::string vary = run + "values outside the case's tolerance of the first";
      log.Fail(id, vary + ": the kernel's results vary between identical runs", std::nullopt,
               KernelBlame(op, "different result on a second run", rep));
      return vary;
    }
  }
  log.Pass(id, {{"case", rep.label}, {"runs", std::to_string(kDeterminismRepeats + 1)}});
  return std::nullopt;
}

void CheckLateInputs(const std::string& op, kernels::CaseRunner& runner, const Representative& rep,
                     validate::CheckLog& log) {
  const std::string id = Id(op, "late_inputs");
  log.Begin(id);
  RunMode mode;
  mode.late_inputs = true;
  mode.accept = [&](const Outputs& outputs) {
    return OutputsWithin(rep.baseline, outputs, rep.tolerance);
  };
  const CaseOutcome late = runner.Run(*rep.kernel, rep.spec, mode);
  if (!late.ran) {
    log.Skip(id, late.harness_error);
  } else if (OutputsWithin(rep.baseline, late.outputs, rep.tolerance)) {
    log.Pass(id, {{"case", rep.label}, {"stream_hold_released_by", late.stream_hold_release}});
  } else {
    log.Fail(
        id,
        "with its input copies still queued on the stream when compute ran (" + rep.label +
            "), the kernel produced other outputs than with its inputs in place: it reads its "
            "inputs "
            "before the stream delivers them instead of ordering its work on TF_GetStream's stream",
        std::nullopt, KernelBlame(op, "read inputs ahead of the stream", rep));
  }
}

std::string CheckWorkAfterCompute(const std::string& op, kernels::CaseRunner& runner,
                                  const Representative& rep, validate::CheckLog& log) {
  const std::string id = Id(op, "work_after_compute");
  log.Begin(id);
  RunMode mode;
  mode.read_right_after_compute = true;
  // The settle keeps a late writer away from memory the next case reuses, and tells this
  // check whether the outputs were merely late (settled) or wrong anyway.
  mode.accept = [&](const Outputs& outputs) {
    return OutputsWithin(rep.baseline, outputs, rep.tolerance);
  };
  const CaseOutcome run = runner.Run(*rep.kernel, rep.spec, mode);
  if (!run.ran) {
    log.Skip(id, run.harness_error);
    return "";
  }
  if (!run.settled && OutputsWithin(rep.baseline, run.outputs, rep.tolerance)) {
    log.Pass(id, {{"case", rep.label}});
    return "";
  }
  log.Fail(id,
           "outputs read by a copy queued on the stream right after compute returned (" +
               rep.label +
               ") were not yet written: the kernel finishes its work off the stream (on a thread "
               "of its own?), "
               "so the next op on the stream reads unwritten memory",
           std::nullopt, KernelBlame(op, "work finished off the stream", rep));
  return id;
}

void CheckInputsReleasedAtEnqueue(const std::string& op, kernels::CaseRunner& runner,
                                  const Representative& rep, bool bfc, validate::CheckLog& log) {
  const std::string id = Id(op, "inputs_released_at_enqueue");
  log.Begin(id);
  RunMode mode;
  mode.release_inputs_at_enqueue = true;
  const CaseOutcome run = runner.Run(*rep.kernel, rep.spec, mode);
  if (!run.ran) {
    log.Skip(id, run.harness_error);
    return;
  }
  if (OutputsWithin(rep.baseline, run.outputs, rep.tolerance)) {
    log.Pass(id, {{"case", rep.label},
                  {"released_while_queued", run.released_while_held ? "yes" : "no"}});
    return;
  }
  const std::string what =
      "with its inputs deallocated right after compute returned, while its work was still "
      "queued (" +
      rep.label +
      "), the kernel produced other outputs than with its inputs kept: deallocate let the "
      "blocks be overwritten before the queued work read them";
  // deallocate is the device's: one root cause for every kernel (and every tier) that found
  // it, so no kernel is named.
  validate::Details details = {{"failing_call", "deallocate"},
                               {"problem", runtime::kFreedUnderQueuedWork},
                               {"case", rep.label}};
  if (bfc) {
    log.Warn(id,
             what +
                 ". TensorFlow's BFC allocator (use_bfc_allocator is set) never deallocates "
                 "while work is queued, so TensorFlow is not affected as long as it stays set",
             details);
    return;
  }
  log.Fail(id, what + ". " + runtime::kFreedUnderQueuedWorkConsequence, std::nullopt, details);
}

// The earlier step's inputs: every device input's elements turned into 1 - x, so a kernel that
// serves the second step from what it remembers of the first returns other values.
std::vector<kernels::HostTensor> OtherValues(const kernels::CaseSpec& spec) {
  std::vector<kernels::HostTensor> values;
  for (const kernels::CaseInput& input : spec.inputs) {
    kernels::HostTensor other = input.value;
    if (other.dtype != TF_BOOL) {
      for (std::int64_t i = 0; i < other.NumElements(); ++i)
        kernels::WriteElement(other.dtype, other.bytes.data(), i, 1 - input.value.At(i));
    }
    values.push_back(std::move(other));
  }
  return values;
}

void CheckReusedBuffers(const std::string& op, kernels::CaseRunner& runner,
                        const Representative& rep, validate::CheckLog& log) {
  const std::string id = Id(op, "reused_buffers");
  log.Begin(id);
  RunMode mode;
  mode.earlier_step_inputs = OtherValues(rep.spec);
  mode.accept = [&](const Outputs& outputs) {
    return OutputsWithin(rep.baseline, outputs, rep.tolerance);
  };
  const CaseOutcome run = runner.Run(*rep.kernel, rep.spec, mode);
  if (!run.ran) {
    log.Skip(id, run.harness_error);
  } else if (OutputsWithin(rep.baseline, run.outputs, rep.tolerance)) {
    log.Pass(id, {{"case", rep.label}});
  } else {
    log.Fail(id,
             "the same kernel, run a second time on the same input buffers holding new values (" +
                 rep.label +
                 "), gave other outputs than a fresh run: it reuses what it computed for the "
                 "buffers' earlier contents (a cache keyed by address?)",
             std::nullopt, KernelBlame(op, "stale result for reused buffers", rep));
  }
}

void CheckConcurrentComputes(const std::string& op, kernels::CaseRunner& runner,
                             kernels::KernelTarget& target, const Representative& rep,
                             validate::CheckLog& log) {
  const std::string id = Id(op, "concurrent_computes");
  log.Begin(id);
  // The second thread's case: other values in every device input (host-memory inputs are
  // shapes and axes, kept), so a result computed from the other call's arguments differs.
  kernels::CaseSpec other = rep.spec;
  const std::vector<kernels::HostTensor> values = OtherValues(rep.spec);
  for (std::size_t i = 0; i < other.inputs.size(); ++i) {
    const auto& host_args = rep.kernel->host_memory_args;
    if (std::find(host_args.begin(), host_args.end(), other.inputs[i].name) == host_args.end())
      other.inputs[i].value = values[i];
  }
  const CaseOutcome alone = runner.Run(*rep.kernel, other, RunMode{});
  if (!alone.ran) {
    log.Skip(id, alone.harness_error);
    return;
  }
  const bool other_usable =
      alone.code == TF_OK && std::all_of(alone.outputs.begin(), alone.outputs.end(),
                                         [](const auto& output) { return output.has_value(); });
  if (!other_usable) other = rep.spec;  // its values are outside the op's domain: the same twice
  const kernels::CaseSpec cases[2] = {rep.spec, other};
  const Outputs expected[2] = {rep.baseline, other_usable ? alone.outputs : rep.baseline};
  const kernels::ConcurrentOutcome run = kernels::RunConcurrently(
      target, *rep.kernel, cases, kConcurrentRounds, !target.on_host(),
      [&](int thread, TF_Code code, const Outputs& outputs) {
        return code == TF_OK && OutputsWithin(expected[thread], outputs, rep.tolerance);
      });
  if (!run.ran) {
    if (run.harness_error.starts_with("its case has a variable"))
      log.NotSupported(id, "not judged: " + run.harness_error +
                               ", and TensorFlow serialises the updates of one variable");
    else
      log.Skip(id, run.harness_error);
    return;
  }
  if (run.failed_round < 0) {
    log.Pass(id, {{"case", rep.label}, {"rounds", std::to_string(run.rounds)}});
    return;
  }
  const std::string which = run.failed_thread == 0 ? "the case's own values" : "other values";
  const std::string gave =
      run.code != TF_OK ? "failed (" + run.message + ")" : "gave other outputs";
  log.Fail(id,
           "computed from two threads at once on one kernel instance (" + rep.label + ", round " +
               std::to_string(run.failed_round) + " of " + std::to_string(kConcurrentRounds) +
               "), the call on " + which + " " + gave +
               " than the same call alone: the kernel keeps per-call state (arguments, scratch) "
               "in its kernel object. TensorFlow runs one kernel object's compute from several "
               "threads at once (concurrent runs of a graph, eager ops from several Python "
               "threads sharing the cached kernel), so one caller gets the other's result",
           std::nullopt, KernelBlame(op, "race between concurrent computes", rep));
}

void CheckInjectedFaults(const std::string& op, kernels::CaseRunner& runner,
                         const Representative& rep, validate::CheckLog& log) {
  const std::string id = Id(op, "injected_faults");
  log.Begin(id);
  struct Site {
    std::vector<std::string> functions;
    TF_Code code;
    const char* message;
  };
  const Site sites[] = {
      {{"TF_GetInput"}, TF_INTERNAL, "plugin_conformance: injected failure of TF_GetInput"},
      {{"TF_AllocateOutput", "TF_ForwardInputOrAllocateOutput"},
       TF_RESOURCE_EXHAUSTED,
       "plugin_conformance: injected out-of-memory"},
      {{"TF_AllocateTemp"}, TF_RESOURCE_EXHAUSTED, "plugin_conformance: injected out-of-memory"},
  };
  std::vector<std::string> exercised;
  for (const Site& site : sites) {
    bool injected = false;
    RunMode mode;
    mode.fault_hook = [&](const core::KernelApiCall& call) {
      if (injected) return core::Status();
      for (const std::string& f : site.functions) {
        if (call.function == f) {
          injected = true;
          return core::Status::Error(site.code, site.message);
        }
      }
      return core::Status();
    };
    const CaseOutcome run = runner.Run(*rep.kernel, rep.spec, mode);
    if (!injected) continue;
    exercised.push_back(site.functions.front());
    if (!run.ran) {
      log.Skip(id, run.harness_error);
      return;
    }
    if (run.code == TF_OK) {
      log.Fail(id,
               site.functions.front() + " failed (" + site.message +
                   ") and the kernel still reported OK (" + rep.label +
                   "): it must pass the error on with TF_OpKernelContext_Failure",
               std::nullopt, KernelBlame(op, "core failure ignored", rep));
      return;
    }
  }
  std::string list;
  for (const auto& f : exercised) list += (list.empty() ? "" : ", ") + f;
  log.Pass(id, {{"case", rep.label},
                {"failed_calls", list.empty() ? "none (the kernel calls none of them)" : list}});
}

}  // namespace conformance::kernel_tier
