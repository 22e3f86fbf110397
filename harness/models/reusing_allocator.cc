#include "models/reusing_allocator.h"

#include <vector>

namespace conformance::models {

ReusingAllocator::ReusingAllocator(std::shared_ptr<kernels::PluginDeviceAllocator> plugin,
                                   Reuse reuse)
    : plugin_(std::move(plugin)), reuse_(reuse) {}

ReusingAllocator::~ReusingAllocator() { Drain(); }

void* ReusingAllocator::Allocate(std::size_t bytes) {
  {
    std::lock_guard lock(mutex_);
    if (auto found = free_.find(bytes); found != free_.end() && !found->second.empty()) {
      void* block = *found->second.begin();
      found->second.erase(found->second.begin());
      in_use_.emplace(block, bytes);
      in_use_bytes_ += static_cast<std::int64_t>(bytes);
      return block;
    }
  }
  void* block = plugin_->Allocate(bytes);
  if (block == nullptr) return nullptr;
  std::lock_guard lock(mutex_);
  in_use_.emplace(block, bytes);
  in_use_bytes_ += static_cast<std::int64_t>(bytes);
  return block;
}

void ReusingAllocator::Deallocate(void* ptr, std::size_t bytes) {
  {
    std::lock_guard lock(mutex_);
    auto found = in_use_.find(ptr);
    if (found == in_use_.end()) return;
    in_use_bytes_ -= static_cast<std::int64_t>(found->second);
    bytes = found->second;
    in_use_.erase(found);
    if (reuse_ == Reuse::kLikeBfc) {
      free_[bytes].insert(ptr);
      return;
    }
  }
  plugin_->Deallocate(ptr, bytes);
  plugin_->ReleaseFreedNow();
}

std::int64_t ReusingAllocator::in_use_bytes() const {
  std::lock_guard lock(mutex_);
  return in_use_bytes_;
}

void ReusingAllocator::Drain() {
  std::vector<std::pair<void*, std::size_t>> blocks;
  {
    std::lock_guard lock(mutex_);
    for (auto& [bytes, set] : free_) {
      for (void* block : set) blocks.emplace_back(block, bytes);
    }
    free_.clear();
  }
  for (const auto& [block, bytes] : blocks) plugin_->Deallocate(block, bytes);
}

}  // namespace conformance::models
