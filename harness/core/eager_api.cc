// The eager C API functions (tensorflow/c/eager/c_api.h) that plugins built on the C API import:
// DirectML's fill and pack kernels run TensorFlow's own CPU op through TFE_Execute for
// host-memory inputs. TensorFlow exports them (2.10: _pywrap_tensorflow_internal.so; 2.15 and
// later: libtensorflow_cc.so.2), so such a plugin loads in TensorFlow; here they exist so it
// loads, and calling them fails honestly: the mock core has no eager runtime. Each function with
// a status sets TF_UNIMPLEMENTED naming itself (recorded as a CallError) and returns NULL; the
// context options are a real (empty) object, since creating them cannot fail in TensorFlow.
// Contexts, ops and handles are never handed out, so the functions that take one without a
// status accept only NULL. Declared here, not in a clean-room header: the mock core hosts
// these few so that plugins load, not the eager API.
#include <cstdint>
#include <utility>

#include "core/status.h"
#include "core/unimplemented.h"
#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

extern "C" {
typedef struct TFE_ContextOptions TFE_ContextOptions;
typedef struct TFE_Context TFE_Context;
typedef struct TFE_Op TFE_Op;
typedef struct TFE_TensorHandle TFE_TensorHandle;

TF_CAPI_EXPORT TFE_ContextOptions* TFE_NewContextOptions(void);
TF_CAPI_EXPORT void TFE_DeleteContextOptions(TFE_ContextOptions* options);
TF_CAPI_EXPORT TFE_Context* TFE_NewContext(const TFE_ContextOptions* options, TF_Status* status);
TF_CAPI_EXPORT void TFE_DeleteContext(TFE_Context* context);
TF_CAPI_EXPORT TFE_Op* TFE_NewOp(TFE_Context* context, const char* op_or_function_name,
                                 TF_Status* status);
TF_CAPI_EXPORT void TFE_DeleteOp(TFE_Op* op);
TF_CAPI_EXPORT void TFE_OpSetDevice(TFE_Op* op, const char* device_name, TF_Status* status);
TF_CAPI_EXPORT void TFE_OpAddInput(TFE_Op* op, TFE_TensorHandle* input, TF_Status* status);
TF_CAPI_EXPORT void TFE_OpAddInputList(TFE_Op* op, TFE_TensorHandle** inputs, int num_inputs,
                                       TF_Status* status);
TF_CAPI_EXPORT void TFE_OpSetAttrInt(TFE_Op* op, const char* attr_name, int64_t value);
TF_CAPI_EXPORT void TFE_OpSetAttrType(TFE_Op* op, const char* attr_name, TF_DataType value);
TF_CAPI_EXPORT void TFE_Execute(TFE_Op* op, TFE_TensorHandle** retvals, int* num_retvals,
                                TF_Status* status);
TF_CAPI_EXPORT TFE_TensorHandle* TFE_NewTensorHandle(const TF_Tensor* tensor, TF_Status* status);
TF_CAPI_EXPORT void TFE_DeleteTensorHandle(TFE_TensorHandle* handle);
TF_CAPI_EXPORT TF_Tensor* TFE_TensorHandleResolve(TFE_TensorHandle* handle, TF_Status* status);
}

struct TFE_ContextOptions {};

namespace {

using conformance::core::Fatal;
using conformance::core::Unimplemented;

void Fail(const char* function, TF_Status* status) {
  auto result = Unimplemented(function);
  if (status != nullptr) status->status = std::move(result);
}

// No context, op or handle is ever handed out: anything else than NULL is not one of ours.
void RequireNull(const void* object, const char* function) {
  if (object != nullptr) Fatal(function, "not an object of the mock core (it creates none)");
}

}  // namespace

TFE_ContextOptions* TFE_NewContextOptions(void) { return new TFE_ContextOptions; }
void TFE_DeleteContextOptions(TFE_ContextOptions* options) { delete options; }

TFE_Context* TFE_NewContext(const TFE_ContextOptions* /*options*/, TF_Status* status) {
  Fail("TFE_NewContext", status);
  return nullptr;
}
void TFE_DeleteContext(TFE_Context* context) { RequireNull(context, "TFE_DeleteContext"); }

TFE_Op* TFE_NewOp(TFE_Context* /*context*/, const char* /*name*/, TF_Status* status) {
  Fail("TFE_NewOp", status);
  return nullptr;
}
void TFE_DeleteOp(TFE_Op* op) { RequireNull(op, "TFE_DeleteOp"); }
void TFE_OpSetDevice(TFE_Op* /*op*/, const char* /*device*/, TF_Status* status) {
  Fail("TFE_OpSetDevice", status);
}
void TFE_OpAddInput(TFE_Op* /*op*/, TFE_TensorHandle* /*input*/, TF_Status* status) {
  Fail("TFE_OpAddInput", status);
}
void TFE_OpAddInputList(TFE_Op* /*op*/, TFE_TensorHandle** /*inputs*/, int /*count*/,
                        TF_Status* status) {
  Fail("TFE_OpAddInputList", status);
}
void TFE_OpSetAttrInt(TFE_Op* op, const char* /*name*/, int64_t /*value*/) {
  RequireNull(op, "TFE_OpSetAttrInt");
}
void TFE_OpSetAttrType(TFE_Op* op, const char* /*name*/, TF_DataType /*value*/) {
  RequireNull(op, "TFE_OpSetAttrType");
}
void TFE_Execute(TFE_Op* /*op*/, TFE_TensorHandle** /*retvals*/, int* /*num_retvals*/,
                 TF_Status* status) {
  Fail("TFE_Execute", status);
}
TFE_TensorHandle* TFE_NewTensorHandle(const TF_Tensor* /*tensor*/, TF_Status* status) {
  Fail("TFE_NewTensorHandle", status);
  return nullptr;
}
void TFE_DeleteTensorHandle(TFE_TensorHandle* handle) {
  RequireNull(handle, "TFE_DeleteTensorHandle");
}
TF_Tensor* TFE_TensorHandleResolve(TFE_TensorHandle* /*handle*/, TF_Status* status) {
  Fail("TFE_TensorHandleResolve", status);
  return nullptr;
}
