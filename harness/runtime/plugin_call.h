#pragma once
// The one way the runtime layer calls the plugin: mark the callback in flight (a crash names
// it), hand it a freshly poisoned TF_Status, and afterwards read the status the way TensorFlow
// would (OK when untouched, with a kStatusNotWritten finding) and count the call.
// Scenario code that needs a call the wrappers do not offer uses this too.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "isolate/in_flight.h"
#include "runtime/call_error.h"
#include "runtime/findings.h"
#include "tensorflow/c/tf_status.h"

namespace conformance::runtime {

class DeviceSession;

// A TF_Status owned by the harness. Poison(callback) sets it to the sentinel for `callback`;
// Reset() makes it OK (what TensorFlow hands plugins).
class OwnedTfStatus {
 public:
  OwnedTfStatus();
  ~OwnedTfStatus();
  OwnedTfStatus(const OwnedTfStatus&) = delete;
  OwnedTfStatus& operator=(const OwnedTfStatus&) = delete;

  TF_Status* get() const { return status_; }
  void Poison(std::string_view callback);
  void Reset();
  // True when the status still holds exactly the poison set for `callback`.
  bool IsPoisoned(std::string_view callback) const;
  TF_Code code() const;
  std::string message() const;

 private:
  TF_Status* status_;
};

// in_flight::PluginCall for calls that may come from several harness threads at once (the
// stress tier, scenarios with threads). in_flight's shared buffer has a single writer by
// design, so every marker of this layer is serialized through one lock, and the marker shows
// the newest call still in flight on any thread (when all have returned, what was there
// before). One call at a time, it is exactly in_flight::PluginCall.
class InFlightMarker {
 public:
  explicit InFlightMarker(std::string_view callee);
  ~InFlightMarker();
  InFlightMarker(const InFlightMarker&) = delete;
  InFlightMarker& operator=(const InFlightMarker&) = delete;

 private:
  std::uint64_t id_;
};

// Around a call of an SP_StreamExecutor callback TensorFlow never makes
// (runtime/tensorflow_calls.h): a crash or timeout inside it says so (in_flight.h). Nothing
// around every other call.
class OffPathMarker {
 public:
  explicit OffPathMarker(std::string_view callback);
  OffPathMarker(const OffPathMarker&) = delete;
  OffPathMarker& operator=(const OffPathMarker&) = delete;

 private:
  std::optional<in_flight::OffTensorFlowPath> note_;
};

// "SP_StreamExecutor." + field: the name used for in-flight marking, findings and errors.
std::string StreamExecutorCallback(std::string_view field);

// Runs `call(TF_Status*)` inside an in_flight::PluginCall named `callback` with a status
// poisoned (or OK, if the session does not poison statuses). Returns OK, or the plugin's
// error as kPluginStatus. An untouched status is OK plus a kStatusNotWritten finding.
class StatusCall {
 public:
  StatusCall(DeviceSession& session, std::string callback);

  template <typename Fn>
  CallStatus Run(Fn&& call) {
    Prepare();
    {
      const OffPathMarker off_path(callback_);
      InFlightMarker marker(callback_);
      std::forward<Fn>(call)(status_.get());
    }
    return Finish();
  }

  const std::string& callback() const { return callback_; }

 private:
  void Prepare();
  CallStatus Finish();

  DeviceSession& session_;
  std::string callback_;
  OwnedTfStatus status_;
};

// For callbacks without a status (allocate, get_event_status, ...): in-flight marking and
// call counting only.
class PlainCall {
 public:
  PlainCall(DeviceSession& session, std::string callback);
  template <typename Fn>
  decltype(auto) Run(Fn&& call) {
    Count();
    const OffPathMarker off_path(callback_);
    InFlightMarker marker(callback_);
    return std::forward<Fn>(call)();
  }
  const std::string& callback() const { return callback_; }

 private:
  void Count();
  DeviceSession& session_;
  std::string callback_;
};

}  // namespace conformance::runtime
