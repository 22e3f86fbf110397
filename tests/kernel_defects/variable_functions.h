// The core's variable functions (kernels_experimental.h), for the test kernels that read or
// update a variable (variable_kernels.cc, philox_kernels.cc). They are looked up at run time: a
// core that lacks them (TensorFlow 2.21) must still load the plugin
// (tests/support/core_function.h); such a core's kernels are not registered.
#ifndef PLUGIN_CONFORMANCE_TESTS_KERNEL_DEFECTS_VARIABLE_FUNCTIONS_H_
#define PLUGIN_CONFORMANCE_TESTS_KERNEL_DEFECTS_VARIABLE_FUNCTIONS_H_

#include <cstddef>

#include "kernel_call.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"
#include "../support/core_function.h"

namespace kernel_plugin {

struct VariableFunctions {
  decltype(&TF_MaybeLockVariableInputMutexesInOrder) lock = nullptr;
  decltype(&TF_GetInputTensorFromVariable) get = nullptr;
  decltype(&TF_ReleaseVariableInputLockHolder) release = nullptr;
  decltype(&TF_OpKernelContext_ForwardRefInputToRefOutput) forward_ref = nullptr;
  bool complete() const {
    return lock != nullptr && get != nullptr && release != nullptr && forward_ref != nullptr;
  }
};

inline const VariableFunctions& Variables() {
  static const VariableFunctions functions = [] {
    VariableFunctions found;
    const auto find = conformance::test_support::FindCoreFunction;
    found.lock =
        reinterpret_cast<decltype(found.lock)>(find("TF_MaybeLockVariableInputMutexesInOrder"));
    found.get = reinterpret_cast<decltype(found.get)>(find("TF_GetInputTensorFromVariable"));
    found.release =
        reinterpret_cast<decltype(found.release)>(find("TF_ReleaseVariableInputLockHolder"));
    found.forward_ref = reinterpret_cast<decltype(found.forward_ref)>(
        find("TF_OpKernelContext_ForwardRefInputToRefOutput"));
    return found;
  }();
  return functions;
}

// copyFunc: TensorFlow's copy of a variable buffer a reader still shares, in stream order.
inline void CopyVariable(TF_OpKernelContext* ctx, TF_Tensor* source, TF_Tensor* dest) {
  TF_Status* status = TF_NewStatus();
  SP_Stream stream = TF_GetStream(ctx, status);
  if (TF_GetCode(status) == TF_OK) {
    EnqueueWork(stream,
                [from = static_cast<const char*>(TF_TensorData(source)),
                 to = static_cast<char*>(TF_TensorData(dest)), bytes = TF_TensorByteSize(source)] {
                  for (std::size_t i = 0; i < bytes; ++i) to[i] = from[i];
                });
  }
  TF_DeleteStatus(status);
}

// Input `index`'s variable (a resource handle or a reference input), locked for the call: the
// holder and the tensor, or the failure in `status`. The caller releases the holder.
inline TF_Tensor* LockedVariable(TF_OpKernelContext* ctx, int index,
                                 TF_VariableInputLockHolder** holder, TF_Status* status) {
  const VariableFunctions& api = Variables();
  const int inputs[] = {index};
  api.lock(ctx, /*do_lock=*/true, /*sparse=*/false, inputs, 1, &CopyVariable, holder, status);
  if (TF_GetCode(status) != TF_OK) return nullptr;
  TF_Tensor* tensor = nullptr;
  api.get(ctx, index, /*lock_held=*/true, /*isVariantType=*/false, /*sparse=*/false, &CopyVariable,
          &tensor, status);
  if (TF_GetCode(status) == TF_OK && tensor == nullptr)
    TF_SetStatus(status, TF_NOT_FOUND, "the variable input holds no tensor");
  return tensor;
}

}  // namespace kernel_plugin

#endif  // PLUGIN_CONFORMANCE_TESTS_KERNEL_DEFECTS_VARIABLE_FUNCTIONS_H_
