#include "kernels/kernel_scenario.h"

#include "kernels/dtype_values.h"

namespace conformance::kernels {

Tolerance KernelScenario::ToleranceFor(TF_DataType dtype) const {
  if (auto it = tolerances.find(dtype); it != tolerances.end()) return it->second;
  // Defaults: integers exact; floats a few ULP, enough for another correctly rounded
  // implementation of the same arithmetic (vectorised, fused) but not for a wrong formula.
  switch (dtype) {
    case TF_FLOAT:
    case TF_DOUBLE:
    case TF_COMPLEX64:  // per part (complex_values.h)
    case TF_COMPLEX128:
    // A quantized cell's integers are exact whatever the tolerance (host_tensor.h); this is
    // for its float outputs (the output range, Dequantize's values), held as float's.
    case TF_QINT8:
    case TF_QUINT8:
    case TF_QINT16:
    case TF_QUINT16:
    case TF_QINT32: return Tolerance{.ulp = 4};
    case TF_HALF:
    case TF_BFLOAT16: return Tolerance{.ulp = 1};
    default: return Tolerance{};
  }
}

const InputSpec* KernelScenario::FindVariable(const std::string& name) const {
  for (const InputSpec& input : inputs) {
    if (input.variable && input.name == name) return &input;
  }
  return nullptr;
}

std::string KernelCaseId(const std::string& op, TF_DataType dtype, const std::string& name) {
  return "kernel." + op + "." + DtypeName(dtype) + "." + name;
}

}  // namespace conformance::kernels
