// ParseArgSpec / ParseAttrSpec: every form of TensorFlow's grammar, and for each way a spec can
// be malformed, TensorFlow's message and the column where parsing stopped.
#include "ops/spec_parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace conformance::ops {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

AttrDef Attr(std::string_view spec) {
  auto parsed = ParseAttrSpec(spec);
  EXPECT_TRUE(parsed.ok()) << ToString(parsed.error());
  return parsed.ok() ? parsed.value() : AttrDef{};
}

ArgDef Arg(std::string_view spec) {
  auto parsed = ParseArgSpec(spec);
  EXPECT_TRUE(parsed.ok()) << ToString(parsed.error());
  return parsed.ok() ? parsed.value() : ArgDef{};
}

SpecError AttrError(std::string_view spec) {
  auto parsed = ParseAttrSpec(spec);
  EXPECT_FALSE(parsed.ok()) << spec << " parsed";
  return parsed.ok() ? SpecError{} : parsed.error();
}

SpecError ArgError(std::string_view spec) {
  auto parsed = ParseArgSpec(spec);
  EXPECT_FALSE(parsed.ok()) << spec << " parsed";
  return parsed.ok() ? SpecError{} : parsed.error();
}

TEST(ParseArgSpec, TypeAttr) {
  ArgDef arg = Arg("x: T");
  EXPECT_EQ(arg.name, "x");
  EXPECT_EQ(arg.type_attr, "T");
  EXPECT_FALSE(arg.type.has_value());
  EXPECT_EQ(arg.type_column, 4);
}

TEST(ParseArgSpec, FixedTypeAndAliases) {
  EXPECT_EQ(Arg("y: float").type, TF_FLOAT);
  EXPECT_EQ(Arg("y:half").type, TF_HALF);
  EXPECT_EQ(Arg("y: float16").type, TF_HALF);
  EXPECT_EQ(Arg("y: bfloat16").type, TF_BFLOAT16);
}

TEST(ParseArgSpec, NumberTimesType) {
  ArgDef arg = Arg("values: N * T");
  EXPECT_EQ(arg.number_attr, "N");
  EXPECT_EQ(arg.type_attr, "T");
  EXPECT_EQ(arg.type_column, 13);
  EXPECT_EQ(Arg("ids: N*int64").type, TF_INT64);
}

TEST(ParseArgSpec, Ref) {
  ArgDef arg = Arg("ref: Ref(T)");
  EXPECT_TRUE(arg.is_ref);
  EXPECT_EQ(arg.type_attr, "T");
  EXPECT_TRUE(Arg("ref: Ref( float )").is_ref);
}

TEST(ParseArgSpec, NameMustBeLowercase) {
  SpecError error = ArgError("X: T");
  EXPECT_EQ(error.message, "Trouble parsing 'name:'");
  EXPECT_EQ(error.column, 1);
  EXPECT_EQ(ArgError("x T").message, "Trouble parsing 'name:'");
}

TEST(ParseArgSpec, MissingType) {
  SpecError error = ArgError("x: ");
  EXPECT_EQ(error.message, "Trouble parsing either a type or an attr name at ''");
  EXPECT_EQ(error.column, 4);
}

TEST(ParseArgSpec, UnclosedRef) {
  SpecError error = ArgError("x: Ref(T");
  EXPECT_EQ(error.message, "Did not find closing ')' for 'Ref(', instead found: ''");
  EXPECT_EQ(error.column, 9);
}

TEST(ParseArgSpec, TrailingText) {
  SpecError error = ArgError("x: T extra");
  EXPECT_EQ(error.message, "Extra 'extra' unparsed at the end");
  EXPECT_EQ(error.column, 6);
}

TEST(ParseAttrSpec, ScalarTypes) {
  for (std::string_view type :
       {"string", "int", "float", "bool", "type", "shape", "tensor", "func"}) {
    EXPECT_EQ(Attr("a: " + std::string(type)).type, type);
  }
  EXPECT_EQ(Attr("a: list(int)").type, "list(int)");
  EXPECT_EQ(Attr("a: list( type )").type, "list(type)");
}

TEST(ParseAttrSpec, TypeSetsAndClasses) {
  EXPECT_THAT(Attr("T: {float, int32}").allowed_types, ElementsAre(TF_FLOAT, TF_INT32));
  EXPECT_THAT(Attr("T: {half,}").allowed_types, ElementsAre(TF_HALF));
  EXPECT_EQ(Attr("T: realnumbertype").allowed_types.size(), 12u);
  EXPECT_EQ(Attr("T: numbertype").allowed_types.size(), 19u);
  AttrDef relu = Attr("T: {realnumbertype, qint8}");
  EXPECT_EQ(relu.type, "type");
  EXPECT_EQ(relu.allowed_types.size(), 13u);
  EXPECT_EQ(relu.allowed_types.back(), TF_QINT8);
  EXPECT_THAT(Attr("Tl: list({float, int64}) >= 1").allowed_types, ElementsAre(TF_FLOAT, TF_INT64));
}

TEST(ParseAttrSpec, StringEnumWithDefault) {
  AttrDef attr = Attr("data_format: {'NHWC', \"NCHW\"} = 'NHWC'");
  EXPECT_EQ(attr.type, "string");
  EXPECT_THAT(attr.allowed_strings, ElementsAre("NHWC", "NCHW"));
  EXPECT_EQ(std::get<std::string>(attr.default_value), "NHWC");
  EXPECT_EQ(attr.default_text, "'NHWC'");
}

TEST(ParseAttrSpec, MinimumAndDefaults) {
  AttrDef n = Attr("N: int >= 2 = 3");
  EXPECT_EQ(n.minimum, 2);
  EXPECT_EQ(std::get<int64_t>(n.default_value), 3);
  EXPECT_EQ(Attr("N: int >= -1").minimum, -1);
  EXPECT_EQ(std::get<bool>(Attr("keep_dims: bool = false").default_value), false);
  EXPECT_EQ(std::get<bool>(Attr("use_cudnn_on_gpu: bool = true").default_value), true);
  EXPECT_EQ(std::get<float>(Attr("alpha: float = 0.2").default_value), 0.2f);
  EXPECT_EQ(std::get<TF_DataType>(Attr("Tidx: {int32, int64} = DT_INT32").default_value), TF_INT32);
  EXPECT_THAT(std::get<core::AttrList>(Attr("dilations: list(int) = [1, 1, 1, 1]").default_value).i,
              ElementsAre(1, 1, 1, 1));
  EXPECT_TRUE(
      std::get<core::AttrList>(Attr("explicit_paddings: list(int) = []").default_value).i.empty());
  EXPECT_THAT(std::get<core::AttrList>(Attr("names: list(string) = ['a', 'b']").default_value).s,
              ElementsAre("a", "b"));
  EXPECT_FALSE(Attr("strides: list(int)").default_text.has_value());
}

TEST(ParseAttrSpec, NameErrors) {
  SpecError error = AttrError("1T: type");
  EXPECT_EQ(error.message, "Trouble parsing '<name>:'");
  EXPECT_EQ(error.column, 1);
  EXPECT_EQ(AttrError("T type").column, 3);
}

TEST(ParseAttrSpec, UnknownTypeNamesColumnAndSuggestion) {
  SpecError error = AttrError("T: {float, flaot}");
  EXPECT_EQ(error.column, 12);
  EXPECT_THAT(error.message, HasSubstr("Unrecognized type string 'flaot'"));
  EXPECT_EQ(error.message, "Unrecognized type string 'flaot'");
  EXPECT_EQ(error.hint, "did you mean 'float'?");
}

TEST(ParseAttrSpec, UnknownAttrType) {
  SpecError error = AttrError("T: dtype");
  EXPECT_EQ(error.message, "Trouble parsing type string at 'dtype'");
  EXPECT_EQ(error.column, 4);
}

TEST(ParseAttrSpec, PrefixMatchLeavesTheRestUnparsed) {
  // "int64" reads as the attr type "int" followed by "64", exactly as TensorFlow reads it.
  SpecError error = AttrError("n: int64");
  EXPECT_EQ(error.message, "Extra '64' unparsed at the end");
  EXPECT_EQ(error.column, 7);
}

TEST(ParseAttrSpec, MisspeltTypeClassTensorFlowStillRecognises) {
  EXPECT_EQ(AttrError("T: realnumberictype").message,
            "Expected to see a compound type, saw: realnumberictype");
}

TEST(ParseAttrSpec, UnclosedSetsAndLists) {
  SpecError types = AttrError("T: {float int32}");
  EXPECT_EQ(types.message, "Expected , or } after types in list, not: 'int32}'");
  EXPECT_EQ(types.column, 11);
  EXPECT_EQ(AttrError("p: {'SAME' 'VALID'}").message,
            "Expected , or } after strings in list, not: ''VALID'}'");
  EXPECT_EQ(AttrError("p: {'SAME}").message, "Trouble parsing allowed string at ''SAME}'");
  SpecError list = AttrError("l: list(int");
  EXPECT_EQ(list.message, "Expected ) to close 'list(', not: ''");
  EXPECT_EQ(list.column, 12);
}

TEST(ParseAttrSpec, BadMinimum) {
  SpecError error = AttrError("N: int >= x");
  EXPECT_EQ(error.message, "Could not parse integer lower limit after '>=', found ' x' instead");
  EXPECT_EQ(error.column, 10);
  // Only ints and lists have a minimum.
  EXPECT_EQ(AttrError("T: type >= 1").message, "Extra '>= 1' unparsed at the end");
}

TEST(ParseAttrSpec, BadDefaults) {
  SpecError error = AttrError("k: bool = maybe");
  EXPECT_EQ(error.message, "Could not parse default value 'maybe'");
  EXPECT_EQ(error.column, 11);
  EXPECT_FALSE(ParseAttrSpec("T: type = float").ok());  // defaults spell the enum: DT_FLOAT
  EXPECT_FALSE(ParseAttrSpec("s: string = NHWC").ok());
  EXPECT_FALSE(ParseAttrSpec("l: list(int) = [1, 2").ok());
  EXPECT_FALSE(ParseAttrSpec("n: int = 1.5").ok());
}

}  // namespace
}  // namespace conformance::ops
