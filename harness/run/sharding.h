#pragma once
// Test sharding exactly as gtest does it, so CI systems that already shard gtest binaries
// (Bazel, ctest wrappers, GitLab parallel jobs) shard this tool the same way:
//  - GTEST_TOTAL_SHARDS and GTEST_SHARD_INDEX must both be set or both unset;
//  - both must be integers with 0 <= index < total;
//  - after filtering, work items are numbered 0, 1, 2, ... and item k runs on shard
//    k % total. Our work items are test units (a unit is the smallest thing that runs).
//  - GTEST_SHARD_STATUS_FILE, when set, is created to tell the runner sharding is supported.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace conformance {

struct ShardSpec {
  int index = 0;
  int total = 1;
};

// Environment access is injected so tests need not touch the real environment.
using EnvLookup = std::function<const char*(const char* name)>;
EnvLookup ProcessEnvironment();

// nullopt when neither variable is set. Throws UsageError for invalid or half-set values,
// naming the variable and the value (gtest aborts the run in the same situations).
std::optional<ShardSpec> ShardFromEnvironment(const EnvLookup& env);

// Whether the `position`-th selected unit (0-based, counted after filtering) runs here.
bool RunsOnShard(const ShardSpec& shard, std::size_t position);

// Creates GTEST_SHARD_STATUS_FILE when the variable is set. Returns an error message, empty
// on success.
std::string TouchShardStatusFile(const EnvLookup& env);

}  // namespace conformance
