#pragma once
// Static inference for ops a plugin defined through ops.h: TensorFlow runs the shape function
// the plugin registered, so TF_InferStatically does too.
#include <optional>
#include <vector>

#include "core/graph_def_reader.h"
#include "core/graph_shape_fns.h"

namespace conformance::core {

// The outputs of a node whose op a plugin registered with a shape function, or nullopt when no
// such op exists or its outputs cannot be counted from the spec (lists: N*T, list(type)).
// dtypes come from the output spec (a type attr of the node, or a type name); shapes from
// the shape function, unknown rank where it set none or failed.
std::optional<std::vector<TensorProperties>> PluginOpOutputs(
    const GraphNodeDef& node, const std::vector<TensorProperties>& inputs);

}  // namespace conformance::core
