#include "runtime/plugin_call.h"

#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "runtime/device_session.h"
#include "runtime/sentinels.h"
#include "runtime/tensorflow_calls.h"

namespace conformance::runtime {

OwnedTfStatus::OwnedTfStatus() : status_(TF_NewStatus()) {}
OwnedTfStatus::~OwnedTfStatus() { TF_DeleteStatus(status_); }

void OwnedTfStatus::Poison(std::string_view callback) {
  TF_SetStatus(status_, kPoisonStatusCode, PoisonStatusMessage(callback).c_str());
}

void OwnedTfStatus::Reset() { TF_SetStatus(status_, TF_OK, ""); }

bool OwnedTfStatus::IsPoisoned(std::string_view callback) const {
  return TF_GetCode(status_) == kPoisonStatusCode &&
         TF_Message(status_) == PoisonStatusMessage(callback);
}

TF_Code OwnedTfStatus::code() const { return TF_GetCode(status_); }
std::string OwnedTfStatus::message() const { return TF_Message(status_); }

namespace {

// The calls in flight through this layer, oldest first, and the one in_flight::PluginCall
// that currently publishes the newest of them.
struct Markers {
  std::mutex mutex;
  std::uint64_t next_id = 0;
  std::vector<std::pair<std::uint64_t, std::string>> active;
  std::optional<in_flight::PluginCall> published;

  void Publish() {
    published.reset();  // restores what was there before any call of this layer
    if (!active.empty()) published.emplace(active.back().second);
  }
};

Markers& TheMarkers() {
  static Markers* markers = new Markers();  // never destroyed: calls may end during exit
  return *markers;
}

}  // namespace

InFlightMarker::InFlightMarker(std::string_view callee) {
  Markers& markers = TheMarkers();
  std::lock_guard lock(markers.mutex);
  id_ = ++markers.next_id;
  markers.active.emplace_back(id_, std::string(callee));
  markers.Publish();
}

InFlightMarker::~InFlightMarker() {
  Markers& markers = TheMarkers();
  std::lock_guard lock(markers.mutex);
  for (auto it = markers.active.begin(); it != markers.active.end(); ++it) {
    if (it->first == id_) {
      markers.active.erase(it);
      break;
    }
  }
  markers.Publish();
}

OffPathMarker::OffPathMarker(std::string_view callback) {
  constexpr std::string_view kTable = "SP_StreamExecutor.";
  if (!callback.starts_with(kTable)) return;
  const std::string_view field = callback.substr(kTable.size());
  if (!TensorFlowMakes(field)) {
    note_.emplace(NeverCalledByTensorFlow(field));
  } else if (!PrerequisitesMayUse(field)) {
    note_.emplace(OutsideRecordedWorkload(field));
  }
}

std::string StreamExecutorCallback(std::string_view field) {
  return "SP_StreamExecutor." + std::string(field);
}

StatusCall::StatusCall(DeviceSession& session, std::string callback)
    : session_(session), callback_(std::move(callback)) {}

void StatusCall::Prepare() {
  session_.accounting().plugin_calls.fetch_add(1, std::memory_order_relaxed);
  if (session_.options().poison_statuses) {
    status_.Poison(callback_);
  } else {
    status_.Reset();
  }
}

CallStatus StatusCall::Finish() {
  if (session_.options().poison_statuses && status_.IsPoisoned(callback_)) {
    // TensorFlow hands plugins an OK status, so leaving it alone means success there.
    session_.findings().Record(FindingKind::kStatusNotWritten, callback_,
                               callback_ + " returned without writing its TF_Status");
    return CallStatus::Ok();
  }
  if (status_.code() == TF_OK) return CallStatus::Ok();
  return Error{ErrorKind::kPluginStatus, callback_, status_.code(), status_.message()};
}

PlainCall::PlainCall(DeviceSession& session, std::string callback)
    : session_(session), callback_(std::move(callback)) {}

void PlainCall::Count() {
  session_.accounting().plugin_calls.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace conformance::runtime
