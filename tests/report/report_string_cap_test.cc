// Plugin-controlled strings are capped in reports, with a note saying how much was cut.
#include "run/report_string_cap.h"

#include <gtest/gtest.h>

namespace conformance {
namespace {

TEST(ReportStringCapTest, ShortStringsAreUntouched) {
  EXPECT_EQ(CapReportString("device type MY_DEVICE"), "device type MY_DEVICE");
  EXPECT_EQ(CapReportString(std::string(kReportStringCap, 'x')).size(), kReportStringCap);
}

TEST(ReportStringCapTest, LongStringsKeepTheirHeadAndSayWhatWasCut) {
  const std::string capped = CapReportString("type " + std::string(100000, 'A'));
  EXPECT_EQ(capped.substr(0, 5), "type ");
  EXPECT_NE(capped.find("... [" + std::to_string(100005 - kReportStringCap) +
                        " more bytes cut: reports keep 4096 bytes of each string]"),
            std::string::npos)
      << capped.substr(kReportStringCap - 10);
  EXPECT_LT(capped.size(), kReportStringCap + 100);
}

TEST(ReportStringCapTest, NeverSplitsAUtf8Sequence) {
  const std::string euros = std::string(9, 'x') + "\xE2\x82\xAC\xE2\x82\xAC";  // 9 + 2 * 3 bytes
  const std::string capped = CapReportString(euros, 11);                       // inside the 1st €
  EXPECT_EQ(capped.substr(0, capped.find("...")), std::string(9, 'x'));
}

TEST(ReportStringCapTest, EveryPluginControlledFieldOfAResultIsCapped) {
  CheckResult result;
  result.message = std::string(100000, 'm');
  result.details["actual"] = std::string(100000, 'd');
  result.crash = CrashInfo{"SIGSEGV", std::string(100000, 'c'), {std::string(100000, 'f')}};
  std::vector<CheckResult> results = {result};
  CapReportStrings(results);
  EXPECT_LT(results[0].message.size(), kReportStringCap + 100);
  EXPECT_LT(results[0].details["actual"].size(), kReportStringCap + 100);
  EXPECT_LT(results[0].crash->last_call.size(), kReportStringCap + 100);
  EXPECT_LT(results[0].crash->backtrace[0].size(), kReportStringCap + 100);
}

}  // namespace
}  // namespace conformance
