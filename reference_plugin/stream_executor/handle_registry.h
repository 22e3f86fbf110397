#pragma once
// HandleRegistry: the live objects of one kind (streams, events, timers) that a device handed
// out as opaque C handles.
//
// Why keep a registry instead of trusting the raw pointers TensorFlow passes back?
//  - a stale or foreign handle (destroyed, or created on another device) is reported as
//    TF_INVALID_ARGUMENT instead of crashing;
//  - synchronize_all_activity needs every stream of the device;
//  - destroy_device can clean up whatever the caller forgot to destroy, so nothing leaks.
// Objects are held by shared_ptr so that work already queued on a stream (e.g. a timer's
// timestamp) can keep its object alive after the handle was destroyed.
#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace reference_plugin {

template <typename Object>
class HandleRegistry {
 public:
  // Takes shared ownership and returns the raw pointer that becomes the C handle.
  Object* add(std::shared_ptr<Object> object) {
    Object* handle = object.get();
    std::lock_guard lock(mutex_);
    objects_.emplace(handle, std::move(object));
    return handle;
  }

  // The live object behind `handle`, or nullptr if the handle is not live on this device.
  std::shared_ptr<Object> find(const Object* handle) const {
    std::lock_guard lock(mutex_);
    auto it = objects_.find(handle);
    return it == objects_.end() ? nullptr : it->second;
  }

  // Forgets `handle` and returns the object (nullptr if it was not live).
  std::shared_ptr<Object> remove(const Object* handle) {
    std::lock_guard lock(mutex_);
    auto node = objects_.extract(handle);
    return node ? std::move(node.mapped()) : nullptr;
  }

  std::vector<std::shared_ptr<Object>> snapshot() const {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<Object>> objects;
    objects.reserve(objects_.size());
    for (const auto& [handle, object] : objects_) objects.push_back(object);
    return objects;
  }

  std::vector<std::shared_ptr<Object>> remove_all() {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<Object>> objects;
    objects.reserve(objects_.size());
    for (auto& [handle, object] : objects_) objects.push_back(std::move(object));
    objects_.clear();
    return objects;
  }

  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return objects_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::unordered_map<const Object*, std::shared_ptr<Object>> objects_;
};

}  // namespace reference_plugin
