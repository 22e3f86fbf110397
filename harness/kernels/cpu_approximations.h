#pragma once
// Cells where TensorFlow's CPU kernel is an approximation farther from the correctly rounded
// result than the generated cases' default tolerance (kernel_scenario.cc: 4 ULP in float)
// allows. Against such a CPU, a correctly rounded kernel (the reference plugin's) would be
// judged wrong. Each entry is the largest distance measured on the 2.21.0 wheel between the
// CPU's result and the correctly rounded one (results that are not subnormal), plus the 1 ULP a
// legal plugin may itself be off (issue 30); the generated cases of that cell allow it, for
// every plugin alike. A wrong formula stays far outside it.
#include <cstdint>
#include <string_view>

#include "tensorflow/c/tf_datatype.h"

namespace conformance::kernels {

struct CpuApproximation {
  std::string_view op;
  TF_DataType dtype;
  std::uint64_t ulp;
};

inline constexpr CpuApproximation kCpuApproximations[] = {
    // Sigmoid (float): Eigen's rational approximation of the logistic function is up to 6 ULP
    // from the correctly rounded value (8 million uniform inputs in [-20, 20], worst near -10.5;
    // 4 ULP in [-1, 1]).
    {"Sigmoid", TF_FLOAT, 6 + 1},
};

// The ULP distance TensorFlow's CPU forces on the generated cases of (op, dtype); 0 if none.
inline std::uint64_t CpuApproximationUlp(std::string_view op, TF_DataType dtype) {
  for (const CpuApproximation& entry : kCpuApproximations) {
    if (entry.op == op && entry.dtype == dtype) return entry.ulp;
  }
  return 0;
}

}  // namespace conformance::kernels
