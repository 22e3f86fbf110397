#include "validate/library_checks.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "model/joined.h"
#include "loader/bare_name.h"
#include "model/tensorflow_fails_at.h"
#include "loader/cxx_imports.h"
#include "validate/unhosted_imports.h"
#include "loader/dependency_resolver.h"
#include "loader/dlopen_probe.h"
#include "loader/elf_file.h"
#include "loader/entry_points.h"
#include "loader/import_audit.h"
#include "loader/plugin_library.h"
#include "validate/core_libraries.h"
#include "validate/foreign_cxx_imports.h"
#include "validate/pywrap_reach.h"
#include "validate/tf_messages.h"
#include "validate/unlinked_plugin.h"

namespace conformance::validate {
namespace {

using loader::LoaderErrorKind;

bool IsFileProblem(LoaderErrorKind kind) {
  return kind == LoaderErrorKind::kNoSuchFile || kind == LoaderErrorKind::kIsDirectory ||
         kind == LoaderErrorKind::kPermissionDenied || kind == LoaderErrorKind::kReadFailed;
}

// What TensorFlow itself would report: dlopen's error. Only attempted once the examination
// found a reason dlopen fails, and then in a throwaway child: dlopen of a truncated file dies
// of SIGBUS, and the unit must still report the examination's finding.
std::string TensorFlowDlopenMessage(const std::string& path) {
  const auto probe = loader::ProbeDlopenInChild(path);
  return probe.loaded ? "" : probe.message;
}

// TF_LoadPluggableDeviceLibrary returns dlerror()'s text as the status message, nothing added.
std::string DlerrorText(const std::string& message) {
  constexpr std::string_view kPrefix = "dlopen failed: ";
  return message.starts_with(kPrefix) ? message.substr(kPrefix.size()) : message;
}

void SkipAfterLoadFailure(CheckLog& log, const char* id) {
  log.SkipRemaining("load.library.", std::string(id) + " failed: the plugin cannot be loaded");
  log.SkipRemaining("load.entry_points", "the plugin cannot be loaded");
}

void FailLoad(CheckLog& log, const char* id, const std::string& ours,
              const std::string& plugin_path, Details details = {}) {
  const std::string tensorflow = TensorFlowDlopenMessage(plugin_path);
  details["tensorflow_message"] = DlerrorText(tensorflow);
  log.Fail(id, ours + (tensorflow.empty() ? "" : " — TensorFlow: " + tensorflow), kTfNotFound,
           std::move(details));
  SkipAfterLoadFailure(log, id);
}

// details["missing_symbols"]: the strong imports nobody provides, comma-separated (the
// compatibility matrix lists them per generation).
Details MissingSymbolDetails(const loader::ImportAudit& audit) {
  std::string names;
  for (const auto& symbol : audit.missing) names += (names.empty() ? "" : ",") + symbol.name;
  return {{"missing_symbols", names}, {"problem", "symbol the core does not export"}};
}

// The emulated core lacks symbols the mock core provides, so dlopen here would succeed: say
// what that TensorFlow's dlopen says instead (glibc's "PATH: undefined symbol: NAME", naming
// the first in relocation order). `why` says which symbols and why: "... TensorFlow 2.10 does
// not export".
void FailUnboundImports(CheckLog& log, const loader::ImportAudit& audit, const loader::ElfFile& elf,
                        const std::string& why, const std::string& plugin_path) {
  std::string names;
  for (const auto& symbol : audit.missing) names += (names.empty() ? "" : ", ") + symbol.name;
  const std::string tensorflow =
      plugin_path + ": undefined symbol: " + loader::FirstUnboundImport(audit, elf);
  Details details = MissingSymbolDetails(audit);
  details["tensorflow_message"] = tensorflow;
  log.Fail("load.library.imports",
           std::to_string(audit.missing.size()) + " TensorFlow symbol(s) " + why + ": " + names +
               " — TensorFlow: " + tensorflow,
           kTfNotFound, std::move(details));
  SkipAfterLoadFailure(log, "load.library.imports");
}

// A release that keeps its libraries RTLD_LOCAL, and a plugin that links none of them
// (unlinked_plugin.h): dlopen finds none of its TF_* imports. False when it has no strong one.
bool FailedUnlinkedImports(CheckLog& log, const loader::ElfFile& elf, const Profile& profile,
                           const std::string& plugin_path) {
  const auto audit = loader::AuditImports(elf, loader::SymbolNameSet{});
  if (audit.ok()) return false;
  FailUnboundImports(log, audit, elf,
                     "the plugin cannot bind to: TensorFlow " + ReleasesInWords(profile.releases) +
                         " keeps its libraries' symbols local (RTLD_LOCAL), so a plugin reaches "
                         "the C API only through a TensorFlow library it links "
                         "(libtensorflow_framework.so.2), and this one links none",
                     plugin_path);
  return true;
}

// Not a defect: TensorFlow's own libraries export these symbols and load the plugin. The mock
// core implements the C API only, so the plugin cannot be hosted here, and every later check
// would only repeat dlopen's "undefined symbol".
void ReportTensorFlowCxxImports(const loader::CxxImportAudit& cxx, CheckLog& log) {
  log.NotSupported("load.library.tensorflow_cxx",
                   cxx.Describe() +
                       ". The plugin uses TensorFlow's C++ classes, not only its C API; the mock "
                       "core provides the C API and only the few C++ symbols C-API plugins import "
                       "(docs/tensorflow/plugin_imports.md), so this plugin cannot be tested "
                       "without TensorFlow");
  const std::string reason =
      "the plugin imports TensorFlow C++ symbols (load.library.tensorflow_cxx): it cannot be "
      "tested without TensorFlow";
  log.SkipRemaining("load.library.", reason);
  log.SkipRemaining("load.entry_points", reason);
}

// TensorFlow cannot bind these either (foreign_cxx_imports.h): its dlopen fails, as dlopen fails
// here. The message names the first: which one the dynamic loader meets first depends on the
// plugin's relocation order, so TensorFlow's text may name another of them.
void FailForeignCxxImports(const ForeignCxxImports& foreign, const loader::CxxImportAudit& cxx,
                           const std::string& given_path, CheckLog& log) {
  loader::CxxImportAudit tensorflows = cxx;  // the imports TensorFlow may provide
  std::erase_if(tensorflows.symbols, [&](const std::string& symbol) {
    return std::find(foreign.symbols.begin(), foreign.symbols.end(), symbol) !=
           foreign.symbols.end();
  });
  if (tensorflows.empty()) {
    log.Pass("load.library.tensorflow_cxx");
  } else {
    log.NotSupported("load.library.tensorflow_cxx",
                     tensorflows.Describe() +
                         ". Whether TensorFlow provides them is not known "
                         "without it; it cannot provide the others");
  }
  const std::string tensorflow = given_path + ": undefined symbol: " + foreign.symbols.front();
  std::string names;
  for (const auto& symbol : foreign.symbols) names += (names.empty() ? "" : ",") + symbol;
  // A release that lacks one of the plugin's other C++ imports may name that one instead (2.5.3
  // names tsl::port::NumSchedulableCPUs(), which it predates).
  std::string alternatives;
  for (const auto& symbol : cxx.symbols) {
    if (symbol == foreign.symbols.front()) continue;
    alternatives +=
        (alternatives.empty() ? "" : "\n") + given_path + ": undefined symbol: " + symbol;
  }
  Details details = {{"tensorflow_message", tensorflow},
                     {"missing_symbols", names},
                     {"problem", "C++ symbol no library exports"}};
  if (!alternatives.empty()) details[std::string(kMessageAlternativesDetail)] = alternatives;
  log.Fail("load.library.dlopen",
           foreign.Describe() +
               ". TensorFlow's dlopen of the plugin fails on them — TensorFlow: " + tensorflow,
           kTfNotFound, std::move(details));
  SkipAfterLoadFailure(log, "load.library.dlopen");
}

// The same finding for a library the plugin loads (unhosted_imports.h): not a defect, and
// nothing after it can run here.
void ReportUnhostedImport(const UnhostedImport& unhosted, CheckLog& log) {
  log.NotSupported("load.library.tensorflow_cxx",
                   unhosted.Describe() +
                       ". The mock core cannot host this plugin, so it cannot be tested without "
                       "TensorFlow");
  const std::string reason =
      "a library the plugin loads needs a function of TensorFlow's own libraries "
      "(load.library.tensorflow_cxx): it cannot be tested without TensorFlow";
  log.SkipRemaining("load.library.", reason);
  log.SkipRemaining("load.entry_points", reason);
}

void CheckEntryPoints(const loader::ElfFile& elf, const loader::PluginLibrary& library,
                      CheckLog& log) {
  const auto found = library.FindEntryPoints().Found();
  std::vector<std::string> problems;
  for (const auto& unexported : loader::DiagnoseEntryPoints(elf).unexported)
    problems.push_back(unexported.Describe());
  std::vector<std::string> module_entry_points;
  for (auto name : found) {
    if (name == "SE_InitPlugin" || name == "TF_InitKernel" || name == "TF_InitGraph" ||
        name == "TF_InitProfiler") {
      module_entry_points.emplace_back(name);
    }
  }
  if (module_entry_points.empty()) {
    problems.insert(problems.begin(),
                    "exports none of SE_InitPlugin, TF_InitKernel, TF_InitGraph, TF_InitProfiler");
  }
  std::string exported;
  for (const auto& name : module_entry_points) exported += (exported.empty() ? "" : ", ") + name;
  log.Expect("load.entry_points", problems.empty(), Joined(problems, "; "));
}

}  // namespace

std::vector<std::string> LibraryCheckIds() {
  return {"load.library.file",    "load.library.elf",
          "load.library.needed",  "load.library.tensorflow_cxx",
          "load.library.imports", "load.library.dlopen",
          "load.entry_points"};
}

// load.library.file passed. For a bare name, the file examined is the one dlopen finds on the
// library path; a different file of that name in the working directory is a warning, since
// the user most likely meant to test that one.
void PassFile(CheckLog& log, const std::optional<loader::BareNameResolution>& bare,
              const std::string& given_path) {
  if (!bare) {
    log.Pass("load.library.file");
    return;
  }
  const std::string note = bare->Describe(given_path);
  const std::string resolved = bare->search.resolved.string();
  if (bare->shadowed_local_file) {
    log.Warn("load.library.file", note, {{"resolved_path", resolved}});
  } else {
    log.Pass("load.library.file", {{"resolved_path", resolved}, {"note", note}});
  }
}

void RunLibraryChecks(const std::string& given_path, const Profile& profile, CheckLog& log) {
  // dlopen gets the path as given (as in TensorFlow); the examination must look at the file
  // that dlopen will load, which for a bare name is found on the library path.
  std::string plugin_path = given_path;
  std::optional<loader::BareNameResolution> bare;
  if (loader::IsBareName(given_path)) {
    bare = loader::ResolveBareName(given_path);
    if (!bare->search.found) {
      FailLoad(log, "load.library.file", bare->Describe(given_path), given_path);
      return;
    }
    if (!bare->search.resolved.empty()) plugin_path = bare->search.resolved.string();
  }
  loader::ElfReadOptions options;
  options.symtab_filter = loader::EntryPointSymbolFilter();
  auto elf = loader::ReadElfFile(plugin_path, options);
  if (!elf.ok()) {
    const auto& error = elf.error();
    if (IsFileProblem(error.kind)) {
      FailLoad(log, "load.library.file", error.Describe(), given_path);
      return;
    }
    PassFile(log, bare, given_path);
    FailLoad(log, "load.library.elf", error.Describe(), given_path);
    return;
  }
  PassFile(log, bare, given_path);
  log.Pass("load.library.elf", {{"machine", elf.value().machine_name}});

  loader::DependencySearchOptions search;
  search.harness_sonames = {kFrameworkSoname, kPywrapSoname};
  // A plugin built against TensorFlow's C++ libraries also needs the ones the harness does not
  // stand in for (libtensorflow_cc.so.2): that is part of the same finding, not a missing file.
  const auto cxx = loader::AuditCxxImports(elf.value(), CoreExports(), TensorFlowSonames(), search);
  const auto dependencies = loader::ResolveDependencies(elf.value(), search);
  std::vector<std::string> missing;
  for (const auto* library : dependencies.Missing()) {
    if (cxx.empty() || !TensorFlowSonames().contains(library->name))
      missing.push_back(library->Describe());
  }
  if (!missing.empty()) {
    FailLoad(log, "load.library.needed", Joined(missing, "; "), given_path);
    return;
  }
  // The mock core's _pywrap_tensorflow_internal.so has a SONAME, so dlopen here succeeds; the
  // emulated release's has none (pywrap_reach.h).
  if (auto unreachable = FindUnreachablePywrap(elf.value(), profile)) {
    const std::string& tensorflow = unreachable->tensorflow_message;
    const std::string who =
        unreachable->by_plugin ? std::string(kPywrapSoname) + " is not found"
                               : unreachable->needed_by.string() +
                                     ", a library the plugin loads, does not find " + kPywrapSoname;
    const std::string search =
        unreachable->by_plugin
            ? "the plugin's RUNPATH does not reach <site-packages>/tensorflow/python from "
              "<site-packages>/tensorflow-plugins (link libtensorflow_framework.so.2 instead, or "
              "add RUNPATH $ORIGIN/../tensorflow/python)"
            : "neither its RUNPATH (without one: its RPATH and the RPATHs of what loads it) "
              "reaches <site-packages>/tensorflow/python, the plugin's folder installed as "
              "<site-packages>/tensorflow-plugins (a RUNPATH is not inherited by the libraries "
              "a library loads)";
    log.Fail("load.library.needed",
             who + ": TensorFlow " + ReleasesInWords(profile.releases) +
                 "'s library of that name has no SONAME to match it by, and " + search +
                 " — TensorFlow: " + tensorflow,
             kTfNotFound, {{"tensorflow_message", tensorflow}});
    SkipAfterLoadFailure(log, "load.library.needed");
    return;
  }
  log.Pass("load.library.needed");
  // Before the C API audit: the mock core's exports say nothing about what the TensorFlow build
  // such a plugin was compiled against exports (zentf imports C API functions the core lacks).
  if (!cxx.empty()) {
    if (const auto foreign = FindForeignCxxImports(cxx); !foreign.empty()) {
      FailForeignCxxImports(foreign, cxx, given_path, log);
    } else {
      ReportTensorFlowCxxImports(cxx, log);
    }
    return;
  }

  const auto audit = loader::AuditImports(elf.value(), CoreExports());
  if (!audit.ok()) {
    FailLoad(
        log, "load.library.imports",
        std::to_string(audit.missing.size()) +
            " TensorFlow symbol(s) the core does not export: " + Joined(audit.Describe(), "; "),
        given_path, MissingSymbolDetails(audit));
    return;
  }
  if (!profile.libraries_global && LinksNoTensorFlowLibrary(elf.value().needed) &&
      FailedUnlinkedImports(log, elf.value(), profile, given_path)) {
    return;
  }
  // The mock core exports the newest C API; the emulated generation may export less.
  const auto generation_audit =
      loader::AuditImports(elf.value(), ReachableExports(profile, elf.value().needed));
  if (!generation_audit.ok()) {
    FailUnboundImports(log, generation_audit, elf.value(),
                       "TensorFlow " + profile.releases + " does not export", given_path);
    return;
  }
  log.Pass("load.library.imports", {{"tensorflow_imports", std::to_string(audit.provided.size())}});

  log.Begin("load.library.dlopen");
  auto library = loader::PluginLibrary::Open(given_path);
  if (!library.ok()) {
    if (auto unhosted = FindUnhostedImport(DlerrorText(library.error().message), plugin_path)) {
      ReportUnhostedImport(*unhosted, log);
      return;
    }
    log.Pass("load.library.tensorflow_cxx");
    log.Fail("load.library.dlopen", library.error().Describe(), kTfNotFound,
             {{"tensorflow_message", DlerrorText(library.error().message)}});
    log.SkipRemaining("load.entry_points", "the plugin cannot be loaded");
    return;
  }
  log.Pass("load.library.tensorflow_cxx");
  log.Pass("load.library.dlopen");
  CheckEntryPoints(elf.value(), library.value(), log);
}

}  // namespace conformance::validate
