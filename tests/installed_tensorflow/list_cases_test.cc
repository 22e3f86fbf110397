// Type-list inputs and encoded inputs in the generated cases (specs/ops/families/
// list_families.yaml, encoded_families.yaml; harness/kernels/case_families.h): a family case
// names a list's dtypes in its attr (`TArgs: [T]`, T the cell's dtype) and gives one tensor per
// element; a list attr the registration constrains runs lists of that dtype only; a type-list
// output has one tensor per dtype; `hex:` gives a string input's bytes exactly. What TensorFlow's
// CPU makes of the cases is the record (specs/ops/record) and its tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/case_families.h"
#include "kernels/case_from_json.h"
#include "kernels/case_json.h"
#include "kernels/family_cases.h"
#include "kernels/generated_cases.h"
#include "kernels/string_values.h"
#include "ops/registry.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

const ops::OpRegistry& Registry() { return *ops::FindOpRegistry("2.21.0"); }

std::vector<json> CellCases(const std::string& op, std::vector<std::pair<std::string, int>> types) {
  const json generated = GenerateCases({{op, std::move(types)}}, {}, Registry(), {}, 1);
  return generated.at("cases").get<std::vector<json>>();
}

const json* Variant(const std::vector<json>& cases, const std::string& prefix) {
  for (const json& kernel_case : cases) {
    if (kernel_case.at("variant").get<std::string>().starts_with(prefix)) return &kernel_case;
  }
  return nullptr;
}

std::vector<std::string> InputNames(const json& kernel_case) {
  std::vector<std::string> names;
  for (const json& input : kernel_case.at("inputs")) names.push_back(input.at("name"));
  return names;
}

// _FusedConv2D's args are as many tensors as TArgs has dtypes: BiasAdd's one bias, or
// FusedBatchNorm's scale, offset, mean and variance, each of the cell's dtype (TArgs: [T]).
TEST(ListCases, ATypeListInputHasOneTensorPerDtypeOfItsAttr) {
  const std::vector<json> cases = CellCases("_FusedConv2D", {{"T", TF_FLOAT}});
  const json* bias = Variant(cases, "[1,5,5,2] by [3,3,2,3] VALID, BiasAdd");
  const json* norm = Variant(cases, "[1,5,5,2] by [3,3,2,3] VALID, FusedBatchNorm");
  ASSERT_NE(bias, nullptr);
  ASSERT_NE(norm, nullptr);
  EXPECT_EQ(bias->at("attrs").at("TArgs"), json({{"list_type", {TF_FLOAT}}}));
  EXPECT_EQ(bias->at("attrs").at("num_args").at("i"), 1);
  EXPECT_EQ(InputNames(*bias), (std::vector<std::string>{"input", "filter", "args"}));
  EXPECT_EQ(norm->at("attrs").at("TArgs"),
            json({{"list_type", {TF_FLOAT, TF_FLOAT, TF_FLOAT, TF_FLOAT}}}));
  EXPECT_EQ(InputNames(*norm),
            (std::vector<std::string>{"input", "filter", "args", "args", "args", "args"}));
  for (const json& input : norm->at("inputs")) EXPECT_EQ(input.at("dtype"), "float");
  EXPECT_EQ(norm->at("inputs").at(5).at("shape"), json({3}));
  // The double cell's lists are double: T stands for the cell's dtype.
  const std::vector<json> doubles = CellCases("_FusedConv2D", {{"T", TF_DOUBLE}});
  ASSERT_FALSE(doubles.empty());
  EXPECT_EQ(doubles.front().at("attrs").at("TArgs"), json({{"list_type", {TF_DOUBLE}}}));
  EXPECT_EQ(doubles.front().at("inputs").at(2).at("dtype"), "double");
}

// A list attr that is not the cell's may mix dtypes (Print's data: the cell's and int32).
TEST(ListCases, AnUnconstrainedListMixesDtypes) {
  const std::vector<json> cases = CellCases("Print", {{"T", TF_FLOAT}});
  const json* mixed = Variant(cases, "[3,5] with data");
  ASSERT_NE(mixed, nullptr);
  ASSERT_EQ(mixed->at("inputs").size(), 3u);
  EXPECT_EQ(mixed->at("inputs").at(1).at("dtype"), "float");
  EXPECT_EQ(mixed->at("inputs").at(2).at("dtype"), "int32");
  EXPECT_EQ(mixed->at("inputs").at(2).at("shape"), json({2}));
  const json* none = Variant(cases, "rank 0, no data");
  ASSERT_NE(none, nullptr);
  EXPECT_EQ(none->at("inputs").size(), 1u);
}

// IdentityN registered for T = int32 gets lists of int32 only, and one output per element,
// typed by the list when the case is made runnable again.
TEST(ListCases, AConstrainedListRunsItsDtypeAndTypesItsOutputs) {
  const std::vector<json> cases = CellCases("IdentityN", {{"T", TF_INT32}});
  ASSERT_EQ(cases.size(), 3u);
  for (const json& kernel_case : cases) {
    for (const json& type : kernel_case.at("attrs").at("T").at("list_type"))
      EXPECT_EQ(type, TF_INT32);
    EXPECT_EQ(kernel_case.at("outputs").size(), kernel_case.at("inputs").size());
  }
  const json* three = Variant(cases, "rank 0, [7] and empty");
  ASSERT_NE(three, nullptr);
  const auto spec = CaseFromJson(*three, *Registry().Find("IdentityN"));
  ASSERT_TRUE(std::holds_alternative<CaseSpec>(spec)) << std::get<std::string>(spec);
  const CaseSpec& runnable = std::get<CaseSpec>(spec);
  ASSERT_EQ(runnable.outputs.size(), 3u);
  for (const CaseOutputSpec& output : runnable.outputs) EXPECT_EQ(output.dtype, TF_INT32);
  const auto* list = std::get_if<core::AttrList>(&runnable.attrs.at("T"));
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(list->type, (std::vector<TF_DataType>{TF_INT32, TF_INT32, TF_INT32}));
  EXPECT_EQ(AttrJson(runnable.attrs.at("T")), three->at("attrs").at("T"));
}

// `hex:` is the string input's bytes, any byte (a PNG's signature starts with 0x89).
TEST(ListCases, HexGivesAStringInputsBytes) {
  const auto parsed = ParseCaseFamilies(
      "families:\n  - family: x\n    ops: [DecodePng]\n    cases:\n"
      "      - variant: v\n        inputs:\n          contents:\n            hex:\n"
      "              89504e47 0d0a\n              00ff\n",
      "f.yaml");
  ASSERT_TRUE(std::holds_alternative<std::vector<CaseFamily>>(parsed))
      << std::get<std::string>(parsed);
  const FamilyInput& contents =
      std::get<std::vector<CaseFamily>>(parsed).front().cases.front().inputs.at("contents");
  ASSERT_TRUE(contents.text.has_value());
  EXPECT_EQ(*contents.text, (std::vector<std::string>{std::string("\x89PNG\r\n\0\xff", 8)}));
  const std::vector<json> cases = CellCases("DecodePng", {{"dtype", TF_UINT8}});
  ASSERT_FALSE(cases.empty());
  const std::vector<std::string> bytes =
      StringsFromJson(cases.front().at("inputs").at(0).at("strings"));
  ASSERT_EQ(bytes.size(), 1u);
  EXPECT_TRUE(bytes.front().starts_with("\x89PNG\r\n\x1a\n"));
}

std::string ParseError(const std::string& text) {
  const auto parsed = ParseCaseFamilies(text, "f.yaml");
  const auto* error = std::get_if<std::string>(&parsed);
  return error ? *error : "";
}

TEST(ListCases, ParseErrorsSayWhatIsWrong) {
  const std::string head = "families:\n  - family: x\n    ops: [IdentityN]\n    cases:\n";
  EXPECT_NE(ParseError(head + "      - {variant: v, inputs: {input: {hex: abc}}}\n")
                .find("`hex:` needs two digits a byte"),
            std::string::npos);
  EXPECT_NE(ParseError(head + "      - {variant: v, inputs: {input: {hex: 0g}}}\n")
                .find("hex digits only, not '0g'"),
            std::string::npos);
  EXPECT_NE(ParseError(head + "      - {variant: v, inputs: {input: {hex: '00', text: a}}}\n")
                .find("alone"),
            std::string::npos);
  EXPECT_NE(ParseError(head + "      - {variant: v, inputs: {input: [[{shape: [1]}]]}}\n")
                .find("a list input's element is one input"),
            std::string::npos);
}

// A case giving a list fewer or more tensors than its attr has dtypes is no case of the cell.
TEST(ListCases, AListOfTheWrongLengthMakesNoCase) {
  const auto parsed = ParseCaseFamilies(
      "families:\n  - family: x\n    ops: [IdentityN]\n    cases:\n"
      "      - {variant: v, inputs: {input: [{shape: [1]}]}, attrs: {T: [T, T]}}\n",
      "f.yaml");
  ASSERT_TRUE(std::holds_alternative<std::vector<CaseFamily>>(parsed));
  const FamilyCase& family_case = std::get<std::vector<CaseFamily>>(parsed).front().cases.front();
  const auto inputs = FamilyCaseInputs(family_case, {{"input", TF_FLOAT}, {"input", TF_FLOAT}},
                                       [](std::size_t) { return std::uint64_t{1}; });
  ASSERT_TRUE(std::holds_alternative<std::string>(inputs));
  EXPECT_NE(std::get<std::string>(inputs).find("more tensors than the 1"), std::string::npos);
}

}  // namespace
}  // namespace conformance::kernels
