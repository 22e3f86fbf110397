#include "runtime/profile_support.h"

#include "runtime/device_session.h"
#include "validate/profile.h"

namespace conformance::runtime {

std::optional<std::string> UnsupportedProfileReason(const RunSettings& settings, std::string_view what) {
  const validate::Profile* profile = validate::FindProfile(settings.profile);
  if (profile == nullptr || profile->layout == nullptr) return std::nullopt;
  const std::size_t size = profile->layout->Struct("SP_StreamExecutor").size_of;
  if (size == kSupportedStreamExecutorStructSize) return std::nullopt;
  return "the emulated core (--profile " + settings.profile + ") has a " + std::to_string(size) +
         "-byte SP_StreamExecutor; " + std::string(what) + " drive the 288-byte generation only";
}

}  // namespace conformance::runtime
