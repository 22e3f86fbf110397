// Kernels at cells the record judges only through another dtype or at every dtype (the kernel
// tier's borrowed_cells.h and unconstrained_cells.h), or against a run in float64 as well
// (float64_runs.h). Each is compiled in only by its switch:
//   -DAVG_POOL3D_HALF_KERNEL      a half AvgPool3D (NDHWC): each window's in-bounds values summed
//                                 in float, divided by their count, rounded to half once
//   -DDEFECT_AVG_POOL3D_HALF_WRONG_DIVISOR  the same, summed in half and divided by the whole
//                                 window's volume, padding included: right inside the input,
//                                 wrong at every border of a SAME case
//   -DBITCAST_ANY_KERNEL          a Bitcast registered without a constraint (every dtype), as
//                                 DirectML's: the bytes kept, the shape from the two dtypes' sizes
//   -DDEFECT_BITCAST_ANY_HALF_AS_FLOAT  the same with a size table that gives half float's 4 bytes:
//                                 right at every dtype but half, whose shapes it gets wrong
//   -DBATCH_MATRIX_DIAG_KERNEL    a float BatchMatrixDiag (an op TensorFlow's CPU no longer has,
//                                 judged through MatrixDiag's record): each batch's diagonal
//   -DDEFECT_BATCH_MATRIX_DIAG_FIRST_ONLY  the same, writing the first matrix of a batch only
//                                 (the others zero)
//   -DMATMUL_HALF_IN_FLOAT_KERNEL a half MatMul summing its products in float and rounding once,
//                                 as GPUs do: right, though TensorFlow 2.15's CPU sums in half
//   -DMATMUL_HALF_IN_HALF_KERNEL  the same, rounding the sum to half after every product, as
//                                 TensorFlow 2.15's CPU does: 15% off float64 over K = 1100
//   -DAVG_POOL_GRAD_HALF_IN_FLOAT_KERNEL  a half AvgPoolGrad (NHWC) summing each input position's
//                                 shares in float and rounding once: right, though TensorFlow
//                                 2.21's CPU is off float64 on a SAME case
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_call.h"
#include "matmul_shape.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

namespace kernel_plugin {
namespace {

#if defined(AVG_POOL3D_HALF_KERNEL) || defined(DEFECT_AVG_POOL3D_HALF_WRONG_DIVISOR)
#define AVG_POOL3D_HALF_KERNELS 1
#endif
#if defined(BITCAST_ANY_KERNEL) || defined(DEFECT_BITCAST_ANY_HALF_AS_FLOAT)
#define BITCAST_ANY_KERNELS 1
#endif
#if defined(BATCH_MATRIX_DIAG_KERNEL) || defined(DEFECT_BATCH_MATRIX_DIAG_FIRST_ONLY)
#define BATCH_MATRIX_DIAG_KERNELS 1
#endif

#if defined(MATMUL_HALF_IN_FLOAT_KERNEL) || defined(MATMUL_HALF_IN_HALF_KERNEL)
#define MATMUL_HALF_KERNELS 1
#endif

#if defined(AVG_POOL3D_HALF_KERNELS) || defined(MATMUL_HALF_KERNELS) || \
    defined(AVG_POOL_GRAD_HALF_IN_FLOAT_KERNEL)
float HalfToFloat(uint16_t h) {
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  float magnitude = 0;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    magnitude = mantissa != 0 ? NAN : INFINITY;
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  }
  return (h & 0x8000) != 0 ? -magnitude : magnitude;
}

// Rounded to nearest, ties to even (std::nearbyint in the default rounding mode).
uint16_t FloatToHalf(float f) {
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  const float a = std::fabs(f);
  if (std::isnan(a)) return sign | 0x7e00;
  if (a >= 65520.0f) return sign | 0x7c00;
  if (a < 6.103515625e-05f) {  // subnormal: units of 2^-24
    return sign | static_cast<uint16_t>(std::nearbyint(std::ldexp(a, 24)));
  }
  int exponent = 0;
  const float fraction = std::frexp(a, &exponent);  // a = fraction * 2^exponent, [0.5, 1)
  auto mantissa = static_cast<uint32_t>(std::nearbyint(std::ldexp(fraction, 11)));  // 11 bits
  if (mantissa == 2048) {
    mantissa = 1024;
    ++exponent;
  }
  if (exponent + 14 >= 31) return sign | 0x7c00;
  return sign | static_cast<uint16_t>(((exponent + 14) << 10) | (mantissa & 0x3ff));
}
#endif

#if defined(AVG_POOL3D_HALF_KERNELS) || defined(AVG_POOL_GRAD_HALF_IN_FLOAT_KERNEL)
// A pool's window attrs (NHWC or NDHWC: `kDims` entries each).
struct PoolAttrs {
  int64_t ksize[5] = {1, 1, 1, 1, 1}, strides[5] = {1, 1, 1, 1, 1};
  bool same = false;
};

template <int kDims>
void* CreatePool(TF_OpKernelConstruction* construction) {
  auto* attrs = new PoolAttrs;
  TF_Status* status = TF_NewStatus();
  TF_OpKernelConstruction_GetAttrInt64List(construction, "ksize", attrs->ksize, kDims, status);
  TF_OpKernelConstruction_GetAttrInt64List(construction, "strides", attrs->strides, kDims, status);
  char padding[16] = {};
  TF_OpKernelConstruction_GetAttrString(construction, "padding", padding, sizeof padding - 1,
                                        status);
  attrs->same = std::string(padding) == "SAME";
  TF_DeleteStatus(status);
  return attrs;
}
void DeletePool(void* kernel) { delete static_cast<PoolAttrs*>(kernel); }
#endif

#if defined(AVG_POOL3D_HALF_KERNELS)

void ComputeAvgPool3DHalf(void* kernel, TF_OpKernelContext* ctx) {
  const PoolAttrs& a = *static_cast<PoolAttrs*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(1)) return;
  const Dims in = DimsOf(call.inputs[0]);
  if (in.size() != 5) {
    call.Fail(TF_INVALID_ARGUMENT, "AvgPool3D: the input must be NDHWC");
    return;
  }
  Dims out = in;
  int64_t pad[5] = {};
  for (int d = 1; d <= 3; ++d) {
    const int64_t k = a.ksize[d], s = a.strides[d];
    out[d] = a.same ? (in[d] + s - 1) / s : (in[d] - k) / s + 1;
    pad[d] = a.same ? std::max<int64_t>((out[d] - 1) * s + k - in[d], 0) / 2 : 0;
  }
  if (!call.Output(TF_HALF, out)) return;
  EnqueueWork(call.stream, [pi = call.In<uint16_t>(0), po = call.Out<uint16_t>(), in, out, a,
                            pad0 = pad[1], pad1 = pad[2], pad2 = pad[3]] {
    const int64_t pads[3] = {pad0, pad1, pad2};
    int64_t o = 0;
    for (int64_t b = 0; b < out[0]; ++b)
      for (int64_t z = 0; z < out[1]; ++z)
        for (int64_t y = 0; y < out[2]; ++y)
          for (int64_t x = 0; x < out[3]; ++x)
            for (int64_t c = 0; c < out[4]; ++c, ++o) {
              float sum = 0;
              int64_t count = 0;
              for (int64_t kz = 0; kz < a.ksize[1]; ++kz)
                for (int64_t ky = 0; ky < a.ksize[2]; ++ky)
                  for (int64_t kx = 0; kx < a.ksize[3]; ++kx) {
                    const int64_t iz = z * a.strides[1] + kz - pads[0];
                    const int64_t iy = y * a.strides[2] + ky - pads[1];
                    const int64_t ix = x * a.strides[3] + kx - pads[2];
                    if (iz < 0 || iz >= in[1] || iy < 0 || iy >= in[2] || ix < 0 || ix >= in[3])
                      continue;
                    const float v =
                        HalfToFloat(pi[(((b * in[1] + iz) * in[2] + iy) * in[3] + ix) * in[4] + c]);
#if defined(DEFECT_AVG_POOL3D_HALF_WRONG_DIVISOR)
                    sum = HalfToFloat(FloatToHalf(sum + v));  // a half accumulator
#else
                    sum += v;
#endif
                    ++count;
                  }
#if defined(DEFECT_AVG_POOL3D_HALF_WRONG_DIVISOR)
              count = a.ksize[1] * a.ksize[2] * a.ksize[3];
#endif
              po[o] = FloatToHalf(count > 0 ? sum / static_cast<float>(count) : 0.0f);
            }
  });
}
#endif

#if defined(BITCAST_ANY_KERNELS)
struct BitcastTypes {
  TF_DataType from = TF_FLOAT, to = TF_FLOAT;
};

void* CreateBitcast(TF_OpKernelConstruction* construction) {
  auto* types = new BitcastTypes;
  TF_Status* status = TF_NewStatus();
  TF_OpKernelConstruction_GetAttrType(construction, "T", &types->from, status);
  TF_OpKernelConstruction_GetAttrType(construction, "type", &types->to, status);
  TF_DeleteStatus(status);
  return types;
}
void DeleteBitcast(void* kernel) { delete static_cast<BitcastTypes*>(kernel); }

int64_t SizeOf(TF_DataType dtype) {
#if defined(DEFECT_BITCAST_ANY_HALF_AS_FLOAT)
  if (dtype == TF_HALF) return 4;  // the defect: a table row copied from float's
#endif
  return static_cast<int64_t>(TF_DataTypeSize(dtype));
}

void ComputeBitcast(void* kernel, TF_OpKernelContext* ctx) {
  const BitcastTypes& types = *static_cast<BitcastTypes*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(1)) return;
  Dims dims = DimsOf(call.inputs[0]);
  const int64_t from = SizeOf(types.from), to = SizeOf(types.to);
  if (from > to) {
    dims.push_back(from / to);
  } else if (from < to) {
    if (dims.empty() || dims.back() != to / from) {
      call.Fail(TF_INVALID_ARGUMENT, "Bitcast: the last dimension must be the size ratio");
      return;
    }
    dims.pop_back();
  }
  if (!call.Output(types.to, dims)) return;
  const std::size_t bytes =
      std::min(TF_TensorByteSize(call.inputs[0]), TF_TensorByteSize(call.output));
  EnqueueWork(call.stream, [pi = call.In<uint8_t>(0), po = call.Out<uint8_t>(), bytes] {
    std::memcpy(po, pi, bytes);
  });
}
#endif

#if defined(BATCH_MATRIX_DIAG_KERNELS)
void* CreateNothing(TF_OpKernelConstruction* /*construction*/) { return nullptr; }
void DeleteNothing(void* /*kernel*/) {}

void ComputeBatchMatrixDiag(void* /*kernel*/, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  if (!call.Inputs(1)) return;
  const Dims in = DimsOf(call.inputs[0]);
  if (in.empty()) {
    call.Fail(TF_INVALID_ARGUMENT, "BatchMatrixDiag: the diagonal must have rank 1 or more");
    return;
  }
  Dims out = in;
  out.push_back(in.back());
  if (!call.Output(out)) return;
  const int64_t n = in.back();
  const int64_t batches = n == 0 ? 0 : NumElements(in) / n;
  EnqueueWork(call.stream, [pi = call.In(0), po = call.Out(), n, batches] {
    for (int64_t b = 0; b < batches; ++b) {
      for (int64_t i = 0; i < n * n; ++i) po[b * n * n + i] = 0.0f;
#if defined(DEFECT_BATCH_MATRIX_DIAG_FIRST_ONLY)
      if (b > 0) continue;
#endif
      for (int64_t i = 0; i < n; ++i) po[b * n * n + i * n + i] = pi[b * n + i];
    }
  });
}
#endif

#if defined(MATMUL_HALF_KERNELS)
void ComputeMatMulHalf(void* kernel, TF_OpKernelContext* ctx) {
  const MatMulTransposes t = *static_cast<MatMulTransposes*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(2)) return;
  MatMulDims dims;
  if (!MatMulDimsOf(DimsOf(call.inputs[0]), DimsOf(call.inputs[1]), t, dims)) {
    call.Fail(TF_INVALID_ARGUMENT, "MatMul: the inner dimensions differ");
    return;
  }
  const int64_t m = dims.m, k = dims.k, n = dims.n;
  if (!call.Output(TF_HALF, {m, n})) return;
  EnqueueWork(call.stream, [pa = call.In<uint16_t>(0), pb = call.In<uint16_t>(1),
                            out = call.Out<uint16_t>(), t, m, k, n] {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        float sum = 0;
        for (int64_t p = 0; p < k; ++p) {
          sum += HalfToFloat(t.a ? pa[p * m + i] : pa[i * k + p]) *
                 HalfToFloat(t.b ? pb[j * k + p] : pb[p * n + j]);
#if defined(MATMUL_HALF_IN_HALF_KERNEL)
          sum = HalfToFloat(FloatToHalf(sum));  // a half accumulator
#endif
        }
        out[i * n + j] = FloatToHalf(sum);
      }
    }
  });
}
#endif

#if defined(AVG_POOL_GRAD_HALF_IN_FLOAT_KERNEL)
// The gradient of a 2-D average pool: each output window's gradient shared equally among its
// in-bounds input positions (padding not counted), each position's shares summed in float.
void ComputeAvgPoolGradHalf(void* kernel, TF_OpKernelContext* ctx) {
  const PoolAttrs& a = *static_cast<PoolAttrs*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(2)) return;
  if (TF_NumDims(call.inputs[0]) != 1 || TF_Dim(call.inputs[0], 0) != 4 ||
      DimsOf(call.inputs[1]).size() != 4) {
    call.Fail(TF_INVALID_ARGUMENT, "AvgPoolGrad: orig_input_shape and grad must be NHWC");
    return;
  }
  const auto* shape = call.In<int32_t>(0);  // host memory
  const Dims in = {shape[0], shape[1], shape[2], shape[3]};
  const Dims grad = DimsOf(call.inputs[1]);
  int64_t pad[3] = {};
  for (int d = 1; d <= 2; ++d) {
    const int64_t total = (grad[d] - 1) * a.strides[d] + a.ksize[d] - in[d];
    pad[d] = a.same ? std::max<int64_t>(total, 0) / 2 : 0;
  }
  if (!call.Output(TF_HALF, in)) return;
  EnqueueWork(call.stream, [pg = call.In<uint16_t>(1), po = call.Out<uint16_t>(), in, grad, a,
                            pad_y = pad[1], pad_x = pad[2]] {
    std::vector<float> sums(static_cast<std::size_t>(NumElements(in)), 0.0f);
    int64_t g = 0;
    for (int64_t b = 0; b < grad[0]; ++b)
      for (int64_t y = 0; y < grad[1]; ++y)
        for (int64_t x = 0; x < grad[2]; ++x)
          for (int64_t c = 0; c < grad[3]; ++c, ++g) {
            const int64_t y0 = std::max<int64_t>(y * a.strides[1] - pad_y, 0);
            const int64_t y1 = std::min(y * a.strides[1] - pad_y + a.ksize[1], in[1]);
            const int64_t x0 = std::max<int64_t>(x * a.strides[2] - pad_x, 0);
            const int64_t x1 = std::min(x * a.strides[2] - pad_x + a.ksize[2], in[2]);
            const int64_t count = (y1 - y0) * (x1 - x0);
            if (count <= 0) continue;
            const float share = HalfToFloat(pg[g]) / static_cast<float>(count);
            for (int64_t iy = y0; iy < y1; ++iy)
              for (int64_t ix = x0; ix < x1; ++ix)
                sums[static_cast<std::size_t>(((b * in[1] + iy) * in[2] + ix) * in[3] + c)] +=
                    share;
          }
    for (std::size_t i = 0; i < sums.size(); ++i) po[i] = FloatToHalf(sums[i]);
  });
}
#endif

}  // namespace

void RegisterDtypeCellKernels([[maybe_unused]] const char* device_type,
                              [[maybe_unused]] TF_Status* status) {
#if defined(AVG_POOL3D_HALF_KERNELS)
  TF_KernelBuilder* pool = TF_NewKernelBuilder("AvgPool3D", device_type, CreatePool<5>,
                                               ComputeAvgPool3DHalf, DeletePool);
  TF_KernelBuilder_TypeConstraint(pool, "T", TF_HALF, status);
  TF_RegisterKernelBuilder("AvgPool3D", pool, status);
#endif
#if defined(BATCH_MATRIX_DIAG_KERNELS)
  TF_KernelBuilder* diag = TF_NewKernelBuilder("BatchMatrixDiag", device_type, CreateNothing,
                                               ComputeBatchMatrixDiag, DeleteNothing);
  TF_KernelBuilder_TypeConstraint(diag, "T", TF_FLOAT, status);
  TF_RegisterKernelBuilder("BatchMatrixDiag", diag, status);
#endif
#if defined(AVG_POOL_GRAD_HALF_IN_FLOAT_KERNEL)
  TF_KernelBuilder* pool_grad = TF_NewKernelBuilder("AvgPoolGrad", device_type, CreatePool<4>,
                                                    ComputeAvgPoolGradHalf, DeletePool);
  TF_KernelBuilder_TypeConstraint(pool_grad, "T", TF_HALF, status);
  TF_KernelBuilder_HostMemory(pool_grad, "orig_input_shape");
  TF_RegisterKernelBuilder("AvgPoolGrad", pool_grad, status);
#endif
#if defined(MATMUL_HALF_KERNELS)
  TF_KernelBuilder* matmul = TF_NewKernelBuilder("MatMul", device_type, CreateMatMulTransposes,
                                                 ComputeMatMulHalf, DeleteMatMulTransposes);
  TF_KernelBuilder_TypeConstraint(matmul, "T", TF_HALF, status);
  TF_RegisterKernelBuilder("MatMul", matmul, status);
#endif
#if defined(BITCAST_ANY_KERNELS)
  TF_RegisterKernelBuilder(
      "Bitcast",
      TF_NewKernelBuilder("Bitcast", device_type, CreateBitcast, ComputeBitcast, DeleteBitcast),
      status);
#endif
}

}  // namespace kernel_plugin
