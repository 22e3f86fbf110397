#pragma once
// complex64 and complex128 values: the one place that knows a complex element is two parts of
// its part dtype (float, double), real first, as TensorFlow lays them out. Everything a kernel
// case does with values (seeded fills, literals, comparison, text) reaches a complex tensor
// through its parts: the same bytes read as a tensor of the part dtype with a last dimension of
// 2. So a fill's values, a scenario's `values:` and a range list parts, real then imaginary
// (a family's literal `value:` numbers are real numbers, v + 0i, as ReadElement and WriteElement
// take them), and each part is held to the case's tolerance for the part dtype.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/host_tensor.h"
#include "tensorflow/c/tf_datatype.h"

namespace conformance::kernels {

bool IsComplex(TF_DataType dtype);  // complex64, complex128
// float for complex64, double for complex128; any other dtype is its own part.
TF_DataType ComplexPartDtype(TF_DataType dtype);

// The dtype of the other kind with the same part: complex64 <-> float, complex128 <-> double;
// nullopt for any other dtype. A real-to-complex op's (Complex, RFFT) double cell makes
// complex128, a complex-to-real op's (Real, IRFFT) complex128 cell makes double.
std::optional<TF_DataType> ComplexCounterpart(TF_DataType dtype);

// The same bytes as a tensor of the part dtype, shaped `shape + [2]` (real, imaginary).
HostTensor ComplexParts(const HostTensor& complex);
// The inverse: `parts` (shape + [2] of the part dtype) as a tensor of `dtype`.
HostTensor ComplexFromParts(HostTensor parts, TF_DataType dtype);

// "[1,2].imag": the complex element and the part that flat part index `part` of
// ComplexParts(tensor) is.
std::string ComplexPartIndex(const core::Shape& shape, std::int64_t part);

// "1.5-2i", "nan+infi": a complex element as a person reads it.
std::string ComplexText(TF_DataType dtype, double real, double imaginary);

// Whether the comparison of complex values matches: a value with NaN in either part is a
// complex NaN (as C's and NumPy's isnan say), matched by any complex NaN whatever its other part
// (implementations give (nan, nan) or (nan, x) for the same NaN); otherwise both parts must be
// within the tolerance. The worst part is named "[i].real" or "[i].imag".
std::optional<Mismatch> CompareComplexValues(const HostTensor& expected, const HostTensor& actual,
                                             const Tolerance& tolerance);

}  // namespace conformance::kernels
