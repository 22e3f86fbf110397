#pragma once
// A vendor's declaration that its kernels for one op and dtype compute with less precision
// than the scenarios' default tolerance (--precision FILE, harness/kernels/declared_precision.h):
// float32 MatMul in TF32 on tensor cores, as TensorFlow itself does on Ampere GPUs, say. The
// case checks of that op and dtype accept the declared tolerance, the report shows every
// declaration, and nothing else about the op is excused. A declaration may name one scenario
// of the op: a vendor whose MatMul is TF32 only for large matrices declares just that case.
#include <cstdint>
#include <string>

namespace conformance {

struct DeclaredPrecision {
  std::string op;     // TensorFlow op name, e.g. MatMul
  std::string dtype;  // TensorFlow dtype name, e.g. float
  // One scenario of the op (its name, e.g. plain); empty: every scenario of the op and dtype.
  std::string scenario;
  double rtol = 0, atol = 0;
  std::uint64_t ulp = 0;
  std::string reason;
  std::string source;  // "file:line" of the entry
};

}  // namespace conformance
