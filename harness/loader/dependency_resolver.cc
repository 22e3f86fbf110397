#include "loader/dependency_resolver.h"

#include <dlfcn.h>
#include <elf.h>
#include <sys/auxv.h>

#include <algorithm>
#include <cstdlib>

#include "loader/elf_header.h"
#include "loader/ld_so_cache.h"
#include "loader/loaded_objects.h"

namespace conformance::loader {

std::string_view ToString(SearchPlace place) {
  switch (place) {
    case SearchPlace::kHarnessProvided: return "harness-provided soname";
    case SearchPlace::kAlreadyLoaded: return "already loaded";
    case SearchPlace::kPathName: return "path name";
    case SearchPlace::kRpath: return "DT_RPATH";
    case SearchPlace::kLdLibraryPath: return "LD_LIBRARY_PATH";
    case SearchPlace::kRunpath: return "DT_RUNPATH";
    case SearchPlace::kLdSoCache: return "ld.so.cache";
    case SearchPlace::kLdSoConf: return "ld.so.conf";
    case SearchPlace::kDefaultDirectory: return "default directory";
  }
  return "unknown";
}

std::string_view ToString(CandidateVerdict verdict) {
  switch (verdict) {
    case CandidateVerdict::kAbsent: return "absent";
    case CandidateVerdict::kSkipped: return "skipped";
    case CandidateVerdict::kRejected: return "rejected";
    case CandidateVerdict::kAccepted: return "accepted";
  }
  return "unknown";
}

std::string NeededLibrary::Describe() const {
  if (found) {
    std::string text = name + ": found (" + std::string(ToString(*found_in)) + ")";
    if (!resolved.empty()) text += ": " + resolved.string();
    return text;
  }
  std::string text = name + ": " + failure + " (searched";
  bool first = true;
  for (const SearchAttempt& attempt : searched) {
    text += first ? " " : ", ";
    first = false;
    text += ToString(attempt.place);
    if (!attempt.candidate.empty()) text += " " + attempt.candidate.string();
    if (!attempt.detail.empty()) text += " [" + attempt.detail + "]";
  }
  if (first) text += " nothing";
  return text + ")";
}

bool DependencyReport::ok() const {
  return std::all_of(needed.begin(), needed.end(),
                     [](const NeededLibrary& library) { return library.found; });
}

std::vector<const NeededLibrary*> DependencyReport::Missing() const {
  std::vector<const NeededLibrary*> missing;
  for (const NeededLibrary& library : needed) {
    if (!library.found) missing.push_back(&library);
  }
  return missing;
}

std::string DefaultLibToken() {
  // $LIB is the loader's own library directory (compiled into ld.so). libc sits in it, so the
  // directory libc was loaded from, without a leading /usr, gives the value.
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&::getauxval), &info) != 0 && info.dli_fname != nullptr) {
    std::string directory = std::filesystem::path(info.dli_fname).parent_path().string();
    if (directory.starts_with("/usr/")) directory.erase(0, 4);
    if (directory.starts_with("/") && directory.size() > 1) return directory.substr(1);
  }
  return "lib";
}

std::string DefaultPlatformToken() {
  // NOLINTNEXTLINE(performance-no-int-to-ptr): getauxval gives the address as an integer.
  const auto* platform = reinterpret_cast<const char*>(::getauxval(AT_PLATFORM));
  return platform != nullptr ? platform : "";
}

std::vector<std::filesystem::path> DefaultSystemDirectories() {
  std::vector<std::filesystem::path> directories;
  const auto add = [&](std::filesystem::path directory) {
    if (std::find(directories.begin(), directories.end(), directory) == directories.end()) {
      directories.push_back(std::move(directory));
    }
  };
  const std::string lib = DefaultLibToken();
  add("/" + lib);
  add("/usr/" + lib);
  for (const char* directory : {"/lib", "/usr/lib", "/lib64", "/usr/lib64"}) add(directory);
  return directories;
}

namespace {

bool IsIdentifierChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// Length of the DST at text[0] ('$'), 0 if `name` does not start there. Accepts $NAME when
// not followed by an identifier character, and ${NAME}.
std::size_t TokenLength(std::string_view text, std::string_view name) {
  if (text.substr(1, name.size()) == name &&
      (text.size() == 1 + name.size() || !IsIdentifierChar(text[1 + name.size()]))) {
    return 1 + name.size();
  }
  if (text.size() >= name.size() + 3 && text[1] == '{' && text.substr(2, name.size()) == name &&
      text[2 + name.size()] == '}') {
    return name.size() + 3;
  }
  return 0;
}

std::filesystem::path AbsoluteOrigin(const std::filesystem::path& object) {
  std::error_code ignored;
  std::filesystem::path absolute = std::filesystem::absolute(object, ignored);
  if (absolute.empty()) absolute = object;
  return absolute.parent_path();
}

class Resolver {
 public:
  Resolver(const ElfFile& plugin, const DependencySearchOptions& options)
      : plugin_(plugin), options_(options), origin_(AbsoluteOrigin(plugin.path)) {}

  NeededLibrary Resolve(const std::string& name) {
    NeededLibrary library;
    library.name = name;

    if (options_.harness_sonames.contains(name)) {
      library.found = true;
      library.found_in = SearchPlace::kHarnessProvided;
      return library;
    }
    library.searched.push_back({SearchPlace::kHarnessProvided, {}, CandidateVerdict::kAbsent, {}});

    if (options_.check_loaded_objects) {
      if (auto object = FindLoadedObject(Loaded(), name)) {
        library.found = true;
        library.found_in = SearchPlace::kAlreadyLoaded;
        library.resolved = object->path;
        return library;
      }
      library.searched.push_back({SearchPlace::kAlreadyLoaded, {}, CandidateVerdict::kAbsent, {}});
    }

    const std::string expanded = ExpandDynamicStringTokens(name, origin_, options_);
    if (expanded.find('/') != std::string::npos) {
      if (Try(library, SearchPlace::kPathName, expanded)) return library;
      return Missing(library);
    }

    const bool has_runpath = plugin_.runpath.has_value();
    if (!has_runpath && plugin_.rpath) {
      if (TryDirectories(library, SearchPlace::kRpath, ExpandPath(*plugin_.rpath, ":"), name)) {
        return library;
      }
    }
    const std::string ld_library_path =
        options_.ld_library_path.value_or(EnvironmentLdLibraryPath());
    if (!ld_library_path.empty()) {
      // The loader accepts both ':' and ';' between LD_LIBRARY_PATH elements.
      // Its $ORIGIN is the program's directory, not the plugin's: the loader expands it once
      // at startup for the main program.
      const auto directories = SplitSearchPath(
          ExpandDynamicStringTokens(ld_library_path, ProgramOrigin(), options_), ":;");
      if (TryDirectories(library, SearchPlace::kLdLibraryPath, directories, name)) {
        return library;
      }
    }
    if (has_runpath) {
      if (TryDirectories(library, SearchPlace::kRunpath, ExpandPath(*plugin_.runpath, ":"), name)) {
        return library;
      }
    }
    if (!plugin_.no_default_lib) {
      if (TrySystemIndex(library, name)) return library;
      if (TryDirectories(library, SearchPlace::kDefaultDirectory, options_.default_directories,
                         name)) {
        return library;
      }
    }
    return Missing(library);
  }

 private:
  static std::string EnvironmentLdLibraryPath() {
    const char* value = std::getenv("LD_LIBRARY_PATH");
    return value != nullptr ? value : "";
  }

  static std::filesystem::path ProgramOrigin() {
    std::error_code ignored;
    return std::filesystem::read_symlink("/proc/self/exe", ignored).parent_path();
  }

  const std::vector<LoadedObject>& Loaded() {
    if (!loaded_) loaded_ = LoadedObjects();
    return *loaded_;
  }

  std::vector<std::filesystem::path> ExpandPath(std::string_view path,
                                                std::string_view delimiters) {
    return SplitSearchPath(ExpandDynamicStringTokens(path, origin_, options_), delimiters);
  }

  // TryDirectories/TrySystemIndex return true when the search is over: found, or stopped at a
  // file the loader rejects.
  bool TryDirectories(NeededLibrary& library, SearchPlace place,
                      const std::vector<std::filesystem::path>& directories,
                      const std::string& name) {
    for (const auto& directory : directories) {
      if (Try(library, place, directory / name)) return true;
      if (Stopped(library)) return true;
    }
    return false;
  }

  bool TrySystemIndex(NeededLibrary& library, const std::string& name) {
    if (!cache_loaded_) {
      cache_loaded_ = true;
      auto cache = LdSoCache::Load(options_.ld_so_cache);
      if (cache) {
        cache_ = std::move(*cache);
      } else {
        cache_problem_ = cache.error().message;
      }
    }
    if (cache_) {
      const auto paths = cache_->Lookup(name);
      if (paths.empty()) {
        library.searched.push_back(
            {SearchPlace::kLdSoCache, options_.ld_so_cache, CandidateVerdict::kAbsent, "no entry"});
      }
      for (const auto& path : paths) {
        if (Try(library, SearchPlace::kLdSoCache, path)) return true;
        if (Stopped(library)) return true;
      }
      return false;
    }
    library.searched.push_back({SearchPlace::kLdSoCache, options_.ld_so_cache,
                                CandidateVerdict::kAbsent, cache_problem_ + "; using ld.so.conf"});
    if (!conf_directories_) conf_directories_ = ReadLdSoConf(options_.ld_so_conf);
    return TryDirectories(library, SearchPlace::kLdSoConf, *conf_directories_, name);
  }

  // A rejected candidate ends the search: the loader reports it and gives up.
  static bool Stopped(const NeededLibrary& library) {
    return !library.searched.empty() &&
           library.searched.back().verdict == CandidateVerdict::kRejected;
  }

  // Looks at one candidate file the way glibc's open_verify does; true when the search is over
  // with the library found.
  bool Try(NeededLibrary& library, SearchPlace place, const std::filesystem::path& candidate) {
    SearchAttempt attempt{place, candidate, CandidateVerdict::kAbsent, {}};
    Judge(attempt);
    library.searched.push_back(attempt);
    if (attempt.verdict == CandidateVerdict::kRejected) {
      library.failure = "rejected " + candidate.string() + ": " + attempt.detail;
    }
    if (attempt.verdict != CandidateVerdict::kAccepted) return false;
    library.found = true;
    library.found_in = place;
    library.resolved = candidate;
    return true;
  }

  void Judge(SearchAttempt& attempt) {
    auto header = ReadElfHeader(attempt.candidate);
    if (!header) {
      const LoaderError& error = header.error();
      switch (error.kind) {
        case LoaderErrorKind::kNoSuchFile: attempt.verdict = CandidateVerdict::kAbsent; return;
        case LoaderErrorKind::kPermissionDenied:
          attempt.verdict = CandidateVerdict::kSkipped;
          attempt.detail = "permission denied";
          return;
        case LoaderErrorKind::kIsDirectory:
          attempt.verdict = CandidateVerdict::kRejected;
          attempt.detail = "cannot read file data: Is a directory";
          return;
        case LoaderErrorKind::kNotElf:
        case LoaderErrorKind::kMalformedElf: {
          // glibc's wording: it reads a whole ELF header before looking at the magic.
          std::error_code ignored;
          const auto size = std::filesystem::file_size(attempt.candidate, ignored);
          const char* loader_says =
              size < sizeof(Elf64_Ehdr) ? "file too short" : "invalid ELF header";
          attempt.verdict = CandidateVerdict::kRejected;
          attempt.detail = std::string(loader_says) + "; " + error.message;
          return;
        }
        default:
          attempt.verdict = CandidateVerdict::kRejected;
          attempt.detail = error.message;
          return;
      }
    }
    const ProcessAbi abi = ThisProcessAbi();
    if (header->elf_class != abi.elf_class) {
      attempt.verdict = CandidateVerdict::kSkipped;
      attempt.detail = "wrong ELF class: " + std::string(ElfClassName(header->elf_class));
      return;
    }
    if (header->little_endian != abi.little_endian) {
      attempt.verdict = CandidateVerdict::kRejected;
      attempt.detail = "ELF file data encoding does not match this machine";
      return;
    }
    if (header->machine != abi.machine) {
      attempt.verdict = CandidateVerdict::kSkipped;
      attempt.detail = "built for " + MachineName(header->machine);
      return;
    }
    if (header->type != ET_DYN) {
      attempt.verdict = CandidateVerdict::kRejected;
      attempt.detail = header->type == ET_EXEC ? "cannot dynamically load executable"
                                               : "only ET_DYN and ET_EXEC can be loaded";
      return;
    }
    ElfReadOptions options;
    options.require_loadable_here = false;
    options.read_dynamic_symbols = false;
    auto file = ReadElfFile(attempt.candidate, options);
    if (!file) {
      attempt.verdict = CandidateVerdict::kRejected;
      attempt.detail = file.error().message;
      return;
    }
    if (file->position_independent_executable) {
      attempt.verdict = CandidateVerdict::kRejected;
      attempt.detail = "cannot dynamically load position-independent executable";
      return;
    }
    attempt.verdict = CandidateVerdict::kAccepted;
  }

  static NeededLibrary& Missing(NeededLibrary& library) {
    if (!library.failure.empty()) return library;
    library.failure = "not found";
    // Files the loader passed over explain many "not found"s (a 32-bit build first on the path).
    for (const SearchAttempt& attempt : library.searched) {
      if (attempt.verdict == CandidateVerdict::kSkipped) {
        library.failure += "; skipped " + attempt.candidate.string() + " (" + attempt.detail + ")";
      }
    }
    return library;
  }

  const ElfFile& plugin_;
  const DependencySearchOptions& options_;
  std::filesystem::path origin_;
  std::optional<std::vector<LoadedObject>> loaded_;
  bool cache_loaded_ = false;
  std::optional<LdSoCache> cache_;
  std::string cache_problem_;
  std::optional<std::vector<std::filesystem::path>> conf_directories_;
};

}  // namespace

std::string ExpandDynamicStringTokens(std::string_view text, const std::filesystem::path& origin,
                                      const DependencySearchOptions& options) {
  std::string result;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '$') {
      const std::string_view rest = text.substr(i);
      const struct {
        std::string_view name;
        std::string value;
      } tokens[] = {{"ORIGIN", origin.string()},
                    {"LIB", options.lib_token},
                    {"PLATFORM", options.platform_token}};
      bool replaced = false;
      for (const auto& token : tokens) {
        if (const std::size_t length = TokenLength(rest, token.name); length != 0) {
          result += token.value;
          i += length;
          replaced = true;
          break;
        }
      }
      if (replaced) continue;
    }
    result += text[i++];
  }
  return result;
}

std::vector<std::filesystem::path> SplitSearchPath(std::string_view text,
                                                   std::string_view delimiters) {
  std::vector<std::filesystem::path> directories;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find_first_of(delimiters, start);
    const std::string_view element =
        text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    directories.emplace_back(element.empty() ? std::string_view(".") : element);
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return directories;
}

DependencyReport ResolveDependencies(const ElfFile& plugin,
                                     const DependencySearchOptions& options) {
  DependencyReport report;
  Resolver resolver(plugin, options);
  for (const std::string& name : plugin.needed) report.needed.push_back(resolver.Resolve(name));
  return report;
}

}  // namespace conformance::loader
