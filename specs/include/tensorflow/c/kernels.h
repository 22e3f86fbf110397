/* Clean-room TensorFlow kernel C API (kernel registration and the kernel
 * construction/compute contexts).
 *
 * Matches the names and signatures of TensorFlow's tensorflow/c/kernels.h
 * (newest generation: async kernels, KernelDef registration, device/step/frame
 * getters).
 *
 * Not provided: TF_GetRendezvous. It returns a TF_RendezvousThunk whose layout
 * lives in TensorFlow's NextPluggableDevice headers and is out of scope here.
 */
#ifndef TENSORFLOW_C_KERNELS_H_
#define TENSORFLOW_C_KERNELS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque handles owned by the core. Construction and compute contexts are only
 * valid for the duration of the callback that receives them. */
typedef struct TF_KernelBuilder TF_KernelBuilder;
typedef struct TF_OpKernelConstruction TF_OpKernelConstruction;
typedef struct TF_OpKernelContext TF_OpKernelContext;
typedef struct TF_AsyncOpKernelDoneCallback TF_AsyncOpKernelDoneCallback;

/* Completes an async kernel started through TF_NewAsyncKernelBuilder. */
TF_CAPI_EXPORT extern void TF_RunAsyncOpKernelDoneCallback(TF_AsyncOpKernelDoneCallback*);

/* Defined by the plugin (no TF_CAPI_EXPORT); called once, after SE_InitPlugin,
 * to register every kernel the plugin provides. */
void TF_InitKernel(void);

/* ---- Kernel registration ------------------------------------------------ */

/* Creates a builder for a kernel of op `op_name` on device type `device_name`.
 * create_func (optional) runs when the core instantiates the kernel and its
 * result is passed to compute_func and delete_func (optional). Hand the builder
 * to TF_RegisterKernelBuilder*, or free it with TF_DeleteKernelBuilder. */
TF_CAPI_EXPORT extern TF_KernelBuilder* TF_NewKernelBuilder(
    const char* op_name, const char* device_name, void* (*create_func)(TF_OpKernelConstruction*),
    void (*compute_func)(void*, TF_OpKernelContext*), void (*delete_func)(void*));

/* Like TF_NewKernelBuilder, but compute_async_func must eventually call
 * TF_RunAsyncOpKernelDoneCallback(done). */
TF_CAPI_EXPORT extern TF_KernelBuilder* TF_NewAsyncKernelBuilder(
    const char* op_name, const char* device_name, void* (*create_func)(TF_OpKernelConstruction*),
    void (*compute_async_func)(void*, TF_OpKernelContext*, TF_AsyncOpKernelDoneCallback* done),
    void (*delete_func)(void*));

/* Restricts type attribute `attr_name` to `type`. */
TF_CAPI_EXPORT extern void TF_KernelBuilder_TypeConstraint(TF_KernelBuilder* kernel_builder,
                                                           const char* attr_name, TF_DataType type,
                                                           TF_Status* status);

/* Declares that input/output argument `arg_name` lives in host memory. */
TF_CAPI_EXPORT extern void TF_KernelBuilder_HostMemory(TF_KernelBuilder* kernel_builder,
                                                       const char* arg_name);

TF_CAPI_EXPORT extern void TF_KernelBuilder_Priority(TF_KernelBuilder* kernel_builder,
                                                     int32_t priority_number);

TF_CAPI_EXPORT extern void TF_KernelBuilder_Label(TF_KernelBuilder* kernel_builder,
                                                  const char* label);

/* Registers the kernel and takes ownership of `builder`. */
TF_CAPI_EXPORT extern void TF_RegisterKernelBuilder(const char* kernel_name,
                                                    TF_KernelBuilder* builder, TF_Status* status);

/* Same, but uses a serialized KernelDef (may be NULL) instead of building one
 * from the builder's settings. */
TF_CAPI_EXPORT extern void TF_RegisterKernelBuilderWithKernelDef(const char* serialized_kernel_def,
                                                                 const char* name,
                                                                 TF_KernelBuilder* builder,
                                                                 TF_Status* status);

/* Frees a builder that was never registered. NULL is allowed. */
TF_CAPI_EXPORT extern void TF_DeleteKernelBuilder(TF_KernelBuilder* builder);

/* ---- Compute context ---------------------------------------------------- */

/* The plugin stream the kernel runs on; NULL plus an error status on devices
 * that were not registered through the StreamExecutor C API. */
TF_CAPI_EXPORT extern SP_Stream TF_GetStream(TF_OpKernelContext* ctx, TF_Status* status);

TF_CAPI_EXPORT extern int TF_NumInputs(TF_OpKernelContext* ctx);

TF_CAPI_EXPORT extern int TF_NumOutputs(TF_OpKernelContext* ctx);

/* On TF_OK, *tensor is a new handle the caller must TF_DeleteTensor. A bad
 * index gives TF_OUT_OF_RANGE. */
TF_CAPI_EXPORT extern void TF_GetInput(TF_OpKernelContext* ctx, int i, TF_Tensor** tensor,
                                       TF_Status* status);

/* In/out argument of TF_InputRange (the struct is unnamed, as in TensorFlow). */
typedef struct {
  size_t struct_size;
  void* priv;        /* reserved */
  int start;         /* out */
  int stop;          /* out */
  TF_Status* status; /* out */
} TF_InputRange_Args;

/* TensorFlow defines this as a plain `const size_t` object in the header. It is
 * `static` here so that C translation units can include the header more than
 * once per program without duplicate definitions; the value is the same. */
static const size_t TF_InputRange_Args_STRUCT_SIZE = TF_OFFSET_OF_END(TF_InputRange_Args, status);

/* Looks up the [start, stop) input indices of the argument named `name`. */
TF_CAPI_EXPORT extern void TF_InputRange(TF_OpKernelContext* ctx, const char* name,
                                         TF_InputRange_Args* args);

/* Data type of input `index`; an out-of-range index aborts the process. */
TF_CAPI_EXPORT extern TF_DataType TF_InputDatatype(TF_OpKernelContext* ctx, int index);

/* Sets output i to share `tensor`'s buffer; the caller keeps its handle. */
TF_CAPI_EXPORT extern void TF_SetOutput(TF_OpKernelContext* ctx, int i, const TF_Tensor* tensor,
                                        TF_Status* status);

/* New caller-owned handle for output i, or NULL with an error status. */
TF_CAPI_EXPORT extern TF_Tensor* TF_GetMutableOutput(TF_OpKernelContext* ctx, int i,
                                                     TF_Status* status);

/* Serialized protos written into a caller-provided buffer. */
TF_CAPI_EXPORT extern void TF_GetSerializedFunctionDefLibrary(
    TF_OpKernelContext* ctx, TF_Buffer* serialized_function_def_library, TF_Status* status);

TF_CAPI_EXPORT extern void TF_GetSerializedConfigProto(TF_OpKernelContext* ctx,
                                                       TF_Buffer* serialized_config_proto,
                                                       TF_Status* status);

TF_CAPI_EXPORT extern void TF_GetSerializedResourceHandleProto(
    TF_OpKernelContext* ctx, int i, TF_Buffer* serialized_resource_handle_proto, TF_Status* status);

/* Marks kernel construction / computation as failed with a copy of status. */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_Failure(TF_OpKernelConstruction* ctx,
                                                           TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelContext_Failure(TF_OpKernelContext* ctx, TF_Status* status);

/* Data type output i must have; an out-of-range index aborts the process. */
TF_CAPI_EXPORT extern TF_DataType TF_ExpectedOutputDataType(TF_OpKernelContext* ctx, int i);

TF_CAPI_EXPORT extern bool TF_IsHostMemoryInput(TF_OpKernelContext* ctx, int i, TF_Status* status);

TF_CAPI_EXPORT extern bool TF_IsHostMemoryOutput(TF_OpKernelContext* ctx, int i, TF_Status* status);

TF_CAPI_EXPORT extern int64_t TF_StepId(TF_OpKernelContext* ctx);

/* Serialized NodeDef of the kernel; the caller owns the returned buffer. */
TF_CAPI_EXPORT extern TF_Buffer* TF_OpKernelConstruction_GetNodeDef(TF_OpKernelConstruction* ctx,
                                                                    TF_Status* status);

TF_CAPI_EXPORT extern uint64_t TF_GetFrameId(TF_OpKernelContext* ctx);

TF_CAPI_EXPORT extern int64_t TF_GetIterId(TF_OpKernelContext* ctx);

TF_CAPI_EXPORT extern int64_t TF_GetStepId(TF_OpKernelContext* ctx);

TF_CAPI_EXPORT extern int TF_GetDeviceId(TF_OpKernelContext* ctx);

/* The strings behind the returned views belong to the kernel. */
TF_CAPI_EXPORT extern TF_StringView TF_GetDeviceName(TF_OpKernelContext* ctx);

TF_CAPI_EXPORT extern int TF_GetGraphDefVersion(TF_OpKernelContext* ctx);

TF_CAPI_EXPORT extern TF_StringView TF_GetOpKernelName(TF_OpKernelContext* ctx);

TF_CAPI_EXPORT extern TF_StringView TF_GetResourceMgrDefaultContainerName(TF_OpKernelContext* ctx);

TF_CAPI_EXPORT extern TF_StringView TF_GetOpKernelRequestedInput(TF_OpKernelContext* ctx,
                                                                 size_t index);

/* ---- Construction-time attributes -------------------------------------- */

/* list_size: element count for list attrs, -1 for scalars. total_size: summed
 * string bytes or shape ranks where that makes sense, else -1. */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrSize(TF_OpKernelConstruction* ctx,
                                                               const char* attr_name,
                                                               int32_t* list_size,
                                                               int32_t* total_size,
                                                               TF_Status* status);

/* Scalar getters: *val is written only on success. */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrType(TF_OpKernelConstruction* ctx,
                                                               const char* attr_name,
                                                               TF_DataType* val, TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrInt32(TF_OpKernelConstruction* ctx,
                                                                const char* attr_name, int32_t* val,
                                                                TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrInt64(TF_OpKernelConstruction* ctx,
                                                                const char* attr_name, int64_t* val,
                                                                TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrFloat(TF_OpKernelConstruction* ctx,
                                                                const char* attr_name, float* val,
                                                                TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrBool(TF_OpKernelConstruction* ctx,
                                                               const char* attr_name, TF_Bool* val,
                                                               TF_Status* status);

/* Copies at most max_length bytes into val; no NUL terminator is added. */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrString(TF_OpKernelConstruction* ctx,
                                                                 const char* attr_name, char* val,
                                                                 size_t max_length,
                                                                 TF_Status* status);

/* *val is a new caller-owned tensor on success. */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrTensor(TF_OpKernelConstruction* ctx,
                                                                 const char* attr_name,
                                                                 TF_Tensor** val,
                                                                 TF_Status* status);

/* List getters: copy up to max_vals elements into vals. */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrTypeList(TF_OpKernelConstruction* ctx,
                                                                   const char* attr_name,
                                                                   TF_DataType* vals, int max_vals,
                                                                   TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrInt32List(TF_OpKernelConstruction* ctx,
                                                                    const char* attr_name,
                                                                    int32_t* vals, int max_vals,
                                                                    TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrInt64List(TF_OpKernelConstruction* ctx,
                                                                    const char* attr_name,
                                                                    int64_t* vals, int max_vals,
                                                                    TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrFloatList(TF_OpKernelConstruction* ctx,
                                                                    const char* attr_name,
                                                                    float* vals, int max_vals,
                                                                    TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrBoolList(TF_OpKernelConstruction* ctx,
                                                                   const char* attr_name,
                                                                   TF_Bool* vals, int max_vals,
                                                                   TF_Status* status);

/* Packs the strings back to back into `storage` and points values[i] (with
 * lengths[i]) into it. */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrStringList(
    TF_OpKernelConstruction* ctx, const char* attr_name, char** values, size_t* lengths,
    int max_values, void* storage, size_t storage_size, TF_Status* status);

/* The caller owns every non-NULL tensor written to vals. */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrTensorList(TF_OpKernelConstruction* ctx,
                                                                     const char* attr_name,
                                                                     TF_Tensor** vals,
                                                                     int max_values,
                                                                     TF_Status* status);

/* Serialized NameAttrList of a function attribute; the caller owns it. */
TF_CAPI_EXPORT extern TF_Buffer* TF_OpKernelConstruction_GetAttrFunction(
    TF_OpKernelConstruction* ctx, const char* attr_name, TF_Status* status);

TF_CAPI_EXPORT extern bool TF_OpKernelConstruction_HasAttr(TF_OpKernelConstruction* ctx,
                                                           const char* attr_name,
                                                           TF_Status* status);

/* Node name of the kernel being built. */
TF_CAPI_EXPORT extern TF_StringView TF_OpKernelConstruction_GetName(TF_OpKernelConstruction* ctx);

/* ---- Allocation --------------------------------------------------------- */

/* Allocates output `index` with the given shape on the kernel's device; the
 * caller owns the returned handle. */
TF_CAPI_EXPORT extern TF_Tensor* TF_AllocateOutput(TF_OpKernelContext* context, int index,
                                                   TF_DataType dtype, const int64_t* dims,
                                                   int num_dims, size_t len, TF_Status* status);

/* Reuses one of the candidate inputs' buffers for output_index if possible,
 * else allocates; *forwarded_input receives the reused index or -1. */
TF_CAPI_EXPORT extern TF_Tensor* TF_ForwardInputOrAllocateOutput(
    TF_OpKernelContext* context, const int* candidate_input_indices,
    int num_candidate_input_indices, int output_index, const int64_t* output_dims,
    int output_num_dims, int* forwarded_input, TF_Status* status);

/* Scratch tensor for the current computation. alloc_attrs may be NULL. */
TF_CAPI_EXPORT extern TF_Tensor* TF_AllocateTemp(TF_OpKernelContext* context, TF_DataType dtype,
                                                 const int64_t* dims, int num_dims,
                                                 TF_AllocatorAttributes* alloc_attrs,
                                                 TF_Status* status);

/* Bracket device work that outlives the compute call (deferred ops). */
TF_CAPI_EXPORT extern void TF_IncNumDeferredOps(TF_OpKernelContext* context);
TF_CAPI_EXPORT extern void TF_DecNumDeferredOps(TF_OpKernelContext* context);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_KERNELS_H_ */
