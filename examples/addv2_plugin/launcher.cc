#include "launcher.h"

#include <memory>
#include <mutex>

namespace example {
namespace {

std::mutex g_mutex;
Launcher g_launcher;

void RunWork(void* arg, TF_Status* status) {
  std::unique_ptr<std::function<void(TF_Status*)>> work(
      static_cast<std::function<void(TF_Status*)>*>(arg));
  (*work)(status);
}

}  // namespace

void SetLauncher(const Launcher& launcher) {
  std::lock_guard lock(g_mutex);
  g_launcher = launcher;
}

bool Launch(SP_Stream stream, std::function<void(TF_Status*)> work) {
  Launcher launcher;
  {
    std::lock_guard lock(g_mutex);
    launcher = g_launcher;
  }
  if (launcher.table.host_callback == nullptr) return false;
  auto* owned = new std::function<void(TF_Status*)>(std::move(work));
  if (launcher.table.host_callback(&launcher.device, stream, RunWork, owned)) return true;
  delete owned;
  return false;
}

}  // namespace example
