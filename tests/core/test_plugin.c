/* A tiny kernel plugin in C, built twice by add_test_plugin (one per link style) to show
 * that plugins linked against either core library load with RTLD_NOW | RTLD_LOCAL and
 * record into the one Recorder. PLUGIN_OP names its op so the two builds differ.
 * Its kernel doubles a float tensor; its op has a shape function that copies the input
 * shape. Being C, it also checks that the clean-room headers are valid C11. */
#include <string.h>

#include "tensorflow/c/kernels.h"
#include "tensorflow/c/ops.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#ifndef PLUGIN_OP
#error "define PLUGIN_OP"
#endif

static void* Create(TF_OpKernelConstruction* ctx) {
  (void)ctx;
  static int kernel_state;
  return &kernel_state;
}

static void Compute(void* kernel, TF_OpKernelContext* ctx) {
  (void)kernel;
  TF_Status* status = TF_NewStatus();
  TF_Tensor* input = NULL;
  TF_GetInput(ctx, 0, &input, status);
  if (TF_GetCode(status) == TF_OK) {
    const int64_t n = TF_TensorElementCount(input);
    int64_t dims[8];
    const int rank = TF_NumDims(input);
    for (int i = 0; i < rank && i < 8; ++i) dims[i] = TF_Dim(input, i);
    TF_Tensor* output =
        TF_AllocateOutput(ctx, 0, TF_FLOAT, dims, rank, (size_t)n * sizeof(float), status);
    if (TF_GetCode(status) == TF_OK) {
      const float* in = (const float*)TF_TensorData(input);
      float* out = (float*)TF_TensorData(output);
      for (int64_t i = 0; i < n; ++i) out[i] = 2.0f * in[i];
    }
    TF_DeleteTensor(output);
  }
  if (TF_GetCode(status) != TF_OK) TF_OpKernelContext_Failure(ctx, status);
  TF_DeleteTensor(input);
  TF_DeleteStatus(status);
}

static void Delete(void* kernel) { (void)kernel; }

static void ShapeFn(TF_ShapeInferenceContext* ctx, TF_Status* status) {
  TF_ShapeHandle* shape = TF_NewShapeHandle();
  TF_ShapeInferenceContextGetInput(ctx, 0, shape, status);
  if (TF_GetCode(status) == TF_OK) TF_ShapeInferenceContextSetOutput(ctx, 0, shape, status);
  TF_DeleteShapeHandle(shape);
}

void TF_InitKernel(void) {
  TF_Status* status = TF_NewStatus();

  TF_OpDefinitionBuilder* op = TF_NewOpDefinitionBuilder(PLUGIN_OP);
  TF_OpDefinitionBuilderAddInput(op, "x: float");
  TF_OpDefinitionBuilderAddOutput(op, "y: float");
  TF_OpDefinitionBuilderSetShapeInferenceFunction(op, ShapeFn);
  TF_RegisterOpDefinition(op, status);

  TF_KernelBuilder* builder = TF_NewKernelBuilder(PLUGIN_OP, "CORE_TEST", Create, Compute, Delete);
  TF_KernelBuilder_TypeConstraint(builder, "T", TF_FLOAT, status);
  TF_KernelBuilder_HostMemory(builder, "x");
  TF_RegisterKernelBuilder(PLUGIN_OP "Kernel", builder, status);

  TF_DeleteStatus(status);
}
