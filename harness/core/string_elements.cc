#include "core/string_elements.h"

#include "tensorflow/c/tf_tstring.h"

namespace conformance::core {

std::size_t StringElementSize() { return sizeof(TF_TString); }

void InitStringElements(void* data, std::int64_t count) {
  auto* elements = static_cast<TF_TString*>(data);
  for (std::int64_t i = 0; i < count; ++i) TF_TString_Init(&elements[i]);
}

void DeallocStringElements(void* data, std::int64_t count) {
  auto* elements = static_cast<TF_TString*>(data);
  for (std::int64_t i = 0; i < count; ++i) TF_TString_Dealloc(&elements[i]);
}

}  // namespace conformance::core
