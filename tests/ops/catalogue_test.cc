// The built-in op catalogue: every file parses, every op the contract names is there with its
// facts, and a malformed catalogue file is reported at file:line:col.
#include "ops/catalogue.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../support/contract_ops.h"

namespace conformance::ops {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

std::string ThrownBy(std::string_view yaml) {
  try {
    ParseOpCatalogue("bad.yaml", yaml);
  } catch (const OpCatalogueError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no error for:\n" << yaml;
  return {};
}

TEST(OpCatalogue, EveryFileOnDiskParses) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(OPS_SPEC_DIR)) {
    if (entry.path().extension() != ".yaml") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NO_THROW(ParseOpCatalogue(entry.path().string(), text.str())) << entry.path();
    ++files;
  }
  EXPECT_GE(files, 8);
}

TEST(OpCatalogue, HasEveryOpOfTheContract) {
  for (std::string_view name : conformance::test_support::kContractOps) {
    const OpDef* op = FindOp(name);
    ASSERT_NE(op, nullptr) << name;
    EXPECT_FALSE(op->summary.empty()) << name;
    // Every op has an output but the optimizer updates, which write their variable in place.
    EXPECT_EQ(op->outputs.empty(), name.starts_with("ResourceApply")) << name;
  }
  EXPECT_GE(BuiltInOps().size(), 33u);
  EXPECT_EQ(FindOp("NoSuchOp"), nullptr);
}

TEST(OpCatalogue, Conv2DFacts) {
  const OpDef* conv = FindOp("Conv2D");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->inputs.size(), 2u);
  const AttrDef* padding = conv->FindAttr("padding");
  ASSERT_NE(padding, nullptr);
  EXPECT_EQ(padding->allowed_strings, (std::vector<std::string>{"SAME", "VALID", "EXPLICIT"}));
  EXPECT_EQ(std::get<std::string>(conv->FindAttr("data_format")->default_value), "NHWC");
  EXPECT_EQ(std::get<core::AttrList>(conv->FindAttr("dilations")->default_value).i.size(), 4u);
  EXPECT_FALSE(conv->broadcasting);
}

TEST(OpCatalogue, ReductionsTakeTidx) {
  for (std::string_view name : {"Sum", "Mean", "Max"}) {
    const OpDef* op = FindOp(name);
    ASSERT_NE(op, nullptr);
    ASSERT_NE(op->FindInput("reduction_indices"), nullptr);
    EXPECT_EQ(op->FindInput("reduction_indices")->type_attr, "Tidx");
    EXPECT_EQ(AllowedTypes(*op, "Tidx"), (std::vector<TF_DataType>{TF_INT32, TF_INT64}));
    EXPECT_NE(op->FindAttr("keep_dims"), nullptr);
  }
}

TEST(OpCatalogue, BroadcastingOnlyOnElementwiseBinaryOps) {
  for (const OpDef& op : BuiltInOps()) {
    if (op.broadcasting) {
      EXPECT_EQ(op.inputs.size(), 2u) << op.name;
    }
  }
  EXPECT_TRUE(FindOp("AddV2")->broadcasting);
  EXPECT_FALSE(FindOp("MatMul")->broadcasting);
}

TEST(AllowedTypes, RestrictedAndUnrestricted) {
  const OpDef* add = FindOp("AddV2");
  EXPECT_THAT(AllowedTypes(*add, "T"), Contains(TF_FLOAT));
  EXPECT_THAT(AllowedTypes(*add, "T"), Not(Contains(TF_BOOL)));
  const auto identity = AllowedTypes(*FindOp("Identity"), "T");
  EXPECT_THAT(identity, Contains(TF_BOOL));
  EXPECT_THAT(identity, Contains(TF_STRING));
  EXPECT_TRUE(AllowedTypes(*add, "NoSuchAttr").empty());
  EXPECT_TRUE(AllowedTypes(*FindOp("MatMul"), "transpose_a").empty());
}

TEST(ParseOpCatalogue, SpecErrorPointsIntoTheFile) {
  const std::string message = ThrownBy(
      "- op: Bad\n"
      "  summary: s\n"
      "  inputs: [\"x: T\"]\n"
      "  outputs: [\"y: T\"]\n"
      "  attrs: [\"T: {float, flaot}\"]\n");
  // Line 5; the quote is at column 11, so the spec's column 12 is file column 11 + 12.
  EXPECT_THAT(message, HasSubstr("bad.yaml:5:23:"));
  EXPECT_THAT(message, HasSubstr("Unrecognized type string 'flaot'"));
}

TEST(ParseOpCatalogue, UnknownKeyWithSuggestion) {
  const std::string message = ThrownBy("- op: A\n  summary: s\n  outputs: []\n  attr: []\n");
  EXPECT_THAT(message, HasSubstr("bad.yaml:4:3: unknown key 'attr' (did you mean 'attrs'?)"));
}

TEST(ParseOpCatalogue, MissingKeyAndBadFlag) {
  EXPECT_THAT(ThrownBy("- op: A\n  outputs: []\n"), HasSubstr("missing key 'summary'"));
  EXPECT_THAT(ThrownBy("- op: A\n  summary: s\n  outputs: []\n  broadcasting: maybe\n"),
              HasSubstr("bad.yaml:4:17: 'broadcasting' must be true or false"));
}

TEST(ParseOpCatalogue, YamlSyntaxError) {
  EXPECT_THAT(ThrownBy("- op: [A\n"), HasSubstr("bad.yaml:"));
}

}  // namespace
}  // namespace conformance::ops
