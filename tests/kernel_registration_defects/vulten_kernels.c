/* TF_InitKernel registering the (op, type constraints, host memory) set of Vulten
 * (github.com/jswag180/Vulten @ cabd110, gpu/gpu_*_op.cpp and gpu/gpu_kernel_init.cpp, with none
 * of its VULTEN_DISABLE_* variables set): 41 ops, 516 kernels. Only the facts are taken (which
 * op, which dtype, which host-memory argument); the kernels compute nothing. Linked next to
 * tests/load_defects/plugin.c, so the device type is MINIMAL_DEVICE rather than Vulten's VULK.
 * vulten_registrations_test holds the load tier to TensorFlow's op registry for this set. */
#include <stddef.h>

#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"

#define OWN_DEVICE_TYPE "MINIMAL_DEVICE" /* SP_Platform.type of plugin.c */
#define ENTRY_POINT __attribute__((visibility("default")))
#define COUNT(array) ((int)(sizeof(array) / sizeof((array)[0])))

static void compute_nothing(void* kernel, TF_OpKernelContext* ctx) {
  (void)kernel;
  (void)ctx;
}

/* attr2 NULL: one constraint; attr NULL: none. */
static void register_kernel(const char* op, const char* attr, TF_DataType type, const char* attr2,
                            TF_DataType type2, const char* host_memory_arg) {
  TF_Status* status = TF_NewStatus();
  TF_KernelBuilder* builder = TF_NewKernelBuilder(op, OWN_DEVICE_TYPE, NULL, compute_nothing, NULL);
  if (attr != NULL) TF_KernelBuilder_TypeConstraint(builder, attr, type, status);
  if (attr2 != NULL) TF_KernelBuilder_TypeConstraint(builder, attr2, type2, status);
  if (host_memory_arg != NULL) TF_KernelBuilder_HostMemory(builder, host_memory_arg);
  TF_RegisterKernelBuilder(op, builder, status);
  TF_DeleteStatus(status);
}

/* Vulten's CALL_ALL_BASIC_TYPES, and CALL_ALL_TYPES (the same plus its CALL_COMPLEX). */
static const TF_DataType kBasic[] = {TF_FLOAT, TF_INT32, TF_UINT32, TF_HALF,  TF_INT16, TF_UINT16,
                                     TF_INT8,  TF_UINT8, TF_DOUBLE, TF_INT64, TF_UINT64};
static const TF_DataType kAll[] = {TF_FLOAT,  TF_INT32,     TF_UINT32,    TF_HALF,   TF_INT16,
                                   TF_UINT16, TF_INT8,      TF_UINT8,     TF_DOUBLE, TF_INT64,
                                   TF_UINT64, TF_COMPLEX64, TF_COMPLEX128};

static void register_each(const char* op, const char* attr, const TF_DataType* types, int count,
                          const char* host_memory_arg) {
  for (int i = 0; i < count; ++i) register_kernel(op, attr, types[i], NULL, 0, host_memory_arg);
}

static void register_binary_ops(void) {
  /* gpu_Basic_ops.cpp: every op for the basic types; Add also registers AddV2 with the same T. */
  const char* basic_ops[] = {"Mul",     "Add",          "Sub",     "Div",  "DivNoNan",
                             "Maximum", "Minimum",      "RealDiv", "Less", "LessEqual",
                             "Greater", "GreaterEqual", "AddV2"};
  for (int i = 0; i < COUNT(basic_ops); ++i)
    register_each(basic_ops[i], "T", kBasic, COUNT(kBasic), NULL);
  const char* complex_ops[] = {"Add", "AddV2", "Sub", "Mul", "Div"};
  const TF_DataType complex_types[] = {TF_COMPLEX64, TF_COMPLEX128};
  for (int i = 0; i < COUNT(complex_ops); ++i) {
    register_each(complex_ops[i], "T", complex_types, COUNT(complex_types), NULL);
  }
  /* The bool kernels leave T unconstrained: LogicalAnd and LogicalOr have no T. */
  register_kernel("LogicalAnd", NULL, 0, NULL, 0, NULL);
  register_kernel("LogicalOr", NULL, 0, NULL, 0, NULL);
}

static void register_cast(void) {
  /* gpu_Cast_op.cpp: every source in CALL_ALL_TYPES and bool, to each of these. */
  const TF_DataType destinations[] = {TF_FLOAT,  TF_INT32,  TF_UINT32,     TF_COMPLEX64, TF_INT64,
                                      TF_UINT64, TF_DOUBLE, TF_COMPLEX128, TF_HALF,      TF_INT16,
                                      TF_UINT16, TF_BOOL,   TF_INT8,       TF_UINT8};
  for (int s = 0; s <= COUNT(kAll); ++s) {
    const TF_DataType source = s < COUNT(kAll) ? kAll[s] : TF_BOOL;
    for (int d = 0; d < COUNT(destinations); ++d) {
      register_kernel("Cast", "SrcT", source, "DstT", destinations[d], NULL);
    }
  }
}

ENTRY_POINT void TF_InitKernel(void) {
  register_each("Relu", "T", kBasic, COUNT(kBasic), NULL);
  register_each("ReluGrad", "T", kBasic, COUNT(kBasic), NULL);
  register_kernel("Softmax", "T", TF_FLOAT, NULL, 0, NULL);
  const TF_DataType adam_types[] = {TF_FLOAT, TF_INT32, TF_UINT32};
  register_each("ResourceApplyAdam", "T", adam_types, COUNT(adam_types), NULL);
  register_kernel("AssignVariableOp", NULL, 0, NULL, 0, NULL);
  register_each("AssignAddVariableOp", "dtype", kAll, COUNT(kAll), NULL);
  register_each("AssignSubVariableOp", "dtype", kAll, COUNT(kAll), NULL);
  register_binary_ops();
  register_cast();
  register_kernel("ReadVariableOp", NULL, 0, NULL, 0, NULL);
  const TF_DataType matmul_types[] = {TF_FLOAT, TF_HALF,      TF_DOUBLE,    TF_INT32,
                                      TF_INT64, TF_COMPLEX64, TF_COMPLEX128};
  register_each("MatMul", "T", matmul_types, COUNT(matmul_types), NULL);
  register_each("BiasAddGrad", "T", kAll, COUNT(kAll), NULL);
  register_each("Sum", "T", kAll, COUNT(kAll), "reduction_indices");
  register_each("Max", "T", kBasic, COUNT(kBasic), "reduction_indices");
  register_each("Min", "T", kBasic, COUNT(kBasic), "reduction_indices");
  register_each("AddN", "T", kAll, COUNT(kAll), NULL);
  register_kernel("Identity", NULL, 0, NULL, 0, NULL);
  register_each("Pow", "T", kBasic, COUNT(kBasic), NULL);
  register_kernel("IdentityN", NULL, 0, NULL, 0, NULL);
  const char* unary_ops[] = {"Sqrt", "Exp", "Log", "Square", "Neg"};
  for (int i = 0; i < COUNT(unary_ops); ++i)
    register_kernel(unary_ops[i], "T", TF_FLOAT, NULL, 0, NULL);
  register_each("BiasAdd", "T", kBasic, COUNT(kBasic), NULL);
  register_kernel("SparseSoftmaxCrossEntropyWithLogits", "T", TF_FLOAT, NULL, 0, NULL);
  register_each("BroadcastTo", "T", kAll, COUNT(kAll), "shape");
}
