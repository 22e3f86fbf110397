#pragma once
// Libraries a plugin opens itself while TensorFlow runs its init functions: a wrapper that
// dlopens the plugin it forwards to in SE_InitPlugin, a plugin that keeps its device code in a
// library of its own. The mock core exports the newest C API, so here such a library always
// loads; under a release that exports less, the plugin's own dlopen fails there ("PATH:
// undefined symbol: NAME"), and its init function goes on with that error (measured on 2.15.1
// with every plugin that wraps the reference plugin: it returns "NOT_FOUND: ... cannot load the
// reference plugin ...", and TensorFlow aborts with that status). The load.library.* audit reads
// the plugin's own imports only; this watch audits the libraries a dlopen adds against the
// profile's exports. Where the executable interposes dlopen (loader/dlopen_gate.h), the watch
// refuses such a dlopen as glibc would, so the plugin answers with whatever it answers in
// TensorFlow: its status is TensorFlow's verdict, and load.opened_libraries, in the same root
// cause, says why. Elsewhere it audits the link map after each init function instead.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loader/dlopen_gate.h"
#include "validate/check_log.h"
#include "validate/profile.h"

namespace conformance::validate {

inline constexpr std::string_view kOpenedLibrariesCheck = "load.opened_libraries";

class OpenedLibraryWatch {
 public:
  // Takes the first snapshot of the link map and arms the dlopen gate: open the plugin before,
  // so that the plugin and the libraries it links (the load.library.* checks' business) are not
  // counted.
  // `refuse_dlopen` false (--force-runtime) leaves the gate unarmed.
  OpenedLibraryWatch(const Profile& profile, CheckLog& log, bool refuse_dlopen);
  OpenedLibraryWatch(const OpenedLibraryWatch&) = delete;  // the armed gate holds `this`
  OpenedLibraryWatch& operator=(const OpenedLibraryWatch&) = delete;

  // Before `entry_point` runs: the init function a refused dlopen, and the failure it then
  // returns, are blamed on.
  void Enter(std::string_view entry_point);

  // After `entry_point` returned. A dlopen the gate refused in it: when the init function then
  // failed, fails kOpenedLibrariesCheck with why (the status it returned is TensorFlow's verdict),
  // skips the modules TensorFlow would not reach and returns true; when it carried on, warns.
  // Without the gate: audits every object loaded since the last snapshot, and on the first strong
  // TensorFlow import the profile does not export fails kOpenedLibrariesCheck (blamed on
  // `entry_point`), skips the modules TensorFlow would not reach, and returns true.
  bool Refused(std::string_view entry_point);

  // The check passed: every library opened by the init functions loads under the profile.
  void Pass();

  // A library the profile's release cannot load: strong TensorFlow imports it does not export.
  struct Unloadable {
    std::string library;
    std::vector<std::string> missing;
    std::string first_unbound;  // the one glibc's dlopen names
  };

 private:
  std::vector<Unloadable> Audit(const std::vector<std::filesystem::path>& paths);
  std::optional<std::string> Gate(const std::vector<std::filesystem::path>& added);

  const Profile& profile_;
  CheckLog& log_;
  std::vector<std::filesystem::path> seen_;
  int opened_ = 0;
  std::string entry_point_;
  int failures_at_entry_ = 0;
  std::vector<Unloadable> refused_;  // by the gate, since Enter
  bool reported_ = false;            // kOpenedLibrariesCheck emitted (a warning)
  std::optional<loader::DlopenGate> gate_;
};

}  // namespace conformance::validate
