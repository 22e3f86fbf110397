/* TF_InitKernel of a plugin that defines an op of its own, as ITEX (_ITEX*) and zentf (_Zen*)
 * do: VendorScale, y = x * scale, with a float kernel on its device. Linked next to
 * tests/load_defects/plugin.c (built with EXTERNAL_TF_INIT_KERNEL), whose synchronous
 * StreamExecutor part provides MINIMAL_DEVICE and keeps device memory in host memory, so the
 * kernel reads and writes its tensors directly.
 * DEFECT_WRONG_SCALE: the kernel ignores the scale attr and applies the default, 1.0. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tensorflow/c/kernels.h"
#include "tensorflow/c/ops.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#define OWN_DEVICE_TYPE "MINIMAL_DEVICE" /* SP_Platform.type of plugin.c */
#define ENTRY_POINT __attribute__((visibility("default")))

struct vendor_scale {
  float scale;
};

static void* create_vendor_scale(TF_OpKernelConstruction* ctx) {
  struct vendor_scale* kernel = calloc(1, sizeof *kernel);
  if (kernel == NULL) return NULL;
  kernel->scale = 1.0f;
#if !defined(DEFECT_WRONG_SCALE)
  TF_Status* status = TF_NewStatus();
  TF_OpKernelConstruction_GetAttrFloat(ctx, "scale", &kernel->scale, status);
  if (TF_GetCode(status) != TF_OK) TF_OpKernelConstruction_Failure(ctx, status);
  TF_DeleteStatus(status);
#else
  (void)ctx;
#endif
  return kernel;
}

static void delete_vendor_scale(void* kernel) { free(kernel); }

static void compute_vendor_scale(void* kernel, TF_OpKernelContext* ctx) {
  const float scale = ((const struct vendor_scale*)kernel)->scale;
  TF_Status* status = TF_NewStatus();
  TF_Tensor* x = NULL;
  TF_Tensor* y = NULL;
  TF_GetInput(ctx, 0, &x, status);
  if (TF_GetCode(status) == TF_OK) {
    const int dims = TF_NumDims(x);
    int64_t shape[8];
    for (int i = 0; i < dims && i < 8; ++i) shape[i] = TF_Dim(x, i);
    y = TF_AllocateOutput(ctx, 0, TF_FLOAT, shape, dims, TF_TensorByteSize(x), status);
  }
  if (TF_GetCode(status) == TF_OK) {
    /* Device memory is host memory on this synchronous device. */
    const float* in = TF_TensorData(x);
    float* out = TF_TensorData(y);
    const int64_t n = TF_TensorElementCount(x);
    for (int64_t i = 0; i < n; ++i) out[i] = in[i] * scale;
  } else {
    TF_OpKernelContext_Failure(ctx, status);
  }
  TF_DeleteTensor(y);
  TF_DeleteTensor(x);
  TF_DeleteStatus(status);
}

/* Output 0 has the shape of input 0. */
static void same_shape(TF_ShapeInferenceContext* ctx, TF_Status* status) {
  TF_ShapeHandle* input = TF_NewShapeHandle();
  TF_ShapeInferenceContextGetInput(ctx, 0, input, status);
  if (TF_GetCode(status) == TF_OK) TF_ShapeInferenceContextSetOutput(ctx, 0, input, status);
  TF_DeleteShapeHandle(input);
}

static void define_vendor_scale(void) {
  TF_Status* status = TF_NewStatus();
  TF_OpDefinitionBuilder* builder = TF_NewOpDefinitionBuilder("VendorScale");
  TF_OpDefinitionBuilderAddAttr(builder, "T: {float, half}");
  TF_OpDefinitionBuilderAddAttr(builder, "scale: float = 1.0");
  TF_OpDefinitionBuilderAddInput(builder, "x: T");
  TF_OpDefinitionBuilderAddOutput(builder, "y: T");
  TF_OpDefinitionBuilderSetShapeInferenceFunction(builder, same_shape);
  TF_RegisterOpDefinition(builder, status);
  TF_DeleteStatus(status);
}

ENTRY_POINT void TF_InitKernel(void) {
  define_vendor_scale();
  TF_Status* status = TF_NewStatus();
  TF_KernelBuilder* builder =
      TF_NewKernelBuilder("VendorScale", OWN_DEVICE_TYPE, create_vendor_scale, compute_vendor_scale,
                          delete_vendor_scale);
  TF_KernelBuilder_TypeConstraint(builder, "T", TF_FLOAT, status);
  if (TF_GetCode(status) == TF_OK) {
    TF_RegisterKernelBuilder("VendorScale", builder, status);
  } else {
    TF_DeleteKernelBuilder(builder);
  }
  TF_DeleteStatus(status);
}
