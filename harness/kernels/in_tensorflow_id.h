#pragma once
// "<case id>.in_tensorflow": a kernel case (kernel_scenario.h's KernelCaseId) run inside the
// installed TensorFlow (--tensorflow) that disagrees with TensorFlow's own CPU kernel
// (tensorflow_cpu_oracle.h). The check catalogue documents one per built-in case.
#include <string>

namespace conformance::kernels {

inline std::string InTensorFlowCheckId(const std::string& case_id) {
  return case_id + ".in_tensorflow";
}

}  // namespace conformance::kernels
