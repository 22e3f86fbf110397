#pragma once
// Which plugin a plugin_bench JSON measured: its path, size and GNU build id, recorded in the
// JSON's "context" by plugin_bench and compared by plugin_conformance --bench, so a chart is
// never attached to another plugin's report without a word.
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace conformance {

struct PluginIdentity {
  std::string path;  // canonical, when the file exists
  std::uint64_t size = 0;
  std::string build_id;  // hex of NT_GNU_BUILD_ID; empty when the file has none
};

// nullopt when `path` cannot be read.
std::optional<PluginIdentity> IdentifyPlugin(const std::string& path);

// The context keys plugin_bench writes (plugin_path, plugin_size, plugin_build_id).
void AddIdentityToContext(const PluginIdentity& identity,
                          void (*add)(const std::string& key, const std::string& value));
// The identity a bench JSON document records; nullopt when it records none.
std::optional<PluginIdentity> IdentityFromBenchJson(const nlohmann::json& document);

// Why `recorded` is not `tested` (build ids when both have one, else size and file name);
// empty when they are the same plugin.
std::string IdentityMismatch(const PluginIdentity& recorded, const PluginIdentity& tested);

}  // namespace conformance
