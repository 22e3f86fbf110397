// The reference plugin, except inside the installed TensorFlow, where its memcpy_htod delivers
// the source with its first byte flipped: every tensor TensorFlow copies to the device arrives
// changed, and reads back changed. In plugin_conformance's own children it copies right, so only
// the --tensorflow leg sees the wrong bytes (runtime.copy.in_tensorflow, tests/installed_deaths).
// -DCOPY_CRASHES_IN_TENSORFLOW: there, its memcpy_htod segfaults instead (a death in the session's
// first copy: runtime.session.in_tensorflow, naming the dtype).
#include <cstring>
#include <vector>

#include "../support/inside_tensorflow.h"
#include "../support/reference_init.h"

namespace {

SP_PlatformFns g_platform_fns;  // the reference's, as registered
SP_StreamExecutor g_real;       // the reference's table

[[maybe_unused]] void MemcpyHtoDFlipped(const SP_Device* device, SP_Stream stream,
                                        SP_DeviceMemoryBase* device_dst, const void* host_src,
                                        uint64_t size, TF_Status* status) {
  if (size == 0) {
    g_real.memcpy_htod(device, stream, device_dst, host_src, size, status);
    return;
  }
  // A private copy of the source, changed, that must outlive the queued copy: wait for it here.
  std::vector<unsigned char> changed(size);
  std::memcpy(changed.data(), host_src, size);
  changed[0] ^= 0xff;
  g_real.memcpy_htod(device, stream, device_dst, changed.data(), size, status);
  if (TF_GetCode(status) != TF_OK) return;
  g_real.block_host_until_done(device, stream, status);
}

#if defined(COPY_CRASHES_IN_TENSORFLOW)
void MemcpyHtoDCrashes(const SP_Device*, SP_Stream, SP_DeviceMemoryBase*, const void*, uint64_t,
                       TF_Status*) {
  conformance::test_support::SegfaultHere();
}
#endif

void CreateStreamExecutor(const SP_Platform* platform, SE_CreateStreamExecutorParams* params,
                          TF_Status* status) {
  g_platform_fns.create_stream_executor(platform, params, status);
  if (TF_GetCode(status) != TF_OK) return;
  g_real = *params->stream_executor;
  if (conformance::test_support::InsideInstalledTensorFlow()) {
#if defined(COPY_CRASHES_IN_TENSORFLOW)
    params->stream_executor->memcpy_htod = MemcpyHtoDCrashes;
#else
    params->stream_executor->memcpy_htod = MemcpyHtoDFlipped;
#endif
  }
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void SE_InitPlugin(
    SE_PlatformRegistrationParams* params, TF_Status* status) {
  if (!conformance::test_support::InitAsReferencePlugin(params, status, "copy_in_tensorflow")) {
    return;
  }
  g_platform_fns = *params->platform_fns;
  params->platform_fns->create_stream_executor = CreateStreamExecutor;
}
