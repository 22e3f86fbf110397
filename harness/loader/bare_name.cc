#include "loader/bare_name.h"

#include <system_error>

namespace conformance::loader {

bool IsBareName(const std::string& path) {
  return !path.empty() && path.find('/') == std::string::npos;
}

BareNameResolution ResolveBareName(const std::string& name,
                                   const DependencySearchOptions& options) {
  // The same search as for a DT_NEEDED entry of an object with no RPATH/RUNPATH of its own.
  ElfFile nobody;
  nobody.path = std::filesystem::current_path() / "(dlopen caller)";
  nobody.needed = {name};
  BareNameResolution resolution;
  resolution.search = ResolveDependencies(nobody, options).needed.front();

  std::error_code error;
  const std::filesystem::path local = std::filesystem::path(".") / name;
  if (std::filesystem::is_regular_file(local, error)) {
    const bool same = resolution.search.found && !resolution.search.resolved.empty() &&
                      std::filesystem::equivalent(local, resolution.search.resolved, error);
    if (!same) resolution.shadowed_local_file = local;
  }
  return resolution;
}

std::string BareNameResolution::Describe(const std::string& name) const {
  std::string text = "'" + name +
                     "' has no '/': dlopen (and TensorFlow, which passes the path to dlopen as "
                     "given) searches the library path for it, not the current directory; ";
  if (search.found) {
    text += "it loads " +
            (search.resolved.empty() ? std::string("an object already loaded")
                                     : search.resolved.string()) +
            " (" + std::string(ToString(*search.found_in)) + "), the file examined here";
  } else {
    text += search.Describe();
  }
  if (shadowed_local_file) {
    text += ". The file " + shadowed_local_file->string() +
            " in the current directory is not what would be loaded: to test it, pass './" + name +
            "'";
  }
  return text;
}

}  // namespace conformance::loader
