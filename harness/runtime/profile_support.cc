#include "runtime/profile_support.h"

namespace conformance::runtime {

SessionOptions SessionOptionsFor(const RunSettings& settings) {
  SessionOptions options;
  options.profile = settings.profile;
  return options;
}

}  // namespace conformance::runtime
