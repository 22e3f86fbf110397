/* Clean-room TensorFlow C API: the subset of tensorflow/c/c_api.h that the
 * plugin headers need.
 *
 * TensorFlow's real c_api.h is the whole graph/session API (TF_Graph,
 * TF_Session, TF_Operation, ...). None of that is part of the PluggableDevice
 * contract, so this file only provides what kernels.h and grappler.h rely on:
 * TF_StringView (which TensorFlow declares here) and the headers that the real
 * c_api.h pulls in (TF_Buffer, TF_Status, TF_DataType, TF_Tensor), plus the
 * registry and version functions C-API plugins import (ITEX's CPU build).
 */
#ifndef TENSORFLOW_C_C_API_H_
#define TENSORFLOW_C_C_API_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A borrowed string (not NUL-terminated); the core owns the bytes. Returned by
 * value from several kernel-context getters (16 bytes, in RAX:RDX on x86-64). */
typedef struct TF_StringView {
  const char* data;
  size_t len;
} TF_StringView;

/* The release of the TensorFlow library, e.g. "2.15.1". */
TF_CAPI_EXPORT extern const char* TF_Version(void);

/* Decodes the serialized TensorProto in `from` into `to` (its dtype, shape and
 * contents are replaced); INVALID_ARGUMENT when it is not a valid tensor. */
TF_CAPI_EXPORT extern void TF_TensorFromProto(const TF_Buffer* from, TF_Tensor* to,
                                              TF_Status* status);

/* Every registered op, as a serialized OpList. The caller deletes the buffer. */
TF_CAPI_EXPORT extern TF_Buffer* TF_GetAllOpList(void);

/* The kernels registered for op `name`, as a serialized KernelList (empty when
 * there are none). The caller deletes the buffer. */
TF_CAPI_EXPORT extern TF_Buffer* TF_GetRegisteredKernelsForOp(const char* name, TF_Status* status);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_C_API_H_ */
