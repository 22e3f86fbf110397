// Stream callbacks: creating and destroying streams, ordering between streams, and the host
// waiting for streams. The queueing itself lives in Stream / StreamWorker.
#include <memory>
#include <vector>

#include "stream_executor/device_directory.h"
#include "stream_executor/device.h"
#include "stream_executor/stream_executor_table.h"

namespace reference_plugin {
namespace {

void create_stream(const SP_Device* sp_device, SP_Stream* stream, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    if (stream == nullptr) return invalid_argument("create_stream: SP_Stream* is NULL");
    *stream = nullptr;
    Device* device = nullptr;
    REFERENCE_RETURN_IF_ERROR(Device::from(sp_device, &device));
    *stream = device->streams().add(std::make_shared<SP_Stream_st>(device->next_stream_name()));
    return Status();
  });
}

void destroy_stream(const SP_Device* sp_device, SP_Stream stream) {
  Device* device = nullptr;
  if (stream == nullptr || !Device::from(sp_device, &device).ok()) return;
  std::shared_ptr<SP_Stream_st> owned = device->streams().remove(stream);
  // Drain before returning: everything queued still runs (host callbacks included), and the
  // worker thread is joined, so nothing touches the stream afterwards.
  if (owned != nullptr) owned->shut_down();
}

void create_stream_dependency(const SP_Device* sp_device, SP_Stream dependent, SP_Stream other,
                              TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    Device* device = nullptr;
    REFERENCE_RETURN_IF_ERROR(Device::from(sp_device, &device));
    std::shared_ptr<SP_Stream_st> waiting, waited_for;
    REFERENCE_RETURN_IF_ERROR(device->find_stream(dependent, &waiting));
    // `other` may be a stream of another device of this plugin: TensorFlow makes a copy between
    // two devices, queued on the source's stream, wait for the destination's compute stream.
    REFERENCE_RETURN_IF_ERROR(device_directory::find_stream(other, &waited_for));
    if (waiting == waited_for) return Status();  // a stream is always ordered with itself
    // "Everything queued on `other` so far" is a fence at the current end of its queue.
    std::shared_ptr<Fence> other_so_far;
    REFERENCE_RETURN_IF_ERROR(waited_for->enqueue_fence(&other_so_far));
    return waiting->enqueue_wait_for(std::move(other_so_far));
  });
}

void get_stream_status(const SP_Device* sp_device, SP_Stream stream, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    Device* device = nullptr;
    REFERENCE_RETURN_IF_ERROR(Device::from(sp_device, &device));
    std::shared_ptr<SP_Stream_st> found;
    REFERENCE_RETURN_IF_ERROR(device->find_stream(stream, &found));
    return found->status();
  });
}

void block_host_until_done(const SP_Device* sp_device, SP_Stream stream, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    Device* device = nullptr;
    REFERENCE_RETURN_IF_ERROR(Device::from(sp_device, &device));
    std::shared_ptr<SP_Stream_st> found;
    REFERENCE_RETURN_IF_ERROR(device->find_stream(stream, &found));
    return found->block_until_done();
  });
}

void synchronize_all_activity(const SP_Device* sp_device, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    Device* device = nullptr;
    REFERENCE_RETURN_IF_ERROR(Device::from(sp_device, &device));
    // Queue a fence on every stream first and only then wait, so the streams drain in
    // parallel. A stream destroyed meanwhile has drained already and is simply skipped.
    std::vector<std::pair<std::shared_ptr<SP_Stream_st>, std::shared_ptr<Fence>>> pending;
    for (auto& stream : device->streams().snapshot()) {
      std::shared_ptr<Fence> fence;
      if (stream->enqueue_fence(&fence).ok()) pending.emplace_back(std::move(stream), fence);
    }
    // Like a real device, report a failed stream: the activity did not all succeed.
    Status first_error;
    for (const auto& [stream, fence] : pending) {
      Status reached = fence->wait();
      if (!reached.ok() && first_error.ok()) {
        first_error = Status(reached.code(), str_cat("stream '", stream->name(),
                                                     "' has failed: ", reached.message()));
      }
    }
    return first_error;
  });
}

}  // namespace

void install_stream_callbacks(SP_StreamExecutor& table) {
  table.create_stream = create_stream;
  table.destroy_stream = destroy_stream;
  table.create_stream_dependency = create_stream_dependency;
  table.get_stream_status = get_stream_status;
  table.block_host_until_done = block_host_until_done;
  table.synchronize_all_activity = synchronize_all_activity;
}

}  // namespace reference_plugin
