#pragma once
// The platform: what SE_InitPlugin registers (SP_Platform, SP_PlatformFns and the two
// destroy callbacks), and the platform-level callbacks that create devices and tables.
#include "stream_executor/status.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace reference_plugin {

// Names TensorFlow registers us under. Both must match [A-Z][A-Z_]*. The device type is what
// users write in tf.device("/device:REFDEV:0") and what kernels are registered for.
inline constexpr char kPlatformName[] = "REFERENCE";
inline constexpr char kDeviceType[] = "REFDEV";

// The body of SE_InitPlugin.
Status register_platform(SE_PlatformRegistrationParams* params);

}  // namespace reference_plugin
