// _FusedMatMul (float), the matrix product TensorFlow's remapper makes of MatMul followed by
// BiasAdd and an activation, judged only by the generated cases of its family
// (specs/ops/families/relation_families.yaml) from the recorded oracle (tests/recorded_oracle).
// `args` is an `N * T` list (num_args tensors): the bias [n], and for [BiasAdd, Add] the addend
// of the product's shape.
//   -DFUSED_MATMUL_KERNEL              every fusion the family's cases use: BiasAdd, then Add,
//                                      Relu, Relu6, Elu, LeakyRelu (leakyrelu_alpha),
//                                      GeluApproximate, GeluExact, Tanh, Sigmoid; transpose_a,
//                                      transpose_b
//   -DDEFECT_FUSED_MATMUL_DROPS_BIAS   the same, but the bias is never added (a device library
//                                      whose GEMM runs the activation epilogue and drops the
//                                      bias operand): wrong wherever a bias is not zero
//   -DDEFECT_FUSED_MATMUL_GELU_AS_RELU  the same, but both Gelu fusions computed as max(0, x),
//                                      their limit for large |x| (a library mapping Gelu to its
//                                      Relu epilogue): right on the products of random terms,
//                                      wrong on the bias alone in [-3, 3] (the zero-b cases)
//   -DDEFECT_FUSED_MATMUL_GELU_SWAPPED  the same, but GeluExact computed in the tanh form and
//                                      GeluApproximate in the erf form (a fusion table with the
//                                      two entries crossed): within 4.1e-4 of right everywhere
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kernel_call.h"
#include "string_list_attr.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

namespace kernel_plugin {
namespace {

#if defined(FUSED_MATMUL_KERNEL) || defined(DEFECT_FUSED_MATMUL_DROPS_BIAS) || \
    defined(DEFECT_FUSED_MATMUL_GELU_AS_RELU) || defined(DEFECT_FUSED_MATMUL_GELU_SWAPPED)
struct FusedMatMulAttrs {
  bool transpose_a = false, transpose_b = false;
  std::vector<std::string> fused_ops;
  float leakyrelu_alpha = 0.2f;
  int64_t num_args = 0;
  bool has(const char* op) const {
    return std::find(fused_ops.begin(), fused_ops.end(), op) != fused_ops.end();
  }
};

void* CreateFusedMatMul(TF_OpKernelConstruction* construction) {
  auto* attrs = new FusedMatMulAttrs;
  TF_Status* status = TF_NewStatus();
  TF_Bool flag = 0;
  TF_OpKernelConstruction_GetAttrBool(construction, "transpose_a", &flag, status);
  attrs->transpose_a = flag != 0;
  TF_OpKernelConstruction_GetAttrBool(construction, "transpose_b", &flag, status);
  attrs->transpose_b = flag != 0;
  attrs->fused_ops = StringList(construction, "fused_ops", status);
  TF_OpKernelConstruction_GetAttrFloat(construction, "leakyrelu_alpha", &attrs->leakyrelu_alpha,
                                       status);
  TF_OpKernelConstruction_GetAttrInt64(construction, "num_args", &attrs->num_args, status);
  TF_DeleteStatus(status);
  return attrs;
}
void DeleteFusedMatMul(void* kernel) { delete static_cast<FusedMatMulAttrs*>(kernel); }

// The epilogue on one product element of column `col` at flat index `at`, in double (one
// rounding to float at the end, as the family's float tolerance expects).
float Epilogue(const FusedMatMulAttrs& a, const std::vector<const float*>& args,
               [[maybe_unused]] int64_t col, int64_t at, double sum) {
  double y = sum;
#if !defined(DEFECT_FUSED_MATMUL_DROPS_BIAS)
  if (a.has("BiasAdd")) y += args[0][col];
#endif
  if (a.has("Add")) y += args[1][at];
  if (a.has("Relu")) y = y < 0 ? 0.0 : y;
  if (a.has("Relu6")) y = std::min(std::max(y, 0.0), 6.0);
  if (a.has("Elu")) y = y < 0 ? std::expm1(y) : y;
  if (a.has("LeakyRelu")) y = y < 0 ? y * a.leakyrelu_alpha : y;
#if defined(DEFECT_FUSED_MATMUL_GELU_AS_RELU)
  if (a.has("GeluApproximate") || a.has("GeluExact")) y = y < 0 ? 0.0 : y;
#else
    // tanh form of GELU, and the erf form; sqrt(2 / pi) and 1 / sqrt(2).
#if defined(DEFECT_FUSED_MATMUL_GELU_SWAPPED)
  const bool tanh_form = a.has("GeluExact"), erf_form = a.has("GeluApproximate");
#else
  const bool tanh_form = a.has("GeluApproximate"), erf_form = a.has("GeluExact");
#endif
  if (tanh_form) y = 0.5 * y * (1 + std::tanh(0.7978845608028654 * (y + 0.044715 * y * y * y)));
  if (erf_form) y = 0.5 * y * (1 + std::erf(y * 0.7071067811865476));
#endif
  if (a.has("Tanh")) y = std::tanh(y);
  if (a.has("Sigmoid")) y = 1 / (1 + std::exp(-y));
  return static_cast<float>(y);
}

void ComputeFusedMatMul(void* kernel, TF_OpKernelContext* ctx) {
  const FusedMatMulAttrs& a = *static_cast<FusedMatMulAttrs*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(2 + static_cast<int>(a.num_args))) return;
  const Dims da = DimsOf(call.inputs[0]), db = DimsOf(call.inputs[1]);
  if (da.size() != 2 || db.size() != 2) {
    call.Fail(TF_INVALID_ARGUMENT, "_FusedMatMul: a and b must be matrices");
    return;
  }
  const int64_t m = a.transpose_a ? da[1] : da[0], k = a.transpose_a ? da[0] : da[1];
  const int64_t n = a.transpose_b ? db[0] : db[1];
  if ((a.transpose_b ? db[1] : db[0]) != k) {
    call.Fail(TF_INVALID_ARGUMENT, "_FusedMatMul: the inner dimensions differ");
    return;
  }
  if (!call.Output(Dims{m, n})) return;
  std::vector<const float*> args;
  for (int64_t i = 0; i < a.num_args; ++i) args.push_back(call.In(2 + static_cast<int>(i)));
  EnqueueWork(call.stream, [pa = call.In(0), pb = call.In(1), out = call.Out(), a, args, m, k, n] {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t p = 0; p < k; ++p) {
          const float x = a.transpose_a ? pa[p * m + i] : pa[i * k + p];
          const float y = a.transpose_b ? pb[j * k + p] : pb[p * n + j];
          sum += double{x} * y;
        }
        out[i * n + j] = Epilogue(a, args, j, i * n + j, sum);
      }
  });
}
#endif

}  // namespace

void RegisterFusedMatMulKernels([[maybe_unused]] const char* device_type,
                                [[maybe_unused]] TF_Status* status) {
#if defined(FUSED_MATMUL_KERNEL) || defined(DEFECT_FUSED_MATMUL_DROPS_BIAS) || \
    defined(DEFECT_FUSED_MATMUL_GELU_AS_RELU) || defined(DEFECT_FUSED_MATMUL_GELU_SWAPPED)
  TF_KernelBuilder* builder = TF_NewKernelBuilder("_FusedMatMul", device_type, CreateFusedMatMul,
                                                  ComputeFusedMatMul, DeleteFusedMatMul);
  TF_KernelBuilder_TypeConstraint(builder, "T", TF_FLOAT, status);
  TF_RegisterKernelBuilder("_FusedMatMul", builder, status);
#endif
}

}  // namespace kernel_plugin
