#include "validate/graph_configs.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "model/joined.h"
#include "validate/abi_layout.h"

namespace conformance::validate {
namespace {

constexpr std::int32_t kTriStateOff = 1;
constexpr std::int32_t kTriStateOn = 2;
constexpr std::string_view kModelPruning = "disable_model_pruning";

bool IsToggle(const FieldLayout& field) {
  return field.name != "struct_size" && field.name != "ext";
}

std::int32_t ReadTriState(const StructBuffer& buffer, std::size_t offset) {
  std::int32_t value = 0;
  std::memcpy(&value, static_cast<const std::byte*>(buffer.data()) + offset, sizeof value);
  return value;
}

// TensorFlow's registration: disable_model_pruning only when On; any other optimizer stays on
// unless the plugin says Off.
bool EffectiveOn(std::string_view toggle, std::int32_t value) {
  if (toggle == kModelPruning) return value == kTriStateOn;
  return value != kTriStateOff;
}

std::string TriStateName(std::int32_t value) {
  switch (value) {
    case 0: return "Default";
    case kTriStateOff: return "Off";
    case kTriStateOn: return "On";
    default: return "invalid " + std::to_string(value);
  }
}

std::string ListOrNone(const std::vector<std::string>& items) {
  return items.empty() ? "none" : Joined(items, ", ");
}

// Toggles the plugin meant (its own, older layout) that TensorFlow reads differently.
std::string LayoutMismatch(const StructBuffer& configs, const StructLayout& newest,
                           const StructLayout& plugin_layout) {
  std::vector<std::string> mismatches;
  for (const FieldLayout& meant : plugin_layout.fields) {
    if (!IsToggle(meant) || !newest.HasField(meant.name)) continue;
    const std::int32_t intended = ReadTriState(configs, meant.offset);
    const std::int32_t read = ReadTriState(configs, newest.Field(meant.name).offset);
    if (EffectiveOn(meant.name, intended) != EffectiveOn(meant.name, read)) {
      mismatches.push_back(meant.name + " (plugin: " + TriStateName(intended) +
                           ", TensorFlow reads: " + TriStateName(read) + ")");
    }
  }
  return ListOrNone(mismatches);
}

}  // namespace

std::map<std::string, std::string> DescribeOptimizerConfigs(const StructBuffer& configs) {
  const StructLayout& newest = configs.layout();
  const StructLayout& oldest = LayoutFile("tf_layout_11032793.json").Struct("TP_OptimizerConfigs");
  std::map<std::string, std::string> details;
  const std::uint64_t size = configs.StructSize();
  if (size == newest.struct_size_value) {
    details["configs_layout"] =
        std::to_string(size) +
        ": newest grappler.h (19 toggles, auto_mixed_precision_onednn_bfloat16 "
        "at offset 52), the layout TensorFlow reads";
  } else if (size == oldest.struct_size_value) {
    details["configs_layout"] =
        std::to_string(size) +
        ": grappler.h before the bfloat16 toggle (18 toggles, auto_mixed_precision_mkl at offset "
        "52); "
        "TensorFlow reads the newest layout, so every toggle from offset 52 on is read one slot "
        "later than the plugin wrote it";
    details["layout_mismatch"] = LayoutMismatch(configs, newest, oldest);
  } else {
    details["configs_layout"] =
        std::to_string(size) + ": no known grappler.h generation (88 or 92)";
  }
  details["toggle_semantics"] =
      "disable_model_pruning applies only when TF_TriState_On; every other optimizer is turned off "
      "only by TF_TriState_Off (Default and On keep it on)";
  std::vector<std::string> off;
  for (const FieldLayout& field : newest.fields) {
    if (!IsToggle(field) || field.name == kModelPruning) continue;
    if (!EffectiveOn(field.name, ReadTriState(configs, field.offset))) off.push_back(field.name);
  }
  details["toggles_off"] = ListOrNone(off);
  const bool pruning_disabled =
      EffectiveOn(kModelPruning, ReadTriState(configs, newest.Field(kModelPruning).offset));
  details["model_pruning"] = pruning_disabled ? "disabled" : "enabled";
  return details;
}

}  // namespace conformance::validate
