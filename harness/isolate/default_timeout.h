#pragma once
// The per-unit timeout used when the user gives none. A sanitizer build of the harness runs a
// correct plugin's units several times slower (ThreadSanitizer instruments every memory access:
// a scenario unit of a fraction of a second takes 5 s or more, two more when units share the
// CPUs), so there the default grows by that factor instead of calling slowness a hang. A
// --timeout the user gives is taken as given. AddressSanitizer roughly triples it: the
// runtime scenarios that hold streams with gates now run long enough there to meet the plain
// default when two tests share the CPUs. The tests' own sources are compiled without the
// sanitizer, against an instrumented harness: CONFORMANCE_HARNESS_UNDER_ASAN (tests/CMakeLists.txt)
// gives them the harness's value.
#include <cstdint>

namespace conformance {

#if defined(__SANITIZE_THREAD__)
inline constexpr std::int64_t kSanitizerSlowdown = 5;
#elif defined(__SANITIZE_ADDRESS__) || defined(CONFORMANCE_HARNESS_UNDER_ASAN)
inline constexpr std::int64_t kSanitizerSlowdown = 3;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)  // clang's spelling
inline constexpr std::int64_t kSanitizerSlowdown = 5;
#else
inline constexpr std::int64_t kSanitizerSlowdown = 1;
#endif
#else
inline constexpr std::int64_t kSanitizerSlowdown = 1;
#endif

inline constexpr std::int64_t kDefaultUnitTimeoutMs = 10'000 * kSanitizerSlowdown;

}  // namespace conformance
