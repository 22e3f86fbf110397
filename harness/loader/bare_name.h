#pragma once
// A plugin path without '/' ("libplugin.so") is not a file in the working directory to dlopen:
// it is a name the loader searches for (already loaded objects, LD_LIBRARY_PATH, ld.so.cache,
// the system directories), as for a DT_NEEDED entry. TensorFlow passes the path to dlopen as
// given, so the file it loads may not be the one sitting in the current directory. The harness
// examines and loads the file dlopen would pick, and says so.
#include <filesystem>
#include <optional>
#include <string>

#include "loader/dependency_resolver.h"

namespace conformance::loader {

// True for a path dlopen treats as a name to search for.
bool IsBareName(const std::string& path);

struct BareNameResolution {
  NeededLibrary search;  // where dlopen would find it (or every place it looked)
  // A regular file of that name in the working directory, when it is not the file dlopen
  // would load (the user most likely meant it): "./NAME".
  std::optional<std::filesystem::path> shadowed_local_file;

  // "'libz.so.1' has no '/': dlopen (and TensorFlow, which passes the path as given) searches
  // the library path for it and loads /lib/x86_64-linux-gnu/libz.so.1 (ld.so.cache) ...".
  std::string Describe(const std::string& name) const;
};

BareNameResolution ResolveBareName(const std::string& name,
                                   const DependencySearchOptions& options = {});

}  // namespace conformance::loader
