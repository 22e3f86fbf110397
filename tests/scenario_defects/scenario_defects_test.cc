// Runs every built-in runtime-tier scenario on each defective plugin of this folder and holds
// the result to expectations.yaml: the scenarios that do not pass are exactly the listed ones
// (normally the one scenario written to catch that defect), with the listed outcome; the
// correct variant (the reference plugin behind the same wrapper) passes everything.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "isolate/unit_runner.h"
#include "scenario/scenario_units.h"
#include "validate/core_libraries.h"
#include "../support/sanitizer_sample.h"

namespace conformance {
namespace {

struct Expectation {
  std::string variant;
  std::map<std::string, std::string> caught;  // check id → outcome (fail, crash)
  std::map<std::string, std::string> blamed;  // check id → the failing_call it must name
};

void PrintTo(const Expectation& e, std::ostream* os) { *os << e.variant; }

std::vector<Expectation> Expectations() {
  const YAML::Node root = YAML::LoadFile(SCENARIO_DEFECTS_EXPECTATIONS);
  std::vector<Expectation> out;
  std::istringstream variants(SCENARIO_DEFECT_VARIANTS);
  std::set<std::string> built;
  for (std::string v; std::getline(variants, v, ',');) built.insert(v);
  for (const auto& entry : root) {
    Expectation e;
    e.variant = entry["variant"].as<std::string>();
    if (entry["caught_by"]) {
      for (const auto& pair : entry["caught_by"])
        e.caught[pair.first.as<std::string>()] = pair.second.as<std::string>();
    }
    if (entry["blamed_on"]) {
      for (const auto& pair : entry["blamed_on"])
        e.blamed[pair.first.as<std::string>()] = pair.second.as<std::string>();
    }
    EXPECT_TRUE(built.contains(e.variant)) << e.variant << " is expected but not built";
    built.erase(e.variant);
    out.push_back(std::move(e));
  }
  EXPECT_TRUE(built.empty()) << "built variants without expectations: " << *built.begin();
  return out;
}

class ScenarioDefects : public ::testing::TestWithParam<Expectation> {};

TEST_P(ScenarioDefects, CaughtByExactlyItsScenario) {
  const Expectation& e = GetParam();
  // One run decides: the ordering scenarios hold the producer (hold_stream) instead of racing
  // it, so dependency_ignored and wait_for_event_ignored are caught on every run, sanitized too.
  std::map<std::string, std::string> actual;
  std::string report;
  RunSettings settings;
  settings.plugin_path = std::string(SCENARIO_DEFECTS_DIR) + "/" + e.variant + ".so";
  settings.seed = 20240601;
  std::vector<TestUnit> units;
  for (TestUnit& unit : ScenarioUnits(settings)) {
    if (unit.tier == "runtime") units.push_back(std::move(unit));
  }
  IsolationOptions isolation;
  // Twice the default unit timeout (isolate/default_timeout.h, which scales it under TSan).
  isolation.timeout = std::chrono::milliseconds(2 * kDefaultUnitTimeoutMs);
  std::map<std::string, CheckResult> findings;
  RunUnits(units, settings, isolation, 2, [&](std::size_t, std::vector<CheckResult> results) {
    for (CheckResult& result : results) {
      if (result.outcome != Outcome::kPass) findings[result.id] = std::move(result);
    }
  });
  for (const auto& [id, result] : findings) {
    actual[id] = std::string(ToString(result.outcome));
    report += "  " + id + ": " + actual[id] + ": " + result.message + "\n";
  }
  for (const auto& [id, outcome] : actual) {
    if (!e.caught.contains(id))
      ADD_FAILURE() << e.variant << " was caught by " << id << ":\n" << report;
  }
  EXPECT_EQ(actual, e.caught) << "findings on " << e.variant << ":\n" << report;
  for (const auto& [id, callback] : e.blamed) {
    const auto found = findings.find(id);
    if (found == findings.end()) continue;  // the EXPECT_EQ above already says it is missing
    const auto& details = found->second.details;
    EXPECT_EQ(details.contains("failing_call") ? details.at("failing_call") : "", callback)
        << e.variant << ": " << id << " blames the wrong callback:\n"
        << report;
  }
  if (!report.empty()) std::printf("%s:\n%s", e.variant.c_str(), report.c_str());
}

INSTANTIATE_TEST_SUITE_P(
    Variants, ScenarioDefects,
    ::testing::ValuesIn(conformance::test_support::SanitizerSample(Expectations())),
    [](const ::testing::TestParamInfo<Expectation>& info) { return info.param.variant; });

}  // namespace
}  // namespace conformance

int main(int argc, char** argv) {
  // As plugin_conformance does in the parent: children inherit the core under both sonames.
  conformance::validate::PreloadCoreLibraries();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
