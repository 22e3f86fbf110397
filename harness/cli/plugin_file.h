#pragma once
// A quick look at a plugin path before anything runs, for the cases where no check would
// report it: a selection without checks, or a --co-load path (which has no checks of its
// own). Not a substitute for the load tier's checks, which examine the file properly.
#include <optional>
#include <string>

namespace conformance {

// "no such file", "is a directory", "not an ELF file", ...; nullopt when the path names a
// readable file that starts like an ELF object.
std::optional<std::string> PluginFileProblem(const std::string& path);

// A CPU kernel plugin by its exported symbols (read from the file, never loaded here):
// TF_InitKernel without SE_InitPlugin (nor TFNPD_InitPlugin), as ITEX's CPU build and AMD's ZenDNN
// plugin.
bool IsCpuKernelPluginFile(const std::string& path);

}  // namespace conformance
