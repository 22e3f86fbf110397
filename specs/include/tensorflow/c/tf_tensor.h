/* Clean-room TensorFlow C API: tensors.
 *
 * Matches the layout and function signatures of TensorFlow's
 * tensorflow/c/tf_tensor.h.
 */
#ifndef TENSORFLOW_C_TF_TENSOR_H_
#define TENSORFLOW_C_TF_TENSOR_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a temporary tensor (TF_AllocateTemp) is placed. The caller must set
 * struct_size to TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE. */
typedef struct TF_AllocatorAttributes {
  size_t struct_size;
  TF_Bool on_host; /* 1: host memory, 0: device memory */
} TF_AllocatorAttributes;

/* 9 on LP64, while sizeof is 16. */
#define TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE TF_OFFSET_OF_END(TF_AllocatorAttributes, on_host)

/* Opaque handle to a dense, row-major tensor. */
typedef struct TF_Tensor TF_Tensor;

/* Wraps caller memory data[0, len) as a tensor of the given shape. When the
 * tensor is destroyed, deallocator(data, len, deallocator_arg) is called. May
 * return NULL (after calling the deallocator) if len does not fit the shape. */
TF_CAPI_EXPORT extern TF_Tensor* TF_NewTensor(
    TF_DataType, const int64_t* dims, int num_dims, void* data, size_t len,
    void (*deallocator)(void* data, size_t len, void* arg), void* deallocator_arg);

/* Allocates a tensor with core-owned, suitably aligned storage. */
TF_CAPI_EXPORT extern TF_Tensor* TF_AllocateTensor(TF_DataType, const int64_t* dims, int num_dims,
                                                   size_t len);

/* If the buffer can be taken over, deletes `tensor` and returns a new handle
 * for the same contents; otherwise returns NULL and leaves `tensor` alone. */
TF_CAPI_EXPORT extern TF_Tensor* TF_TensorMaybeMove(TF_Tensor* tensor);

TF_CAPI_EXPORT extern void TF_DeleteTensor(TF_Tensor*);

TF_CAPI_EXPORT extern TF_DataType TF_TensorType(const TF_Tensor*);

/* Replaces the shape, keeping the buffer (newer generations). */
TF_CAPI_EXPORT extern void TF_SetShape(TF_Tensor* tensor, const int64_t* dims, int num_dims);

TF_CAPI_EXPORT extern int TF_NumDims(const TF_Tensor*);

/* Size of dimension dim_index; requires 0 <= dim_index < TF_NumDims. */
TF_CAPI_EXPORT extern int64_t TF_Dim(const TF_Tensor* tensor, int dim_index);

TF_CAPI_EXPORT extern size_t TF_TensorByteSize(const TF_Tensor*);

/* Start of the element buffer (a device address for device tensors). */
TF_CAPI_EXPORT extern void* TF_TensorData(const TF_Tensor*);

TF_CAPI_EXPORT extern int64_t TF_TensorElementCount(const TF_Tensor* tensor);

/* Makes `to` share `from`'s buffer, reinterpreted as `type` with shape
 * new_dims; TF_INVALID_ARGUMENT in *status if the byte sizes disagree. */
TF_CAPI_EXPORT extern void TF_TensorBitcastFrom(const TF_Tensor* from, TF_DataType type,
                                                TF_Tensor* to, const int64_t* new_dims,
                                                int num_new_dims, TF_Status* status);

/* True if the buffer meets the core's default alignment. */
TF_CAPI_EXPORT extern bool TF_TensorIsAligned(const TF_Tensor*);

/* The alignment (bytes) the core expects of tensor buffers (newer
 * generations). */
TF_CAPI_EXPORT extern size_t TF_TensorDefaultAlignment(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_TF_TENSOR_H_ */
