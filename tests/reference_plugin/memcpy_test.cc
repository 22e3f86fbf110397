// Copies in all three directions, asynchronous and synchronous, with offsets, odd sizes and
// bad arguments.
#include <cstring>
#include <vector>

#include "plugin_test_support.h"

namespace reference_plugin_test {
namespace {

constexpr uint64_t kBufferSize = 4099;
constexpr uint64_t kOffsets[] = {0, 1, 3, 64, 255, 256, 1000};
constexpr uint64_t kSizes[] = {1, 2, 3, 7, 255, 257, 1001, 3000};
constexpr uint8_t kGuard = 0xee;

class MemcpyTest : public ReferencePluginTest {};

// host -> device -> device -> host on one stream, byte for byte; the host buffer around the
// result must stay untouched.
TEST_F(MemcpyTest, AsyncRoundTripAllDirections) {
  TestStream stream(device());
  DeviceBuffer first(device(), kBufferSize), second(device(), kBufferSize);
  ASSERT_TRUE(first.allocated() && second.allocated());
  uint32_t seed = 1;
  for (uint64_t offset : kOffsets) {
    for (uint64_t size : kSizes) {
      if (offset + size > kBufferSize) continue;
      const auto source = pattern_bytes(size, seed++);
      std::vector<uint8_t> result(size + 2, kGuard);
      SP_DeviceMemoryBase first_slice = first.at(offset, size);
      SP_DeviceMemoryBase second_slice = second.at(kBufferSize - size - offset, size);
      TfStatus s1, s2, s3;
      se().memcpy_htod(device().get(), stream.get(), &first_slice, source.data(), size, s1);
      se().memcpy_dtod(device().get(), stream.get(), &second_slice, &first_slice, size, s2);
      se().memcpy_dtoh(device().get(), stream.get(), result.data() + 1, &second_slice, size, s3);
      ASSERT_TRUE(s1.ok() && s2.ok() && s3.ok()) << describe(s1) << describe(s2) << describe(s3);
      ASSERT_EQ(stream.wait(), TF_OK);
      EXPECT_EQ(result.front(), kGuard);
      EXPECT_EQ(result.back(), kGuard);
      EXPECT_TRUE(std::equal(source.begin(), source.end(), result.begin() + 1))
          << "offset " << offset << " size " << size;
    }
  }
}

TEST_F(MemcpyTest, SyncRoundTripAllDirections) {
  DeviceBuffer first(device(), kBufferSize), second(device(), kBufferSize);
  ASSERT_TRUE(first.allocated() && second.allocated());
  uint32_t seed = 100;
  for (uint64_t offset : kOffsets) {
    for (uint64_t size : kSizes) {
      if (offset + size > kBufferSize) continue;
      const auto source = pattern_bytes(size, seed++);
      std::vector<uint8_t> result(size + 2, kGuard);
      SP_DeviceMemoryBase first_slice = first.at(offset, size);
      SP_DeviceMemoryBase second_slice = second.at(kBufferSize - size - offset, size);
      // Synchronous copies are complete on return: no waiting in between.
      TfStatus s1, s2, s3;
      se().sync_memcpy_htod(device().get(), &first_slice, source.data(), size, s1);
      se().sync_memcpy_dtod(device().get(), &second_slice, &first_slice, size, s2);
      se().sync_memcpy_dtoh(device().get(), result.data() + 1, &second_slice, size, s3);
      ASSERT_TRUE(s1.ok() && s2.ok() && s3.ok()) << describe(s1) << describe(s2) << describe(s3);
      EXPECT_EQ(result.front(), kGuard);
      EXPECT_EQ(result.back(), kGuard);
      EXPECT_TRUE(std::equal(source.begin(), source.end(), result.begin() + 1))
          << "offset " << offset << " size " << size;
    }
  }
}

TEST_F(MemcpyTest, CopiesDoNotTouchNeighbouringBytes) {
  TestStream stream(device());
  DeviceBuffer buffer(device(), 64);
  write_device(device(), *buffer.get(), std::vector<uint8_t>(64, kGuard));
  const std::vector<uint8_t> middle = {1, 2, 3, 4, 5};
  SP_DeviceMemoryBase slice = buffer.at(30, 5);
  TfStatus status;
  se().memcpy_htod(device().get(), stream.get(), &slice, middle.data(), 5, status);
  ASSERT_TRUE(status.ok());
  ASSERT_EQ(stream.wait(), TF_OK);
  auto bytes = read_device(device(), *buffer.get(), 64);
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(bytes[i], (i >= 30 && i < 35) ? middle[i - 30] : kGuard) << i;
  }
}

TEST_F(MemcpyTest, AsyncCopyReallyIsAsynchronous) {
  TestStream stream(device());
  Gate gate;
  DeviceBuffer buffer(device(), 16);
  write_device(device(), *buffer.get(), std::vector<uint8_t>(16, 0));
  gate.enqueue(device(), stream);
  const std::vector<uint8_t> ones(16, 1);
  TfStatus status;
  se().memcpy_htod(device().get(), stream.get(), buffer.get(), ones.data(), 16, status);
  ASSERT_TRUE(status.ok());
  gate.wait_until_reached();
  // Queued behind the gate: not done yet.
  EXPECT_EQ(read_device(device(), *buffer.get(), 16), std::vector<uint8_t>(16, 0));
  gate.open();
  ASSERT_EQ(stream.wait(), TF_OK);
  EXPECT_EQ(read_device(device(), *buffer.get(), 16), ones);
}

TEST_F(MemcpyTest, ZeroBytesIsAlwaysFine) {
  TestStream stream(device());
  SP_DeviceMemoryBase null_memory{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, nullptr, 0, 0};
  TfStatus status;
  se().memcpy_htod(device().get(), stream.get(), &null_memory, nullptr, 0, status);
  EXPECT_TRUE(status.ok()) << describe(status);
  status.poison();
  se().memcpy_dtoh(device().get(), stream.get(), nullptr, &null_memory, 0, status);
  EXPECT_TRUE(status.ok()) << describe(status);
  status.poison();
  se().sync_memcpy_dtod(device().get(), &null_memory, &null_memory, 0, status);
  EXPECT_TRUE(status.ok()) << describe(status);
}

TEST_F(MemcpyTest, CopyPastTheBufferSizeIsOutOfRange) {
  TestStream stream(device());
  DeviceBuffer buffer(device(), 100);
  std::vector<uint8_t> host(200);
  TfStatus status;
  se().memcpy_htod(device().get(), stream.get(), buffer.get(), host.data(), 101, status);
  EXPECT_EQ(status.code(), TF_OUT_OF_RANGE) << describe(status);
  status.poison();
  se().memcpy_dtoh(device().get(), stream.get(), host.data(), buffer.get(), 101, status);
  EXPECT_EQ(status.code(), TF_OUT_OF_RANGE) << describe(status);
  status.poison();
  se().sync_memcpy_dtoh(device().get(), host.data(), buffer.get(), 200, status);
  EXPECT_EQ(status.code(), TF_OUT_OF_RANGE) << describe(status);
  // A slice that claims more than the allocation has left is caught too.
  SP_DeviceMemoryBase lying_slice = buffer.at(90, 20);
  status.poison();
  se().memcpy_htod(device().get(), stream.get(), &lying_slice, host.data(), 20, status);
  EXPECT_EQ(status.code(), TF_OUT_OF_RANGE) << describe(status);
  // Argument errors are reported by the call; the stream itself stays healthy.
  EXPECT_EQ(stream.status(), TF_OK);
}

TEST_F(MemcpyTest, NullOrUnknownPointersAreInvalidArguments) {
  TestStream stream(device());
  DeviceBuffer buffer(device(), 100);
  std::vector<uint8_t> host(100);
  SP_DeviceMemoryBase null_memory{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, nullptr, 100, 0};
  SP_DeviceMemoryBase host_as_device{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, host.data(), 100,
                                     0};
  TfStatus status;
  se().memcpy_htod(device().get(), stream.get(), &null_memory, host.data(), 10, status);
  EXPECT_EQ(status.code(), TF_INVALID_ARGUMENT) << describe(status);
  status.poison();
  se().memcpy_htod(device().get(), stream.get(), buffer.get(), nullptr, 10, status);
  EXPECT_EQ(status.code(), TF_INVALID_ARGUMENT) << describe(status);
  status.poison();
  se().memcpy_dtoh(device().get(), stream.get(), nullptr, buffer.get(), 10, status);
  EXPECT_EQ(status.code(), TF_INVALID_ARGUMENT) << describe(status);
  status.poison();
  se().memcpy_dtod(device().get(), stream.get(), buffer.get(), &host_as_device, 10, status);
  EXPECT_EQ(status.code(), TF_INVALID_ARGUMENT) << describe(status);
  status.poison();
  se().memcpy_dtod(device().get(), stream.get(), buffer.get(), nullptr, 10, status);
  EXPECT_EQ(status.code(), TF_INVALID_ARGUMENT) << describe(status);
  EXPECT_EQ(stream.status(), TF_OK);
}

TEST_F(MemcpyTest, FreedMemoryIsAnInvalidArgument) {
  TestStream stream(device());
  auto buffer = std::make_unique<DeviceBuffer>(device(), 512);
  SP_DeviceMemoryBase stale = *buffer->get();
  buffer.reset();
  std::vector<uint8_t> host(512);
  TfStatus status;
  se().memcpy_dtoh(device().get(), stream.get(), host.data(), &stale, 512, status);
  EXPECT_EQ(status.code(), TF_INVALID_ARGUMENT) << describe(status);
}

TEST_F(MemcpyTest, UnknownStreamIsAnInvalidArgument) {
  DeviceBuffer buffer(device(), 16);
  std::vector<uint8_t> host(16);
  SP_Stream stale = nullptr;
  {
    TestStream stream(device());
    stale = stream.get();
  }
  TfStatus status;
  se().memcpy_htod(device().get(), stale, buffer.get(), host.data(), 16, status);
  EXPECT_EQ(status.code(), TF_INVALID_ARGUMENT) << describe(status);
  status.poison();
  se().memcpy_htod(device().get(), nullptr, buffer.get(), host.data(), 16, status);
  EXPECT_EQ(status.code(), TF_INVALID_ARGUMENT) << describe(status);
}

TEST_F(MemcpyTest, DeviceToDeviceAcrossDevices) {
  TestDevice other(registration(), 1);
  ASSERT_TRUE(other.ok());
  TestStream stream(device());
  DeviceBuffer source(device(), 3333), destination(other, 3333);
  const auto bytes = pattern_bytes(3333, 7);
  write_device(device(), *source.get(), bytes);
  TfStatus status;
  se().memcpy_dtod(device().get(), stream.get(), destination.get(), source.get(), 3333, status);
  ASSERT_TRUE(status.ok()) << describe(status);
  ASSERT_EQ(stream.wait(), TF_OK);
  EXPECT_EQ(read_device(other, *destination.get(), 3333), bytes);
}

}  // namespace
}  // namespace reference_plugin_test
