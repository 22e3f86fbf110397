// BuildOpDef: attrs first, then arguments bound to them; every error of every spec is kept.
#include "ops/op_builder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace conformance::ops {
namespace {

using ::testing::HasSubstr;

TEST(BuildOpDef, BindsArgumentsToAttrs) {
  OpBuild build = BuildOpDef("MyConcat", {"N: int >= 2", "T: type", "Tlist: list(type)"},
                             {"values: N * T", "extras: Tlist"}, {"output: T"});
  ASSERT_TRUE(build.ok()) << ToString(build.errors.front());
  EXPECT_EQ(build.op.inputs[0].number_attr, "N");
  EXPECT_EQ(build.op.inputs[1].type_list_attr, "Tlist");
  EXPECT_TRUE(build.op.inputs[1].type_attr.empty());
  EXPECT_NE(build.op.FindOutput("output"), nullptr);
}

TEST(BuildOpDef, UnknownAttrReferenceNamesTheColumn) {
  OpBuild build = BuildOpDef("MyOp", {"Tidx: type"}, {"x: Tindx"}, {"y: Tidx"});
  ASSERT_EQ(build.errors.size(), 1u);
  EXPECT_EQ(build.errors[0].spec, "x: Tindx");
  EXPECT_EQ(build.errors[0].column, 4);
  EXPECT_THAT(build.errors[0].message, HasSubstr("Reference to unknown attr 'Tindx'"));
  EXPECT_EQ(build.errors[0].hint, "did you mean 'Tidx'?");
}

TEST(BuildOpDef, ReferenceToANonTypeAttr) {
  OpBuild build = BuildOpDef("MyOp", {"N: int"}, {"x: N"}, {});
  ASSERT_EQ(build.errors.size(), 1u);
  EXPECT_EQ(build.errors[0].message,
            "Reference to attr 'N' with type int that isn't type or list(type)");
}

TEST(BuildOpDef, LengthMustBeAnIntAttr) {
  OpBuild build = BuildOpDef("MyOp", {"T: type", "N: float"}, {"x: N * T"}, {});
  ASSERT_EQ(build.errors.size(), 1u);
  EXPECT_EQ(build.errors[0].column, 4);
  EXPECT_THAT(build.errors[0].message, HasSubstr("has type float != int"));
}

TEST(BuildOpDef, DefaultsMustBeAllowed) {
  OpBuild build = BuildOpDef(
      "MyOp", {"T: {float, half} = DT_INT32", "p: {'A', 'B'} = 'C'", "N: int >= 2 = 1"}, {}, {});
  ASSERT_EQ(build.errors.size(), 3u);
  EXPECT_EQ(build.errors[0].column, 20);
  EXPECT_THAT(build.errors[0].message, HasSubstr("not one of the allowed types"));
  EXPECT_THAT(build.errors[1].message, HasSubstr("not one of the allowed values"));
  EXPECT_THAT(build.errors[2].message, HasSubstr("less than its minimum 2"));
}

TEST(BuildOpDef, DuplicateNames) {
  OpBuild build = BuildOpDef("MyOp", {"T: type"}, {"x: T", "x: T"}, {"y: T"});
  ASSERT_EQ(build.errors.size(), 1u);
  EXPECT_EQ(build.errors[0].message, "Duplicate name: x");
}

TEST(BuildOpDef, OpNameMustBeCamelCase) {
  OpBuild build = BuildOpDef("my_op", {}, {}, {});
  ASSERT_EQ(build.errors.size(), 1u);
  EXPECT_EQ(build.errors[0].message, "Invalid name: my_op (Did you use CamelCase?)");
  EXPECT_TRUE(BuildOpDef("_InternalOp", {}, {}, {}).ok());
}

TEST(BuildOpDef, KeepsEveryErrorAndEverythingThatParsed) {
  OpBuild build = BuildOpDef("MyOp", {"T: {float, flaot}", "k: bool = maybe", "n: int"},
                             {"x: float", "y: Q"}, {"z: float"});
  ASSERT_EQ(build.errors.size(), 3u);
  EXPECT_EQ(build.errors[0].spec, "T: {float, flaot}");
  EXPECT_EQ(build.errors[1].spec, "k: bool = maybe");
  EXPECT_EQ(build.errors[2].spec, "y: Q");
  EXPECT_EQ(build.op.attrs.size(), 1u);
  EXPECT_EQ(build.op.inputs.size(), 1u);
  EXPECT_EQ(build.op.outputs.size(), 1u);
}

TEST(BuildOpDef, ABrokenAttrIsReportedOnceNotAgainByItsArguments) {
  OpBuild build = BuildOpDef("MyOp", {"T: {float, flaot}"}, {"x: T"}, {"y: T"});
  ASSERT_EQ(build.errors.size(), 1u);
  EXPECT_EQ(build.errors[0].message, "Unrecognized type string 'flaot'");
  EXPECT_TRUE(build.op.inputs.empty());
}

// TensorFlow's status has one line per error, including each argument naming the broken attr
// (measured on 2.15.1 and 2.21.0: kernel_registration_defects/op_def_syntax_error).
TEST(BuildOpDef, TensorFlowAlsoReportsEachArgumentNamingABrokenAttr) {
  OpBuild build =
      BuildOpDef("MyOp", {"T: {float, flaot}", "N: {bad}"}, {"x: T", "z: N * float"}, {"y: T"});
  ASSERT_EQ(build.tensorflow_errors.size(), 5u);
  EXPECT_EQ(build.tensorflow_errors[0].message, "Unrecognized type string 'flaot'");
  EXPECT_EQ(build.tensorflow_errors[2].spec, "x: T");
  EXPECT_EQ(build.tensorflow_errors[2].message,
            "Reference to attr 'T' with type  that isn't type or list(type)");
  EXPECT_EQ(build.tensorflow_errors[3].message,
            "Attr 'N' used as the length of 'z' has type  != int");
  EXPECT_EQ(build.tensorflow_errors[4].spec, "y: T");
  EXPECT_EQ(build.errors.size(), 2u);
}

TEST(FromRegistration, UsesTheRecordedSpecStrings) {
  core::OpRegistration registration;
  registration.name = "PluginOp";
  registration.attrs = {"T: {float, double}"};
  registration.inputs = {"in: T"};
  registration.outputs = {"out: T"};
  OpDef op = FromRegistration(registration);
  EXPECT_EQ(op.name, "PluginOp");
  ASSERT_EQ(op.inputs.size(), 1u);
  EXPECT_EQ(op.inputs[0].type_attr, "T");
  EXPECT_EQ(op.attrs[0].allowed_types.size(), 2u);
}

}  // namespace
}  // namespace conformance::ops
