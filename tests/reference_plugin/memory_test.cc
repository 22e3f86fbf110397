// Device, host and unified memory, and the statistics that describe device memory.
#include <cstring>
#include <vector>

#include "plugin_test_support.h"

namespace reference_plugin_test {
namespace {

constexpr uint64_t kGranule = 256;      // the reference plugin's allocation granule
constexpr int64_t kCapacity = 1 << 30;  // default REFERENCE_PLUGIN_MEMORY_BYTES

uint64_t rounded(uint64_t size) { return (size + kGranule - 1) / kGranule * kGranule; }

class MemoryTest : public ReferencePluginTest {};

TEST_F(MemoryTest, ZeroBytesGivesNullAndCostsNothing) {
  const SP_AllocatorStats before = allocator_stats(device());
  SP_DeviceMemoryBase memory{};
  memory.struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
  memory.opaque = reinterpret_cast<void*>(0x1);  // poison: the plugin must overwrite it
  memory.size = 77;
  se().allocate(device().get(), 0, 0, &memory);
  EXPECT_EQ(memory.struct_size, SP_DEVICE_MEMORY_BASE_STRUCT_SIZE);
  EXPECT_EQ(memory.opaque, nullptr);
  EXPECT_EQ(memory.size, 0u);
  EXPECT_EQ(allocator_stats(device()).num_allocs, before.num_allocs);
  se().deallocate(device().get(), &memory);  // deallocating the NULL result is a no-op
}

TEST_F(MemoryTest, DeallocateNullIsANoOp) {
  SP_DeviceMemoryBase memory{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, nullptr, 0, 0};
  se().deallocate(device().get(), &memory);
  EXPECT_EQ(allocator_stats(device()).bytes_in_use, 0);
}

TEST_F(MemoryTest, SizesAreHonouredAndAligned) {
  for (uint64_t size :
       {1ull, 3ull, 255ull, 256ull, 257ull, 4095ull, 4096ull, 4097ull, 1000003ull, 64ull << 20}) {
    DeviceBuffer buffer(device(), size);
    ASSERT_TRUE(buffer.allocated()) << size;
    EXPECT_EQ(buffer.size(), size);
    EXPECT_EQ(buffer.get()->struct_size, SP_DEVICE_MEMORY_BASE_STRUCT_SIZE);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer.get()->opaque) % kGranule, 0u) << size;
    // Both ends are usable.
    std::vector<uint8_t> ends = {0xab};
    write_device(device(), buffer.at(0, 1), ends);
    write_device(device(), buffer.at(size - 1, 1), ends);
    EXPECT_EQ(read_device(device(), buffer.at(size - 1, 1), 1), ends);
  }
}

TEST_F(MemoryTest, LiveAllocationsDoNotOverlap) {
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;
  for (uint64_t size = 1; size < 5000; size = size * 3 + 1) {
    buffers.push_back(std::make_unique<DeviceBuffer>(device(), size));
    ASSERT_TRUE(buffers.back()->allocated());
  }
  for (size_t i = 0; i < buffers.size(); ++i) {
    for (size_t j = i + 1; j < buffers.size(); ++j) {
      auto a = reinterpret_cast<uintptr_t>(buffers[i]->get()->opaque);
      auto b = reinterpret_cast<uintptr_t>(buffers[j]->get()->opaque);
      EXPECT_TRUE(a + buffers[i]->size() <= b || b + buffers[j]->size() <= a);
    }
  }
}

TEST_F(MemoryTest, WholeCapacityIsAllocatableWithoutCommittingIt) {
  // The arena is reserved lazily, so asking for all of it is cheap.
  DeviceBuffer whole(device(), kCapacity);
  ASSERT_TRUE(whole.allocated());
  EXPECT_EQ(memory_usage(device()).free, 0);
  DeviceBuffer one_more(device(), 1);
  EXPECT_FALSE(one_more.allocated());
  whole.release();
  DeviceBuffer again(device(), kCapacity);
  EXPECT_TRUE(again.allocated());
}

TEST_F(MemoryTest, BeyondCapacityGivesNull) {
  for (uint64_t size : {uint64_t(kCapacity) + 1, uint64_t(kCapacity) * 4, UINT64_MAX}) {
    SP_DeviceMemoryBase memory{};
    memory.struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
    se().allocate(device().get(), size, 0, &memory);
    EXPECT_EQ(memory.opaque, nullptr) << size;
  }
  EXPECT_EQ(allocator_stats(device()).num_allocs, 0);
}

TEST_F(MemoryTest, FreedMemoryIsReusedAfterFragmentation) {
  ScopedEnv memory("REFERENCE_PLUGIN_MEMORY_BYTES", "64K");
  Registration small;
  ASSERT_TRUE(small.ok());
  TestDevice dev(small, 0);
  std::vector<std::unique_ptr<DeviceBuffer>> blocks;
  for (int i = 0; i < 64; ++i) {
    blocks.push_back(std::make_unique<DeviceBuffer>(dev, 1024));
    ASSERT_TRUE(blocks.back()->allocated()) << i;
  }
  EXPECT_FALSE(DeviceBuffer(dev, 1).allocated());
  for (int i = 0; i < 64; i += 2) blocks[i]->release();  // every other block
  EXPECT_EQ(memory_usage(dev).free, 32 * 1024);
  EXPECT_EQ(allocator_stats(dev).largest_free_block_bytes, 1024);
  EXPECT_FALSE(DeviceBuffer(dev, 2048).allocated());  // no contiguous 2 KiB
  for (int i = 1; i < 64; i += 2) blocks[i]->release();
  EXPECT_EQ(allocator_stats(dev).largest_free_block_bytes, 64 * 1024);  // merged again
  EXPECT_TRUE(DeviceBuffer(dev, uint64_t{64} * 1024).allocated());
}

TEST_F(MemoryTest, StatisticsAndUsageStayConsistent) {
  SP_AllocatorStats stats = allocator_stats(device());
  EXPECT_EQ(stats.struct_size, SP_ALLOCATORSTATS_STRUCT_SIZE);
  EXPECT_EQ(stats.num_allocs, 0);
  EXPECT_EQ(stats.bytes_in_use, 0);
  EXPECT_TRUE(stats.has_bytes_limit);
  EXPECT_EQ(stats.bytes_limit, kCapacity);
  MemoryUsage usage = memory_usage(device());
  EXPECT_EQ(usage.total, kCapacity);
  EXPECT_EQ(usage.free, kCapacity);

  auto a = std::make_unique<DeviceBuffer>(device(), 1000);
  auto b = std::make_unique<DeviceBuffer>(device(), 5000);
  auto c = std::make_unique<DeviceBuffer>(device(), 1);
  const int64_t in_use = rounded(1000) + rounded(5000) + rounded(1);
  stats = allocator_stats(device());
  usage = memory_usage(device());
  EXPECT_EQ(stats.num_allocs, 3);
  EXPECT_EQ(stats.bytes_in_use, in_use);
  EXPECT_EQ(stats.peak_bytes_in_use, in_use);
  EXPECT_EQ(stats.largest_alloc_size, static_cast<int64_t>(rounded(5000)));
  EXPECT_EQ(usage.free, stats.bytes_limit - stats.bytes_in_use);
  EXPECT_EQ(usage.total, stats.bytes_limit);

  b.reset();
  stats = allocator_stats(device());
  usage = memory_usage(device());
  EXPECT_EQ(stats.num_allocs, 3);  // cumulative
  EXPECT_EQ(stats.bytes_in_use, in_use - static_cast<int64_t>(rounded(5000)));
  EXPECT_EQ(stats.peak_bytes_in_use, in_use);  // the peak stays
  EXPECT_EQ(usage.free, stats.bytes_limit - stats.bytes_in_use);

  a.reset();
  c.reset();
  EXPECT_EQ(allocator_stats(device()).bytes_in_use, 0);
  EXPECT_EQ(memory_usage(device()).free, kCapacity);
}

TEST_F(MemoryTest, StatisticsRefuseAStructTooSmall) {
  SP_AllocatorStats stats{};
  stats.struct_size = 48;  // some other layout
  EXPECT_FALSE(se().get_allocator_stats(device().get(), &stats));
}

TEST_F(MemoryTest, HostMemoryIs64ByteAlignedAndUsable) {
  for (uint64_t size : {1ull, 63ull, 64ull, 65ull, 4096ull, 1000001ull}) {
    void* host = se().host_memory_allocate(device().get(), size);
    ASSERT_NE(host, nullptr) << size;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(host) % 64, 0u);
    std::memset(host, 0x5a, size);
    se().host_memory_deallocate(device().get(), host);
  }
  se().host_memory_deallocate(device().get(), nullptr);
  // Host memory does not count as device memory.
  EXPECT_EQ(allocator_stats(device()).num_allocs, 0);
}

TEST_F(MemoryTest, UnifiedMemoryIsHostAccessibleDeviceMemory) {
  constexpr uint64_t kSize = 10000;
  void* unified = se().unified_memory_allocate(device().get(), kSize);
  ASSERT_NE(unified, nullptr);
  EXPECT_EQ(allocator_stats(device()).bytes_in_use, static_cast<int64_t>(rounded(kSize)));
  std::memset(unified, 0x11, kSize);  // the host writes it ...
  SP_DeviceMemoryBase as_device{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, unified, kSize, 0};
  auto bytes = read_device(device(), as_device, kSize);  // ... the device reads it
  EXPECT_EQ(bytes, std::vector<uint8_t>(kSize, 0x11));
  se().unified_memory_deallocate(device().get(), unified);
  se().unified_memory_deallocate(device().get(), nullptr);
  EXPECT_EQ(allocator_stats(device()).bytes_in_use, 0);
  EXPECT_EQ(se().unified_memory_allocate(device().get(), 0), nullptr);
}

TEST_F(MemoryTest, DevicesHaveSeparateMemory) {
  TestDevice other(registration(), 1);
  ASSERT_TRUE(other.ok());
  DeviceBuffer on_first(device(), 4096);
  ASSERT_TRUE(on_first.allocated());
  EXPECT_EQ(allocator_stats(device()).bytes_in_use, 4096);
  EXPECT_EQ(allocator_stats(other).bytes_in_use, 0);
  EXPECT_EQ(memory_usage(other).free, kCapacity);
  DeviceBuffer whole_other(other, kCapacity);  // the other device is still entirely free
  EXPECT_TRUE(whole_other.allocated());
}

}  // namespace
}  // namespace reference_plugin_test
