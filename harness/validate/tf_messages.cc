#include "validate/tf_messages.h"

#include <map>

namespace conformance::validate {

std::string StructSizeMacroName(std::string_view struct_name) {
  static const std::map<std::string_view, std::string_view> kMacros = {
      {"SE_PlatformRegistrationParams", "SE_PLATFORM_REGISTRATION_PARAMS_STRUCT_SIZE"},
      {"SP_Platform", "SP_PLATFORM_STRUCT_SIZE"},
      {"SP_PlatformFns", "SP_PLATFORM_FNS_STRUCT_SIZE"},
      {"SP_DeviceFns", "SP_DEVICE_FNS_STRUCT_SIZE"},
      {"SP_StreamExecutor", "SP_STREAM_EXECUTOR_STRUCT_SIZE"},  // sic: TensorFlow's spelling
      {"SP_Device", "SP_DEVICE_STRUCT_SIZE"},
      {"SP_TimerFns", "SP_TIMER_FNS_STRUCT_SIZE"},
      {"TP_OptimizerRegistrationParams", "TP_OPTIMIZER_REGISTRATION_PARAMS_STRUCT_SIZE"},
      {"TP_Optimizer", "TP_OPTIMIZER_STRUCT_SIZE"},
      {"TP_OptimizerConfigs", "TP_OPTIMIZER_CONFIGS_STRUCT_SIZE"},
      {"TF_ProfilerRegistrationParams", "TF_PROFILER_REGISTRATION_PARAMS_STRUCT_SIZE"},
      {"TP_Profiler", "TP_PROFILER_STRUCT_SIZE"},
      {"TP_ProfilerFns", "TF_PROFILER_FNS_STRUCT_SIZE"},  // sic: TF_ prefix in TensorFlow's check
  };
  auto it = kMacros.find(struct_name);
  return it != kMacros.end() ? std::string(it->second) : std::string(struct_name) + "_STRUCT_SIZE";
}

std::string StructSizeNotSetMessage(MessageStyle style, std::string_view struct_name) {
  const std::string name(struct_name);
  if (style == MessageStyle::kAbsl) {
    return "Expected initialized `" + name + "` structure with `struct_size` field set to " +
           StructSizeMacroName(struct_name) + ". Found `struct_size` = 0.";
  }
  return "struct_size field in " + name + " must be set to " + StructSizeMacroName(struct_name) +
         ".";
}

std::string FieldNotSetMessage(std::string_view struct_name, std::string_view field) {
  return "'" + std::string(field) + "' field in " + std::string(struct_name) + " must be set.";
}

std::string DeviceTypeRegexMessage(std::string_view value) {
  return "Device name/type '" + std::string(value) + "' must match [A-Z][A-Z_]*.";
}

bool IsValidDeviceType(std::string_view value) {
  if (value.empty() || value[0] < 'A' || value[0] > 'Z') return false;
  for (char c : value) {
    if (!((c >= 'A' && c <= 'Z') || c == '_')) return false;
  }
  return true;
}

}  // namespace conformance::validate
