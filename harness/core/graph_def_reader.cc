// Field numbers (TensorFlow's .proto files, facts only): GraphDef.node 1; NodeDef name 1, op 2,
// input 3, attr 5 (map entry key 1, value 2); AttrValue list 1, b 5, type 6, shape 7,
// tensor 8; ListValue.shape 7; TensorShapeProto dim 2 (Dim.size 1), unknown_rank 3;
// TensorProto dtype 1, tensor_shape 2.
#include "core/graph_def_reader.h"

#include "core/proto_wire.h"

namespace conformance::core {
namespace {

using Field = ProtoReader::Field;

constexpr uint32_t kGraphNode = 1;
constexpr uint32_t kNodeName = 1, kNodeOp = 2, kNodeInput = 3, kNodeAttr = 5;
constexpr uint32_t kEntryKey = 1, kEntryValue = 2;
constexpr uint32_t kAttrList = 1, kAttrB = 5, kAttrType = 6, kAttrShape = 7, kAttrTensor = 8;
constexpr uint32_t kListShape = 7;
constexpr uint32_t kShapeDim = 2, kShapeUnknownRank = 3, kDimSize = 1;
constexpr uint32_t kTensorDtype = 1, kTensorShape = 2;

bool IsBytes(const Field& f) { return f.wire_type == ProtoReader::kLengthDelimited; }
bool IsVarint(const Field& f) { return f.wire_type == ProtoReader::kVarint; }

// The last occurrence of field `number` with the expected wire type (protobuf's rule for
// singular fields); nullopt when absent or when the message is malformed.
std::optional<Field> LastField(std::string_view message, uint32_t number, uint32_t wire_type) {
  ProtoReader reader(message);
  Field field;
  std::optional<Field> found;
  while (reader.Next(&field)) {
    if (field.number == number && field.wire_type == wire_type) found = field;
  }
  if (!reader.ok()) return std::nullopt;
  return found;
}

bool ReadAttrEntry(std::string_view entry, GraphNodeDef* node) {
  ProtoReader reader(entry);
  Field field;
  std::string key, value;
  while (reader.Next(&field)) {
    if (!IsBytes(field)) continue;
    if (field.number == kEntryKey) key.assign(field.bytes);
    if (field.number == kEntryValue) value.assign(field.bytes);
  }
  if (!reader.ok()) return false;
  node->attrs[key] = value;
  return true;
}

std::optional<GraphNodeDef> ReadNode(std::string_view bytes) {
  GraphNodeDef node;
  ProtoReader reader(bytes);
  Field field;
  while (reader.Next(&field)) {
    if (!IsBytes(field)) continue;
    switch (field.number) {
      case kNodeName: node.name.assign(field.bytes); break;
      case kNodeOp: node.op.assign(field.bytes); break;
      case kNodeInput: node.inputs.emplace_back(field.bytes); break;
      case kNodeAttr:
        if (!ReadAttrEntry(field.bytes, &node)) return std::nullopt;
        break;
      default: break;
    }
  }
  if (!reader.ok()) return std::nullopt;
  return node;
}

}  // namespace

std::optional<std::vector<GraphNodeDef>> ReadGraphNodes(std::string_view graph_def) {
  std::vector<GraphNodeDef> nodes;
  ProtoReader reader(graph_def);
  Field field;
  while (reader.Next(&field)) {
    if (field.number != kGraphNode) continue;
    if (!IsBytes(field)) return std::nullopt;
    auto node = ReadNode(field.bytes);
    if (!node) return std::nullopt;
    nodes.push_back(std::move(*node));
  }
  if (!reader.ok()) return std::nullopt;
  return nodes;
}

std::optional<PartialShape> ReadTensorShape(std::string_view shape_proto) {
  PartialShape shape = PartialShape::Of({});
  ProtoReader reader(shape_proto);
  Field field;
  while (reader.Next(&field)) {
    if (field.number == kShapeUnknownRank && IsVarint(field)) shape.unknown_rank = field.value != 0;
    if (field.number != kShapeDim || !IsBytes(field)) continue;
    const auto size = LastField(field.bytes, kDimSize, ProtoReader::kVarint);
    // int64 on the wire: -1 (unknown) is the ten-byte two's complement varint.
    shape.dims.push_back(size ? static_cast<int64_t>(size->value) : 0);
  }
  if (!reader.ok()) return std::nullopt;
  if (shape.unknown_rank) shape.dims.clear();
  return shape;
}

std::optional<TensorHeader> ReadTensorHeader(std::string_view tensor_proto) {
  TensorHeader header;
  ProtoReader reader(tensor_proto);
  Field field;
  while (reader.Next(&field)) {
    if (field.number == kTensorDtype && IsVarint(field)) {
      header.dtype = static_cast<TF_DataType>(field.value);
    } else if (field.number == kTensorShape && IsBytes(field)) {
      auto shape = ReadTensorShape(field.bytes);
      if (!shape) return std::nullopt;
      header.shape = *shape;
    }
  }
  if (!reader.ok()) return std::nullopt;
  return header;
}

std::optional<TF_DataType> GraphNodeDef::TypeAttr(std::string_view name) const {
  const auto it = attrs.find(name);
  if (it == attrs.end()) return std::nullopt;
  const auto field = LastField(it->second, kAttrType, ProtoReader::kVarint);
  if (!field) return std::nullopt;
  return static_cast<TF_DataType>(field->value);
}

std::optional<bool> GraphNodeDef::BoolAttr(std::string_view name) const {
  const auto it = attrs.find(name);
  if (it == attrs.end()) return std::nullopt;
  const auto field = LastField(it->second, kAttrB, ProtoReader::kVarint);
  if (!field) return std::nullopt;
  return field->value != 0;
}

std::optional<PartialShape> GraphNodeDef::ShapeAttr(std::string_view name) const {
  const auto it = attrs.find(name);
  if (it == attrs.end()) return std::nullopt;
  const auto field = LastField(it->second, kAttrShape, ProtoReader::kLengthDelimited);
  if (!field) return std::nullopt;
  return ReadTensorShape(field->bytes);
}

std::optional<std::string> GraphNodeDef::TensorAttr(std::string_view name) const {
  const auto it = attrs.find(name);
  if (it == attrs.end()) return std::nullopt;
  const auto field = LastField(it->second, kAttrTensor, ProtoReader::kLengthDelimited);
  if (!field) return std::nullopt;
  return std::string(field->bytes);
}

std::optional<std::vector<PartialShape>> GraphNodeDef::ShapeListAttr(std::string_view name) const {
  const auto it = attrs.find(name);
  if (it == attrs.end()) return std::nullopt;
  const auto list = LastField(it->second, kAttrList, ProtoReader::kLengthDelimited);
  if (!list) return std::nullopt;
  std::vector<PartialShape> shapes;
  ProtoReader reader(list->bytes);
  Field field;
  while (reader.Next(&field)) {
    if (field.number != kListShape || !IsBytes(field)) continue;
    auto shape = ReadTensorShape(field.bytes);
    if (!shape) return std::nullopt;
    shapes.push_back(std::move(*shape));
  }
  if (!reader.ok()) return std::nullopt;
  return shapes;
}

}  // namespace conformance::core
