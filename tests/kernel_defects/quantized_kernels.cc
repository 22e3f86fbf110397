// A quint8 kernel no scenario covers, judged only by the generated cases of its quantized cell
// (the record: tests/recorded_oracle; specs/ops/families/quantized_families.yaml). Each is
// compiled in only by its switch:
//   -DQUANTIZED_MAX_POOL_KERNEL      QuantizedMaxPool (NHWC, VALID and SAME): the largest byte of
//                                    each window, and the input's float range passed on
//   -DDEFECT_QUANTIZED_MAX_POOL_SIGNED  the bytes compared as int8 (an int8 kernel registered for
//                                    quint8 too): wrong wherever a window holds a value of 128
//                                    or more, which only the dtype's edges reach
//   -DDEFECT_QUANTIZED_MAX_POOL_DROPS_RANGE  the output range given as the integers' [0, 255]
//                                    instead of the input's min and max: every value right, the
//                                    float each stands for wrong
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "kernel_call.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

namespace kernel_plugin {
namespace {

#if defined(QUANTIZED_MAX_POOL_KERNEL) || defined(DEFECT_QUANTIZED_MAX_POOL_SIGNED) || \
    defined(DEFECT_QUANTIZED_MAX_POOL_DROPS_RANGE) ||                                  \
    defined(LEGAL_QUANTIZED_MAX_POOL_SYMMETRIC_RANGE)
#define QUANTIZED_MAX_POOL_KERNELS 1
#endif

#if defined(QUANTIZED_MAX_POOL_KERNELS)
struct PoolAttrs {
  int64_t ksize[4] = {1, 1, 1, 1}, strides[4] = {1, 1, 1, 1};
  bool same = false;
};

void* CreatePool(TF_OpKernelConstruction* construction) {
  auto* attrs = new PoolAttrs;
  TF_Status* status = TF_NewStatus();
  TF_OpKernelConstruction_GetAttrInt64List(construction, "ksize", attrs->ksize, 4, status);
  TF_OpKernelConstruction_GetAttrInt64List(construction, "strides", attrs->strides, 4, status);
  char padding[16] = {};
  TF_OpKernelConstruction_GetAttrString(construction, "padding", padding, sizeof padding - 1,
                                        status);
  attrs->same = std::string(padding) == "SAME";
  TF_DeleteStatus(status);
  return attrs;
}
void DeletePool(void* kernel) { delete static_cast<PoolAttrs*>(kernel); }

// The output size of one spatial dimension and the padding before it.
void PooledSize(const PoolAttrs& a, int dim, int64_t in, int64_t* out, int64_t* pad_before) {
  const int64_t k = a.ksize[dim], stride = a.strides[dim];
  if (a.same) {
    *out = (in + stride - 1) / stride;
    *pad_before = std::max<int64_t>((*out - 1) * stride + k - in, 0) / 2;
  } else {
    *out = (in - k) / stride + 1;
    *pad_before = 0;
  }
}

// One byte as the kernel orders it: unsigned, or (the defect) signed.
int Ordered(uint8_t byte) {
#if defined(DEFECT_QUANTIZED_MAX_POOL_SIGNED)
  return static_cast<int8_t>(byte);
#else
  return byte;
#endif
}

// A float scalar output (the output range's ends).
bool FloatScalarOutput(TF_OpKernelContext* ctx, int index, TF_Tensor** out, TF_Status* status) {
  *out = TF_AllocateOutput(ctx, index, TF_FLOAT, nullptr, 0, sizeof(float), status);
  return TF_GetCode(status) == TF_OK;
}

void ComputeQuantizedMaxPool(void* kernel, TF_OpKernelContext* ctx) {
  const PoolAttrs& a = *static_cast<PoolAttrs*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(3)) return;
  const Dims in = DimsOf(call.inputs[0]);
  if (in.size() != 4) {
    call.Fail(TF_INVALID_ARGUMENT, "QuantizedMaxPool: the input must be NHWC");
    return;
  }
  int64_t out_h = 0, out_w = 0, pad_h = 0, pad_w = 0;
  PooledSize(a, 1, in[1], &out_h, &pad_h);
  PooledSize(a, 2, in[2], &out_w, &pad_w);
  if (!call.Output(TF_QUINT8, {in[0], out_h, out_w, in[3]})) return;
  TF_Tensor* min_out = nullptr;
  TF_Tensor* max_out = nullptr;
  if (!FloatScalarOutput(ctx, 1, &min_out, call.status) ||
      !FloatScalarOutput(ctx, 2, &max_out, call.status)) {
    TF_DeleteTensor(min_out);
    return;
  }
  EnqueueWork(
      call.stream,
      [pi = call.In<uint8_t>(0), min_in = call.In<float>(1), max_in = call.In<float>(2),
       out = call.Out<uint8_t>(), pmin = static_cast<float*>(TF_TensorData(min_out)),
       pmax = static_cast<float*>(TF_TensorData(max_out)), in, a, out_h, out_w, pad_h, pad_w] {
        for (int64_t b = 0; b < in[0]; ++b)
          for (int64_t oy = 0; oy < out_h; ++oy)
            for (int64_t ox = 0; ox < out_w; ++ox)
              for (int64_t c = 0; c < in[3]; ++c) {
                bool any = false;
                uint8_t best = 0;
                for (int64_t ky = 0; ky < a.ksize[1]; ++ky)
                  for (int64_t kx = 0; kx < a.ksize[2]; ++kx) {
                    const int64_t iy = oy * a.strides[1] + ky - pad_h;
                    const int64_t ix = ox * a.strides[2] + kx - pad_w;
                    if (iy < 0 || iy >= in[1] || ix < 0 || ix >= in[2]) continue;
                    const uint8_t v = pi[((b * in[1] + iy) * in[2] + ix) * in[3] + c];
                    if (!any || Ordered(v) > Ordered(best)) best = v;
                    any = true;
                  }
                out[((b * out_h + oy) * out_w + ox) * in[3] + c] = best;
              }
#if defined(DEFECT_QUANTIZED_MAX_POOL_DROPS_RANGE)
        *pmin = 0.0f;
        *pmax = 255.0f;
#elif defined(LEGAL_QUANTIZED_MAX_POOL_SYMMETRIC_RANGE)
        const float m = std::max(std::abs(*min_in), std::abs(*max_in));
        const double step_in = (static_cast<double>(*max_in) - *min_in) / 255.0;
        const double step_out = 2.0 * m / 255.0;
        const int64_t n = in[0] * out_h * out_w * in[3];
        for (int64_t i = 0; i < n && step_out > 0; ++i) {
          const double value = *min_in + out[i] * step_in;
          out[i] = static_cast<uint8_t>(std::clamp(std::lround((value + m) / step_out), 0L, 255L));
        }
        *pmin = -m;
        *pmax = m;
#else
        *pmin = *min_in;
        *pmax = *max_in;
#endif
      });
  TF_DeleteTensor(min_out);
  TF_DeleteTensor(max_out);
}
#endif

}  // namespace

void RegisterQuantizedKernels([[maybe_unused]] const char* device_type,
                              [[maybe_unused]] TF_Status* status) {
#if defined(QUANTIZED_MAX_POOL_KERNELS)
  TF_KernelBuilder* builder = TF_NewKernelBuilder("QuantizedMaxPool", device_type, CreatePool,
                                                  ComputeQuantizedMaxPool, DeletePool);
  TF_KernelBuilder_TypeConstraint(builder, "T", TF_QUINT8, status);
  TF_RegisterKernelBuilder("QuantizedMaxPool", builder, status);
#endif
}

}  // namespace kernel_plugin
