#pragma once
// How the mock core fails where TensorFlow needs a runtime this project does not have
// (yet): loudly, naming the function, never with made-up data. The list lives in
// README.md, section "Not implemented yet".
#include <string>

#include "core/status.h"

namespace conformance::core {

// UNIMPLEMENTED "<function> is not implemented by the plugin_conformance mock core",
// also recorded as a CallError about `subject`.
Status Unimplemented(const char* function, std::string subject = "");

// For functions without a status parameter: prints "<function>: <why>" to stderr and
// aborts, as TensorFlow's CHECK failures do. Used where TensorFlow itself would crash
// (a CHECK, a null dereference) or where no honest result exists.
[[noreturn]] void Fatal(const char* function, const std::string& why);

}  // namespace conformance::core
