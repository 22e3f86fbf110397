/* TF_InitKernel of the kernel registration defects: linked next to tests/load_defects/plugin.c
 * (built with EXTERNAL_TF_INIT_KERNEL), whose StreamExecutor part provides MINIMAL_DEVICE.
 * Without a DEFECT_* switch it registers only what TensorFlow and the load.kernels.* checks
 * accept: constrained kernels for catalogue ops, host memory on a real argument, one kernel at
 * two priorities, and an op of its own (ops.h) with a shape function that handles unknown
 * ranks. Each DEFECT_* switch breaks exactly one rule. */
#include <stddef.h>

#include "tensorflow/c/kernels.h"
#include "tensorflow/c/ops.h"
#include "tensorflow/c/tf_status.h"

#define OWN_DEVICE_TYPE "MINIMAL_DEVICE" /* SP_Platform.type of plugin.c */
#define ENTRY_POINT __attribute__((visibility("default")))

/* The load tier never runs a kernel. */
static void compute_nothing(void* kernel, TF_OpKernelContext* ctx) {
  (void)kernel;
  (void)ctx;
}

struct constraint {
  const char* attr;
  TF_DataType type;
};

static void register_kernel(const char* op, const char* device_type,
                            const struct constraint* constraints, int num_constraints,
                            const char* host_memory_arg, int priority) {
  TF_Status* status = TF_NewStatus();
  TF_KernelBuilder* builder = TF_NewKernelBuilder(op, device_type, NULL, compute_nothing, NULL);
  for (int i = 0; i < num_constraints; ++i) {
    TF_KernelBuilder_TypeConstraint(builder, constraints[i].attr, constraints[i].type, status);
  }
  if (host_memory_arg != NULL) TF_KernelBuilder_HostMemory(builder, host_memory_arg);
  if (priority != 0) TF_KernelBuilder_Priority(builder, priority);
  TF_RegisterKernelBuilder(op, builder, status);
  TF_DeleteStatus(status);
}

/* Output 0 has the shape of input 0; an input of unknown rank gives an unknown output. */
static void same_shape(TF_ShapeInferenceContext* ctx, TF_Status* status) {
  TF_ShapeHandle* input = TF_NewShapeHandle();
  TF_ShapeInferenceContextGetInput(ctx, 0, input, status);
#if defined(DEFECT_SHAPE_FN_FAILS)
  if (TF_GetCode(status) == TF_OK && !TF_ShapeInferenceContextRankKnown(ctx, input)) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT, "VendorScale needs inputs of known rank");
  }
#endif
  if (TF_GetCode(status) == TF_OK) TF_ShapeInferenceContextSetOutput(ctx, 0, input, status);
  TF_DeleteShapeHandle(input);
}

static void define_vendor_op(void) {
  TF_Status* status = TF_NewStatus();
  TF_OpDefinitionBuilder* builder = TF_NewOpDefinitionBuilder("VendorScale");
#if defined(DEFECT_OP_DEF_SYNTAX_ERROR)
  TF_OpDefinitionBuilderAddAttr(builder, "T: {float, flaot}");
#else
  TF_OpDefinitionBuilderAddAttr(builder, "T: {float, half}");
#endif
  TF_OpDefinitionBuilderAddAttr(builder, "scale: float = 1.0");
#if defined(DEFECT_HOST_MEMORY_ON_OWN_OP)
  /* More of the summary TensorFlow quotes: a string attr with allowed values, a flag. */
  TF_OpDefinitionBuilderAddAttr(builder, "mode: {'fast', 'exact'} = 'fast'");
  TF_OpDefinitionBuilderSetIsStateful(builder, true);
#endif
  TF_OpDefinitionBuilderAddInput(builder, "x: T");
  TF_OpDefinitionBuilderAddOutput(builder, "y: T");
  TF_OpDefinitionBuilderSetShapeInferenceFunction(builder, same_shape);
  TF_RegisterOpDefinition(builder, status);
  TF_DeleteStatus(status);
}

ENTRY_POINT void TF_InitKernel(void) {
  const struct constraint float_t[] = {{"T", TF_FLOAT}};
  const struct constraint half_t[] = {{"T", TF_HALF}};
  const struct constraint sum_float[] = {{"T", TF_FLOAT}, {"Tidx", TF_INT32}};

  define_vendor_op();
  register_kernel("VendorScale", OWN_DEVICE_TYPE, float_t, 1, NULL, 0);

  register_kernel("AddV2", OWN_DEVICE_TYPE, half_t, 1, NULL, 0);
  /* The same kernel twice, at two priorities: TensorFlow picks the higher one. */
  register_kernel("AddV2", OWN_DEVICE_TYPE, float_t, 1, NULL, 0);
  register_kernel("AddV2", OWN_DEVICE_TYPE, float_t, 1, NULL, 1);
  register_kernel("Sum", OWN_DEVICE_TYPE, sum_float, 2, "reduction_indices", 0);

#if defined(DEFECT_GPU_DEVICE_TYPE)
  register_kernel("Relu", "GPU", float_t, 1, NULL, 0);
#elif defined(DEFECT_CPU_DEVICE_TYPE)
  register_kernel("Relu", "CPU", float_t, 1, NULL, 0);
#elif defined(DEFECT_CONSTRAINT_ON_MISSING_ATTR)
  const struct constraint extra_attr[] = {{"T", TF_FLOAT}, {"dtype", TF_FLOAT}};
  register_kernel("Relu", OWN_DEVICE_TYPE, extra_attr, 2, NULL, 0);
#elif defined(DEFECT_DISALLOWED_DTYPE)
  const struct constraint bool_t[] = {{"T", TF_BOOL}};
  register_kernel("Relu", OWN_DEVICE_TYPE, bool_t, 1, NULL, 0);
#elif defined(DEFECT_MISSING_CONSTRAINT)
  register_kernel("Relu", OWN_DEVICE_TYPE, NULL, 0, NULL, 0);
#elif defined(DEFECT_HOST_MEMORY_ON_MISSING_ARG)
  register_kernel("Mean", OWN_DEVICE_TYPE, sum_float, 2, "axis", 0);
#elif defined(DEFECT_HOST_MEMORY_ON_OWN_OP)
  /* The plugin's own op: "scale" is an attr of VendorScale, not an argument. */
  register_kernel("VendorScale", OWN_DEVICE_TYPE, half_t, 1, "scale", 0);
#elif defined(DEFECT_DUPLICATE)
  register_kernel("Relu", OWN_DEVICE_TYPE, float_t, 1, NULL, 0);
  register_kernel("Relu", OWN_DEVICE_TYPE, float_t, 1, NULL, 0);
#elif defined(DEFECT_UNKNOWN_OP)
  register_kernel("AddV3", OWN_DEVICE_TYPE, float_t, 1, NULL, 0);
#endif
}
