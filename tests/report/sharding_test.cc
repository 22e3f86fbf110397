// Sharding reads gtest's variables with gtest's rules and splits units round-robin.
#include "run/sharding.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include "fake_units.h"
#include "run/selection.h"
#include "run/usage_error.h"

namespace conformance {
namespace {

EnvLookup FakeEnv(std::map<std::string, std::string> values) {
  return [values = std::move(values)](const char* name) -> const char* {
    const auto found = values.find(name);
    return found == values.end() ? nullptr : found->second.c_str();
  };
}

TEST(ShardingTest, UnsetMeansNoSharding) {
  EXPECT_FALSE(ShardFromEnvironment(FakeEnv({})).has_value());
}

TEST(ShardingTest, ReadsIndexAndTotal) {
  const auto shard =
      ShardFromEnvironment(FakeEnv({{"GTEST_TOTAL_SHARDS", "4"}, {"GTEST_SHARD_INDEX", "3"}}));
  ASSERT_TRUE(shard.has_value());
  EXPECT_EQ(shard->index, 3);
  EXPECT_EQ(shard->total, 4);
}

TEST(ShardingTest, InvalidValuesAreUsageErrors) {
  const std::vector<std::map<std::string, std::string>> invalid = {
      {{"GTEST_TOTAL_SHARDS", "4"}},                                        // index missing
      {{"GTEST_SHARD_INDEX", "0"}},                                         // total missing
      {{"GTEST_TOTAL_SHARDS", "4"}, {"GTEST_SHARD_INDEX", "4"}},            // index == total
      {{"GTEST_TOTAL_SHARDS", "4"}, {"GTEST_SHARD_INDEX", "-1"}},           // negative
      {{"GTEST_TOTAL_SHARDS", "0"}, {"GTEST_SHARD_INDEX", "0"}},            // no shards
      {{"GTEST_TOTAL_SHARDS", "four"}, {"GTEST_SHARD_INDEX", "0"}},         // not a number
      {{"GTEST_TOTAL_SHARDS", "4x"}, {"GTEST_SHARD_INDEX", "0"}},           // trailing junk
      {{"GTEST_TOTAL_SHARDS", ""}, {"GTEST_SHARD_INDEX", "0"}},             // empty
      {{"GTEST_TOTAL_SHARDS", "99999999999"}, {"GTEST_SHARD_INDEX", "0"}},  // overflow
  };
  for (const auto& env : invalid) {
    EXPECT_THROW(ShardFromEnvironment(FakeEnv(env)), UsageError)
        << "TOTAL=" << (env.contains("GTEST_TOTAL_SHARDS") ? env.at("GTEST_TOTAL_SHARDS") : "-")
        << " INDEX=" << (env.contains("GTEST_SHARD_INDEX") ? env.at("GTEST_SHARD_INDEX") : "-");
  }
}

TEST(ShardingTest, ErrorNamesTheVariableAndValue) {
  try {
    ShardFromEnvironment(FakeEnv({{"GTEST_TOTAL_SHARDS", "x3"}, {"GTEST_SHARD_INDEX", "0"}}));
    FAIL() << "expected UsageError";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("GTEST_TOTAL_SHARDS"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("x3"), std::string::npos);
  }
}

TEST(ShardingTest, SelectedUnitsAreSplitRoundRobinAfterFiltering) {
  using testing::FakeUnit;
  // Units u1 and u4 are filtered out; the remaining six are numbered 0..5 for sharding.
  const std::vector<TestUnit> suite = {
      FakeUnit("u0", "load", {"load.a"}),          FakeUnit("u1", "load", {"load.skip"}),
      FakeUnit("u2", "load", {"load.b"}),          FakeUnit("u3", "runtime", {"runtime.c"}),
      FakeUnit("u4", "runtime", {"runtime.skip"}), FakeUnit("u5", "runtime", {"runtime.d"}),
      FakeUnit("u6", "kernels", {"kernel.e"}),     FakeUnit("u7", "kernels", {"kernel.f"}),
  };
  const std::vector<std::vector<std::size_t>> expected = {{0, 5}, {2, 6}, {3, 7}};
  std::vector<std::size_t> all;
  for (int index = 0; index < 3; ++index) {
    SelectionOptions options;
    options.filter = CheckFilter("*-*.skip");
    options.shard = ShardSpec{index, 3};
    const Selection selection = Select(suite, options);
    std::vector<std::size_t> got, helpers;
    for (const SelectedUnit& unit : selection.units)
      (unit.reported ? got : helpers).push_back(unit.suite_index);
    EXPECT_EQ(got, expected[static_cast<std::size_t>(index)]) << "shard " << index;
    // Every shard runs the whole load tier (the rest unreported): TensorFlow's verdict depends
    // on all of it and gates the runtime and kernel tiers, so each shard states the same one.
    for (std::size_t load : {0u, 1u, 2u}) {
      const bool runs = std::find(got.begin(), got.end(), load) != got.end() ||
                        std::find(helpers.begin(), helpers.end(), load) != helpers.end();
      EXPECT_TRUE(runs) << "shard " << index << " does not run load unit u" << load;
    }
    for (std::size_t helper : helpers) EXPECT_LE(helper, 2u) << "shard " << index;
    all.insert(all.end(), got.begin(), got.end());
    // Listing (and waiver matching) sees the whole selection on every shard.
    EXPECT_EQ(selection.check_ids.size(), 6u);
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, (std::vector<std::size_t>{0, 2, 3, 5, 6, 7}));  // each exactly once
}

TEST(ShardingTest, OneShardRunsEverything) {
  EXPECT_TRUE(RunsOnShard(ShardSpec{0, 1}, 0));
  EXPECT_TRUE(RunsOnShard(ShardSpec{0, 1}, 17));
}

TEST(ShardingTest, StatusFileIsCreatedWhenRequested) {
  const auto path =
      std::filesystem::temp_directory_path() / ("shard_status_" + std::to_string(getpid()));
  std::filesystem::remove(path);
  EXPECT_EQ(TouchShardStatusFile(FakeEnv({{"GTEST_SHARD_STATUS_FILE", path.string()}})), "");
  EXPECT_TRUE(std::filesystem::exists(path));
  std::filesystem::remove(path);
  EXPECT_EQ(TouchShardStatusFile(FakeEnv({})), "");
  EXPECT_NE(TouchShardStatusFile(FakeEnv({{"GTEST_SHARD_STATUS_FILE", "/nonexistent/dir/f"}})), "");
}

}  // namespace
}  // namespace conformance
