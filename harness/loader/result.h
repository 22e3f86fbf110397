#pragma once
// Error and result types for everything under loader/. A plugin that cannot be inspected or
// loaded is a finding to report, not an exceptional condition, so failures travel as values:
// every error names the file it is about and says why in words a vendor can act on.
#include <string>
#include <utility>
#include <variant>

namespace conformance::loader {

// What went wrong, coarsely, so callers can map an error to a check id without parsing text.
enum class LoaderErrorKind {
  kNoSuchFile,
  kIsDirectory,
  kPermissionDenied,
  kReadFailed,  // other I/O errors
  kNotElf,
  kMalformedElf,  // starts like ELF but libelf cannot make sense of it
  kWrongClass,    // 32-bit vs 64-bit
  kWrongByteOrder,
  kWrongMachine,
  kNotSharedObject,  // ET_EXEC, PIE, ET_REL, ET_CORE
  kDlopenFailed,
  kDlcloseFailed,
};

struct LoaderError {
  LoaderErrorKind kind = LoaderErrorKind::kReadFailed;
  std::string path;     // the file the error is about
  std::string message;  // the reason, without the path

  // "<path>: <message>" — the form to print.
  std::string Describe() const { return path + ": " + message; }
};

// Either a value or a LoaderError (std::expected is C++23; this is the small subset we need).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value)
      : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit on purpose
  Result(LoaderError error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // Accessing the wrong alternative throws std::bad_variant_access: a programming error.
  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  const LoaderError& error() const { return std::get<1>(state_); }

  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, LoaderError> state_;
};

// Result of an operation that produces nothing but may fail.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(LoaderError error) : error_(std::move(error)), failed_(true) {}  // NOLINT

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const LoaderError& error() const { return error_; }

 private:
  LoaderError error_;
  bool failed_ = false;
};

}  // namespace conformance::loader
