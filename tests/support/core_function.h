#pragma once
// A function of the TensorFlow core the plugin runs against, found at run time, for test plugins
// that must load under cores that lack it (the variable C API: TensorFlow 2.19 on exports none).
// The process's global scope first (real TensorFlow loads its libraries RTLD_GLOBAL from 2.12),
// then the library that defines TF_NewKernelBuilder (the mock core, which the plugin's DT_NEEDED
// loads RTLD_LOCAL). NULL where neither has it.
#include <dlfcn.h>

#include "tensorflow/c/kernels.h"

namespace conformance::test_support {

inline void* FindCoreFunction(const char* name) {
  if (void* symbol = dlsym(RTLD_DEFAULT, name); symbol != nullptr) return symbol;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&TF_NewKernelBuilder), &info) == 0) return nullptr;
  void* core = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (core == nullptr) return nullptr;
  void* symbol = dlsym(core, name);
  dlclose(core);  // NOLOAD took a reference; the library stays loaded by the plugin's DT_NEEDED
  return symbol;
}

}  // namespace conformance::test_support
