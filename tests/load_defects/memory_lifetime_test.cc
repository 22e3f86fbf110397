// load.se.*.strings_stable judges where a plugin's strings live. The environment strings and
// argv sit at the top of the main thread's stack mapping: a platform name from getenv() lives as
// long as the process and must never count as the stack of a returned call. Whether they fell
// inside the range pthread_getattr_np reports for the main stack depended on where the kernel
// placed the stack (2-3 runs in 12 failed), so every one of them is checked here.
#include "validate/memory_lifetime.h"

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

namespace conformance::validate {
namespace {

// Where a callee's local string was (kept as a number: the callee has returned).
std::uintptr_t g_returned_local = 0;

__attribute__((noinline)) void MakeStringOnStack(char* copy, std::size_t size) {
  volatile char local[256];
  std::strncpy(const_cast<char*>(local), "DEAD_STACK_NAME", sizeof(local));
  std::strncpy(copy, const_cast<const char*>(local), size);
  g_returned_local = reinterpret_cast<std::uintptr_t>(&local[0]);
}

TEST(MemoryLifetime, EnvironmentStringsAreNotDeadStack) {
  const void* frame = __builtin_frame_address(0);
  int checked = 0;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    EXPECT_EQ(StringLifetimeProblem(*entry, *entry, frame), "") << *entry;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST(MemoryLifetime, GetenvResultIsStable) {
  ASSERT_EQ(setenv("MEMORY_LIFETIME_TEST_UNUSED", "x", 0), 0);  // heap copy: also not stack
  const char* path = getenv("PATH");
  ASSERT_NE(path, nullptr);
  EXPECT_EQ(StringLifetimeProblem(path, path, __builtin_frame_address(0)), "");
  const char* heap = getenv("MEMORY_LIFETIME_TEST_UNUSED");
  EXPECT_EQ(StringLifetimeProblem(heap, heap, __builtin_frame_address(0)), "");
}

TEST(MemoryLifetime, ReturnedCallsLocalsAreDeadStack) {
  char copy[256];
  MakeStringOnStack(copy, sizeof(copy));
  // NOLINTNEXTLINE(performance-no-int-to-ptr): the address of a returned call's local is the
  // point of the test; it was kept as a number so the compiler does not flag the dangling.
  const auto* dangling = reinterpret_cast<const char*>(g_returned_local);
  EXPECT_EQ(StringLifetimeProblem(dangling, copy, __builtin_frame_address(0)),
            "points into the stack of the call that set it");
}

TEST(MemoryLifetime, ChangedStringIsReported) {
  std::string text(64, 'P');  // on the heap (a local's own frame is below the live frame)
  const std::string snapshot = text;
  text[0] = 'X';
  EXPECT_EQ(StringLifetimeProblem(text.c_str(), snapshot, __builtin_frame_address(0)),
            "changed after the call returned");
}

}  // namespace
}  // namespace conformance::validate
