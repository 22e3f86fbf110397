#include "installed_tensorflow/session_deaths.h"

#include <string.h>

#include <string>
#include <vector>

#include "installed_tensorflow/installed_verdict.h"
#include "installed_tensorflow/verdicts.h"

namespace tensorflow_driver {
namespace {

using conformance::CheckResult;
using conformance::CrashInfo;
using conformance::Outcome;
using nlohmann::json;

std::string SignalName(int signal) {
  const char* abbreviation = sigabbrev_np(signal);
  return abbreviation != nullptr ? std::string("SIG") + abbreviation
                                 : "signal " + std::to_string(signal);
}

std::string Installed(const json& driver_result) {
  const std::string release = driver_result.value("tensorflow_version", "");
  return "the installed TensorFlow" + (release.empty() ? "" : " " + release);
}

CheckResult Death(const char* id, const char* tier, const json& died, std::string message,
                  std::string in_flight) {
  CheckResult result;
  result.id = id;
  result.tier = tier;
  const bool timed_out = died.value("timed_out", false);
  result.outcome = timed_out ? Outcome::kTimeout : Outcome::kCrash;
  result.message = std::move(message);
  const int signal = died.value("signal", 0);
  result.crash =
      CrashInfo{timed_out     ? "timeout after " + std::to_string(died.value("limit_ms", 0)) + " ms"
                : signal != 0 ? SignalName(signal)
                              : "exit(" + std::to_string(died.value("exit_code", -1)) + ")",
                std::move(in_flight),
                {}};
  return result;
}

// TensorFlow refused the plugin, aborted on it, or its process died while loading it or creating
// its device: load.in_tensorflow.
CheckResult LoadResult(const json& driver_result, const Verdict& verdict) {
  const bool at_load = driver_result.value("outcome", "") != "loaded";
  const std::string stage =
      at_load ? " while loading the plugin (TF_LoadPluggableDeviceLibrary)"
              : " at the plugin's first use (its device, created by the first eager context, and "
                "the first op)";
  if (verdict.kind == Verdict::Kind::kDies) {
    const json died = driver_result.value("died", json::object());
    return Death(kLoadInTensorFlowCheckId, "load", died,
                 "inside " + Installed(driver_result) + ", the process " + HowItDied(died) + stage,
                 at_load ? "TF_LoadPluggableDeviceLibrary" : "TFE_NewContext");
  }
  CheckResult result;
  result.id = kLoadInTensorFlowCheckId;
  result.tier = "load";
  result.outcome = Outcome::kFail;
  result.tf_code = verdict.code;
  result.message =
      "inside " + Installed(driver_result) + stage + ": " + InstalledSummary(driver_result);
  return result;
}

// The session outlived its allowance with every step inside its own limit (--timeout): the
// session's timeout, not a hang of whatever step was running.
bool SessionRanOut(const json& died) {
  return died.value("timed_out", false) && !died.value("stalled", false);
}

// The process died in one of the session's own steps (driver_outcome.h's `in_flight`), or the
// session ran out of its allowance in any step.
CheckResult SessionDeath(const json& driver_result, const json& died) {
  const json in_flight = died.value("in_flight", json::object());
  const std::string step = in_flight.value("step", "");
  std::string doing;
  std::string call;
  if (SessionRanOut(died)) {
    const std::string what = step == "kernel_case"   ? "kernel case " + in_flight.value("id", "")
                             : step == "model_graph" ? "model " + in_flight.value("model", "")
                             : step == "op"          ? "op " + in_flight.value("op", "")
                                                     : "step '" + step + "'";
    doing = "while running " + what +
            ", no step having taken longer than its own limit (--timeout): the session as a "
            "whole was too long, which blames no kernel";
    return Death(kSessionInTensorFlowCheckId, "runtime", died,
                 "inside " + Installed(driver_result) + ", the plugin's process " +
                     HowItDied(died) + " " + doing + "; the steps after it did not run",
                 "");
  }
  if (step == "copy") {
    doing = "copying a " + in_flight.value("dtype", "") +
            " tensor to the plugin's device and back (TFE_TensorHandleCopyToDevice)";
    call = "TFE_TensorHandleCopyToDevice";
  } else if (step == "op") {
    doing = "running the plugin's " + in_flight.value("op", "") +
            " kernel (float, one of the session's first ops, TFE_Execute on its device)";
    call = in_flight.value("op", "") + " compute_func";
  } else if (step == "finished") {
    doing = "after its last step (deleting the eager context, or the process's exit)";
  } else {
    doing = "after its step '" + in_flight.value("last", step) + "'";
  }
  CheckResult result = Death(kSessionInTensorFlowCheckId, "runtime", died,
                             "inside " + Installed(driver_result) + ", the plugin's process " +
                                 HowItDied(died) + " " + doing + "; the steps after it did not run",
                             call);
  if (step == "op") {
    // The kernel tier's root cause for a kernel that dies inside TensorFlow (DiedResult).
    result.details["failing_call"] = "compute_func";
    result.details["problem"] =
        died.value("timed_out", false) ? "hangs inside TensorFlow" : "dies inside TensorFlow";
    result.details["kernel"] = in_flight.value("op", "");
  }
  return result;
}

// The driver ended without its JSON: what TensorFlow did with the plugin is unknown.
CheckResult DriverDeath(const json& driver_result) {
  const bool timed_out = driver_result.value("driver_timed_out", false);
  const json died = {{"timed_out", timed_out},
                     {"limit_ms", driver_result.value("driver_limit_ms", 0)}};
  CheckResult result =
      Death(kSessionInTensorFlowCheckId, "runtime", died,
            "the TensorFlow driver died before it said what " + Installed(driver_result) +
                " did with the plugin: " + driver_result.value("driver_error", ""),
            "plugin_conformance_tf_driver");
  if (!timed_out) result.crash->signal = "the driver died";
  return result;
}

// The session's round trips (driver_outcome.h's `copies`: {dtype, equal} or {dtype, error}): a
// copy TensorFlow made through the plugin's memcpy_htod and memcpy_dtoh that came back with
// other bytes fails; errors and deaths are the session check's.
CheckResult CopyResult(const json& driver_result) {
  CheckResult result;
  result.id = kCopyInTensorFlowCheckId;
  result.tier = "runtime";
  const json copies = driver_result.value("copies", json::array());
  int compared = 0;
  std::string wrong;
  int wrong_count = 0;
  for (const json& copy : copies) {
    if (!copy.contains("equal")) continue;
    ++compared;
    if (copy.value("equal", true)) continue;
    if (wrong_count++ == 0) wrong = copy.value("dtype", "?");
  }
  if (wrong_count > 0) {
    result.outcome = Outcome::kFail;
    result.message = "inside " + Installed(driver_result) + ", " + std::to_string(wrong_count) +
                     " of " + std::to_string(compared) +
                     " dtypes copied to the plugin's device and back "
                     "(TFE_TensorHandleCopyToDevice both ways) came back with other bytes, the "
                     "first " +
                     wrong + ": the plugin's memcpy_htod or memcpy_dtoh moves wrong bytes there";
    result.details["dtype"] = wrong;
    return result;
  }
  if (compared == 0) {
    result.outcome = Outcome::kSkipped;
    result.message = "not run: the session inside " + Installed(driver_result) +
                     " compared no copy (it did not load the plugin, or died before a copy "
                     "came back: " +
                     std::string(kSessionInTensorFlowCheckId) + ")";
    return result;
  }
  result.outcome = Outcome::kPass;
  result.message = "inside " + Installed(driver_result) + ", the session's " +
                   std::to_string(compared) +
                   " copies to the plugin's device and back (one per fixed-size dtype) came back "
                   "bit for bit";
  return result;
}

// The session's first float ops (driver_outcome.h's `ops`: {op, plugin, cpu, equal}): each ran
// once on the plugin's device and once on TensorFlow's CPU with the same 64 floats, none a NaN, a
// denormal or able to round to one, so IEEE arithmetic gives one answer and any other bytes are
// the plugin kernel's wrong values. An op whose plugin side failed (no float kernel registered)
// or ran elsewhere (a CPU kernel plugin) is not the plugin's device computing, and is not judged.
// The ops' inputs reach the device through the same memcpy_htod as the copies: once a copy came
// back wrong, the ops are not judged (one root cause, the copy's).
CheckResult FloatOpsResult(const json& driver_result, const CheckResult& copies) {
  CheckResult result;
  result.id = kFloatOpsInTensorFlowCheckId;
  result.tier = "runtime";
  if (copies.outcome == Outcome::kFail) {
    result.outcome = Outcome::kSkipped;
    result.message =
        "not judged: the session's copies to the plugin's device already came back "
        "with other bytes (" +
        std::string(kCopyInTensorFlowCheckId) +
        "), and the float ops' inputs cross the same memcpy_htod";
    return result;
  }
  int compared = 0;
  std::vector<std::string> wrong;
  for (const json& op : driver_result.value("ops", json::array())) {
    if (!op.contains("equal")) continue;
    ++compared;
    if (!op.value("equal", true)) wrong.push_back(op.value("op", "?"));
  }
  if (!wrong.empty()) {
    std::string names;
    for (const std::string& name : wrong) names += (names.empty() ? "" : ", ") + name;
    result.outcome = Outcome::kFail;
    result.message = "inside " + Installed(driver_result) + ", " + std::to_string(wrong.size()) +
                     " of the session's " + std::to_string(compared) +
                     " float ops on the plugin's device gave other bytes than TensorFlow's CPU "
                     "for the same 64 inputs (exact IEEE results, no NaN or denormal): " +
                     names + ": the plugin's " + wrong.front() + " kernel computes wrong values";
    result.details["failing_call"] = "compute_func";
    result.details["problem"] = "wrong values";
    result.details["kernel"] = wrong.front();
    result.details["ops"] = names;
    return result;
  }
  if (compared == 0) {
    result.outcome = Outcome::kSkipped;
    result.message = "not run: the session inside " + Installed(driver_result) +
                     " ran none of its float ops (AddV2, Mul, Sub, Neg) on the plugin's device "
                     "(no float kernel of them, TensorFlow did not load the plugin, or its "
                     "process died first: " +
                     std::string(kSessionInTensorFlowCheckId) + ")";
    return result;
  }
  result.outcome = Outcome::kPass;
  result.message = "inside " + Installed(driver_result) + ", the session's " +
                   std::to_string(compared) +
                   " float ops on the plugin's device gave TensorFlow's CPU's bytes";
  return result;
}

}  // namespace

std::string HowItDied(const json& died) {
  if (died.value("timed_out", false)) {
    const std::string limit = std::to_string(died.value("limit_ms", 0)) + " ms";
    return died.value("stalled", false)
               ? "made no progress for " + limit + " (the per-step limit, --timeout) and was killed"
               : "outlived the session's " + limit + " and was killed";
  }
  if (const int signal = died.value("signal", 0); signal != 0) {
    return "died of signal " + std::to_string(signal) + " (" + SignalName(signal) + ")";
  }
  return "exited with code " + std::to_string(died.value("exit_code", -1));
}

std::vector<CheckResult> InstalledSessionResults(const json& driver_result) {
  if (driver_result.value("outcome", "") == kDriverDiedOutcome) return {DriverDeath(driver_result)};
  if (const Verdict verdict = FromDriver(driver_result); verdict.kind != Verdict::Kind::kLoads) {
    return {LoadResult(driver_result, verdict)};
  }
  if (!driver_result.contains("died")) return {};
  const json& died = driver_result["died"];
  const std::string step = died.value("in_flight", json::object()).value("step", "");
  // A death in a case or model is theirs to file, unless the session merely ran out of time.
  if ((step == "kernel_case" || step == "model_graph") && !SessionRanOut(died)) return {};
  return {SessionDeath(driver_result, died)};
}

std::vector<conformance::CheckResult> InstalledSessionChecks(const json& driver_result) {
  using conformance::CheckResult;
  using conformance::Outcome;
  std::vector<CheckResult> results = InstalledSessionResults(driver_result);
  const bool driver_died = driver_result.value("outcome", "") == kDriverDiedOutcome;
  const bool load_failed = !results.empty() && results.front().id == kLoadInTensorFlowCheckId;
  const auto add = [&](const char* id, const char* tier, Outcome outcome, std::string message) {
    for (const CheckResult& result : results) {
      if (result.id == id) return;
    }
    CheckResult result;
    result.id = id;
    result.tier = tier;
    result.outcome = outcome;
    result.message = std::move(message);
    results.push_back(std::move(result));
  };
  if (driver_died) {
    add(kLoadInTensorFlowCheckId, "load", Outcome::kSkipped,
        "not known: the TensorFlow driver died before it said what TensorFlow did (" +
            std::string(kSessionInTensorFlowCheckId) + ")");
    for (const char* id : {kCopyInTensorFlowCheckId, kFloatOpsInTensorFlowCheckId}) {
      add(id, "runtime", Outcome::kSkipped,
          "not known: the TensorFlow driver died before it said what TensorFlow did (" +
              std::string(kSessionInTensorFlowCheckId) + ")");
    }
    return results;
  }
  add(kLoadInTensorFlowCheckId, "load", Outcome::kPass,
      Installed(driver_result) + " loads the plugin and creates its device");
  if (load_failed) {
    add(kSessionInTensorFlowCheckId, "runtime", Outcome::kSkipped,
        "not run: " + Installed(driver_result) + " did not load the plugin (" +
            std::string(kLoadInTensorFlowCheckId) + ")");
  } else {
    add(kSessionInTensorFlowCheckId, "runtime", Outcome::kPass,
        "inside " + Installed(driver_result) +
            ", the plugin's process went through the session's own steps (copies of every dtype, "
            "the first float ops) without dying");
  }
  results.push_back(CopyResult(driver_result));
  results.push_back(FloatOpsResult(driver_result, results.back()));
  return results;
}

}  // namespace tensorflow_driver
