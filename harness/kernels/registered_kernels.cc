#include "kernels/registered_kernels.h"

#include <fcntl.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "kernels/kernel_target.h"
#include "kernels/sibling_process.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

// In the child: {"kernels": [{op, constraints}]} or {"error": text}, as JSON bytes.
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
    reply["kernels"] = json::array();
    for (const core::KernelRegistration& kernel : target.value()->kernels()) {
      if (kernel.device_type != target.value()->device_type() || !kernel.label.empty()) continue;
      reply["kernels"].push_back(
          {{"op", kernel.op_name}, {"constraints", kernel.type_constraints}});
    }
  }
  const std::string text = reply.dump();
  return {text.begin(), text.end()};
}

}  // namespace

std::variant<std::vector<RegisteredKernel>, std::string> ListRegisteredKernels(
    const std::string& plugin_path, unsigned timeout_seconds) {
  const SiblingResult sibling =
      RunInSibling([&] { return ListInChild(plugin_path, timeout_seconds); }, plugin_path,
                   "the plugin's kernel registrations");
  if (!sibling.failure.empty()) return sibling.failure;
  const json reply = json::parse(sibling.bytes.begin(), sibling.bytes.end(), nullptr, false);
  if (reply.is_discarded()) return std::string("the listing process sent no registrations");
  if (reply.contains("error")) return reply.at("error").get<std::string>();
  std::vector<RegisteredKernel> kernels;
  for (const json& kernel : reply.at("kernels")) {
    kernels.push_back({kernel.at("op").get<std::string>(),
                       kernel.at("constraints").get<std::vector<std::pair<std::string, int>>>()});
  }
  return kernels;
}

}  // namespace conformance::kernels
