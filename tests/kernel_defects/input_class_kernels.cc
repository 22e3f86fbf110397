// Kernels for the input classes of the generated cases (specs/ops/families/case_families.yaml):
// each defect is right for ordinary inputs and wrong only for the class it is about, as real
// plugins shipped them (issue 30). Only the cases --tensorflow generates catch them
// (tests/generated_cases); each correct kernel passes every generated case of its cell.
//   -DARGMAX_KERNEL                     ArgMax (float), every output_type
//   -DDEFECT_ARGMAX_STARTS_AT_MIN_POSITIVE  its running maximum starts at FLT_MIN: argmax of an
//                                       all-negative row is 0
//   -DSUM_KERNEL / -DDEFECT_SUM_EMPTY_RETURNS_EARLY  Sum (float); the defect writes nothing when
//                                       the input is empty (the output must be zeros)
//   -DMATMUL_KERNEL / -DDEFECT_MATMUL_EMPTY_K_RETURNS_EARLY  MatMul (float); the defect writes
//                                       nothing when K = 0 (the product must be zeros)
//   -DMAX_INT32_KERNEL / -DDEFECT_MAX_INT32_THROUGH_FLOAT  Max (int32); the defect compares and
//                                       returns through float, wrong above 2^24
//   -DMAXIMUM_KERNEL / -DDEFECT_MAXIMUM_DROPS_NAN  Maximum (float, broadcasting); the defect is
//                                       fmax, which returns the other operand for NaN
//   -DSOFTMAX_KERNEL / -DDEFECT_SOFTMAX_WRONG_ABOVE_1024  Softmax (float); the defect sums only a
//                                       row's first 1024 exponentials (one block of threads)
// The early returns leave what the memory held: these plugins run without TensorFlow's BFC
// allocator and fill every allocation with 0xff (-DDIRTY_DEVICE_MEMORY, kernel_plugin.cc), as
// a device's memory holds old data, so the garbage is NaN every time.
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernel_call.h"
#include "matmul_shape.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

namespace kernel_plugin {
namespace {

// Input `index` in host memory (an axis list): its values, int32 or int64.
[[maybe_unused]] std::vector<int64_t> HostInts(const TF_Tensor* tensor) {
  std::vector<int64_t> values(static_cast<std::size_t>(TF_TensorElementCount(tensor)));
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = TF_TensorType(tensor) == TF_INT64
                    ? static_cast<const int64_t*>(TF_TensorData(tensor))[i]
                    : static_cast<const int32_t*>(TF_TensorData(tensor))[i];
  }
  return values;
}

// Which output element each input element reduces into, and the output's dims.
struct ReductionPlan {
  Dims out_dims;
  std::vector<int64_t> out_index;
};

// False (with `status` set) for an axis outside the rank.
[[maybe_unused]] bool PlanReduction(const Dims& in, const std::vector<int64_t>& axes,
                                    bool keep_dims, ReductionPlan* plan, TF_Status* status) {
  const auto rank = static_cast<int64_t>(in.size());
  std::vector<bool> reduced(in.size(), false);
  for (int64_t axis : axes) {
    const int64_t a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank) {
      TF_SetStatus(status, TF_INVALID_ARGUMENT, "reduction axis out of range");
      return false;
    }
    reduced[static_cast<std::size_t>(a)] = true;
  }
  for (std::size_t d = 0; d < in.size(); ++d) {
    if (!reduced[d])
      plan->out_dims.push_back(in[d]);
    else if (keep_dims)
      plan->out_dims.push_back(1);
  }
  plan->out_index.resize(static_cast<std::size_t>(NumElements(in)));
  for (int64_t flat = 0; flat < NumElements(in); ++flat) {
    int64_t rest = flat, index = 0, stride = 1;
    for (std::size_t d = in.size(); d-- > 0;) {
      const int64_t coordinate = rest % in[d];
      rest /= in[d];
      if (reduced[d]) continue;
      index += coordinate * stride;
      stride *= in[d];
    }
    plan->out_index[static_cast<std::size_t>(flat)] = index;
  }
  return true;
}

[[maybe_unused]] void* CreateKeepDims(TF_OpKernelConstruction* construction) {
  TF_Status* status = TF_NewStatus();
  TF_Bool keep_dims = 0;
  TF_OpKernelConstruction_GetAttrBool(construction, "keep_dims", &keep_dims, status);
  TF_DeleteStatus(status);
  return new bool(keep_dims != 0);
}
[[maybe_unused]] void DeleteKeepDims(void* kernel) { delete static_cast<bool*>(kernel); }
[[maybe_unused]] void* CreateNone(TF_OpKernelConstruction*) { return nullptr; }
[[maybe_unused]] void DeleteNone(void*) {}

// ---- ArgMax -----------------------------------------------------------------------------------

#if defined(ARGMAX_KERNEL) || defined(DEFECT_ARGMAX_STARTS_AT_MIN_POSITIVE)
void* CreateArgMax(TF_OpKernelConstruction* construction) {
  TF_Status* status = TF_NewStatus();
  auto* output_type = new TF_DataType(TF_INT64);
  TF_OpKernelConstruction_GetAttrType(construction, "output_type", output_type, status);
  TF_DeleteStatus(status);
  return output_type;
}
void DeleteArgMax(void* kernel) { delete static_cast<TF_DataType*>(kernel); }

void StoreIndex(void* out, TF_DataType type, int64_t at, int64_t value) {
  switch (type) {
    case TF_INT16: static_cast<int16_t*>(out)[at] = static_cast<int16_t>(value); break;
    case TF_UINT16: static_cast<uint16_t*>(out)[at] = static_cast<uint16_t>(value); break;
    case TF_INT32: static_cast<int32_t*>(out)[at] = static_cast<int32_t>(value); break;
    default: static_cast<int64_t*>(out)[at] = value; break;
  }
}

void ComputeArgMax(void* kernel, TF_OpKernelContext* ctx) {
  const TF_DataType output_type = *static_cast<TF_DataType*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(2)) return;
  const Dims in = DimsOf(call.inputs[0]);
  const auto rank = static_cast<int64_t>(in.size());
  int64_t axis = HostInts(call.inputs[1]).at(0);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) {
    TF_SetStatus(call.status, TF_INVALID_ARGUMENT, "ArgMax: dimension out of range");
    return;
  }
  Dims out_dims;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (d != axis) out_dims.push_back(in[static_cast<std::size_t>(d)]);
    if (d < axis) outer *= in[static_cast<std::size_t>(d)];
    if (d > axis) inner *= in[static_cast<std::size_t>(d)];
  }
  if (!call.Output(output_type, out_dims)) return;
  const int64_t length = in[static_cast<std::size_t>(axis)];
  EnqueueWork(call.stream, [x = call.In<float>(0), out = TF_TensorData(call.output), output_type,
                            outer, inner, length] {
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
#if defined(DEFECT_ARGMAX_STARTS_AT_MIN_POSITIVE)
        float best = FLT_MIN;  // the defect: "the smallest float" taken for the lowest
        int64_t at = 0;
        for (int64_t j = 0; j < length; ++j) {
#else
        float best = x[o * length * inner + i];
        int64_t at = 0;
        for (int64_t j = 1; j < length; ++j) {
#endif
          const float value = x[(o * length + j) * inner + i];
          if (value > best) best = value, at = j;
        }
        StoreIndex(out, output_type, o * inner + i, at);
      }
    }
  });
}
#endif

// ---- Sum and Max over axes --------------------------------------------------------------------

#if defined(SUM_KERNEL) || defined(DEFECT_SUM_EMPTY_RETURNS_EARLY)
void ComputeSum(void* kernel, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  if (!call.Inputs(2)) return;
  const Dims in = DimsOf(call.inputs[0]);
  ReductionPlan plan;
  if (!PlanReduction(in, HostInts(call.inputs[1]), *static_cast<bool*>(kernel), &plan,
                     call.status) ||
      !call.Output(TF_FLOAT, plan.out_dims))
    return;
#if defined(DEFECT_SUM_EMPTY_RETURNS_EARLY)
  if (NumElements(in) == 0) return;  // the defect: "nothing to add", the output never written
#endif
  EnqueueWork(call.stream, [x = call.In<float>(0), out = call.Out<float>(), plan] {
    std::vector<double> sums(static_cast<std::size_t>(NumElements(plan.out_dims)), 0.0);
    for (std::size_t i = 0; i < plan.out_index.size(); ++i)
      sums[static_cast<std::size_t>(plan.out_index[i])] += x[i];
    for (std::size_t o = 0; o < sums.size(); ++o) out[o] = static_cast<float>(sums[o]);
  });
}
#endif

#if defined(MAX_INT32_KERNEL) || defined(DEFECT_MAX_INT32_THROUGH_FLOAT)
void ComputeMaxInt32(void* kernel, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  if (!call.Inputs(2)) return;
  const Dims in = DimsOf(call.inputs[0]);
  ReductionPlan plan;
  if (!PlanReduction(in, HostInts(call.inputs[1]), *static_cast<bool*>(kernel), &plan,
                     call.status) ||
      !call.Output(TF_INT32, plan.out_dims))
    return;
  EnqueueWork(call.stream, [x = call.In<int32_t>(0), out = call.Out<int32_t>(), plan] {
#if defined(DEFECT_MAX_INT32_THROUGH_FLOAT)
    // The defect: one float code path for every dtype; 2^24 + 1 is 2^24 in float.
    std::vector<float> best(static_cast<std::size_t>(NumElements(plan.out_dims)),
                            static_cast<float>(std::numeric_limits<int32_t>::lowest()));
    for (std::size_t i = 0; i < plan.out_index.size(); ++i) {
      float& b = best[static_cast<std::size_t>(plan.out_index[i])];
      b = std::max(b, static_cast<float>(x[i]));
    }
    for (std::size_t o = 0; o < best.size(); ++o) out[o] = static_cast<int32_t>(best[o]);
#else
    std::vector<int32_t> best(static_cast<std::size_t>(NumElements(plan.out_dims)),
                              std::numeric_limits<int32_t>::lowest());
    for (std::size_t i = 0; i < plan.out_index.size(); ++i) {
      int32_t& b = best[static_cast<std::size_t>(plan.out_index[i])];
      b = std::max(b, x[i]);
    }
    for (std::size_t o = 0; o < best.size(); ++o) out[o] = best[o];
#endif
  });
}
#endif

// ---- MatMul -----------------------------------------------------------------------------------

#if defined(MATMUL_KERNEL) || defined(DEFECT_MATMUL_EMPTY_K_RETURNS_EARLY)
void ComputeMatMul(void* kernel, TF_OpKernelContext* ctx) {
  const MatMulTransposes t = *static_cast<MatMulTransposes*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(2)) return;
  MatMulDims dims;
  if (!MatMulDimsOf(DimsOf(call.inputs[0]), DimsOf(call.inputs[1]), t, dims)) {
    TF_SetStatus(call.status, TF_INVALID_ARGUMENT, "MatMul: the inner dimensions differ");
    return;
  }
  const int64_t m = dims.m, k = dims.k, n = dims.n;
  if (!call.Output(TF_FLOAT, {m, n})) return;
#if defined(DEFECT_MATMUL_EMPTY_K_RETURNS_EARLY)
  if (k == 0) return;  // the defect: "no products to add", the output never written
#endif
  EnqueueWork(call.stream, [pa = call.In<float>(0), pb = call.In<float>(1), out = call.Out<float>(),
                            t, m, k, n] {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t p = 0; p < k; ++p)
          sum += static_cast<double>(t.a ? pa[p * m + i] : pa[i * k + p]) *
                 (t.b ? pb[j * k + p] : pb[p * n + j]);
        out[i * n + j] = static_cast<float>(sum);
      }
    }
  });
}
#endif

// ---- Maximum ----------------------------------------------------------------------------------

#if defined(MAXIMUM_KERNEL) || defined(DEFECT_MAXIMUM_DROPS_NAN)
// The element of an operand (dims `from`) that output element `flat` (dims `out`) reads.
int64_t BroadcastSource(const Dims& from, const Dims& out, int64_t flat) {
  int64_t index = 0, stride = 1;
  const std::size_t offset = out.size() - from.size();
  for (std::size_t d = out.size(); d-- > offset;) {
    const int64_t coordinate = flat % out[d];
    flat /= out[d];
    if (from[d - offset] != 1) index += coordinate * stride;
    stride *= from[d - offset];
  }
  return index;
}

float Maximum(float x, float y) {
#if defined(DEFECT_MAXIMUM_DROPS_NAN)
  return std::fmax(x, y);  // the defect: fmax returns the other operand for NaN
#else
  if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<float>::quiet_NaN();
  return x > y ? x : y;
#endif
}

void ComputeMaximum(void*, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  if (!call.Inputs(2)) return;
  const Dims x = DimsOf(call.inputs[0]), y = DimsOf(call.inputs[1]);
  const std::size_t rank = std::max(x.size(), y.size());
  Dims out(rank, 1);
  for (std::size_t i = 0; i < rank; ++i) {
    const int64_t a = i < rank - x.size() ? 1 : x[i - (rank - x.size())];
    const int64_t b = i < rank - y.size() ? 1 : y[i - (rank - y.size())];
    if (a != b && a != 1 && b != 1) {
      TF_SetStatus(call.status, TF_INVALID_ARGUMENT, "Maximum: incompatible shapes");
      return;
    }
    out[i] = a == 1 ? b : a;
  }
  if (!call.Output(TF_FLOAT, out)) return;
  EnqueueWork(call.stream,
              [px = call.In<float>(0), py = call.In<float>(1), pz = call.Out<float>(), x, y, out] {
                for (int64_t i = 0; i < NumElements(out); ++i)
                  pz[i] = Maximum(px[BroadcastSource(x, out, i)], py[BroadcastSource(y, out, i)]);
              });
}
#endif

// ---- Softmax ----------------------------------------------------------------------------------

#if defined(SOFTMAX_KERNEL) || defined(DEFECT_SOFTMAX_WRONG_ABOVE_1024)
void ComputeSoftmax(void*, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  if (!call.Inputs(1)) return;
  const Dims dims = DimsOf(call.inputs[0]);
  if (dims.empty()) {
    TF_SetStatus(call.status, TF_INVALID_ARGUMENT, "Softmax: logits must have rank >= 1");
    return;
  }
  if (!call.Output(TF_FLOAT, dims)) return;
  const int64_t row = dims.back();
  const int64_t rows = row == 0 ? 0 : NumElements(dims) / row;
  EnqueueWork(call.stream, [x = call.In<float>(0), out = call.Out<float>(), rows, row] {
    for (int64_t r = 0; r < rows; ++r) {
      const float* in = x + r * row;
      float top = -INFINITY;
      for (int64_t j = 0; j < row; ++j) top = std::max(top, in[j]);
#if defined(DEFECT_SOFTMAX_WRONG_ABOVE_1024)
      const int64_t summed = std::min<int64_t>(row, 1024);  // the defect: one block's worth
#else
      const int64_t summed = row;
#endif
      double sum = 0;
      for (int64_t j = 0; j < summed; ++j) sum += std::exp(static_cast<double>(in[j]) - top);
      for (int64_t j = 0; j < row; ++j)
        out[r * row + j] = static_cast<float>(std::exp(static_cast<double>(in[j]) - top) / sum);
    }
  });
}
#endif

[[maybe_unused]] void Register(const char* op, const char* device_type, TF_DataType dtype,
                               void* (*create)(TF_OpKernelConstruction*),
                               void (*compute)(void*, TF_OpKernelContext*), void (*destroy)(void*),
                               const char* host_memory_input, TF_Status* status) {
  TF_KernelBuilder* builder = TF_NewKernelBuilder(op, device_type, create, compute, destroy);
  TF_KernelBuilder_TypeConstraint(builder, "T", dtype, status);
  if (host_memory_input != nullptr) TF_KernelBuilder_HostMemory(builder, host_memory_input);
  TF_RegisterKernelBuilder(op, builder, status);
}

}  // namespace

void RegisterInputClassKernels([[maybe_unused]] const char* device_type,
                               [[maybe_unused]] TF_Status* status) {
#if defined(ARGMAX_KERNEL) || defined(DEFECT_ARGMAX_STARTS_AT_MIN_POSITIVE)
  Register("ArgMax", device_type, TF_FLOAT, CreateArgMax, ComputeArgMax, DeleteArgMax, "dimension",
           status);
#endif
#if defined(SUM_KERNEL) || defined(DEFECT_SUM_EMPTY_RETURNS_EARLY)
  Register("Sum", device_type, TF_FLOAT, CreateKeepDims, ComputeSum, DeleteKeepDims,
           "reduction_indices", status);
#endif
#if defined(MAX_INT32_KERNEL) || defined(DEFECT_MAX_INT32_THROUGH_FLOAT)
  Register("Max", device_type, TF_INT32, CreateKeepDims, ComputeMaxInt32, DeleteKeepDims,
           "reduction_indices", status);
#endif
#if defined(MATMUL_KERNEL) || defined(DEFECT_MATMUL_EMPTY_K_RETURNS_EARLY)
  Register("MatMul", device_type, TF_FLOAT, CreateMatMulTransposes, ComputeMatMul,
           DeleteMatMulTransposes, nullptr, status);
#endif
#if defined(MAXIMUM_KERNEL) || defined(DEFECT_MAXIMUM_DROPS_NAN)
  Register("Maximum", device_type, TF_FLOAT, CreateNone, ComputeMaximum, DeleteNone, nullptr,
           status);
#endif
#if defined(SOFTMAX_KERNEL) || defined(DEFECT_SOFTMAX_WRONG_ABOVE_1024)
  Register("Softmax", device_type, TF_FLOAT, CreateNone, ComputeSoftmax, DeleteNone, nullptr,
           status);
#endif
}

}  // namespace kernel_plugin
