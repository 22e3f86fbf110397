#pragma once
// Dtype names of the op-definition grammar ("float", "half", "float16", ...), the type classes
// ("numbertype", "realnumbertype", "quantizedtype") and the DT_* enum names of defaults.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorflow/c/tf_datatype.h"

namespace conformance::ops {

// TensorFlow's DataTypeFromString, without the "_ref" forms.
std::optional<TF_DataType> DataTypeFromName(std::string_view name);
// Every name DataTypeFromName accepts (for did-you-mean suggestions).
std::vector<std::string> DataTypeNames();

// The dtypes of a type class, in TensorFlow's order; nullopt if `name` is not a type class.
std::optional<std::vector<TF_DataType>> TypeClass(std::string_view name);

// "DT_FLOAT" -> TF_FLOAT (the DataType enum's names, as defaults spell them).
std::optional<TF_DataType> DataTypeFromEnumName(std::string_view name);

}  // namespace conformance::ops
