// A float kernel of one of oneDNN's layout ops, judged from values recorded through its base op
// (tests/tensorflow_oracle/mkl_stand_ins.py; its family: specs/ops/families/standin_families.yaml).
// The metadata inputs say every tensor is in TensorFlow's layout, so the kernel computes Conv2D
// and returns TensorFlow's layout, saying so in its metadata outputs (8 zero bytes); the filter
// it hands on is empty. Compiled in only by its switch:
//   -DMKL_CONV2D_KERNEL                 _MklConv2D: Conv2D (NHWC, strides, dilations, padding)
//   -DDEFECT_MKL_CONV2D_FIRST_FILTER    the same, every output channel computed with the first
//                                       filter (the filter read as if its last dimension were
//                                       1): right only where the filter has one output channel
//   -DMKL_CONV2D_ONEDNN_METADATA        with MKL_CONV2D_KERNEL: metadata outputs of 16 bytes
//                                       whose first is 1 (a oneDNN layout, as TensorFlow's own
//                                       kernel says) and the filter handed on flat: outputs the
//                                       family leaves unjudged, so the kernel still passes
#include <cstddef>
#include <cstdint>

#include "conv_geometry.h"
#include "kernel_call.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

namespace kernel_plugin {
namespace {

#if defined(MKL_CONV2D_KERNEL) || defined(DEFECT_MKL_CONV2D_FIRST_FILTER)
#define MKL_CONV2D_KERNELS 1
#endif

#if defined(MKL_CONV2D_KERNELS)
#if defined(MKL_CONV2D_ONEDNN_METADATA)
constexpr int64_t kMetadataBytes = 16;  // any other metadata: never compared
constexpr uint8_t kFirstMetadataByte = 1;
#else
constexpr int64_t kMetadataBytes = 8;  // a tensor in TensorFlow's layout: 8 zero bytes
constexpr uint8_t kFirstMetadataByte = 0;
#endif

// Outputs 1 to 3 (filter_output, mkl_output, mkl_filter_output): the filter handed on is empty
// (flat under MKL_CONV2D_ONEDNN_METADATA), and both metadata outputs say "TensorFlow's layout"
// (or not). False when the core refused one.
bool LayoutOutputs(const KernelCall& call, int64_t filter_elements) {
  const int64_t metadata = kMetadataBytes;
#if defined(MKL_CONV2D_ONEDNN_METADATA)
  const int64_t handed_on = filter_elements;
#else
  const int64_t handed_on = 0;
  (void)filter_elements;
#endif
  TF_Tensor* filter =
      TF_AllocateOutput(call.ctx, 1, TF_FLOAT, &handed_on, 1,
                        static_cast<size_t>(handed_on) * sizeof(float), call.status);
  if (TF_GetCode(call.status) != TF_OK) return false;
  EnqueueWork(call.stream,
              [to = static_cast<float*>(TF_TensorData(filter)), from = call.In(1), n = handed_on] {
                for (int64_t i = 0; i < n; ++i) to[i] = from[i];
              });
  TF_DeleteTensor(filter);
  for (int index : {2, 3}) {
    TF_Tensor* t = TF_AllocateOutput(call.ctx, index, TF_UINT8, &metadata, 1,
                                     static_cast<size_t>(kMetadataBytes), call.status);
    if (TF_GetCode(call.status) != TF_OK) return false;
    EnqueueWork(call.stream, [bytes = static_cast<uint8_t*>(TF_TensorData(t))] {
      for (int64_t i = 0; i < kMetadataBytes; ++i) bytes[i] = 0;
      bytes[0] = kFirstMetadataByte;
    });
    TF_DeleteTensor(t);
  }
  return true;
}

// Inputs: input [N,H,W,C], filter [KH,KW,C,O], then their metadata (read as TensorFlow's
// layout: the family gives nothing else).
void ComputeMklConv2D(void* kernel, TF_OpKernelContext* ctx) {
  const ConvGeometry& a = *static_cast<ConvGeometry*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(2)) return;
  const Dims in = DimsOf(call.inputs[0]), f = DimsOf(call.inputs[1]);
  if (in.size() != 4 || f.size() != 4 || in[3] != f[2]) {
    call.Fail(TF_INVALID_ARGUMENT, "_MklConv2D: shapes do not match");
    return;
  }
  int64_t out_h = 0, out_w = 0, pad_h = 0, pad_w = 0;
  SpatialSize(a, 1, in[1], f[0], &out_h, &pad_h);
  SpatialSize(a, 2, in[2], f[1], &out_w, &pad_w);
  const Dims out = {in[0], out_h, out_w, f[3]};
  if (!call.Output(out) || !LayoutOutputs(call, NumElements(f))) return;
  EnqueueWork(call.stream,
              [px = call.In(0), pf = call.In(1), po = call.Out(), in, f, out, a, pad_h, pad_w] {
                for (int64_t b = 0; b < out[0]; ++b)
                  for (int64_t oy = 0; oy < out[1]; ++oy)
                    for (int64_t ox = 0; ox < out[2]; ++ox)
                      for (int64_t o = 0; o < out[3]; ++o) {
#if defined(DEFECT_MKL_CONV2D_FIRST_FILTER)
                        const int64_t filter = 0;  // the defect: the first filter for every channel
#else
            const int64_t filter = o;
#endif
                        float sum = 0.0f;
                        for (int64_t ky = 0; ky < f[0]; ++ky)
                          for (int64_t kx = 0; kx < f[1]; ++kx) {
                            const int64_t iy = oy * a.strides[1] + ky * a.dilations[1] - pad_h;
                            const int64_t ix = ox * a.strides[2] + kx * a.dilations[2] - pad_w;
                            if (iy < 0 || iy >= in[1] || ix < 0 || ix >= in[2]) continue;
                            for (int64_t c = 0; c < in[3]; ++c)
                              sum += px[((b * in[1] + iy) * in[2] + ix) * in[3] + c] *
                                     pf[((ky * f[1] + kx) * f[2] + c) * f[3] + filter];
                          }
                        po[((b * out[1] + oy) * out[2] + ox) * out[3] + o] = sum;
                      }
              });
}
#endif

}  // namespace

void RegisterMklLayoutKernels([[maybe_unused]] const char* device_type,
                              [[maybe_unused]] TF_Status* status) {
#if defined(MKL_CONV2D_KERNELS)
  TF_KernelBuilder* conv = TF_NewKernelBuilder("_MklConv2D", device_type, CreateConvGeometry,
                                               ComputeMklConv2D, DeleteConvGeometry);
  TF_KernelBuilder_TypeConstraint(conv, "T", TF_FLOAT, status);
  TF_RegisterKernelBuilder("_MklConv2D", conv, status);
#endif
}

}  // namespace kernel_plugin
