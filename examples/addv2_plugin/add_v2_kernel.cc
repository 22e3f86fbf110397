// AddV2 for float on the EXAMPLE device: z = x + y, same shapes or one side a scalar. The sum
// is computed on the kernel's stream (Launch), after the inputs' pending copies.
#include <string>
#include <vector>

#include "launcher.h"
#include "plugin.h"
#include "tensorflow/c/kernels.h"

namespace example {
namespace {

std::vector<int64_t> ShapeOf(const TF_Tensor* t) {
  std::vector<int64_t> dims(static_cast<std::size_t>(TF_NumDims(t)));
  for (int i = 0; i < TF_NumDims(t); ++i) dims[static_cast<std::size_t>(i)] = TF_Dim(t, i);
  return dims;
}

std::string ShapeString(const std::vector<int64_t>& dims) {
  std::string text = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) text += (i ? "," : "") + std::to_string(dims[i]);
  return text + "]";
}

void Fail(TF_OpKernelContext* ctx, TF_Status* status, TF_Tensor* x, TF_Tensor* y) {
  TF_OpKernelContext_Failure(ctx, status);
  TF_DeleteTensor(x);
  TF_DeleteTensor(y);
  TF_DeleteStatus(status);
}

void ComputeAddV2(void*, TF_OpKernelContext* ctx) {
  TF_Status* status = TF_NewStatus();
  TF_Tensor* x = nullptr;
  TF_Tensor* y = nullptr;
  SP_Stream stream = TF_GetStream(ctx, status);
  if (TF_GetCode(status) != TF_OK) return Fail(ctx, status, x, y);
  TF_GetInput(ctx, 0, &x, status);
  if (TF_GetCode(status) == TF_OK) TF_GetInput(ctx, 1, &y, status);
  if (TF_GetCode(status) != TF_OK) return Fail(ctx, status, x, y);

  const std::vector<int64_t> x_shape = ShapeOf(x), y_shape = ShapeOf(y);
  const bool x_scalar = TF_TensorElementCount(x) == 1, y_scalar = TF_TensorElementCount(y) == 1;
  if (x_shape != y_shape && !x_scalar && !y_scalar) {
    const std::string message =
        "Incompatible shapes: " + ShapeString(x_shape) + " vs. " + ShapeString(y_shape);
    TF_SetStatus(status, TF_INVALID_ARGUMENT, message.c_str());
    return Fail(ctx, status, x, y);
  }
  const std::vector<int64_t>& z_shape = x_scalar ? y_shape : x_shape;
  const int64_t n = x_scalar ? TF_TensorElementCount(y) : TF_TensorElementCount(x);
  TF_Tensor* z =
      TF_AllocateOutput(ctx, 0, TF_FLOAT, z_shape.data(), static_cast<int>(z_shape.size()),
                        static_cast<size_t>(n) * sizeof(float), status);
  if (TF_GetCode(status) != TF_OK) return Fail(ctx, status, x, y);

  // The handles keep the buffers alive until the stream has run the sum.
  const bool queued = Launch(stream, [x, y, z, n, x_scalar, y_scalar](TF_Status*) {
    const auto* a = static_cast<const float*>(TF_TensorData(x));
    const auto* b = static_cast<const float*>(TF_TensorData(y));
    auto* out = static_cast<float*>(TF_TensorData(z));
    for (int64_t i = 0; i < n; ++i) out[i] = a[x_scalar ? 0 : i] + b[y_scalar ? 0 : i];
    TF_DeleteTensor(x);
    TF_DeleteTensor(y);
    TF_DeleteTensor(z);
  });
  if (!queued) {
    TF_DeleteTensor(z);
    TF_SetStatus(status, TF_INTERNAL,
                 "AddV2: the EXAMPLE device could not queue the sum on its stream");
    return Fail(ctx, status, x, y);
  }
  TF_DeleteStatus(status);
}

}  // namespace
}  // namespace example

void TF_InitKernel() {
  TF_Status* status = TF_NewStatus();
  TF_KernelBuilder* builder =
      TF_NewKernelBuilder("AddV2", example::kDeviceType, nullptr, &example::ComputeAddV2, nullptr);
  TF_KernelBuilder_TypeConstraint(builder, "T", TF_FLOAT, status);
  if (TF_GetCode(status) == TF_OK)
    TF_RegisterKernelBuilder("ExampleAddV2", builder, status);
  else
    TF_DeleteKernelBuilder(builder);
  TF_DeleteStatus(status);
}
