#pragma once
// What TensorFlow makes of the TP_OptimizerConfigs a plugin filled in TF_InitGraph: which
// header generation's layout the plugin wrote (struct_size 92: newest, 19 toggles; 88: before
// the bfloat16 toggle, 18 toggles), and the toggles TensorFlow applies under its own rules.
#include <map>
#include <string>

#include "validate/struct_buffer.h"

namespace conformance::validate {

// `configs` is laid out as the newest core's struct (TensorFlow always reads it that way).
// Keys: configs_layout, toggle_semantics, toggles_off, model_pruning, and, for a plugin built
// against the older layout, layout_mismatch (toggles the plugin set that TensorFlow reads from
// a neighbouring slot).
std::map<std::string, std::string> DescribeOptimizerConfigs(const StructBuffer& configs);

}  // namespace conformance::validate
