#pragma once
// A gate on the dlopen calls a plugin makes while the load tier runs its init functions. The
// mock core exports the newest C API, so a library a plugin opens always loads here; under a
// release that exports less, glibc refuses that dlopen ("PATH: undefined symbol: NAME"), and the
// plugin's init function goes on with that error: it returns a status of its own (TensorFlow
// then aborts with it), carries on without the library, or crashes. Refusing the same dlopen here
// lets the plugin do whichever it does in TensorFlow, so the suite reports TensorFlow's own code
// and message.
//
// The refusal needs dlopen itself replaced: dlopen_interposer.cc defines dlopen and dlerror, and
// only executables that link it (plugin_conformance) and export them get the gate. Elsewhere the
// gate is armed but never asked (Interposed() is false), and the load tier audits the libraries
// an init function opened after it returns instead (validate/opened_libraries.h).
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace conformance::loader {

// Given the objects a dlopen added to the process, nullopt lets them stay; a message refuses the
// dlopen: its handle is closed, dlopen returns NULL, and the caller's dlerror() gives the message.
using DlopenVerdict =
    std::function<std::optional<std::string>(const std::vector<std::filesystem::path>& added)>;

// Armed while alive. One at a time: the load tier's units run one per process.
class DlopenGate {
 public:
  explicit DlopenGate(DlopenVerdict verdict);
  ~DlopenGate();
  DlopenGate(const DlopenGate&) = delete;
  DlopenGate& operator=(const DlopenGate&) = delete;
};

// Whether this process's dlopen is the interposer's (dlopen_interposer.cc is linked and exported).
bool Interposed();

namespace gate_internal {
// For the interposer only.
void MarkInterposed();
bool Armed();
// The paths of every object in the process's link map now.
std::vector<std::filesystem::path> LinkMap();
// The armed verdict on the objects a dlopen added (those now loaded and not in `before`).
std::optional<std::string> Judge(const std::vector<std::filesystem::path>& before);
// The message the caller's next dlerror() gives, and taking it (nullptr when there is none).
void SetPendingError(std::string message);
const char* TakePendingError();
}  // namespace gate_internal

}  // namespace conformance::loader
