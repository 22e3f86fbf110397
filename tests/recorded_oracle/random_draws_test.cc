// The judgement of stateful random draws (harness/kernels/random_draws.h) on draws made here:
// a correct generator of each distribution passes, and each way a draw can be wrong is named.
#include "kernels/random_draws.h"

#include <cmath>
#include <functional>
#include <random>

#include <gtest/gtest.h>

#include "kernels/dtype_values.h"

namespace conformance::kernels {
namespace {

const StatefulRandomOp& Op(std::string_view name) {
  const StatefulRandomOp* op = FindStatefulRandomOp(name);
  EXPECT_NE(op, nullptr) << name;
  return *op;
}

HostTensor Draw(TF_DataType dtype, const std::function<double()>& next) {
  HostTensor draw{dtype, {64, 64}, std::vector<std::uint8_t>(4096 * ElementSize(dtype))};
  for (std::int64_t i = 0; i < 4096; ++i) WriteElement(dtype, draw.bytes.data(), i, next());
  return draw;
}

std::optional<std::string> Judge(std::string_view op, TF_DataType dtype,
                                 const std::function<double()>& next) {
  const CaseSpec spec = DrawCase(Op(op), dtype, TF_INT32);
  return JudgeDraw(Op(op), spec, Draw(dtype, next));
}

TEST(RandomDraws, CorrectGeneratorsPass) {
  // NOLINTNEXTLINE(cert-msc32-c,cert-msc51-cpp): a fixed seed, so a failure reproduces
  std::mt19937_64 generator(7);
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
  // NOLINTNEXTLINE(cert-msc32-c,cert-msc51-cpp): a fixed seed, so a failure reproduces
  std::mt19937_64 generator(11);
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
  // NOLINTNEXTLINE(cert-msc32-c,cert-msc51-cpp): a fixed seed, so a failure reproduces
  std::mt19937_64 generator(3);
  std::uniform_real_distribution<double> unit(0, 1);
  const HostTensor first = Draw(TF_HALF, [&] { return unit(generator); });
  const HostTensor second = Draw(TF_HALF, [&] { return unit(generator); });
  EXPECT_EQ(JudgeSuccessiveDraws(first, second), std::nullopt);  // half: the coarsest values
  const auto again = JudgeSuccessiveDraws(first, first);
  ASSERT_TRUE(again.has_value());
  EXPECT_NE(again->find("4096 of 4096 elements equal"), std::string::npos) << *again;
}

TEST(RandomDraws, OnlyStatefulRandomOpsAreJudgedByDraws) {
  EXPECT_EQ(FindStatefulRandomOp("StatelessRandomUniform"), nullptr);  // exact for a seed
  EXPECT_EQ(FindStatefulRandomOp("AddV2"), nullptr);
  EXPECT_EQ(Op("RandomUniformInt").output_attr, "Tout");
}

}  // namespace
}  // namespace conformance::kernels
