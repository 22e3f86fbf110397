#pragma once
// Default values of attrs ("= false", "= DT_INT32", "= 'NHWC'", "= [1, 1, 1, 1]"), read the way
// TensorFlow reads them: as the AttrValue field of the attr's type in protobuf text form.
#include <optional>
#include <string_view>

#include "core/attributes.h"

namespace conformance::ops {

// nullopt when `text` is not a value of `attr_type` ("int", "list(type)", ...). Shape, tensor
// and func defaults are accepted unparsed (AttrNotSet) when not empty.
std::optional<core::AttrValue> ParseDefaultValue(std::string_view attr_type, std::string_view text);

}  // namespace conformance::ops
