// The plugin's entry points: the only symbols the shared library exports.
//
// TensorFlow looks them up with dlsym after dlopen(RTLD_NOW | RTLD_LOCAL) and calls them in
// this order: SE_InitPlugin (device), TF_InitKernel (kernels), TF_InitGraph, TF_InitProfiler.
// Each is optional. This plugin has the device part only for now; kernels will get their own
// folder (kernels/) with a TF_InitKernel defined next to SE_InitPlugin here.
//
// The headers declare the entry points without an export attribute, and the library is built
// with -fvisibility=hidden, so they are marked visible here.
#include "stream_executor/platform.h"
#include "stream_executor/status.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

#define REFERENCE_PLUGIN_EXPORT __attribute__((visibility("default")))

extern "C" REFERENCE_PLUGIN_EXPORT void SE_InitPlugin(SE_PlatformRegistrationParams* params,
                                                      TF_Status* status) {
  reference_plugin::run_and_report(status, [&] { return reference_plugin::register_platform(params); });
}
