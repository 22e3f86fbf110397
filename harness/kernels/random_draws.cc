#include "kernels/random_draws.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "kernels/dtype_values.h"

namespace conformance::kernels {
namespace {

constexpr std::int64_t kRows = 64, kCols = 64;
constexpr std::int64_t kIntMax = 1000;  // RandomUniformInt draws in [0, kIntMax)
// Six standard errors: a correct generator is outside about once in 5 * 10^8 draws.
constexpr double kStandardErrors = 6.0;

constexpr std::array<StatefulRandomOp, 4> kOps{{
    {"RandomUniform", "dtype", Distribution::kUniformUnit},
    {"RandomStandardNormal", "dtype", Distribution::kStandardNormal},
    {"TruncatedNormal", "dtype", Distribution::kTruncatedNormal},
    {"RandomUniformInt", "Tout", Distribution::kUniformInt},
}};

// The moments a draw of n elements is held to: mean, variance, and the fourth central moment,
// which sets how far a sample variance strays.
struct Moments {
  double mean, variance, fourth;
};

Moments MomentsOf(Distribution distribution) {
  switch (distribution) {
    case Distribution::kUniformUnit: return {0.5, 1.0 / 12, 1.0 / 80};
    case Distribution::kStandardNormal: return {0.0, 1.0, 3.0};
    case Distribution::kTruncatedNormal: {
      // The standard normal cut at +-2 (TensorFlow draws again beyond two standard deviations).
      const double density = std::exp(-2.0) / std::sqrt(2 * M_PI);  // phi(2)
      const double mass = std::erf(2.0 / std::sqrt(2.0));           // P(|x| < 2)
      const double variance = 1 - 4 * density / mass;
      const double fourth = 3 - 2 * (8 + 6) * density / mass;  // E[x^4]
      return {0.0, variance, fourth};
    }
    case Distribution::kUniformInt: {
      const double n = kIntMax;
      const double variance = (n * n - 1) / 12;
      return {(n - 1) / 2, variance, (3 * n * n - 7) * variance / 20};
    }
  }
  return {0, 1, 3};
}

std::string InSupport(Distribution distribution, double value) {
  switch (distribution) {
    case Distribution::kUniformUnit: return value >= 0 && value < 1 ? "" : "outside [0, 1)";
    case Distribution::kStandardNormal: return std::isfinite(value) ? "" : "not finite";
    case Distribution::kTruncatedNormal:
      return std::abs(value) <= 2 ? "" : "beyond two standard deviations";
    case Distribution::kUniformInt:
      return value >= 0 && value < kIntMax ? "" : "outside [minval, maxval) = [0, 1000)";
  }
  return "";
}

HostTensor Scalars(TF_DataType dtype, std::int64_t value) {
  HostTensor tensor{dtype, {}, std::vector<std::uint8_t>(ElementSize(dtype))};
  WriteElement(dtype, tensor.bytes.data(), 0, static_cast<double>(value));
  return tensor;
}

}  // namespace

const StatefulRandomOp* FindStatefulRandomOp(std::string_view op) {
  for (const StatefulRandomOp& entry : kOps) {
    if (entry.op == op) return &entry;
  }
  return nullptr;
}

CaseSpec DrawCase(const StatefulRandomOp& random_op, TF_DataType dtype, TF_DataType shape_dtype) {
  CaseSpec spec;
  spec.op = std::string(random_op.op);
  spec.attrs[std::string(random_op.output_attr)] = core::AttrValue(dtype);
  spec.attrs["T"] = core::AttrValue(shape_dtype);
  spec.attrs["seed"] = core::AttrValue(std::int64_t{87654321});
  spec.attrs["seed2"] = core::AttrValue(std::int64_t{12345});
  HostTensor shape{shape_dtype, {2}, std::vector<std::uint8_t>(2 * ElementSize(shape_dtype))};
  WriteElement(shape_dtype, shape.bytes.data(), 0, kRows);
  WriteElement(shape_dtype, shape.bytes.data(), 1, kCols);
  spec.inputs.push_back({"shape", std::move(shape)});
  if (random_op.distribution == Distribution::kUniformInt) {
    spec.inputs.push_back({"minval", Scalars(dtype, 0)});
    spec.inputs.push_back({"maxval", Scalars(dtype, kIntMax)});
  }
  spec.outputs.push_back({"output", dtype});
  return spec;
}

std::optional<std::string> JudgeDraw(const StatefulRandomOp& random_op, const CaseSpec& case_spec,
                                     const HostTensor& draw) {
  const TF_DataType dtype = case_spec.outputs.front().dtype;
  if (draw.dtype != dtype)
    return "the draw has dtype " + std::to_string(draw.dtype) + ", not " + std::to_string(dtype);
  if (draw.shape != core::Shape{kRows, kCols})
    return "the draw's shape is not the requested [64,64]";
  const std::int64_t n = draw.NumElements();
  double sum = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double value = draw.At(i);
    if (const std::string why = InSupport(random_op.distribution, value); !why.empty()) {
      return "element " + IndexString(draw.shape, i) + " is " + ValueString(dtype, value) + ", " +
             why;
    }
    sum += value;
  }
  const double mean = sum / static_cast<double>(n);
  double squares = 0;
  for (std::int64_t i = 0; i < n; ++i) squares += (draw.At(i) - mean) * (draw.At(i) - mean);
  const double variance = squares / static_cast<double>(n - 1);
  const Moments expected = MomentsOf(random_op.distribution);
  const double count = static_cast<double>(n);
  const double mean_bound = kStandardErrors * std::sqrt(expected.variance / count);
  const double variance_bound =
      kStandardErrors *
      std::sqrt((expected.fourth - expected.variance * expected.variance) / count);
  // A half or bfloat16 draw is rounded: allow the rounding's own share on top.
  const double rounding = IsFloating(dtype) && ElementSize(dtype) == 2 ? 0.01 : 0.0;
  if (std::abs(mean - expected.mean) > mean_bound + rounding) {
    return "the mean of 4096 draws is " + std::to_string(mean) + ", expected " +
           std::to_string(expected.mean) + " within " + std::to_string(mean_bound + rounding);
  }
  if (std::abs(variance - expected.variance) > variance_bound + rounding) {
    return "the variance of 4096 draws is " + std::to_string(variance) + ", expected " +
           std::to_string(expected.variance) + " within " +
           std::to_string(variance_bound + rounding);
  }
  return std::nullopt;
}

std::optional<std::string> JudgeSuccessiveDraws(const HostTensor& first, const HostTensor& second) {
  if (first.dtype != second.dtype || first.shape != second.shape) return std::nullopt;
  const std::int64_t n = first.NumElements();
  const std::size_t width = ElementSize(first.dtype);
  std::int64_t equal = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const auto at = static_cast<std::size_t>(i) * width;
    equal += std::equal(first.bytes.begin() + static_cast<std::ptrdiff_t>(at),
                        first.bytes.begin() + static_cast<std::ptrdiff_t>(at + width),
                        second.bytes.begin() + static_cast<std::ptrdiff_t>(at));
  }
  // A fresh draw repeats an element by chance in well under 1% of them (a half's 1024 values
  // in [0.5, 1) are the coarsest); half of them is a generator started over.
  if (2 * equal < n) return std::nullopt;
  return "a second compute of the same kernel instance drew the same values again (" +
         std::to_string(equal) + " of " + std::to_string(n) +
         " elements equal): TensorFlow reuses a node's kernel, so every step's dropout mask, "
         "noise or initial value repeats the first";
}

}  // namespace conformance::kernels
