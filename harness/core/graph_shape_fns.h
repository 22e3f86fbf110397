#pragma once
// The shape functions TF_InferStatically knows: a small subset of TensorFlow's, for the ops
// graph plugins most often rewrite (sources, element-wise, MatMul, BiasAdd). Every other op
// gets outputs of unknown rank, which is what TensorFlow also reports when it cannot tell.
#include <optional>
#include <vector>

#include "core/attributes.h"
#include "core/graph_def_reader.h"
#include "tensorflow/c/tf_datatype.h"

namespace conformance::core {

struct TensorProperties {
  TF_DataType dtype = static_cast<TF_DataType>(0);  // DT_INVALID: not known
  PartialShape shape = PartialShape::Unknown();
  std::optional<std::string> value;  // serialized TensorProto
};

// The outputs of `node` given its regular inputs' properties, or nullopt when the core does
// not know the op. A Const's output carries its value; the caller drops it unless asked.
std::optional<std::vector<TensorProperties>> KnownOpOutputs(
    const GraphNodeDef& node, const std::vector<TensorProperties>& inputs);

// Numpy-style broadcasting of two shapes; nullopt when they are incompatible.
std::optional<PartialShape> BroadcastShapes(const PartialShape& a, const PartialShape& b);

// OpInfo.TensorProperties: dtype 1, shape 2 (always present, as TensorFlow fills it), value 3.
std::string SerializeTensorProperties(const TensorProperties& properties);

}  // namespace conformance::core
