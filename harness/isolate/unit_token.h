#pragma once
// The secret that authenticates a unit's result stream. The parent draws a fresh one from the
// kernel's random source before each fork; the child stamps it on every record it writes, and
// the parent drops any record without it. Plugin code that merely writes to file descriptors
// it finds (fds 3-20, /proc/self/fd) cannot know it; see README.md (threat model).
#include <string>

namespace conformance::isolate {

// 32 hex digits (128 bits) from getrandom(). Throws std::system_error if the kernel has no
// randomness to give (it blocks only until the pool is initialised, early at boot).
std::string NewUnitToken();

}  // namespace conformance::isolate
