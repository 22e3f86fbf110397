#include "loader/entry_points.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace conformance::loader {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(DiagnoseEntryPoints, FindsHiddenStaticAndMangledEntryPoints) {
  auto diagnosis = DiagnoseEntryPoints(LOADER_HIDDEN_ENTRY);
  ASSERT_TRUE(diagnosis.ok()) << diagnosis.error().Describe();
  ASSERT_TRUE(diagnosis->symtab_available);
  const auto& found = diagnosis->unexported;
  ASSERT_EQ(found.size(), 3u);  // TF_InitKernel is exported properly and not listed

  EXPECT_EQ(found[0].entry_point, "SE_InitPlugin");
  EXPECT_EQ(found[0].reason, UnexportedReason::kHiddenVisibility);
  EXPECT_THAT(found[0].Describe(),
              AllOf(HasSubstr("SE_InitPlugin is defined but not exported (hidden visibility"),
                    HasSubstr("visibility(\"default\")")));

  EXPECT_EQ(found[1].entry_point, "TF_InitGraph");
  EXPECT_EQ(found[1].reason, UnexportedReason::kStatic);
  EXPECT_THAT(found[1].Describe(), HasSubstr("TF_InitGraph is defined static"));

  EXPECT_EQ(found[2].entry_point, "TF_InitProfiler");
  EXPECT_EQ(found[2].reason, UnexportedReason::kCxxLinkage);
  EXPECT_THAT(found[2].symbol, StartsWith("_Z"));
  EXPECT_THAT(found[2].Describe(), HasSubstr("extern \"C\""));
}

TEST(DiagnoseEntryPoints, CleanPluginHasNothingToReport) {
  auto diagnosis = DiagnoseEntryPoints(LOADER_GOOD_PLUGIN);
  ASSERT_TRUE(diagnosis.ok()) << diagnosis.error().Describe();
  EXPECT_TRUE(diagnosis->unexported.empty());
}

TEST(DiagnoseEntryPoints, StrippedLibraryStillShowsMangledExports) {
  ElfFile stripped;  // what ReadElfFile gives for a library without .symtab
  stripped.has_symtab = false;
  stripped.exported_symbols = {{"_ZN6vendor13SE_InitPluginEPvS0_", SymbolBinding::kGlobal,
                                SymbolType::kFunction, SymbolVisibility::kDefault, true},
                               // Mentions an entry point name but is not that function.
                               {"_Z22call_TF_InitKernel_nowv", SymbolBinding::kGlobal,
                                SymbolType::kFunction, SymbolVisibility::kDefault, true}};
  const EntryPointDiagnosis diagnosis = DiagnoseEntryPoints(stripped);
  EXPECT_FALSE(diagnosis.symtab_available);
  ASSERT_EQ(diagnosis.unexported.size(), 1u);
  EXPECT_EQ(diagnosis.unexported[0].entry_point, "SE_InitPlugin");
  EXPECT_EQ(diagnosis.unexported[0].reason, UnexportedReason::kCxxLinkage);
}

TEST(DiagnoseEntryPoints, PlainExportWinsOverAMangledTwin) {
  ElfFile file;
  file.exported_symbols = {{"_Z13SE_InitPluginPvS_", SymbolBinding::kGlobal, SymbolType::kFunction,
                            SymbolVisibility::kDefault, true},
                           {"SE_InitPlugin", SymbolBinding::kGlobal, SymbolType::kFunction,
                            SymbolVisibility::kDefault, true}};
  EXPECT_TRUE(DiagnoseEntryPoints(file).unexported.empty());
}

TEST(EntryPointNames, FollowTensorFlowsLookupOrder) {
  EXPECT_EQ(kEntryPointNames.front(), "SE_InitPlugin");
  EXPECT_EQ(kEntryPointNames[1], "TFNPD_InitPlugin");
  EXPECT_EQ(kEntryPointNames[2], "GetPjrtApi");
  EXPECT_EQ(kEntryPointNames.back(), "TF_InitProfiler");
}

}  // namespace
}  // namespace conformance::loader
