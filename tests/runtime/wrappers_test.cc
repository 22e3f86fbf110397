// The runtime layer against the real reference plugin (asynchronous streams, two devices).
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/runtime.h"

namespace conformance::runtime {
namespace {

std::unique_ptr<DeviceSession> OpenReference(SessionOptions options = {}) {
  auto session = DeviceSession::Open(REFERENCE_PLUGIN_PATH, std::move(options));
  EXPECT_TRUE(session.ok()) << session.error().Describe();
  return session.ok() ? std::move(session.value()) : nullptr;
}

std::vector<std::byte> Bytes(std::size_t size, int seed) {
  std::vector<std::byte> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::byte>((i * 131 + seed) & 0xFF);
  return bytes;
}

TEST(DeviceSession, BringsTheReferencePluginUpLikeTensorFlow) {
  auto session = OpenReference();
  ASSERT_NE(session, nullptr);
  EXPECT_EQ(session->stream_executor_struct_size(), 288u);
  EXPECT_NE(session->generation().find("288"), std::string::npos);
  EXPECT_STREQ(session->platform().type, "REFDEV");
  auto count = session->DeviceCount();
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(count.value(), 2);
  auto zero = session->GetDevice(0);
  auto one = session->GetDevice(1);
  ASSERT_TRUE(zero.ok() && one.ok());
  EXPECT_EQ(zero.value()->ordinal(), 0);
  EXPECT_EQ(one.value()->ordinal(), 1);
  EXPECT_EQ(session->GetDevice(0).value(), zero.value()) << "one Device per ordinal";
  auto missing = session->GetDevice(7);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().kind, ErrorKind::kUnsupported);
  EXPECT_TRUE(session->findings().Of(FindingKind::kStatusNotWritten).empty())
      << "the reference writes every status";
}

TEST(DeviceSession, NamesAMissingLibrary) {
  auto session = DeviceSession::Open("/nonexistent/plugin.so");
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.error().kind, ErrorKind::kLoad);
}

TEST(Wrappers, CopyRoundTripsWithOffsetsAndOddSizes) {
  auto session = OpenReference();
  Device* device = session->GetDevice(0).value();
  {
    auto buffer = device->Allocate(4099);
    ASSERT_TRUE(buffer.ok()) << buffer.error().Describe();
    EXPECT_TRUE(buffer->size_written());
    EXPECT_EQ(buffer->size(), 4099u);
    auto stream = device->CreateStream();
    ASSERT_TRUE(stream.ok());
    const auto data = Bytes(1001, 3);
    std::vector<std::byte> back(1001);
    ASSERT_TRUE(stream->MemcpyHtoD(buffer->Range(17, 1001), data.data(), data.size()).ok());
    ASSERT_TRUE(stream->MemcpyDtoH(back.data(), buffer->Range(17, 1001), back.size()).ok());
    ASSERT_TRUE(stream->BlockHostUntilDone().ok());
    EXPECT_EQ(back, data);
    // memset32 then a synchronous read of the bytes around it.
    ASSERT_TRUE(stream->MemZero(buffer->All(), 4099).ok());
    ASSERT_TRUE(stream->Memset32(buffer->Range(8, 16), 0xA1B2C3D4u, 16).ok());
    ASSERT_TRUE(stream->BlockHostUntilDone().ok());
    std::vector<std::uint8_t> window(32);
    ASSERT_TRUE(device->SyncMemcpyDtoH(window.data(), buffer->Range(0, 32), 32).ok());
    EXPECT_EQ(window[7], 0);
    EXPECT_EQ(window[8], 0xD4);
    EXPECT_EQ(window[11], 0xA1);
    EXPECT_EQ(window[24], 0);
  }
  EXPECT_EQ(session->accounting().live_objects(), 0);
  EXPECT_GT(session->accounting().plugin_calls.load(), 0u);
}

TEST(Wrappers, HostCallbackLedgerCountsExactlyOnceAndPropagatesErrors) {
  auto session = OpenReference();
  Device* device = session->GetDevice(0).value();
  auto stream = device->CreateStream();
  ASSERT_TRUE(stream.ok());
  std::vector<HostCallbackTicket> tickets;
  for (int i = 0; i < 5; ++i) {
    auto ticket = stream->HostCallback([] { return HostCallbackOutcome{}; });
    ASSERT_TRUE(ticket.ok());
    tickets.push_back(ticket.value());
  }
  ASSERT_TRUE(stream->BlockHostUntilDone().ok());
  for (auto ticket : tickets) EXPECT_EQ(session->host_callbacks().Record(ticket).invocations, 1);
  EXPECT_EQ(session->host_callbacks().InvocationOrder(), tickets);
  EXPECT_EQ(session->host_callbacks().Outstanding(), 0u);
  ASSERT_TRUE(stream->HostCallback([] { return HostCallbackOutcome{TF_ABORTED, "stop"}; }).ok());
  (void)stream->BlockHostUntilDone();
  const CallStatus status = stream->GetStatus();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, TF_ABORTED);
  EXPECT_EQ(status.error().callback, "SP_StreamExecutor.get_stream_status");
}

TEST(Wrappers, EventsAndStreamsAcrossTwoDevices) {
  auto session = OpenReference();
  for (int ordinal : {0, 1}) {
    Device* device = session->GetDevice(ordinal).value();
    auto stream = device->CreateStream();
    auto event = device->CreateEvent();
    ASSERT_TRUE(stream.ok() && event.ok());
    EXPECT_EQ(event->Poll(), SE_EVENT_UNKNOWN);
    ASSERT_TRUE(stream->Record(*event).ok());
    ASSERT_TRUE(event->BlockHost().ok());
    EXPECT_EQ(event->Poll(), SE_EVENT_COMPLETE);
    auto other = device->CreateStream();
    ASSERT_TRUE(other->WaitFor(*stream).ok());
    ASSERT_TRUE(other->WaitFor(*event).ok());
    ASSERT_TRUE(device->SynchronizeAllActivity().ok());
  }
  EXPECT_EQ(session->accounting().streams.live(), 0);
  EXPECT_EQ(session->accounting().events.live(), 0);
}

TEST(Wrappers, StatisticsAndHostMemory) {
  auto session = OpenReference();
  Device* device = session->GetDevice(0).value();
  auto before = device->AllocatorStats();
  ASSERT_TRUE(before.ok() && before->returned_true && before->bytes_in_use_written);
  auto usage = device->MemoryUsage();
  ASSERT_TRUE(usage.ok() && usage->free_written && usage->total_written);
  EXPECT_LE(usage->free, usage->total);
  auto host = device->AllocateHost(1000);
  ASSERT_TRUE(host.ok());
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(host->data()) % 64, 0u);
  std::memset(host->data(), 7, 1000);
  if (session->supports_unified_memory()) {
    auto unified = device->AllocateUnified(256);
    ASSERT_TRUE(unified.ok()) << unified.error().Describe();
    auto stream = device->CreateStream();
    ASSERT_TRUE(stream->Memset(unified->AsDevice(), 0x42, 256).ok());
    ASSERT_TRUE(stream->BlockHostUntilDone().ok());
    EXPECT_EQ(static_cast<unsigned char*>(unified->data())[255], 0x42);
  }
}

TEST(Wrappers, AnUnpoisonedSessionHandsOutOkStatuses) {
  auto session = OpenReference(SessionOptions{.poison_statuses = false});
  Device* device = session->GetDevice(0).value();
  auto stream = device->CreateStream();
  ASSERT_TRUE(stream.ok());
  EXPECT_TRUE(stream->GetStatus().ok());
  EXPECT_TRUE(session->findings().All().empty());
}

}  // namespace
}  // namespace conformance::runtime
