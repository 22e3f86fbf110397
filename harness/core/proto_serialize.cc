#include "core/proto_serialize.h"

#include <algorithm>
#include <bit>
#include <map>
#include <type_traits>

#include "core/attr_value_fields.h"
#include "core/datatype.h"
#include "core/proto_wire.h"

namespace conformance::core {
namespace {

// Field numbers (tensorflow/core/framework/*.proto).
namespace node_def {
constexpr uint32_t kName = 1, kOp = 2, kInput = 3, kDevice = 4, kAttr = 5;
}
namespace name_attr_list {
constexpr uint32_t kName = 1, kAttr = 2;
}
namespace map_entry {
constexpr uint32_t kKey = 1, kValue = 2;
}
namespace shape_proto {
constexpr uint32_t kDim = 2, kUnknownRank = 3, kDimSize = 1;
}
namespace tensor_proto {
constexpr uint32_t kDtype = 1, kShape = 2, kContent = 4;
}

void WriteAttrEntry(ProtoWriter& out, uint32_t field, const std::string& key,
                    const AttrValue& value) {
  ProtoWriter entry;
  entry.Bytes(map_entry::kKey, key);
  entry.Bytes(map_entry::kValue, SerializeAttrValue(value));
  out.Message(field, entry);
}

std::string SerializeList(const AttrList& list) {
  ProtoWriter out;
  for (const auto& s : list.s) out.Bytes(list_value::kS, s);
  // Numeric repeated fields are packed in proto3.
  if (!list.i.empty()) {
    ProtoWriter packed;
    for (int64_t v : list.i) packed.AppendVarint(static_cast<uint64_t>(v));
    out.Bytes(list_value::kI, packed.data());
  }
  if (!list.f.empty()) {
    ProtoWriter packed;
    for (float v : list.f) packed.AppendFixed32(std::bit_cast<uint32_t>(v));
    out.Bytes(list_value::kF, packed.data());
  }
  if (!list.b.empty()) {
    ProtoWriter packed;
    for (bool v : list.b) packed.AppendVarint(v ? 1 : 0);
    out.Bytes(list_value::kB, packed.data());
  }
  if (!list.type.empty()) {
    ProtoWriter packed;
    for (TF_DataType v : list.type) packed.AppendVarint(static_cast<uint64_t>(v));
    out.Bytes(list_value::kType, packed.data());
  }
  for (const auto& s : list.shape) out.Bytes(list_value::kShape, SerializeTensorShape(s));
  for (const auto& t : list.tensor) out.Bytes(list_value::kTensor, SerializeTensor(t));
  for (const auto& f : list.func) out.Bytes(list_value::kFunc, SerializeNameAttrList(f));
  return out.data();
}

}  // namespace

std::string SerializeTensorShape(const PartialShape& shape) {
  ProtoWriter out;
  for (int64_t d : shape.dims) {
    ProtoWriter dim;
    if (d != 0) dim.Varint(shape_proto::kDimSize, static_cast<uint64_t>(d));
    out.Message(shape_proto::kDim, dim);
  }
  if (shape.unknown_rank) out.Varint(shape_proto::kUnknownRank, 1);
  return out.data();
}

std::string SerializeTensor(const Tensor& tensor) {
  ProtoWriter out;
  out.Varint(tensor_proto::kDtype, static_cast<uint64_t>(tensor.dtype()));
  out.Bytes(tensor_proto::kShape, SerializeTensorShape(PartialShape::Of(tensor.shape())));
  if (CanMemcpy(tensor.dtype()) && tensor.data() != nullptr) {
    const std::size_t bytes =
        static_cast<std::size_t>(tensor.NumElements()) * DataTypeSize(tensor.dtype());
    out.Bytes(tensor_proto::kContent, std::string_view(static_cast<const char*>(tensor.data()),
                                                       std::min(bytes, tensor.ByteSize())));
  }
  return out.data();
}

std::string SerializeAttrValue(const AttrValue& value) {
  // Members of a oneof are written even when they hold the default value.
  ProtoWriter out;
  std::visit(
      [&out](const auto& v) {
        (void)v;  // unused for AttrNotSet
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>)
          out.Bytes(attr_value::kS, v);
        else if constexpr (std::is_same_v<T, int64_t>)
          out.Varint(attr_value::kI, static_cast<uint64_t>(v));
        else if constexpr (std::is_same_v<T, float>)
          out.Fixed32(attr_value::kF, std::bit_cast<uint32_t>(v));
        else if constexpr (std::is_same_v<T, bool>)
          out.Varint(attr_value::kB, v ? 1 : 0);
        else if constexpr (std::is_same_v<T, TF_DataType>)
          out.Varint(attr_value::kType, static_cast<uint64_t>(v));
        else if constexpr (std::is_same_v<T, PartialShape>)
          out.Bytes(attr_value::kShape, SerializeTensorShape(v));
        else if constexpr (std::is_same_v<T, Tensor>)
          out.Bytes(attr_value::kTensor, SerializeTensor(v));
        else if constexpr (std::is_same_v<T, NameAttrList>)
          out.Bytes(attr_value::kFunc, SerializeNameAttrList(v));
        else if constexpr (std::is_same_v<T, AttrPlaceholder>)
          out.Bytes(attr_value::kPlaceholder, v.name);
        else if constexpr (std::is_same_v<T, AttrList>)
          out.Bytes(attr_value::kList, SerializeList(v));
      },
      value);
  return out.data();
}

std::string SerializeNameAttrList(const NameAttrList& function) {
  ProtoWriter out;
  if (!function.name.empty()) out.Bytes(name_attr_list::kName, function.name);
  // Ordered by key, like TensorFlow's deterministic serialization of maps.
  std::map<std::string, const AttrValue*> sorted;
  for (const auto& attr : function.attrs) sorted[attr.name] = &attr.value;
  for (const auto& [key, value] : sorted) WriteAttrEntry(out, name_attr_list::kAttr, key, *value);
  return out.data();
}

std::string SerializeNodeDef(const NodeDef& node) {
  ProtoWriter out;
  if (!node.name.empty()) out.Bytes(node_def::kName, node.name);
  if (!node.op.empty()) out.Bytes(node_def::kOp, node.op);
  for (const auto& input : node.inputs) out.Bytes(node_def::kInput, input);
  if (!node.device.empty()) out.Bytes(node_def::kDevice, node.device);
  for (const auto& [key, value] : node.attrs) WriteAttrEntry(out, node_def::kAttr, key, value);
  return out.data();
}

}  // namespace conformance::core
