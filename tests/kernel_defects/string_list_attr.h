#pragma once
// A list(string) attr read at kernel construction (fused_ops of _FusedConv2D in
// type_list_kernels.cc and of _FusedMatMul in fused_matmul_kernels.cc): one helper, so the two
// fused kernels read their epilogue the same way.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"

namespace kernel_plugin {

inline std::vector<std::string> StringList(TF_OpKernelConstruction* construction, const char* name,
                                           TF_Status* status) {
  int32_t count = 0, total = 0;
  TF_OpKernelConstruction_GetAttrSize(construction, name, &count, &total, status);
  if (TF_GetCode(status) != TF_OK || count <= 0) return {};
  std::vector<char*> values(static_cast<std::size_t>(count));
  std::vector<std::size_t> lengths(static_cast<std::size_t>(count));
  std::vector<char> storage(static_cast<std::size_t>(std::max(total, 1)));
  TF_OpKernelConstruction_GetAttrStringList(construction, name, values.data(), lengths.data(),
                                            count, storage.data(), storage.size(), status);
  std::vector<std::string> list;
  for (int32_t i = 0; i < count && TF_GetCode(status) == TF_OK; ++i)
    list.emplace_back(values[static_cast<std::size_t>(i)], lengths[static_cast<std::size_t>(i)]);
  return list;
}

}  // namespace kernel_plugin
