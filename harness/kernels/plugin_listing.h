#pragma once
// What a listing needs from a plugin (its kernel registrations, the ops it defines), read in a
// child process so the plugin is never loaded into the caller: the plugin comes up in the mock
// core as for a kernel unit (kernel_target.h), `read` takes what it wants from it as JSON, and the
// JSON comes back.
#include <functional>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "kernels/kernel_target.h"

namespace conformance::kernels {

// The JSON `read` returned in the child; or why there is none: the plugin did not come up in the
// mock core, the child died, or it was still busy after `timeout_seconds`. `what` names the
// listing in those messages ("the op definitions of the plugin").
std::variant<nlohmann::json, std::string> ListFromPlugin(
    const std::string& plugin_path, unsigned timeout_seconds, const std::string& what,
    const std::function<nlohmann::json(KernelTarget&)>& read);

}  // namespace conformance::kernels
