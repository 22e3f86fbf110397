#pragma once
// Warnings for misuse that a void C callback cannot report through a status (e.g. freeing a
// pointer this device never handed out). They go to stderr so a developer sees them in the
// harness log; the plugin then carries on as if the call had not happened.
#include <string_view>

namespace reference_plugin {

void warn(std::string_view message);

}  // namespace reference_plugin
