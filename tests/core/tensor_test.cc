// tf_tensor.h: shared refcounted buffers, deallocators exactly once, alignment, bitcast.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "core/tensor.h"
#include "tensorflow/c/tf_tensor.h"

namespace {

struct DeallocCounter {
  int calls = 0;
  void* last_data = nullptr;
  size_t last_len = 0;
};

void CountingDeallocator(void* data, size_t len, void* arg) {
  auto* counter = static_cast<DeallocCounter*>(arg);
  ++counter->calls;
  counter->last_data = data;
  counter->last_len = len;
}

TEST(TensorTest, NewTensorWrapsAlignedMemoryAndDeallocatesOnce) {
  alignas(64) static float data[6] = {1, 2, 3, 4, 5, 6};
  DeallocCounter counter;
  const int64_t dims[] = {2, 3};
  TF_Tensor* t = TF_NewTensor(TF_FLOAT, dims, 2, data, sizeof(data), CountingDeallocator, &counter);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(TF_TensorData(t), data);
  EXPECT_EQ(TF_TensorType(t), TF_FLOAT);
  EXPECT_EQ(TF_NumDims(t), 2);
  EXPECT_EQ(TF_Dim(t, 0), 2);
  EXPECT_EQ(TF_Dim(t, 1), 3);
  EXPECT_EQ(TF_TensorElementCount(t), 6);
  EXPECT_EQ(TF_TensorByteSize(t), sizeof(data));
  EXPECT_TRUE(TF_TensorIsAligned(t));
  EXPECT_EQ(TF_TensorMaybeMove(t), nullptr);  // caller memory is never moved
  TF_DeleteTensor(t);
  EXPECT_EQ(counter.calls, 1);
  EXPECT_EQ(counter.last_data, data);
  EXPECT_EQ(counter.last_len, sizeof(data));
}

TEST(TensorTest, MisalignedPodDataIsCopiedAndReleasedAtOnce) {
  alignas(64) static char storage[64 + sizeof(float) * 2];
  void* misaligned = storage + 4;
  const float values[2] = {7, 8};
  std::memcpy(misaligned, values, sizeof(values));
  DeallocCounter counter;
  const int64_t dims[] = {2};
  TF_Tensor* t =
      TF_NewTensor(TF_FLOAT, dims, 1, misaligned, sizeof(values), CountingDeallocator, &counter);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(counter.calls, 1);  // given back immediately, as TensorFlow does
  EXPECT_NE(TF_TensorData(t), misaligned);
  EXPECT_TRUE(TF_TensorIsAligned(t));
  EXPECT_EQ(static_cast<float*>(TF_TensorData(t))[1], 8.0f);
  TF_DeleteTensor(t);
  EXPECT_EQ(counter.calls, 1);
}

TEST(TensorTest, TooShortBufferIsRejectedAndDeallocated) {
  alignas(64) static float data[2];
  DeallocCounter counter;
  const int64_t dims[] = {3};
  EXPECT_EQ(TF_NewTensor(TF_FLOAT, dims, 1, data, sizeof(data), CountingDeallocator, &counter),
            nullptr);
  EXPECT_EQ(counter.calls, 1);
}

TEST(TensorTest, SharedBufferIsReleasedByTheLastView) {
  alignas(64) static int32_t data[4] = {1, 2, 3, 4};
  DeallocCounter counter;
  const int64_t dims[] = {4};
  TF_Tensor* a = TF_NewTensor(TF_INT32, dims, 1, data, sizeof(data), CountingDeallocator, &counter);
  TF_Tensor* b = TF_AllocateTensor(TF_INT32, dims, 1, sizeof(data));
  TF_Status* status = TF_NewStatus();
  TF_TensorBitcastFrom(a, TF_INT32, b, dims, 1, status);  // b now shares a's buffer
  ASSERT_EQ(TF_GetCode(status), TF_OK);
  EXPECT_EQ(TF_TensorData(b), data);
  TF_DeleteTensor(a);
  EXPECT_EQ(counter.calls, 0);
  TF_DeleteTensor(b);
  EXPECT_EQ(counter.calls, 1);
  TF_DeleteStatus(status);
}

TEST(TensorTest, AllocateTensorIsAlignedAndMovable) {
  const int64_t dims[] = {3, 5};
  TF_Tensor* t = TF_AllocateTensor(TF_DOUBLE, dims, 2, 15 * sizeof(double));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(TF_TensorData(t)) % TF_TensorDefaultAlignment(), 0u);
  EXPECT_EQ(TF_TensorDefaultAlignment(), 64u);
  EXPECT_EQ(TF_TensorMaybeMove(t), t);
  TF_DeleteTensor(t);
  EXPECT_EQ(TF_AllocateTensor(TF_DOUBLE, dims, 2, 8), nullptr);  // shorter than the shape
}

TEST(TensorTest, SetShapeKeepsTheBuffer) {
  const int64_t dims[] = {2, 3};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 2, 24);
  void* data = TF_TensorData(t);
  const int64_t flat[] = {6};
  TF_SetShape(t, flat, 1);
  EXPECT_EQ(TF_NumDims(t), 1);
  EXPECT_EQ(TF_Dim(t, 0), 6);
  EXPECT_EQ(TF_TensorData(t), data);
  TF_DeleteTensor(t);
}

TEST(TensorTest, BitcastErrors) {
  const int64_t dims[] = {4};
  TF_Tensor* f = TF_AllocateTensor(TF_FLOAT, dims, 1, 16);
  TF_Tensor* to = TF_AllocateTensor(TF_FLOAT, dims, 1, 16);
  TF_Status* s = TF_NewStatus();

  const int64_t two[] = {2};
  TF_TensorBitcastFrom(f, TF_DOUBLE, to, two, 1, s);  // 4 floats == 2 doubles
  EXPECT_EQ(TF_GetCode(s), TF_OK);
  EXPECT_EQ(TF_TensorType(to), TF_DOUBLE);

  const int64_t three[] = {3};
  TF_TensorBitcastFrom(f, TF_DOUBLE, to, three, 1, s);
  EXPECT_EQ(TF_GetCode(s), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s), "input and output shapes/data type sizes are not compatible");

  TF_TensorBitcastFrom(f, TF_STRING, to, dims, 1, s);
  EXPECT_EQ(TF_GetCode(s), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s), "specified output type is zero-sized");

  const int64_t negative[] = {-1};
  TF_TensorBitcastFrom(f, TF_FLOAT, to, negative, 1, s);
  EXPECT_EQ(TF_GetCode(s), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s), "Expected a non-negative size, got -1");

  TF_Tensor* str = TF_NewTensor(TF_STRING, dims, 1, nullptr, 0, nullptr, nullptr);
  ASSERT_NE(str, nullptr);
  TF_TensorBitcastFrom(str, TF_FLOAT, to, dims, 1, s);
  EXPECT_EQ(TF_GetCode(s), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s), "other tensor has zero-sized data type");

  TF_DeleteTensor(str);
  TF_DeleteTensor(f);
  TF_DeleteTensor(to);
  TF_DeleteStatus(s);
}

TEST(TensorTest, ScalarAndEmptyTensors) {
  TF_Tensor* scalar = TF_AllocateTensor(TF_INT64, nullptr, 0, 8);
  EXPECT_EQ(TF_NumDims(scalar), 0);
  EXPECT_EQ(TF_TensorElementCount(scalar), 1);
  TF_DeleteTensor(scalar);
  const int64_t dims[] = {0, 4};
  TF_Tensor* empty = TF_AllocateTensor(TF_FLOAT, dims, 2, 0);
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(TF_TensorElementCount(empty), 0);
  EXPECT_TRUE(TF_TensorIsAligned(empty));
  TF_DeleteTensor(empty);
  TF_DeleteTensor(nullptr);  // allowed
}

TEST(TensorDeathTest, DimOutOfRangeAborts) {
  const int64_t dims[] = {2};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 1, 8);
  EXPECT_DEATH(TF_Dim(t, 1), "TF_Dim: dimension index 1 out of range");
  TF_DeleteTensor(t);
}

TEST(TensorDeathTest, NegativeDimensionAborts) {
  const int64_t dims[] = {-2};
  EXPECT_DEATH(TF_AllocateTensor(TF_FLOAT, dims, 1, 8), "TF_AllocateTensor: dimension 0 is -2");
}

}  // namespace
