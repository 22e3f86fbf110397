// Events: the UNKNOWN -> PENDING -> COMPLETE / ERROR state machine, streams waiting for events
// and the host blocking on them.
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "plugin_test_support.h"

namespace reference_plugin_test {
namespace {

using namespace std::chrono_literals;

class EventTest : public ReferencePluginTest {};

TEST_F(EventTest, StateMachine) {
  TestStream stream(device());
  TestEvent event(device());
  EXPECT_EQ(event.state(), SE_EVENT_UNKNOWN);

  Gate gate;
  gate.enqueue(device(), stream);
  ASSERT_EQ(event.record(stream), TF_OK);
  EXPECT_EQ(event.state(), SE_EVENT_PENDING);
  gate.wait_until_reached();
  EXPECT_EQ(event.state(), SE_EVENT_PENDING);  // still behind the gate

  gate.open();
  TfStatus status;
  se().block_host_for_event(device().get(), event.get(), status);
  EXPECT_TRUE(status.ok()) << describe(status);
  EXPECT_EQ(event.state(), SE_EVENT_COMPLETE);

  // Recording again starts over.
  Gate second_gate;
  second_gate.enqueue(device(), stream);
  ASSERT_EQ(event.record(stream), TF_OK);
  EXPECT_EQ(event.state(), SE_EVENT_PENDING);
  second_gate.open();
  ASSERT_EQ(stream.wait(), TF_OK);
  EXPECT_EQ(event.state(), SE_EVENT_COMPLETE);
}

// A stream with nothing queued has reached every point already, so a record on it is
// complete when record_event returns: the fence is signalled on the caller's thread instead
// of waking the stream's worker (a thread wake-up costs 20-60 us on the CI VM).
// A fresh stream makes "idle" deterministic: its worker has never run anything.
TEST_F(EventTest, RecordOnAnIdleStreamIsCompleteOnReturn) {
  TestStream stream(device());
  TestEvent event(device());
  ASSERT_EQ(event.record(stream), TF_OK);
  EXPECT_EQ(event.state(), SE_EVENT_COMPLETE);
}

TEST_F(EventTest, ErrorWhenTheStreamFailed) {
  TestStream stream(device());
  TestEvent event(device());
  enqueue_host_function(
      device(), stream, [] {}, TF_ABORTED, "callback failed");
  ASSERT_EQ(event.record(stream), TF_OK);
  TfStatus status;
  se().block_host_for_event(device().get(), event.get(), status);
  EXPECT_EQ(status.code(), TF_ABORTED) << describe(status);
  EXPECT_EQ(event.state(), SE_EVENT_ERROR);
}

TEST_F(EventTest, OnlyTheNewestRecordCounts) {
  TestStream slow(device()), fast(device());
  TestEvent event(device());
  Gate gate;
  ASSERT_EQ(event.record(fast), TF_OK);
  ASSERT_EQ(fast.wait(), TF_OK);
  EXPECT_EQ(event.state(), SE_EVENT_COMPLETE);
  gate.enqueue(device(), slow);
  ASSERT_EQ(event.record(slow), TF_OK);  // now the event tracks the stalled stream
  EXPECT_EQ(event.state(), SE_EVENT_PENDING);
  gate.open();
  ASSERT_EQ(slow.wait(), TF_OK);
  EXPECT_EQ(event.state(), SE_EVENT_COMPLETE);
}

// `waiter` may only write after `producer` wrote, although `producer` is stalled.
TEST_F(EventTest, WaitForEventOrdersStreams) {
  TestStream producer(device()), waiter(device());
  TestEvent event(device());
  Gate gate;
  DeviceBuffer buffer(device(), 128);
  const std::vector<uint8_t> produced(128, 7), consumed(128, 9);
  gate.enqueue(device(), producer);
  TfStatus s1, s2, s3;
  se().memcpy_htod(device().get(), producer.get(), buffer.get(), produced.data(), 128, s1);
  ASSERT_EQ(event.record(producer), TF_OK);
  se().wait_for_event(device().get(), waiter.get(), event.get(), s2);
  se().memcpy_htod(device().get(), waiter.get(), buffer.get(), consumed.data(), 128, s3);
  ASSERT_TRUE(s1.ok() && s2.ok() && s3.ok()) << describe(s2);
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(event.state(), SE_EVENT_PENDING);
  gate.open();
  ASSERT_EQ(waiter.wait(), TF_OK);
  EXPECT_EQ(event.state(), SE_EVENT_COMPLETE);
  EXPECT_EQ(read_device(device(), *buffer.get(), 128), consumed);
}

TEST_F(EventTest, WaitingForAnUnrecordedEventDoesNotBlock) {
  TestStream stream(device());
  TestEvent event(device());
  TfStatus status;
  se().wait_for_event(device().get(), stream.get(), event.get(), status);
  EXPECT_TRUE(status.ok()) << describe(status);
  EXPECT_EQ(stream.wait(), TF_OK);
  status.poison();
  se().block_host_for_event(device().get(), event.get(), status);
  EXPECT_TRUE(status.ok()) << describe(status);
}

TEST_F(EventTest, BlockHostForEventReallyWaits) {
  TestStream stream(device());
  TestEvent event(device());
  std::atomic<bool> done{false};
  enqueue_host_function(device(), stream, [&] {
    std::this_thread::sleep_for(40ms);
    done = true;
  });
  ASSERT_EQ(event.record(stream), TF_OK);
  TfStatus status;
  se().block_host_for_event(device().get(), event.get(), status);
  EXPECT_TRUE(status.ok());
  EXPECT_TRUE(done);
}

TEST_F(EventTest, DestroyWhileRecordIsPendingIsSafe) {
  TestStream stream(device());
  Gate gate;
  gate.enqueue(device(), stream);
  {
    TestEvent event(device());
    ASSERT_EQ(event.record(stream), TF_OK);
  }  // destroyed while pending
  gate.open();
  EXPECT_EQ(stream.wait(), TF_OK);
}

TEST_F(EventTest, DestroyedEventHandleIsRejected) {
  TestStream stream(device());
  SP_Event stale = nullptr;
  {
    TestEvent event(device());
    stale = event.get();
  }
  TfStatus status;
  se().record_event(device().get(), stream.get(), stale, status);
  EXPECT_EQ(status.code(), TF_INVALID_ARGUMENT) << describe(status);
  EXPECT_EQ(se().get_event_status(device().get(), stale), SE_EVENT_ERROR);
}

TEST_F(EventTest, TensorFlowsBlockHostUntilDoneFallbackWorks) {
  // What the core does when block_host_until_done is not provided.
  TestStream stream(device());
  std::atomic<bool> done{false};
  enqueue_host_function(device(), stream, [&] {
    std::this_thread::sleep_for(20ms);
    done = true;
  });
  SP_Event event = nullptr;
  TfStatus status;
  se().create_event(device().get(), &event, status);
  ASSERT_TRUE(status.ok());
  se().record_event(device().get(), stream.get(), event, status);
  se().block_host_for_event(device().get(), event, status);
  se().destroy_event(device().get(), event);
  EXPECT_TRUE(status.ok());
  EXPECT_TRUE(done);
}

}  // namespace
}  // namespace reference_plugin_test
