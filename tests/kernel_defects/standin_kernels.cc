// float kernels of ops TensorFlow's CPU has no kernel for, judged from values recorded through
// a CPU stand-in (tests/tensorflow_oracle/cpu_stand_ins.py; their families:
// specs/ops/families/standin_families.yaml).
// Each is compiled in only by its switch:
//   -DCONV2D_BACKPROP_INPUT_V2_KERNEL   Conv2DBackpropInputV2: the gradient scattered into zeros
//                                       of the input's shape (NHWC, strides, dilations, padding)
//   -DDEFECT_CONV2D_BACKPROP_INPUT_V2_READS_INPUT  the same, scattered into a copy of the input's
//                                       values: the op uses only the input's shape, so a kernel
//                                       that reuses the input as its accumulator is wrong wherever
//                                       the input is not zero
//   -DTILE_GRAD_KERNEL                  TileGrad: every tile of the input added into the output
//   -DDEFECT_TILE_GRAD_FIRST_TILE       TileGrad that copies the first tile only (right where
//                                       every multiple is 1)
#include <cstddef>
#include <cstdint>
#include <vector>

#include "conv_geometry.h"
#include "kernel_call.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

namespace kernel_plugin {
namespace {

#if defined(CONV2D_BACKPROP_INPUT_V2_KERNEL) || defined(DEFECT_CONV2D_BACKPROP_INPUT_V2_READS_INPUT)
#define CONV2D_BACKPROP_INPUT_V2_KERNELS 1
#endif
#if defined(TILE_GRAD_KERNEL) || defined(DEFECT_TILE_GRAD_FIRST_TILE)
#define TILE_GRAD_KERNELS 1
#endif

#if defined(CONV2D_BACKPROP_INPUT_V2_KERNELS)

// Inputs: input [N,H,W,C] (its shape only), filter [KH,KW,C,O], out_backprop [N,OH,OW,O].
void ComputeConv2DBackpropInputV2(void* kernel, TF_OpKernelContext* ctx) {
  const ConvGeometry& a = *static_cast<ConvGeometry*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(3)) return;
  const Dims in = DimsOf(call.inputs[0]), f = DimsOf(call.inputs[1]);
  const Dims g = DimsOf(call.inputs[2]);
  if (in.size() != 4 || f.size() != 4 || g.size() != 4 || in[3] != f[2] || g[3] != f[3]) {
    call.Fail(TF_INVALID_ARGUMENT, "Conv2DBackpropInputV2: shapes do not match");
    return;
  }
  int64_t out_h = 0, out_w = 0, pad_h = 0, pad_w = 0;
  SpatialSize(a, 1, in[1], f[0], &out_h, &pad_h);
  SpatialSize(a, 2, in[2], f[1], &out_w, &pad_w);
  if (out_h != g[1] || out_w != g[2]) {
    call.Fail(TF_INVALID_ARGUMENT, "Conv2DBackpropInputV2: out_backprop has the wrong size");
    return;
  }
  if (!call.Output(in)) return;
  EnqueueWork(call.stream, [px = call.In(0), pf = call.In(1), pg = call.In(2), out = call.Out(), in,
                            f, a, out_h, out_w, pad_h, pad_w] {
    const int64_t depth = in[3], filters = f[3], n = NumElements(in);
#if defined(DEFECT_CONV2D_BACKPROP_INPUT_V2_READS_INPUT)
    for (int64_t i = 0; i < n; ++i) out[i] = px[i];  // the defect: the input's values start it
#else
    (void)px;  // only the input's shape defines the result
    for (int64_t i = 0; i < n; ++i) out[i] = 0.0f;
#endif
    for (int64_t b = 0; b < in[0]; ++b)
      for (int64_t oy = 0; oy < out_h; ++oy)
        for (int64_t ox = 0; ox < out_w; ++ox)
          for (int64_t ky = 0; ky < f[0]; ++ky)
            for (int64_t kx = 0; kx < f[1]; ++kx) {
              const int64_t iy = oy * a.strides[1] + ky * a.dilations[1] - pad_h;
              const int64_t ix = ox * a.strides[2] + kx * a.dilations[2] - pad_w;
              if (iy < 0 || iy >= in[1] || ix < 0 || ix >= in[2]) continue;
              for (int64_t c = 0; c < depth; ++c)
                for (int64_t o = 0; o < filters; ++o) {
                  out[((b * in[1] + iy) * in[2] + ix) * depth + c] +=
                      pg[((b * out_h + oy) * out_w + ox) * filters + o] *
                      pf[((ky * f[1] + kx) * depth + c) * filters + o];
                }
            }
  });
}
#endif

#if defined(TILE_GRAD_KERNELS)
void* CreateNothing(TF_OpKernelConstruction*) { return nullptr; }
void DeleteNothing(void*) {}

// Inputs: input (the tiled gradient) and multiples (int32, host memory).
void ComputeTileGrad(void*, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  if (!call.Inputs(2)) return;
  const Dims in = DimsOf(call.inputs[0]);
  const auto* multiples = call.In<int32_t>(1);
  if (NumElements(DimsOf(call.inputs[1])) != static_cast<int64_t>(in.size())) {
    call.Fail(TF_INVALID_ARGUMENT, "TileGrad: one multiple per dimension");
    return;
  }
  Dims out(in.size());
  for (std::size_t d = 0; d < in.size(); ++d) {
    if (multiples[d] <= 0 || in[d] % multiples[d] != 0) {
      call.Fail(TF_INVALID_ARGUMENT, "TileGrad: a multiple does not divide the input");
      return;
    }
    out[d] = in[d] / multiples[d];
  }
  if (!call.Output(out)) return;
  EnqueueWork(call.stream, [pin = call.In(0), pout = call.Out(), in, out] {
    const int64_t n_out = NumElements(out), n_in = NumElements(in);
    for (int64_t i = 0; i < n_out; ++i) pout[i] = 0.0f;
    // Each input element, row-major, adds into the output element its index modulo the
    // output's shape names.
    std::vector<int64_t> index(in.size(), 0);
    for (int64_t i = 0; i < n_in; ++i) {
      int64_t target = 0;
      bool first_tile = true;
      for (std::size_t d = 0; d < in.size(); ++d) {
        target = target * out[d] + index[d] % out[d];
        first_tile = first_tile && index[d] < out[d];
      }
#if defined(DEFECT_TILE_GRAD_FIRST_TILE)
      if (first_tile) pout[target] += pin[i];  // the defect: the other tiles are dropped
#else
      (void)first_tile;
      pout[target] += pin[i];
#endif
      for (std::size_t d = in.size(); d-- > 0;) {
        if (++index[d] < in[d]) break;
        index[d] = 0;
      }
    }
  });
}
#endif

}  // namespace

void RegisterStandInKernels([[maybe_unused]] const char* device_type,
                            [[maybe_unused]] TF_Status* status) {
#if defined(CONV2D_BACKPROP_INPUT_V2_KERNELS)
  TF_KernelBuilder* conv =
      TF_NewKernelBuilder("Conv2DBackpropInputV2", device_type, CreateConvGeometry,
                          ComputeConv2DBackpropInputV2, DeleteConvGeometry);
  TF_KernelBuilder_TypeConstraint(conv, "T", TF_FLOAT, status);
  TF_RegisterKernelBuilder("Conv2DBackpropInputV2", conv, status);
#endif
#if defined(TILE_GRAD_KERNELS)
  TF_KernelBuilder* tile =
      TF_NewKernelBuilder("TileGrad", device_type, CreateNothing, ComputeTileGrad, DeleteNothing);
  TF_KernelBuilder_TypeConstraint(tile, "T", TF_FLOAT, status);
  TF_KernelBuilder_HostMemory(tile, "multiples");
  TF_RegisterKernelBuilder("TileGrad", tile, status);
#endif
}

}  // namespace kernel_plugin
