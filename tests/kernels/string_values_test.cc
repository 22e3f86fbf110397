// String tensors in the kernel tier (harness/kernels/string_values.h, core/string_elements.h):
// the generated text holds the classes string kernels get wrong, travels through JSON exactly,
// goes into and out of a core-allocated TF_STRING tensor's TF_TString elements unchanged (past
// the 22 inline bytes too), and compares exactly.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/tensor.h"
#include "kernels/host_tensor.h"
#include "kernels/string_values.h"
#include "tensorflow/c/tf_tstring.h"

namespace conformance::kernels {
namespace {

TEST(StringValues, SpecialStringsHoldTheClassesKernelsGetWrong) {
  const std::vector<std::string>& values = SpecialStrings();
  const auto has = [&](auto predicate) {
    return std::any_of(values.begin(), values.end(), predicate);
  };
  EXPECT_TRUE(has([](const std::string& s) { return s.empty(); }));
  EXPECT_TRUE(has([](const std::string& s) { return s.size() == TF_TString_SmallCapacity; }));
  EXPECT_TRUE(has([](const std::string& s) { return s.size() == TF_TString_SmallCapacity + 1; }));
  EXPECT_TRUE(has([](const std::string& s) { return s.find('\0') != std::string::npos; }));
  EXPECT_TRUE(has([](const std::string& s) {
    return std::any_of(s.begin(), s.end(), [](char c) { return (c & 0x80) != 0; });
  }));
}

TEST(StringValues, FillsAreSeededAndKnown) {
  const auto a = MakeStringFill("random", {4, 5}, 7);
  const auto b = MakeStringFill("random", {4, 5}, 7);
  const auto c = MakeStringFill("random", {4, 5}, 8);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a->dtype, TF_STRING);
  EXPECT_EQ(a->strings.size(), 20u);
  EXPECT_TRUE(a->bytes.empty());
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, *c);
  const auto longer = MakeStringFill("long", {6}, 1);
  ASSERT_TRUE(longer);
  for (const std::string& s : longer->strings) EXPECT_GT(s.size(), 22u);
  EXPECT_FALSE(MakeStringFill("nan", {3}, 1));
  // MakeInput, the generator's same-shape inputs, gives strings for TF_STRING.
  const HostTensor input = MakeInput(InputFill{}, TF_STRING, {3}, 5);
  EXPECT_EQ(input.strings.size(), 3u);
}

TEST(StringValues, JsonCarriesEveryByte) {
  const HostTensor tensor =
      StringTensor(SpecialStrings(), {static_cast<std::int64_t>(SpecialStrings().size())});
  EXPECT_EQ(StringsFromJson(StringsJson(tensor)), tensor.strings);
}

TEST(StringValues, ElementsRoundTripThroughACoreTensor) {
  std::vector<std::string> values = SpecialStrings();
  values.push_back(std::string(1000, 'z'));
  core::Status status;
  const core::Tensor tensor =
      core::Tensor::Allocate(TF_STRING, {static_cast<std::int64_t>(values.size())}, &status);
  ASSERT_TRUE(status.ok()) << status.message;
  // Allocated elements are empty strings.
  EXPECT_EQ(ReadStringElements(tensor.data(), 1), std::vector<std::string>{""});
  WriteStringElements(values, tensor.data());
  EXPECT_EQ(ReadStringElements(tensor.data(), static_cast<std::int64_t>(values.size())), values);
  // Written twice (an earlier step's values, then the case's): still exact.
  WriteStringElements(std::vector<std::string>(values.rbegin(), values.rend()), tensor.data());
  WriteStringElements(values, tensor.data());
  EXPECT_EQ(ReadStringElements(tensor.data(), static_cast<std::int64_t>(values.size())), values);
}

TEST(StringValues, ComparisonIsExactAndNamesTheFirstDifference) {
  const HostTensor expected = StringTensor({"abc", "exactly 22 bytes long!", "x"}, {3});
  HostTensor actual = expected;
  EXPECT_FALSE(CompareStrings(expected, actual));
  actual.strings[1].pop_back();
  actual.strings[2] = "y";
  const auto mismatch = CompareStrings(expected, actual);
  ASSERT_TRUE(mismatch);
  EXPECT_EQ(mismatch->index, "[1]");
  EXPECT_EQ(mismatch->mismatched, 2);
  EXPECT_EQ(QuotedString(mismatch->actual), "\"exactly 22 bytes long\"");
  EXPECT_EQ(QuotedString(std::string("a\0\xc3", 3)), "\"a\\x00\\xc3\"");
}

}  // namespace
}  // namespace conformance::kernels
