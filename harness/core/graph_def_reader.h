#pragma once
// A serialized GraphDef read at wire level (no protobuf: README "No protobuf in the core"):
// each node's name, op, inputs and attributes, the attributes kept as serialized AttrValue
// bytes and decoded on demand by the typed getters below.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/attributes.h"
#include "tensorflow/c/tf_datatype.h"

namespace conformance::core {

struct GraphNodeDef {
  std::string name;
  std::string op;
  std::vector<std::string> inputs;  // "node", "node:port" or "^node" (control)
  std::map<std::string, std::string, std::less<>> attrs;  // name -> serialized AttrValue

  // nullopt when the attribute is absent or holds another kind of value.
  std::optional<TF_DataType> TypeAttr(std::string_view name) const;
  std::optional<bool> BoolAttr(std::string_view name) const;
  std::optional<PartialShape> ShapeAttr(std::string_view name) const;
  std::optional<std::string> TensorAttr(std::string_view name) const;  // serialized TensorProto
  std::optional<std::vector<PartialShape>> ShapeListAttr(std::string_view name) const;
};

// The GraphDef's nodes in file order; nullopt when the bytes are not a GraphDef.
std::optional<std::vector<GraphNodeDef>> ReadGraphNodes(std::string_view graph_def);

// A TensorShapeProto (dim = 2 {size = 1}, unknown_rank = 3); nullopt when malformed.
std::optional<PartialShape> ReadTensorShape(std::string_view shape_proto);

// TensorProto.dtype (1) and TensorProto.tensor_shape (2); nullopt when malformed.
struct TensorHeader {
  TF_DataType dtype = static_cast<TF_DataType>(0);
  PartialShape shape = PartialShape::Of({});
};
std::optional<TensorHeader> ReadTensorHeader(std::string_view tensor_proto);

}  // namespace conformance::core
