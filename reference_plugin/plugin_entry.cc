// The plugin's entry points: the only symbols the shared library exports.
//
// TensorFlow looks them up with dlsym after dlopen(RTLD_NOW | RTLD_LOCAL) and calls them in
// this order: SE_InitPlugin (device), TFNPD_InitPlugin (NextPluggableDevice), TF_InitKernel
// (kernels), TF_InitGraph, TF_InitProfiler. Each is optional and looked up on its own. This
// plugin has four: the device part (stream_executor/), the kernels and its own op (kernels/), a
// graph optimizer (graph/) and a profiler (profiler/). Not TFNPD_InitPlugin: without a PJRT
// client (GetPjrtApi) TensorFlow registers no NextPluggableDevice from it, so a template carrying
// it would earn every copy a warning (tests/npd_plugin has that module).
//
// The headers declare the entry points without an export attribute, and the library is built
// with -fvisibility=hidden, so they are marked visible here.
#include "graph/optimizer.h"
#include "kernels/kernel_families.h"
#include "profiler/profiler.h"
#include "stream_executor/diagnostics.h"
#include "stream_executor/platform.h"
#include "stream_executor/status.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/kernels.h"

#define REFERENCE_PLUGIN_EXPORT __attribute__((visibility("default")))

extern "C" REFERENCE_PLUGIN_EXPORT void SE_InitPlugin(SE_PlatformRegistrationParams* params,
                                                      TF_Status* status) {
  reference_plugin::run_and_report(status,
                                   [&] { return reference_plugin::register_platform(params); });
}

// TF_InitKernel has no status to report through: a registration the core refuses is printed
// (the other kernels are still registered) and the conformance suite's registration checks see
// which ones are missing.
extern "C" REFERENCE_PLUGIN_EXPORT void TF_InitKernel(void) {
  try {
    const reference_plugin::Status status = reference_plugin::kernels::register_all_kernels();
    if (!status.ok()) {
      reference_plugin::warn(reference_plugin::str_cat(
          "TF_InitKernel: a kernel registration failed: ", status.message()));
    }
  } catch (const std::exception& e) {
    reference_plugin::warn(reference_plugin::str_cat("TF_InitKernel: ", e.what()));
  }
}

extern "C" REFERENCE_PLUGIN_EXPORT void TF_InitGraph(TP_OptimizerRegistrationParams* params,
                                                     TF_Status* status) {
  reference_plugin::run_and_report(
      status, [&] { return reference_plugin::graph::register_optimizer(params); });
}

extern "C" REFERENCE_PLUGIN_EXPORT void TF_InitProfiler(TF_ProfilerRegistrationParams* params,
                                                        TF_Status* status) {
  reference_plugin::run_and_report(
      status, [&] { return reference_plugin::profiler::register_profiler(params); });
}
