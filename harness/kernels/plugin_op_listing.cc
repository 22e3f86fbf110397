#include "kernels/plugin_op_listing.h"

#include <fcntl.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/op_registry.h"
#include "kernels/kernel_target.h"
#include "kernels/sibling_process.h"

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

// In the child: {"ops": [...]} or {"error": text}, as JSON bytes.
std::vector<std::uint8_t> ListInChild(const std::string& plugin_path, unsigned timeout_seconds) {
  alarm(timeout_seconds);  // a hanging plugin ends the child (SIGALRM), not the run
  // What the plugin prints while it comes up belongs to the units' reports, not here.
  if (const int null = open("/dev/null", O_WRONLY); null >= 0) {
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    close(null);
  }
  json reply;
  auto target = KernelTarget::Open(plugin_path);
  if (!target.ok()) {
    reply["error"] = target.error().Describe();
  } else {
    reply["ops"] = json::array();
    for (const core::OpDefinition& op : core::AllOpDefinitions())
      reply["ops"].push_back(RegistrationJson(op.registration));
  }
  const std::string text = reply.dump();
  return {text.begin(), text.end()};
}

}  // namespace

PluginOpsListing ListPluginOps(const std::string& plugin_path, unsigned timeout_seconds) {
  PluginOpsListing listing;
  const SiblingResult sibling =
      RunInSibling([&] { return ListInChild(plugin_path, timeout_seconds); }, plugin_path,
                   "the op definitions of the plugin");
  if (!sibling.failure.empty()) {
    listing.error = sibling.failure;
    return listing;
  }
  const json reply = json::parse(sibling.bytes.begin(), sibling.bytes.end(), nullptr, false);
  if (reply.is_discarded() || !reply.is_object()) {
    listing.error = "the listing process sent no op definitions";
  } else if (reply.contains("error")) {
    listing.error = reply.at("error").get<std::string>();
  } else {
    for (const json& op : reply.at("ops")) listing.ops.push_back(RegistrationFromJson(op));
  }
  return listing;
}

}  // namespace conformance::kernels
