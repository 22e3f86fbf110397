#pragma once
// dlopen's verdict on a file the examination already found broken, taken in a throwaway child
// process. dlopen of a broken file can kill its caller (a truncated file: SIGBUS while the
// loader reads a segment that is not there), and of a file that does load, it runs the
// plugin's constructors; neither may happen to the process that reports.
#include <chrono>
#include <filesystem>
#include <string>

namespace conformance::loader {

struct DlopenProbe {
  bool loaded = false;  // dlopen succeeded (the file was not as broken as it looked)
  // dlopen's error text ("dlopen failed: ..."), or how the probe died ("dlopen died of SIGBUS
  // (Bus error)") or that it timed out; empty when loaded.
  std::string message;
};

// dlopen(path, RTLD_NOW | RTLD_LOCAL) in a forked child; the child is killed after `timeout`.
DlopenProbe ProbeDlopenInChild(const std::filesystem::path& path,
                               std::chrono::milliseconds timeout = std::chrono::seconds(5));

}  // namespace conformance::loader
