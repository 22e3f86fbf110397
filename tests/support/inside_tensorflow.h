#pragma once
// Whether this process is the installed TensorFlow: its libtensorflow_cc.so.2 is mapped.
// plugin_conformance's own children host the mock core, which is only ever mapped as
// libtensorflow_framework.so.2 or _pywrap_tensorflow_internal.so. Test plugins use this for
// defects that only real TensorFlow reaches, so that the --tensorflow leg alone can catch
// them (tests/installed_deaths).
#include <link.h>

#include <cstdlib>
#include <cstring>

namespace conformance::test_support {

inline bool InsideInstalledTensorFlow() {
  const auto is_tensorflow_cc = [](dl_phdr_info* info, std::size_t, void*) -> int {
    return info->dlpi_name != nullptr &&
           std::strstr(info->dlpi_name, "libtensorflow_cc.so") != nullptr;
  };
  return dl_iterate_phdr(is_tensorflow_cc, nullptr) != 0;
}

// A NULL the compiler cannot see through: writing to it is a real SIGSEGV, where a literal
// null dereference may be compiled into a trap instruction (SIGILL) instead.
inline volatile int* volatile g_null_pointer = nullptr;

[[noreturn]] inline void SegfaultHere() {
  *g_null_pointer = 1;
  std::abort();  // never reached
}

}  // namespace conformance::test_support
