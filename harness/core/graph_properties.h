#pragma once
// The object behind TF_GraphProperties: static shape and type inference over a GrapplerItem's
// GraphDef, as TensorFlow's grappler GraphProperties::InferStatically does it, simplified:
// sources (Placeholder, Const), the ops of graph_shape_fns.h, the `_output_shapes` hints, and
// unknown rank for everything else. Getters before inference (or for a node the graph does
// not have) see no properties and report OK, as in TensorFlow.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/grappler_item.h"
#include "core/graph_shape_fns.h"
#include "core/status.h"

namespace conformance::core {

struct InferOptions {
  bool assume_valid_feeds = false;
  bool aggressive_shape_inference = false;  // accepted; the core's inference has one mode
  bool include_input_tensor_values = false;
  bool include_output_tensor_values = false;
};

class GraphProperties {
 public:
  explicit GraphProperties(const GrapplerItem* item) : item_(item) {}

  Status InferStatically(const InferOptions& options);
  const std::vector<TensorProperties>& Inputs(std::string_view node) const;
  const std::vector<TensorProperties>& Outputs(std::string_view node) const;

 private:
  using PropertiesMap = std::map<std::string, std::vector<TensorProperties>, std::less<>>;
  const GrapplerItem* item_;
  PropertiesMap inputs_;
  PropertiesMap outputs_;
};

}  // namespace conformance::core
