// libmock_plugin.so: the mocks as a PluggableDevice plugin the harness can load. Every
// SE_InitPlugin builds a fresh MockPlugin configured from MOCK_PLUGIN_CONFIG (see
// mock_plugin_config.h); plugins stay alive for the process (TensorFlow never unloads one).
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mocks/plugin/mock_plugin_config.h"

namespace {

std::mutex g_mutex;
std::vector<std::unique_ptr<conformance::mocks::MockPlugin>>& Plugins() {
  static auto* plugins = new std::vector<std::unique_ptr<conformance::mocks::MockPlugin>>;
  return *plugins;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void SE_InitPlugin(SE_PlatformRegistrationParams* params,
                                                                     TF_Status* status) {
  using namespace conformance::mocks;
  const char* env = std::getenv("MOCK_PLUGIN_CONFIG");
  const std::string config = env == nullptr ? "" : env;
  Generation generation = Generation::kNewest;
  std::string error = ParseConfigGeneration(config, &generation);
  auto plugin = std::make_unique<MockPlugin>(generation);
  if (error.empty()) error = ApplyPluginConfig(config, plugin.get());
  if (!error.empty()) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT, error.c_str());
    return;
  }
  plugin->InitPlugin(params, status);
  std::lock_guard lock(g_mutex);
  Plugins().push_back(std::move(plugin));
}

// The mock device has no kernels of its own; the example plugin (examples/) shows a kernel.
extern "C" __attribute__((visibility("default"))) void TF_InitKernel() {}
