// Which RUNPATHs let TensorFlow 2.19 to 2.21 find a plugin's DT_NEEDED
// _pywrap_tensorflow_internal.so (harness/validate/pywrap_reach.h): the plugin installed in
// <site-packages>/tensorflow-plugins, that library in <site-packages>/tensorflow/python.
#include "validate/pywrap_reach.h"

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

}  // namespace
}  // namespace conformance::validate
