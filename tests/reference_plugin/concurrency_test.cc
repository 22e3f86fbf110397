// Many host threads driving many streams on several devices at once. Mostly here for
// ThreadSanitizer: every result is checked, and TSan checks the synchronization.
#include <atomic>
#include <thread>
#include <vector>

#include "plugin_test_support.h"

namespace reference_plugin_test {
namespace {

class ConcurrencyTest : public ReferencePluginTest {};

// Each thread owns a stream and round-trips its own data through device memory, using an
// event for half the iterations and block_host_until_done for the rest.
void round_trip_worker(const TestDevice& device, int thread_index, int iterations,
                       std::atomic<int>* failures) {
  TestStream stream(device);
  TestEvent event(device);
  for (int i = 0; i < iterations; ++i) {
    const uint64_t size = 1 + (thread_index * 131 + i * 977) % 20000;
    DeviceBuffer a(device, size), b(device, size);
    if (!a.allocated() || !b.allocated()) {
      ++*failures;
      continue;
    }
    const auto input = pattern_bytes(size, thread_index * 1000 + i);
    std::vector<uint8_t> output(size);
    std::atomic<bool> callback_ran{false};
    TfStatus s1, s2, s3, s4;
    device.se().memcpy_htod(device.get(), stream.get(), a.get(), input.data(), size, s1);
    device.se().memcpy_dtod(device.get(), stream.get(), b.get(), a.get(), size, s2);
    device.se().memcpy_dtoh(device.get(), stream.get(), output.data(), b.get(), size, s3);
    enqueue_host_function(device, stream, [&] { callback_ran = true; });
    if (i % 2 == 0) {
      event.record(stream);
      device.se().block_host_for_event(device.get(), event.get(), s4);
    } else {
      device.se().block_host_until_done(device.get(), stream.get(), s4);
    }
    if (!s1.ok() || !s2.ok() || !s3.ok() || !s4.ok() || output != input || !callback_ran) {
      ++*failures;
    }
  }
}

TEST_F(ConcurrencyTest, ManyStreamsOnSeveralDevicesFromManyThreads) {
  TestDevice second(registration(), 1);
  ASSERT_TRUE(second.ok());
  constexpr int kThreadsPerDevice = 4;
  constexpr int kIterations = 60;
  std::atomic<int> failures{0};
  std::atomic<bool> stop_polling{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreadsPerDevice; ++t) {
    threads.emplace_back(round_trip_worker, std::cref(device()), t, kIterations, &failures);
    threads.emplace_back(round_trip_worker, std::cref(second), t + 100, kIterations, &failures);
  }
  // Statistics read concurrently with allocation must always be self-consistent.
  std::thread poller([&] {
    while (!stop_polling) {
      for (const TestDevice* d : {&device(), static_cast<const TestDevice*>(&second)}) {
        SP_AllocatorStats stats = allocator_stats(*d);
        MemoryUsage usage = memory_usage(*d);
        if (stats.bytes_in_use < 0 || stats.bytes_in_use > stats.peak_bytes_in_use ||
            usage.total != stats.bytes_limit || usage.free < 0 || usage.free > usage.total) {
          ++failures;
        }
      }
      TfStatus status;
      device().se().synchronize_all_activity(device().get(), status);
      if (!status.ok()) ++failures;
    }
  });
  for (auto& thread : threads) thread.join();
  stop_polling = true;
  poller.join();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(allocator_stats(device()).bytes_in_use, 0);
  EXPECT_EQ(allocator_stats(second).bytes_in_use, 0);
}

// Producer/consumer pairs on different streams, ordered only by events.
TEST_F(ConcurrencyTest, EventsOrderProducersAndConsumersAcrossStreams) {
  constexpr int kPairs = 3;
  constexpr int kRounds = 100;
  constexpr uint64_t kSize = 4096;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  threads.reserve(kPairs);
  for (int p = 0; p < kPairs; ++p) {
    threads.emplace_back([&, p] {
      TestStream producer(device()), consumer(device());
      TestEvent produced(device());
      DeviceBuffer shared(device(), kSize), copy(device(), kSize);
      for (int round = 0; round < kRounds; ++round) {
        const auto input = pattern_bytes(kSize, p * 10000 + round);
        std::vector<uint8_t> output(kSize);
        TfStatus s1, s2, s3, s4;
        device().se().memcpy_htod(device().get(), producer.get(), shared.get(), input.data(), kSize,
                                  s1);
        produced.record(producer);
        device().se().wait_for_event(device().get(), consumer.get(), produced.get(), s2);
        device().se().memcpy_dtod(device().get(), consumer.get(), copy.get(), shared.get(), kSize,
                                  s3);
        device().se().memcpy_dtoh(device().get(), consumer.get(), output.data(), copy.get(), kSize,
                                  s4);
        // The producer may only overwrite `shared` once the consumer has copied it.
        TfStatus s5;
        device().se().create_stream_dependency(device().get(), producer.get(), consumer.get(), s5);
        if (consumer.wait() != TF_OK || !s1.ok() || !s2.ok() || !s3.ok() || !s4.ok() || !s5.ok() ||
            output != input) {
          ++failures;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace reference_plugin_test
