#pragma once
// family_fills.h's value classes for complex64 and complex128 cells (complex_values.h: a complex
// tensor is its parts): made on the parts where the class means the same there, per element
// where it means a complex value.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/host_tensor.h"

namespace conformance::kernels {

// The edges of a complex dtype as parts, real then imaginary: NaN, ±inf and -0 in either part
// with an ordinary value in the other (a kernel that computes one part only, or swaps them, is
// seen), both parts NaN, max and lowest (products overflow), and ordinary values.
std::vector<Number> ComplexSpecialParts();

// The fill `fill` (family_fills.h's names) of a complex `dtype`:
//   random, distinct, negative, positive, ties: the class in both parts (distinct: no two
//               parts equal, so no two elements either)
//   special     ComplexSpecialParts, rotated by `rotation` parts
//   ones        1+0i (the product's identity; 1+1i would double a product's magnitude)
//   minus_inf   -inf+0i
//   nan         seeded values with NaN at every third element, in the real part, the
//               imaginary part and both in turn
//   hermitian   seeded Hermitian matrices (real diagonal, upper = conjugate of lower)
// nullopt for above_2_24 (integers only).
std::optional<HostTensor> MakeComplexFill(const std::string& fill, TF_DataType dtype,
                                          const core::Shape& shape, std::uint64_t seed,
                                          std::size_t rotation);

}  // namespace conformance::kernels
