#include "mocks/in_memory_device.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <cstdlib>
#include <vector>

namespace conformance::mocks {

WorkQueue::WorkQueue() : worker_([this] { Run(); }) {}

WorkQueue::~WorkQueue() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  worker_.join();
}

void WorkQueue::Enqueue(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    tasks_.push_back(std::move(task));
  }
  changed_.notify_all();
}

void WorkQueue::Drain() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return tasks_.empty() && !busy_; });
}

void WorkQueue::SetError(TF_Code code, std::string message) {
  std::lock_guard lock(mutex_);
  if (error_ != TF_OK) return;  // the first error sticks
  error_ = code;
  error_message_ = std::move(message);
}

TF_Code WorkQueue::error(std::string* message) const {
  std::lock_guard lock(mutex_);
  *message = error_message_;
  return error_;
}

void WorkQueue::Run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
    if (tasks_.empty()) return;  // stopping, and everything queued has run
    std::function<void()> task = std::move(tasks_.front());
    tasks_.pop_front();
    busy_ = true;
    lock.unlock();
    task();
    lock.lock();
    busy_ = false;
    changed_.notify_all();
  }
}

Gate::Gate() : state_(std::make_shared<State>()) {}

void Gate::Open() {
  {
    std::lock_guard lock(state_->mutex);
    state_->open = true;
  }
  state_->opened.notify_all();
}

void Gate::Wait() const {
  std::unique_lock lock(state_->mutex);
  state_->opened.wait(lock, [this] { return state_->open; });
}

bool Gate::is_open() const {
  std::lock_guard lock(state_->mutex);
  return state_->open;
}

InMemoryDevice::~InMemoryDevice() {
  streams_.clear();  // joins the workers before the memory they may touch goes away
  for (auto& [start, size] : allocations_) std::free(const_cast<char*>(start));
  for (SP_Event event : events_) delete Event(event);
  for (SP_Timer timer : timers_) delete Timer(timer);
}

void* InMemoryDevice::Allocate(uint64_t size) {
  std::lock_guard lock(mutex_);
  if (size > capacity_ - in_use_) return nullptr;
  const uint64_t rounded = (size + 63) / 64 * 64;
  char* block = static_cast<char*>(std::aligned_alloc(64, rounded == 0 ? 64 : rounded));
  if (block == nullptr) return nullptr;
  allocations_[block] = size;
  in_use_ += size;
  peak_ = std::max(peak_, in_use_);
  largest_ = std::max(largest_, size);
  ++num_allocs_;
  return block;
}

void InMemoryDevice::Deallocate(void* opaque) {
  const auto* start = static_cast<const char*>(opaque);
  std::lock_guard lock(mutex_);
  auto it = allocations_.find(start);
  // NULL, unknown or freed twice: TensorFlow's deallocate is void.
  if (it == allocations_.end() || freeing_.contains(start)) return;
  in_use_ -= it->second;
  freeing_.insert(start);
  // The last of the streams (and this call) to get here gives the memory back. A queue's lock
  // is taken under the device's, never the other way round: its worker runs tasks unlocked.
  auto waiting = std::make_shared<std::atomic<std::size_t>>(streams_.size() + 1);
  auto arrive = [this, start, waiting] {
    if (waiting->fetch_sub(1) == 1) Release(start);
  };
  for (auto& [handle, queue] : streams_) queue->Enqueue(arrive);
  if (waiting->fetch_sub(1) == 1) {  // no stream had anything to wait for
    std::free(const_cast<char*>(start));
    allocations_.erase(start);
    freeing_.erase(start);
  }
}

void InMemoryDevice::Release(const char* start) {
  std::lock_guard lock(mutex_);
  std::free(const_cast<char*>(start));
  allocations_.erase(start);
  freeing_.erase(start);
}

bool InMemoryDevice::Contains(const void* opaque, uint64_t size) const {
  std::lock_guard lock(mutex_);
  const char* p = static_cast<const char*>(opaque);
  auto it = allocations_.upper_bound(p);
  if (it == allocations_.begin()) return false;
  --it;
  if (freeing_.contains(it->first)) return false;  // deallocated: only queued work may read it
  const uint64_t offset = static_cast<uint64_t>(p - it->first);
  return offset <= it->second && size <= it->second - offset;
}

void InMemoryDevice::FillStats(SP_AllocatorStats* stats) const {
  std::lock_guard lock(mutex_);
  stats->num_allocs = num_allocs_;
  stats->bytes_in_use = static_cast<int64_t>(in_use_);
  stats->peak_bytes_in_use = static_cast<int64_t>(peak_);
  stats->largest_alloc_size = static_cast<int64_t>(largest_);
  stats->has_bytes_limit = 1;
  stats->bytes_limit = static_cast<int64_t>(capacity_);
}

uint64_t InMemoryDevice::bytes_in_use() const {
  std::lock_guard lock(mutex_);
  return in_use_;
}

SP_Stream InMemoryDevice::CreateStream() {
  auto queue = std::make_unique<WorkQueue>();
  SP_Stream handle = reinterpret_cast<SP_Stream>(queue.get());
  std::lock_guard lock(mutex_);
  streams_[handle] = std::move(queue);
  return handle;
}

void InMemoryDevice::DestroyStream(SP_Stream stream) {
  std::unique_ptr<WorkQueue> queue;
  {
    std::lock_guard lock(mutex_);
    auto it = streams_.find(stream);
    if (it == streams_.end()) return;
    queue = std::move(it->second);
    streams_.erase(it);
  }
}

WorkQueue* InMemoryDevice::Queue(SP_Stream stream) {
  std::lock_guard lock(mutex_);
  auto it = streams_.find(stream);
  return it == streams_.end() ? nullptr : it->second.get();
}

void InMemoryDevice::DrainAll() {
  std::vector<WorkQueue*> queues;
  {
    std::lock_guard lock(mutex_);
    for (auto& [handle, queue] : streams_) queues.push_back(queue.get());
  }
  for (WorkQueue* queue : queues) queue->Drain();
}

SP_Event InMemoryDevice::CreateEvent() {
  SP_Event event = reinterpret_cast<SP_Event>(new MockEvent);
  std::lock_guard lock(mutex_);
  events_.insert(event);
  return event;
}

void InMemoryDevice::DestroyEvent(SP_Event event) {
  std::lock_guard lock(mutex_);
  if (events_.erase(event) == 1) delete Event(event);
}

void InMemoryDevice::Complete(MockEvent* event, SE_EventStatus status) {
  // Notify under the lock: a waiter that sees the new status may destroy the event (and its
  // condition variable) as soon as it can take the mutex, so the worker must be done with it.
  std::lock_guard lock(event->mutex);
  event->status = status;
  event->changed.notify_all();
}

void InMemoryDevice::WaitUntilDone(MockEvent* event) {
  std::unique_lock lock(event->mutex);
  event->changed.wait(lock, [event] { return event->status != SE_EVENT_PENDING; });
}

SP_Timer InMemoryDevice::CreateTimer() {
  SP_Timer timer = reinterpret_cast<SP_Timer>(new MockTimer);
  std::lock_guard lock(mutex_);
  timers_.insert(timer);
  return timer;
}

void InMemoryDevice::DestroyTimer(SP_Timer timer) {
  std::lock_guard lock(mutex_);
  if (timers_.erase(timer) == 1) delete Timer(timer);
}

uint64_t NowNanoseconds() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

}  // namespace conformance::mocks
