#include "loader/import_audit.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace conformance::loader {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> Names(const std::vector<ElfSymbol>& symbols) {
  std::vector<std::string> names;
  names.reserve(symbols.size());
  for (const ElfSymbol& symbol : symbols) names.push_back(symbol.name);
  return names;
}

TEST(AuditImports, ListsEveryMissingStrongImport) {
  auto plugin = ReadElfFile(LOADER_IMPORTS_TF);
  ASSERT_TRUE(plugin.ok()) << plugin.error().Describe();
  auto core = ExportedSymbols(LOADER_FAKE_CORE);
  ASSERT_TRUE(core.ok()) << core.error().Describe();

  const ImportAudit audit = AuditImports(*plugin, *core);
  EXPECT_FALSE(audit.ok());
  // TF_Hidden is defined in the core, but hidden: it does not count.
  EXPECT_THAT(Names(audit.missing), ElementsAre("SE_Baz", "TF_Foo", "TF_Hidden"));
  EXPECT_THAT(Names(audit.missing_weak), ElementsAre("TF_Weak"));
  EXPECT_THAT(Names(audit.provided), ElementsAre("TF_Bar"));

  const auto lines = audit.Describe();
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_THAT(lines[1], HasSubstr("missing TF_Foo"));
  EXPECT_THAT(lines[1], HasSubstr("'undefined symbol: TF_Foo'"));
  EXPECT_THAT(lines[3], HasSubstr("note: weak import TF_Weak"));
}

TEST(AuditImports, PassesWhenTheCoreExportsEverything) {
  auto plugin = ReadElfFile(LOADER_IMPORTS_TF);
  ASSERT_TRUE(plugin.ok()) << plugin.error().Describe();
  const SymbolNameSet core = {"TF_Foo", "TF_Bar", "TF_Hidden", "SE_Baz", "TF_Weak"};
  const ImportAudit audit = AuditImports(*plugin, core);
  EXPECT_TRUE(audit.ok());
  EXPECT_TRUE(audit.missing_weak.empty());
  EXPECT_EQ(audit.provided.size(), 5u);
  EXPECT_TRUE(audit.Describe().empty());
}

TEST(AuditImports, IgnoresNonTensorFlowImports) {
  ElfFile plugin;
  plugin.undefined_symbols = {{"memcpy", SymbolBinding::kGlobal, SymbolType::kFunction},
                              {"TFE_NewOp", SymbolBinding::kGlobal, SymbolType::kFunction},
                              {"TFNPD_Foo", SymbolBinding::kGlobal, SymbolType::kFunction},
                              {"TP_Bar", SymbolBinding::kGlobal, SymbolType::kFunction},
                              {"TFX_NotOurs", SymbolBinding::kGlobal, SymbolType::kFunction}};
  const ImportAudit audit = AuditImports(plugin, {});
  EXPECT_THAT(Names(audit.missing), ElementsAre("TFE_NewOp", "TFNPD_Foo", "TP_Bar"));
}

TEST(HasTensorFlowPrefix, MatchesOnlyWholePrefixes) {
  EXPECT_TRUE(HasTensorFlowPrefix("TF_NewStatus"));
  EXPECT_TRUE(HasTensorFlowPrefix("SE_InitPlugin"));
  EXPECT_FALSE(HasTensorFlowPrefix("TFLite_Foo"));
  EXPECT_FALSE(HasTensorFlowPrefix("tf_lowercase"));
}

}  // namespace
}  // namespace conformance::loader
