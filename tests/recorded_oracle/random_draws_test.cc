// The judgement of stateful random draws (harness/kernels/random_draws.h) on draws made here:
// a correct generator of each distribution passes, and each way a draw can be wrong is named.
#include "kernels/random_draws.h"

#include <chrono>
#include <cmath>
#include <functional>
#include <random>

#include <gtest/gtest.h>

#include "kernels/dtype_values.h"
#include "kernels/random_samples.h"
#include "kernels/tail_bounds.h"

namespace conformance::kernels {
namespace {

const StatefulRandomOp& Op(std::string_view name) {
  const StatefulRandomOp* op = FindStatefulRandomOp(name);
  EXPECT_NE(op, nullptr) << name;
  return *op;
}

HostTensor Draw(TF_DataType dtype, const core::Shape& shape, const std::function<double()>& next) {
  HostTensor draw{dtype, shape, {}};
  draw.bytes.resize(static_cast<std::size_t>(draw.NumElements()) * ElementSize(dtype));
  for (std::int64_t i = 0; i < draw.NumElements(); ++i)
    WriteElement(dtype, draw.bytes.data(), i, next());
  return draw;
}

HostTensor Draw(TF_DataType dtype, const std::function<double()>& next) {
  return Draw(dtype, {64, 64}, next);
}

Outputs One(HostTensor tensor) {
  Outputs outputs;
  outputs.emplace_back(std::move(tensor));
  return outputs;
}

std::optional<std::string> Judge(std::string_view op, TF_DataType dtype,
                                 const std::function<double()>& next) {
  const CaseSpec spec = DrawCases(Op(op), dtype, {}).front();
  return JudgeDraw(Op(op), spec, One(Draw(dtype, next)));
}

// NOLINTNEXTLINE(cert-msc32-c,cert-msc51-cpp): fixed seeds, so a failure reproduces
std::mt19937_64 Generator(unsigned seed) { return std::mt19937_64(seed); }

TEST(RandomDraws, CorrectGeneratorsPass) {
  auto generator = Generator(7);
  std::uniform_real_distribution<double> unit(0, 1);
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> integers(0, 999);
  const auto truncated = [&] {
    for (;;) {
      const double x = normal(generator);
      if (std::abs(x) <= 2) return x;
    }
  };
  for (TF_DataType dtype : {TF_FLOAT, TF_DOUBLE, TF_HALF, TF_BFLOAT16}) {
    // A 16-bit draw is made on its own grid (k / 256 here), as TensorFlow fills the mantissa
    // bits: rounding a double to the nearest half could give 1.
    const bool narrow = ElementSize(dtype) == 2;
    EXPECT_EQ(Judge("RandomUniform", dtype,
                    [&] {
                      const double u = unit(generator);
                      return narrow ? std::floor(u * 256) / 256 : u;
                    }),
              std::nullopt);
    EXPECT_EQ(Judge("RandomStandardNormal", dtype, [&] { return normal(generator); }),
              std::nullopt);
    EXPECT_EQ(Judge("TruncatedNormal", dtype, truncated), std::nullopt);
  }
  for (TF_DataType dtype : {TF_INT32, TF_INT64}) {
    EXPECT_EQ(Judge("RandomUniformInt", dtype, [&] { return integers(generator); }), std::nullopt);
  }
}

TEST(RandomDraws, WrongDrawsAreNamed) {
  auto generator = Generator(11);
  std::uniform_real_distribution<double> unit(0, 1);
  std::normal_distribution<double> normal;
  // [0, 1] where it must be [0, 1): one 1.0 is enough.
  int count = 0;
  auto with_one =
      Judge("RandomUniform", TF_FLOAT, [&] { return ++count == 100 ? 1.0 : unit(generator); });
  ASSERT_TRUE(with_one.has_value());
  EXPECT_NE(with_one->find("outside [0, 1)"), std::string::npos) << *with_one;
  // A normal shifted by 0.5: its mean is off by 0.5, five times the bound.
  auto shifted = Judge("RandomStandardNormal", TF_FLOAT, [&] { return normal(generator) + 0.5; });
  ASSERT_TRUE(shifted.has_value());
  EXPECT_NE(shifted->find("the mean of 4096 draws"), std::string::npos) << *shifted;
  // A truncated normal that never resamples.
  auto untruncated = Judge("TruncatedNormal", TF_FLOAT, [&] { return normal(generator); });
  ASSERT_TRUE(untruncated.has_value());
  EXPECT_NE(untruncated->find("beyond two standard deviations"), std::string::npos);
  // Integers drawn in [0, 100) where [0, 1000) was asked: in range, but the mean is far off.
  auto narrow =
      Judge("RandomUniformInt", TF_INT32, [&] { return std::floor(unit(generator) * 100); });
  ASSERT_TRUE(narrow.has_value());
  EXPECT_NE(narrow->find("the mean"), std::string::npos) << *narrow;
}

TEST(RandomDraws, SuccessiveDrawsMustDiffer) {
  auto generator = Generator(3);
  std::uniform_real_distribution<double> unit(0, 1);
  const Outputs first = One(Draw(TF_HALF, [&] { return unit(generator); }));
  const Outputs second = One(Draw(TF_HALF, [&] { return unit(generator); }));
  const StatefulRandomOp& uniform = Op("RandomUniform");
  const CaseSpec spec = DrawCases(uniform, TF_HALF, {}).front();
  EXPECT_EQ(JudgeSuccessiveDraws(uniform, spec, first, second), std::nullopt);  // the coarsest
  const auto again = JudgeSuccessiveDraws(uniform, spec, first, first);
  ASSERT_TRUE(again.has_value());
  EXPECT_NE(again->find("4096 of 4096 elements equal"), std::string::npos) << *again;
}

TEST(RandomDraws, OnlyStatefulRandomOpsAreJudgedByDraws) {
  EXPECT_EQ(FindStatefulRandomOp("StatelessRandomUniform"), nullptr);  // exact for a seed
  EXPECT_EQ(FindStatefulRandomOp("AddV2"), nullptr);
  EXPECT_EQ(Op("RandomUniformInt").output_attr, "Tout");
  // The candidate samplers have no type attr: one int64 cell.
  EXPECT_EQ(Op("UniformCandidateSampler").output_attr, "");
  EXPECT_EQ(Op("UniformCandidateSampler").fixed_dtype, TF_INT64);
  EXPECT_EQ(StatefulRandomOps().size(), 20u);
}

// ---- the bounds ------------------------------------------------------------------------------

TEST(TailBounds, ChernoffExponentsMeetTheMissRate) {
  const double miss = 1e-8;
  for (double k : {16.0, 2048.0, 16384.0}) {
    const RelativeBounds gamma = GammaSumBounds(k, miss);
    EXPECT_NEAR(std::exp(-k * (gamma.above - std::log1p(gamma.above))), miss / 2, miss * 1e-6);
    EXPECT_NEAR(std::exp(-k * (-gamma.below - std::log1p(-gamma.below))), miss / 2, miss * 1e-6);
    const RelativeBounds poisson = PoissonSumBounds(k, miss);
    EXPECT_NEAR(std::exp(-k * ((1 + poisson.above) * std::log1p(poisson.above) - poisson.above)),
                miss / 2, miss * 1e-6);
  }
  // 2048 = 4096 draws of Gamma(0.5): within 13% below and 15% above.
  const RelativeBounds half = GammaSumBounds(2048, miss);
  EXPECT_GT(half.below, 0.12);
  EXPECT_LT(half.below, 0.14);
  EXPECT_GT(half.above, 0.14);
  EXPECT_LT(half.above, 0.16);
  EXPECT_NEAR(HoeffdingMeanBound(2, 1024, miss), 2 * std::sqrt(std::log(2e8) / 2048), 1e-12);
}

TEST(TailBounds, TruncatedNormalMeans) {
  EXPECT_NEAR(TruncatedNormalMean(0, 1, -1, 1), 0, 1e-12);
  EXPECT_NEAR(TruncatedNormalMean(1, 0.5, 0.5, 2), 1.11482, 1e-4);
  EXPECT_NEAR(TruncatedNormalMean(0, 1, 2, 3), 2.31582,
              1e-4);  // (phi(2) - phi(3)) / (Phi(3) - Phi(2))
}

// ---- the draws of distributions given by inputs ----------------------------------------------

// Multinomial's draws: a correct categorical sampler of the case's logits.
HostTensor Categorical(const CaseSpec& spec, std::mt19937_64& generator, bool clamp_inf) {
  const HostTensor& logits = InputOf(spec, "logits");
  const std::int64_t rows = logits.shape[0], classes = logits.shape[1];
  const std::int64_t samples = static_cast<std::int64_t>(InputOf(spec, "num_samples").At(0));
  std::vector<double> values;
  for (std::int64_t r = 0; r < rows; ++r) {
    std::vector<double> weights;
    for (std::int64_t k = 0; k < classes; ++k) {
      const double logit = logits.At(r * classes + k);
      weights.push_back(std::isinf(logit) ? (clamp_inf ? 0.05 : 0.0) : std::exp(logit));
    }
    std::discrete_distribution<int> classes_of(weights.begin(), weights.end());
    for (std::int64_t s = 0; s < samples; ++s) values.push_back(classes_of(generator));
  }
  std::size_t at = 0;
  return Draw(spec.outputs.front().dtype, {rows, samples}, [&] { return values[at++]; });
}

TEST(RandomDraws, MultinomialNeverDrawsAClassOfLogitMinusInf) {
  auto generator = Generator(5);
  const StatefulRandomOp& multinomial = Op("Multinomial");
  const auto cases = DrawCases(multinomial, TF_FLOAT, {});
  ASSERT_EQ(cases.size(), 2u);  // output_dtype int64 and int32
  for (const CaseSpec& spec : cases) {
    const Outputs first = One(Categorical(spec, generator, false));
    const Outputs second = One(Categorical(spec, generator, false));
    EXPECT_EQ(JudgeDraw(multinomial, spec, first), std::nullopt);
    EXPECT_EQ(JudgeSuccessiveDraws(multinomial, spec, first, second), std::nullopt);
    const auto clamped = JudgeDraw(multinomial, spec, One(Categorical(spec, generator, true)));
    ASSERT_TRUE(clamped.has_value());
    EXPECT_NE(clamped->find("is -inf: a class of probability 0 was drawn"), std::string::npos)
        << *clamped;
  }
  // The registration's output_dtype, where it fixes one, is the only case.
  EXPECT_EQ(DrawCases(multinomial, TF_FLOAT, {{"output_dtype", TF_INT32}}).size(), 1u);
}

TEST(RandomDraws, GammaAndPoissonMeansWithinTheirChernoffBounds) {
  auto generator = Generator(9);
  const StatefulRandomOp& gamma = Op("RandomGamma");
  const CaseSpec gamma_case = DrawCases(gamma, TF_FLOAT, {}).front();
  const std::vector<double> alpha = {0.5, 1, 4};
  const auto gamma_draw = [&](double scale) {
    std::size_t at = 0;
    std::vector<std::gamma_distribution<double>> columns;
    columns.reserve(alpha.size());
    for (double a : alpha) columns.emplace_back(a, scale);
    return One(Draw(TF_FLOAT, {4096, 3}, [&] { return columns[at++ % 3](generator); }));
  };
  EXPECT_EQ(JudgeDraw(gamma, gamma_case, gamma_draw(1.0)), std::nullopt);
  // A scale of 1.25 (a rate mistaken for a scale of 0.8): every mean 25% high.
  const auto scaled = JudgeDraw(gamma, gamma_case, gamma_draw(1.25));
  ASSERT_TRUE(scaled.has_value());
  EXPECT_NE(scaled->find("around alpha 0.5"), std::string::npos) << *scaled;

  const StatefulRandomOp& poisson = Op("RandomPoissonV2");
  for (TF_DataType dtype : {TF_INT64, TF_INT32, TF_HALF}) {
    const CaseSpec spec = DrawCases(poisson, dtype, {}).front();
    std::vector<std::poisson_distribution<int>> columns = {std::poisson_distribution<int>(0.5),
                                                           std::poisson_distribution<int>(4),
                                                           std::poisson_distribution<int>(30)};
    std::size_t at = 0;
    const Outputs draw = One(Draw(dtype, {4096, 3}, [&] { return columns[at++ % 3](generator); }));
    EXPECT_EQ(JudgeDraw(poisson, spec, draw), std::nullopt) << DtypeName(dtype);
  }
  const CaseSpec spec = DrawCases(poisson, TF_FLOAT, {}).front();
  std::normal_distribution<double> noise(0, 0.1);
  const auto fractional = JudgeDraw(
      poisson, spec, One(Draw(TF_FLOAT, {4096, 3}, [&] { return 3 + noise(generator); })));
  ASSERT_TRUE(fractional.has_value());
  EXPECT_NE(fractional->find("not a count"), std::string::npos) << *fractional;
}

// The ops 2.21.0 refuses: RandomPoisson's rates are of the draws' dtype, StatefulStandardNormal
// draws from a state variable (an input the case reads back nowhere: the next step starts where
// this one left it), without seed attrs.
TEST(RandomDraws, RemovedOpsDrawFromTheirRatesAndState) {
  auto generator = Generator(11);
  const StatefulRandomOp& poisson = Op("RandomPoisson");
  const CaseSpec spec = DrawCases(poisson, TF_HALF, {}).front();
  EXPECT_EQ(InputOf(spec, "rate").dtype, TF_HALF);
  EXPECT_FALSE(spec.attrs.contains("R"));
  std::vector<std::poisson_distribution<int>> columns = {std::poisson_distribution<int>(0.5),
                                                         std::poisson_distribution<int>(4),
                                                         std::poisson_distribution<int>(30)};
  std::size_t at = 0;
  EXPECT_EQ(JudgeDraw(poisson, spec,
                      One(Draw(TF_HALF, {4096, 3}, [&] { return columns[at++ % 3](generator); }))),
            std::nullopt);
  const StatefulRandomOp& normal = Op("StatefulStandardNormal");
  const CaseSpec state = DrawCases(normal, TF_FLOAT, {}).front();
  ASSERT_EQ(state.inputs.size(), 2u);
  EXPECT_TRUE(state.inputs[0].variable);
  EXPECT_EQ(state.inputs[0].value.dtype, TF_INT64);
  EXPECT_FALSE(state.attrs.contains("seed"));
  std::normal_distribution<double> draws;
  EXPECT_EQ(JudgeDraw(normal, state, One(Draw(TF_FLOAT, [&] { return draws(generator); }))),
            std::nullopt);
}

// Timestamp reads the wall clock: a reading now passes, seconds since boot do not, and a second
// step may not go back in time.
TEST(RandomDraws, TimestampReadsTheWallClockForward) {
  const StatefulRandomOp& clock = Op("Timestamp");
  const CaseSpec spec = DrawCases(clock, TF_DOUBLE, {}).front();
  EXPECT_TRUE(spec.inputs.empty());
  EXPECT_TRUE(spec.attrs.empty());
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  const auto reading = [](double seconds) {
    return One(Draw(TF_DOUBLE, {}, [&] { return seconds; }));
  };
  EXPECT_EQ(JudgeDraw(clock, spec, reading(now)), std::nullopt);
  const auto since_boot = JudgeDraw(clock, spec, reading(48000.5));
  ASSERT_TRUE(since_boot.has_value());
  EXPECT_NE(since_boot->find("not within 600 s of the wall clock"), std::string::npos)
      << *since_boot;
  EXPECT_EQ(JudgeSuccessiveDraws(clock, spec, reading(now), reading(now)), std::nullopt);
  const auto back = JudgeSuccessiveDraws(clock, spec, reading(now), reading(now - 1));
  ASSERT_TRUE(back.has_value());
  EXPECT_NE(back->find("before the first step's"), std::string::npos) << *back;
}

TEST(RandomDraws, ParameterizedTruncatedNormalStaysWithinItsBounds) {
  auto generator = Generator(13);
  const StatefulRandomOp& op = Op("ParameterizedTruncatedNormal");
  const CaseSpec spec = DrawCases(op, TF_FLOAT, {}).front();
  const HostTensor& means = InputOf(spec, "means");
  const HostTensor& stdevs = InputOf(spec, "stdevs");
  const HostTensor& lows = InputOf(spec, "minvals");
  const HostTensor& highs = InputOf(spec, "maxvals");
  std::int64_t at = 0;
  const auto draw = [&](bool truncate) {
    at = 0;
    return One(Draw(TF_FLOAT, {4, 1024}, [&] {
      const std::int64_t row = at++ / 1024;
      std::normal_distribution<double> normal(means.At(row), stdevs.At(row));
      for (;;) {
        const double x = normal(generator);
        if (!truncate || (x >= lows.At(row) && x <= highs.At(row))) return x;
      }
    }));
  };
  EXPECT_EQ(JudgeDraw(op, spec, draw(true)), std::nullopt);
  const auto untruncated = JudgeDraw(op, spec, draw(false));
  ASSERT_TRUE(untruncated.has_value());
  EXPECT_NE(untruncated->find("[minval, maxval]"), std::string::npos) << *untruncated;
}

Outputs Sampled(const std::vector<double>& ids, float count) {
  Outputs outputs;
  std::size_t at = 0;
  outputs.emplace_back(
      Draw(TF_INT64, {static_cast<std::int64_t>(ids.size())}, [&] { return ids[at++]; }));
  outputs.emplace_back(Draw(TF_FLOAT, {4, 2}, [&] { return count; }));
  outputs.emplace_back(
      Draw(TF_FLOAT, {static_cast<std::int64_t>(ids.size())}, [&] { return count; }));
  return outputs;
}

TEST(RandomDraws, CandidatesWithinRangeUniqueAndCounted) {
  auto generator = Generator(17);
  const StatefulRandomOp& uniform = Op("UniformCandidateSampler");
  const auto cases = DrawCases(uniform, TF_INT64, {});
  ASSERT_EQ(cases.size(), 2u);  // unique and not
  const CaseSpec& unique = cases.front();
  std::uniform_int_distribution<std::int64_t> ids(0, 999999);
  std::vector<double> drawn;
  drawn.reserve(64);
  for (int i = 0; i < 64; ++i) drawn.push_back(static_cast<double>(ids(generator)));
  EXPECT_EQ(JudgeDraw(uniform, unique, Sampled(drawn, 64e-6f)), std::nullopt);
  std::vector<double> again;
  again.reserve(64);
  for (int i = 0; i < 64; ++i) again.push_back(static_cast<double>(ids(generator)));
  EXPECT_EQ(JudgeSuccessiveDraws(uniform, unique, Sampled(drawn, 1), Sampled(again, 1)),
            std::nullopt);
  EXPECT_TRUE(JudgeSuccessiveDraws(uniform, unique, Sampled(drawn, 1), Sampled(drawn, 1)));
  std::vector<double> out_of_range = drawn;
  out_of_range[5] = 1000000;
  auto outside = JudgeDraw(uniform, unique, Sampled(out_of_range, 1));
  ASSERT_TRUE(outside.has_value());
  EXPECT_NE(outside->find("outside [0, 1000000)"), std::string::npos) << *outside;
  std::vector<double> repeated = drawn;
  repeated[7] = repeated[3];
  auto twice = JudgeDraw(uniform, unique, Sampled(repeated, 1));
  ASSERT_TRUE(twice.has_value());
  EXPECT_NE(twice->find("again although unique=true"), std::string::npos) << *twice;
  EXPECT_EQ(JudgeDraw(uniform, cases.back(), Sampled(repeated, 1)), std::nullopt);  // not unique
  auto zero = JudgeDraw(uniform, unique, Sampled(drawn, 0));
  ASSERT_TRUE(zero.has_value());
  EXPECT_NE(zero->find("outside (0, num_sampled]"), std::string::npos) << *zero;

  // FixedUnigram: a class of weight 0 (every class ending in 3) is never sampled.
  const StatefulRandomOp& fixed = Op("FixedUnigramCandidateSampler");
  const CaseSpec fixed_case = DrawCases(fixed, TF_INT64, {}).back();
  std::vector<double> small(64, 12);
  EXPECT_EQ(JudgeDraw(fixed, fixed_case, Sampled(small, 1)), std::nullopt);
  small[9] = 43;
  auto weightless = JudgeDraw(fixed, fixed_case, Sampled(small, 1));
  ASSERT_TRUE(weightless.has_value());
  EXPECT_NE(weightless->find("unigram weight is 0"), std::string::npos) << *weightless;

  // AllCandidateSampler: each class once, and nothing drawn to be fresh.
  const StatefulRandomOp& all = Op("AllCandidateSampler");
  const CaseSpec all_case = DrawCases(all, TF_INT64, {}).front();
  std::vector<double> every;
  for (int i = 63; i >= 0; --i) every.push_back(i);
  EXPECT_EQ(JudgeDraw(all, all_case, Sampled(every, 1)), std::nullopt);
  EXPECT_EQ(JudgeSuccessiveDraws(all, all_case, Sampled(every, 1), Sampled(every, 1)),
            std::nullopt);
  every[0] = 0;
  EXPECT_TRUE(JudgeDraw(all, all_case, Sampled(every, 1)).has_value());
}

Outputs Crop(TF_DataType dtype, double height, double width, double y, double x, double h,
             double w) {
  Outputs outputs;
  outputs.emplace_back(Values(dtype, {3}, {y, x, 0}));
  HostTensor size = Values(dtype, {3}, {h, w, 0});
  std::fill(size.bytes.end() - static_cast<std::ptrdiff_t>(ElementSize(dtype)), size.bytes.end(),
            0xFF);  // -1 in T: every channel
  outputs.emplace_back(std::move(size));
  outputs.emplace_back(
      Values(TF_FLOAT, {1, 1, 4}, {y / height, x / width, (y + h) / height, (x + w) / width}));
  return outputs;
}

TEST(RandomDraws, CropsInsideTheImageWithinTheirArea) {
  for (const char* name : {"SampleDistortedBoundingBox", "SampleDistortedBoundingBoxV2"}) {
    const StatefulRandomOp& op = Op(name);
    const auto cases = DrawCases(op, TF_INT32, {});
    ASSERT_EQ(cases.size(), 2u);
    const CaseSpec& no_boxes = cases.front();  // 3000x4000, area [0.05, 0.1]
    const Outputs crop = Crop(TF_INT32, 3000, 4000, 100, 200, 900, 1000);  // 0.075
    EXPECT_EQ(JudgeDraw(op, no_boxes, crop), std::nullopt) << name;
    EXPECT_EQ(JudgeDraw(op, no_boxes, Crop(TF_INT32, 3000, 4000, 0, 0, 3000, 4000)),
              std::nullopt);  // the whole image: no attempt succeeded
    auto outside = JudgeDraw(op, no_boxes, Crop(TF_INT32, 3000, 4000, 2500, 200, 900, 1000));
    ASSERT_TRUE(outside.has_value());
    EXPECT_NE(outside->find("is not a crop of the 3000x4000 image"), std::string::npos) << *outside;
    auto small = JudgeDraw(op, no_boxes, Crop(TF_INT32, 3000, 4000, 0, 0, 100, 100));
    ASSERT_TRUE(small.has_value());
    EXPECT_NE(small->find("outside area_range"), std::string::npos) << *small;
    EXPECT_TRUE(JudgeSuccessiveDraws(op, no_boxes, crop, crop).has_value());
    EXPECT_EQ(
        JudgeSuccessiveDraws(op, no_boxes, crop, Crop(TF_INT32, 3000, 4000, 101, 200, 900, 1000)),
        std::nullopt);
    // A box [0.1, 0.2, 0.6, 0.7] of which half must be covered: [300, 800] + [1500, 2000].
    const CaseSpec& boxed = cases.back();
    EXPECT_EQ(JudgeDraw(op, boxed, Crop(TF_INT32, 3000, 4000, 300, 800, 1500, 2000)), std::nullopt);
    auto uncovered = JudgeDraw(op, boxed, Crop(TF_INT32, 3000, 4000, 1500, 0, 1500, 2000));
    ASSERT_TRUE(uncovered.has_value());
    EXPECT_NE(uncovered->find("below min_object_covered"), std::string::npos) << *uncovered;
  }
  // uint8's 120x100 image: the same crop twice is no failure (too likely by chance).
  const StatefulRandomOp& v2 = Op("SampleDistortedBoundingBoxV2");
  const CaseSpec narrow = DrawCases(v2, TF_UINT8, {}).front();
  const Outputs crop = Crop(TF_UINT8, 120, 100, 10, 20, 30, 30);
  EXPECT_EQ(JudgeDraw(v2, narrow, crop), std::nullopt);
  EXPECT_EQ(JudgeSuccessiveDraws(v2, narrow, crop, crop), std::nullopt);
}

TEST(RandomDraws, NondeterministicIntsOfTheRequestedDtype) {
  auto generator = Generator(19);
  std::uniform_int_distribution<std::int64_t> bits(0, std::int64_t{1} << 30);
  const StatefulRandomOp& op = Op("NonDeterministicInts");
  for (TF_DataType dtype : {TF_INT64, TF_INT32, TF_UINT32}) {
    const CaseSpec spec = DrawCases(op, dtype, {}).front();
    EXPECT_FALSE(spec.attrs.contains("seed"));  // it has no seed attrs
    const Outputs draw = One(Draw(dtype, [&] { return static_cast<double>(bits(generator)); }));
    EXPECT_EQ(JudgeDraw(op, spec, draw), std::nullopt);
    EXPECT_TRUE(JudgeDraw(op, spec, One(Draw(dtype, [] { return 0; }))).has_value());
    EXPECT_TRUE(JudgeDraw(op, spec, One(Draw(dtype, {64, 32}, [] { return 0; }))).has_value());
  }
}

}  // namespace
}  // namespace conformance::kernels
