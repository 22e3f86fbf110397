// Results filed under a unit's declared checks: a crash under the unit's name lands on the
// check the unit was about to run; foreign and repeated ids are dropped.
#include "run/unit_result_filing.h"

#include <gtest/gtest.h>

namespace conformance {
namespace {

CheckResult Result(std::string id, Outcome outcome) {
  CheckResult result;
  result.id = std::move(id);
  result.outcome = outcome;
  return result;
}

TestUnit Unit() {
  TestUnit unit;
  unit.name = "load.library";
  unit.tier = "load";
  unit.check_ids = {"load.library.elf", "load.library.dlopen", "load.library.symbols"};
  return unit;
}

TEST(UnitResultFilingTest, ACrashUnderTheUnitNameReplacesTheFirstSkippedCheck) {
  std::vector<std::string> dropped;
  const std::vector<CheckResult> filed = FileUnitResults(
      Unit(),
      {Result("load.library.elf", Outcome::kPass), Result("load.library.dlopen", Outcome::kSkipped),
       Result("load.library.symbols", Outcome::kSkipped), Result("load.library", Outcome::kCrash)},
      dropped);
  ASSERT_EQ(filed.size(), 3u);  // never more results than checks
  EXPECT_EQ(filed[1].id, "load.library.dlopen");
  EXPECT_EQ(filed[1].outcome, Outcome::kCrash);
  EXPECT_EQ(filed[1].details.at("filed_as"), "load.library");
  EXPECT_EQ(filed[1].tier, "load");
  EXPECT_EQ(filed[2].outcome, Outcome::kSkipped);
  EXPECT_TRUE(dropped.empty());
}

TEST(UnitResultFilingTest, ACrashAfterEveryCheckReportedLandsOnTheLastNonFailingOne) {
  std::vector<std::string> dropped;
  const std::vector<CheckResult> filed = FileUnitResults(
      Unit(),
      {Result("load.library.elf", Outcome::kPass), Result("load.library.dlopen", Outcome::kPass),
       Result("load.library.symbols", Outcome::kFail), Result("load.library", Outcome::kTimeout)},
      dropped);
  ASSERT_EQ(filed.size(), 3u);
  EXPECT_EQ(filed[1].outcome, Outcome::kTimeout);
  EXPECT_EQ(filed[1].details.at("replaced_outcome"), "pass");
  EXPECT_EQ(filed[2].outcome, Outcome::kFail);
}

TEST(UnitResultFilingTest, ForeignPassesAndRepeatsAreDropped) {
  std::vector<std::string> dropped;
  const std::vector<CheckResult> filed = FileUnitResults(
      Unit(),
      {Result("load.library.elf", Outcome::kFail), Result("load.library.elf", Outcome::kPass),
       Result("runtime.forged", Outcome::kPass)},
      dropped);
  ASSERT_EQ(filed.size(), 1u);
  EXPECT_EQ(filed[0].outcome, Outcome::kFail);
  EXPECT_EQ(dropped, (std::vector<std::string>{"load.library.elf", "runtime.forged"}));
}

}  // namespace
}  // namespace conformance
