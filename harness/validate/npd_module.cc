#include "validate/npd_module.h"

#include <cstddef>
#include <cstring>
#include <string>

#include "isolate/in_flight.h"
#include "tensorflow/core/common_runtime/next_pluggable_device/c/plugin_c_api.h"
#include "validate/tf_status.h"

namespace conformance::validate {

namespace {

// The head of a PJRT_Api, as far as TensorFlow reads it while loading the plugin: the table's
// size, the API version it checks against its own, and PJRT_Plugin_Initialize, which it then
// calls unchecked (the members between are the error functions).
struct PjrtApiHead {
  std::size_t struct_size;
  void* extension_start;
  struct {
    std::size_t struct_size;
    void* extension_start;
    int major_version;
    int minor_version;
  } pjrt_api_version;
  void* error_destroy;
  void* error_message;
  void* error_get_code;
  void* plugin_initialize;
};

// What the profile's release refuses in the table's head (Profile::pjrt_api, measured): its exact
// INVALID_ARGUMENT text, on which TensorFlow aborts while loading; empty when it accepts it.
std::string PjrtApiRefusal(const PjrtApiHead& head, const Profile::PjrtApiRule& rule) {
  const int major = head.pjrt_api_version.major_version;
  const int minor = head.pjrt_api_version.minor_version;
  if (rule.struct_size != 0 && head.struct_size != rule.struct_size) {
    // 2.13.1 has no API version to name (recorded: its text ends after "versions.").
    return "Unexpected PJRT_Api size: expected " + std::to_string(rule.struct_size) + ", got " +
           std::to_string(head.struct_size) + ". Check installed software versions." +
           (rule.framework.empty() ? ""
                                   : " The framework PJRT API version is " + rule.framework + ".");
  }
  if (rule.exact_minor >= 0 && (major != rule.major || minor != rule.exact_minor)) {
    return "Mismatched PJRT plugin PJRT API version (" + std::to_string(major) + "." +
           std::to_string(minor) + ") and framework PJRT API version " + rule.framework + ").";
  }
  if (rule.exact_minor < 0 && rule.major >= 0 && major != rule.major) {
    return "Mismatched PJRT plugin PJRT API major version (" + std::to_string(major) +
           ") and framework PJRT API major version " + std::to_string(rule.major) + ").";
  }
  if (rule.min_minor >= 0 && minor < rule.min_minor) {
    return "Plugin PJRT API version " + std::to_string(major) + "." + std::to_string(minor) +
           " is older than the minimum supported version " + std::to_string(rule.major) + "." +
           std::to_string(rule.min_minor);
  }
  return {};
}

// Returns whether the profile's release refuses the table's head (it aborts loading there).
bool CheckPjrtEntry(GetPjrtApiFn get_pjrt_api, const Profile& profile, CheckLog& log) {
  if (get_pjrt_api == nullptr) {
    log.Warn("load.npd.pjrt_entry",
             "the plugin exports TFNPD_InitPlugin but not GetPjrtApi: TensorFlow then registers no "
             "NextPluggableDevice and says nothing");
    return false;
  }
  log.Begin("load.npd.pjrt_entry");
  const void* api = nullptr;
  {
    in_flight::PluginCall call("GetPjrtApi");
    api = get_pjrt_api();
  }
  const auto fail = [&log](const std::string& message, const char* problem) {
    log.Fail(
        "load.npd.pjrt_entry", message, {},
        {{"tensorflow_outcome", "crash"}, {"failing_call", "GetPjrtApi"}, {"problem", problem}});
  };
  if (api == nullptr) {
    fail(
        "GetPjrtApi returned NULL: TensorFlow registers it as the device type's PJRT_Api and "
        "reads its version at once; the process dies (SIGSEGV, measured on 2.21.0)",
        "NULL api table");
    return false;
  }
  const auto* head = static_cast<const PjrtApiHead*>(api);
  // TensorFlow checks the head before it calls anything in the table: a refusal here is the
  // plugin's only failure in TensorFlow (2.15.1 refuses the fixtures' 584-byte table this way
  // even where PJRT_Plugin_Initialize is NULL).
  if (const std::string refusal = PjrtApiRefusal(*head, profile.pjrt_api); !refusal.empty()) {
    log.Fail("load.npd.pjrt_entry", refusal, TF_INVALID_ARGUMENT,
             {{"failing_call", "GetPjrtApi"},
              {"problem", "PJRT_Api struct_size or pjrt_api_version not accepted by TensorFlow " +
                              profile.releases}});
    return true;
  }
  if (head->struct_size < sizeof(PjrtApiHead) || head->plugin_initialize == nullptr) {
    fail("in the PJRT_Api GetPjrtApi returns, PJRT_Plugin_Initialize is NULL (or its struct_size " +
             std::to_string(head->struct_size) +
             " ends before it): TensorFlow calls it unchecked while loading the plugin; the "
             "process dies (SIGSEGV, measured on 2.21.0)",
         "callback not set");
    return false;
  }
  // The PJRT client behind the table, which TensorFlow creates with the first eager context, is
  // not judged without TensorFlow (--tensorflow runs it).
  log.Pass("load.npd.pjrt_entry",
           {{"pjrt_api_version", std::to_string(head->pjrt_api_version.major_version) + "." +
                                     std::to_string(head->pjrt_api_version.minor_version)}});
  return false;
}

}  // namespace

std::vector<std::string> NpdModuleCheckIds() {
  return {"load.npd.init", "load.npd.params.device_type", "load.npd.params.compilation_device_name",
          "load.npd.api",  "load.npd.api.struct_size",    "load.npd.pjrt_entry"};
}

void RunNpdModule(TfnpdInitPluginFn init, GetPjrtApiFn get_pjrt_api, const Profile& profile,
                  CheckLog& log) {
  if (init == nullptr) {
    for (const auto& id : NpdModuleCheckIds()) {
      log.NotSupported(id, "the plugin does not export TFNPD_InitPlugin");
    }
    return;
  }
  // As TensorFlow: struct_size pre-filled, everything else zero.
  TFNPD_PluginParams params;
  std::memset(&params, 0, sizeof params);
  params.struct_size = TFNPD_PLUGIN_PARAMS_STRUCT_SIZE;
  OwnedStatus status;
  log.Begin("load.npd.init");
  const void* api = nullptr;
  {
    in_flight::PluginCall call("TFNPD_InitPlugin");
    api = init(&params, status.get());
  }
  if (!status.ok()) {
    log.Fail("load.npd.init", status.message(), status.code(),
             {{"failing_call", "TFNPD_InitPlugin"}, {"problem", "error status"}});
    log.SkipRemaining("load.npd.", "load.npd.init failed");
    return;
  }
  log.Pass("load.npd.init");
  // TensorFlow copies both strings into std::string without a NULL test: a NULL is a crash.
  // Every failure below records TensorFlow's outcome (details["tensorflow_outcome"], read by
  // run/tensorflow_verdict.cc): measured in Python on 2.21.0 and 2.15.1 with the
  // tests/graph_profiler NPD fixtures, each is refused while loading (a RuntimeError from the
  // NULL string, SIGSEGV or SIGABRT from the NULL or short tables), never loaded.
  bool string_missing = false;
  for (const auto& [id, field, value] :
       {std::tuple{"load.npd.params.device_type", "device_type", params.device_type},
        std::tuple{"load.npd.params.compilation_device_name", "compilation_device_name",
                   params.compilation_device_name}}) {
    if (value != nullptr) {
      log.Pass(id);
    } else {
      string_missing = true;
      log.Fail(id,
               std::string("TFNPD_PluginParams.") + field +
                   " is not set: TensorFlow builds a std::string from it unchecked and crashes",
               {},
               {{"tensorflow_outcome", "crash"},
                {"failing_call", "TFNPD_InitPlugin"},
                {"problem", "out-parameter never written"}});
    }
  }
  const auto* table = static_cast<const TFNPD_Api*>(api);
  // TensorFlow calls GetPjrtApi and checks its head before it first uses the TFNPD_Api: where
  // the release refuses that head, a NULL TFNPD_Api is never reached (2.15.1 refuses
  // npd_null_api on the PJRT_Api size), so that refusal is the one root cause.
  bool pjrt_checked = false;
  if (table == nullptr && !string_missing) {
    pjrt_checked = true;
    if (CheckPjrtEntry(get_pjrt_api, profile, log)) {
      const std::string reason = "not reached: TensorFlow " + profile.releases +
                                 " refuses the PJRT_Api before it uses the TFNPD_Api";
      log.Skip("load.npd.api", reason);
      log.Skip("load.npd.api.struct_size", reason);
      return;
    }
  }
  if (table == nullptr) {
    log.Fail("load.npd.api",
             "TFNPD_InitPlugin returned NULL: TensorFlow keeps it as the device API and crashes on "
             "its first use",
             {},
             {{"tensorflow_outcome", "crash"},
              {"failing_call", "TFNPD_InitPlugin"},
              {"problem", "NULL api table"}});
    log.Skip("load.npd.api.struct_size", "TFNPD_InitPlugin returned no TFNPD_Api");
  } else {
    log.Pass("load.npd.api");
    if (table->struct_size == 0) {
      log.Warn("load.npd.api.struct_size",
               "TFNPD_Api.struct_size is 0; set it to TFNPD_Api_STRUCT_SIZE so a newer TensorFlow "
               "can tell which members exist");
    } else {
      log.Pass("load.npd.api.struct_size");
    }
  }
  if (string_missing) {
    // TensorFlow dies on the NULL string before it looks GetPjrtApi up.
    log.Skip("load.npd.pjrt_entry",
             "not reached: TensorFlow dies on the NULL TFNPD_PluginParams string first");
  } else if (!pjrt_checked) {
    CheckPjrtEntry(get_pjrt_api, profile, log);
  }
}

}  // namespace conformance::validate
