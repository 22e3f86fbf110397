#pragma once
// The functions TensorFlow looks up in a plugin, in the order it looks them up, their
// signatures (with void* standing in for the TensorFlow structs, which this layer never
// touches), and the ELF-level diagnosis of an entry point that is present in the library but
// invisible to dlsym. TensorFlow's headers declare the entry points without an export macro,
// so a plugin built with -fvisibility=hidden silently loses them; a C++ plugin that forgets
// extern "C" exports them under mangled names. TensorFlow then skips the module without an
// error; the harness says why.
#include <array>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "loader/elf_file.h"
#include "loader/result.h"

namespace conformance::loader {

// RegisterPluggableDevicePlugin's dlsym order.
inline constexpr std::array<std::string_view, 6> kEntryPointNames = {
    "SE_InitPlugin", "TFNPD_InitPlugin", "GetPjrtApi",
    "TF_InitKernel", "TF_InitGraph",     "TF_InitProfiler"};

// void SE_InitPlugin(SE_PlatformRegistrationParams*, TF_Status*)
using SeInitPluginFn = void (*)(void* params, void* status);
// const TFNPD_Api* TFNPD_InitPlugin(TFNPD_PluginParams*, TF_Status*)
using TfnpdInitPluginFn = const void* (*)(void* params, void* status);
// const PJRT_Api* GetPjrtApi()
using GetPjrtApiFn = const void* (*)();
// void TF_InitKernel()
using TfInitKernelFn = void (*)();
// void TF_InitGraph(TP_OptimizerRegistrationParams*, TF_Status*)
using TfInitGraphFn = void (*)(void* params, void* status);
// void TF_InitProfiler(TF_ProfilerRegistrationParams*, TF_Status*)
using TfInitProfilerFn = void (*)(void* params, void* status);

enum class UnexportedReason {
  // Declared global but made local by the linker: hidden/internal visibility
  // (-fvisibility=hidden) or local: in a version script. GNU ld does not record which.
  kHiddenVisibility,
  kStatic,      // declared static in the source
  kCxxLinkage,  // defined without extern "C": exported only under a mangled name
};

struct UnexportedEntryPoint {
  std::string entry_point;  // "SE_InitPlugin"
  std::string symbol;       // the symbol as found (the mangled name for kCxxLinkage)
  UnexportedReason reason = UnexportedReason::kHiddenVisibility;

  // "SE_InitPlugin is defined but not exported (hidden visibility, or local: in a version
  // script), so dlsym cannot find it and TensorFlow skips that module; ..." with the fix.
  std::string Describe() const;
};

struct EntryPointDiagnosis {
  std::vector<UnexportedEntryPoint> unexported;
  // False for a stripped library: hidden or static entry points cannot be seen then (mangled
  // exported ones still can).
  bool symtab_available = false;
};

// The .symtab filter (ElfReadOptions::symtab_filter) that keeps what DiagnoseEntryPoints needs.
std::function<bool(std::string_view)> EntryPointSymbolFilter();

// Works on an ElfFile read with EntryPointSymbolFilter(); entry points exported under their
// plain name are never reported.
EntryPointDiagnosis DiagnoseEntryPoints(const ElfFile& file);
// Reads the file itself (the plugin must be loadable here).
Result<EntryPointDiagnosis> DiagnoseEntryPoints(const std::filesystem::path& path);

}  // namespace conformance::loader
