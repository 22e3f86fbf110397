// Event callbacks. The state machine itself is described in event.h.
#include <memory>

#include "stream_executor/device.h"
#include "stream_executor/diagnostics.h"
#include "stream_executor/stream_executor_table.h"

namespace reference_plugin {
namespace {

void create_event(const SP_Device* sp_device, SP_Event* event, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    if (event == nullptr) return invalid_argument("create_event: SP_Event* is NULL");
    *event = nullptr;
    Device* device = nullptr;
    REFERENCE_RETURN_IF_ERROR(Device::from(sp_device, &device));
    *event = device->events().add(std::make_shared<SP_Event_st>());
    return Status();
  });
}

void destroy_event(const SP_Device* sp_device, SP_Event event) {
  Device* device = nullptr;
  if (event == nullptr || !Device::from(sp_device, &device).ok()) return;
  // A record still in flight keeps only its Fence alive, so destroying right after
  // record_event is fine: the stream signals a fence nobody looks at any more.
  if (device->events().remove(event) == nullptr) {
    warn(str_cat("destroy_event: ", static_cast<const void*>(event),
                 " is not a live event of device ", device->ordinal()));
  }
}

SE_EventStatus get_event_status(const SP_Device* sp_device, SP_Event event) {
  Device* device = nullptr;
  std::shared_ptr<SP_Event_st> found;
  Status lookup = Device::from(sp_device, &device);
  if (lookup.ok()) lookup = device->find_event(event, &found);
  if (!lookup.ok()) {
    // No status argument here; a stale handle is an error condition, so say ERROR.
    warn(str_cat("get_event_status: ", lookup.message()));
    return SE_EVENT_ERROR;
  }
  return found->status();
}

void record_event(const SP_Device* sp_device, SP_Stream stream, SP_Event event, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    Device* device = nullptr;
    REFERENCE_RETURN_IF_ERROR(Device::from(sp_device, &device));
    std::shared_ptr<SP_Stream_st> on_stream;
    std::shared_ptr<SP_Event_st> found;
    REFERENCE_RETURN_IF_ERROR(device->find_stream(stream, &on_stream));
    REFERENCE_RETURN_IF_ERROR(device->find_event(event, &found));
    return found->record_on(*on_stream);
  });
}

void wait_for_event(const SP_Device* const sp_device, SP_Stream stream, SP_Event event,
                    TF_Status* const status) {
  run_and_report(status, [&]() -> Status {
    Device* device = nullptr;
    REFERENCE_RETURN_IF_ERROR(Device::from(sp_device, &device));
    std::shared_ptr<SP_Stream_st> waiting;
    std::shared_ptr<SP_Event_st> found;
    REFERENCE_RETURN_IF_ERROR(device->find_stream(stream, &waiting));
    REFERENCE_RETURN_IF_ERROR(device->find_event(event, &found));
    // Waits for the record that is newest *now*; a later re-record does not move the target.
    // An event that was never recorded has nothing to wait for.
    std::shared_ptr<Fence> record = found->latest_record();
    if (record == nullptr) return Status();
    return waiting->enqueue_wait_for(std::move(record));
  });
}

void block_host_for_event(const SP_Device* sp_device, SP_Event event, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    Device* device = nullptr;
    REFERENCE_RETURN_IF_ERROR(Device::from(sp_device, &device));
    std::shared_ptr<SP_Event_st> found;
    REFERENCE_RETURN_IF_ERROR(device->find_event(event, &found));
    std::shared_ptr<Fence> record = found->latest_record();
    if (record == nullptr) return Status();
    // An event that ends in ERROR returns the error of the stream it was recorded on.
    return record->wait();
  });
}

}  // namespace

void install_event_callbacks(SP_StreamExecutor& table) {
  table.create_event = create_event;
  table.destroy_event = destroy_event;
  table.get_event_status = get_event_status;
  table.record_event = record_event;
  table.wait_for_event = wait_for_event;
  table.block_host_for_event = block_host_for_event;
}

}  // namespace reference_plugin
