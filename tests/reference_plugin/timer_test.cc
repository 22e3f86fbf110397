// Timers: timestamps taken in stream order, for cores that still use them.
#include <chrono>
#include <thread>

#include "plugin_test_support.h"

namespace reference_plugin_test {
namespace {

using namespace std::chrono_literals;

class TimerTest : public ReferencePluginTest {};

TEST_F(TimerTest, MeasuresTheWorkBetweenStartAndStop) {
  TestStream stream(device());
  SP_Timer timer = nullptr;
  TfStatus status;
  se().create_timer(device().get(), &timer, status);
  ASSERT_TRUE(status.ok()) << describe(status);
  EXPECT_EQ(registration().timer_fns().nanoseconds(timer), 0u);  // nothing measured yet

  se().start_timer(device().get(), stream.get(), timer, status);
  ASSERT_TRUE(status.ok());
  enqueue_host_function(device(), stream, [] { std::this_thread::sleep_for(30ms); });
  status.poison();
  se().stop_timer(device().get(), stream.get(), timer, status);
  ASSERT_TRUE(status.ok());
  ASSERT_EQ(stream.wait(), TF_OK);
  const uint64_t elapsed = registration().timer_fns().nanoseconds(timer);
  EXPECT_GE(elapsed, 30'000'000u);
  EXPECT_LT(elapsed, 10'000'000'000u);
  se().destroy_timer(device().get(), timer);
}

TEST_F(TimerTest, TimestampsAreTakenByTheStreamNotTheHost) {
  TestStream stream(device());
  SP_Timer timer = nullptr;
  TfStatus status;
  se().create_timer(device().get(), &timer, status);
  Gate gate;
  gate.enqueue(device(), stream);
  se().start_timer(device().get(), stream.get(), timer, status);
  se().stop_timer(device().get(), stream.get(), timer, status);
  // The host waits while the stream is stalled before start: none of this may be measured.
  // (Generous margin: start and stop are consecutive tasks, microseconds apart.)
  std::this_thread::sleep_for(150ms);
  gate.open();
  ASSERT_EQ(stream.wait(), TF_OK);
  EXPECT_LT(registration().timer_fns().nanoseconds(timer), 150'000'000u);
  se().destroy_timer(device().get(), timer);
}

TEST_F(TimerTest, DestroyWhileTimestampsArePendingIsSafe) {
  TestStream stream(device());
  Gate gate;
  gate.enqueue(device(), stream);
  SP_Timer timer = nullptr;
  TfStatus status;
  se().create_timer(device().get(), &timer, status);
  se().start_timer(device().get(), stream.get(), timer, status);
  se().destroy_timer(device().get(), timer);
  gate.open();
  EXPECT_EQ(stream.wait(), TF_OK);
}

}  // namespace
}  // namespace reference_plugin_test
