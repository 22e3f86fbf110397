#include "core/datatype.h"

namespace conformance::core {

std::size_t DataTypeSize(TF_DataType dtype) {
  switch (dtype) {
    case TF_BOOL:
    case TF_INT8:
    case TF_UINT8:
    case TF_QINT8:
    case TF_QUINT8:
    case TF_FLOAT8_E5M2:
    case TF_FLOAT8_E4M3FN:
    case TF_FLOAT8_E4M3FNUZ:
    case TF_FLOAT8_E4M3B11FNUZ:
    case TF_FLOAT8_E5M2FNUZ:
    case TF_INT4:
    case TF_UINT4:
    case TF_INT2:
    case TF_UINT2: return 1;
    case TF_INT16:
    case TF_UINT16:
    case TF_QINT16:
    case TF_QUINT16:
    case TF_BFLOAT16:
    case TF_HALF: return 2;
    case TF_FLOAT:
    case TF_INT32:
    case TF_UINT32:
    case TF_QINT32: return 4;
    case TF_DOUBLE:
    case TF_INT64:
    case TF_UINT64:
    case TF_COMPLEX64: return 8;
    case TF_COMPLEX128: return 16;
    case TF_STRING:
    case TF_RESOURCE:
    case TF_VARIANT: return 0;
  }
  return 0;
}

std::string DataTypeName(TF_DataType dtype) {
  switch (dtype) {
    case TF_FLOAT: return "float";
    case TF_DOUBLE: return "double";
    case TF_INT32: return "int32";
    case TF_UINT8: return "uint8";
    case TF_INT16: return "int16";
    case TF_INT8: return "int8";
    case TF_STRING: return "string";
    case TF_COMPLEX64: return "complex64";
    case TF_INT64: return "int64";
    case TF_BOOL: return "bool";
    case TF_QINT8: return "qint8";
    case TF_QUINT8: return "quint8";
    case TF_QINT32: return "qint32";
    case TF_BFLOAT16: return "bfloat16";
    case TF_QINT16: return "qint16";
    case TF_QUINT16: return "quint16";
    case TF_UINT16: return "uint16";
    case TF_COMPLEX128: return "complex128";
    case TF_HALF: return "half";
    case TF_RESOURCE: return "resource";
    case TF_VARIANT: return "variant";
    case TF_UINT32: return "uint32";
    case TF_UINT64: return "uint64";
    case TF_FLOAT8_E5M2: return "float8_e5m2";
    case TF_FLOAT8_E4M3FN: return "float8_e4m3fn";
    case TF_FLOAT8_E4M3FNUZ: return "float8_e4m3fnuz";
    case TF_FLOAT8_E4M3B11FNUZ: return "float8_e4m3b11fnuz";
    case TF_FLOAT8_E5M2FNUZ: return "float8_e5m2fnuz";
    case TF_INT4: return "int4";
    case TF_UINT4: return "uint4";
    case TF_INT2: return "int2";
    case TF_UINT2: return "uint2";
  }
  return "unknown dtype enum (" + std::to_string(static_cast<int>(dtype)) + ")";
}

bool IsKernelConstraintType(TF_DataType dtype) {
  const int value = static_cast<int>(dtype);
  return value >= TF_FLOAT && value <= TF_UINT64;
}

bool IsDeclaredDataType(int value) {
  return (value >= 0 && value <= TF_UINT2) || (value >= 101 && value <= 100 + TF_UINT2);
}

}  // namespace conformance::core

extern "C" size_t TF_DataTypeSize(TF_DataType dt) { return conformance::core::DataTypeSize(dt); }
