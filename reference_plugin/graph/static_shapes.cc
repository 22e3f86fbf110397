#include "graph/static_shapes.h"

#include "tensorflow/c/tf_buffer.h"

namespace reference_plugin::graph {
namespace {

using SizeFn = void (*)(TF_GraphProperties*, const char*, int*, TF_Status*);
using ListFn = void (*)(TF_GraphProperties*, const char*, TF_Buffer**, int, TF_Status*);

// The only property of one side of a node, serialized; empty when there is not exactly one.
std::string single_property(TF_GraphProperties* properties, const std::string& node, SizeFn size,
                            ListFn list) {
  TF_Status* status = TF_NewStatus();
  int count = 0;
  size(properties, node.c_str(), &count, status);
  std::string bytes;
  if (TF_GetCode(status) == TF_OK && count == 1) {
    TF_Buffer* buffer = TF_NewBuffer();
    list(properties, node.c_str(), &buffer, 1, status);
    if (TF_GetCode(status) == TF_OK && buffer->data != nullptr) {
      bytes.assign(static_cast<const char*>(buffer->data), buffer->length);
    }
    TF_DeleteBuffer(buffer);
  }
  TF_DeleteStatus(status);
  return bytes;
}

}  // namespace

StaticShapes::StaticShapes(const TF_GrapplerItem* item) : properties_(TF_NewGraphProperties(item)) {
  TF_Status* status = TF_NewStatus();
  // Feeds are trusted (assume_valid_feeds); tensor values are not needed.
  TF_InferStatically(properties_, true, false, false, false, status);
  status_ = status_from_tf(status);
  TF_DeleteStatus(status);
}

StaticShapes::~StaticShapes() { TF_DeleteGraphProperties(properties_); }

bool StaticShapes::output_matches_input(const std::string& node) const {
  if (!status_.ok()) return false;
  const std::string in =
      single_property(properties_, node, TF_GetInputPropertiesListSize, TF_GetInputPropertiesList);
  return !in.empty() && in == single_property(properties_, node, TF_GetOutputPropertiesListSize,
                                              TF_GetOutputPropertiesList);
}

}  // namespace reference_plugin::graph
