// Units that behave: results flow through intact, unreached checks are skipped, jobs run
// side by side, and --no-isolation runs in this process.
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "isolate/in_flight.h"
#include "isolate/unit_runner.h"
#include "unit_helpers.h"

namespace conformance {
namespace {

using ::testing::ElementsAre;
using testing::Ids;
using testing::MakeUnit;
using testing::Outcomes;
using testing::Result;
using testing::RunOne;

std::int64_t MonotonicNanos() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

TEST(UnitRunner, ResultsCrossThePipeWithEveryField) {
  const auto unit = MakeUnit("load.se", {"load.se.platform.name_regex"}, [](UnitContext& context) {
    CheckResult result = Result("load.se.platform.name_regex", Outcome::kFail,
                                "Device name must match [A-Z][A-Z_]*");
    result.tf_code = 9;
    result.details["actual"] = "my-gpu";
    result.seconds = 0.25;
    result.waiver_reason = "tracked upstream";
    context.sink.Emit(result);
  });
  const auto results = RunOne(unit);
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].id, "load.se.platform.name_regex");
  EXPECT_EQ(results[0].outcome, Outcome::kFail);
  EXPECT_EQ(results[0].message, "Device name must match [A-Z][A-Z_]*");
  EXPECT_EQ(results[0].tf_code, 9);
  EXPECT_EQ(results[0].details.at("actual"), "my-gpu");
  EXPECT_DOUBLE_EQ(results[0].seconds, 0.25);  // the unit's own timing is kept as is
  EXPECT_EQ(results[0].waiver_reason, "tracked upstream");
  EXPECT_FALSE(results[0].crash.has_value());
  EXPECT_FALSE(results[0].details.contains("unit_seconds"));
}

TEST(UnitRunner, DeclaredChecksNeverReachedAreSkippedAndUndeclaredOnesRejected) {
  for (const bool isolate : {true, false}) {
    SCOPED_TRACE(isolate ? "isolated" : "in process");
    const auto unit =
        MakeUnit("load.se", {"load.se.a", "load.se.b", "load.se.c"}, [](UnitContext& context) {
          context.sink.Emit(Result("load.se.extra", Outcome::kPass));
          context.sink.Emit(Result("load.se.b", Outcome::kPass));
        });
    IsolationOptions options;
    options.isolate = isolate;
    const auto results = RunOne(unit, options);
    ASSERT_EQ(Ids(results),
              (std::vector<std::string>{"load.se.b", "load.se", "load.se.a", "load.se.c"}));
    EXPECT_THAT(Outcomes(results),
                ElementsAre(Outcome::kPass, Outcome::kFail, Outcome::kSkipped, Outcome::kSkipped));
    EXPECT_EQ(results[1].message,
              "the unit's result stream holds a result for 'load.se.extra', which is not one of "
              "its checks: ignored (pass)");
    EXPECT_EQ(results[2].message, "not run: unit load.se ended without reaching it");
  }
}

// A forged pass next to the real verdict must not survive, whichever comes first.
TEST(UnitRunner, ACheckReportedTwiceFailsSayingSo) {
  const auto unit = MakeUnit("load.se", {"load.se.a", "load.se.b"}, [](UnitContext& context) {
    context.sink.Emit(Result("load.se.a", Outcome::kPass));
    context.sink.Emit(Result("load.se.a", Outcome::kFail, "real finding"));
    context.sink.Emit(Result("load.se.b", Outcome::kPass));
    context.sink.Emit(Result("load.se.b", Outcome::kPass));
    context.sink.Emit(Result("load.se.b", Outcome::kPass));
  });
  const auto results = RunOne(unit);
  ASSERT_EQ(Ids(results), (std::vector<std::string>{"load.se.a", "load.se.b"}));
  EXPECT_THAT(Outcomes(results), ElementsAre(Outcome::kFail, Outcome::kFail));
  EXPECT_EQ(results[0].message,
            "the unit reported this check more than once (pass, then fail): its result stream is "
            "not trustworthy");
  EXPECT_EQ(results[1].details.at("problem"), "check reported more than once");
}

TEST(UnitRunner, LargeAndManyResultsArriveIntactAndInOrder) {
  constexpr int kCount = 5000;
  const std::string big(std::size_t{1024} * 1024, 'x');  // far beyond the pipe's buffer
  std::vector<std::string> ids = {"stress.results.large"};
  for (int i = 0; i < kCount; ++i) ids.push_back("stress.results." + std::to_string(i));
  const auto unit = MakeUnit("stress.results", ids, [&](UnitContext& context) {
    CheckResult large = Result("stress.results.large", Outcome::kPass, big);
    large.details["tail"] = "end";
    context.sink.Emit(large);
    for (int i = 0; i < kCount; ++i) {
      context.sink.Emit(Result("stress.results." + std::to_string(i), Outcome::kPass));
    }
  });
  const auto results = RunOne(unit);
  ASSERT_EQ(results.size(), static_cast<std::size_t>(kCount + 1));
  EXPECT_EQ(results[0].message, big);
  EXPECT_EQ(results[0].details.at("tail"), "end");
  for (int i = 0; i < kCount; ++i) {
    ASSERT_EQ(results[i + 1].id, "stress.results." + std::to_string(i));
  }
}

TEST(UnitRunner, InvalidUtf8FromThePluginDoesNotLoseTheResult) {
  const auto unit = MakeUnit("load.se", {"load.se.name"}, [](UnitContext& context) {
    context.sink.Emit(Result("load.se.name", Outcome::kFail, "name \xff\xfe is not UTF-8"));
  });
  const auto results = RunOne(unit);
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].outcome, Outcome::kFail);
  EXPECT_EQ(results[0].message, "name \xEF\xBF\xBD\xEF\xBF\xBD is not UTF-8");
}

TEST(UnitRunner, TwoJobsRunSideBySideAndReportInCompletionOrder) {
  std::vector<TestUnit> units;
  const auto timed = [](const std::string& name, std::chrono::milliseconds work) {
    return MakeUnit(name, {name + ".x"}, [name, work](UnitContext& context) {
      CheckResult result = Result(name + ".x", Outcome::kPass);
      result.details["begin"] = std::to_string(MonotonicNanos());
      std::this_thread::sleep_for(work);
      result.details["end"] = std::to_string(MonotonicNanos());
      context.sink.Emit(result);
    });
  };
  units.push_back(timed("slow", std::chrono::milliseconds(400)));
  units.push_back(timed("quick1", std::chrono::milliseconds(50)));
  units.push_back(timed("quick2", std::chrono::milliseconds(50)));
  units.push_back(timed("quick3", std::chrono::milliseconds(50)));

  std::vector<std::size_t> order;
  std::vector<std::pair<std::int64_t, std::int64_t>> spans(units.size());
  RunUnits(units, RunSettings{}, IsolationOptions{}, 2,
           [&](std::size_t index, std::vector<CheckResult> results) {
             order.push_back(index);
             ASSERT_EQ(results.size(), 1U);
             EXPECT_EQ(results[0].id, units[index].name + ".x");
             spans[index] = {std::stoll(results[0].details.at("begin")),
                             std::stoll(results[0].details.at("end"))};
           });

  // The quick units finishing while the first one still runs is only possible side by side.
  EXPECT_THAT(order, ElementsAre(1, 2, 3, 0));
  // Never more than two units at once.
  for (std::size_t i = 0; i < spans.size(); ++i) {
    int overlapping = 0;
    for (const auto& other : spans) {
      if (other.first <= spans[i].first && spans[i].first < other.second) ++overlapping;
    }
    EXPECT_LE(overlapping, 2) << units[i].name;
  }
}

TEST(UnitRunner, NoIsolationRunsInThisProcessWithTheSamePostProcessing) {
  const pid_t harness = getpid();
  pid_t seen = 0;
  std::string check_seen;
  const auto unit = MakeUnit("load.se", {"load.se.a", "load.se.b"}, [&](UnitContext& context) {
    seen = getpid();
    in_flight::BeginCheck("load.se.a");
    check_seen = in_flight::CurrentCheck();
    context.sink.Emit(Result("load.se.a", Outcome::kPass));
  });
  IsolationOptions options;
  options.isolate = false;
  const auto results = RunOne(unit, options);
  EXPECT_EQ(seen, harness);
  EXPECT_EQ(check_seen, "load.se.a");
  EXPECT_EQ(in_flight::CurrentCheck(), "");  // the next unit starts clean
  ASSERT_EQ(Ids(results), (std::vector<std::string>{"load.se.a", "load.se.b"}));
  EXPECT_EQ(results[1].outcome, Outcome::kSkipped);
  EXPECT_EQ(results[1].message, "not run: unit load.se ended without reaching it");
}

// A unit that only reports what the suite decided (an op the plugin registers no kernel for)
// runs in the harness's own process, among isolated ones, with the same post-processing; the
// isolated units around it still get a child each.
TEST(UnitRunner, UnitsThatLoadNothingRunInTheParentAmongIsolatedOnes) {
  const pid_t harness = getpid();
  pid_t parent_unit_ran_in = 0;
  std::vector<TestUnit> units;
  units.push_back(MakeUnit("before", {"before.x"}, [harness](UnitContext& context) {
    context.sink.Emit(Result("before.x", getpid() != harness ? Outcome::kPass : Outcome::kFail));
  }));
  units.push_back(MakeUnit("decided", {"decided.a", "decided.b"}, [&](UnitContext& context) {
    parent_unit_ran_in = getpid();
    context.sink.Emit(Result("decided.a", Outcome::kNotSupported, "registers no kernel"));
  }));
  units.back().runs_in_parent = true;
  units.push_back(MakeUnit("after", {"after.x"}, [harness](UnitContext& context) {
    context.sink.Emit(Result("after.x", getpid() != harness ? Outcome::kPass : Outcome::kFail));
  }));
  std::vector<std::vector<CheckResult>> done(units.size());
  RunUnits(units, RunSettings{}, IsolationOptions{}, 2,
           [&](std::size_t index, std::vector<CheckResult> results) {
             done.at(index) = std::move(results);
           });
  EXPECT_EQ(parent_unit_ran_in, harness);
  EXPECT_THAT(Outcomes(done[0]), ElementsAre(Outcome::kPass));
  EXPECT_THAT(Outcomes(done[2]), ElementsAre(Outcome::kPass));
  ASSERT_EQ(Ids(done[1]), (std::vector<std::string>{"decided.a", "decided.b"}));
  EXPECT_EQ(done[1][0].message, "registers no kernel");
  EXPECT_EQ(done[1][1].outcome, Outcome::kSkipped);  // never reached, as in a child
}

// Every unit left runs in the parent: the runner finishes without waiting on a child.
TEST(UnitRunner, OnlyParentUnitsFinish) {
  TestUnit unit = MakeUnit("decided", {"decided.a"}, [](UnitContext& context) {
    context.sink.Emit(Result("decided.a", Outcome::kNotSupported));
  });
  unit.runs_in_parent = true;
  const auto results = RunOne(unit);
  EXPECT_THAT(Outcomes(results), ElementsAre(Outcome::kNotSupported));
}

TEST(UnitRunner, IsolatedUnitsDoNotTouchTheParentsState) {
  int touched = 0;
  in_flight::BeginCheck("parent.check");
  const auto unit = MakeUnit("u", {}, [&](UnitContext&) {
    touched = 1;
    in_flight::BeginCheck("child.check");
  });
  RunOne(unit);
  EXPECT_EQ(touched, 0);
  EXPECT_EQ(in_flight::CurrentCheck(), "parent.check");
  in_flight::EndCheck();
}

TEST(UnitRunner, EveryUnitIsReportedExactlyOnce) {
  std::vector<TestUnit> units;
  units.reserve(12);
  for (int i = 0; i < 12; ++i) {
    units.push_back(MakeUnit(
        "u" + std::to_string(i), {"u" + std::to_string(i) + ".x"}, [i](UnitContext& context) {
          if (i % 3 == 0) _exit(1);
          context.sink.Emit(Result("u" + std::to_string(i) + ".x", Outcome::kPass));
        }));
  }
  std::vector<int> calls(units.size());
  RunUnits(units, RunSettings{}, IsolationOptions{}, 3,
           [&](std::size_t index, const std::vector<CheckResult>& results) {
             ++calls.at(index);
             if (index % 3 == 0) {
               EXPECT_THAT(Outcomes(results), ElementsAre(Outcome::kCrash, Outcome::kSkipped));
             } else {
               EXPECT_THAT(Outcomes(results), ElementsAre(Outcome::kPass));
             }
           });
  EXPECT_THAT(calls, ::testing::Each(1));
}

}  // namespace
}  // namespace conformance
