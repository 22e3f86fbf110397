#include "core/shape_inference.h"

#include "tensorflow/c/tf_status.h"

namespace conformance::core {

InferenceContext::InferenceContext(std::string node_name, std::vector<PartialShape> inputs,
                                   int num_outputs, AttrMap attrs)
    : node_name_(std::move(node_name)),
      inputs_(std::move(inputs)),
      outputs_(static_cast<std::size_t>(num_outputs)),
      attrs_(std::move(attrs)) {}

Status InferenceContext::Run(ShapeInferenceFn fn) {
  TF_Status* status = TF_NewStatus();
  fn(c_handle(), status);
  Status result = status->status;
  TF_DeleteStatus(status);
  return result;
}

}  // namespace conformance::core
