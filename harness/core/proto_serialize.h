#pragma once
// Serialized protos the kernel C API hands out (TF_OpKernelConstruction_GetNodeDef,
// ..._GetAttrFunction): NodeDef, NameAttrList, AttrValue, TensorShapeProto, TensorProto,
// in protobuf wire format with maps ordered by key.
#include <string>

#include "core/attributes.h"
#include "core/export.h"
#include "core/node.h"

namespace conformance::core {

CONFORMANCE_CORE_API std::string SerializeNodeDef(const NodeDef& node);
CONFORMANCE_CORE_API std::string SerializeNameAttrList(const NameAttrList& function);
CONFORMANCE_CORE_API std::string SerializeAttrValue(const AttrValue& value);
CONFORMANCE_CORE_API std::string SerializeTensorShape(const PartialShape& shape);
// dtype, shape and, for fixed-size host types, tensor_content.
CONFORMANCE_CORE_API std::string SerializeTensor(const Tensor& tensor);

}  // namespace conformance::core
