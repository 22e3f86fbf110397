#pragma once
// Field numbers of TensorFlow's AttrValue and AttrValue.ListValue messages (attr_value.proto),
// which both the KernelDef reader and the GraphDef writer of the mock core use.
#include <cstdint>

namespace conformance::core {

namespace attr_value {
constexpr uint32_t kList = 1, kS = 2, kI = 3, kF = 4, kB = 5, kType = 6, kShape = 7, kTensor = 8,
                   kPlaceholder = 9, kFunc = 10;
}
namespace list_value {
constexpr uint32_t kS = 2, kI = 3, kF = 4, kB = 5, kType = 6, kShape = 7, kTensor = 8, kFunc = 9;
}

}  // namespace conformance::core
