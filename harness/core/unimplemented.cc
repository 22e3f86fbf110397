#include "core/unimplemented.h"

#include <cstdio>
#include <cstdlib>

#include "core/live_handles.h"

namespace conformance::core {

Status Unimplemented(const char* function, std::string subject) {
  Status status = Status::Error(
      TF_UNIMPLEMENTED,
      std::string(function) + " is not implemented by the plugin_conformance mock core");
  RecordCallError(function, std::move(subject), status);
  return status;
}

void Fatal(const char* function, const std::string& why) {
  std::fprintf(stderr, "plugin_conformance mock core: %s: %s\n", function, why.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace conformance::core
