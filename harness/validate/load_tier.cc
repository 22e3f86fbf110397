#include "validate/load_tier.h"

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "isolate/in_flight.h"
#include "loader/plugin_library.h"
#include "ops/registry.h"
#include "validate/check_log.h"
#include "validate/required_modules.h"
#include "validate/library_checks.h"
#include "validate/npd_module.h"
#include "validate/opened_libraries.h"
#include "validate/other_modules.h"
#include "validate/profile.h"
#include "validate/se_module.h"
#include "validate/tf_messages.h"
#include "validate/se_strict.h"
#include "validate/se_session.h"

namespace conformance::validate {
namespace {

TestUnit MakeUnit(std::string name, std::vector<std::string> check_ids,
                  std::vector<std::string> prerequisites = {}) {
  TestUnit unit;
  unit.name = std::move(name);
  unit.tier = "load";
  unit.check_ids = std::move(check_ids);
  unit.prerequisites = std::move(prerequisites);
  return unit;
}

std::vector<std::string> Concat(std::initializer_list<std::vector<std::string>> parts) {
  std::vector<std::string> all;
  for (const auto& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

// In a unit that runs after load.library.dlopen passed, so failure here is unexpected.
std::optional<loader::PluginLibrary> OpenOrSkip(const std::string& path, CheckLog& log,
                                                const char* prefix) {
  auto library = loader::PluginLibrary::Open(path);
  if (library.ok()) return std::move(library.value());
  log.SkipRemaining(prefix, "cannot load the plugin: " + library.error().Describe());
  return std::nullopt;
}

// The op registry of the release the profile emulates. Profiles and registries are compiled in
// (and tested to match), so a missing one is a build defect.
const ops::OpRegistry& TensorFlowOps(const Profile& profile) {
  const ops::OpRegistry* registry = ops::FindOpRegistry(profile.op_registry);
  if (registry == nullptr) {
    std::fprintf(stderr, "internal error: profile %s names op registry %s, which is not embedded\n",
                 profile.name.c_str(), profile.op_registry.c_str());
    std::abort();
  }
  return *registry;
}

TestUnit LibraryUnit(const Profile& profile) {
  TestUnit unit = MakeUnit("load.library", LibraryCheckIds());
  unit.run = [ids = unit.check_ids, &profile](UnitContext& context) {
    CheckLog log(context.sink, ids);
    RunLibraryChecks(context.settings.plugin_path, profile, log);
  };
  return unit;
}

// TensorFlow's RegisterPluggableDevicePlugin: device, kernels, graph, profiler, in one process.
TestUnit ModulesUnit(const Profile& profile) {
  TestUnit unit = MakeUnit("load.modules",
                           Concat({RequiredModuleCheckIds(profile),
                                   SeModuleCheckIds(profile),
                                   NpdModuleCheckIds(),
                                   KernelModuleCheckIds(),
                                   GraphModuleCheckIds(),
                                   ProfilerModuleCheckIds(),
                                   {std::string(kOpenedLibrariesCheck)}}),
                           {"load.library.dlopen"});
  unit.run = [ids = unit.check_ids, &profile](UnitContext& context) {
    CheckLog log(context.sink, ids);
    auto library = OpenOrSkip(context.settings.plugin_path, log, "load.");
    if (!library) return;
    const auto entry_points = library->FindEntryPoints();
    if (StopsWithoutDeviceOrGraph(*library, entry_points, profile, log)) return;
    // After the plugin itself is open.
    OpenedLibraryWatch opened(profile, log, !context.settings.force_runtime);
    // TensorFlow runs the modules in this order and stops at the first one that fails; the
    // checks inside a module all run, so one load shows every problem of that module.
    auto stop_if_failed = [&log](const char* module) {
      if (log.tensorflow_failures() == 0) return false;
      log.SkipRemaining("load.", std::string("not reached: TensorFlow stops loading after the ") +
                                     module + " module fails (" + log.first_tensorflow_failure() +
                                     ")");
      return true;
    };
    opened.Enter("SE_InitPlugin");
    const auto se =
        RunSeModule(entry_points.se_init_plugin
                        ? reinterpret_cast<SeInitPluginFn>(entry_points.se_init_plugin->function)
                        : nullptr,
                    profile, log);
    // A dlopen refused in an init function first: the failure it returns is blamed on that.
    if (opened.Refused("SE_InitPlugin") || stop_if_failed("StreamExecutor")) return;
    // A release without a NextPluggableDevice loader (`pjrt_api: none`) never calls
    // TFNPD_InitPlugin: its checks still run, out of the load verdict, and so does a crash or
    // hang inside it (the finding stands; TensorFlow's process would not die of it).
    log.SetTensorFlowRefuses(profile.pjrt_api.loader);
    opened.Enter("TFNPD_InitPlugin");
    {
      std::optional<in_flight::OffTensorFlowPath> off_path;
      if (!profile.pjrt_api.loader)
        off_path.emplace("TensorFlow " + profile.releases +
                         " has no NextPluggableDevice loader: it never calls this");
      RunNpdModule(
          entry_points.tfnpd_init_plugin ? entry_points.tfnpd_init_plugin->function : nullptr,
          entry_points.get_pjrt_api ? entry_points.get_pjrt_api->function : nullptr, profile, log);
    }
    log.SetTensorFlowRefuses(true);
    if (opened.Refused("TFNPD_InitPlugin") || stop_if_failed("NextPluggableDevice")) return;
    // Each returns whether TensorFlow stops loading there.
    auto kernels = [&] {
      if (StopsWithoutKernelModule(*library, entry_points, profile, log)) return true;
      opened.Enter("TF_InitKernel");
      RunKernelModule(entry_points.tf_init_kernel ? entry_points.tf_init_kernel->function : nullptr,
                      context.settings.plugin_path, se, TensorFlowOps(profile), log);
      return opened.Refused("TF_InitKernel");
    };
    auto graph = [&] {
      opened.Enter("TF_InitGraph");
      RunGraphModule(entry_points.tf_init_graph ? entry_points.tf_init_graph->function : nullptr,
                     log);
      return opened.Refused("TF_InitGraph") || stop_if_failed("graph");
    };
    // TensorFlow 2.10 runs the graph module before the kernel module it requires.
    if (profile.kernel_module_required ? graph() || kernels() : kernels() || graph()) return;
    // Before 2.12 a failing profiler module is logged (or, before 2.7, never called) and the
    // plugin loads: its checks still run, out of the load verdict (`profiler_module`).
    log.SetTensorFlowRefuses(profile.profiler_module_refuses);
    opened.Enter("TF_InitProfiler");
    RunProfilerModule(
        entry_points.tf_init_profiler ? entry_points.tf_init_profiler->function : nullptr, log);
    if (opened.Refused("TF_InitProfiler")) return;
    log.SetTensorFlowRefuses(true);
    opened.Pass();
  };
  return unit;
}

TestUnit StrictSeUnit(const Profile& profile) {
  TestUnit unit = MakeUnit("load.se.strict", SeStrictCheckIds(), {"load.se.init"});
  unit.run = [ids = unit.check_ids, &profile](UnitContext& context) {
    CheckLog log(context.sink, ids);
    auto library = OpenOrSkip(context.settings.plugin_path, log, "load.");
    if (!library) return;
    const auto entry_points = library->FindEntryPoints();
    if (!entry_points.se_init_plugin) {
      log.SkipRemaining("load.", "the plugin does not export SE_InitPlugin");
      return;
    }
    RunSeStrictChecks(reinterpret_cast<SeInitPluginFn>(entry_points.se_init_plugin->function),
                      profile, log);
  };
  return unit;
}

struct Registration {
  std::string plugin, name, type;
};

// Registers `path`'s platform the way TensorFlow does; nullopt if it has none or fails.
std::optional<Registration> RegisterPlatform(const std::string& path, const Profile& profile) {
  auto library = loader::PluginLibrary::Open(path);
  if (!library.ok()) return std::nullopt;
  const auto entry_points = library.value().FindEntryPoints();
  if (!entry_points.se_init_plugin) return std::nullopt;
  SeSession session(profile, Prefill::kTensorFlow);
  OwnedStatus status;
  session.Init(reinterpret_cast<SeInitPluginFn>(entry_points.se_init_plugin->function), status);
  if (!status.ok()) return std::nullopt;
  return Registration{path, session.PlatformName().value_or(""),
                      session.PlatformType().value_or("")};
}

TestUnit CoLoadUnit(const Profile& profile) {
  TestUnit unit =
      MakeUnit("load.se.coload", {"load.se.platform.unique_name", "load.se.platform.unique_type"},
               {"load.se.init"});
  unit.run = [ids = unit.check_ids, &profile](UnitContext& context) {
    CheckLog log(context.sink, ids);
    std::vector<Registration> others;
    for (const auto& path : context.settings.co_loaded_plugins) {
      if (auto registration = RegisterPlatform(path, profile)) others.push_back(*registration);
    }
    const auto mine = RegisterPlatform(context.settings.plugin_path, profile);
    if (!mine) {
      log.SkipRemaining("load.se.platform.unique", "the plugin registers no platform");
      return;
    }
    std::string same_name, same_type;
    for (const auto& other : others) {
      if (other.name == mine->name) same_name = other.plugin;
      if (other.type == mine->type) same_type = other.plugin;
    }
    // The platform manager's refusal, INTERNAL, which TF_CHECK_OK turns into an abort.
    if (same_name.empty()) {
      log.Pass("load.se.platform.unique_name");
    } else {
      log.Fail("load.se.platform.unique_name",
               "platform name '" + mine->name + "' is already registered by " + same_name +
                   "; TensorFlow's platform manager refuses it and TensorFlow aborts",
               kTfInternal,
               {{"tensorflow_message",
                 "platform is already registered with name: \"" + mine->name + "\""}});
    }
    if (same_type.empty()) {
      log.Pass("load.se.platform.unique_type");
    } else {
      const std::string tensorflow = "Duplicate registration of device factory for type " +
                                     mine->type + " with the same priority 220";
      log.Fail("load.se.platform.unique_type",
               tensorflow + " (already registered by " + same_type + ")", std::nullopt,
               {{"tensorflow_message", tensorflow}});
    }
  };
  return unit;
}

}  // namespace

std::vector<TestUnit> LoadTierUnits(const RunSettings& settings) {
  const Profile* profile = FindProfile(settings.profile);
  if (profile == nullptr) return {};
  std::vector<TestUnit> units = {LibraryUnit(*profile), ModulesUnit(*profile),
                                 StrictSeUnit(*profile)};
  if (!settings.co_loaded_plugins.empty()) units.push_back(CoLoadUnit(*profile));
  return units;
}

}  // namespace conformance::validate
