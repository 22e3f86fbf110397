#include "ops/type_names.h"

#include <cctype>

#include "core/datatype.h"

namespace conformance::ops {
namespace {

constexpr int kLastDataType = TF_UINT2;

bool IsDeclared(int value) {
  return core::IsDeclaredDataType(value) && value >= 1 && value <= kLastDataType;
}

}  // namespace

std::optional<TF_DataType> DataTypeFromName(std::string_view name) {
  // Aliases TensorFlow accepts besides the canonical DataTypeString names.
  if (name == "float16") return TF_HALF;
  if (name == "complex") return TF_COMPLEX64;
  for (int value = 1; value <= kLastDataType; ++value) {
    if (!IsDeclared(value)) continue;
    const auto dtype = static_cast<TF_DataType>(value);
    if (core::DataTypeName(dtype) == name) return dtype;
  }
  return std::nullopt;
}

std::vector<std::string> DataTypeNames() {
  std::vector<std::string> names = {"float16", "complex"};
  for (int value = 1; value <= kLastDataType; ++value) {
    if (IsDeclared(value)) names.push_back(core::DataTypeName(static_cast<TF_DataType>(value)));
  }
  return names;
}

std::optional<std::vector<TF_DataType>> TypeClass(std::string_view name) {
  if (name == "realnumbertype" || name == "realnumerictype") {
    return std::vector<TF_DataType>{TF_FLOAT, TF_DOUBLE, TF_INT32,  TF_INT64,
                                    TF_UINT8, TF_INT16,  TF_INT8,   TF_UINT16,
                                    TF_HALF,  TF_UINT32, TF_UINT64, TF_BFLOAT16};
  }
  if (name == "numbertype" || name == "numerictype") {
    // qint16 and quint16 too: TensorFlow 2.15 and 2.21 expand Sum's "T: numbertype" with them
    // (specs/ops/registry).
    return std::vector<TF_DataType>{TF_FLOAT,  TF_DOUBLE, TF_INT64,  TF_INT32,     TF_UINT8,
                                    TF_UINT16, TF_INT16,  TF_INT8,   TF_COMPLEX64, TF_COMPLEX128,
                                    TF_QINT8,  TF_QUINT8, TF_QINT32, TF_QINT16,    TF_QUINT16,
                                    TF_HALF,   TF_UINT32, TF_UINT64, TF_BFLOAT16};
  }
  if (name == "quantizedtype") {
    return std::vector<TF_DataType>{TF_QINT8, TF_QUINT8, TF_QINT16, TF_QUINT16, TF_QINT32};
  }
  return std::nullopt;
}

std::optional<TF_DataType> DataTypeFromEnumName(std::string_view name) {
  if (!name.starts_with("DT_")) return std::nullopt;
  std::string lower;
  for (char c : name.substr(3))
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "float16" || lower == "complex") return std::nullopt;  // not enum names
  return DataTypeFromName(lower);
}

}  // namespace conformance::ops
