// libmock_plugin.so: the mocks as a PluggableDevice plugin the harness can load (SE_InitPlugin,
// TF_InitKernel, TF_InitGraph, TF_InitProfiler). Every
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
// Kept for the process (never destroyed): TensorFlow may call back at any time.
template <typename Mock>
Mock* Keep(std::unique_ptr<Mock> mock) {
  static auto* kept = new std::vector<std::unique_ptr<Mock>>;
  std::lock_guard lock(g_mutex);
  kept->push_back(std::move(mock));
  return kept->back().get();
}

std::string Config() {
  const char* env = std::getenv("MOCK_PLUGIN_CONFIG");
  return env == nullptr ? "" : env;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void SE_InitPlugin(
    SE_PlatformRegistrationParams* params, TF_Status* status) {
  using namespace conformance::mocks;
  const std::string config = Config();
  Generation generation = Generation::kNewest;
  std::string error = ParseConfigGeneration(config, &generation);
  MockPlugin* plugin = Keep(std::make_unique<MockPlugin>(generation));
  if (error.empty()) error = ApplyPluginConfig(config, {.plugin = plugin});
  if (!error.empty()) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT, error.c_str());
    return;
  }
  plugin->InitPlugin(params, status);
}

// The mock device has no kernels of its own; the example plugin (examples/) shows a kernel.
extern "C" __attribute__((visibility("default"))) void TF_InitKernel() {}

// A graph optimizer that returns the graph unchanged (MockOptimizer's defaults).
extern "C" __attribute__((visibility("default"))) void TF_InitGraph(
    TP_OptimizerRegistrationParams* params, TF_Status* status) {
  using namespace conformance::mocks;
  MockOptimizer* optimizer = Keep(std::make_unique<::testing::NiceMock<MockOptimizer>>());
  const std::string error = ApplyPluginConfig(Config(), {.optimizer = optimizer});
  if (!error.empty()) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT, error.c_str());
    return;
  }
  optimizer->InitGraph(params, status);
}

// A profiler that collects an empty XSpace (MockProfiler's defaults).
extern "C" __attribute__((visibility("default"))) void TF_InitProfiler(
    TF_ProfilerRegistrationParams* params, TF_Status* status) {
  using namespace conformance::mocks;
  MockProfiler* profiler = Keep(std::make_unique<::testing::NiceMock<MockProfiler>>());
  const std::string error = ApplyPluginConfig(Config(), {.profiler = profiler});
  if (!error.empty()) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT, error.c_str());
    return;
  }
  profiler->InitProfiler(params, status);
}
