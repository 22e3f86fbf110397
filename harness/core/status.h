#pragma once
// Status values: what TF_Status holds, and what the typed C++ side of the core passes
// around instead of bare codes.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/export.h"
#include "tensorflow/c/tf_status.h"

namespace conformance::core {

struct Status {
  TF_Code code = TF_OK;
  std::string message;
  // Key/value payloads in insertion order, keys unique (TF_SetPayload replaces).
  std::vector<std::pair<std::string, std::string>> payloads;

  // An OK status never carries a message or payloads (TensorFlow's absl::Status
  // drops both), so Error(TF_OK, "x") is just OK.
  static Status Ok() { return {}; }
  static Status Error(TF_Code code, std::string message) {
    if (code == TF_OK) return {};
    return Status{code, std::move(message), {}};
  }

  bool ok() const { return code == TF_OK; }

  // TensorFlow's Status::Update, used for kernel failures: the first error wins and an
  // OK status never overwrites anything.
  void Update(const Status& other) {
    if (ok() && !other.ok()) *this = other;
  }

  void SetPayload(std::string_view key, std::string_view value);

  // Spelled out (not "= default"): plugin unit tests include this header as C++17.
  friend bool operator==(const Status& a, const Status& b) {
    return a.code == b.code && a.message == b.message && a.payloads == b.payloads;
  }
  friend bool operator!=(const Status& a, const Status& b) { return !(a == b); }
};

// "INVALID_ARGUMENT", "OK", ...: for messages and test output.
CONFORMANCE_CORE_API std::string_view CodeName(TF_Code code);
// "INVALID_ARGUMENT: message" or "OK".
CONFORMANCE_CORE_API std::string ToString(const Status& status);

}  // namespace conformance::core

// The object behind the opaque TF_Status handle of tf_status.h.
struct TF_Status {
  conformance::core::Status status;
};

namespace conformance::core {
// Copies into / out of a C handle (code, message and payloads).
inline void SetCStatus(TF_Status* out, const Status& status) { out->status = status; }
inline Status FromCStatus(const TF_Status* status) { return status->status; }
}  // namespace conformance::core
