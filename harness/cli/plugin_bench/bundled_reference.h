#pragma once
// Where the bundled reference plugin is: next to plugin_bench in the build or install tree
// (bin/plugin_bench -> lib/libreference_plugin.so), else where the build put it.
#include <filesystem>

namespace conformance::bench {

std::filesystem::path BundledReferencePlugin();

}  // namespace conformance::bench
