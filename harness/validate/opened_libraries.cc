#include "validate/opened_libraries.h"

#include <algorithm>
#include <utility>

#include "loader/elf_file.h"
#include "loader/import_audit.h"
#include "loader/loaded_objects.h"
#include "model/joined.h"
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

using Unloadable = OpenedLibraryWatch::Unloadable;

// glibc stops at the first library of the dlopen that cannot be bound: the one opened first.
std::string DlopenError(const std::vector<Unloadable>& unloadable) {
  const Unloadable& first = unloadable.front();
  return first.library + ": undefined symbol: " + first.first_unbound;
}

// "LIB (A, B), LIB2 (C)" and "A,B,C".
std::pair<std::string, std::string> Listed(const std::vector<Unloadable>& unloadable) {
  std::string libraries, symbols;
  for (const Unloadable& library : unloadable) {
    libraries += (libraries.empty() ? "" : ", ") + library.library + " (" +
                 Joined(library.missing, ", ") + ")";
    symbols += (symbols.empty() ? "" : ",") + Joined(library.missing, ",");
  }
  return {libraries, symbols};
}

// What every report of unloadable libraries carries: blamed on the init function `entry`, so that
// the check and the status that init function returns are one root cause.
Details Blame(const std::string& entry, const std::string& release,
              const std::vector<Unloadable>& unloadable) {
  return {{"failing_call", entry},
          {"problem", "opens a library " + release + " cannot load"},
          {"opened_library", unloadable.front().library},
          {"missing_symbols", Listed(unloadable).second},
          {"refused_dlopen", DlopenError(unloadable)}};
}

void SkipTheRest(CheckLog& log, const std::string& entry,
                 const std::vector<Unloadable>& unloadable) {
  log.SkipRemaining("load.", "not reached: TensorFlow stops loading when " + entry +
                                 " fails (it cannot open " + unloadable.front().library +
                                 " there)");
}

}  // namespace

OpenedLibraryWatch::OpenedLibraryWatch(const Profile& profile, CheckLog& log, bool refuse_dlopen)
    : profile_(profile), log_(log), seen_(LoadedPaths()) {
  if (refuse_dlopen)
    gate_.emplace([this](const std::vector<std::filesystem::path>& added) { return Gate(added); });
}

void OpenedLibraryWatch::Enter(std::string_view entry_point) {
  entry_point_ = std::string(entry_point);
  failures_at_entry_ = log_.tensorflow_failures();
  refused_.clear();
}

std::vector<Unloadable> OpenedLibraryWatch::Audit(const std::vector<std::filesystem::path>& paths) {
  std::vector<Unloadable> unloadable;
  for (const std::filesystem::path& path : paths) {
    if (std::find(seen_.begin(), seen_.end(), path) != seen_.end()) continue;
    seen_.push_back(path);
    // Not a file (the vDSO) or not one dlopen could have opened: nothing to audit.
    const auto elf = loader::ReadElfFile(path);
    if (!elf.ok()) continue;
    if (elf.value().soname && TensorFlowSonames().contains(*elf.value().soname)) continue;
    ++opened_;
    const loader::ImportAudit audit =
        loader::AuditImports(elf.value(), ReachableExports(profile_, elf.value().needed));
    if (audit.ok()) continue;
    Unloadable library{path.string(), {}, loader::FirstUnboundImport(audit, elf.value())};
    for (const auto& symbol : audit.missing) library.missing.push_back(symbol.name);
    unloadable.push_back(std::move(library));
  }
  return unloadable;
}

// Inside the plugin's dlopen (loader/dlopen_gate.h): refuses it as the release's glibc would, and
// blames what the init function then fails with on that init function and this problem.
std::optional<std::string> OpenedLibraryWatch::Gate(
    const std::vector<std::filesystem::path>& added) {
  std::vector<Unloadable> unloadable = Audit(added);
  if (unloadable.empty()) return std::nullopt;
  log_.SetBlame(Blame(entry_point_, "TensorFlow " + profile_.releases, unloadable));
  refused_.insert(refused_.end(), unloadable.begin(), unloadable.end());
  return DlopenError(unloadable);
}

bool OpenedLibraryWatch::Refused(std::string_view entry_point) {
  const std::string entry(entry_point);
  const std::string release = "TensorFlow " + profile_.releases;
  if (!refused_.empty()) {
    // The gate refused the dlopen: the plugin did in its init function what it does there.
    log_.ClearBlame();
    const std::vector<Unloadable> refused = std::exchange(refused_, {});
    const std::string why = entry + " opens " + Listed(refused).first + ": TensorFlow symbol(s) " +
                            release + " does not export to plugins, so its dlopen fails there ('" +
                            DlopenError(refused) + "')";
    if (log_.tensorflow_failures() == failures_at_entry_) {
      log_.Warn(kOpenedLibrariesCheck,
                why + "; " + entry + " carries on without it, and TensorFlow loads the plugin so",
                Blame(entry, release, refused));
      reported_ = true;
      return false;
    }
    log_.Fail(kOpenedLibrariesCheck,
              why + ", and " + entry + " fails with the status TensorFlow aborts on (" +
                  log_.first_tensorflow_failure() + ")",
              std::nullopt, Blame(entry, release, refused));
    SkipTheRest(log_, entry, refused);
    return true;
  }

  // No gate (--force-runtime, or a process without the interposer): the libraries the init
  // function kept, audited after it returned; the plugin's status can only be predicted.
  std::vector<Unloadable> unloadable = Audit(LoadedPaths());
  if (unloadable.empty()) return false;
  const std::string dlerror = DlopenError(unloadable);
  Details details = Blame(entry, release, unloadable);
  details.erase("refused_dlopen");
  details["tensorflow_message"] = dlerror;
  details[std::string(kPluginStatusDetail)] = "1";
  log_.Fail(kOpenedLibrariesCheck,
            entry + " opens " + Listed(unloadable).first + ": TensorFlow symbol(s) " + release +
                " does not export to plugins — TensorFlow: the plugin's dlopen fails there ('" +
                dlerror + "'), so " + entry +
                " cannot open it, and TensorFlow aborts on the error status it returns",
            std::nullopt, std::move(details));
  SkipTheRest(log_, entry, unloadable);
  return true;
}

void OpenedLibraryWatch::Pass() {
  if (reported_) return;
  log_.Pass(kOpenedLibrariesCheck, {{"opened_objects", std::to_string(opened_)}});
}

}  // namespace conformance::validate
