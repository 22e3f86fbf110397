#include "runtime/sentinels.h"

namespace conformance::runtime {

std::string PoisonStatusMessage(std::string_view callback) {
  return "plugin_conformance: status not written by " + std::string(callback);
}

}  // namespace conformance::runtime
