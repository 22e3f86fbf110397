// Timer callbacks (SP_StreamExecutor) and the timer function table (SP_TimerFns).
#include <memory>

#include "stream_executor/device.h"
#include "stream_executor/diagnostics.h"
#include "stream_executor/stream_executor_table.h"
#include "stream_executor/timer_fns.h"

namespace reference_plugin {
namespace {

void create_timer(const SP_Device* sp_device, SP_Timer* timer, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    if (timer == nullptr) return invalid_argument("create_timer: SP_Timer* is NULL");
    *timer = nullptr;
    Device* device = nullptr;
    REFERENCE_RETURN_IF_ERROR(Device::from(sp_device, &device));
    *timer = device->timers().add(std::make_shared<SP_Timer_st>());
    return Status();
  });
}

void destroy_timer(const SP_Device* sp_device, SP_Timer timer) {
  Device* device = nullptr;
  if (timer == nullptr || !Device::from(sp_device, &device).ok()) return;
  // Timestamps still queued hold their own reference, so this is safe at any time.
  if (device->timers().remove(timer) == nullptr) {
    warn(str_cat("destroy_timer: ", static_cast<const void*>(timer),
                 " is not a live timer of device ", device->ordinal()));
  }
}

// start_timer and stop_timer only queue the timestamp: it is taken when the stream gets
// there, so the timer measures the stream's work, not the host's enqueueing.
Status enqueue_timestamp(const SP_Device* sp_device, SP_Stream stream, SP_Timer timer,
                         void (Timer::*mark)()) {
  Device* device = nullptr;
  REFERENCE_RETURN_IF_ERROR(Device::from(sp_device, &device));
  std::shared_ptr<SP_Stream_st> on_stream;
  std::shared_ptr<SP_Timer_st> found;
  REFERENCE_RETURN_IF_ERROR(device->find_stream(stream, &on_stream));
  REFERENCE_RETURN_IF_ERROR(device->find_timer(timer, &found));
  return on_stream->enqueue_step([found, mark] { ((*found).*mark)(); });
}

void start_timer(const SP_Device* sp_device, SP_Stream stream, SP_Timer timer, TF_Status* status) {
  run_and_report(status,
                 [&] { return enqueue_timestamp(sp_device, stream, timer, &Timer::mark_start); });
}

void stop_timer(const SP_Device* sp_device, SP_Stream stream, SP_Timer timer, TF_Status* status) {
  run_and_report(status,
                 [&] { return enqueue_timestamp(sp_device, stream, timer, &Timer::mark_stop); });
}

uint64_t nanoseconds(SP_Timer timer) {
  // No device argument, so the handle cannot be checked against a registry.
  return timer == nullptr ? 0 : timer->elapsed_nanoseconds();
}

}  // namespace

void install_timer_callbacks(SP_StreamExecutor& table) {
  table.create_timer = create_timer;
  table.destroy_timer = destroy_timer;
  table.start_timer = start_timer;
  table.stop_timer = stop_timer;
}

Status fill_timer_fns(SP_TimerFns* timer_fns) {
  if (timer_fns == nullptr) return invalid_argument("create_timer_fns: SP_TimerFns* is NULL");
  *timer_fns = SP_TimerFns{};
  timer_fns->struct_size = SP_TIMER_FNS_STRUCT_SIZE;
  timer_fns->nanoseconds = nanoseconds;
  return Status();
}

}  // namespace reference_plugin
