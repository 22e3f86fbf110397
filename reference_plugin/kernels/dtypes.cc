#include "kernels/dtypes.h"

namespace reference_plugin::kernels {

const char* dtype_name(TF_DataType dtype) {
  switch (dtype) {
    case TF_FLOAT: return "float";
    case TF_DOUBLE: return "double";
    case TF_HALF: return "half";
    case TF_BFLOAT16: return "bfloat16";
    case TF_INT32: return "int32";
    case TF_INT64: return "int64";
    case TF_BOOL: return "bool";
    default: return "unsupported";
  }
}

}  // namespace reference_plugin::kernels
