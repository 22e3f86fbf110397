#pragma once
// The test plugins that are "the reference plugin with a few callbacks replaced" all start the
// same way: open the built reference plugin (REFERENCE_PLUGIN_PATH, defined by their CMake
// target) and let its SE_InitPlugin fill the tables, which the caller then patches. Only the
// callbacks a test is about differ from the oracle, so every other finding stays out of the way.
#include <dlfcn.h>

#include <string>

#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/tf_status.h"

#ifndef REFERENCE_PLUGIN_PATH
#error "REFERENCE_PLUGIN_PATH must name the built reference plugin"
#endif

namespace conformance::test_support {

// Runs the reference plugin's SE_InitPlugin on `params`. False when it could not be opened
// (status NOT_FOUND, naming `who`) or its init failed (its status is left as it set it).
inline bool InitAsReferencePlugin(SE_PlatformRegistrationParams* params, TF_Status* status,
                                  const char* who) {
  using InitFn = void (*)(SE_PlatformRegistrationParams*, TF_Status*);
  void* reference = dlopen(REFERENCE_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
  auto init =
      reference != nullptr ? reinterpret_cast<InitFn>(dlsym(reference, "SE_InitPlugin")) : nullptr;
  if (init == nullptr) {
    const std::string message =
        std::string(who) + ": cannot load the reference plugin " REFERENCE_PLUGIN_PATH;
    TF_SetStatus(status, TF_NOT_FOUND, message.c_str());
    return false;
  }
  init(params, status);
  return TF_GetCode(status) == TF_OK;
}

}  // namespace conformance::test_support
