// TF_TensorFromProto (c_api.h): a serialized tensorflow.TensorProto decoded into an existing
// TF_Tensor. Measured on the 2.15.1 and 2.21.0 wheels:
// - bytes that are not a TensorProto: INVALID_ARGUMENT "Unparseable tensorflow.TensorProto
//   proto"; a TensorProto that is not a valid tensor (dtype 0, a negative dimension, an
//   unknown rank, tensor_content of the wrong size): "Unparseable tensor proto". Either way
//   `to` is left as it was.
// - tensor_content, when present, is the elements' bytes; otherwise the typed *_val field:
//   none at all fills zeros, fewer than the shape needs repeat the last value, more are cut.
// String, resource and variant tensors need C++ element objects the core does not have:
// UNIMPLEMENTED, recorded as a call error.
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/datatype.h"
#include "core/graph_def_reader.h"
#include "core/live_handles.h"
#include "core/proto_wire.h"
#include "core/status.h"
#include "core/tensor.h"
#include "tensorflow/c/c_api.h"

namespace core = conformance::core;

namespace {

using Field = core::ProtoReader::Field;

// TensorProto field numbers (tensor.proto).
constexpr uint32_t kDtype = 1;
constexpr uint32_t kShape = 2;
constexpr uint32_t kContent = 4;

enum class Encoding { kVarint, kFixed32, kFixed64, kByte };
struct ValueField {
  uint32_t number;
  Encoding encoding;
  std::size_t components = 1;  // 2 for complex numbers (real, imaginary)
};

// Which *_val field holds a dtype's values, and how each value is encoded.
std::optional<ValueField> ValueFieldOf(TF_DataType dtype) {
  switch (dtype) {
    case TF_FLOAT: return ValueField{5, Encoding::kFixed32};
    case TF_DOUBLE: return ValueField{6, Encoding::kFixed64};
    case TF_INT32:
    case TF_UINT8:
    case TF_INT16:
    case TF_INT8:
    case TF_UINT16:
    case TF_QINT8:
    case TF_QUINT8:
    case TF_QINT16:
    case TF_QUINT16:
    case TF_QINT32:
    case TF_INT4:
    case TF_UINT4: return ValueField{7, Encoding::kVarint};
    case TF_COMPLEX64: return ValueField{9, Encoding::kFixed32, 2};
    case TF_INT64: return ValueField{10, Encoding::kVarint};
    case TF_BOOL: return ValueField{11, Encoding::kVarint};
    case TF_COMPLEX128: return ValueField{12, Encoding::kFixed64, 2};
    case TF_HALF:
    case TF_BFLOAT16: return ValueField{13, Encoding::kVarint};
    case TF_UINT32: return ValueField{16, Encoding::kVarint};
    case TF_UINT64: return ValueField{17, Encoding::kVarint};
    case TF_FLOAT8_E5M2:
    case TF_FLOAT8_E4M3FN:
    case TF_FLOAT8_E4M3FNUZ:
    case TF_FLOAT8_E4M3B11FNUZ:
    case TF_FLOAT8_E5M2FNUZ: return ValueField{18, Encoding::kByte};
    default: return std::nullopt;
  }
}

// Appends the low `width` bytes of `value` (little-endian, as x86-64 and TensorFlow store them).
void AppendValue(uint64_t value, std::size_t width, std::string* out) {
  char bytes[8];
  std::memcpy(bytes, &value, sizeof(bytes));
  out->append(bytes, width);
}

// The values of one *_val occurrence, packed or not, each `width` bytes; false when malformed.
bool ReadValues(const Field& field, Encoding encoding, std::size_t width, std::string* out) {
  if (encoding == Encoding::kByte) {  // a bytes field: one element per byte
    if (field.wire_type != core::ProtoReader::kLengthDelimited) return false;
    out->append(field.bytes);
    return true;
  }
  if (field.wire_type != core::ProtoReader::kLengthDelimited) {
    AppendValue(field.value, width, out);
    return true;
  }
  std::string_view payload = field.bytes;  // packed
  while (!payload.empty()) {
    uint64_t value = 0;
    if (encoding == Encoding::kVarint) {
      if (!core::ProtoReader::ReadVarint(&payload, &value)) return false;
    } else {
      const std::size_t size = encoding == Encoding::kFixed32 ? 4 : 8;
      if (payload.size() < size) return false;
      std::memcpy(&value, payload.data(), size);
      payload.remove_prefix(size);
    }
    AppendValue(value, width, out);
  }
  return true;
}

struct Decoded {
  TF_DataType dtype = static_cast<TF_DataType>(0);
  std::optional<core::PartialShape> shape = core::PartialShape::Of({});
  std::optional<std::string> content;
  std::string values;  // the typed values, `element_size / components` bytes each
};

core::Status Unparseable() {
  return core::Status::Error(TF_INVALID_ARGUMENT, "Unparseable tensor proto");
}

// The element bytes of the tensor, `count` elements of `element_size`.
core::Status ElementBytes(const Decoded& proto, int64_t count, std::size_t element_size,
                          std::string* bytes) {
  const std::size_t total = static_cast<std::size_t>(count) * element_size;
  if (proto.content) {
    if (proto.content->size() != total) return Unparseable();
    *bytes = *proto.content;
    return core::Status::Ok();
  }
  const std::size_t have = proto.values.size() / element_size;  // whole elements given
  if (have == 0) {
    bytes->assign(total, '\0');
  } else if (have >= static_cast<std::size_t>(count)) {
    *bytes = proto.values.substr(0, total);
  } else {
    *bytes = proto.values.substr(0, have * element_size);
    const std::string last = proto.values.substr((have - 1) * element_size, element_size);
    while (bytes->size() < total) bytes->append(last);
  }
  return core::Status::Ok();
}

core::Status Decode(std::string_view serialized, TF_Tensor* to) {
  const core::Status not_a_proto =
      core::Status::Error(TF_INVALID_ARGUMENT, "Unparseable tensorflow.TensorProto proto");
  Decoded proto;
  std::vector<Field> value_fields;  // read once the dtype is known: it may follow them
  core::ProtoReader reader(serialized);
  Field field;
  while (reader.Next(&field)) {
    if (field.number == kDtype && field.wire_type == core::ProtoReader::kVarint) {
      proto.dtype = static_cast<TF_DataType>(field.value);
    } else if (field.number == kShape && field.wire_type == core::ProtoReader::kLengthDelimited) {
      proto.shape = core::ReadTensorShape(field.bytes);
      if (!proto.shape) return not_a_proto;
    } else if (field.number == kContent && field.wire_type == core::ProtoReader::kLengthDelimited) {
      proto.content = std::string(field.bytes);
    } else {
      value_fields.push_back(field);
    }
  }
  if (!reader.ok()) return not_a_proto;
  if (proto.dtype == TF_STRING || proto.dtype == TF_RESOURCE || proto.dtype == TF_VARIANT) {
    core::Status status = core::Status::Error(
        TF_UNIMPLEMENTED, "TF_TensorFromProto of a " + core::DataTypeName(proto.dtype) +
                              " tensor is not implemented by the plugin_conformance mock core");
    core::RecordCallError("TF_TensorFromProto", core::DataTypeName(proto.dtype), status);
    return status;
  }
  const std::optional<ValueField> values_field = ValueFieldOf(proto.dtype);
  const std::size_t element_size = core::DataTypeSize(proto.dtype);
  if (!values_field || element_size == 0) return Unparseable();
  if (proto.shape->unknown_rank) return Unparseable();
  for (int64_t dim : proto.shape->dims) {
    if (dim < 0) return Unparseable();
  }
  const std::size_t width = element_size / values_field->components;
  for (const Field& value : value_fields) {
    if (value.number != values_field->number) continue;
    if (!ReadValues(value, values_field->encoding, width, &proto.values)) return not_a_proto;
  }
  core::Shape shape = proto.shape->dims;
  std::string bytes;
  core::Status status = ElementBytes(proto, core::NumElements(shape), element_size, &bytes);
  if (!status.ok()) return status;
  core::Tensor tensor = core::Tensor::Allocate(proto.dtype, std::move(shape), &status);
  if (!status.ok()) return status;
  if (!bytes.empty()) std::memcpy(tensor.data(), bytes.data(), bytes.size());
  to->tensor = std::move(tensor);
  return core::Status::Ok();
}

}  // namespace

extern "C" {

void TF_TensorFromProto(const TF_Buffer* from, TF_Tensor* to, TF_Status* status) {
  const std::string_view serialized(static_cast<const char*>(from->data), from->length);
  status->status = Decode(serialized, to);
}

}  // extern "C"
