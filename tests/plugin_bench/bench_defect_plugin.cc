// The reference plugin with two benchmark-killing defects, for plugin_bench's family isolation
// test: memcpy_dtod raises SIGSEGV (kills the memcpy family's child) and allocate never
// returns for a 256-byte request (hangs the allocation family's first benchmark). Every other
// family must still run and report figures.
//
// How: SE_InitPlugin loads the real reference plugin, lets it register, and wraps its
// create_stream_executor to swap the two callbacks after the reference filled the table.
#include <dlfcn.h>
#include <unistd.h>

#include <csignal>

#include "../support/reference_init.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/tf_status.h"

#ifndef REFERENCE_PLUGIN_PATH
#error "REFERENCE_PLUGIN_PATH must name libreference_plugin.so"
#endif

namespace {

decltype(SP_PlatformFns::create_stream_executor) g_real_create_stream_executor = nullptr;
decltype(SP_StreamExecutor::allocate) g_real_allocate = nullptr;

void CrashingMemcpyDtoD(const SP_Device*, SP_Stream, SP_DeviceMemoryBase*,
                        const SP_DeviceMemoryBase*, uint64_t, TF_Status*) {
  std::raise(SIGSEGV);
}

void AllocateHangingAt256(const SP_Device* device, uint64_t size, int64_t memory_space,
                          SP_DeviceMemoryBase* mem) {
  // NOLINTNEXTLINE(bugprone-infinite-loop): the defect; never returns, only a timeout ends it.
  while (size == 256) pause();
  g_real_allocate(device, size, memory_space, mem);
}

void CreateStreamExecutor(const SP_Platform* platform, SE_CreateStreamExecutorParams* params,
                          TF_Status* status) {
  g_real_create_stream_executor(platform, params, status);
  if (TF_GetCode(status) != TF_OK) return;
  g_real_allocate = params->stream_executor->allocate;
  params->stream_executor->allocate = AllocateHangingAt256;
  params->stream_executor->memcpy_dtod = CrashingMemcpyDtoD;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void SE_InitPlugin(
    SE_PlatformRegistrationParams* params, TF_Status* status) {
  if (!conformance::test_support::InitAsReferencePlugin(params, status, "bench defect plugin"))
    return;
  g_real_create_stream_executor = params->platform_fns->create_stream_executor;
  params->platform_fns->create_stream_executor = CreateStreamExecutor;
}
