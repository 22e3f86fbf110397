// What the kernel stand-ins with a MatMul kernel (kernel_plugin.cc, input_class_kernels.cc,
// plugin_op_kernels.cc, dtype_cell_kernels.cc) share: the transpose attrs, read when the kernel
// is created, and the product's dimensions.
#ifndef PLUGIN_CONFORMANCE_TESTS_KERNEL_DEFECTS_MATMUL_SHAPE_H_
#define PLUGIN_CONFORMANCE_TESTS_KERNEL_DEFECTS_MATMUL_SHAPE_H_

#include <cstdint>

#include "kernel_call.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"

namespace kernel_plugin {

struct MatMulTransposes {
  bool a = false, b = false;
};

inline MatMulTransposes ReadMatMulTransposes(TF_OpKernelConstruction* construction) {
  TF_Status* status = TF_NewStatus();
  TF_Bool a = 0, b = 0;
  TF_OpKernelConstruction_GetAttrBool(construction, "transpose_a", &a, status);
  TF_OpKernelConstruction_GetAttrBool(construction, "transpose_b", &b, status);
  TF_DeleteStatus(status);
  return {a != 0, b != 0};
}

inline void* CreateMatMulTransposes(TF_OpKernelConstruction* construction) {
  return new MatMulTransposes(ReadMatMulTransposes(construction));
}
inline void DeleteMatMulTransposes(void* kernel) { delete static_cast<MatMulTransposes*>(kernel); }

// The product of an [m, k] and a [k, n] matrix, each maybe transposed.
struct MatMulDims {
  int64_t m = 0, k = 0, n = 0;
};

// False when `a` and `b` are not matrices whose inner dimensions agree.
inline bool MatMulDimsOf(const Dims& a, const Dims& b, const MatMulTransposes& t,
                         MatMulDims& dims) {
  if (a.size() != 2 || b.size() != 2 || (t.a ? a[0] : a[1]) != (t.b ? b[1] : b[0])) return false;
  dims = {t.a ? a[1] : a[0], t.a ? a[0] : a[1], t.b ? b[0] : b[1]};
  return true;
}

}  // namespace kernel_plugin

#endif  // PLUGIN_CONFORMANCE_TESTS_KERNEL_DEFECTS_MATMUL_SHAPE_H_
