// TEST-ONLY SHIM, NOT SHIPPED: a minimal TF_Status for building the reference plugin's tests
// when the mock TensorFlow core (target tf_core) is not part of the build. It implements just
// the status functions the plugin and the tests call. The real implementation is in
// harness/core.
#include <string>

#include "tensorflow/c/tf_status.h"

struct TF_Status {
  TF_Code code = TF_OK;
  std::string message;
};

extern "C" {

TF_CAPI_EXPORT TF_Status* TF_NewStatus(void) { return new TF_Status; }
TF_CAPI_EXPORT void TF_DeleteStatus(TF_Status* status) { delete status; }

TF_CAPI_EXPORT void TF_SetStatus(TF_Status* status, TF_Code code, const char* message) {
  status->code = code;
  status->message = (code == TF_OK || message == nullptr) ? "" : message;
}

TF_CAPI_EXPORT TF_Code TF_GetCode(const TF_Status* status) { return status->code; }
TF_CAPI_EXPORT const char* TF_Message(const TF_Status* status) { return status->message.c_str(); }

}  // extern "C"
