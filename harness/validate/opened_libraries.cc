#include "validate/opened_libraries.h"

#include <algorithm>

#include "model/joined.h"
#include "loader/elf_file.h"
#include "loader/import_audit.h"
#include "loader/loaded_objects.h"
#include "model/tensorflow_fails_at.h"
#include "validate/core_libraries.h"

namespace conformance::validate {
namespace {

// The link map's files, without the harness's own core: a library linking the other soname of
// the mock core brings it in, and the core is TensorFlow's stand-in, not the plugin's library.
std::vector<std::filesystem::path> LoadedPaths() {
  std::vector<std::filesystem::path> paths;
  for (loader::LoadedObject& object : loader::LoadedObjects()) {
    if (object.soname && TensorFlowSonames().contains(*object.soname)) continue;
    paths.push_back(std::move(object.path));
  }
  return paths;
}

// A library an init function opened that the profile's release cannot load.
struct Unloadable {
  std::string library;
  std::vector<std::string> missing;  // strong TensorFlow imports the release does not export
  std::string first_unbound;         // the one glibc's dlopen names
};

}  // namespace

OpenedLibraryWatch::OpenedLibraryWatch(const Profile& profile)
    : profile_(profile), seen_(LoadedPaths()) {}

bool OpenedLibraryWatch::Refused(std::string_view entry_point, CheckLog& log) {
  std::vector<Unloadable> unloadable;
  for (std::filesystem::path& path : LoadedPaths()) {
    if (std::find(seen_.begin(), seen_.end(), path) != seen_.end()) continue;
    seen_.push_back(path);
    ++opened_;
    // Not a file (the vDSO) or not one dlopen could have opened: nothing to audit.
    const auto elf = loader::ReadElfFile(path);
    if (!elf.ok()) continue;
    const loader::ImportAudit audit =
        loader::AuditImports(elf.value(), ReachableExports(profile_, elf.value().needed));
    if (audit.ok()) continue;
    Unloadable library{path.string(), {}, loader::FirstUnboundImport(audit, elf.value())};
    for (const auto& symbol : audit.missing) library.missing.push_back(symbol.name);
    unloadable.push_back(std::move(library));
  }
  if (unloadable.empty()) return false;

  // glibc stops at the first library of the dlopen that cannot be bound: the one opened first.
  const Unloadable& first = unloadable.front();
  const std::string dlerror = first.library + ": undefined symbol: " + first.first_unbound;
  std::string libraries, symbols;
  for (const Unloadable& library : unloadable) {
    libraries += (libraries.empty() ? "" : ", ") + library.library + " (" +
                 Joined(library.missing, ", ") + ")";
    symbols += (symbols.empty() ? "" : ",") + Joined(library.missing, ",");
  }
  const std::string entry(entry_point);
  const std::string release = "TensorFlow " + profile_.releases;
  log.Fail(kOpenedLibrariesCheck,
           entry + " opens " + libraries + ": TensorFlow symbol(s) " + release +
               " does not export to plugins — TensorFlow: the plugin's dlopen fails there ('" +
               dlerror + "'), so " + entry +
               " cannot open it, and TensorFlow aborts on the error " + "status it returns",
           std::nullopt,
           {{"failing_call", entry},
            {"problem", "opens a library " + release + " cannot load"},
            {"opened_library", first.library},
            {"missing_symbols", symbols},
            {"tensorflow_message", dlerror},
            {std::string(kPluginStatusDetail), "1"}});
  log.SkipRemaining("load.", "not reached: TensorFlow stops loading when " + entry +
                                 " fails (it cannot open " + first.library + " there)");
  return true;
}

void OpenedLibraryWatch::Pass(CheckLog& log) const {
  log.Pass(kOpenedLibrariesCheck, {{"opened_objects", std::to_string(opened_)}});
}

}  // namespace conformance::validate
