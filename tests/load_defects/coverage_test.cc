// The expectation table against the check catalogue and the build: every load check has a
// defective plugin or a mock fault (tests/mocks/mock_faults.yaml) meant for it, every
// expectation names a real check and a built plugin, and every built plugin is expected to do
// something. Needs no harness.
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "catalogue/catalogue.h"
#include "expectations.h"

namespace load_defects {
namespace {

std::set<std::string> Set(const std::vector<std::string>& items) {
  return {items.begin(), items.end()};
}

// The defects of both tables: C plugins here and configured mock faults.
std::vector<Expectation> AllDefects() {
  std::vector<Expectation> all = LoadExpectations().defects;
  for (Expectation& e : LoadExpectations(MOCK_FAULTS).defects) all.push_back(std::move(e));
  return all;
}

TEST(LoadDefectsTable, Loads) {
  ASSERT_NO_THROW(LoadExpectations());
  ASSERT_NO_THROW(LoadExpectations(MOCK_FAULTS));
  ASSERT_NO_THROW(LoadCatalogueIds());
  ASSERT_NO_THROW(BuiltVariants());
}

TEST(LoadDefectsTable, CatalogueHasNoDuplicateIds) {
  const std::vector<std::string> ids = LoadCatalogueIds();
  std::map<std::string, int> count;
  for (const std::string& id : ids) count[id] += 1;
  for (const auto& [id, n] : count) EXPECT_EQ(n, 1) << id << " appears " << n << " times";
}

TEST(LoadDefectsTable, EveryLoadCheckHasADefect) {
  const ExpectationTable table = LoadExpectations();
  const std::set<std::string> catalogue = Set(LoadCatalogueIds());
  std::set<std::string> covered;
  for (const Expectation& e : AllDefects()) covered.insert(e.check);
  std::set<std::string> excused;
  for (const Uncovered& u : table.uncovered) {
    EXPECT_TRUE(catalogue.contains(u.check)) << "uncovered: " << u.check << " is no load check";
    EXPECT_FALSE(covered.contains(u.check)) << "uncovered: " << u.check << " is covered";
    excused.insert(u.check);
  }
  for (const std::string& id : catalogue) {
    if (id.starts_with("load.")) {
      EXPECT_TRUE(covered.contains(id) || excused.contains(id))
          << id << " has no defective plugin in expectations.yaml, no fault in mock_faults.yaml "
          << "and is not listed as uncovered";
    }
  }
}

// DESIGN.md: a stricter check whose consequence is `none` (TensorFlow behaves the same) may
// only warn, so no defect may expect it to fail.
TEST(LoadDefectsTable, OnlyChecksNamingAConsequenceAreExpectedToFail) {
  for (const Expectation& e : AllDefects()) {
    const conformance::CheckEntry* entry = conformance::FindCheck(e.check);
    ASSERT_NE(entry, nullptr) << e.check;
    if (entry->origin == conformance::Origin::kStricter && e.outcome == "fail") {
      EXPECT_TRUE(conformance::MayFail(entry->consequence_kind))
          << e.name << " expects " << e.check << " to fail, but its consequence is "
          << entry->consequence;
    }
  }
}

TEST(LoadDefectsTable, EveryExpectedCheckExists) {
  const std::set<std::string> catalogue = Set(LoadCatalogueIds());
  for (const Expectation& e : LoadExpectations().defects) {
    EXPECT_TRUE(catalogue.contains(e.check)) << e.name << ": unknown check " << e.check;
  }
  // Mock faults also reach the runtime tier: any catalogued check.
  for (const Expectation& e : LoadExpectations(MOCK_FAULTS).defects) {
    EXPECT_NE(conformance::FindCheck(e.check), nullptr) << e.name << ": unknown check " << e.check;
  }
}

// load_defects_test runs C plugins, mock_plugin_conformance_test runs mocks.
TEST(LoadDefectsTable, EachTableHoldsItsKind) {
  for (const bool mocks : {false, true}) {
    const ExpectationTable table =
        mocks ? LoadExpectations(MOCK_FAULTS) : LoadExpectations(LOAD_DEFECTS_EXPECTATIONS);
    for (const auto* list : {&table.passing, &table.defects}) {
      for (const Expectation& e : *list) EXPECT_EQ(e.is_mock(), mocks) << e.name;
    }
  }
}

TEST(LoadDefectsTable, NamesAreUniqueTestNames) {
  for (const std::string& path :
       {std::string(LOAD_DEFECTS_EXPECTATIONS), std::string(MOCK_FAULTS)}) {
    const ExpectationTable table = LoadExpectations(path);
    std::set<std::string> names;
    for (const auto* list : {&table.passing, &table.defects}) {
      for (const Expectation& e : *list) {
        EXPECT_TRUE(names.insert(e.name).second) << "duplicate name " << e.name;
        for (const char c : e.name) {
          EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '_')
              << e.name << " is not a valid gtest parameter name";
        }
      }
    }
  }
}

// A plugin exists for every expectation, except for the one that tests a missing file.
TEST(LoadDefectsTable, EveryExpectedPluginIsBuilt) {
  const ExpectationTable table = LoadExpectations();
  const std::set<std::string> built = Set(BuiltVariants());
  for (const auto* list : {&table.passing, &table.defects}) {
    for (const Expectation& e : *list) {
      for (const std::string& variant : VariantsUsed(e)) {
        if (e.check == "load.library.file" && variant == e.variant) {
          EXPECT_FALSE(built.contains(variant)) << e.name;
          EXPECT_FALSE(std::filesystem::exists(PluginPath(variant))) << PluginPath(variant);
          continue;
        }
        EXPECT_TRUE(built.contains(variant)) << e.name << ": no variant " << variant;
        EXPECT_TRUE(std::filesystem::exists(PluginPath(variant)))
            << e.name << ": " << PluginPath(variant) << " not built";
      }
    }
  }
}

TEST(LoadDefectsTable, EveryBuiltPluginIsExpectedToDoSomething) {
  const ExpectationTable table = LoadExpectations();
  std::set<std::string> used;
  for (const auto* list : {&table.passing, &table.defects}) {
    for (const Expectation& e : *list) {
      for (const std::string& variant : VariantsUsed(e)) used.insert(variant);
    }
  }
  for (const std::string& variant : BuiltVariants()) {
    EXPECT_TRUE(used.contains(variant)) << variant << " is built but no expectation uses it";
  }
}

}  // namespace
}  // namespace load_defects
