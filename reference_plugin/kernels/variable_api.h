#pragma once
// The resource-variable functions of kernels_experimental.h, resolved at TF_InitKernel instead
// of imported. TensorFlow 2.21 exports none of them (kernels_experimental.cc is not linked into
// its wheel; 2.15 has them in libtensorflow_framework.so.2), and a plugin that imports a symbol
// the process lacks fails to load at all. So the plugin looks them up with dlsym and registers
// its resource ops only when every one is there: in 2.21 the ops are simply not offered.
#include "tensorflow/c/kernels_experimental.h"

namespace reference_plugin::kernels {

struct VariableApi {
  decltype(&TF_MaybeLockVariableInputMutexesInOrder) lock_inputs = nullptr;
  decltype(&TF_ReleaseVariableInputLockHolder) release_locks = nullptr;
  decltype(&TF_GetInputTensorFromVariable) input_from_variable = nullptr;
  decltype(&TF_AssignUpdateVariable) assign_update = nullptr;
  decltype(&TF_AssignVariable) assign = nullptr;

  bool complete() const {
    return lock_inputs && release_locks && input_from_variable && assign_update && assign;
  }
};

// The functions as the process offers them (looked up once; members NULL where missing).
const VariableApi& variable_api();

}  // namespace reference_plugin::kernels
