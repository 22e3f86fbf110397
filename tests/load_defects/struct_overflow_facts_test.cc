// What the measured releases do with a write past a struct (harness/validate/
// struct_overflow_facts.h): within what the release survived a warning's fact, beyond it the
// consequence, and nothing under a profile that was not measured.
#include "validate/struct_overflow_facts.h"

#include <cstring>

#include <gtest/gtest.h>

#include "validate/profile.h"
#include "validate/struct_buffer.h"

namespace conformance::validate {
namespace {

using enum PastEndValue;

TEST(StructOverflowFacts, UnmeasuredProfileHasNoVerdict) {
  EXPECT_FALSE(JudgeStructOverflow("tf2.10", "SP_Device", "create_device", 8, kNonZero));
  EXPECT_FALSE(
      JudgeStructOverflow("tf2.5", "SP_StreamExecutor", "create_stream_executor", 24, kWithZeros));
  EXPECT_EQ(FindStructOverflowFact("tf2.19", "SP_Device", kNonZero), nullptr);
}

TEST(StructOverflowFacts, UnmeasuredStructHasNoVerdict) {
  EXPECT_FALSE(JudgeStructOverflow("newest", "SP_TimerFns", "create_timer_fns", 8, kNonZero));
}

TEST(StructOverflowFacts, WithinWhatTheReleaseSurvivedIsAWarningFact) {
  const auto verdict = JudgeStructOverflow("newest", "SP_Device", "create_device", 8, kNonZero);
  ASSERT_TRUE(verdict);
  EXPECT_TRUE(verdict->survives);
  EXPECT_NE(verdict->measured.find("TensorFlow 2.21 was measured to run correctly when "
                                   "create_device writes up to 144 non-zero bytes past SP_Device"),
            std::string::npos)
      << verdict->measured;
  EXPECT_NE(verdict->measured.find("SE_CreateDeviceParams"), std::string::npos);
  // The limit itself survived.
  EXPECT_TRUE(JudgeStructOverflow("newest", "SP_Device", "create_device", 144, kNonZero)->survives);
  EXPECT_TRUE(JudgeStructOverflow("tf2.15", "SP_Device", "create_device", 56, kNonZero)->survives);
}

TEST(StructOverflowFacts, BeyondItFailsNamingTheConsequence) {
  const auto verdict = JudgeStructOverflow("tf2.15", "SP_Device", "create_device", 64, kNonZero);
  ASSERT_TRUE(verdict);
  EXPECT_FALSE(verdict->survives);
  EXPECT_NE(verdict->measured.find(
                "TensorFlow 2.15 aborts (SIGABRT) or crashes (SIGSEGV) in its "
                "first copy to the device when create_device writes 57 non-zero bytes"),
            std::string::npos)
      << verdict->measured;
  // Between the last size survived and the first measured to fail: not survived either.
  const auto between = JudgeStructOverflow("newest", "SP_Device", "create_device", 132, kWithZeros);
  ASSERT_TRUE(between);
  EXPECT_FALSE(between->survives);
  EXPECT_NE(between->measured.find("with up to 128 zero bytes past SP_Device and crashes"),
            std::string::npos)
      << between->measured;
}

TEST(StructOverflowFacts, ZerosPastPlatformFnsAreRefusedWhereOtherValuesSurvive) {
  EXPECT_TRUE(
      JudgeStructOverflow("newest", "SP_PlatformFns", "SE_InitPlugin", 8, kNonZero)->survives);
  const auto zeros =
      JudgeStructOverflow("newest", "SP_PlatformFns", "SE_InitPlugin", 8, kWithZeros);
  ASSERT_TRUE(zeros);
  EXPECT_FALSE(zeros->survives);
  EXPECT_NE(zeros->measured.find("FAILED_PRECONDITION"), std::string::npos) << zeros->measured;
}

TEST(StructOverflowFacts, AMixWithZerosTakesTheSmallerLimit) {
  // SP_StreamExecutor survived 96 bytes of zeros but only 80 of non-zero bytes.
  EXPECT_TRUE(
      JudgeStructOverflow("newest", "SP_StreamExecutor", "create_stream_executor", 80, kWithZeros)
          ->survives);
  EXPECT_FALSE(
      JudgeStructOverflow("newest", "SP_StreamExecutor", "create_stream_executor", 88, kWithZeros)
          ->survives);
  EXPECT_FALSE(
      JudgeStructOverflow("newest", "SP_StreamExecutor", "create_stream_executor", 88, kNonZero)
          ->survives);
}

// The value class the check hands the table: any zero byte among those written past the end.
TEST(StructOverflowFacts, ZerosPastTheEndAreToldApart) {
  StructBuffer device(FindProfile("newest")->layout->Struct("SP_Device"));
  auto* past_end = static_cast<unsigned char*>(device.data()) + device.layout().size_of;
  EXPECT_FALSE(device.ZeroWrittenPastEnd());  // nothing written
  std::memset(past_end, 0x3C, 8);
  EXPECT_EQ(device.BytesWrittenPastEnd(), 8u);
  EXPECT_FALSE(device.ZeroWrittenPastEnd());
  past_end[3] = 0;
  EXPECT_TRUE(device.ZeroWrittenPastEnd());
}

}  // namespace
}  // namespace conformance::validate
