// The sample plugin's one kernel: Relu for float on its HOSTSAMPLE device, whose memory is host
// memory (so the kernel computes in place, on the calling thread).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "tensorflow/c/kernels.h"

namespace {

void ComputeRelu(void*, TF_OpKernelContext* ctx) {
  TF_Status* status = TF_NewStatus();
  TF_Tensor* features = nullptr;
  TF_GetInput(ctx, 0, &features, status);
  if (TF_GetCode(status) == TF_OK) {
    std::vector<int64_t> dims(static_cast<std::size_t>(TF_NumDims(features)));
    for (std::size_t i = 0; i < dims.size(); ++i) dims[i] = TF_Dim(features, static_cast<int>(i));
    TF_Tensor* activations =
        TF_AllocateOutput(ctx, 0, TF_FLOAT, dims.data(), static_cast<int>(dims.size()),
                          TF_TensorByteSize(features), status);
    if (TF_GetCode(status) == TF_OK) {
      const auto* in = static_cast<const float*>(TF_TensorData(features));
      auto* out = static_cast<float*>(TF_TensorData(activations));
      for (int64_t i = 0; i < TF_TensorElementCount(features); ++i) out[i] = std::max(in[i], 0.0f);
    }
    TF_DeleteTensor(activations);
  }
  if (TF_GetCode(status) != TF_OK) TF_OpKernelContext_Failure(ctx, status);
  TF_DeleteTensor(features);
  TF_DeleteStatus(status);
}

}  // namespace

extern "C" void TF_InitKernel() {
  TF_Status* status = TF_NewStatus();
  TF_KernelBuilder* builder =
      TF_NewKernelBuilder("Relu", "HOSTSAMPLE", nullptr, &ComputeRelu, nullptr);
  TF_KernelBuilder_TypeConstraint(builder, "T", TF_FLOAT, status);
  if (TF_GetCode(status) == TF_OK) {
    TF_RegisterKernelBuilder("HostSampleRelu", builder, status);
  } else {
    TF_DeleteKernelBuilder(builder);
  }
  TF_DeleteStatus(status);
}
