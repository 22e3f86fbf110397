#pragma once
// Reads the serialized KernelDef passed to TF_RegisterKernelBuilderWithKernelDef into the
// fields the Recorder keeps. TensorFlow parses it with ParsePartialFromString from a
// NUL-terminated C string, so the caller passes strlen() bytes.
#include <optional>
#include <string_view>

#include "core/recorder.h"

namespace conformance::core {

struct ParsedKernelDef {
  std::string op;
  std::string device_type;
  // One (attr, type) pair per allowed type of each AttrConstraint, in order.
  std::vector<std::pair<std::string, int>> type_constraints;
  std::vector<std::string> host_memory_args;
  std::string label;
  int32_t priority = 0;
};

// nullopt when the bytes are not a valid KernelDef: truncated or malformed wire data,
// groups, or non-UTF-8 strings. Unknown fields (and known fields with another wire type,
// which protobuf keeps as unknown) are skipped, as ParsePartialFromString does.
std::optional<ParsedKernelDef> ParseKernelDef(std::string_view bytes);

}  // namespace conformance::core
