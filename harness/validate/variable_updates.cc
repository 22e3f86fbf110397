#include "validate/variable_updates.h"

#include <algorithm>

#include "validate/profile.h"

namespace conformance::validate {

const std::vector<std::string>& VariableFunctions() {
  static const std::vector<std::string> functions = {"TF_MaybeLockVariableInputMutexesInOrder",
                                                     "TF_GetInputTensorFromVariable",
                                                     "TF_ReleaseVariableInputLockHolder"};
  return functions;
}

std::optional<std::string> VariableUpdatesUnavailable(const std::string& profile_name,
                                                      const std::vector<std::string>& updaters,
                                                      const std::string& needed_by) {
  const Profile* profile = FindProfile(profile_name);
  if (profile == nullptr || updaters.empty()) return std::nullopt;
  std::string missing;
  for (const std::string& function : VariableFunctions()) {
    if (!profile->exports.contains(function)) missing += (missing.empty() ? "" : ", ") + function;
  }
  if (missing.empty()) return std::nullopt;
  std::string ops;
  for (const std::string& op : updaters) ops += (ops.empty() ? "" : ", ") + op;
  std::string able;  // the profiles that export them all, newest first
  for (const Profile& other : AllProfiles()) {
    if (std::all_of(VariableFunctions().begin(), VariableFunctions().end(),
                    [&](const std::string& f) { return other.exports.contains(f); }))
      able += (able.empty() ? "--profile " : " or ") + other.name;
  }
  bool several = false;
  const std::string releases = ReleasesInWords(profile->releases, &several);
  return "TensorFlow " + releases + " (profile " + profile->name + ") export" +
         (several ? "" : "s") + " no resource-variable C API to plugins (" + missing +
         " of kernels_experimental.h), so no plugin can register " + ops + ", which " + needed_by +
         " need" + (able.empty() ? "" : "; run it with " + able);
}

}  // namespace conformance::validate
