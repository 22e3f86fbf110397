#pragma once
// Tells the mock core which TensorFlow release a profile emulates, so that c_api.h's TF_Version
// and TF_GetAllOpList answer as that release does (core/emulated_release.h).
#include <string>
#include <string_view>

#include "validate/profile.h"

namespace conformance::validate {

// The version string TF_Version returns under `profile`: its op registry's release ("2.15.1")
// when that release is one the profile stands for, else the newest release it names with a
// ".0" patch ("2.16-2.18" -> "2.18.0"): an exact patch level is not known for those.
std::string EmulatedVersion(const Profile& profile);

// Hands the core `profile_name`'s version and op registry (serialized on first use). An
// unknown profile changes nothing. Call in the parent before units fork.
void EmulateProfileRelease(std::string_view profile_name);

}  // namespace conformance::validate
