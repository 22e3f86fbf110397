#include "run/sharding.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "run/usage_error.h"

namespace conformance {
namespace {

constexpr const char* kTotalVar = "GTEST_TOTAL_SHARDS";
constexpr const char* kIndexVar = "GTEST_SHARD_INDEX";
constexpr const char* kStatusFileVar = "GTEST_SHARD_STATUS_FILE";

// The whole value must be a base-10 int; anything else is a usage error, as in gtest.
std::optional<int> ReadInt(const EnvLookup& env, const char* name) {
  const char* raw = env(name);
  if (raw == nullptr) return std::nullopt;
  const std::string_view text(raw);
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    throw UsageError(std::string("invalid value '") + raw + "' of " + name +
                     ": expected an integer");
  }
  return value;
}

}  // namespace

EnvLookup ProcessEnvironment() {
  return [](const char* name) -> const char* { return std::getenv(name); };
}

std::optional<ShardSpec> ShardFromEnvironment(const EnvLookup& env) {
  const std::optional<int> total = ReadInt(env, kTotalVar);
  const std::optional<int> index = ReadInt(env, kIndexVar);
  if (!total && !index) return std::nullopt;
  if (!total) {
    throw UsageError(std::string(kIndexVar) + " = " + std::to_string(*index) + " is set but " +
                     kTotalVar + " is not");
  }
  if (!index) {
    throw UsageError(std::string(kTotalVar) + " = " + std::to_string(*total) + " is set but " +
                     kIndexVar + " is not");
  }
  if (*index < 0 || *index >= *total) {
    throw UsageError(std::string("invalid sharding: ") + kIndexVar + " = " +
                     std::to_string(*index) + ", " + kTotalVar + " = " + std::to_string(*total) +
                     " (need 0 <= index < total)");
  }
  return ShardSpec{*index, *total};
}

bool RunsOnShard(const ShardSpec& shard, std::size_t position) {
  return position % static_cast<std::size_t>(shard.total) == static_cast<std::size_t>(shard.index);
}

std::string TouchShardStatusFile(const EnvLookup& env) {
  const char* path = env(kStatusFileVar);
  if (path == nullptr || *path == '\0') return {};
  std::FILE* file = std::fopen(path, "w");
  if (file == nullptr) {
    return std::string("cannot create ") + kStatusFileVar + " '" + path +
           "': " + std::strerror(errno);
  }
  std::fclose(file);
  return {};
}

}  // namespace conformance
