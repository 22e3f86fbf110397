#include "model/name_syntax.h"

#include <gtest/gtest.h>

namespace conformance {
namespace {

TEST(NameSyntax, LowerSnakeNamesTakeLowercaseDigitsAndUnderscores) {
  EXPECT_TRUE(IsLowerSnakeName("alloc_then_free_2"));
  EXPECT_TRUE(IsLowerSnakeName("_"));
  EXPECT_FALSE(IsLowerSnakeName(""));
  EXPECT_FALSE(IsLowerSnakeName("Alloc"));
  EXPECT_FALSE(IsLowerSnakeName("alloc-free"));
  EXPECT_FALSE(IsLowerSnakeName("alloc free"));
}

TEST(NameSyntax, WordNamesAlsoTakeUppercase) {
  EXPECT_TRUE(IsWordName("MatMul_out0"));
  EXPECT_FALSE(IsWordName(""));
  EXPECT_FALSE(IsWordName("a:0"));
  EXPECT_FALSE(IsWordName("a.b"));
}

TEST(NameSyntax, OpNamesStartWithAnUppercaseLetter) {
  EXPECT_TRUE(IsOpName("A"));
  EXPECT_TRUE(IsOpName("BatchMatMulV2"));
  EXPECT_TRUE(IsOpName("Conv2D_1"));
  EXPECT_FALSE(IsOpName(""));
  EXPECT_FALSE(IsOpName("_FusedConv2D"));
  EXPECT_FALSE(IsOpName("matMul"));
  EXPECT_FALSE(IsOpName("Mat-Mul"));
}

TEST(NameSyntax, ReleaseNumbersHaveTwoOrThreeNumericParts) {
  EXPECT_TRUE(IsReleaseNumber("2.15"));
  EXPECT_TRUE(IsReleaseNumber("2.15.1"));
  EXPECT_TRUE(IsReleaseNumber("10.0.12"));
  EXPECT_FALSE(IsReleaseNumber("2"));
  EXPECT_FALSE(IsReleaseNumber("2."));
  EXPECT_FALSE(IsReleaseNumber(".15"));
  EXPECT_FALSE(IsReleaseNumber("2.15.1.0"));
  EXPECT_FALSE(IsReleaseNumber("2.15+"));
  EXPECT_FALSE(IsReleaseNumber("tf2.15"));
  EXPECT_FALSE(IsReleaseNumber("2..15"));
  EXPECT_FALSE(IsReleaseNumber(""));
}

}  // namespace
}  // namespace conformance
