#pragma once
// C++ imports no TensorFlow release can bind. A plugin built against TensorFlow's C++ libraries
// cannot be hosted by the mock core (load.library.tensorflow_cxx), but an import in a namespace
// none of TensorFlow's libraries exports a symbol in (glslang::InitThread(), left undefined by
// a build that forgot to link a library), and that no library the plugin loads exports either,
// stays undefined wherever TensorFlow loads the plugin: its dlopen fails. The namespaces are
// measured on every release's libraries (specs/profiles/cxx_namespaces.txt).
#include <string>
#include <vector>

#include "loader/cxx_imports.h"

namespace conformance::validate {

struct ForeignCxxImports {
  std::vector<std::string> symbols;     // mangled, in the audit's order
  std::vector<std::string> namespaces;  // theirs, sorted, each once

  bool empty() const { return symbols.empty(); }
  // "1 C++ symbol(s) in a namespace no TensorFlow library exports (glslang), which no library
  // the plugin loads exports either: glslang::InitThread()"
  std::string Describe(std::size_t shown = 3) const;
};

// The symbols of `cxx` (imports neither the core nor the plugin's other libraries export) whose
// namespace is not one TensorFlow's libraries export symbols in.
ForeignCxxImports FindForeignCxxImports(const loader::CxxImportAudit& cxx);

}  // namespace conformance::validate
