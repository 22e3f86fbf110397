// The reference plugin (asynchronous: every stream is drained by a worker thread) with one
// choice of how device memory comes back, picked at build time with -DLIFETIME_<NAME>. They
// differ only where TensorFlow's timing matters: TensorFlow without its BFC allocator
// deallocates a kernel's inputs as soon as the kernel is queued (docs/tensorflow/calls.md).
//
//   LIFETIME_AT_ONCE          use_bfc_allocator = 0; deallocate frees at once. The block's bytes
//                             are overwritten on the spot, as a C heap writes its free-list
//                             links into a freed block. A defect: a queued kernel reads garbage.
//   LIFETIME_STREAM_ORDERED   use_bfc_allocator = 0; the reference plugin's own deallocate,
//                             which gives a block back once every stream reached the call.
//   LIFETIME_WAITS            use_bfc_allocator = 0; deallocate waits for the device first
//                             (synchronize_all_activity, as cudaFree does), then frees at once.
//   LIFETIME_BFC_AT_ONCE      use_bfc_allocator = 1 with the at-once deallocate: TensorFlow
//                             never frees while work is queued, so only a warning.
#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>

#include "../support/reference_init.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/tf_status.h"

namespace {

SP_PlatformFns g_platform_fns;  // the reference's, as registered
SP_StreamExecutor g_real;       // the reference's table

// What a C heap does to a block it gets back: it writes into it at once.
[[maybe_unused]] constexpr unsigned char kFreedByte = 0xDD;

// Block sizes as the allocator knows them: TensorFlow's deallocate passes only opaque (its
// SP_DeviceMemoryBase.size is 0, measured on 2.21), as a real allocator expects.
std::mutex g_sizes_mutex;
std::map<void*, std::uint64_t> g_sizes;

void AllocateRecordingSize(const SP_Device* device, uint64_t size, int64_t memory_space,
                           SP_DeviceMemoryBase* memory) {
  g_real.allocate(device, size, memory_space, memory);
  if (memory->opaque == nullptr) return;
  std::lock_guard lock(g_sizes_mutex);
  g_sizes[memory->opaque] = size;
}

[[maybe_unused]] void DeallocateAtOnce(const SP_Device* device, SP_DeviceMemoryBase* memory) {
  if (memory != nullptr && memory->opaque != nullptr) {
    std::lock_guard lock(g_sizes_mutex);
    auto found = g_sizes.find(memory->opaque);
    if (found != g_sizes.end()) {
      std::memset(memory->opaque, kFreedByte, found->second);
      g_sizes.erase(found);
    }
  }
  g_real.deallocate(device, memory);
}

[[maybe_unused]] void DeallocateAfterWaiting(const SP_Device* device, SP_DeviceMemoryBase* memory) {
  TF_Status* status = TF_NewStatus();
  g_real.synchronize_all_activity(device, status);
  TF_DeleteStatus(status);
  DeallocateAtOnce(device, memory);
}

void CreateStreamExecutor(const SP_Platform* platform, SE_CreateStreamExecutorParams* params,
                          TF_Status* status) {
  g_platform_fns.create_stream_executor(platform, params, status);
  if (TF_GetCode(status) != TF_OK) return;
  g_real = *params->stream_executor;
  params->stream_executor->allocate = AllocateRecordingSize;
#if defined(LIFETIME_AT_ONCE) || defined(LIFETIME_BFC_AT_ONCE)
  params->stream_executor->deallocate = DeallocateAtOnce;
#elif defined(LIFETIME_WAITS)
  params->stream_executor->deallocate = DeallocateAfterWaiting;
#endif
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void SE_InitPlugin(
    SE_PlatformRegistrationParams* params, TF_Status* status) {
  if (!conformance::test_support::InitAsReferencePlugin(params, status, "lifetime plugin")) return;
#if defined(LIFETIME_BFC_AT_ONCE)
  params->platform->use_bfc_allocator = 1;
#else
  params->platform->use_bfc_allocator = 0;
#endif
  g_platform_fns = *params->platform_fns;
  params->platform_fns->create_stream_executor = CreateStreamExecutor;
}

// The reference plugin's kernels on this device, so the kernel and model tiers judge the
// lifetimes TensorFlow gives their inputs.
extern "C" __attribute__((visibility("default"))) void TF_InitKernel() {
  void* reference = dlopen(REFERENCE_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
  auto init = reference != nullptr ? reinterpret_cast<void (*)()>(dlsym(reference, "TF_InitKernel"))
                                   : nullptr;
  if (init != nullptr) init();
}
