#include <cstdint>
#include <string>
#include <vector>

#include "isolate/in_flight.h"
#include "validate/abi_layout.h"
#include "validate/graph_configs.h"
#include "validate/optimizer_lifecycle.h"
#include "validate/other_modules.h"
#include "validate/profile.h"
#include "validate/struct_buffer.h"
#include "validate/tf_messages.h"
#include "validate/tf_status.h"

namespace conformance::validate {
namespace {

// grappler.h and pluggable_profiler.h have one layout each in the newest golden file.
const AbiLayout& NewestLayout() { return LayoutFile("tf_layout.json"); }

bool PassThroughStatus(CheckLog& log, const char* id, const OwnedStatus& status,
                       const char* prefix) {
  if (status.ok()) {
    log.Pass(id);
    return true;
  }
  log.Fail(id, status.message(), status.code());
  log.SkipRemaining(prefix, std::string(id) + " failed");
  return false;
}

}  // namespace

std::vector<std::string> GraphModuleCheckIds() {
  return {"load.graph.init",
          "load.graph.params.struct_size",
          "load.graph.params.device_type",
          "load.graph.optimizer.struct_size",
          "load.graph.optimizer.optimize_func",
          "load.graph.configs.struct_size",
          "load.graph.optimizer.lifecycle"};
}

std::vector<std::string> ProfilerModuleCheckIds() {
  return {"load.profiler.init",
          "load.profiler.params.struct_size",
          "load.profiler.params.destroy_profiler",
          "load.profiler.params.destroy_profiler_fns",
          "load.profiler.profiler.struct_size",
          "load.profiler.profiler.device_type",
          "load.profiler.profiler.device_type_regex",
          "load.profiler.profiler_fns.struct_size",
          "load.profiler.profiler_fns.start",
          "load.profiler.profiler_fns.stop",
          "load.profiler.profiler_fns.collect_data_xspace"};
}

void RunGraphModule(InitGraphFn init, CheckLog& log) {
  if (init == nullptr) {
    for (const auto& id : GraphModuleCheckIds())
      log.NotSupported(id, "the plugin does not export TF_InitGraph");
    return;
  }
  const AbiLayout& layout = NewestLayout();
  StructBuffer params(layout.Struct("TP_OptimizerRegistrationParams"));
  StructBuffer optimizer(layout.Struct("TP_Optimizer"));
  StructBuffer configs(layout.Struct("TP_OptimizerConfigs"));
  params.Set<std::int32_t>("major_version", 0);
  params.Set<std::int32_t>("minor_version", 0);
  params.Set<std::int32_t>("patch_version", 1);
  params.Set<void*>("optimizer_configs", configs.data());
  params.Set<void*>("optimizer", optimizer.data());

  OwnedStatus status;
  log.Begin("load.graph.init");
  {
    in_flight::PluginCall call("TF_InitGraph");
    init(params.data(), status.get());
  }
  if (!PassThroughStatus(log, "load.graph.init", status, "load.graph.")) return;
  // TensorFlow's graph module still uses the older message style.
  const MessageStyle style = MessageStyle::kLegacy;
  log.Require("load.graph.params.struct_size", params.StructSize() != 0,
              StructSizeNotSetMessage(style, "TP_OptimizerRegistrationParams"));
  log.Require("load.graph.params.device_type", params.Pointer("device_type") != nullptr,
              FieldNotSetMessage("TP_OptimizerRegistrationParams", "device_type"));
  log.Require("load.graph.optimizer.struct_size", optimizer.StructSize() != 0,
              StructSizeNotSetMessage(style, "TP_Optimizer"));
  log.Require("load.graph.optimizer.optimize_func", optimizer.Pointer("optimize_func") != nullptr,
              FieldNotSetMessage("TP_Optimizer", "optimize_func"));
  if (configs.StructSize() != 0) {
    log.Pass("load.graph.configs.struct_size", DescribeOptimizerConfigs(configs));
  } else {
    log.Require("load.graph.configs.struct_size", false,
                StructSizeNotSetMessage(style, "TP_OptimizerConfigs"));
  }
  JudgeOptimizerLifecycle(log, reinterpret_cast<void* (*)()>(optimizer.Pointer("create_func")),
                          reinterpret_cast<void (*)(void*)>(optimizer.Pointer("destroy_func")));
}

void RunProfilerModule(InitProfilerFn init, CheckLog& log) {
  if (init == nullptr) {
    for (const auto& id : ProfilerModuleCheckIds())
      log.NotSupported(id, "the plugin does not export TF_InitProfiler");
    return;
  }
  const AbiLayout& layout = NewestLayout();
  StructBuffer params(layout.Struct("TF_ProfilerRegistrationParams"));
  StructBuffer profiler(layout.Struct("TP_Profiler"));
  StructBuffer fns(layout.Struct("TP_ProfilerFns"));
  params.Set<std::int32_t>("major_version", 0);
  params.Set<std::int32_t>("minor_version", 0);
  params.Set<std::int32_t>("patch_version", 1);
  params.Set<void*>("profiler", profiler.data());
  params.Set<void*>("profiler_fns", fns.data());

  OwnedStatus status;
  log.Begin("load.profiler.init");
  {
    in_flight::PluginCall call("TF_InitProfiler");
    init(params.data(), status.get());
  }
  if (!PassThroughStatus(log, "load.profiler.init", status, "load.profiler.")) return;
  const MessageStyle style = MessageStyle::kAbsl;
  log.Require("load.profiler.params.struct_size", params.StructSize() != 0,
              StructSizeNotSetMessage(style, "TF_ProfilerRegistrationParams"));
  for (const char* field : {"destroy_profiler", "destroy_profiler_fns"}) {
    log.Require(std::string("load.profiler.params.") + field, params.Pointer(field) != nullptr,
                FieldNotSetMessage("TF_ProfilerRegistrationParams", field));
  }
  log.Require("load.profiler.profiler.struct_size", profiler.StructSize() != 0,
              StructSizeNotSetMessage(style, "TP_Profiler"));
  const char* device_type = static_cast<const char*>(profiler.Pointer("device_type"));
  log.Require("load.profiler.profiler.device_type", device_type != nullptr,
              FieldNotSetMessage("TP_Profiler", "device_type"));
  if (device_type) {
    log.Require("load.profiler.profiler.device_type_regex", IsValidDeviceType(device_type),
                DeviceTypeRegexMessage(device_type));
  } else {
    log.Skip("load.profiler.profiler.device_type_regex", "TP_Profiler.device_type is not set");
  }
  log.Require("load.profiler.profiler_fns.struct_size", fns.StructSize() != 0,
              StructSizeNotSetMessage(style, "TP_ProfilerFns"));
  for (const char* field : {"start", "stop", "collect_data_xspace"}) {
    log.Require(std::string("load.profiler.profiler_fns.") + field, fns.Pointer(field) != nullptr,
                FieldNotSetMessage("TP_ProfilerFns", field));
  }
}

}  // namespace conformance::validate
