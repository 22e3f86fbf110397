#include "kernels/complex_fills.h"

#include <algorithm>
#include <cmath>

#include "kernels/complex_values.h"
#include "kernels/dtype_values.h"
#include "kernels/family_fills.h"

namespace conformance::kernels {
namespace {

core::Shape ComplexPartsShape(core::Shape shape) {
  shape.push_back(2);
  return shape;
}

// Every element `real + imaginary i`.
HostTensor ComplexConstant(TF_DataType dtype, const core::Shape& shape, double real,
                           double imaginary) {
  InputFill fill;
  fill.kind = InputFill::Kind::kValues;
  fill.values = {real, imaginary};
  return MakeInput(fill, dtype, shape, 0);
}

}  // namespace

std::vector<Number> ComplexSpecialParts() {
  const Number nan = std::string("nan"), inf = std::string("inf"), minus_inf = std::string("-inf");
  const Number max = std::string("max"), lowest = std::string("lowest");
  return {nan,    1.0,       1.0,  nan,  inf, 0.0,  0.0, inf, minus_inf, -1.0,
          2.0,    minus_inf, -0.0, -0.0, 0.0, -0.0, max, 1.0, nan,       nan,
          lowest, max,       0.5,  -2.5, 3.0, -1.0, inf, inf, -1.0,      0.25};
}

std::optional<HostTensor> MakeComplexFill(const std::string& fill, TF_DataType dtype,
                                          const core::Shape& shape, std::uint64_t seed,
                                          std::size_t rotation) {
  const TF_DataType part = ComplexPartDtype(dtype);
  if (fill == "ones") return ComplexConstant(dtype, shape, 1.0, 0.0);
  if (fill == "minus_inf") return ComplexConstant(dtype, shape, -INFINITY, 0.0);
  if (fill == "nan") {
    HostTensor parts = *MakeFill("random", part, ComplexPartsShape(shape), seed);
    const std::int64_t n = core::NumElements(shape);
    for (std::int64_t i = 1, turn = 0; i < n; i += 3, ++turn) {
      if (turn % 3 != 1) WriteElement(part, parts.bytes.data(), 2 * i, NAN);      // real
      if (turn % 3 != 0) WriteElement(part, parts.bytes.data(), 2 * i + 1, NAN);  // imaginary
    }
    return ComplexFromParts(std::move(parts), dtype);
  }
  if (fill == "special") {
    std::vector<Number> specials = ComplexSpecialParts();
    std::rotate(specials.begin(),
                specials.begin() + static_cast<std::ptrdiff_t>(rotation % specials.size()),
                specials.end());
    InputFill literal;
    literal.kind = InputFill::Kind::kValues;
    literal.values = std::move(specials);
    return MakeInput(literal, dtype, shape, 0);
  }
  if (fill == "hermitian") {  // the lower triangle mirrored and conjugated, the diagonal real
    if (shape.size() < 2 || shape[shape.size() - 1] != shape[shape.size() - 2]) return std::nullopt;
    HostTensor parts = *MakeFill("random", part, ComplexPartsShape(shape), seed);
    const std::int64_t m = shape.back(), n = core::NumElements(shape);
    std::uint8_t* data = parts.bytes.data();
    for (std::int64_t base = 0; base < n; base += m * m) {
      for (std::int64_t i = 0; i < m; ++i) {
        WriteElement(part, data, 2 * (base + i * m + i) + 1, 0.0);
        for (std::int64_t j = 0; j < i; ++j) {
          const std::int64_t lower = 2 * (base + i * m + j), upper = 2 * (base + j * m + i);
          WriteElement(part, data, upper, ReadElement(part, data, lower));
          WriteElement(part, data, upper + 1, -ReadElement(part, data, lower + 1));
        }
      }
    }
    return ComplexFromParts(std::move(parts), dtype);
  }
  if (fill == "above_2_24") return std::nullopt;
  // random, distinct, negative, positive, ties: the class in both parts.
  std::optional<HostTensor> parts = MakeFill(fill, part, ComplexPartsShape(shape), seed, rotation);
  if (!parts) return std::nullopt;
  return ComplexFromParts(std::move(*parts), dtype);
}

}  // namespace conformance::kernels
