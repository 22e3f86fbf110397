/* Clean-room TensorFlow experimental kernel C API (variables, ref inputs,
 * variant helpers) used by training kernels in device plugins.
 *
 * Matches the newest known signatures of TensorFlow's
 * tensorflow/c/kernels_experimental.h. Note the break against older releases:
 * TF_AssignVariable gained `bool validate_shape` as its 4th parameter without
 * a symbol rename.
 *
 * Not provided: TF_TemporaryVariable / TF_DestroyTemporaryVariable, whose
 * signatures are not specified.
 *
 * In every function below, the tensors handed to a plugin callback (copyFunc,
 * updateFunc, ...) are owned by that callback and must be released with
 * TF_DeleteTensor.
 */
#ifndef TENSORFLOW_C_KERNELS_EXPERIMENTAL_H_
#define TENSORFLOW_C_KERNELS_EXPERIMENTAL_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque set of variable locks returned by
 * TF_MaybeLockVariableInputMutexesInOrder. */
typedef struct TF_VariableInputLockHolder TF_VariableInputLockHolder;

/* Assigns input value_index to the resource variable at input_index, copying
 * through copyFunc. With validate_shape, an initialized variable whose shape
 * differs from the value's is an error. */
TF_CAPI_EXPORT extern void TF_AssignVariable(TF_OpKernelContext* ctx, int input_index,
                                             int value_index, bool validate_shape,
                                             void (*copyFunc)(TF_OpKernelContext* ctx,
                                                              TF_Tensor* source, TF_Tensor* dest),
                                             TF_Status* status);

/* Assignment for reference (non-resource) variables. */
TF_CAPI_EXPORT extern void TF_AssignRefVariable(
    TF_OpKernelContext* ctx, int input_ref_index, int output_ref_index, int value_index,
    bool use_locking, bool validate_shape,
    void (*copyFunc)(TF_OpKernelContext* ctx, TF_Tensor* source, TF_Tensor* dest),
    TF_Status* status);

/* Read-modify-write of a variable: updateFunc applies operation `Op`. */
TF_CAPI_EXPORT extern void TF_AssignUpdateVariable(
    TF_OpKernelContext* ctx, int input_index, int value_index, int Op, int isVariantType,
    void (*copyFunc)(TF_OpKernelContext* ctx, TF_Tensor* source, TF_Tensor* dest),
    void (*updateFunc)(TF_OpKernelContext* ctx, TF_Tensor* tensor, TF_Tensor* value, int Op),
    TF_Status* status);

/* Takes the mutexes of the variables at inputs[0, len) in a fixed order;
 * release them with TF_ReleaseVariableInputLockHolder. */
TF_CAPI_EXPORT extern void TF_MaybeLockVariableInputMutexesInOrder(
    TF_OpKernelContext* ctx, bool do_lock, bool sparse, const int* const inputs, size_t len,
    void (*copyFunc)(TF_OpKernelContext* ctx, TF_Tensor* source, TF_Tensor* dest),
    TF_VariableInputLockHolder** lockHolder, TF_Status* status);

/* Tensor currently held by the variable at input `input`. */
TF_CAPI_EXPORT extern void TF_GetInputTensorFromVariable(
    TF_OpKernelContext* ctx, int input, bool lock_held, bool isVariantType, bool sparse,
    void (*copyFunc)(TF_OpKernelContext* ctx, TF_Tensor* source, TF_Tensor* dest), TF_Tensor** out,
    TF_Status* status);

/* Forwards ref input input_index to ref output output_index. */
TF_CAPI_EXPORT extern void TF_OpKernelContext_ForwardRefInputToRefOutput(TF_OpKernelContext* ctx,
                                                                         int32_t input_index,
                                                                         int32_t output_index);

TF_CAPI_EXPORT extern void TF_ReleaseVariableInputLockHolder(
    TF_VariableInputLockHolder* lockHolder);

/* Input tensor by argument name; the caller owns *tensor on success. */
TF_CAPI_EXPORT extern void TF_GetInputByName(TF_OpKernelContext* ctx, const char* inputName,
                                             TF_Tensor** tensor, TF_Status* status);

/* Dimensions of a shape attribute, written to dims[0, num_dims). */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrTensorShape(TF_OpKernelConstruction* ctx,
                                                                      const char* attr_name,
                                                                      int64_t* dims,
                                                                      size_t num_dims,
                                                                      TF_Status* status);

/* True if input i is a reference input. */
TF_CAPI_EXPORT extern bool TF_IsRefInput(TF_OpKernelContext* ctx, int i, TF_Status* status);

/* AddN over variant tensors; binary_add_func adds the unwrapped payloads. */
TF_CAPI_EXPORT extern void TF_AddNVariant(TF_OpKernelContext* ctx,
                                          void (*binary_add_func)(TF_OpKernelContext* ctx,
                                                                  TF_Tensor* a, TF_Tensor* b,
                                                                  TF_Tensor* out),
                                          TF_Status* status);

/* ZerosLike over variant tensors; zeros_like_func fills the unwrapped output. */
TF_CAPI_EXPORT extern void TF_ZerosLikeVariant(TF_OpKernelContext* ctx,
                                               void (*zeros_like_func)(TF_OpKernelContext* ctx,
                                                                       TF_Tensor* input,
                                                                       TF_Tensor* out),
                                               TF_Status* status);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_KERNELS_EXPERIMENTAL_H_ */
