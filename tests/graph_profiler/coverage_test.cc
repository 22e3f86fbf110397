// The graph_profiler table: every load check that tests/load_defects leaves to this folder has
// a defect here, every defect names a real check (load or profiler), and every variant is built.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "expectations.h"

namespace load_defects {
namespace {

TEST(GraphProfilerTable, CoversWhatLoadDefectsLeavesUncovered) {
  const ExpectationTable here = LoadExpectations();
  const ExpectationTable load = LoadExpectations(LOAD_DEFECTS_TABLE);
  std::set<std::string> covered;
  for (const Expectation& e : here.defects) covered.insert(e.check);
  int delegated = 0;
  for (const Uncovered& u : load.uncovered) {
    if (u.reason.find("tests/graph_profiler") == std::string::npos) continue;
    ++delegated;
    EXPECT_TRUE(covered.contains(u.check)) << u.check << " is left to this folder but has no defect here";
  }
  EXPECT_GE(delegated, 1);
}

TEST(GraphProfilerTable, EveryCheckExistsAndEveryVariantIsBuilt) {
  std::set<std::string> catalogue;
  for (const std::string& id : LoadCatalogueIds()) catalogue.insert(id);
  for (const char* file : {PROFILER_CHECK_CATALOGUE, GRAPH_CHECK_CATALOGUE}) {
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
