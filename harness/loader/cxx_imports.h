#pragma once
// Which C++ symbols a plugin imports that only TensorFlow's own libraries could provide. Some
// production plugins (AMD's ZenDNN plugin, for one) use TensorFlow's C++ classes (its protobuf
// messages, its status and logging helpers) besides the C API. The mock core implements the C
// API only, so such a plugin cannot be loaded here at all: dlopen would stop at the first of
// these imports. The audit names them so the report can say why, instead of a bare dlerror.
#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "loader/dependency_resolver.h"
#include "loader/elf_file.h"

namespace conformance::loader {

struct CxxImportAudit {
  // The plugin's DT_NEEDED entries that name TensorFlow's libraries, in DT_NEEDED order.
  std::vector<std::string> tensorflow_libraries;
  // Strong undefined mangled (_Z...) imports that neither the core nor any other library the
  // plugin depends on (directly or through its dependencies) exports. Sorted by name.
  std::vector<std::string> symbols;

  bool empty() const { return symbols.empty(); }
  // "412 TensorFlow C++ symbol(s) expected from libtensorflow_framework.so.2, e.g.
  // tensorflow::Status::ToString() const, ...": the first `shown`, demangled.
  std::string Describe(std::size_t shown = 3) const;
};

// The readable form of a mangled C++ name (abi::__cxa_demangle); the name itself if it is not
// one.
std::string Demangle(std::string_view mangled);

// The namespace (or class) a mangled name's entity is declared in, outermost first: "glslang"
// for glslang::InitThread(), "tensorflow" for `vtable for tensorflow::OpKernel` and for
// `void tensorflow::f<int>(int)`; "" for a name outside any (operator new, a template function
// at global scope, a C symbol). specs/profiles/audit/cxx_namespaces.py applies the same rule to
// TensorFlow's exports.
std::string TopNamespace(std::string_view mangled);

// Looks only at plugins whose DT_NEEDED names one of `tensorflow_sonames`: the libraries of the
// rest are all on disk and dlopen names what is missing itself. `search` finds the plugin's
// other dependencies the way the loader does (its harness_sonames are never opened).
CxxImportAudit AuditCxxImports(const ElfFile& plugin, const SymbolNameSet& core_exports,
                               const std::set<std::string, std::less<>>& tensorflow_sonames,
                               const DependencySearchOptions& search);

}  // namespace conformance::loader
