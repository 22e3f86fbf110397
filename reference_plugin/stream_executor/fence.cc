#include "stream_executor/fence.h"

#include <utility>

namespace reference_plugin {

void Fence::signal(Status stream_status) {
  {
    std::lock_guard lock(mutex_);
    result_ = std::move(stream_status);
  }
  signalled_.notify_all();
}

Status Fence::wait() const {
  std::unique_lock lock(mutex_);
  signalled_.wait(lock, [this] { return result_.has_value(); });
  return *result_;
}

std::optional<Status> Fence::poll() const {
  std::lock_guard lock(mutex_);
  return result_;
}

}  // namespace reference_plugin
