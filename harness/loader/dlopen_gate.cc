#include "loader/dlopen_gate.h"

#include <link.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <utility>

namespace conformance::loader {
namespace {

std::atomic<bool> interposed{false};
std::mutex gate_mutex;
DlopenVerdict* armed = nullptr;  // guarded by gate_mutex

// dlerror() hands out a char* that stays valid until the thread's next dl* call, as glibc's does.
thread_local std::string pending_error;
thread_local bool error_pending = false;
thread_local std::string handed_out;

}  // namespace

DlopenGate::DlopenGate(DlopenVerdict verdict) {
  const std::lock_guard lock(gate_mutex);
  armed = new DlopenVerdict(std::move(verdict));
}

DlopenGate::~DlopenGate() {
  const std::lock_guard lock(gate_mutex);
  delete armed;
  armed = nullptr;
}

bool Interposed() { return interposed.load(); }

namespace gate_internal {

void MarkInterposed() { interposed.store(true); }

bool Armed() {
  const std::lock_guard lock(gate_mutex);
  return armed != nullptr;
}

std::vector<std::filesystem::path> LinkMap() {
  std::vector<std::filesystem::path> paths;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0')
          static_cast<std::vector<std::filesystem::path>*>(out)->emplace_back(info->dlpi_name);
        return 0;
      },
      &paths);
  return paths;
}

std::optional<std::string> Judge(const std::vector<std::filesystem::path>& before) {
  // Held while the verdict runs: the gate cannot be disarmed under it. The verdict reads ELF
  // files and opens nothing, so no dlopen comes back here.
  const std::lock_guard lock(gate_mutex);
  if (armed == nullptr) return std::nullopt;
  std::vector<std::filesystem::path> added;
  for (std::filesystem::path& path : LinkMap()) {
    if (std::find(before.begin(), before.end(), path) == before.end())
      added.push_back(std::move(path));
  }
  if (added.empty()) return std::nullopt;  // already open: glibc's dlopen just counts it
  return (*armed)(added);
}

void SetPendingError(std::string message) {
  pending_error = std::move(message);
  error_pending = true;
}

const char* TakePendingError() {
  if (!error_pending) return nullptr;
  error_pending = false;
  handed_out = std::move(pending_error);
  return handed_out.c_str();
}

}  // namespace gate_internal
}  // namespace conformance::loader
