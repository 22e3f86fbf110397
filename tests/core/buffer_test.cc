// tf_buffer.h: copies, deallocators, NULL-safety.
#include <cstring>

#include <gtest/gtest.h>

#include "tensorflow/c/tf_buffer.h"

namespace {

int deallocations = 0;
void CountingDeallocator(void*, size_t) { ++deallocations; }

TEST(BufferTest, NewBufferFromStringCopies) {
  char bytes[] = "abc";
  TF_Buffer* b = TF_NewBufferFromString(bytes, 3);
  bytes[0] = 'x';
  ASSERT_EQ(b->length, 3u);
  EXPECT_EQ(std::memcmp(b->data, "abc", 3), 0);
  EXPECT_NE(b->data_deallocator, nullptr);
  TF_Buffer copy = TF_GetBuffer(b);
  EXPECT_EQ(copy.data, b->data);
  EXPECT_EQ(copy.length, 3u);
  TF_DeleteBuffer(b);
}

TEST(BufferTest, NewBufferIsEmpty) {
  TF_Buffer* b = TF_NewBuffer();
  EXPECT_EQ(b->data, nullptr);
  EXPECT_EQ(b->length, 0u);
  EXPECT_EQ(b->data_deallocator, nullptr);
  TF_DeleteBuffer(b);
}

TEST(BufferTest, DeleteRunsTheDeallocatorOnce) {
  deallocations = 0;
  TF_Buffer* b = TF_NewBuffer();
  static char payload[4];
  b->data = payload;
  b->length = 4;
  b->data_deallocator = CountingDeallocator;
  TF_DeleteBuffer(b);
  EXPECT_EQ(deallocations, 1);
  TF_DeleteBuffer(nullptr);
}

}  // namespace
