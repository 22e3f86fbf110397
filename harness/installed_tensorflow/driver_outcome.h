#pragma once
// What TensorFlow did with one plugin, as one JSON object (schema: README.md, "Driver output"),
// from the report its child wrote step by step and from how that child ended.
#include <nlohmann/json.hpp>

#include "installed_tensorflow/child_process.h"
#include "installed_tensorflow/plugin_session.h"

namespace tensorflow_driver {

nlohmann::json Outcome(const PluginRequest& request, const ChildResult& child);

}  // namespace tensorflow_driver
