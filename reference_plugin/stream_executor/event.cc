#include "stream_executor/event.h"

#include <utility>

namespace reference_plugin {

Status Event::record_on(Stream& stream) {
  std::shared_ptr<Fence> record;
  REFERENCE_RETURN_IF_ERROR(stream.enqueue_fence(&record));
  std::lock_guard lock(mutex_);
  latest_record_ = std::move(record);
  return Status();
}

SE_EventStatus Event::status() const {
  const std::shared_ptr<Fence> record = latest_record();
  if (record == nullptr) return SE_EVENT_UNKNOWN;
  const std::optional<Status> reached = record->poll();
  if (!reached.has_value()) return SE_EVENT_PENDING;
  return reached->ok() ? SE_EVENT_COMPLETE : SE_EVENT_ERROR;
}

std::shared_ptr<Fence> Event::latest_record() const {
  std::lock_guard lock(mutex_);
  return latest_record_;
}

}  // namespace reference_plugin
