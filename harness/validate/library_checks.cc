#include "validate/library_checks.h"

#include <optional>
#include <string>
#include <vector>

#include "loader/bare_name.h"
#include "loader/dependency_resolver.h"
#include "loader/dlopen_probe.h"
#include "loader/elf_file.h"
#include "loader/entry_points.h"
#include "loader/import_audit.h"
#include "loader/plugin_library.h"
#include "validate/core_libraries.h"
#include "validate/tf_messages.h"

namespace conformance::validate {
namespace {

using loader::LoaderErrorKind;

bool IsFileProblem(LoaderErrorKind kind) {
  return kind == LoaderErrorKind::kNoSuchFile || kind == LoaderErrorKind::kIsDirectory ||
         kind == LoaderErrorKind::kPermissionDenied || kind == LoaderErrorKind::kReadFailed;
}

std::string Join(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += (text.empty() ? "" : "; ") + line;
  return text;
}

// What TensorFlow itself would report: dlopen's error. Only attempted once the examination
// found a reason dlopen fails, and then in a throwaway child: dlopen of a truncated file dies
// of SIGBUS, and the unit must still report the examination's finding.
std::string TensorFlowDlopenMessage(const std::string& path) {
  const auto probe = loader::ProbeDlopenInChild(path);
  return probe.loaded ? "" : probe.message;
}

void FailLoad(CheckLog& log, const char* id, const std::string& ours,
              const std::string& plugin_path) {
  const std::string tensorflow = TensorFlowDlopenMessage(plugin_path);
  log.Fail(id, ours + (tensorflow.empty() ? "" : " — TensorFlow: " + tensorflow), kTfNotFound,
           {{"tensorflow_message", tensorflow}});
  log.SkipRemaining("load.library.", std::string(id) + " failed: the plugin cannot be loaded");
  log.SkipRemaining("load.entry_points", "the plugin cannot be loaded");
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
  log.Expect("load.entry_points", problems.empty(), Join(problems));
}

}  // namespace

std::vector<std::string> LibraryCheckIds() {
  return {"load.library.file",    "load.library.elf",    "load.library.needed",
          "load.library.imports", "load.library.dlopen", "load.entry_points"};
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

void RunLibraryChecks(const std::string& given_path, CheckLog& log) {
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
  const auto dependencies = loader::ResolveDependencies(elf.value(), search);
  if (!dependencies.ok()) {
    std::vector<std::string> missing;
    for (const auto* library : dependencies.Missing()) missing.push_back(library->Describe());
    FailLoad(log, "load.library.needed", Join(missing), given_path);
    return;
  }
  log.Pass("load.library.needed");

  const auto audit = loader::AuditImports(elf.value(), CoreExports());
  if (!audit.ok()) {
    FailLoad(log, "load.library.imports",
             std::to_string(audit.missing.size()) +
                 " TensorFlow symbol(s) the core does not export: " + Join(audit.Describe()),
             given_path);
    return;
  }
  log.Pass("load.library.imports", {{"tensorflow_imports", std::to_string(audit.provided.size())}});

  log.Begin("load.library.dlopen");
  auto library = loader::PluginLibrary::Open(given_path);
  if (!library.ok()) {
    log.Fail("load.library.dlopen", library.error().Describe(), kTfNotFound);
    log.SkipRemaining("load.entry_points", "the plugin cannot be loaded");
    return;
  }
  log.Pass("load.library.dlopen");
  CheckEntryPoints(elf.value(), library.value(), log);
}

}  // namespace conformance::validate
