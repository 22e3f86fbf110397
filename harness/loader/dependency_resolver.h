#pragma once
// Would the dynamic loader find every DT_NEEDED library of a plugin? Answered by repeating the
// loader's search (glibc's order and rules) over the file system without loading anything, so
// the harness can list every missing dependency with the places it looked, where dlopen would
// report only the first one as "cannot open shared object file".
//
// Search order for one DT_NEEDED name, as glibc does it:
//   1. names the harness provides itself (its core, preloaded under TensorFlow's sonames);
//   2. objects already loaded in this process whose soname (or file name) matches;
//   3. a name containing '/' is a path (relative to the working directory) and nothing else;
//   4. DT_RPATH of the plugin, only when it has no DT_RUNPATH;
//   5. LD_LIBRARY_PATH;
//   6. DT_RUNPATH of the plugin;
//   7. /etc/ld.so.cache (or, when it is unusable, the directories of /etc/ld.so.conf);
//   8. the default directories.
// 7 and 8 are skipped for a plugin linked with -z nodeflib. $ORIGIN, $LIB and $PLATFORM (also
// in ${...} form) are expanded in RPATH/RUNPATH and in the name. A file found must be usable:
// the loader silently skips files of the wrong ELF class or machine and unreadable ones, and
// stops the whole load with an error at a file that is not ELF at all.
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "loader/elf_file.h"

namespace conformance::loader {

enum class SearchPlace {
  kHarnessProvided,
  kAlreadyLoaded,
  kPathName,
  kRpath,
  kLdLibraryPath,
  kRunpath,
  kLdSoCache,
  kLdSoConf,
  kDefaultDirectory,
};
std::string_view ToString(SearchPlace place);  // "DT_RUNPATH", "LD_LIBRARY_PATH", ...

enum class CandidateVerdict {
  kAbsent,    // nothing there (or nothing matched); the loader keeps searching
  kSkipped,   // a file the loader passes over (wrong class/machine, unreadable); keeps searching
  kRejected,  // a file that makes the loader give up (not ELF, not loadable)
  kAccepted,  // the loader would use this one
};
std::string_view ToString(CandidateVerdict verdict);

struct SearchAttempt {
  SearchPlace place = SearchPlace::kDefaultDirectory;
  std::filesystem::path candidate;  // file looked at; empty for the in-process lookups
  CandidateVerdict verdict = CandidateVerdict::kAbsent;
  std::string detail;  // why skipped/rejected ("wrong ELF class: ELFCLASS32")
};

struct NeededLibrary {
  std::string name;  // the DT_NEEDED entry as written
  bool found = false;
  std::optional<SearchPlace> found_in;
  std::filesystem::path resolved;  // file the loader would use (loaded object's path, if reused)
  std::vector<SearchAttempt> searched;  // every place tried, in the loader's order
  std::string failure;                  // why it is missing; empty when found

  // "libfoo.so.1: not found (searched DT_RUNPATH /opt/p/sub, LD_LIBRARY_PATH /x, ld.so.cache,
  // /lib/x86_64-linux-gnu, ...)" or "libfoo.so.1: found in DT_RUNPATH: /opt/p/sub/libfoo.so.1".
  std::string Describe() const;
};

struct DependencyReport {
  std::vector<NeededLibrary> needed;  // one per DT_NEEDED, in order

  bool ok() const;
  std::vector<const NeededLibrary*> Missing() const;
};

// Values for $LIB and $PLATFORM as this process's loader expands them.
std::string DefaultLibToken();       // e.g. "lib/x86_64-linux-gnu" on Debian, "lib64" on Fedora
std::string DefaultPlatformToken();  // AT_PLATFORM, e.g. "x86_64"
// The loader's built-in directories: the multiarch ones derived from $LIB, then /lib, /usr/lib,
// /lib64, /usr/lib64.
std::vector<std::filesystem::path> DefaultSystemDirectories();

struct DependencySearchOptions {
  std::set<std::string, std::less<>> harness_sonames;  // e.g. the two TensorFlow sonames
  std::optional<std::string> ld_library_path;          // nullopt: this process's LD_LIBRARY_PATH
  bool check_loaded_objects = true;
  std::filesystem::path ld_so_cache = "/etc/ld.so.cache";
  std::filesystem::path ld_so_conf = "/etc/ld.so.conf";  // used only when the cache is unusable
  std::vector<std::filesystem::path> default_directories = DefaultSystemDirectories();
  std::string lib_token = DefaultLibToken();
  std::string platform_token = DefaultPlatformToken();
};

// Expands $ORIGIN/${ORIGIN} (to `origin`), $LIB and $PLATFORM in an RPATH/RUNPATH or DT_NEEDED
// string; other '$' sequences are kept as written.
std::string ExpandDynamicStringTokens(std::string_view text, const std::filesystem::path& origin,
                                      const DependencySearchOptions& options);

// Splits a search path at any of `delimiters`; an empty element means the working directory,
// as it does for the loader.
std::vector<std::filesystem::path> SplitSearchPath(std::string_view text,
                                                   std::string_view delimiters = ":");

// Where the loader would find each of the plugin's DT_NEEDED libraries. $ORIGIN is the
// directory of plugin.path (made absolute against the working directory).
DependencyReport ResolveDependencies(const ElfFile& plugin,
                                     const DependencySearchOptions& options = {});

}  // namespace conformance::loader
