// Which RUNPATHs let TensorFlow 2.19 to 2.21 find a plugin's DT_NEEDED
// _pywrap_tensorflow_internal.so (harness/validate/pywrap_reach.h): the plugin installed in
// <site-packages>/tensorflow-plugins, that library in <site-packages>/tensorflow/python.
#include "validate/pywrap_reach.h"

#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "validate/core_libraries.h"

namespace conformance::validate {
namespace {

TEST(PywrapReach, OriginRelativePathToTheWheelsPythonFolderReaches) {
  EXPECT_TRUE(SearchPathReachesPywrap("$ORIGIN/../tensorflow/python"));
  EXPECT_TRUE(SearchPathReachesPywrap("${ORIGIN}/../tensorflow/python/"));
  EXPECT_TRUE(SearchPathReachesPywrap("$ORIGIN:$ORIGIN/../tensorflow/./python"));
  EXPECT_TRUE(SearchPathReachesPywrap("$ORIGIN/../tensorflow-plugins/../tensorflow/python"));
}

TEST(PywrapReach, OtherOriginRelativePathsDoNot) {
  EXPECT_FALSE(SearchPathReachesPywrap(""));
  EXPECT_FALSE(SearchPathReachesPywrap("$ORIGIN"));
  EXPECT_FALSE(SearchPathReachesPywrap("$ORIGIN/../tensorflow"));  // the framework's folder
  EXPECT_FALSE(SearchPathReachesPywrap("$ORIGIN/../../tensorflow/python"));
  EXPECT_FALSE(SearchPathReachesPywrap("$ORIGIN/tensorflow/python"));
}

TEST(PywrapReach, AbsoluteWheelFolderReachesOtherAbsoluteFoldersDoNot) {
  EXPECT_TRUE(SearchPathReachesPywrap("/opt/venv/lib/python3.11/site-packages/tensorflow/python"));
  EXPECT_FALSE(SearchPathReachesPywrap("/usr/lib:/opt/tensorflow"));
  EXPECT_FALSE(SearchPathReachesPywrap("tensorflow/python"));  // relative to the working dir
}

Profile ProfileWithPywrapSoname(bool soname) {
  Profile profile;
  profile.releases = "2.19-2.20";
  profile.pywrap_soname = soname;
  return profile;
}

loader::ElfFile PluginLinking(std::vector<std::string> needed) {
  loader::ElfFile plugin;
  plugin.needed = std::move(needed);
  return plugin;
}

TEST(PywrapReach, RefusedWithTensorFlowsTextOnlyWhereTheLibraryHasNoSoname) {
  const auto plugin = PluginLinking({kPywrapSoname, "libc.so.6"});
  EXPECT_EQ(UnreachablePywrapMessage(plugin, ProfileWithPywrapSoname(false)),
            "_pywrap_tensorflow_internal.so: cannot open shared object file: No such file or "
            "directory");
  EXPECT_FALSE(UnreachablePywrapMessage(plugin, ProfileWithPywrapSoname(true)));
}

TEST(PywrapReach, FrameworkLinkedPluginIsNotConcerned) {
  EXPECT_FALSE(
      UnreachablePywrapMessage(PluginLinking({kFrameworkSoname}), ProfileWithPywrapSoname(false)));
}

TEST(PywrapReach, RunpathWinsOverRpathAsInGlibc) {
  auto plugin = PluginLinking({kPywrapSoname});
  plugin.rpath = "$ORIGIN/../tensorflow/python";
  EXPECT_FALSE(UnreachablePywrapMessage(plugin, ProfileWithPywrapSoname(false)));
  plugin.runpath = "$ORIGIN";  // DT_RPATH is ignored when DT_RUNPATH is present
  EXPECT_TRUE(UnreachablePywrapMessage(plugin, ProfileWithPywrapSoname(false)));
  plugin.runpath = "$ORIGIN/../tensorflow/python";
  EXPECT_FALSE(UnreachablePywrapMessage(plugin, ProfileWithPywrapSoname(false)));
}

#ifdef PYWRAP_LINKING_HELPER
// A plugin (described in memory, in a scratch folder) that loads a helper from $ORIGIN/h; the
// helper (a real file) links _pywrap_tensorflow_internal.so and has no RPATH or RUNPATH.
// Measured on 2.21.0's Python with such a pair: NOT_FOUND when the plugin's RUNPATH reaches the
// python folder (a RUNPATH serves only its own object's needs), loaded when its RPATH does.
class TransitivePywrap : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ =
        std::filesystem::temp_directory_path() / ("pywrap_reach_test." + std::to_string(getpid()));
    std::filesystem::create_directories(folder_ / "h");
    const std::filesystem::path helper = PYWRAP_LINKING_HELPER;
    std::filesystem::copy_file(helper, folder_ / "h" / helper.filename(),
                               std::filesystem::copy_options::overwrite_existing);
    plugin_ = PluginLinking({helper.filename().string()});
    plugin_.path = folder_ / "plugin.so";
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }

  std::filesystem::path folder_;
  loader::ElfFile plugin_;
};

TEST_F(TransitivePywrap, PluginsRunpathDoesNotServeTheHelper) {
  plugin_.runpath = "$ORIGIN/h:$ORIGIN/../tensorflow/python";
  const auto found = FindUnreachablePywrap(plugin_, ProfileWithPywrapSoname(false));
  ASSERT_TRUE(found);
  EXPECT_FALSE(found->by_plugin);
  EXPECT_EQ(found->needed_by.filename(), std::filesystem::path(PYWRAP_LINKING_HELPER).filename());
  EXPECT_EQ(found->tensorflow_message,
            "_pywrap_tensorflow_internal.so: cannot open shared object file: No such file or "
            "directory");
}

TEST_F(TransitivePywrap, PluginsRpathIsInheritedByTheHelper) {
  plugin_.rpath = "$ORIGIN/h:$ORIGIN/../tensorflow/python";
  EXPECT_FALSE(FindUnreachablePywrap(plugin_, ProfileWithPywrapSoname(false)));
  plugin_.runpath = "$ORIGIN/h";  // a RUNPATH makes glibc ignore the plugin's RPATH
  EXPECT_TRUE(FindUnreachablePywrap(plugin_, ProfileWithPywrapSoname(false)));
}

TEST_F(TransitivePywrap, ReleasesWithTheSonameFindIt) {
  plugin_.runpath = "$ORIGIN/h";
  EXPECT_FALSE(FindUnreachablePywrap(plugin_, ProfileWithPywrapSoname(true)));
}
#endif

}  // namespace
}  // namespace conformance::validate
