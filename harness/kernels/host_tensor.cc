#include "kernels/host_tensor.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

#include "kernels/complex_values.h"
#include "kernels/dtype_values.h"
#include "kernels/string_values.h"

namespace conformance::kernels {
namespace {

std::uint64_t SplitMix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t Fnv1a(const std::string& text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ULL;
  return hash;
}

HostTensor Empty(TF_DataType dtype, const core::Shape& shape) {
  HostTensor t{dtype, shape, {}};
  t.bytes.resize(static_cast<std::size_t>(t.NumElements()) * ElementSize(dtype));
  return t;
}

double Resolve(const Number& n, TF_DataType dtype) {
  if (const double* value = std::get_if<double>(&n)) return *value;
  return SpecialValue(dtype, std::get<std::string>(n)).value_or(0.0);
}

// The smallest normal magnitude of a floating dtype: below it values are subnormal.
double SmallestNormal(TF_DataType dtype) {
  switch (dtype) {
    case TF_DOUBLE: return std::numeric_limits<double>::min();
    case TF_HALF: return 0x1.0p-14;
    default: return std::numeric_limits<float>::min();  // float, bfloat16
  }
}

}  // namespace

double ToleranceExcess(TF_DataType dtype, double expected, double actual, const Tolerance& t) {
  if (std::isnan(expected) || std::isnan(actual))
    return std::isnan(expected) && std::isnan(actual) ? 0 : INFINITY;
  if (std::isinf(expected) || std::isinf(actual)) return expected == actual ? 0 : INFINITY;
  const double diff = std::fabs(actual - expected);
  if (diff == 0) return 0;
  // TensorFlow's CPU device flushes subnormal results to zero for float, double and bfloat16
  // (measured, specs/scenarios/kernels.md); other hardware keeps them. Either is right: a
  // subnormal matches zero and any other subnormal.
  if (IsFloating(dtype) && std::fabs(expected) < SmallestNormal(dtype) &&
      std::fabs(actual) < SmallestNormal(dtype)) {
    return 0;
  }
  if (t.exact() || !IsFloating(dtype)) return INFINITY;
  double best = INFINITY;
  const double allowed = t.atol + t.rtol * std::fabs(expected);
  if (allowed > 0) best = diff / allowed;
  if (t.ulp > 0)
    best = std::min(best, static_cast<double>(UlpDistance(dtype, expected, actual)) /
                              static_cast<double>(t.ulp));
  return best;
}

double HostTensor::At(std::int64_t index) const { return ReadElement(dtype, bytes.data(), index); }

std::uint64_t InputSeed(std::uint64_t run_seed, const std::string& case_id, std::size_t shape_index,
                        std::size_t input_index, std::uint64_t seed_offset) {
  std::uint64_t state = run_seed ^ Fnv1a(case_id);
  state = SplitMix(state) ^ shape_index;
  state = SplitMix(state) ^ (input_index << 32) ^ seed_offset;
  return SplitMix(state);
}

HostTensor MakeInput(const InputFill& fill, TF_DataType dtype, const core::Shape& shape,
                     std::uint64_t seed) {
  // Strings are text, not numbers: a seeded mix of the classes string kernels get wrong.
  if (dtype == TF_STRING) return *MakeStringFill("random", shape, seed);
  if (IsComplex(dtype)) {  // the fill makes the parts (complex_values.h)
    core::Shape parts = shape;
    parts.push_back(2);
    return ComplexFromParts(MakeInput(fill, ComplexPartDtype(dtype), parts, seed), dtype);
  }
  HostTensor t = Empty(dtype, shape);
  const std::int64_t n = t.NumElements();
  std::uint64_t state = seed;
  for (std::int64_t i = 0; i < n; ++i) {
    double value = 0;
    switch (fill.kind) {
      case InputFill::Kind::kRandom: {
        const double unit = static_cast<double>(SplitMix(state) >> 11) * 0x1.0p-53;  // [0, 1)
        value = fill.min + unit * (fill.max - fill.min);
        if (!IsFloating(dtype)) value = std::floor(value);
        break;
      }
      case InputFill::Kind::kValues:
        value = Resolve(fill.values[static_cast<std::size_t>(i) % fill.values.size()], dtype);
        break;
      case InputFill::Kind::kRange: value = fill.start + fill.step * static_cast<double>(i); break;
    }
    WriteElement(dtype, t.bytes.data(), i, value);
  }
  return t;
}

HostTensor MakeLiteral(const std::vector<Number>& values, TF_DataType dtype,
                       const core::Shape& shape) {
  HostTensor t = Empty(dtype, shape);
  for (std::int64_t i = 0; i < t.NumElements() && i < static_cast<std::int64_t>(values.size());
       ++i) {
    WriteElement(dtype, t.bytes.data(), i, Resolve(values[static_cast<std::size_t>(i)], dtype));
  }
  return t;
}

std::string IndexString(const core::Shape& shape, std::int64_t flat) {
  std::vector<std::int64_t> index(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    if (shape[d] == 0) break;
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  std::string text = "[";
  for (std::size_t d = 0; d < index.size(); ++d) text += (d ? "," : "") + std::to_string(index[d]);
  return text + "]";
}

std::string ValueString(TF_DataType dtype, double value) {
  char buffer[64];
  if (!IsFloating(dtype) && !IsComplex(dtype) && std::isfinite(value)) {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.9g", value);
  }
  return buffer;
}

std::string ElementString(const HostTensor& tensor, std::int64_t index) {
  if (tensor.dtype == TF_STRING) {
    const auto at = static_cast<std::size_t>(index);
    return at < tensor.strings.size() ? QuotedString(tensor.strings[at]) : "?";
  }
  if (!IsComplex(tensor.dtype)) return ValueString(tensor.dtype, tensor.At(index));
  const HostTensor parts = ComplexParts(tensor);
  return ComplexText(tensor.dtype, parts.At(2 * index), parts.At(2 * index + 1));
}

std::string ElementsString(const HostTensor& tensor, std::int64_t first, std::int64_t count) {
  const std::int64_t end = std::min(tensor.NumElements(), first + count);
  std::string text = "[";
  for (std::int64_t i = first; i < end; ++i)
    text += (i > first ? ", " : "") + ElementString(tensor, i);
  return text + (end < tensor.NumElements() ? ", ...]" : "]");
}

std::optional<Mismatch> CompareValues(const HostTensor& expected, const HostTensor& actual,
                                      const Tolerance& tolerance) {
  if (IsComplex(expected.dtype)) return CompareComplexValues(expected, actual, tolerance);
  std::optional<Mismatch> worst;
  double worst_excess = 1.0;
  std::int64_t mismatched = 0;
  const std::int64_t n = std::min(expected.NumElements(), actual.NumElements());
  for (std::int64_t i = 0; i < n; ++i) {
    const double e = expected.At(i), a = actual.At(i);
    const double excess = ToleranceExcess(expected.dtype, e, a, tolerance);
    if (excess <= 1.0) continue;
    ++mismatched;
    if (!worst || excess > worst_excess) {
      worst = Mismatch{i, IndexString(expected.shape, i), e, a, 0};
      worst_excess = excess;
    }
  }
  if (worst) worst->mismatched = mismatched;
  return worst;
}

std::optional<Mismatch> CompareZeroSigns(const HostTensor& expected, const HostTensor& actual) {
  if (IsComplex(expected.dtype)) {  // per part, named as a part
    std::optional<Mismatch> first = CompareZeroSigns(ComplexParts(expected), ComplexParts(actual));
    if (first) {
      first->index = ComplexPartIndex(expected.shape, first->flat_index);
      first->flat_index /= 2;
    }
    return first;
  }
  if (!IsFloating(expected.dtype)) return std::nullopt;
  std::optional<Mismatch> first;
  const std::int64_t n = std::min(expected.NumElements(), actual.NumElements());
  for (std::int64_t i = 0; i < n; ++i) {
    const double e = expected.At(i), a = actual.At(i);
    if (e != 0 || a != 0 || std::signbit(e) == std::signbit(a)) continue;
    if (!first) first = Mismatch{i, IndexString(expected.shape, i), e, a, 0};
    ++first->mismatched;
  }
  return first;
}

bool OpDefinesZeroSign(std::string_view op) {
  static constexpr std::array<std::string_view, 14> kOps = {
      "AddV2", "Sub",  "Mul",     "RealDiv",  "Neg",  "Abs",       "Square",
      "Sqrt",  "Tanh", "BiasAdd", "Identity", "Fill", "Transpose", "ZerosLike"};
  return std::find(kOps.begin(), kOps.end(), op) != kOps.end();
}

bool SameResult(const HostTensor& a, const HostTensor& b) {
  if (a.dtype == TF_STRING || b.dtype == TF_STRING) return a == b;
  if (a.dtype != b.dtype || a.shape != b.shape || a.bytes.size() != b.bytes.size()) return false;
  if (a.bytes == b.bytes) return true;
  if (IsComplex(a.dtype)) return SameResult(ComplexParts(a), ComplexParts(b));
  if (!IsFloating(a.dtype)) return false;
  for (std::int64_t i = 0; i < a.NumElements(); ++i) {
    const double x = a.At(i), y = b.At(i);
    if (std::isnan(x) && std::isnan(y)) continue;
    if (x != y || std::signbit(x) != std::signbit(y)) return false;
  }
  return true;
}

}  // namespace conformance::kernels
