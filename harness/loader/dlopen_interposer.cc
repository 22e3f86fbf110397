// dlopen and dlerror for the executable (dlopen_gate.h): a plugin's calls bind to these, which
// the executable exports (-Wl,--export-dynamic-symbol, CMakeLists.txt), before libc's. Unarmed,
// each forwards to the next definition (glibc's, or a sanitizer's interceptor), with a bare name
// found as glibc would find it for the caller.
#include <dlfcn.h>
#include <unistd.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "loader/dlopen_gate.h"

namespace {

using DlopenFn = void* (*)(const char*, int);
using DlerrorFn = char* (*)();

DlopenFn NextDlopen() {
  static const auto next = reinterpret_cast<DlopenFn>(dlsym(RTLD_NEXT, "dlopen"));
  return next;
}

DlerrorFn NextDlerror() {
  static const auto next = reinterpret_cast<DlerrorFn>(dlsym(RTLD_NEXT, "dlerror"));
  return next;
}

// Tells the gate when this process's dlopen is this one: the executable exports it, so a
// plugin's call finds it before libc's.
const bool kMarked = [] {
  // Resolved now, not at the first dlerror(): the dlsym that finds it clears the error state
  // that call is meant to read.
  NextDlopen();
  NextDlerror();
  if (dlsym(RTLD_DEFAULT, "dlopen") == reinterpret_cast<void*>(&dlopen))
    conformance::loader::gate_internal::MarkInterposed();
  return true;
}();

}  // namespace

namespace gate = conformance::loader::gate_internal;

namespace {

// glibc searches for a bare name from the object that called dlopen: its DT_RPATH or
// DT_RUNPATH, $ORIGIN being its folder. Called from here, that would be the executable's, and a
// plugin opening a library beside it by name (ITEX's CPU plugin) would not find it. So a bare
// name not loaded yet is looked up in the caller's search path (RTLD_DI_SERINFO: the folders
// glibc would try for it, in order) and opened by path; one already loaded, or found nowhere
// there (ld.so.cache's), goes to glibc as it is.
std::string ForCaller(const char* file, const void* return_address) {
  if (std::strchr(file, '/') != nullptr) return file;
  if (void* loaded = NextDlopen()(file, RTLD_LAZY | RTLD_NOLOAD)) {
    dlclose(loaded);
    return file;
  }
  Dl_info info{};
  if (dladdr(return_address, &info) == 0 || info.dli_fname == nullptr ||
      std::strchr(info.dli_fname, '/') == nullptr)
    return file;  // the executable itself: glibc's own search is the caller's
  void* caller = NextDlopen()(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (caller == nullptr) return file;
  std::string found = file;
  Dl_serinfo size{};
  if (dlinfo(caller, RTLD_DI_SERINFOSIZE, &size) == 0) {
    std::vector<std::max_align_t> storage(size.dls_size / sizeof(std::max_align_t) + 1);
    auto* paths = reinterpret_cast<Dl_serinfo*>(storage.data());
    paths->dls_size = size.dls_size;
    paths->dls_cnt = size.dls_cnt;
    if (dlinfo(caller, RTLD_DI_SERINFO, paths) == 0) {
      for (unsigned i = 0; i < paths->dls_cnt; ++i) {
        std::string candidate = std::string(paths->dls_serpath[i].dls_name) + "/" + file;
        if (access(candidate.c_str(), F_OK) == 0) {
          found = std::move(candidate);
          break;
        }
      }
    }
  }
  dlclose(caller);
  return found;
}

void* GatedDlopen(const char* file, int mode, const void* return_address) {
  NextDlerror();  // before any error it may be asked for (a dlopen from a static initializer)
  if (file == nullptr) return NextDlopen()(file, mode);
  const std::string path = ForCaller(file, return_address);
  if (!gate::Armed()) return NextDlopen()(path.c_str(), mode);
  const auto before = gate::LinkMap();
  void* handle = NextDlopen()(path.c_str(), mode);
  if (handle == nullptr) return nullptr;
  auto refusal = gate::Judge(before);
  if (!refusal) return handle;
  // glibc unmaps what a failed dlopen mapped; closing undoes this one (a library marked
  // NODELETE stays mapped, but the caller gets no handle to it).
  dlclose(handle);
  gate::SetPendingError(std::move(*refusal));
  return nullptr;
}

}  // namespace

// The C library's names and signatures: what a plugin's call binds to.
extern "C" void* dlopen(const char* file, int mode) noexcept {
  return GatedDlopen(file, mode, __builtin_return_address(0));
}

extern "C" char* dlerror() noexcept {
  // The refused dlopen's message, once; glibc's own state otherwise.
  if (const char* pending = gate::TakePendingError()) return const_cast<char*>(pending);
  return NextDlerror()();
}
