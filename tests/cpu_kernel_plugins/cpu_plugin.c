/* A CPU kernel plugin, the category of ITEX's CPU build and AMD's ZenDNN plugin: no
 * SE_InitPlugin; TF_InitKernel registers kernels for TensorFlow's CPU device (Relu and AddV2 on
 * float, computed on the host) and TF_InitGraph an optimizer for device type CPU that returns
 * its input unchanged. Each DEFECT_* switch breaks one rule:
 *   DEFECT_RELU_WRONG_VALUES       Relu lets negative inputs through scaled (a leaky Relu)
 *   DEFECT_ADDV2_WRITES_PAST_OUTPUT AddV2 writes one element past its output's end
 *   DEFECT_OPTIMIZER_UNPARSABLE_GRAPH the optimizer returns bytes that are no GraphDef
 *   DEFECT_FLOOR_TRUNCATES         also a Floor kernel (an op no scenario covers, so only the
 *                                  cases --tensorflow generates judge it), which truncates
 *                                  toward zero: Floor(-1.5) = -1 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/experimental/grappler/grappler.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#define ENTRY_POINT __attribute__((visibility("default")))
#define MAX_RANK 8

static int64_t element_count(const int64_t* dims, int rank) {
  int64_t n = 1;
  for (int i = 0; i < rank; ++i) n *= dims[i];
  return n;
}

/* What a kernel on TensorFlow's CPU device observes: TF_GetStream fails with
 * FAILED_PRECONDITION (the CPU device has no stream) and tensors are 64-byte aligned (its
 * allocator's alignment). Anything else is reported as the kernel's error. */
static int on_cpu_device(TF_OpKernelContext* ctx, const TF_Tensor* input, TF_Status* status) {
  TF_Status* probe = TF_NewStatus();
  SP_Stream stream = TF_GetStream(ctx, probe);
  const int no_stream = stream == NULL && TF_GetCode(probe) == TF_FAILED_PRECONDITION;
  TF_DeleteStatus(probe);
  if (!no_stream) {
    TF_SetStatus(status, TF_INTERNAL, "TF_GetStream did not fail as on TensorFlow's CPU device");
    return 0;
  }
  if (TF_TensorElementCount(input) > 0 && (uintptr_t)TF_TensorData(input) % 64 != 0) {
    TF_SetStatus(status, TF_INTERNAL, "the input is not 64-byte aligned");
    return 0;
  }
  return 1;
}

static void relu_compute(void* kernel, TF_OpKernelContext* ctx) {
  (void)kernel;
  TF_Status* status = TF_NewStatus();
  TF_Tensor* x = NULL;
  TF_GetInput(ctx, 0, &x, status);
  if (TF_GetCode(status) == TF_OK) on_cpu_device(ctx, x, status);
  if (TF_GetCode(status) != TF_OK) {
    TF_OpKernelContext_Failure(ctx, status);
    TF_DeleteTensor(x);
    TF_DeleteStatus(status);
    return;
  }
  int rank = TF_NumDims(x);
  int64_t dims[MAX_RANK];
  for (int i = 0; i < rank && i < MAX_RANK; ++i) dims[i] = TF_Dim(x, i);
  int64_t n = TF_TensorElementCount(x);
  TF_Tensor* y = TF_AllocateOutput(ctx, 0, TF_FLOAT, dims, rank, (size_t)n * sizeof(float), status);
  if (TF_GetCode(status) != TF_OK) {
    TF_OpKernelContext_Failure(ctx, status);
  } else {
    const float* in = (const float*)TF_TensorData(x);
    float* out = (float*)TF_TensorData(y);
    for (int64_t i = 0; i < n; ++i) {
#if defined(DEFECT_RELU_WRONG_VALUES)
      out[i] = in[i] > 0.0f ? in[i] : 0.5f * in[i];
#else
      out[i] = in[i] < 0.0f ? 0.0f : in[i]; /* NaN stays NaN, as TensorFlow's Relu */
#endif
    }
  }
  TF_DeleteTensor(y);
  TF_DeleteTensor(x);
  TF_DeleteStatus(status);
}

/* numpy broadcasting: shapes aligned on the right, a dimension of 1 stretches. */
static int broadcast_shape(const TF_Tensor* a, const TF_Tensor* b, int64_t* dims, int* rank) {
  int ra = TF_NumDims(a), rb = TF_NumDims(b);
  *rank = ra > rb ? ra : rb;
  if (*rank > MAX_RANK) return 0;
  for (int i = 0; i < *rank; ++i) {
    int64_t da = i < *rank - ra ? 1 : TF_Dim(a, i - (*rank - ra));
    int64_t db = i < *rank - rb ? 1 : TF_Dim(b, i - (*rank - rb));
    if (da != db && da != 1 && db != 1) return 0;
    dims[i] = da == 1 ? db : da;
  }
  return 1;
}

/* The element of `t` (right-aligned inside the output's rank) for output index `flat`. */
static int64_t source_index(const TF_Tensor* t, const int64_t* dims, int rank, int64_t flat) {
  int rt = TF_NumDims(t);
  int64_t index = 0, stride = 1;
  for (int i = rank - 1; i >= 0; --i) {
    int64_t coordinate = flat % dims[i];
    flat /= dims[i];
    int ti = i - (rank - rt);
    if (ti < 0) continue;
    int64_t extent = TF_Dim(t, ti);
    if (extent != 1) index += coordinate * stride;
    stride *= extent;
  }
  return index;
}

static void describe_shape(const TF_Tensor* t, char* text, size_t size) {
  size_t used = (size_t)snprintf(text, size, "[");
  for (int i = 0; i < TF_NumDims(t) && used < size; ++i)
    used +=
        (size_t)snprintf(text + used, size - used, i ? ",%lld" : "%lld", (long long)TF_Dim(t, i));
  if (used < size) snprintf(text + used, size - used, "]");
}

static void add_compute(void* kernel, TF_OpKernelContext* ctx) {
  (void)kernel;
  TF_Status* status = TF_NewStatus();
  TF_Tensor *x = NULL, *y = NULL, *z = NULL;
  TF_GetInput(ctx, 0, &x, status);
  if (TF_GetCode(status) == TF_OK) TF_GetInput(ctx, 1, &y, status);
  int64_t dims[MAX_RANK];
  int rank = 0;
  if (TF_GetCode(status) == TF_OK && !broadcast_shape(x, y, dims, &rank)) {
    char a[128], b[128], message[300];
    describe_shape(x, a, sizeof a);
    describe_shape(y, b, sizeof b);
    snprintf(message, sizeof message, "Incompatible shapes: %s vs. %s", a, b);
    TF_SetStatus(status, TF_INVALID_ARGUMENT, message);
  }
  int64_t n = element_count(dims, rank);
  if (TF_GetCode(status) == TF_OK)
    z = TF_AllocateOutput(ctx, 0, TF_FLOAT, dims, rank, (size_t)n * sizeof(float), status);
  if (TF_GetCode(status) != TF_OK) {
    TF_OpKernelContext_Failure(ctx, status);
  } else {
    const float* a = (const float*)TF_TensorData(x);
    const float* b = (const float*)TF_TensorData(y);
    float* out = (float*)TF_TensorData(z);
    for (int64_t i = 0; i < n; ++i)
      out[i] = a[source_index(x, dims, rank, i)] + b[source_index(y, dims, rank, i)];
#if defined(DEFECT_ADDV2_WRITES_PAST_OUTPUT)
    if (n > 0) out[n] = 0.0f; /* an off-by-one loop bound */
#endif
  }
  TF_DeleteTensor(z);
  TF_DeleteTensor(y);
  TF_DeleteTensor(x);
  TF_DeleteStatus(status);
}

#if defined(DEFECT_FLOOR_TRUNCATES)
static void floor_truncating_compute(void* kernel, TF_OpKernelContext* ctx) {
  (void)kernel;
  TF_Status* status = TF_NewStatus();
  TF_Tensor* x = NULL;
  TF_Tensor* y = NULL;
  TF_GetInput(ctx, 0, &x, status);
  if (TF_GetCode(status) == TF_OK) on_cpu_device(ctx, x, status);
  if (TF_GetCode(status) == TF_OK) {
    int rank = TF_NumDims(x);
    int64_t dims[MAX_RANK];
    for (int i = 0; i < rank && i < MAX_RANK; ++i) dims[i] = TF_Dim(x, i);
    y = TF_AllocateOutput(ctx, 0, TF_FLOAT, dims, rank,
                          (size_t)element_count(dims, rank) * sizeof(float), status);
  }
  if (TF_GetCode(status) == TF_OK) {
    const float* in = (const float*)TF_TensorData(x);
    float* out = (float*)TF_TensorData(y);
    const int64_t n = TF_TensorElementCount(x);
    /* The defect: a cast truncates toward zero where Floor rounds down (and NaN, infinities and
     * values beyond int64 come out as whatever the cast gives). */
    for (int64_t i = 0; i < n; ++i) out[i] = (float)(int64_t)in[i];
  } else {
    TF_OpKernelContext_Failure(ctx, status);
  }
  TF_DeleteTensor(y);
  TF_DeleteTensor(x);
  TF_DeleteStatus(status);
}
#endif

static void register_float_kernel(const char* op, void (*compute)(void*, TF_OpKernelContext*)) {
  TF_Status* status = TF_NewStatus();
  TF_KernelBuilder* builder = TF_NewKernelBuilder(op, "CPU", NULL, compute, NULL);
  TF_KernelBuilder_TypeConstraint(builder, "T", TF_FLOAT, status);
  /* TensorFlow's own CPU kernel has priority 0: one of equal priority would make the lookup
   * ambiguous; the higher one is picked. */
  TF_KernelBuilder_Priority(builder, 1);
  if (TF_GetCode(status) == TF_OK) TF_RegisterKernelBuilder(op, builder, status);
  TF_DeleteStatus(status);
}

ENTRY_POINT void TF_InitKernel(void) {
  register_float_kernel("Relu", relu_compute);
  register_float_kernel("AddV2", add_compute);
#if defined(DEFECT_FLOOR_TRUNCATES)
  register_float_kernel("Floor", floor_truncating_compute);
#endif
}

static void free_output(void* data, size_t length) {
  (void)length;
  free(data);
}

/* A graph pass that rewrites nothing: the output is a copy of the input. */
static void optimize(void* optimizer, const TF_Buffer* graph_in, const TF_GrapplerItem* item,
                     TF_Buffer* graph_out, TF_Status* status) {
  (void)optimizer;
  (void)item;
  size_t length = graph_in->length;
  uint8_t* copy = malloc(length + 16);
  if (copy == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  memcpy(copy, graph_in->data, length);
#if defined(DEFECT_OPTIMIZER_UNPARSABLE_GRAPH)
  memset(copy, 0xff, 16); /* not a protobuf message */
  length = 16;
#endif
  graph_out->data = copy;
  graph_out->length = length;
  graph_out->data_deallocator = free_output;
  TF_SetStatus(status, TF_OK, "");
}

static void* create(void) { return malloc(1); }
static void destroy(void* optimizer) { free(optimizer); }

ENTRY_POINT void TF_InitGraph(TP_OptimizerRegistrationParams* params, TF_Status* status) {
  params->device_type = "CPU";
  params->optimizer_configs->struct_size = TP_OPTIMIZER_CONFIGS_STRUCT_SIZE;
  params->optimizer->struct_size = TP_OPTIMIZER_STRUCT_SIZE;
  params->optimizer->create_func = create;
  params->optimizer->optimize_func = optimize;
  params->optimizer->destroy_func = destroy;
  TF_SetStatus(status, TF_OK, "");
}
