#include "kernels/variable_api.h"

#include <dlfcn.h>

#include "tensorflow/c/kernels.h"

namespace reference_plugin::kernels {
namespace {

// The library that gave us TF_NewKernelBuilder (TensorFlow's framework library, or the mock
// core standing in for it), opened again without loading anything: dlsym(RTLD_DEFAULT) does
// not see it when the process loaded it with RTLD_LOCAL.
void* framework_library() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&TF_NewKernelBuilder), &info) == 0 ||
      info.dli_fname == nullptr) {
    return nullptr;
  }
  return dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
}

template <typename Fn>
void resolve(void* library, const char* name, Fn* out) {
  void* symbol = dlsym(RTLD_DEFAULT, name);
  if (symbol == nullptr && library != nullptr) symbol = dlsym(library, name);
  *out = reinterpret_cast<Fn>(symbol);
}

}  // namespace

const VariableApi& variable_api() {
  static const VariableApi api = [] {
    VariableApi found;
    void* library = framework_library();
    resolve(library, "TF_MaybeLockVariableInputMutexesInOrder", &found.lock_inputs);
    resolve(library, "TF_ReleaseVariableInputLockHolder", &found.release_locks);
    resolve(library, "TF_GetInputTensorFromVariable", &found.input_from_variable);
    resolve(library, "TF_AssignUpdateVariable", &found.assign_update);
    resolve(library, "TF_AssignVariable", &found.assign);
    // RTLD_NOLOAD took a reference; the library stays loaded by whoever loaded it first.
    if (library != nullptr) dlclose(library);
    return found;
  }();
  return api;
}

}  // namespace reference_plugin::kernels
