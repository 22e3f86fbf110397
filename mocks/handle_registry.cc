#include "mocks/handle_registry.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

namespace conformance::mocks {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::uintptr_t, RegisteredMock> live;
  // Starts high and steps by 16 so tokens look like (and are as non-NULL as) pointers.
  std::uintptr_t next = 0x6d6f636b0000;
};

Registry& registry() {
  static Registry* instance = new Registry;  // never destroyed: callbacks may come late
  return *instance;
}

}  // namespace

void* HandleRegistry::Register(void* object, MockKind kind, int ordinal) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  const std::uintptr_t token = r.next;
  r.next += 16;
  r.live[token] = RegisteredMock{object, kind, ordinal};
  return reinterpret_cast<void*>(token);  // NOLINT(performance-no-int-to-ptr): opaque token
}

void HandleRegistry::Unregister(const void* object) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  std::erase_if(r.live, [object](const auto& entry) { return entry.second.object == object; });
}

bool HandleRegistry::Lookup(const void* token, MockKind kind, RegisteredMock* out) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.live.find(reinterpret_cast<std::uintptr_t>(token));
  if (it == r.live.end() || it->second.kind != kind) return false;
  *out = it->second;
  return true;
}

std::string StaleMockMessage(const char* callback) {
  return std::string("plugin_conformance mocks: ") + callback +
         " was called on a mock that no longer exists: its plugin was unloaded (destroy_platform "
         "ran or the mock object was destroyed) or the handle never came from a mock. Keep the "
         "mock alive until the last callback returns.";
}

void ReportStaleMock(const char* callback, TF_Status* status) {
  const std::string message = StaleMockMessage(callback);
  if (status != nullptr) {
    TF_SetStatus(status, TF_FAILED_PRECONDITION, message.c_str());
    return;
  }
  std::fprintf(stderr, "%s\n", message.c_str());
  std::abort();
}

}  // namespace conformance::mocks
