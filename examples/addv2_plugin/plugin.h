#pragma once
// The example plugin's tables and entry points.
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace example {
inline constexpr char kDeviceType[] = "EXAMPLE";
void FillStreamExecutor(SP_StreamExecutor* se);
}  // namespace example

extern "C" {
__attribute__((visibility("default"))) void SE_InitPlugin(SE_PlatformRegistrationParams* params,
                                                          TF_Status* status);
__attribute__((visibility("default"))) void TF_InitKernel();
}
