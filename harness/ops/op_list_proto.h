#pragma once
// TensorFlow's op registry of one release as the serialized tensorflow.OpList that its
// TF_GetAllOpList returns, for the mock core to hand plugins (core/emulated_release.h).
#include <string>

#include "ops/op_def.h"
#include "ops/registry.h"

namespace conformance::ops {

// One OpDef message: name, arguments, attrs (type, allowed values, minimum, the default when it
// is a scalar, list or type value; shape, tensor and func defaults are kept as text only and
// left out, their lists' too), and the flags. Summaries and descriptions are not in the registry
// files.
std::string SerializeOpDef(const OpDef& op);
// Every op of `registry`, in name order.
std::string SerializeOpList(const OpRegistry& registry);

}  // namespace conformance::ops
