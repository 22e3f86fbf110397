#pragma once
// Event: a marker recorded into a stream; the host polls it or waits for it, and other
// streams can wait for it.
//
// State machine (what get_event_status reports):
//   UNKNOWN   created, never recorded
//   PENDING   recorded; the stream has not reached the record yet
//   COMPLETE  the stream reached the record and was healthy
//   ERROR     the stream reached the record but had failed before it
// Recording again starts over from PENDING and the event then tracks the newest record only,
// so an older record that completes late cannot make the event look COMPLETE too early.
// Each record is a Fence; the event just remembers the latest one.
#include <memory>
#include <mutex>

#include "stream_executor/fence.h"
#include "stream_executor/status.h"
#include "stream_executor/stream.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace reference_plugin {

class Event {
 public:
  Status record_on(Stream& stream);
  SE_EventStatus status() const;
  // The newest record, or nullptr if the event was never recorded.
  std::shared_ptr<Fence> latest_record() const;

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<Fence> latest_record_;
};

}  // namespace reference_plugin

// The opaque handle type of the C API (SP_Event is SP_Event_st*) is our Event.
struct SP_Event_st final : reference_plugin::Event {};
