#pragma once
// The object behind TF_GrapplerItem: what a graph-optimizer plugin may ask about the
// graph it optimizes. The harness builds one per optimize_func call.
#include <string>
#include <vector>

#include "core/export.h"
#include "tensorflow/c/experimental/grappler/grappler.h"

namespace conformance::core {

struct CONFORMANCE_CORE_API GrapplerItem {
  std::string id;
  std::string serialized_graph_def;
  std::vector<std::string> fetch;
  std::vector<std::string> feed;  // node names of the feeds
  std::vector<std::string> init_ops;
  std::vector<std::string> keep_ops;

  // Fetch, feed, init and keep nodes, first occurrence first, without duplicates
  // (TensorFlow returns a hash set; the order is not part of the contract).
  std::vector<std::string> NodesToPreserve() const;

  const TF_GrapplerItem* c_handle() const { return reinterpret_cast<const TF_GrapplerItem*>(this); }
  static const GrapplerItem* FromC(const TF_GrapplerItem* item) {
    return reinterpret_cast<const GrapplerItem*>(item);
  }
};

}  // namespace conformance::core
