// A folder that tests/load_defects delegates checks to (its expectations.yaml `uncovered`
// entries name the folder): every delegated check has a defect there, every defect names a
// real check, and every variant is built. Compiled once per such folder with
// DELEGATED_FOLDER ("tests/graph_profiler") and, when its checks live in catalogue files
// besides load.yaml, EXTRA_CHECK_CATALOGUES (a comma-separated list of string literals).
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "expectations.h"

namespace load_defects {
namespace {

#ifndef EXTRA_CHECK_CATALOGUES
#define EXTRA_CHECK_CATALOGUES
#endif

TEST(DelegatedDefectTable, CoversWhatLoadDefectsLeavesUncovered) {
  const ExpectationTable here = LoadExpectations();
  const ExpectationTable load = LoadExpectations(LOAD_DEFECTS_TABLE);
  std::set<std::string> covered;
  for (const Expectation& e : here.defects) covered.insert(e.check);
  int delegated = 0;
  for (const Uncovered& u : load.uncovered) {
    if (u.reason.find(DELEGATED_FOLDER) == std::string::npos) continue;
    ++delegated;
    EXPECT_TRUE(covered.contains(u.check))
        << u.check << " is left to " DELEGATED_FOLDER " but has no defect there";
  }
  EXPECT_GE(delegated, 1);
}

TEST(DelegatedDefectTable, EveryCheckExistsAndEveryVariantIsBuilt) {
  std::set<std::string> catalogue;
  for (const std::string& id : LoadCatalogueIds()) catalogue.insert(id);
  for (const char* file : std::vector<const char*>{EXTRA_CHECK_CATALOGUES}) {
    for (const std::string& id : LoadCatalogueIds(file)) catalogue.insert(id);
  }
  std::set<std::string> built;
  for (const std::string& variant : BuiltVariants()) built.insert(variant);
  const ExpectationTable table = LoadExpectations();
  for (const auto* list : {&table.passing, &table.defects}) {
    for (const Expectation& e : *list) {
      EXPECT_TRUE(built.contains(e.variant)) << e.variant << " is not built";
      if (!e.passing()) {
        EXPECT_TRUE(catalogue.contains(e.check)) << e.name << ": unknown check " << e.check;
      }
    }
  }
}

}  // namespace
}  // namespace load_defects
