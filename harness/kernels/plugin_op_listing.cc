#include "kernels/plugin_op_listing.h"

#include <nlohmann/json.hpp>

#include "core/op_registry.h"
#include "kernels/plugin_listing.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

json RegistrationJson(const core::OpRegistration& op) {
  return {{"name", op.name},
          {"inputs", op.inputs},
          {"outputs", op.outputs},
          {"attrs", op.attrs},
          {"is_commutative", op.is_commutative},
          {"is_aggregate", op.is_aggregate},
          {"is_stateful", op.is_stateful},
          {"allows_uninitialized_input", op.allows_uninitialized_input}};
}

core::OpRegistration RegistrationFromJson(const json& op) {
  core::OpRegistration registration;
  registration.name = op.at("name").get<std::string>();
  registration.inputs = op.at("inputs").get<std::vector<std::string>>();
  registration.outputs = op.at("outputs").get<std::vector<std::string>>();
  registration.attrs = op.at("attrs").get<std::vector<std::string>>();
  registration.is_commutative = op.value("is_commutative", false);
  registration.is_aggregate = op.value("is_aggregate", false);
  registration.is_stateful = op.value("is_stateful", false);
  registration.allows_uninitialized_input = op.value("allows_uninitialized_input", false);
  return registration;
}

// The op definitions registered through ops.h by the time the plugin is up: only the plugin
// registers any in the child.
json PluginDefinitions(KernelTarget& /*target*/) {
  json ops = json::array();
  for (const core::OpDefinition& op : core::AllOpDefinitions()) {
    ops.push_back(RegistrationJson(op.registration));
  }
  return ops;
}

}  // namespace

PluginOpsListing ListPluginOps(const std::string& plugin_path, unsigned timeout_seconds) {
  PluginOpsListing listing;
  auto listed = ListFromPlugin(plugin_path, timeout_seconds, "the op definitions of the plugin",
                               PluginDefinitions);
  if (const auto* why = std::get_if<std::string>(&listed)) {
    listing.error = *why;
  } else {
    for (const json& op : std::get<json>(listed)) listing.ops.push_back(RegistrationFromJson(op));
  }
  return listing;
}

}  // namespace conformance::kernels
