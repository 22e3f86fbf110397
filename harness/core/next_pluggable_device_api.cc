// next_pluggable_device/c_api.h, core half. A NextPluggableDevice runs kernels on a PJRT client
// inside TensorFlow's device and resource managers, none of which the mock core has: every
// function is exported (so plugins importing them load) and fails loudly, naming itself.
#include "core/status.h"
#include "core/unimplemented.h"
#include "tensorflow/c/experimental/next_pluggable_device/c_api.h"

namespace core = conformance::core;

namespace {

template <typename T>
T* Unimplemented(const char* function, TF_Status* status) {
  status->status = core::Unimplemented(function);
  return nullptr;
}

}  // namespace

extern "C" {

TF_Device* TF_GetDevice(TF_OpKernelContext*) {
  core::Fatal("TF_GetDevice", "the mock core runs no NextPluggableDevice, so no TF_Device exists");
}

void TF_CreatePluginResource(TF_OpKernelContext*, const char*, const char*, void*, void (*)(void*),
                             TF_Status* status) {
  status->status = core::Unimplemented("TF_CreatePluginResource");
}

void TF_LookupOrCreatePluginResource(TF_OpKernelContext*, const char*, const char*,
                                     void** result_plugin_resource, void* (*)(void*), void*,
                                     void (*)(void*), TF_Status* status) {
  if (result_plugin_resource != nullptr) *result_plugin_resource = nullptr;
  status->status = core::Unimplemented("TF_LookupOrCreatePluginResource");
}

TF_VariableInfo* TF_CreateVariableInfoFromContext(TF_OpKernelContext*, int, TF_Status* status) {
  return Unimplemented<TF_VariableInfo>("TF_CreateVariableInfoFromContext", status);
}

void TF_LockVariableInfos(TF_VariableInfo**, int, TF_Status* status) {
  status->status = core::Unimplemented("TF_LockVariableInfos");
}

void TF_AllocateTempForVariableInfo(TF_OpKernelContext*, TF_VariableInfo*, TF_Status* status) {
  status->status = core::Unimplemented("TF_AllocateTempForVariableInfo");
}

TF_Tensor* TF_GetTensorFromVariableInfo(TF_VariableInfo*, TF_Status* status) {
  return Unimplemented<TF_Tensor>("TF_GetTensorFromVariableInfo", status);
}

void TF_DeleteVariableInfo(TF_VariableInfo* var_info) {
  if (var_info == nullptr) return;
  core::Fatal("TF_DeleteVariableInfo",
              "this TF_VariableInfo was not created by the core (it never hands one out)");
}

// No coordination service is configured in a conformance run: TensorFlow then hands out NULL.
TF_CoordinationServiceAgent* TF_GetCoordinationServiceAgent(TF_OpKernelContext*) { return nullptr; }

bool TF_CoordinationServiceIsInitialized(TF_CoordinationServiceAgent* agent) {
  if (agent == nullptr) return false;
  core::Fatal("TF_CoordinationServiceIsInitialized",
              "this agent was not created by the core (it never hands one out)");
}

void TF_CoordinationServiceInsertKeyValue(const char*, const char*, TF_CoordinationServiceAgent*,
                                          TF_Status* status) {
  status->status = core::Unimplemented("TF_CoordinationServiceInsertKeyValue");
}

TF_Buffer* TF_CoordinationServiceGetKeyValue(const char*, TF_CoordinationServiceAgent*,
                                             TF_Status* status) {
  return Unimplemented<TF_Buffer>("TF_CoordinationServiceGetKeyValue", status);
}

void TF_CoordinationServiceDeleteKeyValue(const char*, TF_CoordinationServiceAgent*,
                                          TF_Status* status) {
  status->status = core::Unimplemented("TF_CoordinationServiceDeleteKeyValue");
}

void TF_CreateAndSetPjRtCApiClient(const char*, TF_Status* status, PJRT_NamedValue*, int) {
  status->status = core::Unimplemented("TF_CreateAndSetPjRtCApiClient");
}

PJRT_Client* TF_GetPjRtCClient(const char*, TF_Status* status) {
  return Unimplemented<PJRT_Client>("TF_GetPjRtCClient", status);
}

PJRT_Buffer* TF_GetPjRtCBuffer(TF_Tensor*, TF_Status* status) {
  return Unimplemented<PJRT_Buffer>("TF_GetPjRtCBuffer", status);
}

void TF_CreatePjRtBuffer(TF_Tensor*, PJRT_Buffer*, const char*, TF_Status* status) {
  status->status = core::Unimplemented("TF_CreatePjRtBuffer");
}

}  // extern "C"
