// AddV2 for float on the EXAMPLE device: z = x + y with NumPy-style broadcasting, as
// TensorFlow's BCast does it. The sum is computed on the kernel's stream (Launch), after the
// inputs' pending copies.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
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

// The broadcast shape of x and y, right-aligned, each dim equal or 1; false when incompatible.
bool BroadcastShape(const std::vector<int64_t>& x, const std::vector<int64_t>& y,
                    std::vector<int64_t>* z) {
  const std::size_t rank = std::max(x.size(), y.size());
  z->assign(rank, 1);
  for (std::size_t i = 0; i < rank; ++i) {
    const int64_t a = i < rank - x.size() ? 1 : x[i - (rank - x.size())];
    const int64_t b = i < rank - y.size() ? 1 : y[i - (rank - y.size())];
    if (a != b && a != 1 && b != 1) return false;
    (*z)[i] = a == 1 ? b : a;
  }
  return true;
}

// For each element of z (row-major), the offset of the element of `in` it reads: `in`'s
// dims right-aligned with z's, a dim of 1 repeating its one element.
std::vector<int64_t> SourceOffsets(const std::vector<int64_t>& in, const std::vector<int64_t>& z) {
  int64_t count = 1;
  for (int64_t dim : z) count *= dim;
  std::vector<int64_t> offsets(static_cast<std::size_t>(count));
  const std::size_t lead = z.size() - in.size();
  std::vector<int64_t> index(z.size(), 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t offset = 0;
    for (std::size_t d = lead; d < z.size(); ++d) {
      const int64_t dim = in[d - lead];
      offset = offset * dim + (dim == 1 ? 0 : index[d]);
    }
    offsets[static_cast<std::size_t>(n)] = offset;
    for (std::size_t d = z.size(); d-- > 0;) {  // next index, row-major
      if (++index[d] < z[d]) break;
      index[d] = 0;
    }
  }
  return offsets;
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
  std::vector<int64_t> z_shape;
  if (!BroadcastShape(x_shape, y_shape, &z_shape)) {
    const std::string message =
        "Incompatible shapes: " + ShapeString(x_shape) + " vs. " + ShapeString(y_shape);
    TF_SetStatus(status, TF_INVALID_ARGUMENT, message.c_str());
    return Fail(ctx, status, x, y);
  }
  // The output first: the offset tables below take 16 bytes of host memory per output element,
  // so an output the device cannot hold must fail before they are built (a 2^15 x 2^15
  // broadcast built 16 GiB of them, then got ResourceExhaustedError, or the OOM killer).
  int64_t n = 1;
  for (int64_t dim : z_shape) n *= dim;
  TF_Tensor* z =
      TF_AllocateOutput(ctx, 0, TF_FLOAT, z_shape.data(), static_cast<int>(z_shape.size()),
                        static_cast<size_t>(n) * sizeof(float), status);
  if (TF_GetCode(status) != TF_OK) return Fail(ctx, status, x, y);
  std::vector<int64_t> x_offsets = SourceOffsets(x_shape, z_shape);
  std::vector<int64_t> y_offsets = SourceOffsets(y_shape, z_shape);

  // The handles keep the buffers alive until the stream has run the sum.
  const bool queued =
      Launch(stream, [x, y, z, xo = std::move(x_offsets), yo = std::move(y_offsets)](TF_Status*) {
        const auto* a = static_cast<const float*>(TF_TensorData(x));
        const auto* b = static_cast<const float*>(TF_TensorData(y));
        auto* out = static_cast<float*>(TF_TensorData(z));
        for (std::size_t i = 0; i < xo.size(); ++i) out[i] = a[xo[i]] + b[yo[i]];
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
