#pragma once
// The value classes of generated cases (specs/ops/families/case_families.yaml's `fill:`): what
// an input holds beyond seeded random numbers, each for a class of real defects. A class that
// does not exist in a dtype (NaN in int32, 1100 distinct int8 values) gives no tensor, and the
// case is left out of that dtype's cell.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/host_tensor.h"

namespace conformance::kernels {

bool IsFillName(std::string_view name);
std::string FillNamesText();  // "random, special, ..." for errors

// The dtype's edge values (NaN, ±inf, ±0, max, lowest; min/max for integers) with a few
// ordinary ones, so a case is not all edges. A complex dtype's are its parts, two an element
// (complex_fills.h).
std::vector<Number> SpecialValues(TF_DataType dtype);

// An input of `dtype` and `shape` holding the fill's values, seeded by `seed`; `rotation`
// shifts the special values so that two inputs meet them in pairs. nullopt where the dtype
// cannot hold the class:
//   random      uniform in [-10, 10] ([0, 10] unsigned, {0, 1} bool)
//   special     SpecialValues, repeated
//   negative    distinct values below zero (every row all-negative: a maximum that starts at 0
//               or at the smallest positive float is caught)
//   minus_inf   -inf everywhere (floating dtypes)
//   nan         seeded values with NaN at every third element (floating dtypes)
//   above_2_24  integers of magnitude 2^24 + odd, both signs when signed (int32, int64, uint32,
//               uint64): a float conversion rounds them
//   ties        halves x.5 (floating dtypes): rounding to even versus away from zero
//   ones        1 everywhere: accumulation in a narrow dtype stalls (half: at 2048)
//   distinct    no two elements equal (indices of extremes are then defined)
//   positive    seeded values in [2, 12] (an optimizer's accumulators of squares: their square
//               roots and reciprocals stay defined after an update)
//   hermitian   seeded matrices (the innermost two dimensions, equal) equal to their conjugate
//               transpose: symmetric (floating dtypes), Hermitian (complex: real diagonal), so a
//               solver reading either triangle sees the same matrix
// Complex dtypes: complex_fills.h says what each class is there.
// A string input takes string_values.h's fills instead (random, special, words, integers, ...);
// the numeric classes have no strings.
std::optional<HostTensor> MakeFill(const std::string& fill, TF_DataType dtype,
                                   const core::Shape& shape, std::uint64_t seed,
                                   std::size_t rotation = 0);

// Integers in [0, bound): `bounds` has one bound, or one per innermost component; ascending
// over the whole tensor when `sorted`.
HostTensor MakeIndices(const std::vector<std::int64_t>& bounds, bool sorted, TF_DataType dtype,
                       const core::Shape& shape, std::uint64_t seed);

}  // namespace conformance::kernels
