#pragma once
// TensorFlow 2.19 to 2.21 ship python/_pywrap_tensorflow_internal.so without a DT_SONAME, and
// Python opens it by its full path: the dynamic loader then cannot match a DT_NEEDED
// `_pywrap_tensorflow_internal.so` against the loaded library and searches the disk for it,
// which finds it only through the needing library's own search path (the same file is then
// reused). Python's TensorFlow never sets LD_LIBRARY_PATH, and a pip-installed plugin lives in
// <site-packages>/tensorflow-plugins, beside <site-packages>/tensorflow/python.
//
// The needing library may be the plugin or one it loads (a vendor's runtime linking the Python
// extension): glibc searches a library's DT_RUNPATH alone when it has one, else its DT_RPATH
// and then the DT_RPATHs of the objects that loaded it (measured on 2.21.0's Python: a helper
// without a search path of its own, loaded by a plugin whose RPATH reaches the python folder,
// loads; by a plugin whose RUNPATH reaches it, NOT_FOUND).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "loader/elf_file.h"
#include "validate/profile.h"

namespace conformance::validate {

// Whether one RPATH/RUNPATH (unexpanded, ':'-separated) leads to TensorFlow's python folder for
// a plugin installed in <site-packages>/tensorflow-plugins: an element with $ORIGIN that
// expands to <site-packages>/tensorflow/python, or an absolute folder ending in
// tensorflow/python (a fixed install of the wheel).
bool SearchPathReachesPywrap(std::string_view search_path);

struct UnreachablePywrap {
  std::filesystem::path needed_by;  // the library whose DT_NEEDED names it
  bool by_plugin = true;            // false: a library the plugin loads
  std::string tensorflow_message;   // TensorFlow's dlerror text
};

// Where `profile`'s release would not find a DT_NEEDED _pywrap_tensorflow_internal.so of the
// plugin or of a library it loads from disk (no SONAME there, and no search path glibc uses for
// that library reaches it, with the plugin's folder installed as tensorflow-plugins); nullopt
// when none links it or every one finds it. The first such library, depth first.
std::optional<UnreachablePywrap> FindUnreachablePywrap(const loader::ElfFile& plugin,
                                                       const Profile& profile);

// FindUnreachablePywrap's TensorFlow text alone.
std::optional<std::string> UnreachablePywrapMessage(const loader::ElfFile& plugin,
                                                    const Profile& profile);

}  // namespace conformance::validate
