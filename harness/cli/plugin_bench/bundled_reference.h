#pragma once
// Where the bundled reference plugin is: beside plugin_bench in the install tree
// (bin/plugin_bench -> lib/plugin_conformance/libreference_plugin.so) or the build tree
// (lib/libreference_plugin.so), else where the build put it.
#include <filesystem>

namespace conformance::bench {

std::filesystem::path BundledReferencePlugin();

}  // namespace conformance::bench
