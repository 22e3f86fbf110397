// TF_OpKernelConstruction_GetNodeDef: a protobuf-wire NodeDef, maps ordered by key.
#include <string>

#include <gtest/gtest.h>

#include "core/kernel_context.h"
#include "core/proto_serialize.h"
#include "tensorflow/c/kernels.h"

namespace conformance::core {
namespace {

std::string Bytes(TF_Buffer* b) {
  return std::string(static_cast<const char*>(b->data), b->length);
}

TEST(NodeDefTest, SerializesNameOpInputsDeviceAndAttrs) {
  KernelConstruction ctor(NodeDef{.name = "n",
                                  .op = "Add",
                                  .inputs = {"a"},
                                  .device = "/d",
                                  .attrs = {{"T", TF_FLOAT}, {"k", int64_t{0}}}});
  TF_Status* s = TF_NewStatus();
  TF_Buffer* b = TF_OpKernelConstruction_GetNodeDef(ctor.c_handle(), s);
  ASSERT_EQ(TF_GetCode(s), TF_OK);
  const std::string expected =
      std::string("\x0a\x01n") +  // name
      "\x12\x03"
      "Add" +  // op
      "\x1a\x01"
      "a" +                                                  // input
      "\x22\x02/d" +                                         // device
      std::string("\x2a\x07\x0a\x01T\x12\x02\x30\x01", 9) +  // attr T {type: FLOAT}
      std::string("\x2a\x07\x0a\x01k\x12\x02\x18\x00", 9);   // attr k {i: 0}
  EXPECT_EQ(Bytes(b), expected);
  TF_DeleteBuffer(b);
  TF_DeleteStatus(s);
}

TEST(NodeDefTest, AttrValueKinds) {
  EXPECT_EQ(SerializeAttrValue(AttrList{.i = {1, 300}}),
            std::string("\x0a\x05\x1a\x03\x01\xac\x02", 7));
  EXPECT_EQ(SerializeAttrValue(AttrList{}), std::string("\x0a\x00", 2));  // empty list is set
  EXPECT_EQ(SerializeAttrValue(true), std::string("\x28\x01", 2));
  EXPECT_EQ(SerializeAttrValue(1.0f), std::string("\x25\x00\x00\x80\x3f", 5));
  EXPECT_EQ(
      SerializeAttrValue(PartialShape::Of({2, -1})),
      std::string("\x3a\x11\x12\x02\x08\x02\x12\x0b\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
                  19));
  EXPECT_EQ(SerializeAttrValue(PartialShape::Unknown()), std::string("\x3a\x02\x18\x01", 4));
  EXPECT_EQ(SerializeAttrValue(AttrNotSet{}), "");
}

}  // namespace
}  // namespace conformance::core
