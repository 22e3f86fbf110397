#include "core/kernel_def_parser.h"

#include "core/attr_value_fields.h"
#include "core/proto_wire.h"

namespace conformance::core {
namespace {

// Field numbers (tensorflow/core/framework/kernel_def.proto, attr_value.proto).
namespace kernel_def {
constexpr uint32_t kOp = 1, kDeviceType = 2, kConstraint = 3, kHostMemoryArg = 4, kLabel = 5,
                   kPriority = 6;
}
namespace constraint {
constexpr uint32_t kName = 1, kAllowedValues = 2;
}

using Field = ProtoReader::Field;

// A known field with an unexpected wire type is kept as an unknown field by protobuf,
// not an error; these helpers return true and leave `out` alone in that case.
bool IsLengthDelimited(const Field& field) {
  return field.wire_type == ProtoReader::kLengthDelimited;
}

// proto3 strings must be UTF-8, or parsing fails.
bool ReadString(const Field& field, std::string* out) {
  if (!IsLengthDelimited(field)) return true;
  if (!IsValidUtf8(field.bytes)) return false;
  *out = std::string(field.bytes);
  return true;
}

// repeated DataType: packed (length-delimited varints) or one varint per field.
bool ReadTypes(const Field& field, std::vector<int>* out) {
  if (field.wire_type == ProtoReader::kVarint) {
    out->push_back(static_cast<int>(field.value));
    return true;
  }
  if (!IsLengthDelimited(field)) return true;
  std::string_view packed = field.bytes;
  while (!packed.empty()) {
    uint64_t v = 0;
    if (!ProtoReader::ReadVarint(&packed, &v)) return false;
    out->push_back(static_cast<int>(v));
  }
  return true;
}

// The allowed DataTypes of an AttrValue: list.type, or a single type.
bool ReadAllowedTypes(std::string_view attr_value_bytes, std::vector<int>* types) {
  ProtoReader reader(attr_value_bytes);
  Field field;
  while (reader.Next(&field)) {
    if (field.number == attr_value::kList && IsLengthDelimited(field)) {
      ProtoReader list(field.bytes);
      Field item;
      while (list.Next(&item)) {
        if (item.number == list_value::kType && !ReadTypes(item, types)) return false;
      }
      if (!list.ok()) return false;
    } else if (field.number == attr_value::kType && field.wire_type == ProtoReader::kVarint) {
      types->push_back(static_cast<int>(field.value));
    }
  }
  return reader.ok();
}

bool ReadConstraint(std::string_view bytes, ParsedKernelDef* out) {
  ProtoReader reader(bytes);
  Field field;
  std::string name;
  std::vector<int> types;
  while (reader.Next(&field)) {
    if (field.number == constraint::kName) {
      if (!ReadString(field, &name)) return false;
    } else if (field.number == constraint::kAllowedValues && IsLengthDelimited(field)) {
      if (!ReadAllowedTypes(field.bytes, &types)) return false;
    }
  }
  if (!reader.ok()) return false;
  for (int t : types) out->type_constraints.emplace_back(name, t);
  return true;
}

}  // namespace

std::optional<ParsedKernelDef> ParseKernelDef(std::string_view bytes) {
  ParsedKernelDef def;
  ProtoReader reader(bytes);
  Field field;
  while (reader.Next(&field)) {
    bool ok = true;
    switch (field.number) {
      case kernel_def::kOp: ok = ReadString(field, &def.op); break;
      case kernel_def::kDeviceType: ok = ReadString(field, &def.device_type); break;
      case kernel_def::kConstraint:
        ok = !IsLengthDelimited(field) || ReadConstraint(field.bytes, &def);
        break;
      case kernel_def::kHostMemoryArg: {
        std::string arg;
        ok = ReadString(field, &arg);
        if (ok && IsLengthDelimited(field)) def.host_memory_args.push_back(std::move(arg));
        break;
      }
      case kernel_def::kLabel: ok = ReadString(field, &def.label); break;
      case kernel_def::kPriority:
        if (field.wire_type == ProtoReader::kVarint)
          def.priority = static_cast<int32_t>(field.value);
        break;
      default: break;  // unknown fields are kept by protobuf; we only skip them
    }
    if (!ok) return std::nullopt;
  }
  if (!reader.ok()) return std::nullopt;
  return def;
}

}  // namespace conformance::core
