// A plugin path without '/': dlopen searches the library path, not the working directory, so
// the harness must examine what dlopen would load and point at ./NAME.
#include "loader/bare_name.h"

#include <unistd.h>

#include <filesystem>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "temp_dir.h"

namespace conformance::loader {
namespace {

using ::testing::HasSubstr;

// Runs the test body in `dir`, restoring the working directory afterwards.
class InDirectory {
 public:
  explicit InDirectory(const std::filesystem::path& dir)
      : previous_(std::filesystem::current_path()) {
    std::filesystem::current_path(dir);
  }
  ~InDirectory() { std::filesystem::current_path(previous_); }

 private:
  std::filesystem::path previous_;
};

TEST(IsBareName, OnlyNamesWithoutASlash) {
  EXPECT_TRUE(IsBareName("libplugin.so"));
  EXPECT_FALSE(IsBareName("./libplugin.so"));
  EXPECT_FALSE(IsBareName("/opt/libplugin.so"));
  EXPECT_FALSE(IsBareName("lib/libplugin.so"));
  EXPECT_FALSE(IsBareName(""));
}

// The case: a copy named libz.so.1 in the working directory; dlopen("libz.so.1")
// loads the system's zlib (which libelf, linked into this test, already pulled in).
TEST(ResolveBareName, ALocalCopyOfASystemLibraryNameIsNotWhatIsLoaded) {
  const testing::TempDir dir;
  std::filesystem::copy_file(LOADER_GOOD_PLUGIN, dir / "libz.so.1");
  const InDirectory here(dir.path());
  const BareNameResolution resolution = ResolveBareName("libz.so.1");
  ASSERT_TRUE(resolution.search.found) << resolution.search.Describe();
  EXPECT_FALSE(std::filesystem::equivalent(resolution.search.resolved, dir / "libz.so.1"));
  ASSERT_TRUE(resolution.shadowed_local_file.has_value());
  const std::string text = resolution.Describe("libz.so.1");
  EXPECT_THAT(text, HasSubstr("searches the library path for it, not the current directory"));
  EXPECT_THAT(text, HasSubstr("it loads " + resolution.search.resolved.string()));
  EXPECT_THAT(text, HasSubstr("to test it, pass './libz.so.1'"));
}

TEST(ResolveBareName, ALocalFileDlopenDoesNotFindIsNotFound) {
  const testing::TempDir dir;
  std::filesystem::copy_file(LOADER_GOOD_PLUGIN, dir / "libconformance_only_here.so");
  const InDirectory here(dir.path());
  DependencySearchOptions options;
  options.ld_library_path = "";
  const BareNameResolution resolution = ResolveBareName("libconformance_only_here.so", options);
  EXPECT_FALSE(resolution.search.found);
  ASSERT_TRUE(resolution.shadowed_local_file.has_value());
  const std::string text = resolution.Describe("libconformance_only_here.so");
  EXPECT_THAT(text, HasSubstr("not found"));
  EXPECT_THAT(text, HasSubstr("pass './libconformance_only_here.so'"));
}

}  // namespace
}  // namespace conformance::loader
