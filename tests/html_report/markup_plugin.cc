// The failing run of the HTML report's tests: the reference plugin, except that memcpy_dtoh
// fails with a status message full of markup and prints markup on stderr. A report that did
// not escape plugin text would run the script (window.__markup_plugin_ran) or grow a table
// cell with id "markup-plugin-cell"; the browser test checks that neither happens and that
// the text is shown as text. One broken callback also gives the report a root cause.
//
// How: SE_InitPlugin loads the real reference plugin, lets it register, and wraps its
// create_stream_executor to swap memcpy_dtoh after the reference filled the table.
#include <dlfcn.h>

#include <cstdio>

#include "../support/reference_init.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/tf_status.h"

#ifndef REFERENCE_PLUGIN_PATH
#error "REFERENCE_PLUGIN_PATH must name libreference_plugin.so"
#endif

namespace {

constexpr const char* kMarkup =
    "</td></tr></table><td id=\"markup-plugin-cell\">x</td>"
    "<script>window.__markup_plugin_ran = 1;</script><img src=\"http://127.0.0.1:9/x.png\">";

decltype(SP_PlatformFns::create_stream_executor) g_real_create_stream_executor = nullptr;

void FailingMemcpyDtoH(const SP_Device*, SP_Stream, void*, const SP_DeviceMemoryBase*, uint64_t,
                       TF_Status* status) {
  std::fprintf(stderr, "markup plugin: %s\n", kMarkup);
  TF_SetStatus(status, TF_INTERNAL, kMarkup);
}

void CreateStreamExecutor(const SP_Platform* platform, SE_CreateStreamExecutorParams* params,
                          TF_Status* status) {
  g_real_create_stream_executor(platform, params, status);
  if (TF_GetCode(status) != TF_OK) return;
  params->stream_executor->memcpy_dtoh = FailingMemcpyDtoH;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void SE_InitPlugin(
    SE_PlatformRegistrationParams* params, TF_Status* status) {
  if (!conformance::test_support::InitAsReferencePlugin(params, status, "markup plugin")) return;
  g_real_create_stream_executor = params->platform_fns->create_stream_executor;
  params->platform_fns->create_stream_executor = CreateStreamExecutor;
}
