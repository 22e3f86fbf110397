#include "runtime/tensorflow_calls.h"

#include <algorithm>

namespace conformance::runtime {

bool TensorFlowMakes(std::string_view callback) {
  return std::find(std::begin(kCallsTensorFlowMakes), std::end(kCallsTensorFlowMakes), callback) !=
         std::end(kCallsTensorFlowMakes);
}

bool PrerequisitesMayUse(std::string_view callback) {
  return std::find(std::begin(kCallsPrerequisitesUse), std::end(kCallsPrerequisitesUse),
                   callback) != std::end(kCallsPrerequisitesUse);
}

std::string OutsideRecordedWorkload(std::string_view call) {
  return "TensorFlow never calls " + std::string(call) +
         " in the workload recorded in docs/tensorflow/calls.md; no prerequisite check depends "
         "on it";
}

std::string NeverCalledByTensorFlow(std::string_view call) {
  const std::string name(call);
  if (name == "allocate(0)") {
    return "TensorFlow never calls allocate with 0 bytes (its allocator creates empty tensors "
           "without device memory)";
  }
  if (name.starts_with("sync_memcpy_")) {
    return "TensorFlow never calls " + name + " to move tensors (it copies them with " +
           name.substr(5) + " on a stream)";
  }
  return "TensorFlow never calls " + name + " when it runs a model";
}

}  // namespace conformance::runtime
