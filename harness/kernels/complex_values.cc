#include "kernels/complex_values.h"

#include <cmath>

#include "kernels/dtype_values.h"

namespace conformance::kernels {

bool IsComplex(TF_DataType dtype) { return dtype == TF_COMPLEX64 || dtype == TF_COMPLEX128; }

TF_DataType ComplexPartDtype(TF_DataType dtype) {
  if (dtype == TF_COMPLEX64) return TF_FLOAT;
  if (dtype == TF_COMPLEX128) return TF_DOUBLE;
  return dtype;
}

std::optional<TF_DataType> ComplexCounterpart(TF_DataType dtype) {
  switch (dtype) {
    case TF_COMPLEX64: return TF_FLOAT;
    case TF_COMPLEX128: return TF_DOUBLE;
    case TF_FLOAT: return TF_COMPLEX64;
    case TF_DOUBLE: return TF_COMPLEX128;
    default: return std::nullopt;
  }
}

HostTensor ComplexParts(const HostTensor& complex) {
  HostTensor parts{ComplexPartDtype(complex.dtype), complex.shape, complex.bytes};
  parts.shape.push_back(2);
  return parts;
}

HostTensor ComplexFromParts(HostTensor parts, TF_DataType dtype) {
  parts.dtype = dtype;
  if (!parts.shape.empty()) parts.shape.pop_back();
  return parts;
}

std::string ComplexPartIndex(const core::Shape& shape, std::int64_t part) {
  return IndexString(shape, part / 2) + (part % 2 == 0 ? ".real" : ".imag");
}

std::string ComplexText(TF_DataType dtype, double real, double imaginary) {
  const TF_DataType part = ComplexPartDtype(dtype);
  // "+-2i" reads badly: the imaginary part's sign is the operator (NaN has none to show).
  const bool minus = std::signbit(imaginary) && !std::isnan(imaginary);
  return ValueString(part, real) + (minus ? "-" : "+") +
         ValueString(part, minus ? -imaginary : imaginary) + "i";
}

std::optional<Mismatch> CompareComplexValues(const HostTensor& expected, const HostTensor& actual,
                                             const Tolerance& tolerance) {
  const HostTensor e = ComplexParts(expected), a = ComplexParts(actual);
  const TF_DataType part = e.dtype;
  std::optional<Mismatch> worst;
  double worst_excess = 1.0;
  std::int64_t mismatched = 0;
  const std::int64_t n = std::min(expected.NumElements(), actual.NumElements());
  for (std::int64_t i = 0; i < n; ++i) {
    const double er = e.At(2 * i), ei = e.At(2 * i + 1);
    const double ar = a.At(2 * i), ai = a.At(2 * i + 1);
    const bool expected_nan = std::isnan(er) || std::isnan(ei);
    const bool actual_nan = std::isnan(ar) || std::isnan(ai);
    double excess = 0;
    std::int64_t at = 2 * i;  // the part the mismatch names
    if (expected_nan || actual_nan) {
      if (expected_nan == actual_nan) continue;
      excess = INFINITY;
      if (!std::isnan(er) && !std::isnan(ar)) at = 2 * i + 1;  // the part that holds the NaN
    } else {
      const double real = ToleranceExcess(part, er, ar, tolerance);
      const double imaginary = ToleranceExcess(part, ei, ai, tolerance);
      excess = std::max(real, imaginary);
      if (imaginary > real) at = 2 * i + 1;
    }
    if (excess <= 1.0) continue;
    ++mismatched;
    if (!worst || excess > worst_excess) {
      worst = Mismatch{i, ComplexPartIndex(expected.shape, at), e.At(at), a.At(at), 0};
      worst_excess = excess;
    }
  }
  if (worst) worst->mismatched = mismatched;
  return worst;
}

}  // namespace conformance::kernels
