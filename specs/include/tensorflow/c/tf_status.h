/* Clean-room TensorFlow C API: status objects and error codes.
 *
 * Matches the names, values and function signatures of TensorFlow's
 * tensorflow/c/tf_status.h.
 *
 * Type choice: newer TensorFlow releases spell TF_Status as an alias of
 * `struct TSL_Status` and TF_Code as an alias of the TSL_Code enum (the TF_*
 * code names become macros for TSL_* enumerators). This header uses the older,
 * self-contained spelling: an opaque `struct TF_Status` and a real `enum TF_Code`.
 * Values, sizes and the C calling convention are identical, so the C ABI is the
 * same; only the C++ mangled name of plugin-internal functions taking TF_Status*
 * differs, which never crosses the plugin boundary.
 */
#ifndef TENSORFLOW_C_TF_STATUS_H_
#define TENSORFLOW_C_TF_STATUS_H_

#include "tensorflow/c/c_api_macros.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque status: an error code plus message (and optional key/value payloads). */
typedef struct TF_Status TF_Status;

/* Error codes; the numbers equal the canonical error-code proto values. The
 * declaration order follows TensorFlow's (UNAUTHENTICATED after
 * PERMISSION_DENIED). */
typedef enum TF_Code {
  TF_OK = 0,
  TF_CANCELLED = 1,
  TF_UNKNOWN = 2,
  TF_INVALID_ARGUMENT = 3,
  TF_DEADLINE_EXCEEDED = 4,
  TF_NOT_FOUND = 5,
  TF_ALREADY_EXISTS = 6,
  TF_PERMISSION_DENIED = 7,
  TF_UNAUTHENTICATED = 16,
  TF_RESOURCE_EXHAUSTED = 8,
  TF_FAILED_PRECONDITION = 9,
  TF_ABORTED = 10,
  TF_OUT_OF_RANGE = 11,
  TF_UNIMPLEMENTED = 12,
  TF_INTERNAL = 13,
  TF_UNAVAILABLE = 14,
  TF_DATA_LOSS = 15
} TF_Code;

/* Callback for TF_ForEachPayload; key and value are only valid during the call. */
typedef void (*TF_PayloadVisitor)(const char* key, const char* value, void* capture);

/* Allocates a status set to TF_OK; free it with TF_DeleteStatus. */
TF_CAPI_EXPORT extern TF_Status* TF_NewStatus(void);

TF_CAPI_EXPORT extern void TF_DeleteStatus(TF_Status*);

/* Replaces code and message (payloads are dropped). TF_OK clears the status. */
TF_CAPI_EXPORT extern void TF_SetStatus(TF_Status* s, TF_Code code, const char* msg);

/* Adds or replaces the payload stored under `key`; ignored while s is TF_OK. */
TF_CAPI_EXPORT extern void TF_SetPayload(TF_Status* s, const char* key, const char* value);

/* Calls visitor(key, value, capture) once per stored payload. */
TF_CAPI_EXPORT extern void TF_ForEachPayload(const TF_Status* s, TF_PayloadVisitor visitor,
                                             void* capture);

/* Sets s from an errno-style code, with `context` prefixed to the message. */
TF_CAPI_EXPORT extern void TF_SetStatusFromIOError(TF_Status* s, int error_code,
                                                   const char* context);

TF_CAPI_EXPORT extern TF_Code TF_GetCode(const TF_Status* s);

/* NUL-terminated message; "" when the code is TF_OK. The pointer stays valid
 * until s is next modified or deleted. */
TF_CAPI_EXPORT extern const char* TF_Message(const TF_Status* s);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_TF_STATUS_H_ */
