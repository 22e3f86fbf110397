// TF_TensorFromProto: TensorProtos decoded as the 2.15.1 and 2.21.0 wheels decode them
// (measured with ctypes on libtensorflow_cc.so.2; the expected bytes below are theirs).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tensorflow/c/c_api.h"
#include "wire_bytes.h"

namespace {

using conformance::core::testing::BytesField;
using conformance::core::testing::Fixed32Field;
using conformance::core::testing::VarintField;

// TensorShapeProto with dims of these sizes (dim = 2 {size = 1}).
std::string Shape(std::vector<int64_t> dims) {
  std::string shape;
  for (int64_t dim : dims) shape += BytesField(2, VarintField(1, static_cast<uint64_t>(dim)));
  return BytesField(2, shape);
}

struct Decoded {
  TF_Code code;
  std::string message;
  TF_DataType dtype;
  std::vector<int64_t> dims;
  std::string bytes;
};

// Decodes `proto` into a fresh float tensor of shape [0], as the measurement did.
Decoded Decode(const std::string& proto) {
  const int64_t empty[] = {0};
  TF_Tensor* tensor = TF_AllocateTensor(TF_FLOAT, empty, 1, 0);
  TF_Buffer* buffer = TF_NewBufferFromString(proto.data(), proto.size());
  TF_Status* status = TF_NewStatus();
  TF_TensorFromProto(buffer, tensor, status);
  Decoded out{TF_GetCode(status), TF_Message(status), TF_TensorType(tensor), {}, {}};
  for (int i = 0; i < TF_NumDims(tensor); ++i) out.dims.push_back(TF_Dim(tensor, i));
  if (TF_TensorByteSize(tensor) > 0) {
    out.bytes.assign(static_cast<const char*>(TF_TensorData(tensor)), TF_TensorByteSize(tensor));
  }
  TF_DeleteStatus(status);
  TF_DeleteBuffer(buffer);
  TF_DeleteTensor(tensor);
  return out;
}

template <typename T>
std::string Bytes(std::vector<T> values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

TEST(TensorFromProtoTest, TensorContentIsTheElements) {
  const Decoded d =
      Decode(VarintField(1, TF_FLOAT) + Shape({3}) + BytesField(4, Bytes<float>({1, 2, 3})));
  EXPECT_EQ(d.code, TF_OK) << d.message;
  EXPECT_EQ(d.dtype, TF_FLOAT);
  EXPECT_EQ(d.dims, (std::vector<int64_t>{3}));
  EXPECT_EQ(d.bytes, Bytes<float>({1, 2, 3}));
}

TEST(TensorFromProtoTest, OneTypedValueFillsTheShape) {
  const Decoded d = Decode(VarintField(1, TF_FLOAT) + Shape({3}) + Fixed32Field(5, 0x40e00000));
  EXPECT_EQ(d.code, TF_OK) << d.message;
  EXPECT_EQ(d.bytes, Bytes<float>({7, 7, 7}));
}

TEST(TensorFromProtoTest, FewerValuesRepeatTheLastMoreAreCut) {
  const std::string packed = BytesField(7, "\x01\x02");  // int_val [1, 2], packed
  Decoded d = Decode(VarintField(1, TF_INT32) + Shape({2, 2}) + packed);
  EXPECT_EQ(d.code, TF_OK) << d.message;
  EXPECT_EQ(d.dims, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(d.bytes, Bytes<int32_t>({1, 2, 2, 2}));
  d = Decode(VarintField(1, TF_INT32) + Shape({2}) + BytesField(7, "\x01\x02\x03"));
  EXPECT_EQ(d.code, TF_OK) << d.message;
  EXPECT_EQ(d.bytes, Bytes<int32_t>({1, 2}));
}

TEST(TensorFromProtoTest, NoValuesAreZeros) {
  const Decoded d = Decode(VarintField(1, TF_FLOAT) + Shape({2}));
  EXPECT_EQ(d.code, TF_OK) << d.message;
  EXPECT_EQ(d.bytes, Bytes<float>({0, 0}));
}

TEST(TensorFromProtoTest, TypedFieldsOfOtherDtypes) {
  // half_val holds bfloat16 bits; bool_val; int64_val with a negative value.
  Decoded d = Decode(VarintField(1, TF_BFLOAT16) + Shape({2}) + VarintField(13, 0x3c00));
  EXPECT_EQ(d.code, TF_OK) << d.message;
  EXPECT_EQ(d.bytes, Bytes<uint16_t>({0x3c00, 0x3c00}));
  d = Decode(VarintField(1, TF_BOOL) + Shape({2}) + VarintField(11, 1));
  EXPECT_EQ(d.bytes, std::string("\x01\x01", 2));
  d = Decode(VarintField(1, TF_INT64) + Shape({2}) +
             BytesField(10, "\x05\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"));
  EXPECT_EQ(d.code, TF_OK) << d.message;
  EXPECT_EQ(d.bytes, Bytes<int64_t>({5, -1}));
}

TEST(TensorFromProtoTest, InvalidTensorsLeaveTheTargetAlone) {
  const std::vector<std::string> invalid = {
      "",                                                                           // dtype 0
      VarintField(1, TF_FLOAT) + Shape({2}) + BytesField(4, std::string(4, '\0')),  // short
      VarintField(1, TF_FLOAT) + Shape({-1}),                                       // negative dim
  };
  for (const std::string& proto : invalid) {
    const Decoded d = Decode(proto);
    EXPECT_EQ(d.code, TF_INVALID_ARGUMENT);
    EXPECT_EQ(d.message, "Unparseable tensor proto");
    EXPECT_EQ(d.dtype, TF_FLOAT);
    EXPECT_EQ(d.dims, (std::vector<int64_t>{0}));
  }
}

TEST(TensorFromProtoTest, BytesThatAreNoProto) {
  const Decoded d = Decode("\xff\xff\xff");
  EXPECT_EQ(d.code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(d.message, "Unparseable tensorflow.TensorProto proto");
  EXPECT_EQ(d.dims, (std::vector<int64_t>{0}));
}

TEST(TensorFromProtoTest, StringTensorsAreNotImplementedHere) {
  const Decoded d = Decode(VarintField(1, TF_STRING) + Shape({1}) + BytesField(8, "a"));
  EXPECT_EQ(d.code, TF_UNIMPLEMENTED);
  EXPECT_EQ(d.dtype, TF_FLOAT);
}

}  // namespace
