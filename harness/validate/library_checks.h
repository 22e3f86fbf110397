#pragma once
// Can the plugin be loaded at all? The file, its ELF header, its dependencies and imports are
// examined before dlopen so every problem is listed, then dlopen is attempted exactly as
// TensorFlow does it. TensorFlow's own verdict here is NOT_FOUND with dlerror's text.
#include <string>
#include <vector>

#include "validate/check_log.h"
#include "validate/profile.h"

namespace conformance::validate {

std::vector<std::string> LibraryCheckIds();
// `profile` is the TensorFlow core emulated: imports it does not export fail as they would there.
void RunLibraryChecks(const std::string& plugin_path, const Profile& profile, CheckLog& log);

}  // namespace conformance::validate
