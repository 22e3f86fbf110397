#include "stream_executor/plugin_config.h"

#include <charconv>
#include <cstdlib>
#include <string_view>

namespace reference_plugin {
namespace {

// Parses "1073741824", "512M", "2g" ... Returns false on anything else, including overflow.
bool parse_byte_count(std::string_view text, uint64_t* bytes) {
  uint64_t number = 0;
  auto [rest, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || rest == text.data()) return false;
  std::string_view suffix(rest, text.data() + text.size() - rest);
  int shift = 0;
  if (suffix == "K" || suffix == "k") {
    shift = 10;
  } else if (suffix == "M" || suffix == "m") {
    shift = 20;
  } else if (suffix == "G" || suffix == "g") {
    shift = 30;
  } else if (suffix == "T" || suffix == "t") {
    shift = 40;
  } else if (!suffix.empty()) {
    return false;
  }
  if (shift > 0 && number > (UINT64_MAX >> shift)) return false;
  *bytes = number << shift;
  return true;
}

bool parse_count(std::string_view text, int32_t* count) {
  auto [rest, error] = std::from_chars(text.data(), text.data() + text.size(), *count);
  return error == std::errc() && rest == text.data() + text.size() && !text.empty();
}

}  // namespace

Status read_plugin_config_from_environment(PluginConfig* config) {
  *config = PluginConfig();

  if (const char* text = std::getenv(kDeviceCountVariable)) {
    int32_t count = 0;
    if (!parse_count(text, &count) || count < 0 || count > kMaxDeviceCount) {
      return invalid_argument(kDeviceCountVariable, "='", text,
                              "' is not a device count between 0 and ", kMaxDeviceCount, ".");
    }
    config->device_count = count;
  }

  if (const char* text = std::getenv(kMemoryBytesVariable)) {
    uint64_t bytes = 0;
    if (!parse_byte_count(text, &bytes) || bytes < kMinMemoryBytes || bytes > kMaxMemoryBytes) {
      return invalid_argument(kMemoryBytesVariable, "='", text,
                              "' is not a memory size between 256 and 1T bytes "
                              "(a number with an optional K, M, G or T suffix).");
    }
    config->memory_bytes_per_device = bytes;
  }
  return Status();
}

}  // namespace reference_plugin
