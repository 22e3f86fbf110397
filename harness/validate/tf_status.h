#pragma once
// RAII over the core's TF_Status, and the plugin status as a plain value.
#include <string>

#include "tensorflow/c/tf_status.h"

namespace conformance::validate {

class OwnedStatus {
 public:
  OwnedStatus() : status_(TF_NewStatus()) {}
  ~OwnedStatus() { TF_DeleteStatus(status_); }
  OwnedStatus(const OwnedStatus&) = delete;
  OwnedStatus& operator=(const OwnedStatus&) = delete;

  TF_Status* get() const { return status_; }
  bool ok() const { return TF_GetCode(status_) == TF_OK; }
  int code() const { return static_cast<int>(TF_GetCode(status_)); }
  std::string message() const { return TF_Message(status_); }
  void Reset() { TF_SetStatus(status_, TF_OK, ""); }

 private:
  TF_Status* status_;
};

}  // namespace conformance::validate
