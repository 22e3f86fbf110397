#pragma once
// A plugin whose own library imports only what the mock core exports can still fail to load
// here because a library it loads imports a TensorFlow C API function the mock core does not
// implement, while linking one of TensorFlow's own libraries that may provide it: a library
// importing, say, TF_NewGraph and linking _pywrap_tensorflow_internal.so, which in
// tensorflow-cpu 2.15.1 links libtensorflow_cc.so.2, which exports it (ITEX's CPU build was
// such a plugin until the core implemented the registry functions it imports). Whether a release
// provides the function is not known without it, so this is the same finding as
// load.library.tensorflow_cxx (the plugin cannot be hosted here), not a refusal.
#include <optional>
#include <string>

namespace conformance::validate {

struct UnhostedImport {
  std::string library;             // the library dlopen names (a dependency of the plugin)
  std::string symbol;              // the TF_* function it imports
  std::string tensorflow_library;  // the TensorFlow library it links (DT_NEEDED)

  std::string Describe() const;
};

// From dlopen's error text ("LIBRARY: undefined symbol: NAME"): the import above, or nullopt
// when the failure is anything else (the plugin's own import, a function the core implements,
// a library that links no TensorFlow library, another error).
std::optional<UnhostedImport> FindUnhostedImport(const std::string& dlerror_text,
                                                 const std::string& plugin_path);

}  // namespace conformance::validate
