#include "kernels/plugin_listing.h"

#include <fcntl.h>
#include <unistd.h>

#include "kernels/sibling_process.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

// In the child: {"listing": ...} or {"error": text}, as JSON bytes.
std::vector<std::uint8_t> ListInChild(const std::string& plugin_path, unsigned timeout_seconds,
                                      const std::function<json(KernelTarget&)>& read) {
  alarm(timeout_seconds);  // a hanging plugin ends the child (SIGALRM), not the run
  // What the plugin prints while it comes up belongs to the units' reports, not here.
  if (const int null = open("/dev/null", O_WRONLY); null >= 0) {
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    close(null);
  }
  json reply;
  auto target = KernelTarget::Open(plugin_path);
  if (target.ok()) {
    reply["listing"] = read(*target.value());
  } else {
    reply["error"] = target.error().Describe();
  }
  const std::string text = reply.dump();
  return {text.begin(), text.end()};
}

}  // namespace

std::variant<json, std::string> ListFromPlugin(const std::string& plugin_path,
                                               unsigned timeout_seconds, const std::string& what,
                                               const std::function<json(KernelTarget&)>& read) {
  const SiblingResult sibling = RunInSibling(
      [&] { return ListInChild(plugin_path, timeout_seconds, read); }, plugin_path, what);
  if (!sibling.failure.empty()) return sibling.failure;
  json reply = json::parse(sibling.bytes.begin(), sibling.bytes.end(), nullptr, false);
  if (reply.is_discarded() || !reply.is_object()) {
    return "the listing process sent nothing readable (" + what + ")";
  }
  if (reply.contains("error")) return reply.at("error").get<std::string>();
  return std::move(reply.at("listing"));
}

}  // namespace conformance::kernels
