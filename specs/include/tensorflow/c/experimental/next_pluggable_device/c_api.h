/* Clean-room TensorFlow NextPluggableDevice C API, core half (functions the
 * core exports for plugin kernels of a PJRT-based device).
 *
 * Same path and declarations as TensorFlow's
 * tensorflow/c/experimental/next_pluggable_device/c_api.h. The PJRT types are
 * only forward-declared: pjrt_c_api.h belongs to XLA and is out of scope; every
 * use here is through a pointer, so a plugin that includes XLA's real header as
 * well still compiles (a repeated typedef of the same struct is legal).
 * The plugin half (TFNPD_InitPlugin, TFNPD_Api) is in
 * tensorflow/core/common_runtime/next_pluggable_device/c/plugin_c_api.h.
 */
#ifndef TENSORFLOW_C_EXPERIMENTAL_NEXT_PLUGGABLE_DEVICE_C_API_H_
#define TENSORFLOW_C_EXPERIMENTAL_NEXT_PLUGGABLE_DEVICE_C_API_H_

#ifndef __cplusplus
#include <stdbool.h>
#endif

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"
#include "tensorflow/c/tf_buffer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct PJRT_Client PJRT_Client;
typedef struct PJRT_Buffer PJRT_Buffer;
typedef struct PJRT_NamedValue PJRT_NamedValue;

/* Opaque core objects. */
typedef struct TF_Device TF_Device;
typedef struct TF_VariableInfo TF_VariableInfo;
typedef struct TF_CoordinationServiceAgent TF_CoordinationServiceAgent;

TF_CAPI_EXPORT extern TF_Device* TF_GetDevice(TF_OpKernelContext* ctx);

/* Plugin-owned resources kept in the context's resource manager. */
TF_CAPI_EXPORT extern void TF_CreatePluginResource(TF_OpKernelContext* ctx,
                                                   const char* container_name,
                                                   const char* plugin_resource_name,
                                                   void* plugin_resource,
                                                   void (*delete_func)(void*), TF_Status* status);
TF_CAPI_EXPORT extern void TF_LookupOrCreatePluginResource(
    TF_OpKernelContext* ctx, const char* container_name, const char* plugin_resource_name,
    void** result_plugin_resource, void* (*create_func)(void*), void* create_func_args,
    void (*delete_func)(void*), TF_Status* status);

/* Resource variables seen by a kernel. */
TF_CAPI_EXPORT extern TF_VariableInfo* TF_CreateVariableInfoFromContext(TF_OpKernelContext* ctx,
                                                                        int index,
                                                                        TF_Status* status);
TF_CAPI_EXPORT extern void TF_LockVariableInfos(TF_VariableInfo** vars, int num_vars,
                                                TF_Status* status);
TF_CAPI_EXPORT extern void TF_AllocateTempForVariableInfo(TF_OpKernelContext* ctx,
                                                          TF_VariableInfo* var_info,
                                                          TF_Status* status);
TF_CAPI_EXPORT extern TF_Tensor* TF_GetTensorFromVariableInfo(TF_VariableInfo* var_info,
                                                              TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteVariableInfo(TF_VariableInfo* var_info);

/* Coordination service (multi-host key-value store). */
TF_CAPI_EXPORT extern TF_CoordinationServiceAgent* TF_GetCoordinationServiceAgent(
    TF_OpKernelContext* ctx);
TF_CAPI_EXPORT extern bool TF_CoordinationServiceIsInitialized(TF_CoordinationServiceAgent* agent);
TF_CAPI_EXPORT extern void TF_CoordinationServiceInsertKeyValue(const char* key, const char* value,
                                                                TF_CoordinationServiceAgent* agent,
                                                                TF_Status* status);
/* The returned buffer belongs to the caller; NULL on error. */
TF_CAPI_EXPORT extern TF_Buffer* TF_CoordinationServiceGetKeyValue(
    const char* key, TF_CoordinationServiceAgent* agent, TF_Status* status);
TF_CAPI_EXPORT extern void TF_CoordinationServiceDeleteKeyValue(const char* key,
                                                                TF_CoordinationServiceAgent* agent,
                                                                TF_Status* status);

/* PJRT client and buffers. create_options may be NULL with num_options 0. */
TF_CAPI_EXPORT extern void TF_CreateAndSetPjRtCApiClient(const char* device_type, TF_Status* status,
                                                         PJRT_NamedValue* create_options,
                                                         int num_options);
TF_CAPI_EXPORT extern PJRT_Client* TF_GetPjRtCClient(const char* device_type, TF_Status* status);
TF_CAPI_EXPORT extern PJRT_Buffer* TF_GetPjRtCBuffer(TF_Tensor* c_tensor, TF_Status* status);
TF_CAPI_EXPORT extern void TF_CreatePjRtBuffer(TF_Tensor* c_tensor, PJRT_Buffer* c_buffer,
                                               const char* device_type, TF_Status* status);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_EXPERIMENTAL_NEXT_PLUGGABLE_DEVICE_C_API_H_ */
