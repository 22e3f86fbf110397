#include "validate/required_modules.h"

#include <dlfcn.h>

namespace conformance::validate {
namespace {

constexpr int kNotFound = 5;  // TF_NOT_FOUND

// dlsym's own error text for a name the plugin does not export ("PATH: undefined symbol: NAME"),
// which is what TensorFlow's status carries.
std::string LookupError(const loader::PluginLibrary& library, const char* name) {
  dlerror();
  if (dlsym(library.native_handle(), name) != nullptr) return "";
  const char* error = dlerror();
  return error != nullptr ? error : "";
}

void Refuse(const char* check, const std::string& message, const Profile& profile, CheckLog& log) {
  log.Fail(check, message, kNotFound);
  log.SkipRemaining("load.", "not reached: TensorFlow " + profile.releases +
                                 " stops loading when a module it requires is missing (" +
                                 std::string(check) + ")");
}

}  // namespace

std::vector<std::string> RequiredModuleCheckIds(const Profile& profile) {
  std::vector<std::string> ids;
  if (profile.device_or_graph_required) ids.emplace_back(kDeviceOrGraphCheck);
  if (profile.kernel_module_required) ids.emplace_back(kKernelModuleCheck);
  return ids;
}

bool StopsWithoutDeviceOrGraph(const loader::PluginLibrary& library,
                               const loader::EntryPoints& entry_points, const Profile& profile,
                               CheckLog& log) {
  if (!profile.device_or_graph_required) return false;
  if (entry_points.se_init_plugin || entry_points.tf_init_graph) {
    log.Pass(kDeviceOrGraphCheck);
    return false;
  }
  // TensorFlow joins the two lookups' texts with a space; 2.5 and 2.6 write each lookup's status
  // whole (its code's name before the dlerror text), later releases the dlerror texts alone.
  const std::string status = profile.device_or_graph_message_statuses ? "Not found: " : "";
  Refuse(kDeviceOrGraphCheck,
         status + LookupError(library, "SE_InitPlugin") + " " + status +
             LookupError(library, "TF_InitGraph"),
         profile, log);
  return true;
}

bool StopsWithoutKernelModule(const loader::PluginLibrary& library,
                              const loader::EntryPoints& entry_points, const Profile& profile,
                              CheckLog& log) {
  if (!profile.kernel_module_required) return false;
  if (entry_points.tf_init_kernel) {
    log.Pass(kKernelModuleCheck);
    return false;
  }
  Refuse(kKernelModuleCheck, LookupError(library, "TF_InitKernel"), profile, log);
  return true;
}

}  // namespace conformance::validate
