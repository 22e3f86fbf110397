#pragma once
// Facts about TF_DataType values that several parts of the core need.
#include <cstddef>
#include <string>

#include "core/export.h"
#include "tensorflow/c/tf_datatype.h"

namespace conformance::core {

// Bytes per element; 0 for string, resource, variant and unknown values. The dtypes
// 24..32 (float8 variants, int4/uint4, int2/uint2) are 1 byte: the newest TensorFlow
// stores one element per byte and lists all of them in DataTypeSize.
CONFORMANCE_CORE_API std::size_t DataTypeSize(TF_DataType dtype);

// TensorFlow's DataTypeString: "float", "int32", ...; "unknown dtype enum (N)" otherwise.
CONFORMANCE_CORE_API std::string DataTypeName(TF_DataType dtype);

// Types TF_KernelBuilder_TypeConstraint accepts: TensorFlow's "all types" (numbers,
// bool, string, resource, variant) plus the quantized types, i.e. 1..23. The float8,
// int4 and int2 types are rejected with "Unexpected type <n>" exactly as TensorFlow does.
CONFORMANCE_CORE_API bool IsKernelConstraintType(TF_DataType dtype);

// Fixed-size element types whose bytes can be copied (everything with a size).
inline bool CanMemcpy(TF_DataType dtype) { return DataTypeSize(dtype) > 0; }

// Values the DataType proto enum declares (DT_INVALID, the 32 types and their _REF
// twins at +100): what TensorFlow's DataType_IsValid accepts.
CONFORMANCE_CORE_API bool IsDeclaredDataType(int value);

}  // namespace conformance::core
