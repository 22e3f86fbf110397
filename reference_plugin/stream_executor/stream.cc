#include "stream_executor/stream.h"

#include <utility>

namespace reference_plugin {

Stream::Stream(std::string name) : name_(name), worker_(std::move(name)) {}

Stream::~Stream() { shut_down(); }

Status Stream::enqueue_operation(std::function<Status()> operation) {
  return enqueue_step([this, operation = std::move(operation)] {
    if (!status().ok()) return;  // a failed stream skips device work
    Status result = operation();
    if (!result.ok()) fail(result);
  });
}

Status Stream::enqueue_step(std::function<void()> step) {
  if (!worker_.enqueue(std::move(step))) {
    return failed_precondition("stream '", name_, "' is being destroyed; no new work accepted");
  }
  return Status();
}

Status Stream::enqueue_fence(std::shared_ptr<Fence>* fence) {
  auto new_fence = std::make_shared<Fence>();
  const std::function<void()> signal = [this, new_fence] { new_fence->signal(status()); };
  // On an idle stream everything queued before has run: the fence is reached now. Signalling
  // it here makes an event recorded on an idle stream complete (and block_host_until_done of
  // an idle stream return) without waking the worker thread.
  if (!worker_.run_now_if_idle(signal)) REFERENCE_RETURN_IF_ERROR(enqueue_step(signal));
  *fence = std::move(new_fence);
  return Status();
}

Status Stream::run_when_reached(std::function<void()> step) {
  if (worker_.run_now_if_idle(step)) return Status();
  return enqueue_step(std::move(step));
}

Status Stream::enqueue_wait_for(std::shared_ptr<Fence> fence) {
  // The worker thread itself blocks: nothing behind the wait can start early. Waiting does
  // not import the other stream's error; the event or stream it came from still reports it.
  return enqueue_step([fence = std::move(fence)] { fence->wait(); });
}

Status Stream::block_until_done() {
  std::shared_ptr<Fence> fence;
  REFERENCE_RETURN_IF_ERROR(enqueue_fence(&fence));
  return fence->wait();
}

Status Stream::status() const {
  std::lock_guard lock(status_mutex_);
  return status_;
}

void Stream::fail(const Status& error) {
  std::lock_guard lock(status_mutex_);
  if (status_.ok()) status_ = error;
}

void Stream::shut_down() { worker_.shut_down(); }

}  // namespace reference_plugin
