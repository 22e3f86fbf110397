#include "device.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <vector>

namespace example {

Stream::Stream() : worker_([this] { Run(); }) {}

Stream::~Stream() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  worker_.join();
}

void Stream::Enqueue(std::function<void()> work) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(work));
  }
  changed_.notify_all();
}

void Stream::Wait() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return queue_.empty() && !running_; });
}

void Stream::Fail(TF_Code code, std::string message) {
  std::lock_guard lock(mutex_);
  if (code_ != TF_OK) return;
  code_ = code;
  message_ = std::move(message);
}

TF_Code Stream::status(std::string* message) {
  std::lock_guard lock(mutex_);
  *message = message_;
  return code_;
}

void Stream::Run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;
    auto work = std::move(queue_.front());
    queue_.pop_front();
    running_ = true;
    lock.unlock();
    work();
    lock.lock();
    running_ = false;
    changed_.notify_all();
  }
}

void Event::Set(SE_EventStatus s) {
  // Notified under the lock: a waiter that sees the new status may destroy the event at once.
  std::lock_guard lock(mutex);
  status = s;
  done.notify_all();
}

void Event::WaitUntilDone() {
  std::unique_lock lock(mutex);
  done.wait(lock, [this] { return status != SE_EVENT_PENDING; });
}

void* Device::Allocate(uint64_t size) {
  std::lock_guard lock(mutex_);
  if (size == 0 || size > kMemoryBytes - static_cast<uint64_t>(in_use_)) return nullptr;
  void* block = std::aligned_alloc(64, (size + 63) / 64 * 64);
  if (block == nullptr) return nullptr;
  blocks_[block] = size;
  ++num_allocs_;
  in_use_ += static_cast<int64_t>(size);
  peak_ = std::max(peak_, in_use_);
  largest_ = std::max(largest_, static_cast<int64_t>(size));
  return block;
}

// TensorFlow without its BFC allocator (this plugin leaves use_bfc_allocator 0) frees a kernel's
// inputs right after queuing the kernel: the block counts as free at once, but its memory goes
// back only when every stream has run what was queued before this call.
void Device::Deallocate(void* ptr) {
  std::lock_guard lock(mutex_);
  auto it = blocks_.find(ptr);
  if (it == blocks_.end()) return;
  in_use_ -= static_cast<int64_t>(it->second);
  blocks_.erase(it);
  auto waiting = std::make_shared<std::atomic<std::size_t>>(streams_.size() + 1);
  auto release = [ptr, waiting] {
    if (waiting->fetch_sub(1) == 1) std::free(ptr);
  };
  for (auto& [stream, live] : streams_) stream->Enqueue(release);
  release();
}

void Device::Stats(SP_AllocatorStats* stats) {
  std::lock_guard lock(mutex_);
  stats->num_allocs = num_allocs_;
  stats->bytes_in_use = in_use_;
  stats->peak_bytes_in_use = peak_;
  stats->largest_alloc_size = largest_;
  stats->has_bytes_limit = 1;
  stats->bytes_limit = static_cast<int64_t>(kMemoryBytes);
}

int64_t Device::bytes_in_use() {
  std::lock_guard lock(mutex_);
  return in_use_;
}

Stream* Device::NewStream() {
  auto* stream = new Stream;
  std::lock_guard lock(mutex_);
  streams_[stream] = true;
  return stream;
}

void Device::DeleteStream(Stream* stream) {
  {
    std::lock_guard lock(mutex_);
    if (streams_.erase(stream) == 0) return;
  }
  delete stream;
}

void Device::WaitAll() {
  std::vector<Stream*> streams;
  {
    std::lock_guard lock(mutex_);
    for (auto& [stream, live] : streams_) streams.push_back(stream);
  }
  for (Stream* stream : streams) stream->Wait();
}

}  // namespace example
