#pragma once
// The mock core as plugins see it: one library loaded under both sonames TensorFlow plugins
// link against (spec §7), and the set of symbols it exports (for the import audit).
#include <filesystem>
#include <set>
#include <string>

namespace conformance::validate {

inline constexpr const char* kFrameworkSoname = "libtensorflow_framework.so.2";
inline constexpr const char* kPywrapSoname = "_pywrap_tensorflow_internal.so";

// Every soname of TensorFlow's own libraries a plugin may link against: the two above and the
// C++ API library (libtensorflow_cc.so.2), which the harness does not stand in for.
const std::set<std::string, std::less<>>& TensorFlowSonames();

// Path of the libtensorflow_framework.so.2 this process runs with.
std::filesystem::path CoreLibraryPath();
// Loads _pywrap_tensorflow_internal.so (next to the core) so DT_NEEDED entries naming it are
// satisfied by soname. Call once in the parent before forking; idempotent. Returns "" or why not.
std::string PreloadCoreLibraries();
// Symbols the core exports; computed once.
const std::set<std::string, std::less<>>& CoreExports();

}  // namespace conformance::validate
