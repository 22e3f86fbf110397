#include "validate/memory_lifetime.h"

#include <pthread.h>

#include <cstring>

namespace conformance::validate {

bool PointsIntoDeadStack(const void* pointer, const void* live_frame) {
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return false;
  void* base = nullptr;
  size_t size = 0;
  pthread_attr_getstack(&attributes, &base, &size);
  pthread_attr_destroy(&attributes);
  const auto* begin = static_cast<const char*>(base);
  const auto* address = static_cast<const char*>(pointer);
  const auto* live = static_cast<const char*>(live_frame);
  return address >= begin && address < begin + size && address < live;
}

__attribute__((noinline)) void ScribbleOverDeadStack() {
  volatile char scratch[64 * 1024];
  std::memset(const_cast<char*>(scratch), 0x5A, sizeof(scratch));
  // The volatile read keeps the compiler from dropping the writes.
  (void)scratch[sizeof(scratch) - 1];
}

std::string StringLifetimeProblem(const char* pointer, const std::string& snapshot,
                                  const void* live_frame) {
  if (pointer == nullptr) return "";
  if (PointsIntoDeadStack(pointer, live_frame))
    return "points into the stack of the call that set it";
  if (std::strcmp(pointer, snapshot.c_str()) != 0) return "changed after the call returned";
  return "";
}

}  // namespace conformance::validate
