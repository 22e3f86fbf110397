#include "kernels/family_fills.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "kernels/complex_fills.h"
#include "kernels/complex_values.h"
#include "kernels/dtype_values.h"
#include "kernels/string_values.h"

namespace conformance::kernels {
namespace {

constexpr std::array<std::string_view, 11> kFillNames = {
    "random", "special", "negative", "minus_inf", "nan",      "above_2_24",
    "ties",   "ones",    "distinct", "positive",  "hermitian"};

std::uint64_t Next(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// How many consecutive integers a dtype holds exactly (distinct values of a fill).
std::int64_t ExactIntegers(TF_DataType dtype) {
  switch (dtype) {
    case TF_BOOL: return 2;
    case TF_INT8:
    case TF_UINT8: return 256;
    case TF_BFLOAT16: return 512;  // ±256
    case TF_HALF: return 4096;     // ±2048
    case TF_INT16:
    case TF_UINT16: return 65536;
    default: return std::int64_t{1} << 40;
  }
}

// A seeded permutation of [0, n): i -> (i * stride + offset) mod n, stride coprime to n.
std::vector<std::int64_t> Permutation(std::int64_t n, std::uint64_t seed) {
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  if (n == 0) return order;
  std::int64_t stride = 1;
  for (std::int64_t prime : {7919, 104729, 31, 17, 13, 11, 7, 5, 3}) {
    if (std::gcd(prime, n) == 1) {
      stride = prime;
      break;
    }
  }
  std::uint64_t state = seed;
  const auto offset = static_cast<std::int64_t>(Next(state) % static_cast<std::uint64_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    order[static_cast<std::size_t>(i)] = (i * stride + offset) % n;
  return order;
}

HostTensor Filled(TF_DataType dtype, const core::Shape& shape, const std::vector<double>& values) {
  HostTensor tensor{dtype, shape, {}};
  tensor.bytes.resize(static_cast<std::size_t>(tensor.NumElements()) * ElementSize(dtype));
  for (std::int64_t i = 0; i < tensor.NumElements(); ++i)
    WriteElement(dtype, tensor.bytes.data(), i, values[static_cast<std::size_t>(i)]);
  return tensor;
}

HostTensor Random(TF_DataType dtype, const core::Shape& shape, std::uint64_t seed) {
  InputFill fill;
  if (IsUnsigned(dtype)) fill.min = 0;
  if (dtype == TF_BOOL) fill.min = 0, fill.max = 1.99;
  return MakeInput(fill, dtype, shape, seed);
}

bool HoldsAbove2To24(TF_DataType dtype) {
  return dtype == TF_INT32 || dtype == TF_INT64 || dtype == TF_UINT32 || dtype == TF_UINT64;
}

}  // namespace

bool IsFillName(std::string_view name) {
  return std::find(kFillNames.begin(), kFillNames.end(), name) != kFillNames.end() ||
         IsStringFillName(name);
}

std::string FillNamesText() {
  std::string text;
  for (std::string_view name : kFillNames) text += (text.empty() ? "" : ", ") + std::string(name);
  return text + "; for strings: " + StringFillNamesText();
}

std::vector<Number> SpecialValues(TF_DataType dtype) {
  if (IsComplex(dtype)) return ComplexSpecialParts();
  if (IsFloating(dtype)) {
    return {std::string("nan"),
            std::string("inf"),
            std::string("-inf"),
            0.0,
            -0.0,
            std::string("max"),
            std::string("lowest"),
            1.0,
            -1.0,
            0.5,
            -2.5,
            3.0};
  }
  if (dtype == TF_BOOL) return {0.0, 1.0};
  if (IsUnsigned(dtype)) return {std::string("max"), 0.0, 1.0, 7.0, 2.0};
  return {std::string("lowest"), std::string("max"), 0.0, 1.0, -1.0, 7.0, -7.0};
}

std::optional<HostTensor> MakeFill(const std::string& fill, TF_DataType dtype,
                                   const core::Shape& shape, std::uint64_t seed,
                                   std::size_t rotation) {
  // Text has fills of its own (string_values.h); a numeric class (NaN, ones) has no strings.
  if (dtype == TF_STRING) return MakeStringFill(fill, shape, seed, rotation);
  if (IsComplex(dtype)) return MakeComplexFill(fill, dtype, shape, seed, rotation);
  const std::int64_t n = core::NumElements(shape);
  std::vector<double> values(static_cast<std::size_t>(n));
  if (fill == "random") return Random(dtype, shape, seed);
  if (fill == "special") {
    std::vector<Number> specials = SpecialValues(dtype);
    std::rotate(specials.begin(),
                specials.begin() + static_cast<std::ptrdiff_t>(rotation % specials.size()),
                specials.end());
    InputFill literal;
    literal.kind = InputFill::Kind::kValues;
    literal.values = specials;
    return MakeInput(literal, dtype, shape, 0);
  }
  if (fill == "positive") {  // |random| + 2: an accumulator of squares, a sqrt's argument
    if (dtype == TF_BOOL) return std::nullopt;
    HostTensor tensor = Random(dtype, shape, seed);
    for (std::int64_t i = 0; i < n; ++i)
      values[static_cast<std::size_t>(i)] =
          std::fabs(ReadElement(dtype, tensor.bytes.data(), i)) + 2.0;
    return Filled(dtype, shape, values);
  }
  if (fill == "ones") {
    std::fill(values.begin(), values.end(), 1.0);
    return Filled(dtype, shape, values);
  }
  if (fill == "negative" || fill == "distinct") {
    const bool negative = fill == "negative";
    if (dtype == TF_BOOL || (negative && IsUnsigned(dtype))) return std::nullopt;
    const std::int64_t room =
        negative && !IsUnsigned(dtype) ? ExactIntegers(dtype) / 2 : ExactIntegers(dtype);
    if (n > room) return std::nullopt;
    const std::vector<std::int64_t> order = Permutation(n, seed);
    // Distinct: centred on zero when signed; negative: -1 down to -n. Quarter steps in float
    // and double, so the values are not all integers.
    const double step = dtype == TF_FLOAT || dtype == TF_DOUBLE ? 0.25 : 1.0;
    for (std::int64_t i = 0; i < n; ++i) {
      const auto k = static_cast<double>(order[static_cast<std::size_t>(i)]);
      double value = negative ? -(k + 1) : k;
      if (!negative && !IsUnsigned(dtype))
        value -= std::floor(static_cast<double>(n) / 2);  // the centre, n / 2 rounded down
      values[static_cast<std::size_t>(i)] = value * step;
    }
    return Filled(dtype, shape, values);
  }
  if (fill == "minus_inf" || fill == "nan" || fill == "ties") {
    if (!IsFloating(dtype)) return std::nullopt;
    if (fill == "minus_inf") {
      std::fill(values.begin(), values.end(), -INFINITY);
      return Filled(dtype, shape, values);
    }
    if (fill == "ties") {
      for (std::int64_t i = 0; i < n; ++i)
        values[static_cast<std::size_t>(i)] = static_cast<double>(i % 8) - 3.5;
      return Filled(dtype, shape, values);
    }
    HostTensor tensor = Random(dtype, shape, seed);
    for (std::int64_t i = 1; i < n; i += 3) WriteElement(dtype, tensor.bytes.data(), i, NAN);
    return tensor;
  }
  if (fill == "hermitian") {  // symmetric: the lower triangle mirrored
    if (!IsFloating(dtype) || shape.size() < 2 ||
        shape[shape.size() - 1] != shape[shape.size() - 2])
      return std::nullopt;
    HostTensor tensor = Random(dtype, shape, seed);
    const std::int64_t m = shape.back();
    for (std::int64_t base = 0; base < n; base += m * m) {
      for (std::int64_t i = 0; i < m; ++i) {
        for (std::int64_t j = 0; j < i; ++j) {
          WriteElement(dtype, tensor.bytes.data(), base + j * m + i,
                       ReadElement(dtype, tensor.bytes.data(), base + i * m + j));
        }
      }
    }
    return tensor;
  }
  if (fill == "above_2_24") {
    if (!HoldsAbove2To24(dtype)) return std::nullopt;
    std::uint64_t state = seed;
    for (std::int64_t i = 0; i < n; ++i) {
      const std::uint64_t draw = Next(state);
      double value = 16777217.0 + 2.0 * static_cast<double>(draw % 4096);
      if (!IsUnsigned(dtype) && (draw >> 32) % 2 == 1) value = -value;
      values[static_cast<std::size_t>(i)] = value;
    }
    return Filled(dtype, shape, values);
  }
  return std::nullopt;
}

HostTensor MakeIndices(const std::vector<std::int64_t>& bounds, bool sorted, TF_DataType dtype,
                       const core::Shape& shape, std::uint64_t seed) {
  const std::int64_t n = core::NumElements(shape);
  std::vector<double> values(static_cast<std::size_t>(n));
  std::uint64_t state = seed;
  const auto components = static_cast<std::int64_t>(bounds.size());
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t bound = bounds[static_cast<std::size_t>(i % components)];
    values[static_cast<std::size_t>(i)] =
        static_cast<double>(Next(state) % static_cast<std::uint64_t>(bound));
  }
  if (sorted) std::sort(values.begin(), values.end());
  return Filled(dtype, shape, values);
}

}  // namespace conformance::kernels
