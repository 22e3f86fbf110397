#pragma once
// Libraries a plugin opens itself while TensorFlow runs its init functions: a wrapper that
// dlopens the plugin it forwards to in SE_InitPlugin, a plugin that keeps its device code in a
// library of its own. The mock core exports the newest C API, so here such a library always
// loads; under a release that exports less, the plugin's own dlopen fails there ("PATH:
// undefined symbol: NAME"), its init function sees the error, and TensorFlow aborts on the
// status it returns (measured on 2.15.1 with every plugin that wraps the reference plugin:
// "NOT_FOUND: ... cannot load the reference plugin ...", SIGABRT). The load.library.* audit
// reads the plugin's own imports only; this watch finds the libraries an init function added
// to the process's link map and audits their imports against the profile's exports, so the
// refusal is reported once, at the init function that opened the library.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "validate/check_log.h"
#include "validate/profile.h"

namespace conformance::validate {

inline constexpr std::string_view kOpenedLibrariesCheck = "load.opened_libraries";

class OpenedLibraryWatch {
 public:
  // Takes the first snapshot of the link map: open the plugin before, so that the plugin and
  // the libraries it links (the load.library.* checks' business) are not counted.
  explicit OpenedLibraryWatch(const Profile& profile);

  // After `entry_point` returned: audits every object loaded since the last snapshot. On the
  // first strong TensorFlow import the profile does not export, fails kOpenedLibrariesCheck
  // (blamed on `entry_point`), skips the modules TensorFlow would not reach, and returns true.
  bool Refused(std::string_view entry_point, CheckLog& log);

  // The check passed: every library opened by the init functions loads under the profile.
  void Pass(CheckLog& log) const;

 private:
  const Profile& profile_;
  std::vector<std::filesystem::path> seen_;
  int opened_ = 0;
};

}  // namespace conformance::validate
