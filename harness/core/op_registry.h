#pragma once
// Op definitions registered through ops.h, with what the Recorder's OpRegistration does
// not keep: the shape-inference function and the deprecation. The kernel runtime runs
// shape functions from here (see shape_inference.h). Like the Recorder, the storage lives
// in libtensorflow_framework.so.2 only, so there is one registry per process.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/export.h"
#include "core/recorder.h"
#include "tensorflow/c/ops.h"

namespace conformance::core {

using ShapeInferenceFn = void (*)(TF_ShapeInferenceContext* ctx, TF_Status* status);

struct OpDefinition {
  OpRegistration registration;
  bool deprecated = false;
  int deprecation_version = 0;
  std::string deprecation_explanation;
  ShapeInferenceFn shape_inference = nullptr;
};

CONFORMANCE_CORE_API void AddOpDefinition(OpDefinition op);
// The most recent definition registered under `name`.
CONFORMANCE_CORE_API std::optional<OpDefinition> FindOpDefinition(std::string_view name);
CONFORMANCE_CORE_API std::vector<OpDefinition> AllOpDefinitions();
CONFORMANCE_CORE_API void ClearOpDefinitions();

}  // namespace conformance::core
