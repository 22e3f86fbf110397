/* Clean-room TensorFlow C API: logging through the host process's log.
 *
 * Same functions and enum values as TensorFlow's tensorflow/c/logging.h. Plugins built on the
 * C API only use these for their log lines (DirectML's plugin imports TF_Log and TF_VLog).
 */
#ifndef TENSORFLOW_C_LOGGING_H_
#define TENSORFLOW_C_LOGGING_H_

#include "tensorflow/c/c_api_macros.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Severity of a TF_Log line. TF_FATAL logs and then aborts the process. */
typedef enum TF_LogLevel {
  TF_INFO = 0,
  TF_WARNING = 1,
  TF_ERROR = 2,
  TF_FATAL = 3,
} TF_LogLevel;

/* printf-style message at `level`. */
TF_CAPI_EXPORT extern void TF_Log(TF_LogLevel level, const char* fmt, ...);
/* printf-style message shown only when verbose logging reaches `level`
 * (TF_CPP_MAX_VLOG_LEVEL). */
TF_CAPI_EXPORT extern void TF_VLog(int level, const char* fmt, ...);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_LOGGING_H_ */
