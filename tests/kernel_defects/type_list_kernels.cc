// Kernels whose inputs are lists of types, judged only by the generated cases of their families
// (specs/ops/families/list_families.yaml) from the recorded oracle (tests/recorded_oracle).
// _FusedConv2D (float, NHWC) is the convolution TensorFlow's remapper makes of Conv2D followed by
// BiasAdd or FusedBatchNorm and an activation: `args` (typed by the TArgs list) is the bias, the
// bias and an addend, or the batch norm's scale, offset, mean and variance. IdentityN, registered
// with its list attr T constrained to float (found only where every element is float), is
// compiled in with either switch:
//   -DFUSED_CONV2D_KERNEL                 every fusion the family's cases use: BiasAdd,
//                                         FusedBatchNorm (epsilon), then Add, Relu, Relu6, Elu,
//                                         LeakyRelu (leakyrelu_alpha); NHWC and NCHW, strides,
//                                         dilations, VALID/SAME/EXPLICIT padding
//   -DDEFECT_FUSED_CONV2D_IGNORES_RELU    the same, but a fused Relu is never applied (a device
//                                         library that drops the epilogue's activation): right
//                                         for every case without Relu
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "conv_geometry.h"
#include "kernel_call.h"
#include "string_list_attr.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

namespace kernel_plugin {
namespace {

#if defined(FUSED_CONV2D_KERNEL) || defined(DEFECT_FUSED_CONV2D_IGNORES_RELU)
#define FUSED_CONV2D_KERNELS 1
#endif

#if defined(FUSED_CONV2D_KERNELS)
// IdentityN: each input is its output (TF_SetOutput hands the same buffer on).
void* CreateNothing(TF_OpKernelConstruction*) { return nullptr; }
void DeleteNothing(void*) {}

void ComputeIdentityN(void*, TF_OpKernelContext* ctx) {
  TF_Status* status = TF_NewStatus();
  for (int i = 0; i < TF_NumInputs(ctx) && TF_GetCode(status) == TF_OK; ++i) {
    TF_Tensor* input = nullptr;
    TF_GetInput(ctx, i, &input, status);
    if (TF_GetCode(status) == TF_OK) TF_SetOutput(ctx, i, input, status);
    TF_DeleteTensor(input);
  }
  if (TF_GetCode(status) != TF_OK) TF_OpKernelContext_Failure(ctx, status);
  TF_DeleteStatus(status);
}

struct FusedConvAttrs : ConvGeometry {
  bool nchw = false;
  std::vector<std::string> fused_ops;
  float epsilon = 1e-4f, leakyrelu_alpha = 0.2f;
  int64_t num_args = 0;
  bool has(const char* op) const {
    return std::find(fused_ops.begin(), fused_ops.end(), op) != fused_ops.end();
  }
};

void* CreateFusedConv(TF_OpKernelConstruction* construction) {
  auto* attrs = new FusedConvAttrs;
  TF_Status* status = TF_NewStatus();
  ReadConvGeometry(construction, attrs, status);
  char data_format[8] = {};
  TF_OpKernelConstruction_GetAttrString(construction, "data_format", data_format,
                                        sizeof data_format - 1, status);
  attrs->nchw = std::string(data_format) == "NCHW";
  attrs->fused_ops = StringList(construction, "fused_ops", status);
  TF_OpKernelConstruction_GetAttrFloat(construction, "epsilon", &attrs->epsilon, status);
  TF_OpKernelConstruction_GetAttrFloat(construction, "leakyrelu_alpha", &attrs->leakyrelu_alpha,
                                       status);
  TF_OpKernelConstruction_GetAttrInt64(construction, "num_args", &attrs->num_args, status);
  TF_DeleteStatus(status);
  return attrs;
}
void DeleteFusedConv(void* kernel) { delete static_cast<FusedConvAttrs*>(kernel); }

// The epilogue on one convolution result of output channel `o` at flat output index `at`.
float Epilogue(const FusedConvAttrs& a, const std::vector<const float*>& args, int64_t o,
               int64_t at, double sum) {
  double y = sum;
  if (a.has("FusedBatchNorm")) {  // scale, offset, mean, variance
    y = (y - args[2][o]) * (args[0][o] / std::sqrt(double{args[3][o]} + a.epsilon)) + args[1][o];
  } else if (a.has("BiasAdd")) {
    y += args[0][o];
    if (a.has("Add")) y += args[1][at];
  }
  auto value = static_cast<float>(y);
#if !defined(DEFECT_FUSED_CONV2D_IGNORES_RELU)
  if (a.has("Relu")) value = value < 0 ? 0.0f : value;
#endif
  if (a.has("Relu6")) value = value < 0 ? 0.0f : (value > 6 ? 6.0f : value);
  if (a.has("Elu")) value = value < 0 ? std::expm1(value) : value;
  if (a.has("LeakyRelu")) value = value < 0 ? value * a.leakyrelu_alpha : value;
  return value;
}

void ComputeFusedConv(void* kernel, TF_OpKernelContext* ctx) {
  const FusedConvAttrs& a = *static_cast<FusedConvAttrs*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(2 + static_cast<int>(a.num_args))) return;
  const Dims in = DimsOf(call.inputs[0]), f = DimsOf(call.inputs[1]);
  // The dimensions of the input and output: batch, height, width, channels.
  const int h_dim = a.nchw ? 2 : 1, w_dim = a.nchw ? 3 : 2, c_dim = a.nchw ? 1 : 3;
  if (in.size() != 4 || f.size() != 4 || in[c_dim] != f[2]) {
    call.Fail(TF_INVALID_ARGUMENT, "_FusedConv2D: input depth must equal the filter's in_channels");
    return;
  }
  int64_t out_h = 0, out_w = 0, pad_h = 0, pad_w = 0;
  SpatialSize(a, h_dim, in[h_dim], f[0], &out_h, &pad_h);
  SpatialSize(a, w_dim, in[w_dim], f[1], &out_w, &pad_w);
  const Dims out_dims = a.nchw ? Dims{in[0], f[3], out_h, out_w} : Dims{in[0], out_h, out_w, f[3]};
  if (!call.Output(out_dims)) return;
  std::vector<const float*> args;
  for (int64_t i = 0; i < a.num_args; ++i) args.push_back(call.In(2 + static_cast<int>(i)));
  EnqueueWork(call.stream, [pi = call.In(0), pf = call.In(1), out = call.Out(), in, f, a, args,
                            out_h, out_w, pad_h, pad_w, h_dim, w_dim, c_dim] {
    const int64_t depth = in[c_dim], filters = f[3], height = in[h_dim], width = in[w_dim];
    const auto at = [&a](int64_t b, int64_t y, int64_t x, int64_t c, int64_t h, int64_t w,
                         int64_t channels) {
      return a.nchw ? ((b * channels + c) * h + y) * w + x : ((b * h + y) * w + x) * channels + c;
    };
    for (int64_t b = 0; b < in[0]; ++b)
      for (int64_t oy = 0; oy < out_h; ++oy)
        for (int64_t ox = 0; ox < out_w; ++ox)
          for (int64_t o = 0; o < filters; ++o) {
            double sum = 0;
            for (int64_t ky = 0; ky < f[0]; ++ky)
              for (int64_t kx = 0; kx < f[1]; ++kx) {
                const int64_t iy = oy * a.strides[h_dim] + ky * a.dilations[h_dim] - pad_h;
                const int64_t ix = ox * a.strides[w_dim] + kx * a.dilations[w_dim] - pad_w;
                if (iy < 0 || iy >= height || ix < 0 || ix >= width) continue;
                for (int64_t c = 0; c < depth; ++c)
                  sum += double{pi[at(b, iy, ix, c, height, width, depth)]} *
                         pf[((ky * f[1] + kx) * depth + c) * filters + o];
              }
            const int64_t where = at(b, oy, ox, o, out_h, out_w, filters);
            out[where] = Epilogue(a, args, o, where, sum);
          }
  });
}
#endif

}  // namespace

void RegisterTypeListKernels([[maybe_unused]] const char* device_type,
                             [[maybe_unused]] TF_Status* status) {
#if defined(FUSED_CONV2D_KERNELS)
  TF_KernelBuilder* builder = TF_NewKernelBuilder("_FusedConv2D", device_type, CreateFusedConv,
                                                  ComputeFusedConv, DeleteFusedConv);
  TF_KernelBuilder_TypeConstraint(builder, "T", TF_FLOAT, status);
  TF_RegisterKernelBuilder("_FusedConv2D", builder, status);
  TF_KernelBuilder* identity_n =
      TF_NewKernelBuilder("IdentityN", device_type, CreateNothing, ComputeIdentityN, DeleteNothing);
  TF_KernelBuilder_TypeConstraint(identity_n, "T", TF_FLOAT, status);
  TF_RegisterKernelBuilder("IdentityN", identity_n, status);
#endif
}

}  // namespace kernel_plugin
