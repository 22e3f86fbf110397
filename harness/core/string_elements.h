#pragma once
// The elements of DT_STRING tensors: one TF_TString (tensorflow/core/platform/ctstring.h) of
// 24 bytes each, in host memory, as TensorFlow keeps every string tensor (its memory types put
// DT_STRING on the host whatever the device). A tensor the core allocates starts as empty
// strings, and what its elements own (large strings a kernel malloc'd) is freed with it.
#include <cstddef>
#include <cstdint>

#include "core/export.h"

namespace conformance::core {

// sizeof(TF_TString): the element size of a string tensor's buffer (DataTypeSize says 0, as
// TensorFlow's TF_DataTypeSize does for a type that is not plain bytes).
CONFORMANCE_CORE_API std::size_t StringElementSize();

// Every element empty (TF_TString_Init).
CONFORMANCE_CORE_API void InitStringElements(void* data, std::int64_t count);
// Frees what every element owns (TF_TString_Dealloc) and leaves them empty.
CONFORMANCE_CORE_API void DeallocStringElements(void* data, std::int64_t count);

}  // namespace conformance::core
