// Symbols every TensorFlow process has because the process is Python's, which plugins built on
// the C API import from it (docs/tensorflow/plugin_imports.md). Linked into the framework
// library only (a process has it once), so a plugin's libraries find it in the global scope as
// they find the interpreter's in TensorFlow.
//
// PyRun_SimpleStringFlags: ITEX's CPU backends run a few lines of Python while registering
// their kernels (overriding Keras layers with ITEX's; nothing the C API sees). There is no
// interpreter here: the code is not run, the mock core logs that it was skipped (with its first
// line), and returns 0, what CPython returns when the code ran without an exception: the
// plugin's C API registrations, which the suite judges, do not depend on it.
#include <string>
#include <string_view>

#include "core/log_line.h"
#include "tensorflow/c/c_api_macros.h"

extern "C" {
struct PyCompilerFlags;
TF_CAPI_EXPORT int PyRun_SimpleStringFlags(const char* command, PyCompilerFlags* flags);
}

int PyRun_SimpleStringFlags(const char* command, PyCompilerFlags* /*flags*/) {
  const std::string_view code = command != nullptr ? command : "";
  const std::string_view first_line = code.substr(0, code.find('\n'));
  conformance::core::WriteLogLine(
      'I', "PyRun_SimpleStringFlags",
      "no Python interpreter in plugin_conformance: " + std::to_string(code.size()) +
          " bytes of Python not run (first line: " + std::string(first_line) +
          "); returning 0 as if it ran");
  return 0;
}
