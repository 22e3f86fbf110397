/* Clean-room TensorFlow NextPluggableDevice C API, plugin half (TFNPD_*).
 *
 * Same path, names, member order and types as TensorFlow's
 * tensorflow/core/common_runtime/next_pluggable_device/c/plugin_c_api.h.
 * The core looks up TFNPD_InitPlugin, pre-fills params->struct_size, and keeps
 * the returned TFNPD_Api pointer for the process lifetime.
 * The two XLA types come from XLA's c_api_decl.h headers in TensorFlow; only
 * what these declarations need is reproduced here.
 */
#ifndef TENSORFLOW_CORE_COMMON_RUNTIME_NEXT_PLUGGABLE_DEVICE_C_PLUGIN_C_API_H_
#define TENSORFLOW_CORE_COMMON_RUNTIME_NEXT_PLUGGABLE_DEVICE_C_PLUGIN_C_API_H_

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#define TFNPD_MAJOR 0
#define TFNPD_MINOR 0
#define TFNPD_PATCH 1

#ifdef __cplusplus
extern "C" {
#endif

#ifndef XLA_LAYOUT_PREFERENCE_DECLARED
#define XLA_LAYOUT_PREFERENCE_DECLARED
typedef struct XLA_Shape XLA_Shape; /* used through pointers only */
typedef enum XLA_LayoutPreference {
  XLA_LayoutPreference_kNoPreference = 0,
  XLA_LayoutPreference_kTpuPreferCompactChunkPaddedLayout = 1,
  XLA_LayoutPreference_kTpuPreferLinearLayout = 2,
} XLA_LayoutPreference;
#endif

/* Events. */
typedef struct TFNPD_DeviceEvent TFNPD_DeviceEvent;
typedef TFNPD_DeviceEvent* TFNPD_NewDeviceEvent(void);
typedef void TFNPD_DeviceEventAwait(TFNPD_DeviceEvent* event, TF_Status* status);
typedef bool TFNPD_DeviceEventIsReady(TFNPD_DeviceEvent* event);
typedef void TFNPD_DeviceEventAndThen(TFNPD_DeviceEvent* event, void (*callback)(void*),
                                      void* callback_arg);
typedef void TFNPD_DeviceEventDelete(TFNPD_DeviceEvent* event);

/* Allocator. */
typedef struct TFNPD_DeviceAllocator TFNPD_DeviceAllocator;
typedef TFNPD_DeviceAllocator* TFNPD_DeviceAllocatorCreate(int device_ordinal);
typedef void* TFNPD_DeviceAllocateRaw(TFNPD_DeviceAllocator* allocator, size_t alignment,
                                      size_t num_bytes);
typedef void TFNPD_DeviceDeallocateRaw(TFNPD_DeviceAllocator* allocator, void* ptr);
typedef TF_StringView TFNPD_DeviceAllocatorName(TFNPD_DeviceAllocator* allocator);
typedef bool TFNPD_DeviceAllocatorAllocatesOpaqueHandle(TFNPD_DeviceAllocator* allocator);
typedef void TFNPD_DeviceAllocatorDelete(TFNPD_DeviceAllocator* allocator);

/* Tensor transfers. */
typedef struct TFNPD_DeviceContext TFNPD_DeviceContext;
typedef TFNPD_DeviceContext* TFNPD_DeviceContextCreate(int device_ordinal);
typedef TFNPD_DeviceEvent* TFNPD_DeviceTensorToHostTensor(TFNPD_DeviceContext* device_context,
                                                          const TF_Tensor* device_tensor,
                                                          TF_Tensor* cpu_tensor, TF_Status* status);
typedef TFNPD_DeviceEvent* TFNPD_HostTensorToDeviceTensor(TFNPD_DeviceContext* device_context,
                                                          const TF_Tensor* cpu_tensor,
                                                          TF_Tensor* device_tensor,
                                                          TF_Status* status);
typedef TFNPD_DeviceEvent* TFNPD_SameDeviceTensorCopy(TFNPD_DeviceContext* context);
/* PJRT's buffer and client (xla/pjrt/c/pjrt_c_api.h), through pointers only; spelled with
 * `struct` so that this header and c_api.h's typedefs of the same names can meet in C99. */
struct PJRT_Buffer;
struct PJRT_Client;
typedef struct PJRT_Buffer* TFNPD_SameDevicePjRtBufferCopy(struct PJRT_Buffer* src_buffer,
                                                           struct PJRT_Client* c_client,
                                                           TF_Status* status);
typedef void TFNPD_DeviceContextDelete(TFNPD_DeviceContext* context);

/* TF2XLA. */
typedef void TFNPD_XlaShapeToDeviceShapeRepresentation(XLA_Shape* serialized_xla_shape,
                                                       int data_type, bool use_fast_memory,
                                                       XLA_LayoutPreference layout_preference,
                                                       XLA_Shape* serialized_device_shape,
                                                       TF_Status* tf_status);

/* Plugin system. */
typedef int32_t TFNPD_GetDeviceCount(TF_Status* status);
typedef void TFNPD_InitPluginInternalDeviceStates(TF_Status* status);

/* The function table TFNPD_InitPlugin returns: each member is named after its
 * function type. C++ spells the type with `::` so that GCC does not reject the
 * member for changing the meaning of the name inside the struct (same layout). */
#ifdef __cplusplus
#define TFNPD_API_STRUCT_FN(fn_type) ::fn_type* fn_type
#else
#define TFNPD_API_STRUCT_FN(fn_type) fn_type* fn_type
#endif

typedef struct {
  size_t struct_size;
  void* priv;

  TFNPD_API_STRUCT_FN(TFNPD_NewDeviceEvent);
  TFNPD_API_STRUCT_FN(TFNPD_DeviceEventAwait);
  TFNPD_API_STRUCT_FN(TFNPD_DeviceEventIsReady);
  TFNPD_API_STRUCT_FN(TFNPD_DeviceEventAndThen);
  TFNPD_API_STRUCT_FN(TFNPD_DeviceEventDelete);

  TFNPD_API_STRUCT_FN(TFNPD_DeviceAllocatorCreate);
  TFNPD_API_STRUCT_FN(TFNPD_DeviceAllocateRaw);
  TFNPD_API_STRUCT_FN(TFNPD_DeviceDeallocateRaw);
  TFNPD_API_STRUCT_FN(TFNPD_DeviceAllocatorName);
  TFNPD_API_STRUCT_FN(TFNPD_DeviceAllocatorAllocatesOpaqueHandle);
  TFNPD_API_STRUCT_FN(TFNPD_DeviceAllocatorDelete);

  TFNPD_API_STRUCT_FN(TFNPD_DeviceContextCreate);
  TFNPD_API_STRUCT_FN(TFNPD_DeviceContextDelete);

  TFNPD_API_STRUCT_FN(TFNPD_DeviceTensorToHostTensor);
  TFNPD_API_STRUCT_FN(TFNPD_HostTensorToDeviceTensor);
  TFNPD_API_STRUCT_FN(TFNPD_SameDeviceTensorCopy);
  /* In the 2.15.1 and 2.21.0 wheels' headers (176-byte table, TFNPD_GetDeviceCount at offset
   * 160, where 2.21.0's device factory calls it): without it every later member sits one slot
   * early, and TensorFlow calls the wrong function. */
  TFNPD_API_STRUCT_FN(TFNPD_SameDevicePjRtBufferCopy);

  TFNPD_API_STRUCT_FN(TFNPD_XlaShapeToDeviceShapeRepresentation);

  TFNPD_API_STRUCT_FN(TFNPD_GetDeviceCount);
  TFNPD_API_STRUCT_FN(TFNPD_InitPluginInternalDeviceStates);
} TFNPD_Api;

#undef TFNPD_API_STRUCT_FN

/* static: TensorFlow's plain `const size_t` gives duplicate definitions in C
 * (same choice as TF_InputRange_Args_STRUCT_SIZE, see README.md). */
static const size_t TFNPD_Api_STRUCT_SIZE =
    TF_OFFSET_OF_END(TFNPD_Api, TFNPD_InitPluginInternalDeviceStates);

typedef struct TFNPD_PluginParams {
  size_t struct_size;
  void* ext;

  const char* device_type;             /* set by the plugin */
  const char* compilation_device_name; /* set by the plugin */
  int32_t priority;                    /* set by the plugin */
  bool is_pluggable_device;            /* set by the plugin; false skips legacy copy logic */
  bool use_pjrt_on_demand_compile;     /* set by the plugin */
} TFNPD_PluginParams;

/* Ends at is_pluggable_device, not at the last member: 2.15.1 and 2.21.0 pre-fill 37
 * (measured with a probe plugin). */
static const size_t TFNPD_PLUGIN_PARAMS_STRUCT_SIZE =
    TF_OFFSET_OF_END(TFNPD_PluginParams, is_pluggable_device);

/* Plugin entry point. */
const TFNPD_Api* TFNPD_InitPlugin(TFNPD_PluginParams* params, TF_Status* tf_status);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_CORE_COMMON_RUNTIME_NEXT_PLUGGABLE_DEVICE_C_PLUGIN_C_API_H_ */
