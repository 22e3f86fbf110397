#pragma once
// TensorFlow's static shape inference as the optimizer sees it (TF_InferStatically and the
// properties lists of grappler.h). The pass uses it as a proof obligation: a node is rewritten
// only where inference shows the rewrite keeps what consumers read (dtype and shape).
#include <string>

#include "stream_executor/status.h"
#include "tensorflow/c/experimental/grappler/grappler.h"

namespace reference_plugin::graph {

class StaticShapes {
 public:
  // Runs TF_InferStatically over the item's graph; an error leaves nothing proven.
  explicit StaticShapes(const TF_GrapplerItem* item);
  ~StaticShapes();
  StaticShapes(const StaticShapes&) = delete;
  StaticShapes& operator=(const StaticShapes&) = delete;

  const Status& status() const { return status_; }
  // True when `node` has one input and one output and TensorFlow inferred the same serialized
  // TensorProperties (dtype and shape) for both.
  bool output_matches_input(const std::string& node) const;

 private:
  TF_GraphProperties* properties_;
  Status status_;
};

}  // namespace reference_plugin::graph
