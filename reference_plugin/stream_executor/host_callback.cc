// host_callback: run a host function when the stream reaches this point.
//
// TensorFlow's callback frees its own context when it runs, so it must run exactly once:
// it is queued as a step, which runs even on a failed stream (it then still reports
// whatever it returns). It runs on the stream's worker thread, so it must not block on this
// device's streams (e.g. call block_host_until_done): the worker would wait for itself.
// A non-OK status written by the callback fails the stream: get_stream_status returns it,
// later operations on the stream are skipped, and later events end in SE_EVENT_ERROR.
#include <memory>

#include "stream_executor/device.h"
#include "stream_executor/diagnostics.h"
#include "stream_executor/stream_executor_table.h"

namespace reference_plugin {
namespace {

void run_host_callback(Stream& stream, SE_StatusCallbackFn callback_fn, void* callback_arg) {
  TF_Status* result = TF_NewStatus();
  if (result == nullptr) {
    // Cannot happen with a working core; fail loudly rather than skip the callback silently.
    stream.fail(internal_error("host_callback: TF_NewStatus returned NULL"));
    return;
  }
  callback_fn(callback_arg, result);
  Status callback_status = status_from_tf(result);
  TF_DeleteStatus(result);
  if (!callback_status.ok()) stream.fail(callback_status);
}

TF_Bool host_callback(const SP_Device* sp_device, SP_Stream stream, SE_StatusCallbackFn callback_fn,
                      void* callback_arg) {
  Device* device = nullptr;
  std::shared_ptr<SP_Stream_st> on_stream;
  Status found = Device::from(sp_device, &device);
  if (found.ok()) found = device->find_stream(stream, &on_stream);
  if (!found.ok() || callback_fn == nullptr) {
    warn(str_cat("host_callback not queued: ",
                 found.ok() ? std::string("callback_fn is NULL") : found.message()));
    return false;
  }
  // Capture the raw Stream: a stream's worker never outlives the stream.
  Stream* raw_stream = on_stream.get();
  Status queued = on_stream->enqueue_step([raw_stream, callback_fn, callback_arg] {
    run_host_callback(*raw_stream, callback_fn, callback_arg);
  });
  return queued.ok();
}

}  // namespace

void install_host_callback(SP_StreamExecutor& table) { table.host_callback = host_callback; }

}  // namespace reference_plugin
