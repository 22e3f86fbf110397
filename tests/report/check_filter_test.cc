// --filter follows gtest's --gtest_filter semantics exactly.
#include "run/check_filter.h"

#include <gtest/gtest.h>

#include "run/glob.h"

namespace conformance {
namespace {

TEST(GlobTest, StarMatchesAnyRunIncludingDots) {
  EXPECT_TRUE(GlobMatch("*", ""));
  EXPECT_TRUE(GlobMatch("*", "load.se.platform.name_regex"));
  EXPECT_TRUE(GlobMatch("load.*", "load.se.platform.name_regex"));
  EXPECT_TRUE(GlobMatch("*.name_regex", "load.se.platform.name_regex"));
  EXPECT_TRUE(GlobMatch("load.*.name_*", "load.se.platform.name_regex"));
  EXPECT_FALSE(GlobMatch("load.*", "runtime.load.x"));
  EXPECT_FALSE(GlobMatch("load.se", "load.se.platform"));
}

TEST(GlobTest, QuestionMarkMatchesExactlyOneCharacter) {
  EXPECT_TRUE(GlobMatch("kernel.AddV?.float", "kernel.AddV2.float"));
  EXPECT_FALSE(GlobMatch("kernel.AddV?.float", "kernel.AddV.float"));
  EXPECT_FALSE(GlobMatch("a?", "a"));
}

TEST(GlobTest, BacktracksAcrossSeveralStars) {
  EXPECT_TRUE(GlobMatch("*a*b*c", "xxaxxbxxbxxc"));
  EXPECT_FALSE(GlobMatch("*a*b*c", "xxaxxbxxbxxd"));
  EXPECT_TRUE(GlobMatch("**", "abc"));
  EXPECT_TRUE(GlobMatch("a*", "a"));
}

TEST(CheckFilterTest, DefaultSelectsEverything) {
  const CheckFilter filter;
  EXPECT_TRUE(filter.Matches("load.library.dlopen"));
  EXPECT_EQ(filter.text(), "*");
}

TEST(CheckFilterTest, ColonSeparatesAlternatives) {
  const CheckFilter filter("load.*:runtime.memcpy.*");
  EXPECT_TRUE(filter.Matches("load.se.platform.name_regex"));
  EXPECT_TRUE(filter.Matches("runtime.memcpy.htod.unaligned"));
  EXPECT_FALSE(filter.Matches("runtime.stream.create"));
}

TEST(CheckFilterTest, NegativePatternsExclude) {
  const CheckFilter filter("load.*-load.se.*:*.unaligned");
  EXPECT_TRUE(filter.Matches("load.library.dlopen"));
  EXPECT_FALSE(filter.Matches("load.se.platform.name_regex"));
  EXPECT_FALSE(filter.Matches("load.kernel.unaligned"));
}

TEST(CheckFilterTest, LeadingDashMeansEverythingExcept) {
  const CheckFilter filter("-runtime.*");
  EXPECT_TRUE(filter.Matches("load.library.dlopen"));
  EXPECT_TRUE(filter.Matches("kernel.AddV2.float.broadcast"));
  EXPECT_FALSE(filter.Matches("runtime.memcpy.htod.unaligned"));
}

TEST(CheckFilterTest, EverythingAfterTheFirstDashIsNegative) {
  // As in gtest: "a-b-c" is positive "a", negative "b-c".
  const CheckFilter filter("*-kernel.Sub-x*");
  EXPECT_TRUE(filter.Matches("kernel.Sub"));
  EXPECT_FALSE(filter.Matches("kernel.Sub-x.float"));
}

TEST(CheckFilterTest, ExactIdsWithoutWildcards) {
  const CheckFilter filter("load.library.dlopen");
  EXPECT_TRUE(filter.Matches("load.library.dlopen"));
  EXPECT_FALSE(filter.Matches("load.library.dlopen.extra"));
}

TEST(CheckFilterTest, EmptyFilterSelectsNothingLikeGtest) {
  const CheckFilter filter("");
  EXPECT_FALSE(filter.Matches("load.library.dlopen"));
}

TEST(CheckFilterTest, NegativeOnlyEmptyKeepsEverything) {
  const CheckFilter filter("*-");
  EXPECT_TRUE(filter.Matches("load.library.dlopen"));
}

}  // namespace
}  // namespace conformance
