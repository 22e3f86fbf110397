#pragma once
// A TF_Status of the installed TensorFlow that deletes itself, and its JSON forms: the driver's
// steps, kernel cases and model graphs all report TensorFlow's code and message this way.
#include <string>

#include <nlohmann/json.hpp>

#include "installed_tensorflow/tensorflow_c_api.h"

namespace tensorflow_driver {

class OwnedStatus {
 public:
  explicit OwnedStatus(const TensorFlowCApi& api) : api_(api), status_(api.new_status()) {}
  ~OwnedStatus() { api_.delete_status(status_); }
  OwnedStatus(const OwnedStatus&) = delete;
  OwnedStatus& operator=(const OwnedStatus&) = delete;

  TfStatus* get() const { return status_; }
  bool ok() const { return api_.get_code(status_) == 0; }
  // {code, message}
  nlohmann::json ToJson() const {
    return {{"code", api_.get_code(status_)}, {"message", api_.message(status_)}};
  }
  // {call, code, message}: which C API call failed, and how.
  nlohmann::json Error(const std::string& call) const {
    nlohmann::json error = ToJson();
    error["call"] = call;
    return error;
  }

 private:
  const TensorFlowCApi& api_;
  TfStatus* status_;
};

}  // namespace tensorflow_driver
