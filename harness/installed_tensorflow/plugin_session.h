#pragma once
// What the driver does with one plugin inside real TensorFlow, in the child process made for
// it: load it (after the plugin it is co-loaded with, if any), list the eager context's
// devices, round-trip a tensor of every dtype through the plugin's device, and run a few ops
// there and on TensorFlow's CPU device. Each step is reported the moment it ends (one JSON
// object per line on `report`), so a step that kills the process leaves the earlier ones.
#include <cstdio>
#include <string>

#include "installed_tensorflow/tensorflow_c_api.h"

namespace tensorflow_driver {

struct PluginRequest {
  std::string path;
  std::string co_load;  // loaded first when set: what TensorFlow does with two plugins
  // A kernel_case_dump JSON file ({"cases": [...]}); each case then runs on the plugin's device
  // and on TensorFlow's CPU (kernel_cases.h), one step "kernel_case" each.
  std::string kernel_cases_path;
  // A model_dump JSON file ({"models": [...]}); each model then runs as a graph through a
  // TF_Session on the plugin's device, or TensorFlow's CPU for a CPU kernel plugin
  // (model_graphs.h), one step "model_graph" each.
  std::string model_graphs_path;
};

// Runs every step; `report` receives lines {"step": NAME, ...}.
void RunPluginSession(const TensorFlowCApi& api, const PluginRequest& request, std::FILE* report);

}  // namespace tensorflow_driver
