#pragma once
// What a call into the plugin's StreamExecutor produced, as a value: either OK or an Error
// that names the callback, the TF_Code and the message precisely. Both the C++ runtime checks
// and the scenario engine turn these into check results, so the wording lives here once.
#include <string>
#include <utility>
#include <variant>

#include "tensorflow/c/tf_status.h"

namespace conformance::runtime {

enum class ErrorKind {
  kPluginStatus,        // the plugin set a non-OK TF_Status (code and message are the plugin's)
  kReturnedFalse,       // a TF_Bool callback returned false (host_callback, stats, memory usage)
  kOutParamNotWritten,  // the call reported success but left an out-param at its poison value
  kAllocationFailed,  // allocate left opaque NULL (TensorFlow's failure signal) or host alloc NULL
  kMissingCallback,   // the callback pointer is NULL, so TensorFlow would crash calling it
  kUnsupported,       // the session cannot drive this plugin (header generation, no devices)
  kLoad,              // the library cannot be opened or SE_InitPlugin/registration failed
  kUsage,             // the harness asked for something invalid (a range outside a buffer)
};

const char* ErrorKindName(ErrorKind kind);

struct Error {
  ErrorKind kind = ErrorKind::kPluginStatus;
  std::string callback;       // "SP_StreamExecutor.memcpy_htod", "SE_InitPlugin", ...
  TF_Code code = TF_UNKNOWN;  // the plugin's code for kPluginStatus; TF_INTERNAL etc. otherwise
  std::string message;

  // "SP_StreamExecutor.memcpy_htod: INVALID_ARGUMENT: <message>" — the form to print.
  std::string Describe() const;
};

// OK or an Error. [[nodiscard]]: ignoring what the plugin said is how bugs hide.
class [[nodiscard]] CallStatus {
 public:
  CallStatus() = default;                                            // OK
  CallStatus(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT: implicit on purpose
  static CallStatus Ok() { return {}; }

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }  // meaningful only when !ok()
  std::string Describe() const { return ok_ ? "OK" : error_.Describe(); }

 private:
  Error error_;
  bool ok_ = true;
};

// A value or an Error (std::expected is C++23; this is the subset we need).
template <typename T>
class [[nodiscard]] CallResult {
 public:
  CallResult(T value) : state_(std::in_place_index<0>, std::move(value)) {}      // NOLINT
  CallResult(Error error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  const Error& error() const { return std::get<1>(state_); }
  CallStatus status() const { return ok() ? CallStatus::Ok() : CallStatus(error()); }

  T& operator*() & { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Error> state_;
};

}  // namespace conformance::runtime
