#pragma once
// TensorFlow 2.5 to 2.18 load their own libraries RTLD_LOCAL (no pywrap_dlopen_global_flags.py
// in the wheel): their TF_* functions are in no global scope, so a plugin's imports bind only
// through the TensorFlow library it links (libtensorflow_framework.so.2 or
// _pywrap_tensorflow_internal.so, directly or through a library it needs). A plugin that links
// none of them is refused with dlopen's "undefined symbol" for its first TF_* import (measured on
// 2.15.1 with a Vulten build linked against nothing of TensorFlow's); 2.19 and later load it.
#include <string>
#include <vector>

namespace conformance::validate {

// Whether libraries with these DT_NEEDED entries reach no TensorFlow library: none is one, and
// each is found in the system's library folders (whose libraries link no TensorFlow). A library
// found elsewhere (a vendor's own, beside the plugin) may link TensorFlow: false, unknown.
bool LinksNoTensorFlowLibrary(const std::vector<std::string>& needed);

}  // namespace conformance::validate
