// How --tensorflow gives TensorFlow a plugin laid out for <site-packages>/tensorflow-plugins
// (harness/cli/installed_plugin_folder.h): minimal_pywrap_runpath (RUNPATH
// $ORIGIN/../tensorflow/python) is staged beside a link to the package folder, minimal (no
// such RUNPATH) is given as it lies.
#include "cli/installed_plugin_folder.h"

#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

namespace conformance {
namespace {

namespace fs = std::filesystem;

TEST(InstalledPluginFolder, OriginPathsIntoTheWheelFromThePluginsFolder) {
  EXPECT_TRUE(LeadsIntoTensorFlowFromPluginsFolder("$ORIGIN/../tensorflow/python"));
  EXPECT_TRUE(LeadsIntoTensorFlowFromPluginsFolder("$ORIGIN:${ORIGIN}/../tensorflow"));
  EXPECT_FALSE(LeadsIntoTensorFlowFromPluginsFolder("$ORIGIN"));
  EXPECT_FALSE(LeadsIntoTensorFlowFromPluginsFolder("$ORIGIN/../lib"));
  EXPECT_FALSE(LeadsIntoTensorFlowFromPluginsFolder("$ORIGIN/../../tensorflow/python"));
  // Absolute folders work from anywhere: nothing to stage for them.
  EXPECT_FALSE(LeadsIntoTensorFlowFromPluginsFolder("/opt/site-packages/tensorflow/python"));
}

class Staging : public ::testing::Test {
 protected:
  void SetUp() override {
    package_ = fs::temp_directory_path() /
               ("installed_plugin_folder_test." + std::to_string(getpid())) / "tensorflow";
    fs::create_directories(package_ / "python");
  }
  void TearDown() override { fs::remove_all(package_.parent_path()); }
  fs::path package_;
};

TEST_F(Staging, PluginWithARunpathIntoTheWheelIsGivenFromTensorFlowPlugins) {
  fs::path root;
  {
    const InstalledPluginFolder installed(MINIMAL_PYWRAP_RUNPATH, package_.string());
    ASSERT_TRUE(installed.staged());
    const fs::path given = installed.path();
    EXPECT_EQ(given.filename(), fs::path(MINIMAL_PYWRAP_RUNPATH).filename());
    EXPECT_EQ(given.parent_path().filename(), "tensorflow-plugins");
    // What the plugin's $ORIGIN/../tensorflow/python reaches from there: the package's folder.
    EXPECT_TRUE(
        fs::equivalent(given.parent_path() / ".." / "tensorflow" / "python", package_ / "python"));
    EXPECT_TRUE(fs::equivalent(given, MINIMAL_PYWRAP_RUNPATH));
    // Its own folder's files come along (helpers it finds through $ORIGIN).
    EXPECT_TRUE(fs::exists(given.parent_path() / fs::path(MINIMAL).filename()));
    const nlohmann::json said = {{"load_status", {{"message", given.string() + ": refused"}}}};
    EXPECT_EQ(installed.AsGiven(said)["load_status"]["message"],
              std::string(MINIMAL_PYWRAP_RUNPATH) + ": refused");
    root = given.parent_path().parent_path().parent_path();
  }
  EXPECT_FALSE(fs::exists(root)) << "the temporary folder is removed";
  EXPECT_TRUE(fs::exists(MINIMAL_PYWRAP_RUNPATH)) << "never what its links point to";
}

TEST_F(Staging, OtherPluginsAreGivenAsTheyLie) {
  const InstalledPluginFolder installed(MINIMAL, package_.string());
  EXPECT_FALSE(installed.staged());
  EXPECT_EQ(installed.path(), MINIMAL);
}

}  // namespace
}  // namespace conformance
