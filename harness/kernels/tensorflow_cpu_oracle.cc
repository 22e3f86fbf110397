#include "kernels/tensorflow_cpu_oracle.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "kernels/case_from_json.h"
#include "kernels/case_json.h"
#include "kernels/dtype_values.h"
#include "kernels/host_tensor.h"
#include "kernels/in_tensorflow_id.h"
#include "kernels/quantized_ranges.h"
#include "kernels/string_values.h"
#include "kernels/value_distance.h"
#include "run/root_causes.h"
#include "scenario/status_codes.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

HostTensor TensorOf(const json& output) {
  HostTensor tensor;
  tensor.dtype = static_cast<TF_DataType>(output.at("dtype").get<int>());
  tensor.shape = output.at("shape").get<core::Shape>();
  if (const auto strings = output.find("strings"); strings != output.end()) {
    tensor.strings = StringsFromJson(*strings);  // a string output (string_values.h)
  } else {
    tensor.bytes = RecordedTensorBytes(output);
  }
  return tensor;
}

std::string StatusText(const json& error) {
  return scenario::CodeName(error.value("code", 2)) + ": " + error.value("message", "");
}

// A CPU kernel plugin's case (harness/installed_tensorflow/cpu_kernel_plugin.h) ran on
// TensorFlow's CPU device with the plugin loaded and again in a process without it.
bool RanAsCpuKernelPlugin(const json& entry) { return entry.value("device_type", "") == "CPU"; }

// Whether one of the plugin's CPU kernels of the op allows the case's dtype: otherwise
// TensorFlow's own kernel ran in both processes and nothing of the plugin was judged.
bool CpuKernelPluginClaims(const json& entry, const std::string& dtype_name) {
  const auto dtype = DtypeFromName(dtype_name);
  for (const json& kernel : entry.value("plugin_cpu_kernels", json::array())) {
    const json types = kernel.value("types", json::array());
    if (types.empty()) return true;
    for (const json& type : types) {
      if (dtype && type.get<int>() == static_cast<int>(*dtype)) return true;
    }
  }
  return false;
}

// TensorFlow found no kernel of the plugin for this (op, dtype), or placed the op elsewhere:
// the plugin does not claim it, which is not a disagreement.
bool NotOnDevice(const json& on_plugin, const json& on_cpu) {
  if (on_plugin.contains("error")) {
    const std::string message = on_plugin["error"].value("message", "");
    return message.find("No registered") != std::string::npos ||
           message.find("Could not find device for node") != std::string::npos ||
           message.find("Could not satisfy device specification") != std::string::npos ||
           message.find("not supported on device") != std::string::npos;
  }
  return on_cpu.contains("backing_device") &&
         on_plugin.value("backing_device", "") == on_cpu.value("backing_device", "");
}

Tolerance ToleranceOf(const json& kernel_case) {
  const json& tolerance = kernel_case.at("tolerance");
  return {tolerance.value("rtol", 0.0), tolerance.value("atol", 0.0),
          tolerance.value("ulp", std::uint64_t{0})};
}

// The case's inputs as a reader reproduces them: each input's dtype, shape and first values
// ("x: float [2,3] = 0.5, -1, nan, ..."); the exact bytes are in the case dump, made from the
// run's seed (details "seed").
std::string InputsText(const json& kernel_case) {
  constexpr std::int64_t kShownValues = 8;
  std::string text;
  for (const json& input : kernel_case.value("inputs", json::array())) {
    // A case's inputs name their dtype (case_json.h), the driver's outputs number it.
    const auto dtype = DtypeFromName(input.value("dtype", ""));
    if (dtype == TF_STRING && input.contains("strings") && input.contains("shape")) {
      const HostTensor tensor =
          StringTensor(StringsFromJson(input["strings"]), input["shape"].get<core::Shape>());
      text += (text.empty() ? "" : "; ") + input.value("name", std::string("input")) + ": string " +
              json(tensor.shape).dump() + " = " + ElementsString(tensor, 0, kShownValues);
      continue;
    }
    if (!dtype || !input.contains("hex") || !input.contains("shape")) continue;
    HostTensor tensor;
    tensor.dtype = *dtype;
    tensor.shape = input.at("shape").get<core::Shape>();
    tensor.bytes = BytesFromHex(input.at("hex").get<std::string>());
    text += (text.empty() ? "" : "; ") + input.value("name", std::string("input")) + ": " +
            DtypeName(tensor.dtype) + " " + json(tensor.shape).dump() + " =";
    const std::int64_t shown = std::min(tensor.NumElements(), kShownValues);
    for (std::int64_t i = 0; i < shown; ++i) {
      text += (i == 0 ? " " : ", ") + ElementString(tensor, i);
    }
    if (tensor.NumElements() > shown) {
      text += ", ... (" + std::to_string(tensor.NumElements()) + " elements)";
    }
  }
  return text;
}

// What a value failure states, as the kernel tier's do: the worst element, its distance in ULP
// and relative terms, the tolerance it was held to, and how to reproduce the case.
void ValueDetails(const json& kernel_case, const Mismatch& mismatch, TF_DataType dtype,
                  std::map<std::string, std::string>& details) {
  const ValueDistance distance = MeasureDistance(dtype, mismatch.expected, mismatch.actual);
  details["index"] = mismatch.index;
  details["expected"] = ValueString(dtype, mismatch.expected);
  details["actual"] = ValueString(dtype, mismatch.actual);
  details["mismatched_elements"] = std::to_string(mismatch.mismatched);
  details["tolerance"] = ToleranceText(ToleranceOf(kernel_case));
  details["distance"] = DistanceText(distance);
  if (distance.ulp) details["ulp_distance"] = std::to_string(*distance.ulp);
  if (distance.relative) {
    char relative[32];
    std::snprintf(relative, sizeof relative, "%.6g", *distance.relative);
    details["relative_distance"] = relative;
  }
}

// A value failure as each comparison states it: "<where>N of M element(s) <how>; worst at
// [i]: <actual>, TensorFlow's CPU gives <expected> (<distance>; tolerance <t>)", from the
// details ValueDetails filled.
std::string ValueFailureText(const std::string& where, const Mismatch& mismatch,
                             std::int64_t elements, const std::string& how,
                             std::map<std::string, std::string>& found) {
  return where + std::to_string(mismatch.mismatched) + " of " + std::to_string(elements) +
         " element(s) " + how + "; worst at " + mismatch.index + ": " + found["actual"] +
         ", TensorFlow's CPU gives " + found["expected"] + " (" + found["distance"] +
         "; tolerance " + found["tolerance"] + ")";
}

// Why the plugin's device result is not TensorFlow's CPU result; nullopt when it is. A value
// difference also fills `details` (ValueDetails) when given.
std::optional<std::string> Disagreement(const json& kernel_case, const json& on_plugin,
                                        const json& on_cpu,
                                        std::map<std::string, std::string>* details = nullptr) {
  const bool plugin_failed = on_plugin.contains("error");
  const bool cpu_failed = on_cpu.contains("error");
  if (plugin_failed || cpu_failed) {
    if (plugin_failed && cpu_failed &&
        on_plugin["error"].value("code", -1) == on_cpu["error"].value("code", -2)) {
      return std::nullopt;
    }
    return "on the plugin's device " +
           (plugin_failed ? StatusText(on_plugin["error"]) : std::string("it computes")) +
           "; on TensorFlow's CPU " +
           (cpu_failed ? StatusText(on_cpu["error"]) : std::string("it computes"));
  }
  const json& plugin_outputs = on_plugin.at("outputs");
  const json& cpu_outputs = on_cpu.at("outputs");
  if (plugin_outputs.size() != cpu_outputs.size()) {
    return std::to_string(plugin_outputs.size()) + " outputs on the plugin's device, " +
           std::to_string(cpu_outputs.size()) + " on TensorFlow's CPU";
  }
  const json no_outputs = json::array();
  const json& declared = kernel_case.contains("outputs") ? kernel_case["outputs"] : no_outputs;
  for (std::size_t i = 0; i < cpu_outputs.size(); ++i) {
    // A family's unjudged output (a reserve space the device fills its own way): not compared.
    if (i < declared.size() && declared[i].value("unjudged", false)) continue;
    const HostTensor expected = TensorOf(cpu_outputs[i]);
    const HostTensor actual = TensorOf(plugin_outputs[i]);
    const std::string output = "output " + std::to_string(i) + ": ";
    if (actual.dtype != expected.dtype) {
      return output + "dtype " + DtypeName(actual.dtype) + ", TensorFlow's CPU gives " +
             DtypeName(expected.dtype);
    }
    if (actual.shape != expected.shape) {
      return output + "shape " + json(actual.shape).dump() + ", TensorFlow's CPU gives " +
             json(expected.shape).dump();
    }
    // Values the op leaves undefined (FakeParam's): its dtype and shape are the result.
    if (i < declared.size() && declared[i].value("values_undefined", false)) continue;
    if (expected.dtype == TF_STRING) {  // text is right or wrong: compared exactly
      if (const auto mismatch = CompareStrings(expected, actual)) {
        std::map<std::string, std::string> found = {{"index", mismatch->index},
                                                    {"expected", QuotedString(mismatch->expected)},
                                                    {"actual", QuotedString(mismatch->actual)}};
        std::string why = output + std::to_string(mismatch->mismatched) + " of " +
                          std::to_string(expected.NumElements()) + " string(s) differ; first at " +
                          mismatch->index + ": " + found["actual"] + ", TensorFlow's CPU gives " +
                          found["expected"];
        if (details != nullptr) *details = std::move(found);
        return why;
      }
      continue;
    }
    // A quantized output and its range (outputs i+1 and i+2): the floats they stand for.
    if (IsQuantized(expected.dtype) && i + 2 < cpu_outputs.size()) {
      const HostTensor expected_min = TensorOf(cpu_outputs[i + 1]);
      const HostTensor expected_max = TensorOf(cpu_outputs[i + 2]);
      const HostTensor actual_min = TensorOf(plugin_outputs[i + 1]);
      const HostTensor actual_max = TensorOf(plugin_outputs[i + 2]);
      if (IsRangeOf(expected, expected_min, expected_max) &&
          IsRangeOf(actual, actual_min, actual_max)) {
        if (auto mismatch = CompareDequantized({expected, expected_min, expected_max},
                                               {actual, actual_min, actual_max})) {
          std::map<std::string, std::string> found;
          ValueDetails(kernel_case, *mismatch, TF_DOUBLE, found);
          found["tolerance"] = "one quantization step of either range";
          std::string why =
              ValueFailureText("outputs " + std::to_string(i) + " to " + std::to_string(i + 2) +
                                   " (a quantized tensor and its range): ",
                               *mismatch, expected.NumElements(), "stand for other values", found);
          if (details != nullptr) *details = std::move(found);
          return why;
        }
        i += 2;  // the range is judged with the values it encodes
        continue;
      }
    }
    if (auto mismatch = CompareValues(expected, actual, ToleranceOf(kernel_case))) {
      std::map<std::string, std::string> found;
      ValueDetails(kernel_case, *mismatch, actual.dtype, found);
      std::string why = ValueFailureText(output, *mismatch, expected.NumElements(),
                                         "outside the case's tolerance", found);
      if (details != nullptr) *details = std::move(found);
      return why;
    }
  }
  return std::nullopt;
}

// Filed under the kernel tier's own root cause for the same defect (compute_func: wrong values,
// or a status that differs), so a kernel both oracles catch is one root cause, not two.
CheckResult FailureOf(const json& kernel_case, const std::string& message, bool values,
                      bool cpu_kernel_plugin, const std::map<std::string, std::string>& details,
                      std::uint64_t seed, const OracleWords& words = {}) {
  const std::string op = kernel_case.value("op", "");
  CheckResult result;
  result.id = InTensorFlowCheckId(kernel_case.value("id", ""));
  result.outcome = Outcome::kFail;
  result.message =
      words.where + ", the plugin's " + op + (cpu_kernel_plugin ? " CPU kernel (" : " kernel (") +
      kernel_case.value("dtype", "") + ", case " + kernel_case.value("scenario", "") +
      ") disagrees with " + words.oracle +
      (cpu_kernel_plugin ? " (run in a process without the plugin): " : ": ") + message;
  result.details = details;
  result.details[kFailingCallKey] = "compute_func";
  result.details[kProblemKey] =
      values ? "wrong values" : "status differs from TensorFlow's CPU kernel";
  result.details["kernel"] = op;
  // How to reproduce it: the run's seed makes the same inputs (--seed), shown here too.
  result.details["seed"] = std::to_string(seed);
  result.details["case"] =
      kernel_case.value("id", "") + " shape entry " +
      std::to_string(kernel_case.value("shape_index", 0)) +
      (kernel_case.contains("variant") ? " (" + kernel_case.value("variant", "") + ")"
                                       : std::string());
  result.details["inputs"] = InputsText(kernel_case);
  if (kernel_case.contains("declared_precision")) {
    result.details["declared_precision"] = kernel_case.value("declared_precision", "");
  }
  return result;
}

// The process inside TensorFlow died running this case (the driver names the case it started):
// a crash (or timeout) of the op's kernel, under `id`.
CheckResult DiedResult(const json& kernel_case, const json& died, const std::string& id) {
  const bool timed_out = died.value("timed_out", false);
  CheckResult result;
  result.id = id;
  if (timed_out && !died.value("stalled", false)) {
    // The session's allowance ran out while this case ran, inside its own limit: the session's
    // timeout (runtime.session.in_tensorflow), not this kernel's.
    result.outcome = Outcome::kSkipped;
    result.message =
        "not judged: the plugin's session inside the installed TensorFlow ran out "
        "of its allowance (" +
        std::to_string(died.value("limit_ms", 0)) +
        " ms) while this case ran within its own limit (--timeout); "
        "runtime.session.in_tensorflow says so";
    return result;
  }
  result.outcome = timed_out ? Outcome::kTimeout : Outcome::kCrash;
  result.message =
      "inside the installed TensorFlow, the process " +
      (timed_out ? std::string("timed out")
                 : "died (signal " + std::to_string(died.value("signal", 0)) + ", exit code " +
                       std::to_string(died.value("exit_code", 0)) + ")") +
      " running the plugin's " + kernel_case.value("op", "") + " kernel (" +
      kernel_case.value("dtype", "") + ", case " +
      kernel_case.value("variant", kernel_case.value("scenario", "")) +
      "); the cases after it did not run";
  result.details[kFailingCallKey] = "compute_func";
  result.details[kProblemKey] = timed_out ? "hangs inside TensorFlow" : "dies inside TensorFlow";
  result.details["kernel"] = kernel_case.value("op", "");
  return result;
}

// What the cases of one generated cell came to.
struct GeneratedCell {
  const json* first_case = nullptr;
  // shape_index -> (case, what the driver reported), filled first, judged once all are in.
  std::map<int, std::pair<const json*, const json*>> ran;
  int agreed = 0, disagreed = 0, rejected = 0, not_on_device = 0, flushed = 0;
  std::string rejection;                   // TensorFlow's CPU status for the first case it rejected
  std::string disagreement;                // the first disagreement, with its case's variant
  bool values = true;                      // whether that disagreement is in values (not a status)
  const json* disagreeing_case = nullptr;  // the case of that disagreement
  std::map<std::string, std::string> details;  // its value details (ValueDetails)
  const json* died = nullptr;      // the driver's `died`, when the process died in one of its cases
  bool cpu_kernel_plugin = false;  // its cases ran as a CPU kernel plugin's (RanAsCpuKernelPlugin)
  std::string cpu_untrusted;       // why TensorFlow's CPU was no oracle for its denormals case
  // Cases that differ from TensorFlow's CPU but agree with its run in float64 (the record's
  // `float64`: an op whose half and bfloat16 sums a release computes its own way), the first.
  int float64_agreed = 0;
  std::string float64_case;
};

// TensorFlow's CPU kernels flush denormal inputs to zero: when its result for the denormals
// case equals its result for the same case with zeros (the companion case), it computed
// nothing a device keeping denormals could be held to.
bool CpuFlushedDenormals(const json& entry, const GeneratedCell& cell, const json& kernel_case) {
  if (!kernel_case.contains("flushed_companion")) return false;
  const auto companion = cell.ran.find(kernel_case.at("flushed_companion").get<int>());
  if (companion == cell.ran.end()) return false;
  const json& flushed = *companion->second.second;
  return entry.contains("cpu") && flushed.contains("cpu") && entry["cpu"].contains("outputs") &&
         flushed["cpu"].contains("outputs") && entry["cpu"]["outputs"] == flushed["cpu"]["outputs"];
}

}  // namespace

json RoundedTo(const json& result, TF_DataType dtype) {
  json rounded = result;
  for (json& output : rounded["outputs"]) {
    // An output of another dtype (the record's, rounded when recorded) is left as it is, undecoded.
    if (output.value("dtype", -1) != static_cast<int>(TF_DOUBLE)) continue;
    const HostTensor wide = TensorOf(output);
    HostTensor narrow{dtype, wide.shape,
                      std::vector<std::uint8_t>(static_cast<std::size_t>(wide.NumElements()) *
                                                ElementSize(dtype))};
    for (std::int64_t i = 0; i < wide.NumElements(); ++i)
      WriteElement(dtype, narrow.bytes.data(), i, wide.At(i));
    output["dtype"] = static_cast<int>(dtype);
    output.erase("every");  // the record's one element for all, now spelled out
    output["hex"] = Hex(narrow.bytes);
  }
  return rounded;
}

namespace {

// The float64 companion's CPU result rounded to the case's dtype; nullopt without one.
std::optional<json> Float64Result(const GeneratedCell& cell, const json& kernel_case) {
  if (!kernel_case.contains("float64_companion")) return std::nullopt;
  const auto companion = cell.ran.find(kernel_case.at("float64_companion").get<int>());
  if (companion == cell.ran.end()) return std::nullopt;
  const json& wide = *companion->second.second;
  if (!wide.contains("cpu") || !wide["cpu"].contains("outputs")) return std::nullopt;
  const auto dtype = DtypeFromName(kernel_case.value("dtype", ""));
  if (!dtype) return std::nullopt;
  return RoundedTo(wide["cpu"], *dtype);
}

// Where TensorFlow's CPU result is outside the case's tolerance of float64's, rounded: "at
// [0]: TensorFlow's CPU gives 103.972, float64 103.279"; nullopt when within it, or when either
// failed (then the CPU is judged as every other case's).
std::optional<std::string> CpuOffFloat64(const json& kernel_case, const json& cpu,
                                         const json& wide) {
  if (!cpu.contains("outputs") || !wide.contains("outputs") ||
      cpu["outputs"].size() != wide["outputs"].size())
    return std::nullopt;
  for (std::size_t i = 0; i < cpu["outputs"].size(); ++i) {
    const HostTensor actual = TensorOf(cpu["outputs"][i]);
    const HostTensor expected = TensorOf(wide["outputs"][i]);
    if (actual.dtype != expected.dtype || actual.shape != expected.shape) return std::nullopt;
    if (auto mismatch = CompareValues(expected, actual, ToleranceOf(kernel_case))) {
      return "output " + std::to_string(i) + " at " + mismatch->index +
             ": TensorFlow's CPU gives " + ValueString(actual.dtype, mismatch->actual) +
             ", float64 " + ValueString(expected.dtype, mismatch->expected);
    }
  }
  return std::nullopt;
}

// Where TensorFlow's CPU neither flushed the denormals case's inputs nor agrees with float64,
// it is no oracle for the case: the plugin's result stands if it is float64's (an exact device)
// or the CPU's for zeros (a flushing one). Why the CPU was untrusted goes to `cell`; nullopt when
// the CPU is an oracle here and the case is judged as every other.
std::optional<bool> JudgedAgainstFloat64(const json& entry, GeneratedCell& cell,
                                         const json& kernel_case) {
  const std::optional<json> wide = Float64Result(cell, kernel_case);
  if (!wide) return std::nullopt;
  const std::optional<std::string> off = CpuOffFloat64(kernel_case, entry["cpu"], *wide);
  if (!off) return std::nullopt;
  if (cell.cpu_untrusted.empty()) cell.cpu_untrusted = *off;
  if (!Disagreement(kernel_case, entry["plugin"], *wide)) return true;
  const auto flushed = cell.ran.find(kernel_case.at("flushed_companion").get<int>());
  return flushed != cell.ran.end() && flushed->second.second->contains("cpu") &&
         !Disagreement(kernel_case, entry["plugin"], (*flushed->second.second)["cpu"]);
}

void Tally(GeneratedCell& cell, const json& kernel_case, const json& entry) {
  const std::string variant = kernel_case.value("variant", "");
  cell.cpu_kernel_plugin = cell.cpu_kernel_plugin || RanAsCpuKernelPlugin(entry);
  if (entry.contains("died")) {
    cell.died = &entry["died"];
    cell.first_case = &kernel_case;  // the case it died in, for the message
    return;
  }
  if (entry.contains("unsupported") || !entry.contains("cpu")) {
    ++cell.rejected;
    if (cell.rejection.empty()) cell.rejection = variant + ": " + entry.value("unsupported", "");
    return;
  }
  // A case of the op's error path (its family's `cpu_status`: CheckNumerics on a NaN) is
  // judged by its status; any other case TensorFlow's CPU refuses has inputs that do not relate.
  if (entry["cpu"].contains("error") && !kernel_case.contains("cpu_status")) {
    ++cell.rejected;
    if (cell.rejection.empty()) cell.rejection = variant + ": " + StatusText(entry["cpu"]["error"]);
    return;
  }
  // A CPU kernel plugin's cases ran on TensorFlow's CPU device with and without it: its own
  // kernel ran when one of its CPU kernels claims the dtype, as for its scenario cases.
  const bool not_the_plugins = RanAsCpuKernelPlugin(entry)
                                   ? !CpuKernelPluginClaims(entry, kernel_case.value("dtype", ""))
                                   : NotOnDevice(entry["plugin"], entry["cpu"]);
  if (not_the_plugins) {
    ++cell.not_on_device;
    return;
  }
  std::map<std::string, std::string> details;
  if (auto why = Disagreement(kernel_case, entry["plugin"], entry["cpu"], &details)) {
    if (CpuFlushedDenormals(entry, cell, kernel_case)) {
      ++cell.flushed;
      return;
    }
    if (entry.contains("float64") && entry["float64"].contains("outputs")) {
      // The record's run is rounded already (RoundedTo leaves it); the installed TensorFlow's
      // comes back in double.
      const auto dtype = DtypeFromName(kernel_case.value("dtype", ""));
      const json wide = dtype ? RoundedTo(entry["float64"], *dtype) : entry["float64"];
      if (!Disagreement(kernel_case, entry["plugin"], wide)) {
        ++cell.agreed;
        if (cell.float64_agreed++ == 0) cell.float64_case = variant;
        return;
      }
      *why += "; nor does it agree with the same case run in float64";
    }
    if (const std::optional<bool> right = JudgedAgainstFloat64(entry, cell, kernel_case)) {
      if (*right) {
        ++cell.agreed;
        return;
      }
      *why += "; TensorFlow's CPU is no oracle for this case (" + cell.cpu_untrusted +
              "), and the plugin's result is neither float64's nor the CPU's for zeros";
    }
    ++cell.disagreed;
    if (cell.disagreement.empty()) {
      cell.disagreement = "case " + variant + ": " + *why;
      cell.values = !entry["plugin"].contains("error") && !entry["cpu"].contains("error");
      cell.disagreeing_case = &kernel_case;
      cell.details = std::move(details);
    }
    return;
  }
  ++cell.agreed;
}

CheckResult GeneratedResult(const std::string& id, const GeneratedCell& cell, std::uint64_t seed,
                            const OracleWords& words) {
  const json& kernel_case = *cell.first_case;
  if (cell.died != nullptr) return DiedResult(kernel_case, *cell.died, id);
  if (!cell.disagreement.empty()) {
    CheckResult failure = FailureOf(
        cell.disagreeing_case != nullptr ? *cell.disagreeing_case : kernel_case, cell.disagreement,
        cell.values, cell.cpu_kernel_plugin, cell.details, seed, words);
    failure.id = id;
    return failure;
  }
  CheckResult result;
  result.id = id;
  const std::string what = "the plugin's " + kernel_case.value("op", "") + " kernel (" +
                           kernel_case.value("dtype", "") + ")";
  if (cell.agreed > 0) {
    result.outcome = Outcome::kPass;
    result.message =
        words.where + ", " + what + " agrees with " + words.oracle + " on " +
        std::to_string(cell.agreed) + " generated case(s)" +
        (cell.rejected > 0 ? "; " + std::to_string(cell.rejected) +
                                 " rejected by TensorFlow's CPU, first " + cell.rejection
                           : std::string()) +
        (cell.flushed > 0 ? "; the denormals case differs only because TensorFlow's "
                            "CPU flushes denormal inputs to zero (not judged)"
                          : std::string()) +
        (cell.cpu_untrusted.empty()
             ? std::string()
             : "; the denormals case judged against float64, TensorFlow's CPU being no oracle "
               "there (" +
                   cell.cpu_untrusted + ")") +
        (cell.float64_agreed == 0
             ? std::string()
             : "; " + std::to_string(cell.float64_agreed) +
                   (cell.float64_agreed == 1 ? " of them agrees" : " of them agree") +
                   " with the case run in float64 instead, first " + cell.float64_case +
                   " (how a " + kernel_case.value("dtype", "") +
                   " sum is accumulated is each release's choice)");
  } else if (cell.not_on_device > 0) {
    result.outcome = Outcome::kNotSupported;
    result.message = cell.cpu_kernel_plugin
                         ? "none of the plugin's CPU kernels claims the generated cases of " +
                               what +
                               ": TensorFlow's own CPU kernel ran them with and without the plugin"
                         : "TensorFlow ran none of the generated cases of " + what +
                               " on the plugin's device (no kernel it would pick for them)";
  } else {
    result.outcome = Outcome::kSkipped;
    result.message = "TensorFlow's CPU kernel rejects every generated case of " + what +
                     ", so there is nothing to compare; first " + cell.rejection;
  }
  return result;
}

CheckResult NotGenerated(const json& cell) {
  CheckResult result;
  result.id = cell.value("id", "");
  result.outcome = Outcome::kNotSupported;
  result.message = "no cases generated for " + cell.value("op", "") + " (" +
                   cell.value("dtype", "") + "): " + cell.value("reason", "");
  return result;
}

// One result per generated cell that ran, and per cell whose cases could not be generated; the
// summary counts them and marks the cells "generated" (agrees), "disagrees", "rejected_by_cpu"
// or "not_on_device".
void JudgeGenerated(std::map<std::string, GeneratedCell>& generated,
                    const std::vector<std::string>& order, const json& cases,
                    CpuOracleJudgement& judgement, const OracleWords& words = {}) {
  json& summary = judgement.summary;
  summary["generated"] = {{"cells", 0}, {"agree", 0}, {"disagree", 0}, {"not_generated", 0}};
  json& counts = summary["generated"];
  for (const std::string& id : order) {
    GeneratedCell& cell = generated.at(id);
    for (const auto& [index, ran] : cell.ran) {
      // A companion is only an expectation of another case, unless the process died in it.
      if (ran.first->value("companion", false) && !ran.second->contains("died")) continue;
      Tally(cell, *ran.first, *ran.second);
    }
    CheckResult result = GeneratedResult(id, cell, cases.value("seed", std::uint64_t{0}), words);
    const json& first = *cell.first_case;
    json& state = summary["cells"][first.value("op", "")][first.value("dtype", "")];
    counts["cells"] = counts["cells"].get<int>() + 1;
    summary["compared"] = summary["compared"].get<int>() + cell.agreed + cell.disagreed;
    summary["agree"] = summary["agree"].get<int>() + cell.agreed;
    if (result.outcome == Outcome::kCrash || result.outcome == Outcome::kTimeout) {
      state = "dies";
      counts["disagree"] = counts["disagree"].get<int>() + 1;
      summary["disagreements"].push_back({{"id", id},
                                          {"op", first.value("op", "")},
                                          {"dtype", first.value("dtype", "")},
                                          {"scenario", first.value("scenario", "")},
                                          {"message", result.message}});
    } else if (result.outcome == Outcome::kFail) {
      state = "disagrees";
      counts["disagree"] = counts["disagree"].get<int>() + 1;
      summary["disagreements"].push_back({{"id", id},
                                          {"op", first.value("op", "")},
                                          {"dtype", first.value("dtype", "")},
                                          {"scenario", first.value("scenario", "")},
                                          {"message", cell.disagreement}});
    } else if (result.outcome == Outcome::kPass) {
      // A family's cases also run for a cell a scenario covers: agreeing, they leave the
      // scenario's state ("agrees", or its disagreement) as it is.
      if (state.is_null()) state = "generated";
      counts["agree"] = counts["agree"].get<int>() + 1;
    } else if (state.is_null()) {
      state = result.outcome == Outcome::kSkipped ? "rejected_by_cpu" : "not_on_device";
    }
    judgement.generated.push_back(std::move(result));
  }
  for (const json& cell : cases.value("not_generated", json::array())) {
    counts["not_generated"] = counts["not_generated"].get<int>() + 1;
    judgement.generated.push_back(NotGenerated(cell));
  }
}

// How the shapes of one scenario case id that did not fail came out.
struct CaseTally {
  const json* kernel_case = nullptr;
  int agreed = 0, not_on_device = 0, unsupported = 0;
  std::string unsupported_reason;
};

CheckResult AgreementOf(const CaseTally& tally) {
  const json& kernel_case = *tally.kernel_case;
  CheckResult result;
  result.id = InTensorFlowCheckId(kernel_case.value("id", ""));
  const std::string what = "the plugin's " + kernel_case.value("op", "") + " kernel (" +
                           kernel_case.value("dtype", "") + ", case " +
                           kernel_case.value("scenario", "") + ")";
  if (tally.agreed > 0) {
    result.outcome = Outcome::kPass;
    result.message = "inside the installed TensorFlow, " + what +
                     " agrees with TensorFlow's own CPU kernel on " + std::to_string(tally.agreed) +
                     " shape(s)";
  } else if (tally.not_on_device > 0) {
    result.outcome = Outcome::kNotSupported;
    result.message = "TensorFlow ran the case on none of the plugin's kernels (" + what +
                     " is not what it picks)";
  } else {
    result.outcome = Outcome::kSkipped;
    result.message = "TensorFlow could not run the case: " + tally.unsupported_reason;
  }
  return result;
}

// A case is its id (op, dtype, scenario) and its shape entry.
std::string CaseKey(const json& entry) {
  return entry.value("id", "") + "#" + std::to_string(entry.value("shape_index", 0));
}

json EmptySummary() {
  return {{"cases", 0},
          {"compared", 0},
          {"agree", 0},
          {"not_on_device", 0},
          {"unsupported", 0},
          {"disagreements", json::array()},
          {"cells", json::object()}};
}

}  // namespace

CpuOracleJudgement JudgeGeneratedCells(const json& cases, const json& ran,
                                       const OracleWords& words) {
  std::map<std::string, const json*> by_id;
  for (const json& kernel_case : cases.at("cases")) by_id[CaseKey(kernel_case)] = &kernel_case;
  std::map<std::string, GeneratedCell> generated;
  std::vector<std::string> order;
  CpuOracleJudgement judgement;
  judgement.summary = EmptySummary();
  for (const json& entry : ran) {
    const auto found = by_id.find(CaseKey(entry));
    if (found == by_id.end()) continue;
    const json& kernel_case = *found->second;
    judgement.summary["cases"] = judgement.summary["cases"].get<int>() + 1;
    auto [cell, added] = generated.try_emplace(kernel_case.value("id", ""));
    if (added) order.push_back(cell->first);
    if (cell->second.first_case == nullptr) cell->second.first_case = &kernel_case;
    cell->second.ran[kernel_case.value("shape_index", 0)] = {&kernel_case, &entry};
  }
  JudgeGenerated(generated, order, cases, judgement, words);
  return judgement;
}

CpuOracleJudgement JudgeAgainstTensorFlowCpu(const json& cases, const json& ran) {
  const auto key = CaseKey;
  std::map<std::string, const json*> by_id;
  for (const json& kernel_case : cases.at("cases")) by_id[key(kernel_case)] = &kernel_case;
  std::set<std::string> failed_ids;  // one failed result per case id: its first shape's
  std::map<std::string, GeneratedCell> generated;
  std::vector<std::string> generated_order;
  std::map<std::string, CaseTally> tallies;  // scenario case id -> its shapes that did not fail
  std::vector<std::string> tally_order;
  CpuOracleJudgement judgement;
  json& summary = judgement.summary;
  summary = EmptySummary();
  for (const json& entry : ran) {
    const auto found = by_id.find(key(entry));
    if (found == by_id.end()) continue;
    const json& kernel_case = *found->second;
    summary["cases"] = summary["cases"].get<int>() + 1;
    if (kernel_case.value("generated", false)) {
      auto [cell, added] = generated.try_emplace(kernel_case.value("id", ""));
      if (added) generated_order.push_back(cell->first);
      if (cell->second.first_case == nullptr) cell->second.first_case = &kernel_case;
      cell->second.ran[kernel_case.value("shape_index", 0)] = {&kernel_case, &entry};
      continue;
    }
    json& cell = summary["cells"][kernel_case.value("op", "")][kernel_case.value("dtype", "")];
    auto [tally, added] = tallies.try_emplace(kernel_case.value("id", ""));
    if (added) tally_order.push_back(tally->first);
    tally->second.kernel_case = &kernel_case;
    if (entry.contains("died")) {
      failed_ids.insert(kernel_case.value("id", ""));
      CheckResult died =
          DiedResult(kernel_case, entry["died"], kernel_case.value("id", "") + ".in_tensorflow");
      if (died.outcome == Outcome::kSkipped) {  // the session's timeout, not the kernel's
        judgement.failures.push_back(std::move(died));
        continue;
      }
      cell = "dies";
      summary["disagreements"].push_back({{"id", kernel_case.value("id", "")},
                                          {"op", kernel_case.value("op", "")},
                                          {"dtype", kernel_case.value("dtype", "")},
                                          {"scenario", kernel_case.value("scenario", "")},
                                          {"message", died.message}});
      judgement.failures.push_back(std::move(died));
      continue;
    }
    if (entry.contains("unsupported") || !entry.contains("plugin") || !entry.contains("cpu")) {
      summary["unsupported"] = summary["unsupported"].get<int>() + 1;
      ++tally->second.unsupported;
      if (tally->second.unsupported_reason.empty())
        tally->second.unsupported_reason = entry.value("unsupported", "no result");
      continue;
    }
    const bool cpu_kernel_plugin = RanAsCpuKernelPlugin(entry);
    if (cpu_kernel_plugin) summary["cpu_kernel_plugin"] = true;
    if (cpu_kernel_plugin ? !CpuKernelPluginClaims(entry, kernel_case.value("dtype", ""))
                          : NotOnDevice(entry["plugin"], entry["cpu"])) {
      summary["not_on_device"] = summary["not_on_device"].get<int>() + 1;
      if (cell.is_null()) cell = "not_on_device";
      ++tally->second.not_on_device;
      continue;
    }
    summary["compared"] = summary["compared"].get<int>() + 1;
    std::map<std::string, std::string> details;
    if (auto why = Disagreement(kernel_case, entry["plugin"], entry["cpu"], &details)) {
      cell = "disagrees";
      summary["disagreements"].push_back({{"id", kernel_case.value("id", "")},
                                          {"op", kernel_case.value("op", "")},
                                          {"dtype", kernel_case.value("dtype", "")},
                                          {"scenario", kernel_case.value("scenario", "")},
                                          {"message", *why}});
      if (failed_ids.insert(kernel_case.value("id", "")).second) {
        const bool values = !entry["plugin"].contains("error") && !entry["cpu"].contains("error");
        judgement.failures.push_back(FailureOf(kernel_case, *why, values, cpu_kernel_plugin,
                                               details, cases.value("seed", std::uint64_t{0})));
      }
      continue;
    }
    summary["agree"] = summary["agree"].get<int>() + 1;
    if (cell.is_null() || cell == "not_on_device") cell = "agrees";
    ++tally->second.agreed;
  }
  for (const std::string& id : tally_order) {
    if (!failed_ids.contains(id)) judgement.agreements.push_back(AgreementOf(tallies.at(id)));
  }
  JudgeGenerated(generated, generated_order, cases, judgement);
  return judgement;
}

}  // namespace conformance::kernels
