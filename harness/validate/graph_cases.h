#pragma once
// The small graphs the graph tier hands a plugin's optimizer, each with the GrapplerItem
// TensorFlow would build for it (fetch and feed nodes, nodes to keep).
#include <string>
#include <vector>

#include "core/grappler_item.h"

namespace conformance::validate {

struct GraphCase {
  std::string name;
  core::GrapplerItem item;  // item.serialized_graph_def is the GraphDef handed to optimize_func
};

// Graphs placed on `device_type` (the type TF_InitGraph registered the optimizer for).
std::vector<GraphCase> GraphCases(const std::string& device_type);

}  // namespace conformance::validate
