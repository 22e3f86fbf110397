#include "installed_tensorflow/installed_release.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace tensorflow_driver {
namespace {

namespace fs = std::filesystem;

// The suite's profiles as validate/profile.h lists them (name, releases).
const std::vector<std::pair<std::string, std::string>> kProfiles = {
    {"newest", "2.16+"}, {"tf2.10", "2.10-2.15"}, {"tf2.7", "2.7-2.9"}, {"tf2.5", "2.5-2.6"}};

TEST(ProfileForRelease, PicksTheProfileWhoseRangeHoldsTheRelease) {
  EXPECT_EQ(ProfileForRelease("2.21.0", kProfiles), "newest");
  EXPECT_EQ(ProfileForRelease("2.16.1", kProfiles), "newest");
  EXPECT_EQ(ProfileForRelease("2.15.1", kProfiles), "tf2.10");
  EXPECT_EQ(ProfileForRelease("2.10.0", kProfiles), "tf2.10");
  EXPECT_EQ(ProfileForRelease("2.9.3", kProfiles), "tf2.7");
  EXPECT_EQ(ProfileForRelease("2.5.0", kProfiles), "tf2.5");
}

TEST(ProfileForRelease, ASplitProfileTakesItsOwnReleases) {
  // A profile added for later 2.1x releases takes them from the older one by its range alone.
  const std::vector<std::pair<std::string, std::string>> split = {
      {"newest", "2.16+"}, {"tf2.11", "2.11-2.15"}, {"tf2.10", "2.10"}};
  EXPECT_EQ(ProfileForRelease("2.15.1", split), "tf2.11");
  EXPECT_EQ(ProfileForRelease("2.10.1", split), "tf2.10");
}

TEST(ProfileForRelease, NoneForAReleaseNoProfileStandsFor) {
  EXPECT_EQ(ProfileForRelease("2.4.0", kProfiles), std::nullopt);
  EXPECT_EQ(ProfileForRelease("1.15.0", kProfiles), std::nullopt);
  EXPECT_EQ(ProfileForRelease("unknown", kProfiles), std::nullopt);
}

TEST(TensorFlowDirProblem, NamesTheLibraryLookedFor) {
  const fs::path dir = fs::temp_directory_path() / ("tf_dir_test_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const auto problem = TensorFlowDirProblem(dir.string());
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find((dir / "libtensorflow_cc.so.2").string()), std::string::npos) << *problem;
  std::ofstream(dir / "libtensorflow_cc.so.2") << "not really";
  EXPECT_EQ(TensorFlowDirProblem(dir.string()), std::nullopt);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tensorflow_driver
