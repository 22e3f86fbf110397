#pragma once
// Status: the plugin's own error value. Everything inside the plugin passes Status objects
// around; the C type TF_Status only appears at the boundary, where a callback hands its
// result back to TensorFlow (report_status / run_and_report).
#include <exception>
#include <new>
#include <sstream>
#include <string>
#include <utility>

#include "tensorflow/c/tf_status.h"

namespace reference_plugin {

class Status {
 public:
  Status() = default;  // OK
  Status(TF_Code code, std::string message) : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == TF_OK; }
  TF_Code code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  TF_Code code_ = TF_OK;
  std::string message_;
};

// Builds a message from any streamable pieces: str_cat("copy of ", n, " bytes").
template <typename... Pieces>
std::string str_cat(const Pieces&... pieces) {
  std::ostringstream out;
  (out << ... << pieces);
  return out.str();
}

template <typename... Pieces>
Status invalid_argument(const Pieces&... pieces) {
  return Status(TF_INVALID_ARGUMENT, str_cat(pieces...));
}
template <typename... Pieces>
Status out_of_range(const Pieces&... pieces) {
  return Status(TF_OUT_OF_RANGE, str_cat(pieces...));
}
template <typename... Pieces>
Status failed_precondition(const Pieces&... pieces) {
  return Status(TF_FAILED_PRECONDITION, str_cat(pieces...));
}
template <typename... Pieces>
Status resource_exhausted(const Pieces&... pieces) {
  return Status(TF_RESOURCE_EXHAUSTED, str_cat(pieces...));
}
template <typename... Pieces>
Status unimplemented(const Pieces&... pieces) {
  return Status(TF_UNIMPLEMENTED, str_cat(pieces...));
}
template <typename... Pieces>
Status internal_error(const Pieces&... pieces) {
  return Status(TF_INTERNAL, str_cat(pieces...));
}

// Writes `status` into TensorFlow's TF_Status. Always writes, also on success: the caller
// may hand over a status that still holds an earlier error (the conformance harness does
// exactly that on purpose), and TF_OK must overwrite it.
void report_status(TF_Status* out, const Status& status);

// Copies a TF_Status that TensorFlow code filled (e.g. a host callback's result).
Status status_from_tf(const TF_Status* status);

// Runs the body of a C callback and reports its Status. C++ exceptions must never cross the
// C boundary into TensorFlow, so they are turned into statuses here.
template <typename Body>
void run_and_report(TF_Status* out, Body&& body) {
  try {
    report_status(out, body());
  } catch (const std::bad_alloc&) {
    report_status(out, resource_exhausted("reference plugin: out of host memory"));
  } catch (const std::exception& e) {
    report_status(out, internal_error("reference plugin: ", e.what()));
  }
}

}  // namespace reference_plugin

// Returns from the enclosing Status-returning function when `expr` is an error.
#define REFERENCE_RETURN_IF_ERROR(expr)                   \
  do {                                                    \
    ::reference_plugin::Status status_or_error_ = (expr); \
    if (!status_or_error_.ok()) return status_or_error_;  \
  } while (false)
