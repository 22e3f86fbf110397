/* Clean-room TensorFlow pluggable profiler C API (TF_/TP_*).
 *
 * Reproduces the newest known layout of TensorFlow's
 * tensorflow/c/experimental/pluggable_profiler/pluggable_profiler.h
 * (TP_Profiler.device_type; older headers named the same member `type`).
 * TF_* structs are filled by the core, TP_* structs by the plugin.
 */
#ifndef TENSORFLOW_C_EXPERIMENTAL_PLUGGABLE_PROFILER_PLUGGABLE_PROFILER_H_
#define TENSORFLOW_C_EXPERIMENTAL_PLUGGABLE_PROFILER_PLUGGABLE_PROFILER_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_status.h"

/* Profiler C API version reported to TF_InitProfiler (never bumped). */
#define TP_MAJOR 0
#define TP_MINOR 0
#define TP_PATCH 1

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TP_Profiler {
  size_t struct_size;
  void* ext;
  const char* device_type; /* must match [A-Z][A-Z_]* */
} TP_Profiler;

#define TP_PROFILER_STRUCT_SIZE TF_OFFSET_OF_END(TP_Profiler, device_type)

/* Profiling session callbacks. collect_data_xspace is called first with
 * buffer == NULL to learn the size (*size_in_bytes), then with a buffer of that
 * size to receive a serialized XSpace proto. */
typedef struct TP_ProfilerFns {
  size_t struct_size;
  void* ext;
  void (*start)(const TP_Profiler* profiler, TF_Status* status);
  void (*stop)(const TP_Profiler* profiler, TF_Status* status);
  void (*collect_data_xspace)(const TP_Profiler* profiler, uint8_t* buffer, size_t* size_in_bytes,
                              TF_Status* status);
} TP_ProfilerFns;

#define TP_PROFILER_FNS_STRUCT_SIZE TF_OFFSET_OF_END(TP_ProfilerFns, collect_data_xspace)

/* Handed to TF_InitProfiler. The core owns `profiler` and `profiler_fns`; the
 * plugin fills them and the two destroy callbacks, which must only release what
 * the plugin stored inside those structs. */
typedef struct TF_ProfilerRegistrationParams {
  size_t struct_size;
  void* ext;
  int32_t major_version;
  int32_t minor_version;
  int32_t patch_version;
  TP_Profiler* profiler;
  TP_ProfilerFns* profiler_fns;
  void (*destroy_profiler)(TP_Profiler* profiler);
  void (*destroy_profiler_fns)(TP_ProfilerFns* profiler_fns);
} TF_ProfilerRegistrationParams;

#define TF_PROFILER_REGISTRATION_PARAMS_STRUCT_SIZE \
  TF_OFFSET_OF_END(TF_ProfilerRegistrationParams, destroy_profiler_fns)

/* Defined by the plugin (no TF_CAPI_EXPORT). */
void TF_InitProfiler(TF_ProfilerRegistrationParams* params, TF_Status* status);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_EXPERIMENTAL_PLUGGABLE_PROFILER_PLUGGABLE_PROFILER_H_ */
