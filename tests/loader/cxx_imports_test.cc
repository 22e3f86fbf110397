#include "loader/cxx_imports.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace conformance::loader {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr const char* kFramework = "libtensorflow_framework.so.2";
constexpr const char* kTensorFlowImport = "_ZN3tsl4port18NumSchedulableCPUsEv";
// std::string::reserve(unsigned long): libstdc++ exports it, so it is not TensorFlow's.
constexpr const char* kLibstdcxxImport =
    "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE7reserveEm";

ElfSymbol Undefined(std::string name, SymbolBinding binding = SymbolBinding::kGlobal) {
  ElfSymbol symbol;
  symbol.name = std::move(name);
  symbol.binding = binding;
  symbol.type = SymbolType::kFunction;
  return symbol;
}

// A plugin as the ELF reader would describe it; its dependencies are found on this machine.
ElfFile Plugin(std::vector<std::string> needed) {
  ElfFile plugin;
  plugin.path = "/nonexistent/plugin.so";
  plugin.needed = std::move(needed);
  plugin.undefined_symbols = {Undefined(kTensorFlowImport), Undefined(kLibstdcxxImport),
                              Undefined("_ZGTtdlPv", SymbolBinding::kWeak),
                              Undefined("TF_NewStatus")};
  return plugin;
}

DependencySearchOptions Search() {
  DependencySearchOptions search;
  search.harness_sonames = {kFramework};
  return search;
}

TEST(Demangle, ReadableNameOrTheNameItself) {
  EXPECT_EQ(Demangle(kTensorFlowImport), "tsl::port::NumSchedulableCPUs()");
  EXPECT_EQ(Demangle("TF_NewStatus"), "TF_NewStatus");
}

TEST(TopNamespace, TheOutermostScopePastReturnTypesAndPrefixes) {
  EXPECT_EQ(TopNamespace("_ZN7glslang10InitThreadEv"), "glslang");  // glslang::InitThread()
  EXPECT_EQ(TopNamespace(kTensorFlowImport), "tsl");
  EXPECT_EQ(TopNamespace(kLibstdcxxImport), "std");
  EXPECT_EQ(TopNamespace("_ZTVN10tensorflow8OpKernelE"), "tensorflow");  // vtable for ...
  // void tensorflow::f<int>(int): a return type before the scope.
  EXPECT_EQ(TopNamespace("_ZN10tensorflow1fIiEEvi"), "tensorflow");
  EXPECT_EQ(TopNamespace("_Znwm"), "");                      // operator new(unsigned long)
  EXPECT_EQ(TopNamespace("_Z1fN10tensorflow6StatusE"), "");  // f(tensorflow::Status)
  EXPECT_EQ(TopNamespace("TF_NewStatus"), "");
}

TEST(AuditCxxImports, NamesOnlyStrongImportsNoDependencyExports) {
  const auto audit =
      AuditCxxImports(Plugin({kFramework, "libstdc++.so.6"}), {}, {kFramework}, Search());
  EXPECT_THAT(audit.tensorflow_libraries, ElementsAre(kFramework));
  EXPECT_THAT(audit.symbols, ElementsAre(kTensorFlowImport));
  EXPECT_THAT(audit.Describe(),
              HasSubstr("1 TensorFlow C++ symbol(s) expected from " + std::string(kFramework) +
                        ", e.g. tsl::port::NumSchedulableCPUs()"));
}

TEST(AuditCxxImports, WhatTheCoreExportsIsNotAFinding) {
  const auto audit = AuditCxxImports(Plugin({kFramework, "libstdc++.so.6"}), {kTensorFlowImport},
                                     {kFramework}, Search());
  EXPECT_TRUE(audit.empty());
}

TEST(AuditCxxImports, OnlyPluginsLinkedAgainstTensorFlow) {
  // Without a TensorFlow library among its needs, dlopen names what is missing itself.
  const auto audit = AuditCxxImports(Plugin({"libstdc++.so.6"}), {}, {kFramework}, Search());
  EXPECT_TRUE(audit.empty());
  EXPECT_TRUE(audit.tensorflow_libraries.empty());
}

}  // namespace
}  // namespace conformance::loader
