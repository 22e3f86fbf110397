// The catalogue and the suite must describe the same checks: every id a unit can emit is
// documented, and every documented id is emitted by some unit under some profile.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "catalogue/catalogue.h"
#include "catalogue/catalogue_parser.h"
#include "catalogue/generated_checks.h"
#include "conformance/suite.h"
#include "installed_tensorflow/session_deaths.h"
#include "kernels/in_tensorflow_id.h"
#include "kernels/kernel_scenario.h"
#include "kernels/kernel_scenario_set.h"
#include "validate/profile.h"

namespace conformance {
namespace {

// What --tensorflow adds after the run: "<case id>.in_tensorflow" for every built-in case, and
// what TensorFlow did with the plugin's load and session.
std::set<std::string> InTensorFlowIds() {
  std::set<std::string> ids = {
      tensorflow_driver::kLoadInTensorFlowCheckId, tensorflow_driver::kSessionInTensorFlowCheckId,
      tensorflow_driver::kCopyInTensorFlowCheckId, tensorflow_driver::kFloatOpsInTensorFlowCheckId};
  for (const auto& s : kernels::BuiltinKernelScenarios()) {
    for (TF_DataType dtype : s.dtypes)
      ids.insert(kernels::InTensorFlowCheckId(kernels::KernelCaseId(s.op, dtype, s.name)));
  }
  return ids;
}

std::set<std::string> SuiteIdsOverAllProfiles() {
  std::set<std::string> ids = InTensorFlowIds();
  for (const auto& profile : validate::AllProfiles()) {
    RunSettings settings;
    settings.profile = profile.name;
    settings.co_loaded_plugins = {"other.so"};  // adds the cross-plugin unit
    for (const auto& unit : BuildSuite(settings))
      ids.insert(unit.check_ids.begin(), unit.check_ids.end());
  }
  return ids;
}

TEST(Catalogue, EveryEmittableCheckIsDocumented) {
  for (const auto& id : SuiteIdsOverAllProfiles()) {
    EXPECT_NE(FindCheck(id), nullptr)
        << id << " is declared by a unit but missing from specs/checks";
  }
}

TEST(Catalogue, EveryInTensorFlowCheckIsDocumented) {
  const auto ids = InTensorFlowIds();
  EXPECT_GT(ids.size(), 100U);
  for (const auto& id : ids) {
    EXPECT_NE(FindCheck(id), nullptr)
        << id << " can be filed by --tensorflow but is missing from specs/checks";
  }
}

TEST(Catalogue, EveryDocumentedCheckIsEmittedBySomeUnit) {
  const auto ids = SuiteIdsOverAllProfiles();
  for (const auto& entry : Catalogue()) {
    EXPECT_TRUE(ids.contains(entry.id)) << entry.id << " is documented but no unit declares it";
  }
}

TEST(Catalogue, IdsAreUniqueAndTierIsTheFirstComponent) {
  std::set<std::string> seen;
  for (const auto& entry : Catalogue()) {
    EXPECT_TRUE(seen.insert(entry.id).second) << "duplicate id " << entry.id;
    EXPECT_EQ(entry.id.substr(0, entry.id.find('.')), entry.tier);
  }
}

// DESIGN.md: a stricter check fails only where it names a consequence a TensorFlow user would
// hit; every stricter entry says which (or `none`, and then it may only warn).
// FindCheck parses only the files whose `id:` lines name the id's first part: every entry of
// the whole catalogue must be found that way, the same entry.
TEST(Catalogue, LookupByPrefixFindsEveryEntry) {
  for (const CheckEntry& entry : Catalogue()) {
    const CheckEntry* found = FindCheck(entry.id);
    ASSERT_NE(found, nullptr) << entry.id;
    EXPECT_EQ(found->tier, entry.tier) << entry.id;
    EXPECT_EQ(found->rule, entry.rule) << entry.id;
    EXPECT_EQ(found->consequence, entry.consequence) << entry.id;
  }
  EXPECT_EQ(FindCheck("load.no_such_check"), nullptr);
  EXPECT_EQ(FindCheck("nosuchtier"), nullptr);
}

TEST(Catalogue, EveryStricterCheckNamesItsConsequence) {
  for (const auto& entry : Catalogue()) {
    if (entry.origin == Origin::kStricter) {
      EXPECT_FALSE(entry.consequence.empty()) << entry.id << " has no consequence";
      EXPECT_TRUE(
          entry.consequence.starts_with(std::string(ToString(entry.consequence_kind)) + ": "))
          << entry.id << ": " << entry.consequence;
    } else {
      EXPECT_TRUE(entry.consequence.empty()) << entry.id;
    }
  }
}

TEST(Catalogue, ChecksTensorFlowIsContentWithOnlyWarn) {
  // The cases issue 6 found: TensorFlow never reads these, so they must never fail.
  for (const char* id : {"load.se.device.handle", "load.se.platform.struct_size_written",
                         "runtime.statuses.written", "runtime.callback.error_propagates"}) {
    const CheckEntry* entry = FindCheck(id);
    ASSERT_NE(entry, nullptr) << id;
    EXPECT_FALSE(MayFail(entry->consequence_kind)) << id;
  }
}

TEST(Catalogue, NewestProfileDeclaresNoTimerChecks) {
  RunSettings settings;
  for (const auto& unit : BuildSuite(settings)) {
    for (const auto& id : unit.check_ids) EXPECT_EQ(id.find("timer"), std::string::npos) << id;
  }
}

TEST(CatalogueParser, UnknownKeyNamesFileLineAndColumn) {
  const char* text =
      "- id: load.x\n  origin: tensorflow\n  rule: r\n  tensorflow: t\n  fix: f\n  fixx: typo\n";
  try {
    ParseCatalogue("specs/checks/test.yaml", text);
    FAIL() << "expected an error";
  } catch (const CatalogueError& error) {
    EXPECT_STREQ(error.what(), "specs/checks/test.yaml:6:3: unknown key 'fixx'");
  }
}

TEST(CatalogueParser, EachExpandsIdAndTexts) {
  const auto entries = ParseCatalogue(
      "t.yaml",
      "- id: load.{each}.x\n  each: [a, b]\n  origin: stricter\n  rule: '{each} set'\n"
      "  tensorflow: t\n  fix: f\n  consequence: 'none: {each} only warns'\n");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[1].id, "load.b.x");
  EXPECT_EQ(entries[1].rule, "b set");
  EXPECT_EQ(entries[1].origin, Origin::kStricter);
}

TEST(CatalogueParser, StricterEntryWithoutConsequenceIsRejected) {
  try {
    ParseCatalogue("t.yaml", "- {id: a.b, origin: stricter, rule: r, tensorflow: t, fix: f}\n");
    FAIL() << "expected an error";
  } catch (const CatalogueError& error) {
    EXPECT_NE(std::string(error.what()).find("t.yaml:1:3: missing key 'consequence'"),
              std::string::npos)
        << error.what();
  }
}

TEST(CatalogueParser, ConsequenceKindIsParsedAndUnknownKindsAreRejected) {
  const auto entries = ParseCatalogue("t.yaml",
                                      "- {id: a.b, origin: stricter, rule: r, tensorflow: t, fix: "
                                      "f, consequence: 'leak: grows'}\n");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].consequence_kind, ConsequenceKind::kLeak);
  EXPECT_EQ(entries[0].consequence, "leak: grows");
  try {
    ParseCatalogue(
        "t.yaml",
        "- {id: a.b, origin: stricter, rule: r, tensorflow: t, fix: f, consequence: 'bad: x'}\n");
    FAIL() << "expected an error";
  } catch (const CatalogueError& error) {
    EXPECT_NE(std::string(error.what()).find("not 'bad'"), std::string::npos) << error.what();
  }
  EXPECT_THROW(ParseCatalogue("t.yaml",
                              "- {id: a.b, origin: tensorflow, rule: r, tensorflow: t, fix: f, "
                              "consequence: 'crash: x'}\n"),
               CatalogueError);
}

TEST(CatalogueParser, BadOriginIsRejected) {
  EXPECT_THROW(
      ParseCatalogue("t.yaml", "- {id: a.b, origin: ours, rule: r, tensorflow: t, fix: f}\n"),
      CatalogueError);
}

// --list -v --tensorflow lists the installed TensorFlow's ids before TensorFlow ran: the families
// defined at run time must have their text then (issue 29: they printed none).
TEST(RunTimeFamilies, ListedIdsHaveTheirFamilysTextBeforeAnyJudgement) {
  const CheckEntry* generated = FindCheckOrFamily("kernel.Floor.float.generated");
  ASSERT_NE(generated, nullptr);
  EXPECT_EQ(generated->tier, "kernel");
  EXPECT_NE(generated->rule.find("installed TensorFlow"), std::string::npos) << generated->rule;
  EXPECT_EQ(generated->consequence_kind, ConsequenceKind::kWrongData);

  const CheckEntry* model = FindCheckOrFamily("model.mlp_forward.float.installed");
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->tier, "model");
  EXPECT_NE(model->rule.find("as a graph"), std::string::npos) << model->rule;
}

TEST(RunTimeFamilies, AVendorCaseInTensorFlowTakesItsCasesTexts) {
  AddRunTimeChecks({CheckEntry{"kernel.VendorScale.float.doubles", "kernel", Origin::kStricter,
                               "rule", "what TensorFlow does", "the fix",
                               ConsequenceKind::kWrongData, "wrong data: ..."}});
  const CheckEntry* entry = FindCheckOrFamily("kernel.VendorScale.float.doubles.in_tensorflow");
  ASSERT_NE(entry, nullptr);
  EXPECT_NE(entry->rule.find("kernel.VendorScale.float.doubles"), std::string::npos);
  EXPECT_EQ(entry->fix, "the fix");
}

TEST(RunTimeFamilies, OtherIdsStayUnknown) {
  EXPECT_EQ(FindCheckOrFamily("runtime.no_such_check"), nullptr);
  EXPECT_EQ(FindCheckOrFamily("kernel.NoSuchCase.float.x.in_tensorflow"), nullptr);
  EXPECT_EQ(FindCheckOrFamily("kernel.Floor.float.generated.extra"), nullptr);
}

}  // namespace
}  // namespace conformance
