#include "kernels/random_draws.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "kernels/clock_readings.h"
#include "kernels/dtype_values.h"
#include "kernels/random_choices.h"
#include "kernels/random_samples.h"

namespace conformance::kernels {
namespace {

// ---- RandomUniform, RandomStandardNormal, TruncatedNormal, RandomUniformInt ------------------
// A [64, 64] draw, its mean and variance within six standard errors of the distribution's (a
// correct generator is outside about once in 5 * 10^8 draws: the sample moments of 4096 draws
// of these light-tailed distributions are normal to well beyond that).

enum class Distribution { kUniformUnit, kStandardNormal, kTruncatedNormal, kUniformInt };

constexpr std::int64_t kRows = 64, kCols = 64;
constexpr std::int64_t kIntMax = 1000;  // RandomUniformInt draws in [0, kIntMax)
constexpr double kStandardErrors = 6.0;

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

template <Distribution kDistribution>
std::vector<CaseSpec> MomentCases(TF_DataType dtype, const TypeConstraints& types) {
  const TF_DataType shape_dtype = TypeOr(types, "T", TF_INT32);
  CaseSpec spec;
  spec.attrs[kDistribution == Distribution::kUniformInt ? "Tout" : "dtype"] =
      core::AttrValue(dtype);
  spec.attrs["T"] = core::AttrValue(shape_dtype);
  spec.inputs.push_back({"shape", Values(shape_dtype, {2}, {kRows, kCols})});
  if (kDistribution == Distribution::kUniformInt) {
    spec.inputs.push_back({"minval", Values(dtype, {}, {0})});
    spec.inputs.push_back({"maxval", Values(dtype, {}, {kIntMax})});
  }
  spec.outputs.push_back({"output", dtype});
  return {spec};
}

template <Distribution kDistribution>
std::optional<std::string> JudgeMoments(const CaseSpec& spec, const Outputs& outputs) {
  const HostTensor& draw = *outputs.front();
  const TF_DataType dtype = spec.outputs.front().dtype;
  if (draw.dtype != dtype)
    return "the draw has dtype " + DtypeName(draw.dtype) + ", not " + DtypeName(dtype);
  if (draw.shape != core::Shape{kRows, kCols})
    return "the draw's shape is not the requested [64,64]";
  const std::int64_t n = draw.NumElements();
  double sum = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double value = draw.At(i);
    if (const std::string why = InSupport(kDistribution, value); !why.empty()) {
      return "element " + IndexString(draw.shape, i) + " is " + ValueString(dtype, value) + ", " +
             why;
    }
    sum += value;
  }
  const double mean = sum / static_cast<double>(n);
  double squares = 0;
  for (std::int64_t i = 0; i < n; ++i) squares += (draw.At(i) - mean) * (draw.At(i) - mean);
  const double variance = squares / static_cast<double>(n - 1);
  const Moments expected = MomentsOf(kDistribution);
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

std::optional<std::string> FirstOutputRepeated(const CaseSpec& /*spec*/, const Outputs& first,
                                               const Outputs& second) {
  return MostlyRepeated(first, second, 0);
}

template <Distribution kDistribution>
constexpr DrawKind kMomentDraws{MomentCases<kDistribution>, JudgeMoments<kDistribution>,
                                FirstOutputRepeated};

// StatefulStandardNormal, the op before StatefulStandardNormalV2 (no algorithm input: Philox):
// its generator's state is a resource variable of three int64 words, which each draw moves on
// and which carries from one step to the next (random_units.cc), so a second step draws anew
// only where the first moved the state on. Measured through its successor with the Philox
// algorithm on the 2.21.0 wheel (random_draws_in_cpu.py): from the state {0, 0, 87654321} a
// [64,64] float draw has mean -0.005 and variance 0.965, the counter word moves to 2097152, and
// the next draw shares no element with it.
std::vector<CaseSpec> StatefulNormalCases(TF_DataType dtype, const TypeConstraints& types) {
  const TF_DataType shape_dtype = TypeOr(types, "shape_dtype", TF_INT64);
  CaseSpec spec;
  spec.attrs["dtype"] = core::AttrValue(dtype);
  spec.attrs["shape_dtype"] = core::AttrValue(shape_dtype);
  spec.inputs.push_back({"resource", Values(TF_INT64, {3}, {0, 0, 87654321}), true});
  spec.inputs.push_back({"shape", Values(shape_dtype, {2}, {kRows, kCols})});
  spec.outputs.push_back({"output", dtype});
  return {spec};
}

constexpr DrawKind kStatefulNormalDraws{
    StatefulNormalCases, JudgeMoments<Distribution::kStandardNormal>, FirstOutputRepeated};

}  // namespace

const std::vector<StatefulRandomOp>& StatefulRandomOps() {
  static const std::vector<StatefulRandomOp> ops = {
      {"RandomUniform", "dtype", TF_FLOAT, &kMomentDraws<Distribution::kUniformUnit>},
      {"RandomStandardNormal", "dtype", TF_FLOAT, &kMomentDraws<Distribution::kStandardNormal>},
      {"TruncatedNormal", "dtype", TF_FLOAT, &kMomentDraws<Distribution::kTruncatedNormal>},
      {"RandomUniformInt", "Tout", TF_INT32, &kMomentDraws<Distribution::kUniformInt>},
      {"Multinomial", "T", TF_FLOAT, &kCategoricalDraws},
      {"RandomGamma", "T", TF_FLOAT, &kGammaDraws},
      {"RandomPoissonV2", "dtype", TF_INT64, &kPoissonDraws},
      {"RandomPoisson", "dtype", TF_FLOAT, &kRatePoissonDraws},
      {"StatefulStandardNormal", "dtype", TF_FLOAT, &kStatefulNormalDraws},
      {"ParameterizedTruncatedNormal", "dtype", TF_FLOAT, &kBoundedNormalDraws},
      {"NonDeterministicInts", "dtype", TF_INT64, &kNondeterministicInts},
      {"AllCandidateSampler", "", TF_INT64, &kAllCandidates},
      {"FixedUnigramCandidateSampler", "", TF_INT64, &kFixedUnigramCandidates},
      {"LearnedUnigramCandidateSampler", "", TF_INT64, &kRangeCandidates},
      {"LogUniformCandidateSampler", "", TF_INT64, &kRangeCandidates},
      {"ThreadUnsafeUnigramCandidateSampler", "", TF_INT64, &kRangeCandidates},
      {"UniformCandidateSampler", "", TF_INT64, &kRangeCandidates},
      {"SampleDistortedBoundingBox", "T", TF_INT32, &kCrops},
      {"SampleDistortedBoundingBoxV2", "T", TF_INT32, &kCropsV2},
      // Not random, but as unrepeatable: the wall clock (clock_readings.h).
      {"Timestamp", "", TF_DOUBLE, &kClockReadings},
  };
  return ops;
}

const StatefulRandomOp* FindStatefulRandomOp(std::string_view op) {
  for (const StatefulRandomOp& entry : StatefulRandomOps()) {
    if (entry.op == op) return &entry;
  }
  return nullptr;
}

std::vector<CaseSpec> DrawCases(const StatefulRandomOp& random_op, TF_DataType dtype,
                                const TypeConstraints& types) {
  std::vector<CaseSpec> cases = random_op.kind->cases(dtype, types);
  for (CaseSpec& spec : cases) {
    spec.op = std::string(random_op.op);
    // Seeded: a kernel that reseeds each compute repeats itself, which a fresh seed would hide.
    spec.attrs["seed"] = core::AttrValue(std::int64_t{87654321});
    spec.attrs["seed2"] = core::AttrValue(std::int64_t{12345});
    // No seed attrs: nothing to seed (StatefulStandardNormal's seed is its state variable).
    if (random_op.op == "NonDeterministicInts" || random_op.op == "StatefulStandardNormal" ||
        random_op.op == "Timestamp") {
      spec.attrs.erase("seed");
      spec.attrs.erase("seed2");
    }
  }
  return cases;
}

std::optional<std::string> JudgeDraw(const StatefulRandomOp& random_op, const CaseSpec& spec,
                                     const Outputs& draw) {
  if (draw.size() != spec.outputs.size())
    return "the kernel set " + std::to_string(draw.size()) + " outputs, not " +
           std::to_string(spec.outputs.size());
  for (std::size_t i = 0; i < draw.size(); ++i) {
    if (!draw[i]) return "output '" + spec.outputs[i].name + "' was never set";
  }
  return random_op.kind->judge(spec, draw);
}

std::optional<std::string> JudgeSuccessiveDraws(const StatefulRandomOp& random_op,
                                                const CaseSpec& spec, const Outputs& first,
                                                const Outputs& second) {
  if (random_op.kind->successive == nullptr) return std::nullopt;
  return random_op.kind->successive(spec, first, second);
}

std::optional<std::string> MostlyRepeated(const Outputs& first, const Outputs& second,
                                          std::size_t output) {
  if (output >= first.size() || output >= second.size() || !first[output] || !second[output])
    return std::nullopt;
  const HostTensor& a = *first[output];
  const HostTensor& b = *second[output];
  if (a.dtype != b.dtype || a.shape != b.shape) return std::nullopt;
  const std::int64_t n = a.NumElements();
  const std::size_t width = ElementSize(a.dtype);
  std::int64_t equal = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const auto at = static_cast<std::ptrdiff_t>(static_cast<std::size_t>(i) * width);
    equal +=
        std::equal(a.bytes.begin() + at, a.bytes.begin() + at + static_cast<std::ptrdiff_t>(width),
                   b.bytes.begin() + at);
  }
  if (n == 0 || 2 * equal < n) return std::nullopt;
  return "a second compute of the same kernel instance drew the same values again (" +
         std::to_string(equal) + " of " + std::to_string(n) +
         " elements equal): TensorFlow reuses a node's kernel, so every step's dropout mask, "
         "noise or initial value repeats the first";
}

TF_DataType TypeOr(const TypeConstraints& types, std::string_view attr, TF_DataType otherwise) {
  for (const auto& [name, dtype] : types) {
    if (name == attr) return static_cast<TF_DataType>(dtype);
  }
  return otherwise;
}

HostTensor Values(TF_DataType dtype, const core::Shape& shape, const std::vector<double>& values) {
  HostTensor tensor{dtype, shape, std::vector<std::uint8_t>(values.size() * ElementSize(dtype))};
  for (std::size_t i = 0; i < values.size(); ++i)
    WriteElement(dtype, tensor.bytes.data(), static_cast<std::int64_t>(i), values[i]);
  return tensor;
}

std::optional<std::string> DtypeAndShape(const HostTensor& tensor, std::string_view name,
                                         TF_DataType dtype, const core::Shape& shape) {
  const auto text = [](const core::Shape& dims) {
    std::string out = "[";
    for (std::size_t i = 0; i < dims.size(); ++i)
      out += (i == 0 ? "" : ",") + std::to_string(dims[i]);
    return out + "]";
  };
  if (tensor.dtype != dtype)
    return "output '" + std::string(name) + "' has dtype " + DtypeName(tensor.dtype) + ", not " +
           DtypeName(dtype);
  if (tensor.shape != shape)
    return "output '" + std::string(name) + "' has shape " + text(tensor.shape) + ", not " +
           text(shape);
  return std::nullopt;
}

const HostTensor& InputOf(const CaseSpec& spec, std::string_view name) {
  for (const CaseInput& input : spec.inputs) {
    if (input.name == name) return input.value;
  }
  static const HostTensor kNone;
  return kNone;
}

std::string DrawNumber(double value) {
  if (!std::isfinite(value)) return std::isnan(value) ? "nan" : value < 0 ? "-inf" : "inf";
  std::string text = std::to_string(value);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

std::int64_t IntAttr(const CaseSpec& spec, std::string_view name) {
  const auto found = spec.attrs.find(name);
  if (found == spec.attrs.end()) return 0;
  const auto* value = std::get_if<std::int64_t>(&found->second);
  return value == nullptr ? 0 : *value;
}

}  // namespace conformance::kernels
