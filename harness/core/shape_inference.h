#pragma once
// The object behind TF_ShapeInferenceContext: input shapes, attributes and the output
// shapes a plugin's shape function sets, plus the TF_ShapeHandle / TF_DimensionHandle
// values. Unset handles (fresh from TF_NewShapeHandle) behave like TensorFlow's null
// handles: unknown rank / unknown value.
#include <optional>
#include <string>
#include <vector>

#include "core/attributes.h"
#include "core/export.h"
#include "core/op_registry.h"
#include "core/status.h"
#include "tensorflow/c/ops.h"

struct TF_ShapeHandle {
  std::optional<conformance::core::PartialShape> shape;  // nullopt: never set
};

struct TF_DimensionHandle {
  std::optional<int64_t> value;  // nullopt: never set; -1: unknown
};

namespace conformance::core {

class CONFORMANCE_CORE_API InferenceContext {
 public:
  InferenceContext(std::string node_name, std::vector<PartialShape> inputs, int num_outputs,
                   AttrMap attrs = {});

  // Runs a plugin shape function the way TensorFlow does: with a fresh TF_Status whose
  // final value is the result.
  Status Run(ShapeInferenceFn fn);

  int num_inputs() const { return static_cast<int>(inputs_.size()); }
  int num_outputs() const { return static_cast<int>(outputs_.size()); }
  const PartialShape& input(int i) const { return inputs_.at(static_cast<std::size_t>(i)); }
  // nullopt: the shape function never set this output (or set it from an unset handle).
  const std::optional<PartialShape>& output(int i) const {
    return outputs_.at(static_cast<std::size_t>(i));
  }
  void set_output(int i, std::optional<PartialShape> shape) {
    outputs_.at(static_cast<std::size_t>(i)) = std::move(shape);
  }
  const AttrMap& attrs() const { return attrs_; }
  const std::string& node_name() const { return node_name_; }

  TF_ShapeInferenceContext* c_handle() { return reinterpret_cast<TF_ShapeInferenceContext*>(this); }
  static InferenceContext* FromC(TF_ShapeInferenceContext* ctx) {
    return reinterpret_cast<InferenceContext*>(ctx);
  }

 private:
  std::string node_name_;
  std::vector<PartialShape> inputs_;
  std::vector<std::optional<PartialShape>> outputs_;
  AttrMap attrs_;
};

}  // namespace conformance::core
