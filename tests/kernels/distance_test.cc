// What a value failure states: the tolerance applied and the distance of the worst element in
// units in the last place and in relative terms.
#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "kernels/value_distance.h"

namespace conformance::kernels {
namespace {

TEST(ValueDistance, FloatsInUlpAndRelative) {
  const float one = 1.0f;
  const float next = std::nextafter(std::nextafter(one, 2.0f), 2.0f);  // 2 ULP above 1
  const ValueDistance d = MeasureDistance(TF_FLOAT, one, next);
  ASSERT_TRUE(d.ulp);
  EXPECT_EQ(*d.ulp, 2u);
  ASSERT_TRUE(d.relative);
  EXPECT_NEAR(*d.relative, 2.0 * std::numeric_limits<float>::epsilon(), 1e-12);
  EXPECT_EQ(DistanceText(d), "2 ULP, relative 2.38e-07");
}

TEST(ValueDistance, DoublesAcrossZeroDoNotOverflow) {
  const double tiny = std::numeric_limits<double>::denorm_min();
  const ValueDistance d = MeasureDistance(TF_DOUBLE, -tiny, tiny);
  ASSERT_TRUE(d.ulp);
  EXPECT_EQ(*d.ulp, 2u);  // -denorm_min, (-)0, denorm_min
  const ValueDistance far = MeasureDistance(TF_DOUBLE, 1.0, 2.0);
  EXPECT_EQ(*far.ulp, std::uint64_t{1} << 52);
  EXPECT_EQ(DistanceText(far), "4503599627370496 ULP, relative 1");
}

TEST(ValueDistance, IntegersHaveNoUlp) {
  const ValueDistance d = MeasureDistance(TF_INT32, 4, 7);
  EXPECT_FALSE(d.ulp);
  EXPECT_EQ(DistanceText(d), "off by 3, relative 0.75");
}

TEST(ValueDistance, ZeroExpectedIsInfinitelyRelativeAndNanIsNotADistance) {
  const std::string from_zero = DistanceText(MeasureDistance(TF_FLOAT, 0.0, 1e-30));
  EXPECT_NE(from_zero.find(", relative inf"), std::string::npos) << from_zero;
  EXPECT_EQ(DistanceText(MeasureDistance(TF_FLOAT, 1.0, NAN)), "n/a (NaN or infinity)");
  EXPECT_EQ(DistanceText(MeasureDistance(TF_FLOAT, 1.0, INFINITY)), "n/a (NaN or infinity)");
}

TEST(ValueDistance, ToleranceText) {
  EXPECT_EQ(ToleranceText(Tolerance{}), "exact");
  EXPECT_EQ(ToleranceText(Tolerance{.rtol = 1e-5, .atol = 1e-6, .ulp = 4}),
            "rtol=1e-05 atol=1e-06 ulp=4");
}

}  // namespace
}  // namespace conformance::kernels
