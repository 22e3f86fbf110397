#include "isolate/in_flight.h"

#include <string>

#include <gtest/gtest.h>

namespace conformance {
namespace {

TEST(InFlight, PluginCallRestoresTheEnclosingCall) {
  EXPECT_EQ(in_flight::CurrentCall(), "");
  {
    in_flight::PluginCall outer("SE_InitPlugin");
    EXPECT_EQ(in_flight::CurrentCall(), "SE_InitPlugin");
    {
      in_flight::PluginCall inner("SP_PlatformFns.create_device");
      EXPECT_EQ(in_flight::CurrentCall(), "SP_PlatformFns.create_device");
    }
    EXPECT_EQ(in_flight::CurrentCall(), "SE_InitPlugin");
  }
  EXPECT_EQ(in_flight::CurrentCall(), "");
}

TEST(InFlight, BeginAndEndCheck) {
  in_flight::BeginCheck("load.se.platform.name_regex");
  EXPECT_EQ(in_flight::CurrentCheck(), "load.se.platform.name_regex");
  in_flight::BeginCheck("load.se.platform.type");
  EXPECT_EQ(in_flight::CurrentCheck(), "load.se.platform.type");
  in_flight::EndCheck();
  EXPECT_EQ(in_flight::CurrentCheck(), "");
}

TEST(InFlight, OverlongNamesAreTruncatedNotOverflowed) {
  const std::string long_call(1000, 'c');
  const std::string long_check(1000, 'k');
  in_flight::BeginCheck(long_check);
  {
    in_flight::PluginCall call(long_call);
    EXPECT_EQ(in_flight::CurrentCall(), std::string(127, 'c'));
  }
  EXPECT_EQ(in_flight::CurrentCall(), "");
  EXPECT_EQ(in_flight::CurrentCheck(), std::string(255, 'k'));
  in_flight::EndCheck();
}

}  // namespace
}  // namespace conformance
