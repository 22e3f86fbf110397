#pragma once
// The TensorFlow tests' rule for a wheel that is not configured: skipped with the reason
// (CTest SKIP_RETURN_CODE 77), but a failure under CI, where bootstrap installs the wheels.
#include <cstdlib>
#include <iostream>
#include <string>

namespace tensorflow_tests {

inline constexpr int kSkipReturnCode = 77;

inline int SkipOrFail(const std::string& reason) {
  if (const char* ci = std::getenv("CI"); ci != nullptr && *ci != '\0') {
    std::cout << "FAIL (CI is set, so the TensorFlow tests must run): " << reason << '\n';
    return 1;
  }
  std::cout << "SKIPPED: " << reason << " (sh .ci/bootstrap installs the wheels)\n";
  return kSkipReturnCode;
}

}  // namespace tensorflow_tests
