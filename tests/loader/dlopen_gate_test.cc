// The dlopen gate (harness/loader/dlopen_gate.h) in an executable that links and exports the
// interposer, as plugin_conformance does: a library's own dlopen, refused by the armed verdict,
// returns NULL and leaves nothing loaded, and its dlerror() gives the verdict's message once;
// unarmed, or with a verdict that keeps the objects, dlopen is glibc's.
#include <dlfcn.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loader/dlopen_gate.h"

namespace conformance::loader {
namespace {

using OpenFn = void* (*)(const char*);
using ErrorFn = const char* (*)();

// The library whose calls are gated, and its two functions.
struct Opener {
  void* handle = dlopen(LOADER_OPENS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  OpenFn open = reinterpret_cast<OpenFn>(dlsym(handle, "opens_library_open"));
  ErrorFn error = reinterpret_cast<ErrorFn>(dlsym(handle, "opens_library_error"));
};

bool Loaded(const std::string& path) {
  const auto map = gate_internal::LinkMap();
  return std::any_of(map.begin(), map.end(), [&](const std::filesystem::path& loaded) {
    return std::filesystem::equivalent(loaded, path);
  });
}

TEST(DlopenGate, TheExecutableExportsTheInterposer) { EXPECT_TRUE(Interposed()); }

TEST(DlopenGate, ARefusedDlopenReturnsNullWithTheVerdictsMessageOnce) {
  const Opener opener;
  ASSERT_NE(opener.open, nullptr) << dlerror();
  std::vector<std::filesystem::path> seen;
  {
    const DlopenGate gate([&](const std::vector<std::filesystem::path>& added) {
      seen = added;
      return std::optional<std::string>("refused by the test");
    });
    EXPECT_EQ(opener.open(LOADER_RUNPATH_PLUGIN), nullptr);
    const char* error = opener.error();
    ASSERT_NE(error, nullptr);
    EXPECT_STREQ(error, "refused by the test");
    EXPECT_EQ(opener.error(), nullptr);  // as glibc's: read once
  }
  // The verdict saw the library and the dependency it brought, and neither stayed.
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_TRUE(std::filesystem::equivalent(seen[0], LOADER_RUNPATH_PLUGIN));
  EXPECT_TRUE(std::filesystem::equivalent(seen[1], LOADER_RUNPATH_DEP));
  EXPECT_FALSE(Loaded(LOADER_RUNPATH_PLUGIN));
  EXPECT_FALSE(Loaded(LOADER_RUNPATH_DEP));
}

TEST(DlopenGate, AVerdictThatKeepsTheObjectsLetsTheDlopenThrough) {
  const Opener opener;
  const DlopenGate gate(
      [](const std::vector<std::filesystem::path>&) { return std::optional<std::string>(); });
  void* handle = opener.open(LOADER_GOOD_PLUGIN);
  ASSERT_NE(handle, nullptr) << opener.error();
  EXPECT_TRUE(Loaded(LOADER_GOOD_PLUGIN));
  dlclose(handle);
}

TEST(DlopenGate, UnarmedItIsGlibcsDlopen) {
  const Opener opener;
  void* handle = opener.open(LOADER_GOOD_PLUGIN);
  ASSERT_NE(handle, nullptr) << opener.error();
  dlclose(handle);
  EXPECT_EQ(opener.open("/nonexistent/libnothing.so"), nullptr);
  const char* error = opener.error();
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(error).find("libnothing.so"), std::string::npos) << error;
}

// glibc finds a bare name in the caller's RUNPATH: the interposer's own call must not turn the
// executable into the caller (ITEX's CPU plugin opens its library beside it so).
TEST(DlopenGate, ABareNameIsFoundFromTheCallersRunpath) {
  const Opener opener;
  const std::string name = std::filesystem::path(LOADER_RUNPATH_DEP).filename();
  ASSERT_FALSE(Loaded(LOADER_RUNPATH_DEP));
  EXPECT_EQ(dlopen(name.c_str(), RTLD_NOW), nullptr);  // not on the executable's path
  void* handle = opener.open(name.c_str());
  ASSERT_NE(handle, nullptr) << opener.error();
  EXPECT_EQ(opener.error(), nullptr);  // the lookup's own misses are not the caller's error
  EXPECT_TRUE(Loaded(LOADER_RUNPATH_DEP));
  dlclose(handle);
}

TEST(DlopenGate, ALibraryAlreadyOpenIsNotJudgedAgain) {
  const Opener opener;
  void* first = opener.open(LOADER_GOOD_PLUGIN);
  ASSERT_NE(first, nullptr);
  int verdicts = 0;
  {
    const DlopenGate gate([&](const std::vector<std::filesystem::path>&) {
      ++verdicts;
      return std::optional<std::string>("refused");
    });
    void* again = opener.open(LOADER_GOOD_PLUGIN);
    EXPECT_NE(again, nullptr);
    if (again != nullptr) dlclose(again);
  }
  EXPECT_EQ(verdicts, 0);
  dlclose(first);
}

}  // namespace
}  // namespace conformance::loader
