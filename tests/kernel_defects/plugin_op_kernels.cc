// A plugin-defined op that computes what a TensorFlow op computes (harness/kernels/
// plugin_stand_ins.h): _VendorMatMul, registered by this plugin (TF_RegisterOpDefinition) with
// MatMul's inputs, outputs and attrs and a bool of its own, vendor_fast_path = false. TensorFlow
// has no record of it; MatMul's float record judges it.
//   -DVENDOR_MATMUL_KERNEL        a float _VendorMatMul: the product, transposes as asked
//   -DDEFECT_VENDOR_MATMUL_TRANSPOSES_B  the same, reading b transposed when transpose_b is
//                                 false and as it is when true (right for square b only)
#include <cfloat>
#include <cmath>
#include <cstdint>

#include "kernel_call.h"
#include "matmul_shape.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/ops.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

namespace kernel_plugin {
namespace {

#if defined(VENDOR_MATMUL_KERNEL) || defined(DEFECT_VENDOR_MATMUL_TRANSPOSES_B)
#define VENDOR_MATMUL_KERNELS 1
#endif

#if defined(VENDOR_MATMUL_KERNELS)
void DefineVendorMatMul() {
  TF_Status* status = TF_NewStatus();
  TF_OpDefinitionBuilder* op = TF_NewOpDefinitionBuilder("_VendorMatMul");
  TF_OpDefinitionBuilderAddInput(op, "a: T");
  TF_OpDefinitionBuilderAddInput(op, "b: T");
  TF_OpDefinitionBuilderAddOutput(op, "product: T");
  TF_OpDefinitionBuilderAddAttr(op, "transpose_a: bool = false");
  TF_OpDefinitionBuilderAddAttr(op, "transpose_b: bool = false");
  TF_OpDefinitionBuilderAddAttr(op, "T: {half, float}");
  TF_OpDefinitionBuilderAddAttr(op, "grad_a: bool = false");
  TF_OpDefinitionBuilderAddAttr(op, "grad_b: bool = false");
  TF_OpDefinitionBuilderAddAttr(op, "vendor_fast_path: bool = false");
  TF_RegisterOpDefinition(op, status);
  TF_DeleteStatus(status);
}

void* CreateVendorMatMul(TF_OpKernelConstruction* construction) {
  MatMulTransposes t = ReadMatMulTransposes(construction);
#if defined(DEFECT_VENDOR_MATMUL_TRANSPOSES_B)
  t.b = !t.b;  // the defect
#endif
  return new MatMulTransposes(t);
}

void ComputeVendorMatMul(void* kernel, TF_OpKernelContext* ctx) {
  const MatMulTransposes t = *static_cast<MatMulTransposes*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(2)) return;
  MatMulDims dims;
  if (!MatMulDimsOf(DimsOf(call.inputs[0]), DimsOf(call.inputs[1]), t, dims)) {
    call.Fail(TF_INVALID_ARGUMENT, "_VendorMatMul: the inner dimensions differ");
    return;
  }
  const int64_t m = dims.m, k = dims.k, n = dims.n;
  if (!call.Output({m, n})) return;
  EnqueueWork(call.stream, [pa = call.In(0), pb = call.In(1), out = call.Out(), t, m, k, n] {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        float sum = 0;
        for (int64_t p = 0; p < k; ++p)
          sum += (t.a ? pa[p * m + i] : pa[i * k + p]) * (t.b ? pb[j * k + p] : pb[p * n + j]);
        out[i * n + j] = sum;
      }
    }
  });
}
#endif

}  // namespace

void RegisterPluginOpKernels([[maybe_unused]] const char* device_type,
                             [[maybe_unused]] TF_Status* status) {
#if defined(VENDOR_MATMUL_KERNELS)
  DefineVendorMatMul();
  TF_KernelBuilder* matmul = TF_NewKernelBuilder("_VendorMatMul", device_type, CreateVendorMatMul,
                                                 ComputeVendorMatMul, DeleteMatMulTransposes);
  TF_KernelBuilder_TypeConstraint(matmul, "T", TF_FLOAT, status);
  TF_RegisterKernelBuilder("_VendorMatMul", matmul, status);
#endif
}

}  // namespace kernel_plugin
