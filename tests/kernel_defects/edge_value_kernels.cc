// Float kernels with one edge-value defect each, for the special-value scenarios of Relu6, Elu,
// Mean, Max, BatchMatMulV2 and Conv2D (conformance/kernels/*.yaml). Each kernel is right for
// ordinary inputs, so the op's random cases pass and only its `special_values` scenario catches
// it; each is compiled in only by its -DDEFECT_<NAME> switch (tests/kernel_defects/CMakeLists.txt).
// -DFLOOR_KERNEL adds a correct Floor, an op outside the catalogue; -DFLOOR_APPROXIMATE one that
// is 1e-4 off; -DDEFECT_FLOOR_TRUNCATES a Floor that truncates, -DDEFECT_FLOOR_DIES_ON_NAN one
// that traps on NaN (no scenario catches either; generated cases do), -DDEFECT_FLOOR_DROPS_NAN
// one that gives 0 for NaN (a vendor's Floor scenario without a NaN leaves it to the generated
// cases); -DDEFECT_FLOOR_HANGS_ON_NAN_IN_TENSORFLOW one that never returns on NaN inside the
// installed TensorFlow only (a hang in a kernel case, tests/installed_deaths). -DLEAKY_RELU_KERNEL
// adds a correct LeakyRelu, -DDEFECT_LEAKY_RELU_IGNORES_ALPHA one that always computes with the
// default alpha (only a generated case with another alpha sees it). Where TensorFlow's CPU is no
// oracle (tests/generated_cases): -DLGAMMA_EXACT an Lgamma exact on denormal inputs,
// -DLGAMMA_FLUSHES one that reads them as zero, -DDEFECT_LGAMMA_WRONG_ON_DENORMALS one that gives 0
// for them (neither); -DCLIP_BY_VALUE a ClipByValue, whose result TensorFlow defines only for
// clip_value_min <= clip_value_max. -DCHECK_NUMERICS_KERNEL a CheckNumerics that refuses NaN and
// infinities, -DDEFECT_CHECK_NUMERICS_PASSES_NAN one that never checks. -DDEFECT_ROUND_HALF_AWAY a
// Round that rounds halves away from zero, -DROUND_KERNEL a correct one. -DMANY_OPS_LIST="file"
// registers one float kernel under every op named in the file: the kernel tier's timing for a
// plugin of ~300 ops (tests/recorded_oracle, BENCHMARKS.md), not a verdict.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <chrono>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "conv_geometry.h"
#include "../support/inside_tensorflow.h"
#include "kernel_call.h"

namespace kernel_plugin {
namespace {

[[maybe_unused]] void* CreateNothing(TF_OpKernelConstruction*) { return nullptr; }
[[maybe_unused]] void DeleteNothing(void*) {}

[[maybe_unused]] void Register(const char* op, const char* device_type,
                               void (*compute)(void*, TF_OpKernelContext*),
                               void* (*create)(TF_OpKernelConstruction*), void (*destroy)(void*),
                               const char* host_memory_input, TF_Status* status) {
  TF_KernelBuilder* builder = TF_NewKernelBuilder(op, device_type, create, compute, destroy);
  TF_KernelBuilder_TypeConstraint(builder, "T", TF_FLOAT, status);
  if (host_memory_input != nullptr) TF_KernelBuilder_HostMemory(builder, host_memory_input);
  TF_RegisterKernelBuilder(op, builder, status);
}

// An element-wise float kernel applying `fn` on the stream.
template <float (*fn)(float)>
[[maybe_unused]] void ComputeElementwise(void*, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  if (!call.Inputs(1)) return;
  const Dims dims = DimsOf(call.inputs[0]);
  if (!call.Output(dims)) return;
  EnqueueWork(call.stream, [in = call.In(0), out = call.Out(), n = NumElements(dims)] {
    for (int64_t i = 0; i < n; ++i) out[i] = fn(in[i]);
  });
}

#if defined(DEFECT_FLOOR_DIES_ON_NAN)
// The defect: a kernel that kills the process on a NaN input (a trap standing for a vendor's
// assertion). Only a generated special-values case feeds Floor a NaN (tests/generated_cases).
float Floor(float x) {
  if (std::isnan(x)) __builtin_trap();
  return std::floor(x);
}
#elif defined(DEFECT_FLOOR_HANGS_ON_NAN_IN_TENSORFLOW)
// The defect: on a NaN input inside the installed TensorFlow, a loop that never ends (a vendor's
// kernel spinning on a value it never expected). Only a generated special-values case feeds
// Floor a NaN, and plugin_conformance's own children never do.
float Floor(float x) {
  if (std::isnan(x) && conformance::test_support::InsideInstalledTensorFlow()) {
    for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
  }
  return std::floor(x);
}
#elif defined(DEFECT_FLOOR_TRUNCATES)
// The defect: truncation toward zero, right for positive inputs but Floor(-2.5) is -2, not -3.
// Floor has no built-in scenario: only the cases --tensorflow generates can catch it
// (tests/generated_cases).
float Floor(float x) { return std::trunc(x); }
#elif defined(DEFECT_FLOOR_DROPS_NAN)
// The defect: NaN becomes 0, as a conversion through an integer would make it.
float Floor(float x) { return std::isnan(x) ? 0.0f : std::floor(x); }
#elif defined(FLOOR_KERNEL)
// Not a defect: Floor is an op outside the catalogue (specs/ops), for vendor scenarios that name
// any op TensorFlow registers (vendor_options_test.cc) and for generated cases.
float Floor(float x) { return std::floor(x); }
#endif

#if defined(DEFECT_ROUND_HALF_AWAY)
// The defect (a real one, issue 30): halves rounded away from zero, Round(0.5) = 1 and
// Round(-2.5) = -3, where TensorFlow rounds them to even (0 and -2). No scenario covers Round:
// the generated special-values case catches it, from the recorded oracle without TensorFlow.
float Round(float x) { return std::round(x); }
#elif defined(ROUND_KERNEL)
// Not a defect: halves to even, as TensorFlow's Round (the default rounding mode).
float Round(float x) { return std::nearbyint(x); }
#endif

#if defined(LGAMMA_EXACT) || defined(LGAMMA_FLUSHES) || defined(DEFECT_LGAMMA_WRONG_ON_DENORMALS)
// A float denormal's value, read from its bits: a conversion could itself flush it where the
// thread runs with denormals-are-zero, as TensorFlow's threads do.
double ExactValue(float x) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  if ((bits & 0x7f800000u) != 0) return static_cast<double>(x);
  const double magnitude = std::ldexp(static_cast<double>(bits & 0x007fffffu), -149);
  return (bits & 0x80000000u) != 0 ? -magnitude : magnitude;
}
float Lgamma(float x) {
  const double exact = ExactValue(x);
  [[maybe_unused]] const bool denormal = exact != 0.0 && std::fabs(exact) < 0x1p-126;
#if defined(LGAMMA_FLUSHES)
  if (denormal) return INFINITY;  // read as a signed zero, whose lgamma is +inf
#elif defined(DEFECT_LGAMMA_WRONG_ON_DENORMALS)
  if (denormal) return 0.0f;  // the defect: neither the value nor the flushed one
#endif
  return static_cast<float>(std::lgamma(exact));
}
#endif

#if defined(CLIP_BY_VALUE)
// ClipByValue as TensorFlow documents it for lower <= upper: min(max(t, lower), upper). For
// lower > upper it gives upper, where TensorFlow's CPU gives lower: outside the op's contract,
// where the generated cases gave it min > max in about half of the elements.
void ComputeClipByValue(void*, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  if (!call.Inputs(3)) return;
  const Dims dims = DimsOf(call.inputs[0]);
  const int64_t n = NumElements(dims);
  // Bounds of t's shape or scalars, as TensorFlow allows.
  for (int i = 1; i < 3; ++i) {
    const int64_t bound = NumElements(DimsOf(call.inputs[static_cast<std::size_t>(i)]));
    if (bound != n && bound != 1) {
      call.Fail(TF_INVALID_ARGUMENT, "ClipByValue: bounds are scalars or of t's shape");
      return;
    }
  }
  if (!call.Output(dims)) return;
  const bool scalar_low = NumElements(DimsOf(call.inputs[1])) == 1 && n != 1;
  const bool scalar_high = NumElements(DimsOf(call.inputs[2])) == 1 && n != 1;
  EnqueueWork(call.stream, [t = call.In(0), low = call.In(1), high = call.In(2), out = call.Out(),
                            n, scalar_low, scalar_high] {
    for (int64_t i = 0; i < n; ++i) {
      // Comparisons, not fmin/fmax: a NaN of t stays NaN, as on TensorFlow's CPU.
      const float lower = low[scalar_low ? 0 : i], upper = high[scalar_high ? 0 : i];
      const float raised = t[i] < lower ? lower : t[i];
      out[i] = raised > upper ? upper : raised;
    }
  });
}
#endif

#if defined(CHECK_NUMERICS_KERNEL) || defined(DEFECT_CHECK_NUMERICS_PASSES_NAN)
// CheckNumerics: its input as its output, or INVALID_ARGUMENT where it holds a NaN or an
// infinity (the op's point). The input is in host memory (registered so), so the check is made
// before the kernel returns; its values are copied for the queued work.
void ComputeCheckNumerics(void*, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  if (!call.Inputs(1)) return;
  const Dims dims = DimsOf(call.inputs[0]);
  const float* in = call.In(0);
  std::vector<float> values(in, in + NumElements(dims));
#if defined(CHECK_NUMERICS_KERNEL)
  if (std::any_of(values.begin(), values.end(), [](float x) { return !std::isfinite(x); })) {
    call.Fail(TF_INVALID_ARGUMENT, "CheckNumerics: the tensor had NaN or Inf values");
    return;
  }
#endif
  // DEFECT_CHECK_NUMERICS_PASSES_NAN: no check, a NaN passes silently (only the family's
  // error-path cases, `cpu_status: INVALID_ARGUMENT`, see it).
  if (!call.Output(dims)) return;
  EnqueueWork(call.stream, [values = std::move(values), out = call.Out()] {
    std::copy(values.begin(), values.end(), out);
  });
}
#endif

#if defined(FLOOR_APPROXIMATE)
// Not a defect either: a Floor 1e-4 off in relative terms, which its vendor declares with
// --precision (a registry op's declaration, vendor_options_test.cc).
// Magnitudes near the largest float keep their floor: scaled, they would overflow to infinity,
// which no relative precision covers (the generated special-values case has max and lowest).
float FloorApproximate(float x) {
  const float floor = std::floor(x);
  return std::fabs(floor) < 1e30f ? floor * (1.0f + 1e-4f) : floor;
}
#endif

#if defined(LEAKY_RELU_KERNEL) || defined(DEFECT_LEAKY_RELU_IGNORES_ALPHA)
// LeakyRelu: x for x >= 0, alpha * x below. Its alpha (default 0.2) is read at construction.
void* CreateLeakyRelu(TF_OpKernelConstruction* construction) {
  auto* alpha = new float(0.2f);
#if !defined(DEFECT_LEAKY_RELU_IGNORES_ALPHA)  // the defect: the attr is never read
  TF_Status* status = TF_NewStatus();
  TF_OpKernelConstruction_GetAttrFloat(construction, "alpha", alpha, status);
  if (TF_GetCode(status) != TF_OK) TF_OpKernelConstruction_Failure(construction, status);
  TF_DeleteStatus(status);
#else
  (void)construction;
#endif
  return alpha;
}
void DeleteLeakyRelu(void* kernel) { delete static_cast<float*>(kernel); }
void ComputeLeakyRelu(void* kernel, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  if (!call.Inputs(1)) return;
  const Dims dims = DimsOf(call.inputs[0]);
  if (!call.Output(dims)) return;
  EnqueueWork(call.stream, [in = call.In(0), out = call.Out(), n = NumElements(dims),
                            alpha = *static_cast<float*>(kernel)] {
    for (int64_t i = 0; i < n; ++i) out[i] = in[i] >= 0.0f ? in[i] : alpha * in[i];
  });
}
#endif

#if defined(DEFECT_RELU6_DROPS_NAN)
// The defect: fmin/fmax return the other operand for NaN, so Relu6(NaN) is 0, not NaN.
float Relu6DropsNan(float x) { return std::fmin(std::fmax(x, 0.0f), 6.0f); }
#endif

#if defined(DEFECT_ELU_DROPS_NAN)
// The defect: a branch-free Elu built on fmax/fmin, which drop NaN: Elu(NaN) is 0.
float EluDropsNan(float x) { return std::fmax(x, 0.0f) + std::expm1(std::fmin(x, 0.0f)); }
#endif

// ---- reductions (Mean, Max) over the axes in host-memory input 1 ------------------------------

struct Reduction {
  Dims in_dims, out_dims;
  std::vector<int64_t> out_index;  // per input element, the output element it reduces into
};

[[maybe_unused]] void* CreateReduction(TF_OpKernelConstruction* construction) {
  TF_Status* status = TF_NewStatus();
  TF_Bool keep_dims = 0;
  TF_OpKernelConstruction_GetAttrBool(construction, "keep_dims", &keep_dims, status);
  TF_DeleteStatus(status);
  return new bool(keep_dims != 0);
}
[[maybe_unused]] void DeleteReduction(void* kernel) { delete static_cast<bool*>(kernel); }

// Reads the axes and allocates the output; false when the call failed (reported by `call`).
[[maybe_unused]] bool StartReduction(void* kernel, KernelCall& call, Reduction* r) {
  if (!call.Inputs(2)) return false;
  r->in_dims = DimsOf(call.inputs[0]);
  const auto rank = static_cast<int64_t>(r->in_dims.size());
  const auto* axes = static_cast<const int32_t*>(TF_TensorData(call.inputs[1]));
  std::vector<bool> reduced(r->in_dims.size(), false);
  for (int64_t i = 0; i < TF_TensorElementCount(call.inputs[1]); ++i) {
    const int64_t axis = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (axis < 0 || axis >= rank) {
      call.Fail(TF_INVALID_ARGUMENT, ("Invalid reduction dimension (" + std::to_string(axes[i]) +
                                      " for input with " + std::to_string(rank) + " dimension(s)")
                                         .c_str());
      return false;
    }
    reduced[static_cast<std::size_t>(axis)] = true;
  }
  for (std::size_t d = 0; d < r->in_dims.size(); ++d) {
    if (!reduced[d])
      r->out_dims.push_back(r->in_dims[d]);
    else if (*static_cast<bool*>(kernel))
      r->out_dims.push_back(1);
  }
  r->out_index.resize(static_cast<std::size_t>(NumElements(r->in_dims)));
  for (int64_t flat = 0; flat < NumElements(r->in_dims); ++flat) {
    int64_t rest = flat, index = 0, stride = 1;
    for (std::size_t d = r->in_dims.size(); d-- > 0;) {
      const int64_t coordinate = rest % r->in_dims[d];
      rest /= r->in_dims[d];
      if (reduced[d]) continue;
      index += coordinate * stride;
      stride *= r->in_dims[d];
    }
    r->out_index[static_cast<std::size_t>(flat)] = index;
  }
  return call.Output(r->out_dims);
}

#if defined(DEFECT_MEAN_RUNNING_AVERAGE)
// The defect: a running average (m += (x - m) / count), chosen so that huge rows cannot
// overflow; with an infinity in the row, x - m becomes inf - inf = NaN.
void ComputeMean(void* kernel, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  Reduction r;
  if (!StartReduction(kernel, call, &r)) return;
  EnqueueWork(call.stream, [in = call.In(0), out = call.Out(), r] {
    std::vector<float> mean(static_cast<std::size_t>(NumElements(r.out_dims)), 0.0f);
    std::vector<float> count(mean.size(), 0.0f);
    for (std::size_t i = 0; i < r.out_index.size(); ++i) {
      const auto o = static_cast<std::size_t>(r.out_index[i]);
      count[o] += 1;
      mean[o] += (in[i] - mean[o]) / count[o];
    }
    for (std::size_t o = 0; o < mean.size(); ++o) out[o] = count[o] > 0 ? mean[o] : NAN;
  });
}
#endif

#if defined(DEFECT_MAX_STARTS_AT_LOWEST)
// The defect: the maximum starts at the lowest finite value and keeps an element only when it
// is greater: a row of -inf gives the lowest value, and NaN is dropped.
void ComputeMax(void* kernel, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  Reduction r;
  if (!StartReduction(kernel, call, &r)) return;
  EnqueueWork(call.stream, [in = call.In(0), out = call.Out(), r] {
    std::vector<float> best(static_cast<std::size_t>(NumElements(r.out_dims)),
                            std::numeric_limits<float>::lowest());
    for (std::size_t i = 0; i < r.out_index.size(); ++i) {
      float& b = best[static_cast<std::size_t>(r.out_index[i])];
      if (in[i] > b) b = in[i];
    }
    std::copy(best.begin(), best.end(), out);
  });
}
#endif

#if defined(DEFECT_BATCH_MATMUL_SKIPS_ZEROS)
// The defect: a zero element of x skips its products ("sparse" speed-up), so 0 × inf and
// 0 × NaN never make the NaN IEEE arithmetic gives. Batch dimensions broadcast; adj_x/adj_y
// (real float: the adjoint is the transpose) read the operand transposed.
struct BatchMatMulAttrs {
  bool adj_x = false, adj_y = false;
};

void* CreateBatchMatMul(TF_OpKernelConstruction* construction) {
  auto* attrs = new BatchMatMulAttrs;
  TF_Status* status = TF_NewStatus();
  TF_Bool value = 0;
  TF_OpKernelConstruction_GetAttrBool(construction, "adj_x", &value, status);
  attrs->adj_x = TF_GetCode(status) == TF_OK && value;
  TF_OpKernelConstruction_GetAttrBool(construction, "adj_y", &value, status);
  attrs->adj_y = TF_GetCode(status) == TF_OK && value;
  TF_DeleteStatus(status);
  return attrs;
}

void DeleteBatchMatMul(void* kernel) { delete static_cast<BatchMatMulAttrs*>(kernel); }

int64_t BatchSource(const Dims& batch, const Dims& out_batch, int64_t flat) {
  int64_t index = 0, stride = 1;
  const std::size_t offset = out_batch.size() - batch.size();
  for (std::size_t d = out_batch.size(); d-- > offset;) {
    const int64_t coordinate = flat % out_batch[d];
    flat /= out_batch[d];
    const int64_t size = batch[d - offset];
    if (size != 1) index += coordinate * stride;
    stride *= size;
  }
  return index;
}

void ComputeBatchMatMul(void* kernel, TF_OpKernelContext* ctx) {
  const BatchMatMulAttrs attrs = *static_cast<BatchMatMulAttrs*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(2)) return;
  const Dims x = DimsOf(call.inputs[0]), y = DimsOf(call.inputs[1]);
  const auto rows = [](const Dims& d, bool adj) { return adj ? d.back() : d[d.size() - 2]; };
  const auto cols = [](const Dims& d, bool adj) { return adj ? d[d.size() - 2] : d.back(); };
  if (x.size() < 2 || y.size() < 2 || cols(x, attrs.adj_x) != rows(y, attrs.adj_y)) {
    call.Fail(TF_INVALID_ARGUMENT, "BatchMatMulV2: the operands' inner dimensions differ");
    return;
  }
  const Dims x_batch(x.begin(), x.end() - 2), y_batch(y.begin(), y.end() - 2);
  Dims out_batch(std::max(x_batch.size(), y_batch.size()), 1);
  for (std::size_t i = 0; i < out_batch.size(); ++i) {
    const std::size_t from_end = out_batch.size() - i;
    const int64_t a = from_end <= x_batch.size() ? x_batch[x_batch.size() - from_end] : 1;
    const int64_t b = from_end <= y_batch.size() ? y_batch[y_batch.size() - from_end] : 1;
    if (a != b && a != 1 && b != 1) {
      call.Fail(TF_INVALID_ARGUMENT, "BatchMatMulV2: batch dimensions do not broadcast");
      return;
    }
    out_batch[i] = a == 1 ? b : a;
  }
  const int64_t m = rows(x, attrs.adj_x), k = cols(x, attrs.adj_x), n = cols(y, attrs.adj_y);
  Dims out_dims = out_batch;
  out_dims.push_back(m);
  out_dims.push_back(n);
  if (!call.Output(out_dims)) return;
  EnqueueWork(call.stream, [px = call.In(0), py = call.In(1), out = call.Out(), x_batch, y_batch,
                            out_batch, m, k, n, attrs] {
    for (int64_t b = 0; b < NumElements(out_batch); ++b) {
      const float* xb = px + BatchSource(x_batch, out_batch, b) * m * k;
      const float* yb = py + BatchSource(y_batch, out_batch, b) * k * n;
      float* ob = out + b * m * n;
      std::fill(ob, ob + m * n, 0.0f);
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t p = 0; p < k; ++p) {
          const float xv = attrs.adj_x ? xb[p * m + i] : xb[i * k + p];
          if (xv == 0.0f) continue;  // the defect
          for (int64_t j = 0; j < n; ++j)
            ob[i * n + j] += xv * (attrs.adj_y ? yb[j * k + p] : yb[p * n + j]);
        }
      }
    }
  });
}
#endif

#if defined(DEFECT_CONV2D_SKIPS_ZERO_WEIGHTS)
// The defect: a zero filter tap is skipped ("pruned weights"), so 0 × inf and 0 × NaN never make
// the NaN IEEE arithmetic gives. NHWC only; strides, dilations, VALID/SAME/EXPLICIT padding.
struct Conv2DAttrs : ConvGeometry {};

void* CreateConv2D(TF_OpKernelConstruction* construction) {
  auto* attrs = new Conv2DAttrs;
  TF_Status* status = TF_NewStatus();
  ReadConvGeometry(construction, attrs, status);
  TF_DeleteStatus(status);
  return attrs;
}
void DeleteConv2D(void* kernel) { delete static_cast<Conv2DAttrs*>(kernel); }

void ComputeConv2D(void* kernel, TF_OpKernelContext* ctx) {
  const Conv2DAttrs& a = *static_cast<Conv2DAttrs*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(2)) return;
  const Dims in = DimsOf(call.inputs[0]), f = DimsOf(call.inputs[1]);
  if (in.size() != 4 || f.size() != 4 || in[3] != f[2]) {
    call.Fail(TF_INVALID_ARGUMENT, "Conv2D: input depth must equal the filter's in_channels");
    return;
  }
  int64_t out_h = 0, out_w = 0, pad_h = 0, pad_w = 0;
  SpatialSize(a, 1, in[1], f[0], &out_h, &pad_h);
  SpatialSize(a, 2, in[2], f[1], &out_w, &pad_w);
  if (!call.Output({in[0], out_h, out_w, f[3]})) return;
  EnqueueWork(call.stream, [pi = call.In(0), pf = call.In(1), out = call.Out(), in, f, a, out_h,
                            out_w, pad_h, pad_w] {
    const int64_t depth = in[3], filters = f[3];
    for (int64_t b = 0; b < in[0]; ++b)
      for (int64_t oy = 0; oy < out_h; ++oy)
        for (int64_t ox = 0; ox < out_w; ++ox)
          for (int64_t o = 0; o < filters; ++o) {
            float sum = 0;
            for (int64_t ky = 0; ky < f[0]; ++ky)
              for (int64_t kx = 0; kx < f[1]; ++kx) {
                const int64_t iy = oy * a.strides[1] + ky * a.dilations[1] - pad_h;
                const int64_t ix = ox * a.strides[2] + kx * a.dilations[2] - pad_w;
                if (iy < 0 || iy >= in[1] || ix < 0 || ix >= in[2]) continue;
                for (int64_t c = 0; c < depth; ++c) {
                  const float w = pf[((ky * f[1] + kx) * depth + c) * filters + o];
                  if (w == 0.0f) continue;  // the defect
                  sum += pi[((b * in[1] + iy) * in[2] + ix) * depth + c] * w;
                }
              }
            out[((b * out_h + oy) * out_w + ox) * filters + o] = sum;
          }
  });
}
#endif

}  // namespace

#if defined(MANY_OPS_LIST)
// Input 0 copied to output 0 where it is float (zeros where it is not): wrong for nearly every
// op it is registered under, which costs the judgement nothing more.
void ComputeCopy(void*, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  if (!call.Inputs(1)) return;
  const Dims dims = DimsOf(call.inputs[0]);
  if (!call.Output(dims)) return;
  const bool is_float = TF_TensorType(call.inputs[0]) == TF_FLOAT;
  EnqueueWork(call.stream, [in = call.In(0), out = call.Out(), n = NumElements(dims), is_float] {
    for (int64_t i = 0; i < n; ++i) out[i] = is_float ? in[i] : 0.0f;
  });
}

void RegisterManyOps(const char* device_type, TF_Status* status) {
  std::ifstream list(MANY_OPS_LIST);
  std::string op;
  while (std::getline(list, op)) {
    // kernel_plugin.cc registers its own AddV2.
    if (op.empty() || op == "AddV2") continue;
    Register(op.c_str(), device_type, ComputeCopy, CreateNothing, DeleteNothing, nullptr, status);
  }
}
#endif

void RegisterEdgeValueKernels([[maybe_unused]] const char* device_type,
                              [[maybe_unused]] TF_Status* status) {
#if defined(MANY_OPS_LIST)
  RegisterManyOps(device_type, status);
#endif
#if defined(FLOOR_KERNEL) || defined(DEFECT_FLOOR_TRUNCATES) ||             \
    defined(DEFECT_FLOOR_DIES_ON_NAN) || defined(DEFECT_FLOOR_DROPS_NAN) || \
    defined(DEFECT_FLOOR_HANGS_ON_NAN_IN_TENSORFLOW)
  Register("Floor", device_type, ComputeElementwise<Floor>, CreateNothing, DeleteNothing, nullptr,
           status);
#endif
#if defined(FLOOR_APPROXIMATE)
  Register("Floor", device_type, ComputeElementwise<FloorApproximate>, CreateNothing, DeleteNothing,
           nullptr, status);
#endif
#if defined(DEFECT_ROUND_HALF_AWAY) || defined(ROUND_KERNEL)
  Register("Round", device_type, ComputeElementwise<Round>, CreateNothing, DeleteNothing, nullptr,
           status);
#endif
#if defined(LGAMMA_EXACT) || defined(LGAMMA_FLUSHES) || defined(DEFECT_LGAMMA_WRONG_ON_DENORMALS)
  Register("Lgamma", device_type, ComputeElementwise<Lgamma>, CreateNothing, DeleteNothing, nullptr,
           status);
#endif
#if defined(CHECK_NUMERICS_KERNEL) || defined(DEFECT_CHECK_NUMERICS_PASSES_NAN)
  Register("CheckNumerics", device_type, ComputeCheckNumerics, CreateNothing, DeleteNothing,
           "tensor", status);
#endif
#if defined(CLIP_BY_VALUE)
  Register("ClipByValue", device_type, ComputeClipByValue, CreateNothing, DeleteNothing, nullptr,
           status);
#endif
#if defined(LEAKY_RELU_KERNEL) || defined(DEFECT_LEAKY_RELU_IGNORES_ALPHA)
  Register("LeakyRelu", device_type, ComputeLeakyRelu, CreateLeakyRelu, DeleteLeakyRelu, nullptr,
           status);
#endif
#if defined(DEFECT_RELU6_DROPS_NAN)
  Register("Relu6", device_type, ComputeElementwise<Relu6DropsNan>, CreateNothing, DeleteNothing,
           nullptr, status);
#endif
#if defined(DEFECT_ELU_DROPS_NAN)
  Register("Elu", device_type, ComputeElementwise<EluDropsNan>, CreateNothing, DeleteNothing,
           nullptr, status);
#endif
#if defined(DEFECT_MEAN_RUNNING_AVERAGE)
  Register("Mean", device_type, ComputeMean, CreateReduction, DeleteReduction, "reduction_indices",
           status);
#endif
#if defined(DEFECT_MAX_STARTS_AT_LOWEST)
  Register("Max", device_type, ComputeMax, CreateReduction, DeleteReduction, "reduction_indices",
           status);
#endif
#if defined(DEFECT_BATCH_MATMUL_SKIPS_ZEROS)
  Register("BatchMatMulV2", device_type, ComputeBatchMatMul, CreateBatchMatMul, DeleteBatchMatMul,
           nullptr, status);
#endif
#if defined(DEFECT_CONV2D_SKIPS_ZERO_WEIGHTS)
  Register("Conv2D", device_type, ComputeConv2D, CreateConv2D, DeleteConv2D, nullptr, status);
#endif
}

}  // namespace kernel_plugin
