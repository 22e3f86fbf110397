#pragma once
// What the TensorFlow release the harness emulates (its profile) answers through c_api.h's
// registry and version functions: TF_Version's string and TF_GetAllOpList's OpList. The core
// has no op registry of TensorFlow's built-ins of its own; the harness hands it the profile's
// (specs/ops/registry) as a serialized OpList, produced on first use because serializing
// some 1500 op definitions is not free and most plugins never ask. Like the Recorder, the
// storage lives in libtensorflow_framework.so.2 only.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/export.h"

namespace conformance::core {

struct EmulatedRelease {
  std::string version;  // "2.15.1"
  // The release's op registry as a serialized tensorflow.OpList; called at most once.
  std::function<std::string()> serialized_op_list;
};

// Replaces the release (and forgets the OpList of the previous one).
CONFORMANCE_CORE_API void SetEmulatedRelease(EmulatedRelease release);
// TF_Version's answer: the release set, or "2.21.0" (the newest profile's) when none was.
CONFORMANCE_CORE_API const std::string& EmulatedVersion();
// The serialized OpList of the release set; empty (an OpList without ops) when none was.
CONFORMANCE_CORE_API const std::string& EmulatedOpList();
// The serialized OpDef of op `name` in that OpList; nullopt when the release has no such op.
CONFORMANCE_CORE_API std::optional<std::string> EmulatedOpDef(std::string_view name);

}  // namespace conformance::core
