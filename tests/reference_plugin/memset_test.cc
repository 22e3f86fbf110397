// mem_zero, memset (8-bit pattern) and memset32 (32-bit pattern, size in bytes).
#include <cstring>
#include <vector>

#include "plugin_test_support.h"

namespace reference_plugin_test {
namespace {

constexpr uint8_t kGuard = 0xee;

class MemsetTest : public ReferencePluginTest {
 protected:
  // A 256-byte buffer full of kGuard, to see exactly which bytes a fill touched.
  void SetUp() override {
    ReferencePluginTest::SetUp();
    stream_ = std::make_unique<TestStream>(device());
    buffer_ = std::make_unique<DeviceBuffer>(device(), 256);
    write_device(device(), *buffer_->get(), std::vector<uint8_t>(256, kGuard));
  }
  void TearDown() override {
    buffer_.reset();
    stream_.reset();
    ReferencePluginTest::TearDown();
  }
  std::vector<uint8_t> contents() {
    EXPECT_EQ(stream_->wait(), TF_OK);
    return read_device(device(), *buffer_->get(), 256);
  }

  std::unique_ptr<TestStream> stream_;
  std::unique_ptr<DeviceBuffer> buffer_;
};

TEST_F(MemsetTest, MemZeroClearsExactlyTheRange) {
  SP_DeviceMemoryBase slice = buffer_->at(5, 11);
  TfStatus status;
  se().mem_zero(device().get(), stream_->get(), &slice, 11, status);
  ASSERT_TRUE(status.ok()) << describe(status);
  auto bytes = contents();
  for (int i = 0; i < 256; ++i) EXPECT_EQ(bytes[i], (i >= 5 && i < 16) ? 0 : kGuard) << i;
}

TEST_F(MemsetTest, MemsetWritesTheBytePattern) {
  SP_DeviceMemoryBase slice = buffer_->at(1, 254);
  TfStatus status;
  se().memset(device().get(), stream_->get(), &slice, 0x3c, 254, status);
  ASSERT_TRUE(status.ok()) << describe(status);
  auto bytes = contents();
  EXPECT_EQ(bytes[0], kGuard);
  EXPECT_EQ(bytes[255], kGuard);
  for (int i = 1; i < 255; ++i) EXPECT_EQ(bytes[i], 0x3c) << i;
}

TEST_F(MemsetTest, Memset32WritesTheWordPatternOverSizeBytes) {
  const uint32_t pattern = 0x11223344;
  SP_DeviceMemoryBase slice = buffer_->at(8, 40);
  TfStatus status;
  se().memset32(device().get(), stream_->get(), &slice, pattern, 40, status);  // 10 words
  ASSERT_TRUE(status.ok()) << describe(status);
  auto bytes = contents();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(bytes[i], kGuard);
  for (std::size_t word = 0; word < 10; ++word) {
    uint32_t value;
    std::memcpy(&value, bytes.data() + 8 + 4 * word, 4);
    EXPECT_EQ(value, pattern) << word;
  }
  for (int i = 48; i < 256; ++i) EXPECT_EQ(bytes[i], kGuard) << i;
}

TEST_F(MemsetTest, Memset32RejectsASizeThatIsNotWholeWords) {
  TfStatus status;
  se().memset32(device().get(), stream_->get(), buffer_->get(), 1, 6, status);
  EXPECT_EQ(status.code(), TF_INVALID_ARGUMENT) << describe(status);
  EXPECT_EQ(contents(), std::vector<uint8_t>(256, kGuard));
}

TEST_F(MemsetTest, Memset32RejectsAnUnalignedDestination) {
  SP_DeviceMemoryBase slice = buffer_->at(2, 8);
  TfStatus status;
  se().memset32(device().get(), stream_->get(), &slice, 1, 8, status);
  EXPECT_EQ(status.code(), TF_INVALID_ARGUMENT) << describe(status);
}

TEST_F(MemsetTest, FillsPastTheEndAreOutOfRange) {
  SP_DeviceMemoryBase slice = buffer_->at(200, 56);
  TfStatus status;
  se().mem_zero(device().get(), stream_->get(), &slice, 57, status);
  EXPECT_EQ(status.code(), TF_OUT_OF_RANGE) << describe(status);
  status.poison();
  se().memset(device().get(), stream_->get(), buffer_->get(), 1, 257, status);
  EXPECT_EQ(status.code(), TF_OUT_OF_RANGE) << describe(status);
  status.poison();
  se().memset32(device().get(), stream_->get(), buffer_->get(), 1, 260, status);
  EXPECT_EQ(status.code(), TF_OUT_OF_RANGE) << describe(status);
  EXPECT_EQ(contents(), std::vector<uint8_t>(256, kGuard));
  EXPECT_EQ(stream_->status(), TF_OK);
}

TEST_F(MemsetTest, ZeroBytesIsFine) {
  TfStatus status;
  se().memset32(device().get(), stream_->get(), buffer_->get(), 1, 0, status);
  EXPECT_TRUE(status.ok()) << describe(status);
  status.poison();
  se().mem_zero(device().get(), stream_->get(), buffer_->get(), 0, status);
  EXPECT_TRUE(status.ok()) << describe(status);
  EXPECT_EQ(contents(), std::vector<uint8_t>(256, kGuard));
}

}  // namespace
}  // namespace reference_plugin_test
