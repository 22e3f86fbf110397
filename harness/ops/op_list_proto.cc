// OpDef / OpList in protobuf wire format; field numbers from TensorFlow's op_def.proto and
// attr_value.proto (facts). The project links no protobuf; the core's writer is internal to it,
// so this file has its own few lines of wire format.
#include "ops/op_list_proto.h"

#include <cstdint>
#include <string_view>

#include "core/proto_serialize.h"

namespace conformance::ops {
namespace {

void Varint(uint64_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}
void Tag(uint32_t field, uint32_t wire_type, std::string* out) {
  Varint((uint64_t{field} << 3) | wire_type, out);
}
void VarintField(uint32_t field, uint64_t value, std::string* out) {
  Tag(field, 0, out);
  Varint(value, out);
}
void BytesField(uint32_t field, std::string_view bytes, std::string* out) {
  Tag(field, 2, out);
  Varint(bytes.size(), out);
  out->append(bytes);
}

// OpDef.ArgDef: name 1, type 3, type_attr 4, number_attr 5, type_list_attr 6, is_ref 16.
std::string SerializeArg(const ArgDef& arg) {
  std::string out;
  BytesField(1, arg.name, &out);
  if (arg.type) VarintField(3, static_cast<uint64_t>(*arg.type), &out);
  if (!arg.type_attr.empty()) BytesField(4, arg.type_attr, &out);
  if (!arg.number_attr.empty()) BytesField(5, arg.number_attr, &out);
  if (!arg.type_list_attr.empty()) BytesField(6, arg.type_list_attr, &out);
  if (arg.is_ref) VarintField(16, 1, &out);
  return out;
}

// AttrValue{list 1 = ListValue{s 2 | type 6}}: an attr's allowed values.
std::string AllowedValues(const AttrDef& attr) {
  std::string list;
  for (const std::string& value : attr.allowed_strings) BytesField(2, value, &list);
  for (TF_DataType type : attr.allowed_types) VarintField(6, static_cast<uint64_t>(type), &list);
  std::string value;
  BytesField(1, list, &value);
  return value;
}

// OpDef.AttrDef: name 1, type 2, default_value 3, has_minimum 5, minimum 6, allowed_values 7.
std::string SerializeAttr(const AttrDef& attr) {
  std::string out;
  BytesField(1, attr.name, &out);
  BytesField(2, attr.type, &out);
  if (!std::holds_alternative<core::AttrNotSet>(attr.default_value)) {
    BytesField(3, core::SerializeAttrValue(attr.default_value), &out);
  }
  if (attr.minimum) {
    VarintField(5, 1, &out);
    VarintField(6, static_cast<uint64_t>(*attr.minimum), &out);
  }
  if (!attr.allowed_types.empty() || !attr.allowed_strings.empty()) {
    BytesField(7, AllowedValues(attr), &out);
  }
  return out;
}

}  // namespace

// OpDef: name 1, input_arg 2, output_arg 3, attr 4, is_aggregate 16, is_stateful 17,
// is_commutative 18, allows_uninitialized_input 19, is_distributed_communication 21.
std::string SerializeOpDef(const OpDef& op) {
  std::string out;
  BytesField(1, op.name, &out);
  for (const ArgDef& arg : op.inputs) BytesField(2, SerializeArg(arg), &out);
  for (const ArgDef& arg : op.outputs) BytesField(3, SerializeArg(arg), &out);
  for (const AttrDef& attr : op.attrs) BytesField(4, SerializeAttr(attr), &out);
  if (op.is_aggregate) VarintField(16, 1, &out);
  if (op.is_stateful) VarintField(17, 1, &out);
  if (op.is_commutative) VarintField(18, 1, &out);
  if (op.allows_uninitialized_input) VarintField(19, 1, &out);
  if (op.is_distributed_communication) VarintField(21, 1, &out);
  return out;
}

std::string SerializeOpList(const OpRegistry& registry) {
  std::string out;
  for (std::string_view name : registry.OpNames()) {
    if (const OpDef* op = registry.Find(name)) BytesField(1, SerializeOpDef(*op), &out);
  }
  return out;
}

}  // namespace conformance::ops
