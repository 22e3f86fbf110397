// TF_OpKernelConstruction_GetAttr* on a KernelConstruction built through the C++ API:
// values, TensorFlow's exact error texts, GetAttrSize, strings without NUL, overflow.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/kernel_context.h"
#include "recorder_fixture.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"

namespace conformance::core {
namespace {

class AttributesTest : public testing::RecorderTest {
 protected:
  AttributesTest()
      : ctor_(NodeDef{
            .name = "my_node",
            .op = "MyOp",
            .attrs = {
                {"T", TF_FLOAT},
                {"n", int64_t{42}},
                {"big", int64_t{1} << 40},
                {"alpha", 0.5f},
                {"flag", true},
                {"name", std::string("hello")},
                {"shape", PartialShape::Of({2, 3})},
                {"partial", PartialShape::Of({2, -1})},
                {"unknown", PartialShape::Unknown()},
                {"ints", AttrList{.i = {1, 2, 3}}},
                {"floats", AttrList{.f = {1.5f, 2.5f}}},
                {"bools", AttrList{.b = {true, false}}},
                {"types", AttrList{.type = {TF_INT32, TF_HALF}}},
                {"strings", AttrList{.s = {"ab", "cde"}}},
                {"shapes", AttrList{.shape = {PartialShape::Of({1, 2}), PartialShape::Unknown()}}},
                {"empty", AttrList{}},
                {"unset", AttrNotSet{}},
                {"value", Tensor::FromVector<int32_t>(TF_INT32, {2}, {7, 8})},
                {"func", NameAttrList{.name = "f", .attrs = {}}},
            }}) {}

  TF_OpKernelConstruction* c() { return ctor_.c_handle(); }

  KernelConstruction ctor_;
  TF_Status* s_ = TF_NewStatus();
  ~AttributesTest() override { TF_DeleteStatus(s_); }
};

TEST_F(AttributesTest, ScalarGettersReadValues) {
  TF_DataType type{};
  TF_OpKernelConstruction_GetAttrType(c(), "T", &type, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_OK);
  EXPECT_EQ(type, TF_FLOAT);
  int32_t i32 = 0;
  TF_OpKernelConstruction_GetAttrInt32(c(), "n", &i32, s_);
  EXPECT_EQ(i32, 42);
  int64_t i64 = 0;
  TF_OpKernelConstruction_GetAttrInt64(c(), "big", &i64, s_);
  EXPECT_EQ(i64, int64_t{1} << 40);
  float f = 0;
  TF_OpKernelConstruction_GetAttrFloat(c(), "alpha", &f, s_);
  EXPECT_EQ(f, 0.5f);
  TF_Bool b = 0;
  TF_OpKernelConstruction_GetAttrBool(c(), "flag", &b, s_);
  EXPECT_EQ(b, 1);
  EXPECT_EQ(TF_GetCode(s_), TF_OK);
}

TEST_F(AttributesTest, MissingAttrIsNotFoundWithTheNodeAttached) {
  int64_t v = 99;
  TF_OpKernelConstruction_GetAttrInt64(c(), "missing", &v, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_NOT_FOUND);
  EXPECT_STREQ(TF_Message(s_), "No attr named 'missing' in NodeDef:\n\t [[{{node my_node}}]]");
  EXPECT_EQ(v, 99);  // untouched on error
  TF_OpKernelConstruction_GetAttrInt64(c(), "_internal", &v, s_);
  EXPECT_STREQ(TF_Message(s_), "No attr named '_internal' in NodeDef:");
  auto errors = Recorder::Instance().CallErrors();
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].function, "TF_OpKernelConstruction_GetAttrInt64");
  EXPECT_EQ(errors[0].subject, "my_node");
}

TEST_F(AttributesTest, WrongTypeUsesAttrValueHasTypeText) {
  float f = 0;
  TF_OpKernelConstruction_GetAttrFloat(c(), "n", &f, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s_), "AttrValue had value with type 'int' when 'float' expected");
  int64_t i = 0;
  TF_OpKernelConstruction_GetAttrInt64(c(), "ints", &i, s_);
  EXPECT_STREQ(TF_Message(s_), "AttrValue had value with type 'list(int)' when 'int' expected");
  TF_OpKernelConstruction_GetAttrInt64(c(), "empty", &i, s_);
  EXPECT_STREQ(TF_Message(s_), "AttrValue missing value with expected type 'int'");
}

TEST_F(AttributesTest, Int32RangeIsChecked) {
  int32_t v = 0;
  TF_OpKernelConstruction_GetAttrInt32(c(), "big", &v, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s_), "Attr big has value 1099511627776 out of range for an int32");
}

TEST_F(AttributesTest, ListGetters) {
  int64_t ints[5] = {0};
  TF_OpKernelConstruction_GetAttrInt64List(c(), "ints", ints, 2, s_);  // max_vals caps the copy
  EXPECT_EQ(TF_GetCode(s_), TF_OK);
  EXPECT_EQ(ints[0], 1);
  EXPECT_EQ(ints[1], 2);
  EXPECT_EQ(ints[2], 0);
  int32_t ints32[3];
  TF_OpKernelConstruction_GetAttrInt32List(c(), "ints", ints32, 3, s_);
  EXPECT_EQ(ints32[2], 3);
  float floats[2];
  TF_OpKernelConstruction_GetAttrFloatList(c(), "floats", floats, 2, s_);
  EXPECT_EQ(floats[1], 2.5f);
  TF_Bool bools[2];
  TF_OpKernelConstruction_GetAttrBoolList(c(), "bools", bools, 2, s_);
  EXPECT_EQ(bools[0], 1);
  EXPECT_EQ(bools[1], 0);
  TF_DataType types[2];
  TF_OpKernelConstruction_GetAttrTypeList(c(), "types", types, 2, s_);
  EXPECT_EQ(types[1], TF_HALF);
  TF_OpKernelConstruction_GetAttrInt64List(c(), "empty", ints, 5, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_OK);
}

TEST_F(AttributesTest, ListGetterErrors) {
  int64_t ints[2];
  TF_OpKernelConstruction_GetAttrInt64List(c(), "missing", ints, 2, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s_), "Operation 'my_node' has no attr named 'missing'.");
  TF_OpKernelConstruction_GetAttrInt64List(c(), "n", ints, 2, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s_), "Attribute 'n' is not a list.");
  TF_OpKernelConstruction_GetAttrInt64List(c(), "floats", ints, 2, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s_),
               "AttrValue had value with type 'list(float)' when 'list(int)' expected");
}

TEST_F(AttributesTest, StringIsCopiedWithoutTerminator) {
  char buf[8];
  std::memset(buf, '#', sizeof(buf));
  TF_OpKernelConstruction_GetAttrString(c(), "name", buf, sizeof(buf), s_);
  EXPECT_EQ(TF_GetCode(s_), TF_OK);
  EXPECT_EQ(std::string(buf, sizeof(buf)), "hello###");
  std::memset(buf, '#', sizeof(buf));
  TF_OpKernelConstruction_GetAttrString(c(), "name", buf, 3, s_);
  EXPECT_EQ(std::string(buf, sizeof(buf)), "hel#####");
}

TEST_F(AttributesTest, StringListPacksIntoStorage) {
  char* values[2];
  size_t lengths[2];
  char storage[5];
  TF_OpKernelConstruction_GetAttrStringList(c(), "strings", values, lengths, 2, storage,
                                            sizeof(storage), s_);
  ASSERT_EQ(TF_GetCode(s_), TF_OK);
  EXPECT_EQ(values[0], storage);
  EXPECT_EQ(values[1], storage + 2);
  EXPECT_EQ(std::string(values[1], lengths[1]), "cde");
  char small[4];
  TF_OpKernelConstruction_GetAttrStringList(c(), "strings", values, lengths, 2, small,
                                            sizeof(small), s_);
  EXPECT_EQ(TF_GetCode(s_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s_), "Not enough storage to hold the requested list of strings");
  EXPECT_EQ(lengths[1], 3u);  // filled before the check, as in TensorFlow
}

TEST_F(AttributesTest, GetAttrSize) {
  int32_t list_size = 0, total_size = 0;
  auto size = [&](const char* name) {
    TF_OpKernelConstruction_GetAttrSize(c(), name, &list_size, &total_size, s_);
    return std::make_pair(list_size, total_size);
  };
  EXPECT_EQ(size("name"), std::make_pair(-1, 5));
  EXPECT_EQ(size("n"), std::make_pair(-1, -1));
  EXPECT_EQ(size("shape"), std::make_pair(-1, 2));
  EXPECT_EQ(size("unknown"), std::make_pair(-1, -1));
  EXPECT_EQ(size("ints"), std::make_pair(3, -1));
  EXPECT_EQ(size("strings"), std::make_pair(2, 5));
  EXPECT_EQ(size("shapes"), std::make_pair(2, 2));  // unknown rank counts 0
  EXPECT_EQ(size("empty"), std::make_pair(0, -1));
  EXPECT_EQ(TF_GetCode(s_), TF_OK);
  EXPECT_EQ(size("missing"), std::make_pair(-1, -1));
  EXPECT_EQ(TF_GetCode(s_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s_), "Operation 'my_node' has no attr named 'missing'.");
  size("unset");
  EXPECT_EQ(TF_GetCode(s_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s_), "Attribute 'unset' has no value set");
}

TEST_F(AttributesTest, HasAttrLeavesStatusAlone) {
  TF_SetStatus(s_, TF_ABORTED, "keep");
  EXPECT_TRUE(TF_OpKernelConstruction_HasAttr(c(), "T", s_));
  EXPECT_FALSE(TF_OpKernelConstruction_HasAttr(c(), "nope", s_));
  EXPECT_EQ(TF_GetCode(s_), TF_ABORTED);
}

TEST_F(AttributesTest, TensorAttrIsAPluginOwnedHandle) {
  TF_Tensor* t = nullptr;
  TF_OpKernelConstruction_GetAttrTensor(c(), "value", &t, s_);
  ASSERT_EQ(TF_GetCode(s_), TF_OK);
  EXPECT_EQ(static_cast<int32_t*>(TF_TensorData(t))[1], 8);
  EXPECT_EQ(LiveDelta().tensors, 1);
  TF_DeleteTensor(t);
  EXPECT_EQ(LiveDelta().tensors, 0);
}

TEST_F(AttributesTest, TensorShapeAttr) {
  int64_t dims[2] = {0, 0};
  TF_OpKernelConstruction_GetAttrTensorShape(c(), "shape", dims, 2, s_);
  ASSERT_EQ(TF_GetCode(s_), TF_OK);
  EXPECT_EQ(dims[1], 3);
  TF_OpKernelConstruction_GetAttrTensorShape(c(), "shape", dims, 3, s_);
  EXPECT_STREQ(TF_Message(s_), "Expected rank is 3 but actual rank is 2");
  TF_OpKernelConstruction_GetAttrTensorShape(c(), "partial", dims, 2, s_);
  EXPECT_STREQ(TF_Message(s_), "Shape [2,?] is not fully defined");
}

TEST_F(AttributesTest, FunctionAttrIsASerializedNameAttrList) {
  TF_Buffer* buffer = TF_OpKernelConstruction_GetAttrFunction(c(), "func", s_);
  ASSERT_EQ(TF_GetCode(s_), TF_OK);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(std::string(static_cast<const char*>(buffer->data), buffer->length),
            std::string("\x0a\x01"
                        "f"));
  TF_DeleteBuffer(buffer);
  EXPECT_EQ(TF_OpKernelConstruction_GetAttrFunction(c(), "n", s_), nullptr);
  EXPECT_STREQ(TF_Message(s_), "AttrValue had value with type 'int' when 'func' expected");
}

TEST_F(AttributesTest, NameAndFailure) {
  TF_StringView name = TF_OpKernelConstruction_GetName(c());
  EXPECT_EQ(std::string(name.data, name.len), "my_node");
  TF_SetStatus(s_, TF_INVALID_ARGUMENT, "first");
  TF_OpKernelConstruction_Failure(c(), s_);
  TF_SetStatus(s_, TF_INTERNAL, "second");
  TF_OpKernelConstruction_Failure(c(), s_);
  EXPECT_EQ(ctor_.status().code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(ctor_.status().message, "first");
}

}  // namespace
}  // namespace conformance::core
