// Streams: in-order execution, dependencies between streams, and the host waiting for them.
#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "plugin_test_support.h"

namespace reference_plugin_test {
namespace {

using namespace std::chrono_literals;

class StreamTest : public ReferencePluginTest {};

// A long random chain of copies and fills on one stream, checked against a host model of the
// same operations. Any reordering on the device shows up as a mismatch.
TEST_F(StreamTest, LongChainRunsInOrder) {
  constexpr uint64_t kSize = 4096;
  constexpr int kOperations = 600;
  const uint32_t seed = 20240611;
  SCOPED_TRACE(testing::Message() << "seed " << seed);
  std::mt19937 random(seed);  // NOLINT(cert-msc32-c,cert-msc51-cpp): reproducible on failure

  TestStream stream(device());
  DeviceBuffer a(device(), kSize), b(device(), kSize);
  std::vector<uint8_t> model_a(kSize, 0), model_b(kSize, 0);
  write_device(device(), *a.get(), model_a);
  write_device(device(), *b.get(), model_b);
  std::vector<std::vector<uint8_t>> host_sources;  // alive until the stream is done
  host_sources.reserve(kOperations);

  for (int i = 0; i < kOperations; ++i) {
    const uint64_t offset = random() % kSize;
    const uint64_t size = 1 + random() % (kSize - offset);
    SP_DeviceMemoryBase a_slice = a.at(offset, size), b_slice = b.at(offset, size);
    TfStatus status;
    switch (random() % 5) {
      case 0: {  // host -> a
        host_sources.push_back(pattern_bytes(size, random()));
        se().memcpy_htod(device().get(), stream.get(), &a_slice, host_sources.back().data(), size,
                         status);
        std::memcpy(model_a.data() + offset, host_sources.back().data(), size);
        break;
      }
      case 1: {  // a -> b
        se().memcpy_dtod(device().get(), stream.get(), &b_slice, &a_slice, size, status);
        std::memcpy(model_b.data() + offset, model_a.data() + offset, size);
        break;
      }
      case 2: {  // b -> a
        se().memcpy_dtod(device().get(), stream.get(), &a_slice, &b_slice, size, status);
        std::memcpy(model_a.data() + offset, model_b.data() + offset, size);
        break;
      }
      case 3: {  // memset a
        const auto pattern = static_cast<uint8_t>(random());
        se().memset(device().get(), stream.get(), &a_slice, pattern, size, status);
        std::memset(model_a.data() + offset, pattern, size);
        break;
      }
      default: {  // memset32 b, word-aligned
        const uint64_t word_offset = offset & ~uint64_t{3};
        const uint64_t words = std::max<uint64_t>(1, size / 4);
        const uint64_t bytes = std::min(words * 4, (kSize - word_offset) & ~uint64_t{3});
        const auto pattern = static_cast<uint32_t>(random());
        SP_DeviceMemoryBase slice = b.at(word_offset, bytes);
        se().memset32(device().get(), stream.get(), &slice, pattern, bytes, status);
        for (uint64_t k = 0; k < bytes; k += 4)
          std::memcpy(model_b.data() + word_offset + k, &pattern, 4);
        break;
      }
    }
    ASSERT_TRUE(status.ok()) << "operation " << i << ": " << describe(status);
  }
  std::vector<uint8_t> result_a(kSize), result_b(kSize);
  TfStatus s1, s2;
  se().memcpy_dtoh(device().get(), stream.get(), result_a.data(), a.get(), kSize, s1);
  se().memcpy_dtoh(device().get(), stream.get(), result_b.data(), b.get(), kSize, s2);
  ASSERT_TRUE(s1.ok() && s2.ok());
  ASSERT_EQ(stream.wait(), TF_OK);
  EXPECT_EQ(result_a, model_a);
  EXPECT_EQ(result_b, model_b);
}

// `waiter` must not write before `blocked` has written, although `blocked` is stalled.
TEST_F(StreamTest, DependencyWaitsForEverythingQueuedSoFar) {
  TestStream blocked(device()), waiter(device());
  Gate gate;
  DeviceBuffer buffer(device(), 64);
  const std::vector<uint8_t> first(64, 1), second(64, 2), late(64, 3);
  gate.enqueue(device(), blocked);
  TfStatus s1, s2, s3, s4;
  se().memcpy_htod(device().get(), blocked.get(), buffer.get(), first.data(), 64, s1);
  se().create_stream_dependency(device().get(), waiter.get(), blocked.get(), s2);
  se().memcpy_htod(device().get(), waiter.get(), buffer.get(), second.data(), 64, s3);
  ASSERT_TRUE(s1.ok() && s2.ok() && s3.ok()) << describe(s2);
  std::this_thread::sleep_for(20ms);  // give a wrong implementation time to run ahead
  gate.open();
  ASSERT_EQ(waiter.wait(), TF_OK);
  ASSERT_EQ(blocked.wait(), TF_OK);
  EXPECT_EQ(read_device(device(), *buffer.get(), 64), second);

  // Work queued on `blocked` after the dependency was created is not waited for.
  Gate second_gate;
  second_gate.enqueue(device(), blocked);
  se().memcpy_htod(device().get(), blocked.get(), buffer.get(), late.data(), 64, s4);
  ASSERT_EQ(waiter.wait(), TF_OK);  // returns although `blocked` is stalled
  second_gate.open();
  ASSERT_EQ(blocked.wait(), TF_OK);
}

// TensorFlow copies between two devices of a plugin on the source device's stream after making
// it wait for the destination's compute stream: `other` belongs to another device (measured,
// docs/tensorflow/calls.md). The wait must hold across devices too.
TEST_F(StreamTest, DependencyOnAStreamOfAnotherDevice) {
  TestDevice other_device(registration(), 1);
  TestStream waiter(device()), blocked(other_device);
  Gate gate;
  gate.enqueue(other_device, blocked);
  std::atomic<bool> ran{false};
  TfStatus status;
  se().create_stream_dependency(device().get(), waiter.get(), blocked.get(), status);
  ASSERT_TRUE(status.ok()) << describe(status);
  enqueue_host_function(device(), waiter, [&] { ran = true; });
  std::this_thread::sleep_for(20ms);  // give a wrong implementation time to run ahead
  EXPECT_FALSE(ran);
  gate.open();
  EXPECT_EQ(waiter.wait(), TF_OK);
  EXPECT_TRUE(ran);
  EXPECT_EQ(blocked.wait(), TF_OK);
}

TEST_F(StreamTest, DependencyOnItselfIsFine) {
  TestStream stream(device());
  TfStatus status;
  se().create_stream_dependency(device().get(), stream.get(), stream.get(), status);
  EXPECT_TRUE(status.ok()) << describe(status);
  EXPECT_EQ(stream.wait(), TF_OK);
}

TEST_F(StreamTest, BlockHostUntilDoneReallyWaits) {
  TestStream stream(device());
  std::atomic<bool> done{false};
  enqueue_host_function(device(), stream, [&] {
    std::this_thread::sleep_for(50ms);
    done = true;
  });
  EXPECT_EQ(stream.wait(), TF_OK);
  EXPECT_TRUE(done);
}

TEST_F(StreamTest, SynchronizeAllActivityWaitsForEveryStream) {
  constexpr int kStreams = 4;
  std::vector<std::unique_ptr<TestStream>> streams;
  std::atomic<int> finished{0};
  for (int i = 0; i < kStreams; ++i) {
    streams.push_back(std::make_unique<TestStream>(device()));
    enqueue_host_function(device(), *streams.back(), [&finished, i] {
      std::this_thread::sleep_for(std::chrono::milliseconds(10 * (i + 1)));
      ++finished;
    });
  }
  TfStatus status;
  se().synchronize_all_activity(device().get(), status);
  EXPECT_TRUE(status.ok()) << describe(status);
  EXPECT_EQ(finished, kStreams);
}

TEST_F(StreamTest, SynchronizeAllActivityIgnoresOtherDevices) {
  TestDevice other(registration(), 1);
  TestStream stalled(other);
  Gate gate;
  gate.enqueue(other, stalled);
  TestStream mine(device());
  TfStatus status;
  se().synchronize_all_activity(device().get(), status);  // must not wait for `stalled`
  EXPECT_TRUE(status.ok()) << describe(status);
  gate.open();
}

TEST_F(StreamTest, SynchronizeAllActivityReportsAFailedStream) {
  TestStream healthy(device()), failing(device());
  enqueue_host_function(
      device(), failing, [] {}, TF_INTERNAL, "device fault");
  TfStatus status;
  se().synchronize_all_activity(device().get(), status);
  EXPECT_EQ(status.code(), TF_INTERNAL);
  EXPECT_NE(status.message().find("device fault"), std::string::npos) << status.message();
}

TEST_F(StreamTest, DestroyStreamDrainsFirst) {
  auto stream = std::make_unique<TestStream>(device());
  DeviceBuffer buffer(device(), 1 << 20);
  std::vector<uint8_t> host(1 << 20, 0x42);
  std::atomic<bool> ran{false};
  enqueue_host_function(device(), *stream, [&] { std::this_thread::sleep_for(30ms); });
  TfStatus status;
  se().memcpy_htod(device().get(), stream->get(), buffer.get(), host.data(), host.size(), status);
  enqueue_host_function(device(), *stream, [&] { ran = true; });
  stream.reset();  // destroy_stream
  EXPECT_TRUE(ran);
  EXPECT_EQ(read_device(device(), *buffer.get(), host.size()), host);
}

TEST_F(StreamTest, StreamsRunConcurrently) {
  // Stalling one stream must not stall another: each has its own worker.
  TestStream stalled(device()), free_running(device());
  Gate gate;
  gate.enqueue(device(), stalled);
  std::atomic<bool> ran{false};
  enqueue_host_function(device(), free_running, [&] { ran = true; });
  EXPECT_EQ(free_running.wait(), TF_OK);
  EXPECT_TRUE(ran);
  gate.open();
}

TEST_F(StreamTest, StreamOfAnotherDeviceIsRejected) {
  TestDevice other(registration(), 1);
  TestStream foreign(other);
  TfStatus status;
  se().get_stream_status(device().get(), foreign.get(), status);
  EXPECT_EQ(status.code(), TF_INVALID_ARGUMENT) << describe(status);
  status.poison();
  se().block_host_until_done(device().get(), foreign.get(), status);
  EXPECT_EQ(status.code(), TF_INVALID_ARGUMENT) << describe(status);
}

TEST_F(StreamTest, NewStreamIsHealthy) {
  TestStream stream(device());
  EXPECT_EQ(stream.status(), TF_OK);
}

TEST_F(StreamTest, DestroyingTheDeviceCleansUpForgottenHandles) {
  auto dev = std::make_unique<TestDevice>(registration(), 1);
  SP_Stream stream = nullptr;
  SP_Event event = nullptr;
  SP_Timer timer = nullptr;
  TfStatus s1, s2, s3;
  se().create_stream(dev->get(), &stream, s1);
  se().create_event(dev->get(), &event, s2);
  se().create_timer(dev->get(), &timer, s3);
  ASSERT_TRUE(s1.ok() && s2.ok() && s3.ok());
  std::atomic<bool> ran{false};
  auto* flag = new std::atomic<bool>*(&ran);
  se().host_callback(
      dev->get(), stream,
      [](void* arg, TF_Status* status) {
        std::unique_ptr<std::atomic<bool>*> owned(static_cast<std::atomic<bool>**>(arg));
        std::this_thread::sleep_for(20ms);
        **owned = true;
        TF_SetStatus(status, TF_OK, "");
      },
      flag);
  dev.reset();  // never destroyed stream/event/timer: no leak, no hang, work still ran
  EXPECT_TRUE(ran);
}

}  // namespace
}  // namespace reference_plugin_test
