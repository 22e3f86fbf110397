#pragma once
// TensorFlow 2.19 to 2.21 ship python/_pywrap_tensorflow_internal.so without a DT_SONAME, and
// Python opens it by its full path: the dynamic loader then cannot match a plugin's DT_NEEDED
// `_pywrap_tensorflow_internal.so` against the loaded library and searches the disk for it,
// which finds it only through the plugin's own RPATH/RUNPATH (the same file is then reused).
// Python's TensorFlow never sets LD_LIBRARY_PATH, and a pip-installed plugin lives in
// <site-packages>/tensorflow-plugins, beside <site-packages>/tensorflow/python.
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

// TensorFlow's dlerror text when `profile`'s release would not find the plugin's
// DT_NEEDED _pywrap_tensorflow_internal.so (no SONAME there, and neither the plugin's RUNPATH,
// nor its RPATH when it has no RUNPATH, reaches it); nullopt when the plugin links no such
// library or will find it.
std::optional<std::string> UnreachablePywrapMessage(const loader::ElfFile& plugin,
                                                    const Profile& profile);

}  // namespace conformance::validate
