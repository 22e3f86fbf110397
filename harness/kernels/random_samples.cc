#include "kernels/random_samples.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "kernels/dtype_values.h"
#include "kernels/tail_bounds.h"

namespace conformance::kernels {
namespace {

// Per comparison of a mean with its bound: a few per cell, so below 10^-6 per run.
constexpr double kMiss = 1e-8;
constexpr double kInf = std::numeric_limits<double>::infinity();

// How far a mean of 16-bit floats may be off by the rounding of each draw alone (2^-9 of the
// largest magnitude: half rounds to 2^-11 of it, bfloat16 to 2^-8, which the bounds absorb).
double Rounding(TF_DataType dtype, double magnitude) {
  if (!IsFloating(dtype) || ElementSize(dtype) != 2) return 0;
  return magnitude * (dtype == TF_BFLOAT16 ? 0x1p-7 : 0x1p-9);
}

std::optional<std::string> FreshFirstOutput(const CaseSpec& /*spec*/, const Outputs& first,
                                            const Outputs& second) {
  return MostlyRepeated(first, second, 0);
}

// ---- Multinomial --------------------------------------------------------------------------
constexpr std::int64_t kClasses = 10, kSamples = 1000;

std::vector<double> Logits() {
  std::vector<double> logits;
  logits.reserve(4 * kClasses);
  for (int k = 0; k < kClasses; ++k) logits.push_back(k == 3 ? -kInf : 0.1 * k);
  for (int k = 0; k < kClasses; ++k) logits.push_back(k == 0 || k == 3 ? -kInf : 0.0);
  for (int k = 0; k < kClasses; ++k) logits.push_back(k == 7 ? 0.0 : -kInf);  // class 7 only
  for (double logit : {0.5, -0.3, 0.9, -kInf, 0.1, -0.7, 0.2, 0.4, -0.1, -kInf})
    logits.push_back(logit);
  return logits;
}

std::vector<CaseSpec> CategoricalCases(TF_DataType dtype, const TypeConstraints& types) {
  std::vector<CaseSpec> cases;
  // The registration's output_dtype, else both: int64 (the default) and int32.
  std::vector<TF_DataType> outputs = {TypeOr(types, "output_dtype", TF_INT64)};
  if (TypeOr(types, "output_dtype", TF_FLOAT) == TF_FLOAT) outputs.push_back(TF_INT32);
  for (TF_DataType output : outputs) {
    CaseSpec spec;
    spec.attrs["T"] = core::AttrValue(dtype);
    spec.attrs["output_dtype"] = core::AttrValue(output);
    spec.inputs.push_back({"logits", Values(dtype, {4, kClasses}, Logits())});
    spec.inputs.push_back({"num_samples", Values(TF_INT32, {}, {kSamples})});
    spec.outputs.push_back({"output", output});
    cases.push_back(std::move(spec));
  }
  return cases;
}

std::optional<std::string> JudgeCategorical(const CaseSpec& spec, const Outputs& draw) {
  const HostTensor& logits = InputOf(spec, "logits");
  const HostTensor& output = *draw.front();
  const std::int64_t rows = logits.shape[0], classes = logits.shape[1];
  const std::int64_t samples = InputOf(spec, "num_samples").At(0);
  if (auto wrong = DtypeAndShape(output, "output", spec.outputs.front().dtype, {rows, samples}))
    return wrong;
  for (std::int64_t i = 0; i < output.NumElements(); ++i) {
    const double drawn = output.At(i);
    const std::int64_t row = i / samples;
    if (!(drawn >= 0 && drawn < static_cast<double>(classes))) {
      return "element " + IndexString(output.shape, i) + " is " + DrawNumber(drawn) +
             ", not a class of [0, " + std::to_string(classes) + ")";
    }
    const double logit = logits.At(row * classes + static_cast<std::int64_t>(drawn));
    if (std::isinf(logit) && logit < 0) {
      return "element " + IndexString(output.shape, i) + " is class " + DrawNumber(drawn) +
             ", whose logit in row " + std::to_string(row) +
             " is -inf: a class of probability 0 was drawn";
    }
  }
  return std::nullopt;
}

// ---- RandomGamma and RandomPoissonV2: column means of [4096, 3] ------------------------------
constexpr std::int64_t kDraws = 4096;

// Column c's mean against `expected[c]` within the bounds `bounds(n * expected[c])`.
std::optional<std::string> ColumnMeans(const HostTensor& output,
                                       const std::vector<double>& expected,
                                       RelativeBounds (*bounds)(double, double), const char* what) {
  const auto columns = static_cast<std::int64_t>(expected.size());
  for (std::int64_t c = 0; c < columns; ++c) {
    double sum = 0;
    for (std::int64_t r = 0; r < kDraws; ++r) sum += output.At(r * columns + c);
    const double mean = sum / kDraws;
    const double target = expected[static_cast<std::size_t>(c)];
    const RelativeBounds relative = bounds(kDraws * target, kMiss);
    const double slack = Rounding(output.dtype, target);
    const double low = target * (1 - relative.below) - slack;
    const double high = target * (1 + relative.above) + slack;
    if (mean < low || mean > high) {
      return "the mean of column " + std::to_string(c) + "'s 4096 draws is " + DrawNumber(mean) +
             ", outside [" + DrawNumber(low) + ", " + DrawNumber(high) + "] around " + what + " " +
             DrawNumber(target) +
             " (a Chernoff bound a correct generator misses less than once in " + "10^8)";
    }
  }
  return std::nullopt;
}

std::vector<double> Column(const HostTensor& tensor) {
  std::vector<double> values;
  for (std::int64_t i = 0; i < tensor.NumElements(); ++i) values.push_back(tensor.At(i));
  return values;
}

std::vector<CaseSpec> GammaCases(TF_DataType dtype, const TypeConstraints& types) {
  const TF_DataType shape_dtype = TypeOr(types, "S", TF_INT32);
  CaseSpec spec;
  spec.attrs["T"] = core::AttrValue(dtype);
  spec.attrs["S"] = core::AttrValue(shape_dtype);
  spec.inputs.push_back({"shape", Values(shape_dtype, {1}, {kDraws})});
  spec.inputs.push_back({"alpha", Values(dtype, {3}, {0.5, 1, 4})});
  spec.outputs.push_back({"output", dtype});
  return {spec};
}

std::optional<std::string> JudgeGamma(const CaseSpec& spec, const Outputs& draw) {
  const HostTensor& output = *draw.front();
  const std::vector<double> alpha = Column(InputOf(spec, "alpha"));
  const auto columns = static_cast<std::int64_t>(alpha.size());
  if (auto wrong = DtypeAndShape(output, "output", spec.outputs.front().dtype, {kDraws, columns}))
    return wrong;
  // Half's smallest subnormal is 2^-24: a Gamma(0.5) draw is below it about once in 5000.
  const bool zero_allowed = output.dtype == TF_HALF;
  for (std::int64_t i = 0; i < output.NumElements(); ++i) {
    const double value = output.At(i);
    if (!std::isfinite(value) || value < 0 || (value == 0 && !zero_allowed)) {
      return "element " + IndexString(output.shape, i) + " is " + ValueString(output.dtype, value) +
             ", not a positive finite Gamma draw";
    }
  }
  return ColumnMeans(output, alpha, GammaSumBounds, "alpha");
}

std::vector<CaseSpec> PoissonCases(TF_DataType dtype, const TypeConstraints& types) {
  const TF_DataType shape_dtype = TypeOr(types, "S", TF_INT32);
  const TF_DataType rate_dtype = TypeOr(types, "R", TF_DOUBLE);
  CaseSpec spec;
  spec.attrs["dtype"] = core::AttrValue(dtype);
  spec.attrs["S"] = core::AttrValue(shape_dtype);
  spec.attrs["R"] = core::AttrValue(rate_dtype);
  spec.inputs.push_back({"shape", Values(shape_dtype, {1}, {kDraws})});
  spec.inputs.push_back({"rate", Values(rate_dtype, {3}, {0.5, 4, 30})});
  spec.outputs.push_back({"output", dtype});
  return {spec};
}

// RandomPoisson, the op before RandomPoissonV2: the rate is of the draws' dtype (no R attr),
// a floating dtype only. Measured through RandomPoissonV2 with R = dtype on the 2.21.0 wheel:
// column means 0.4995, 4.06 and 29.89 (half), every draw a count, 22% of a second step's
// elements equal to the first's (mostly the zeros of rate 0.5).
std::vector<CaseSpec> RatePoissonCases(TF_DataType dtype, const TypeConstraints& types) {
  const TF_DataType shape_dtype = TypeOr(types, "S", TF_INT32);
  CaseSpec spec;
  spec.attrs["dtype"] = core::AttrValue(dtype);
  spec.attrs["S"] = core::AttrValue(shape_dtype);
  spec.inputs.push_back({"shape", Values(shape_dtype, {1}, {kDraws})});
  spec.inputs.push_back({"rate", Values(dtype, {3}, {0.5, 4, 30})});
  spec.outputs.push_back({"output", dtype});
  return {spec};
}

std::optional<std::string> JudgePoisson(const CaseSpec& spec, const Outputs& draw) {
  const HostTensor& output = *draw.front();
  const std::vector<double> rate = Column(InputOf(spec, "rate"));
  const auto columns = static_cast<std::int64_t>(rate.size());
  if (auto wrong = DtypeAndShape(output, "output", spec.outputs.front().dtype, {kDraws, columns}))
    return wrong;
  for (std::int64_t i = 0; i < output.NumElements(); ++i) {
    const double value = output.At(i);
    if (!std::isfinite(value) || value < 0 || std::floor(value) != value) {
      return "element " + IndexString(output.shape, i) + " is " + ValueString(output.dtype, value) +
             ", not a count (a non-negative integer)";
    }
  }
  return ColumnMeans(output, rate, PoissonSumBounds, "the rate");
}

// ---- ParameterizedTruncatedNormal ------------------------------------------------------------
constexpr std::int64_t kPerRow = 1024;
struct Cut {
  double mean, stdev, low, high;
};
constexpr std::array<Cut, 4> kCuts{{{0, 1, -1, 1},     // around the mean
                                    {1, 0.5, 0.5, 2},  // one-sided
                                    {-2, 2, -3, 0},    // wide
                                    {0, 1, 2, 3}}};    // a tail, 2 to 3 deviations out

std::vector<CaseSpec> BoundedNormalCases(TF_DataType dtype, const TypeConstraints& types) {
  const TF_DataType shape_dtype = TypeOr(types, "T", TF_INT32);
  CaseSpec spec;
  spec.attrs["dtype"] = core::AttrValue(dtype);
  spec.attrs["T"] = core::AttrValue(shape_dtype);
  std::vector<double> means, stdevs, lows, highs;
  for (const Cut& cut : kCuts) {
    means.push_back(cut.mean);
    stdevs.push_back(cut.stdev);
    lows.push_back(cut.low);
    highs.push_back(cut.high);
  }
  const auto rows = static_cast<std::int64_t>(kCuts.size());
  spec.inputs.push_back({"shape", Values(shape_dtype, {2}, {static_cast<double>(rows), kPerRow})});
  spec.inputs.push_back({"means", Values(dtype, {rows}, means)});
  spec.inputs.push_back({"stdevs", Values(dtype, {rows}, stdevs)});
  spec.inputs.push_back({"minvals", Values(dtype, {rows}, lows)});
  spec.inputs.push_back({"maxvals", Values(dtype, {rows}, highs)});
  spec.outputs.push_back({"output", dtype});
  return {spec};
}

std::optional<std::string> JudgeBoundedNormal(const CaseSpec& spec, const Outputs& draw) {
  const HostTensor& output = *draw.front();
  const std::vector<double> means = Column(InputOf(spec, "means"));
  const std::vector<double> stdevs = Column(InputOf(spec, "stdevs"));
  const std::vector<double> lows = Column(InputOf(spec, "minvals"));
  const std::vector<double> highs = Column(InputOf(spec, "maxvals"));
  const auto rows = static_cast<std::int64_t>(means.size());
  if (auto wrong = DtypeAndShape(output, "output", spec.outputs.front().dtype, {rows, kPerRow}))
    return wrong;
  for (std::int64_t r = 0; r < rows; ++r) {
    const auto at = static_cast<std::size_t>(r);
    double sum = 0;
    for (std::int64_t k = 0; k < kPerRow; ++k) {
      const double value = output.At(r * kPerRow + k);
      if (!(value >= lows[at] && value <= highs[at])) {
        return "element " + IndexString(output.shape, r * kPerRow + k) + " is " +
               ValueString(output.dtype, value) + ", outside row " + std::to_string(r) +
               "'s [minval, maxval] = [" + DrawNumber(lows[at]) + ", " + DrawNumber(highs[at]) +
               "]";
      }
      sum += value;
    }
    const double mean = sum / kPerRow;
    const double expected = TruncatedNormalMean(means[at], stdevs[at], lows[at], highs[at]);
    const double bound = HoeffdingMeanBound(highs[at] - lows[at], kPerRow, kMiss) +
                         Rounding(output.dtype, std::max(std::abs(lows[at]), std::abs(highs[at])));
    if (std::abs(mean - expected) > bound) {
      return "the mean of row " + std::to_string(r) + "'s 1024 draws is " + DrawNumber(mean) +
             ", expected " + DrawNumber(expected) + " (the truncated normal's) within " +
             DrawNumber(bound) + " (Hoeffding's bound, missed less than once in 10^8)";
    }
  }
  return std::nullopt;
}

// ---- NonDeterministicInts --------------------------------------------------------------------
std::vector<CaseSpec> NondeterministicCases(TF_DataType dtype, const TypeConstraints& types) {
  const TF_DataType shape_dtype = TypeOr(types, "shape_dtype", TF_INT64);
  CaseSpec spec;
  spec.attrs["dtype"] = core::AttrValue(dtype);
  spec.attrs["shape_dtype"] = core::AttrValue(shape_dtype);
  spec.inputs.push_back({"shape", Values(shape_dtype, {2}, {64, 64})});
  spec.outputs.push_back({"output", dtype});
  return {spec};
}

std::optional<std::string> JudgeNondeterministic(const CaseSpec& spec, const Outputs& draw) {
  const HostTensor& output = *draw.front();
  if (auto wrong = DtypeAndShape(output, "output", spec.outputs.front().dtype, {64, 64}))
    return wrong;
  // Elements as their bits: 4096 draws of 32 bits or more repeat one another about 0.002 times.
  const std::size_t width = ElementSize(output.dtype);
  std::vector<std::uint64_t> bits(static_cast<std::size_t>(output.NumElements()));
  for (std::size_t i = 0; i < bits.size(); ++i)
    std::memcpy(&bits[i], output.bytes.data() + i * width, std::min(width, sizeof(bits[i])));
  std::sort(bits.begin(), bits.end());
  const auto distinct = std::unique(bits.begin(), bits.end()) - bits.begin();
  if (2 * static_cast<std::size_t>(distinct) <= bits.size()) {
    return "only " + std::to_string(distinct) + " of 4096 draws differ from one another: not " +
           "random integers of the dtype's full range";
  }
  return std::nullopt;
}

}  // namespace

double TruncatedNormalMean(double mean, double stdev, double low, double high) {
  const auto density = [](double x) { return std::exp(-x * x / 2) / std::sqrt(2 * M_PI); };
  const auto mass = [](double x) { return std::erfc(-x / std::sqrt(2.0)) / 2; };
  const double a = (low - mean) / stdev, b = (high - mean) / stdev;
  return mean + stdev * (density(a) - density(b)) / (mass(b) - mass(a));
}

const DrawKind kCategoricalDraws{CategoricalCases, JudgeCategorical, FreshFirstOutput};
const DrawKind kGammaDraws{GammaCases, JudgeGamma, FreshFirstOutput};
const DrawKind kPoissonDraws{PoissonCases, JudgePoisson, FreshFirstOutput};
const DrawKind kRatePoissonDraws{RatePoissonCases, JudgePoisson, FreshFirstOutput};
const DrawKind kBoundedNormalDraws{BoundedNormalCases, JudgeBoundedNormal, FreshFirstOutput};
const DrawKind kNondeterministicInts{NondeterministicCases, JudgeNondeterministic,
                                     FreshFirstOutput};

}  // namespace conformance::kernels
