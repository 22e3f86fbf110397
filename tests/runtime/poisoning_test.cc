// Poisoned statuses and out-params, against a fake plugin that leaves one thing unwritten.
#include <gtest/gtest.h>

#include "fake_plugin.h"
#include "runtime/runtime.h"

namespace conformance::runtime {
namespace {

using runtime_test::Behaviour;
using runtime_test::FakeBehaviour;
using runtime_test::FakeInitPlugin;

class Poisoning : public testing::Test {
 protected:
  void SetUp() override { Behaviour() = FakeBehaviour{}; }
  std::unique_ptr<DeviceSession> Open() {
    auto session = DeviceSession::Open(&FakeInitPlugin);
    EXPECT_TRUE(session.ok()) << session.error().Describe();
    return session.ok() ? std::move(session.value()) : nullptr;
  }
};

// Older tables are read through their generation's layout (tests/generations); a newer table
// than the emulated core's struct is refused: that core reads its callbacks at wrong offsets.
TEST_F(Poisoning, ANewerStreamExecutorThanTheCoreIsRefusedWithTheReason) {
  auto session = DeviceSession::Open(&FakeInitPlugin, SessionOptions{.profile = "tf2.5"});
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.error().kind, ErrorKind::kUnsupported);
  EXPECT_NE(session.error().message.find("288-byte"), std::string::npos) << session.error().message;
  EXPECT_NE(session.error().message.find("264-byte SP_StreamExecutor (--profile tf2.5)"),
            std::string::npos)
      << session.error().message;
}

TEST_F(Poisoning, AnUntouchedStatusIsOkButRecordedPerCallback) {
  Behaviour().write_statuses = false;
  auto session = Open();
  auto device = session->GetDevice(0);
  ASSERT_TRUE(device.ok());
  auto stream = device.value()->CreateStream();
  ASSERT_TRUE(stream.ok()) << "TensorFlow hands out OK, so an untouched status is success";
  EXPECT_TRUE(stream->GetStatus().ok());
  EXPECT_TRUE(
      session->findings().Has(FindingKind::kStatusNotWritten, "SP_StreamExecutor.create_stream"));
  EXPECT_TRUE(session->findings().Has(FindingKind::kStatusNotWritten,
                                      "SP_StreamExecutor.get_stream_status"));
  EXPECT_TRUE(session->findings().Has(FindingKind::kStatusNotWritten, "SE_InitPlugin"));
}

// TensorFlow pre-fills the handle with NULL and uses it: the session does the same, and records
// the unwritten out-param once so one check can report it.
TEST_F(Poisoning, AStreamNeverWrittenCarriesOnWithTensorFlowsNull) {
  Behaviour().write_stream = false;
  auto session = Open();
  auto stream = session->GetDevice(0).value()->CreateStream();
  ASSERT_TRUE(stream.ok()) << stream.error().Describe();
  EXPECT_EQ(stream->get(), nullptr);
  EXPECT_TRUE(
      session->findings().Has(FindingKind::kOutParamNotWritten, "SP_StreamExecutor.create_stream"));
  EXPECT_EQ(session->accounting().streams.created.load(), 1);
}

TEST_F(Poisoning, ADeviceCountNeverWrittenIsAnError) {
  Behaviour().write_device_count = false;
  auto session = Open();
  auto count = session->DeviceCount();
  ASSERT_FALSE(count.ok());
  EXPECT_EQ(count.error().kind, ErrorKind::kOutParamNotWritten);
}

TEST_F(Poisoning, AllocationSizeNeverWrittenIsRecorded) {
  Behaviour().write_allocation_size = false;
  auto session = Open();
  auto buffer = session->GetDevice(0).value()->Allocate(100);
  ASSERT_TRUE(buffer.ok());
  EXPECT_FALSE(buffer->size_written());
  EXPECT_EQ(buffer->size(), 100u);
  EXPECT_TRUE(session->findings().Has(FindingKind::kAllocationSizeNotWritten,
                                      "SP_StreamExecutor.allocate"));
}

TEST_F(Poisoning, MemoryUsageNeverWrittenReadsAsTensorFlowSeesIt) {
  Behaviour().write_memory_usage = false;
  auto session = Open();
  auto usage = session->GetDevice(0).value()->MemoryUsage();
  ASSERT_TRUE(usage.ok());
  EXPECT_TRUE(usage->returned_true);
  EXPECT_FALSE(usage->free_written);
  EXPECT_EQ(usage->free, 0);
  EXPECT_TRUE(session->findings().Has(FindingKind::kOutParamNotWritten,
                                      "SP_StreamExecutor.device_memory_usage"));
}

TEST_F(Poisoning, BlockHostUntilDoneFallsBackLikeTensorFlow) {
  auto session = Open();  // the fake has no block_host_until_done
  auto stream = session->GetDevice(0).value()->CreateStream();
  ASSERT_TRUE(stream.ok());
  EXPECT_TRUE(stream->uses_block_host_fallback());
  EXPECT_TRUE(stream->BlockHostUntilDone().ok());
  EXPECT_EQ(session->accounting().events.created.load(), 1)
      << "create_event + record + block + destroy";
  EXPECT_EQ(session->accounting().events.live(), 0);
}

}  // namespace
}  // namespace conformance::runtime
