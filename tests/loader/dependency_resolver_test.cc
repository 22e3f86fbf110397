#include "loader/dependency_resolver.h"

#include <elf.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>

#include "temp_dir.h"

namespace conformance::loader {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using testing::CopyAndPatch;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::TempDir;
using testing::WriteFile;

const std::filesystem::path kTestlibs = LOADER_TESTLIB_DIR;

// Options that make a test independent of the process and machine it runs on: no environment
// LD_LIBRARY_PATH, no reuse of libraries other tests happened to load, no system index.
DependencySearchOptions IsolatedOptions() {
  DependencySearchOptions options;
  options.ld_library_path = "";
  options.check_loaded_objects = false;
  options.ld_so_cache = "/nonexistent/ld.so.cache";
  options.ld_so_conf = "/nonexistent/ld.so.conf";
  options.default_directories.clear();
  return options;
}

ElfFile FakePlugin(std::vector<std::string> needed,
                   std::filesystem::path path = "/opt/vendor/plugin.so") {
  ElfFile plugin;
  plugin.path = std::move(path);
  plugin.needed = std::move(needed);
  return plugin;
}

const NeededLibrary& Find(const DependencyReport& report, std::string_view name) {
  auto it = std::find_if(report.needed.begin(), report.needed.end(),
                         [&](const NeededLibrary& library) { return library.name == name; });
  if (it == report.needed.end()) throw std::runtime_error("no DT_NEEDED " + std::string(name));
  return *it;
}

std::vector<std::string> Candidates(const NeededLibrary& library) {
  std::vector<std::string> candidates;
  for (const auto& attempt : library.searched) {
    if (!attempt.candidate.empty()) candidates.push_back(attempt.candidate.string());
  }
  return candidates;
}

TEST(ResolveDependencies, ReportsAMissingLibraryWithEveryPlaceSearched) {
  auto plugin = ReadElfFile(LOADER_NEEDS_MISSING);
  ASSERT_TRUE(plugin.ok()) << plugin.error().Describe();
  DependencySearchOptions options;  // the real system index and default directories
  options.ld_library_path = "/nonexistent_a:/nonexistent_b";
  const DependencyReport report = ResolveDependencies(*plugin, options);

  EXPECT_FALSE(report.ok());
  const auto missing = report.Missing();
  ASSERT_EQ(missing.size(), 1u);
  const NeededLibrary& library = *missing[0];
  EXPECT_EQ(library.name, "libdoes_not_exist_xyz.so.1");
  EXPECT_EQ(library.failure, "not found");
  const auto candidates = Candidates(library);
  EXPECT_THAT(candidates, Contains("/nonexistent_a/libdoes_not_exist_xyz.so.1"));
  EXPECT_THAT(candidates, Contains("/nonexistent_b/libdoes_not_exist_xyz.so.1"));
  EXPECT_THAT(candidates, Contains(options.ld_so_cache.string()));
  EXPECT_THAT(candidates, Contains("/usr/lib/libdoes_not_exist_xyz.so.1"));
  EXPECT_THAT(library.Describe(),
              AllOf(HasSubstr("libdoes_not_exist_xyz.so.1: not found (searched"),
                    HasSubstr("LD_LIBRARY_PATH /nonexistent_a/libdoes_not_exist_xyz.so.1"),
                    HasSubstr("ld.so.cache")));

  // Everything else it needs (libc) is there.
  for (const NeededLibrary& other : report.needed) {
    if (&other != &library) {
      EXPECT_TRUE(other.found) << other.Describe();
    }
  }
}

TEST(ResolveDependencies, FindsALibraryOnLdLibraryPath) {
  TempDir dir;
  std::filesystem::copy_file(LOADER_MISSING_STUB, dir / "libdoes_not_exist_xyz.so.1");
  auto options = IsolatedOptions();
  options.ld_library_path = "/nonexistent:" + dir.path().string();
  const auto report = ResolveDependencies(FakePlugin({"libdoes_not_exist_xyz.so.1"}), options);
  ASSERT_TRUE(report.ok()) << report.needed[0].Describe();
  EXPECT_EQ(report.needed[0].found_in, SearchPlace::kLdLibraryPath);
  EXPECT_EQ(report.needed[0].resolved, dir / "libdoes_not_exist_xyz.so.1");
}

TEST(ResolveDependencies, SkipsWrongClassAndMachineLikeTheLoader) {
  TempDir wrong_class, wrong_machine, good;
  const std::string name = "libdoes_not_exist_xyz.so.1";
  CopyAndPatch(LOADER_MISSING_STUB, wrong_class / name, EI_CLASS, {ELFCLASS32});
  CopyAndPatch(LOADER_MISSING_STUB, wrong_machine / name, offsetof(Elf64_Ehdr, e_machine),
               {EM_AARCH64, 0});
  std::filesystem::copy_file(LOADER_MISSING_STUB, good / name);
  auto options = IsolatedOptions();
  options.ld_library_path = wrong_class.path().string() + ":" + wrong_machine.path().string() +
                            ";" + good.path().string();
  const auto report = ResolveDependencies(FakePlugin({name}), options);
  const NeededLibrary& library = report.needed[0];
  ASSERT_TRUE(library.found) << library.Describe();
  EXPECT_EQ(library.resolved, good / name);
  ASSERT_GE(library.searched.size(), 3u);
  const auto& skipped_class = library.searched[library.searched.size() - 3];
  EXPECT_EQ(skipped_class.verdict, CandidateVerdict::kSkipped);
  EXPECT_EQ(skipped_class.detail, "wrong ELF class: ELFCLASS32");
  const auto& skipped_machine = library.searched[library.searched.size() - 2];
  EXPECT_EQ(skipped_machine.verdict, CandidateVerdict::kSkipped);
  EXPECT_EQ(skipped_machine.detail, "built for AArch64");
}

TEST(ResolveDependencies, ReportsSkippedFilesWhenNothingUsableIsFound) {
  TempDir wrong_machine;
  const std::string name = "libdoes_not_exist_xyz.so.1";
  CopyAndPatch(LOADER_MISSING_STUB, wrong_machine / name, offsetof(Elf64_Ehdr, e_machine),
               {EM_AARCH64, 0});
  auto options = IsolatedOptions();
  options.ld_library_path = wrong_machine.path().string();
  const auto report = ResolveDependencies(FakePlugin({name}), options);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.needed[0].failure,
            "not found; skipped " + (wrong_machine / name).string() + " (built for AArch64)");
}

TEST(ResolveDependencies, StopsAtANonElfFileLikeTheLoader) {
  // glibc gives up at the first candidate that is not ELF at all, even when a good copy
  // follows on the path ("file too short" / "invalid ELF header").
  TempDir text, good;
  const std::string name = "libdoes_not_exist_xyz.so.1";
  WriteFile(text / name, "#!/bin/sh\n");
  std::filesystem::copy_file(LOADER_MISSING_STUB, good / name);
  auto options = IsolatedOptions();
  options.ld_library_path = text.path().string() + ":" + good.path().string();
  const auto report = ResolveDependencies(FakePlugin({name}), options);
  const NeededLibrary& library = report.needed[0];
  ASSERT_FALSE(library.found);
  EXPECT_EQ(library.searched.back().verdict, CandidateVerdict::kRejected);
  EXPECT_EQ(library.failure, "rejected " + (text / name).string() +
                                 ": file too short; not an ELF file (starts with '#!')");
  EXPECT_THAT(Candidates(library), ::testing::Not(Contains((good / name).string())));
}

TEST(ResolveDependencies, FollowsOriginRunpath) {
  auto plugin = ReadElfFile(LOADER_RUNPATH_PLUGIN);
  ASSERT_TRUE(plugin.ok()) << plugin.error().Describe();
  const auto report = ResolveDependencies(*plugin, IsolatedOptions());
  const NeededLibrary& dependency = Find(report, "libloader_runpath_dep.so");
  ASSERT_TRUE(dependency.found) << dependency.Describe();
  EXPECT_EQ(dependency.found_in, SearchPlace::kRunpath);
  EXPECT_EQ(std::filesystem::canonical(dependency.resolved),
            std::filesystem::canonical(LOADER_RUNPATH_DEP));
}

TEST(ResolveDependencies, FollowsOriginRpath) {
  auto plugin = ReadElfFile(LOADER_RPATH_PLUGIN);
  ASSERT_TRUE(plugin.ok()) << plugin.error().Describe();
  const auto report = ResolveDependencies(*plugin, IsolatedOptions());
  const NeededLibrary& dependency = Find(report, "libloader_runpath_dep.so");
  ASSERT_TRUE(dependency.found) << dependency.Describe();
  EXPECT_EQ(dependency.found_in, SearchPlace::kRpath);
}

TEST(ResolveDependencies, ShowsTheExpandedRunpathOfABrokenPlugin) {
  auto plugin = ReadElfFile(LOADER_RUNPATH_BROKEN);
  ASSERT_TRUE(plugin.ok()) << plugin.error().Describe();
  const auto report = ResolveDependencies(*plugin, IsolatedOptions());
  const NeededLibrary& dependency = Find(report, "libloader_runpath_dep.so");
  ASSERT_FALSE(dependency.found);
  EXPECT_THAT(
      dependency.searched,
      Contains(AllOf(::testing::Field(&SearchAttempt::place, SearchPlace::kRunpath),
                     ::testing::Field(&SearchAttempt::candidate,
                                      kTestlibs / "nowhere" / "libloader_runpath_dep.so"))));
}

TEST(ResolveDependencies, RpathIsIgnoredWhenRunpathIsPresent) {
  TempDir rpath_dir;
  std::filesystem::copy_file(LOADER_MISSING_STUB, rpath_dir / "libdoes_not_exist_xyz.so.1");
  ElfFile plugin = FakePlugin({"libdoes_not_exist_xyz.so.1"});
  plugin.rpath = rpath_dir.path().string();
  plugin.runpath = "/nonexistent";
  const auto report = ResolveDependencies(plugin, IsolatedOptions());
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(Candidates(report.needed[0]), Contains("/nonexistent/libdoes_not_exist_xyz.so.1"));
  EXPECT_THAT(Candidates(report.needed[0]),
              ::testing::Not(Contains((rpath_dir / "libdoes_not_exist_xyz.so.1").string())));

  plugin.runpath.reset();
  const auto with_rpath = ResolveDependencies(plugin, IsolatedOptions());
  ASSERT_TRUE(with_rpath.ok());
  EXPECT_EQ(with_rpath.needed[0].found_in, SearchPlace::kRpath);
}

TEST(ResolveDependencies, SearchOrderMatchesTheLoader) {
  ElfFile plugin = FakePlugin({"libx.so"});
  plugin.rpath = "/r";  // ignored: there is a RUNPATH
  plugin.runpath = "/run";
  auto options = IsolatedOptions();
  options.ld_library_path = "/env";
  options.default_directories = {"/default"};
  const auto report = ResolveDependencies(plugin, options);
  std::vector<std::pair<SearchPlace, std::string>> order;
  for (const auto& attempt : report.needed[0].searched) {
    order.emplace_back(attempt.place, attempt.candidate.string());
  }
  EXPECT_THAT(
      order,
      ElementsAre(std::pair{SearchPlace::kHarnessProvided, std::string()},
                  std::pair{SearchPlace::kLdLibraryPath, std::string("/env/libx.so")},
                  std::pair{SearchPlace::kRunpath, std::string("/run/libx.so")},
                  // the cache is unusable here, so ld.so.conf (absent) stands in
                  std::pair{SearchPlace::kLdSoCache, std::string("/nonexistent/ld.so.cache")},
                  std::pair{SearchPlace::kDefaultDirectory, std::string("/default/libx.so")}));
}

TEST(ResolveDependencies, HarnessProvidedSonames) {
  auto plugin = ReadElfFile(LOADER_NEEDS_TF);
  ASSERT_TRUE(plugin.ok()) << plugin.error().Describe();
  auto options = IsolatedOptions();
  const auto without = ResolveDependencies(*plugin, options);
  EXPECT_FALSE(Find(without, "libtensorflow_framework.so.2").found);
  EXPECT_FALSE(Find(without, "_pywrap_tensorflow_internal.so").found);

  options.harness_sonames = {"libtensorflow_framework.so.2", "_pywrap_tensorflow_internal.so"};
  const auto with = ResolveDependencies(*plugin, options);
  EXPECT_EQ(Find(with, "libtensorflow_framework.so.2").found_in, SearchPlace::kHarnessProvided);
  EXPECT_EQ(Find(with, "_pywrap_tensorflow_internal.so").found_in, SearchPlace::kHarnessProvided);
}

TEST(ResolveDependencies, ReusesLoadedObjectsBySoname) {
  auto options = IsolatedOptions();
  options.check_loaded_objects = true;
  const auto report = ResolveDependencies(FakePlugin({"libc.so.6"}), options);
  ASSERT_TRUE(report.ok()) << report.needed[0].Describe();
  EXPECT_EQ(report.needed[0].found_in, SearchPlace::kAlreadyLoaded);
  EXPECT_EQ(report.needed[0].resolved.filename(), "libc.so.6");
}

TEST(ResolveDependencies, UsesTheSystemCache) {
  auto options = IsolatedOptions();
  options.ld_so_cache = "/etc/ld.so.cache";
  if (!std::filesystem::exists(options.ld_so_cache)) GTEST_SKIP() << "no /etc/ld.so.cache";
  const auto report = ResolveDependencies(FakePlugin({"libc.so.6"}), options);
  ASSERT_TRUE(report.ok()) << report.needed[0].Describe();
  EXPECT_EQ(report.needed[0].found_in, SearchPlace::kLdSoCache);
}

TEST(ResolveDependencies, FallsBackToLdSoConfWithoutACache) {
  TempDir libs, conf;
  std::filesystem::copy_file(LOADER_MISSING_STUB, libs / "libdoes_not_exist_xyz.so.1");
  std::filesystem::create_directory(conf / "ld.so.conf.d");
  WriteFile(conf / "ld.so.conf", "# comment\ninclude ld.so.conf.d/*.conf\n");
  WriteFile(conf / "ld.so.conf.d" / "vendor.conf",
            "/nonexistent/dir\n" + libs.path().string() + "\n");
  auto options = IsolatedOptions();
  options.ld_so_conf = conf / "ld.so.conf";
  const auto report = ResolveDependencies(FakePlugin({"libdoes_not_exist_xyz.so.1"}), options);
  ASSERT_TRUE(report.ok()) << report.needed[0].Describe();
  EXPECT_EQ(report.needed[0].found_in, SearchPlace::kLdSoConf);
  EXPECT_EQ(report.needed[0].resolved, libs / "libdoes_not_exist_xyz.so.1");
}

TEST(ResolveDependencies, NoDefaultLibSkipsCacheAndDefaultDirectories) {
  ElfFile plugin = FakePlugin({"libc.so.6"});
  plugin.no_default_lib = true;
  DependencySearchOptions options;
  options.ld_library_path = "";
  options.check_loaded_objects = false;
  const auto report = ResolveDependencies(plugin, options);
  ASSERT_FALSE(report.ok());
  for (const auto& attempt : report.needed[0].searched) {
    EXPECT_NE(attempt.place, SearchPlace::kLdSoCache);
    EXPECT_NE(attempt.place, SearchPlace::kDefaultDirectory);
  }
}

TEST(ResolveDependencies, NamesWithASlashArePaths) {
  TempDir dir;
  std::filesystem::copy_file(LOADER_MISSING_STUB, dir / "libdep.so");
  const auto report = ResolveDependencies(
      FakePlugin({"$ORIGIN/libdep.so", "/nonexistent/libgone.so"}, dir / "plugin.so"),
      IsolatedOptions());
  ASSERT_EQ(report.needed.size(), 2u);
  EXPECT_TRUE(report.needed[0].found) << report.needed[0].Describe();
  EXPECT_EQ(report.needed[0].found_in, SearchPlace::kPathName);
  EXPECT_EQ(report.needed[0].resolved, dir / "libdep.so");
  EXPECT_FALSE(report.needed[1].found);
  EXPECT_THAT(Candidates(report.needed[1]), ElementsAre("/nonexistent/libgone.so"));
}

TEST(ExpandDynamicStringTokens, ExpandsOriginLibAndPlatform) {
  DependencySearchOptions options;
  options.lib_token = "lib/x86_64-linux-gnu";
  options.platform_token = "x86_64";
  const std::filesystem::path origin = "/opt/p";
  EXPECT_EQ(ExpandDynamicStringTokens("$ORIGIN/sub", origin, options), "/opt/p/sub");
  EXPECT_EQ(ExpandDynamicStringTokens("${ORIGIN}/../lib:$ORIGIN", origin, options),
            "/opt/p/../lib:/opt/p");
  EXPECT_EQ(ExpandDynamicStringTokens("/usr/$LIB/${PLATFORM}", origin, options),
            "/usr/lib/x86_64-linux-gnu/x86_64");
  EXPECT_EQ(ExpandDynamicStringTokens("$ORIGINAL/$HOME/${LIBX}", origin, options),
            "$ORIGINAL/$HOME/${LIBX}");
}

TEST(DefaultTokens, MatchTheRunningLoader) {
  // Debian's loader expands $LIB to the multiarch directory that holds libc.
  EXPECT_FALSE(DefaultLibToken().empty());
  EXPECT_TRUE(std::filesystem::exists("/" + DefaultLibToken() + "/libc.so.6") ||
              std::filesystem::exists("/usr/" + DefaultLibToken() + "/libc.so.6"));
  EXPECT_EQ(DefaultPlatformToken(), "x86_64");
}

TEST(SplitSearchPath, EmptyElementsMeanTheWorkingDirectory) {
  EXPECT_THAT(SplitSearchPath("/a::/b:"),
              ElementsAre(std::filesystem::path("/a"), std::filesystem::path("."),
                          std::filesystem::path("/b"), std::filesystem::path(".")));
  EXPECT_THAT(SplitSearchPath("/a;/b:/c", ":;"),
              ElementsAre(std::filesystem::path("/a"), std::filesystem::path("/b"),
                          std::filesystem::path("/c")));
}

}  // namespace
}  // namespace conformance::loader
