// host_callback: exactly once, in stream order, on the stream's worker; a failing callback
// fails the stream.
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "plugin_test_support.h"

namespace reference_plugin_test {
namespace {

class HostCallbackTest : public ReferencePluginTest {};

TEST_F(HostCallbackTest, EachCallbackRunsExactlyOnceInOrder) {
  TestStream stream(device());
  constexpr int kCallbacks = 500;
  std::mutex mutex;
  std::vector<int> order;
  std::vector<std::atomic<int>> runs(kCallbacks);
  for (int i = 0; i < kCallbacks; ++i) {
    enqueue_host_function(device(), stream, [&, i] {
      ++runs[i];
      std::lock_guard lock(mutex);
      order.push_back(i);
    });
  }
  ASSERT_EQ(stream.wait(), TF_OK);
  ASSERT_EQ(order.size(), static_cast<size_t>(kCallbacks));
  for (int i = 0; i < kCallbacks; ++i) {
    EXPECT_EQ(order[i], i);
    EXPECT_EQ(runs[i], 1);
  }
}

TEST_F(HostCallbackTest, RunsAfterEarlierWorkAndOnTheWorker) {
  TestStream stream(device());
  DeviceBuffer buffer(device(), 256);
  const std::vector<uint8_t> bytes = pattern_bytes(256, 3);
  std::vector<uint8_t> seen_by_callback;
  std::thread::id callback_thread;
  TfStatus status;
  se().memcpy_htod(device().get(), stream.get(), buffer.get(), bytes.data(), 256, status);
  enqueue_host_function(device(), stream, [&] {
    callback_thread = std::this_thread::get_id();
    seen_by_callback = read_device(device(), *buffer.get(), 256);  // the copy is done
  });
  ASSERT_EQ(stream.wait(), TF_OK);
  EXPECT_EQ(seen_by_callback, bytes);
  EXPECT_NE(callback_thread, std::this_thread::get_id());
}

TEST_F(HostCallbackTest, ErrorPropagatesToTheStream) {
  TestStream stream(device());
  DeviceBuffer buffer(device(), 16);
  write_device(device(), *buffer.get(), std::vector<uint8_t>(16, 0));
  std::atomic<int> later_callbacks{0};
  enqueue_host_function(
      device(), stream, [] {}, TF_UNAVAILABLE, "the callback says no");
  // After the failure: device work is skipped, callbacks still run (exactly once).
  const std::vector<uint8_t> ones(16, 1);
  TfStatus status;
  se().memcpy_htod(device().get(), stream.get(), buffer.get(), ones.data(), 16, status);
  EXPECT_TRUE(status.ok());  // queueing worked; the failure is the stream's
  enqueue_host_function(device(), stream, [&] { ++later_callbacks; });

  std::string message;
  EXPECT_EQ(stream.wait(&message), TF_UNAVAILABLE);
  EXPECT_EQ(message, "the callback says no");
  EXPECT_EQ(stream.status(&message), TF_UNAVAILABLE);
  EXPECT_EQ(message, "the callback says no");
  EXPECT_EQ(later_callbacks, 1);
  EXPECT_EQ(read_device(device(), *buffer.get(), 16), std::vector<uint8_t>(16, 0));
}

TEST_F(HostCallbackTest, FirstErrorWins) {
  TestStream stream(device());
  enqueue_host_function(
      device(), stream, [] {}, TF_ABORTED, "first");
  enqueue_host_function(
      device(), stream, [] {}, TF_INTERNAL, "second");
  std::string message;
  EXPECT_EQ(stream.wait(&message), TF_ABORTED);
  EXPECT_EQ(message, "first");
}

TEST_F(HostCallbackTest, FailureStaysWithItsStream) {
  TestStream failing(device()), healthy(device());
  enqueue_host_function(
      device(), failing, [] {}, TF_ABORTED, "boom");
  EXPECT_EQ(failing.wait(), TF_ABORTED);
  EXPECT_EQ(healthy.wait(), TF_OK);
}

TEST_F(HostCallbackTest, RejectsNullCallbackAndUnknownStream) {
  TestStream stream(device());
  EXPECT_FALSE(se().host_callback(device().get(), stream.get(), nullptr, nullptr));
  SP_Stream stale = nullptr;
  {
    TestStream gone(device());
    stale = gone.get();
  }
  int never_touched = 0;
  EXPECT_FALSE(se().host_callback(
      device().get(), stale, [](void* arg, TF_Status*) { ++*static_cast<int*>(arg); },
      &never_touched));
  EXPECT_EQ(never_touched, 0);
}

}  // namespace
}  // namespace reference_plugin_test
