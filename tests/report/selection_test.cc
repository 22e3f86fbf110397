// Tiers, filter and prerequisites decide which units run and which ids are listed.
#include "run/selection.h"

#include <gtest/gtest.h>

#include "fake_units.h"
#include "run/tiers.h"
#include "run/usage_error.h"

namespace conformance {
namespace {

using testing::FakeUnit;

std::vector<TestUnit> Suite() {
  return {
      FakeUnit("load.library", "load", {"load.library.dlopen", "load.library.symbols"}),
      FakeUnit("load.se", "load", {"load.se.platform.name_regex", "load.se.device.count"}),
      FakeUnit("runtime.memcpy", "runtime", {"runtime.memcpy.htod", "runtime.memcpy.dtoh"}),
      FakeUnit("stress.alloc", "stress", {"stress.alloc.many"}),
  };
}

std::vector<std::string> UnitNames(const std::vector<TestUnit>& suite, const Selection& selection,
                                   bool reported_only = false) {
  std::vector<std::string> names;
  for (const SelectedUnit& unit : selection.units) {
    if (reported_only && !unit.reported) continue;
    names.push_back(suite[unit.suite_index].name);
  }
  return names;
}

TEST(TiersTest, DefaultIsEveryTierPresentExceptStress) {
  EXPECT_EQ(DefaultTiers(Suite()), (std::vector<std::string>{"load", "runtime"}));
}

TEST(TiersTest, CommaListsRepeatsAndAllAreCanonicalised) {
  EXPECT_EQ(ResolveTiers({"runtime,load", "load"}, Suite()).tiers,
            (std::vector<std::string>{"load", "runtime"}));
  EXPECT_EQ(ResolveTiers({"runtime,load", "load"}, Suite()).named,
            (std::vector<std::string>{"load", "runtime"}));
  // `all` is every tier the suite has units for, and names none of them one by one.
  EXPECT_EQ(ResolveTiers({"all"}, Suite()).tiers,
            (std::vector<std::string>{"load", "runtime", "stress"}));
  EXPECT_TRUE(ResolveTiers({"all"}, Suite()).named.empty());
  EXPECT_EQ(ResolveTiers({"stress"}, Suite()).tiers, (std::vector<std::string>{"stress"}));
}

TEST(TiersTest, TiersToBuildAreTheNamedOnesOrEveryTier) {
  EXPECT_EQ(TiersToBuild({"runtime,load", "load"}), (std::vector<std::string>{"load", "runtime"}));
  EXPECT_EQ(TiersToBuild({" stress "}), (std::vector<std::string>{"stress"}));
  // None named, or `all`: every tier (empty).
  EXPECT_TRUE(TiersToBuild({}).empty());
  EXPECT_TRUE(TiersToBuild({"load,all"}).empty());
  // An unknown name is ResolveTiers' usage error, not a tier to build.
  EXPECT_EQ(TiersToBuild({"load,kernal"}), (std::vector<std::string>{"load"}));
}

TEST(TiersTest, UnknownTierSuggestsTheClosest) {
  try {
    ResolveTiers({"load,kernal"}, Suite());
    FAIL() << "expected UsageError";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("unknown tier 'kernal'"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("did you mean 'kernels'?"), std::string::npos);
  }
}

TEST(SelectionTest, DefaultSelectsAllButStressInSuiteOrder) {
  const auto suite = Suite();
  const Selection selection = Select(suite, {});
  EXPECT_EQ(UnitNames(suite, selection),
            (std::vector<std::string>{"load.library", "load.se", "runtime.memcpy"}));
  EXPECT_EQ(selection.check_ids,
            (std::vector<std::string>{"load.library.dlopen", "load.library.symbols",
                                      "load.se.platform.name_regex", "load.se.device.count",
                                      "runtime.memcpy.htod", "runtime.memcpy.dtoh"}));
}

TEST(SelectionTest, AUnitRunsWhenAnyOfItsChecksIsSelected) {
  const auto suite = Suite();
  SelectionOptions options;
  options.filter = CheckFilter("*.name_regex:runtime.memcpy.dtoh");
  const Selection selection = Select(suite, options);
  // load.library runs too (unreported): TensorFlow's verdict needs the whole load tier.
  EXPECT_EQ(UnitNames(suite, selection),
            (std::vector<std::string>{"load.library", "load.se", "runtime.memcpy"}));
  EXPECT_EQ(selection.check_ids,
            (std::vector<std::string>{"load.se.platform.name_regex", "runtime.memcpy.dtoh"}));
  EXPECT_TRUE(selection.Reports("runtime.memcpy.dtoh"));
  EXPECT_FALSE(selection.Reports("runtime.memcpy.htod"));
}

TEST(SelectionTest, TierRestrictsBeforeTheFilter) {
  const auto suite = Suite();
  SelectionOptions options;
  options.tiers = {"runtime"};
  options.filter = CheckFilter("load.*:runtime.*");
  const Selection selection = Select(suite, options);
  // Only runtime checks are selected; the load tier runs unreported for TensorFlow's verdict.
  EXPECT_EQ(selection.check_ids,
            (std::vector<std::string>{"runtime.memcpy.htod", "runtime.memcpy.dtoh"}));
  EXPECT_EQ(UnitNames(suite, selection),
            (std::vector<std::string>{"load.library", "load.se", "runtime.memcpy"}));
}

TEST(SelectionTest, PrerequisiteUnitsRunButAreNotReported) {
  auto suite = Suite();
  suite[2].prerequisites = {"load.se.device.count"};
  suite[1].prerequisites = {"load.library.dlopen"};
  SelectionOptions options;
  options.filter = CheckFilter("runtime.*");
  const Selection selection = Select(suite, options);
  EXPECT_EQ(UnitNames(suite, selection),
            (std::vector<std::string>{"load.library", "load.se", "runtime.memcpy"}));
  EXPECT_EQ(UnitNames(suite, selection, true), (std::vector<std::string>{"runtime.memcpy"}));
  EXPECT_EQ(selection.check_ids,
            (std::vector<std::string>{"runtime.memcpy.htod", "runtime.memcpy.dtoh"}));
}

std::string SelectionError(const SelectionOptions& options) {
  try {
    Select(Suite(), options);
  } catch (const EmptySelectionError& error) {
    return error.what();
  }
  return "no error";
}

TEST(SelectionTest, ASelectionWithoutChecksIsAUsageError) {
  SelectionOptions options;
  options.filter = CheckFilter("nothing.*");
  EXPECT_EQ(SelectionError(options),
            "--filter 'nothing.*' selects no check of tiers load, runtime; see --list");
  options.filter = CheckFilter("load.se.platfrom.*");
  EXPECT_NE(SelectionError(options).find("(did you mean 'load.se.platform.*'?)"),
            std::string::npos);
}

TEST(SelectionTest, ANamedTierWithoutChecksIsAUsageError) {
  SelectionOptions options;
  options.tiers = {"kernels"};  // a known tier this suite has no units for
  EXPECT_NE(SelectionError(options).find("tier 'kernels' has no checks for this plugin"),
            std::string::npos);
  options.tiers = {"load"};
  options.filter = CheckFilter("runtime.*");
  EXPECT_EQ(SelectionError(options),
            "--filter 'runtime.*' selects no check of tier 'load' (it selects checks of tier "
            "runtime); see --list --tier load");
}

TEST(SelectionTest, DefaultTiersTheFilterEmptiesAreDropped) {
  SelectionOptions options;
  options.filter = CheckFilter("runtime.*");
  EXPECT_EQ(Select(Suite(), options).tiers, (std::vector<std::string>{"runtime"}));
  options.tiers = {"all"};
  EXPECT_EQ(Select(Suite(), options).tiers, (std::vector<std::string>{"runtime"}));
}

}  // namespace
}  // namespace conformance
