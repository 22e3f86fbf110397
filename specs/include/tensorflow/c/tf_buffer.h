/* Clean-room TensorFlow C API: byte buffers (usually serialized protos).
 *
 * Matches the layout and functions of TensorFlow's tensorflow/c/tf_buffer.h.
 * (Older TensorFlow releases declared the same struct in c_api.h.)
 */
#ifndef TENSORFLOW_C_TF_BUFFER_H_
#define TENSORFLOW_C_TF_BUFFER_H_

#include <stddef.h>

#include "tensorflow/c/c_api_macros.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A pointer/length pair. The struct does not own `data` by itself: if
 * data_deallocator is set, TF_DeleteBuffer calls it with (data, length). */
typedef struct TF_Buffer {
  const void* data;
  size_t length;
  void (*data_deallocator)(void* data, size_t length);
} TF_Buffer;

/* Returns a buffer holding a private copy of proto[0, proto_len). */
TF_CAPI_EXPORT extern TF_Buffer* TF_NewBufferFromString(const void* proto, size_t proto_len);

/* Returns an empty buffer, typically filled in by a callee. */
TF_CAPI_EXPORT extern TF_Buffer* TF_NewBuffer(void);

/* Runs the deallocator (if any) and frees the buffer itself. NULL is allowed. */
TF_CAPI_EXPORT extern void TF_DeleteBuffer(TF_Buffer*);

/* Returns a copy of *buffer by value. */
TF_CAPI_EXPORT extern TF_Buffer TF_GetBuffer(TF_Buffer* buffer);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_TF_BUFFER_H_ */
