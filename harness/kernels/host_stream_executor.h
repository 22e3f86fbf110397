#pragma once
// The host device a CPU kernel plugin's kernels run on, as TensorFlow's CPU device: host
// memory from an aligned allocator (64 bytes, as TensorFlow's CPU allocator), and no queue: a
// copy or a callback is done when the call returns. It is expressed as a StreamExecutor
// registration (the harness's own, never the plugin's), so the kernel tier's device plumbing
// (runtime::DeviceSession, PluginDeviceAllocator with its guards and poison) serves it
// unchanged. The kernels themselves see TensorFlow's CPU device (core::DeviceKind::kCpu): no
// stream through TF_GetStream.
#include <cstddef>

#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace conformance::kernels {

// The device type TensorFlow's CPU device registers kernels for.
inline constexpr const char* kHostDeviceType = "CPU";
// TensorFlow's CPU allocator alignment (Allocator::kAllocatorAlignment).
inline constexpr std::size_t kHostAlignment = 64;

// An SE_InitPlugin for the host device (runtime::DeviceSession::Open(init)).
void InitHostPlatform(SE_PlatformRegistrationParams* params, TF_Status* status);

}  // namespace conformance::kernels
