#include "sample_report.h"

namespace conformance::testing {
namespace {

CheckResult Result(std::string id, Outcome outcome, std::string message = "") {
  CheckResult result;
  result.id = std::move(id);
  result.outcome = outcome;
  result.message = std::move(message);
  result.seconds = 0.0125;
  return result;
}

}  // namespace

RunReport SampleReport() {
  RunReport report;
  report.tool_version = "0.1.0";
  report.plugin_path = "/plugins/lib<weird>&\"plugin\".so";
  report.co_loaded_plugins = {"/plugins/libother.so"};
  report.profile = "tf2.15";
  report.seed = 18446744073709551615ULL;  // largest seed: must survive JSON exactly
  report.tiers = {"load", "runtime", "kernels"};
  report.filter = "load.*:runtime.*-*.slow";
  report.shard = ShardSpec{1, 3};
  report.jobs = 2;
  report.timeout_ms = 10000;
  report.isolation = true;
  report.started_at = "2026-11-21T10:42:01Z";
  report.wall_seconds = 3.25;
  report.host = HostInfo{"Linux", "ci-runner", "6.1.0", "#1 SMP", "x86_64"};
  report.warnings = {"w.yaml:3:3: waiver 'graph.*' matches no selected check"};
  report.tensorflow_verdict = nlohmann::json{{"tf2.15", "loads"}, {"tf2.12", "rejected"}};
  report.header_generation = "tf2.15 (SP_StreamExecutor 288)";

  report.results.push_back(Result("load.library.dlopen", Outcome::kPass));

  CheckResult fail = Result("load.se.platform.name_regex", Outcome::kFail,
                            "Platform name \"my<gpu>\" & 'x' must match [A-Z][A-Z_]*\n"
                            "second line\twith tab\rand CR");
  fail.tf_code = 9;
  fail.details = {{"expected", "[A-Z][A-Z_]*"}, {"actual", "my<gpu>"}};
  report.results.push_back(fail);

  report.results.push_back(Result("load.se.struct_size.unset", Outcome::kWarning,
                                  "struct_size never written (TensorFlow accepts it)"));
  report.results.push_back(
      Result("load.graph.present", Outcome::kNotSupported, "no TF_InitGraph exported"));

  CheckResult crash = Result("runtime.memcpy.htod.unaligned", Outcome::kCrash,
                             "plugin crashed: control \x01\x02\x1b[31m chars, bad UTF-8 \xff\xfe, "
                             "non-BMP \xf0\x9f\x98\x80, U+FFFE \xef\xbf\xbe, ]]> end");
  crash.crash = CrashInfo{"SIGSEGV",
                          "SP_StreamExecutor.memcpy_htod",
                          {"#0 memcpy_htod (libplugin.so+0x1234)", "#1 <harness> & more"}};
  crash.details = {{"seed", "42"}, {"failing_call", "memcpy_htod"}, {"problem", "crashed"}};
  crash.plugin_output = "plugin: init <dev0> & go\nplugin: second line\n";
  report.results.push_back(crash);

  CheckResult timeout = Result("runtime.stream.sync", Outcome::kTimeout, "no answer");
  timeout.crash = CrashInfo{"timeout after 10000 ms", "SP_StreamExecutor.block_host_for_event", {}};
  // Same root cause as the crash above: reports list it once, with both checks.
  timeout.details = {{"failing_call", "memcpy_htod"}, {"problem", "crashed"}};
  report.results.push_back(timeout);

  CheckResult waived = Result("runtime.event.state", Outcome::kWaived, "event stuck in pending");
  waived.waiver_reason = "vendor ticket <1234>";
  report.results.push_back(waived);

  CheckResult stale = Result("kernel.AddV2.float.broadcast", Outcome::kUnexpectedPass,
                             "passed although waived (w.yaml:1:3)");
  stale.waiver_reason = "broadcast bug";
  report.results.push_back(stale);

  report.results.push_back(Result("kernel.AddV2.float.edge", Outcome::kSkipped,
                                  "prerequisite load.se.platform.name_regex did not pass"));
  report.results.push_back(Result("single", Outcome::kPass));  // id without a dot
  for (CheckResult& result : report.results) {
    if (result.id.starts_with("load.")) result.tier = "load";  // as the run layer sets it
  }
  return report;
}

RunReport KernelSampleReport() {
  RunReport report;
  report.tool_version = "0.1.0";
  report.plugin_path = "/plugins/libkernels.so";
  report.profile = "newest";
  report.seed = 1;
  report.tiers = {"kernels"};
  report.started_at = "2026-11-21T10:42:01Z";
  const auto blamed = [&](std::string id, Outcome outcome, const std::string& call,
                          const std::string& problem, const std::string& kernel) {
    CheckResult result = Result(std::move(id), outcome, "message of " + kernel);
    result.details = {{"failing_call", call}, {"problem", problem}, {"kernel", kernel}};
    result.tier = "kernels";
    report.results.push_back(result);
  };
  blamed("kernel.Relu.float.special_values", Outcome::kFail, "compute_func", "wrong values",
         "Relu");
  blamed("kernel.MatMul.float.basic", Outcome::kFail, "compute_func", "wrong values", "MatMul");
  blamed("kernel.Relu.half.special_values", Outcome::kFail, "compute_func", "wrong values", "Relu");
  // deallocate is the device's: kernel-tier checks of two ops name it, one root cause.
  blamed("kernel.Relu.inputs_released_at_enqueue", Outcome::kFail, "deallocate",
         "freed while queued work still reads it", "Relu");
  blamed("kernel.MatMul.inputs_released_at_enqueue", Outcome::kFail, "deallocate",
         "freed while queued work still reads it", "MatMul");
  report.results.push_back(Result("kernel.AddV2.float.basic", Outcome::kPass));
  report.registered_kernels = std::vector<RegisteredCell>{
      {"AddV2", "float", true},  {"Relu", "float", true},   {"Relu", "half", true},
      {"MatMul", "float", true}, {"Floor", "float", false}, {"Floor", "double", false}};
  return report;
}

CheckLookup SampleLookup() {
  static const CheckEntry tensorflow{"",
                                     "load",
                                     Origin::kTensorFlow,
                                     "names match [A-Z][A-Z_]*",
                                     "rejects the plugin",
                                     "rename the platform"};
  static const CheckEntry stricter{"",         "runtime",       Origin::kStricter,
                                   "rule <x>", "crashes later", "fix & retry"};
  return [](std::string_view id) -> const CheckEntry* {
    if (id == "single") return nullptr;  // not in the catalogue
    return id.starts_with("load.") ? &tensorflow : &stricter;
  };
}

}  // namespace conformance::testing
