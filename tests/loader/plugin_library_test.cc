#include "loader/plugin_library.h"

#include <dlfcn.h>
#include <elf.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "temp_dir.h"

namespace conformance::loader {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::EndsWith;
using ::testing::HasSubstr;

// What the dynamic loader itself says about `path` (dlopen exactly as TensorFlow calls it).
std::string LoaderMessage(const std::string& path) {
  dlerror();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle != nullptr) {
    dlclose(handle);
    return "";
  }
  return dlerror();
}

TEST(PluginLibrary, OpensAndFindsTypedEntryPoints) {
  auto plugin = PluginLibrary::Open(LOADER_GOOD_PLUGIN);
  ASSERT_TRUE(plugin.ok()) << plugin.error().Describe();
  EXPECT_TRUE(plugin->is_open());
  EXPECT_EQ(plugin->path(), LOADER_GOOD_PLUGIN);

  const EntryPoints entries = plugin->FindEntryPoints();
  EXPECT_THAT(entries.Found(), ElementsAre("SE_InitPlugin", "GetPjrtApi", "TF_InitKernel"));
  ASSERT_TRUE(entries.se_init_plugin);
  EXPECT_TRUE(entries.se_init_plugin->defined_in_plugin);
  EXPECT_EQ(entries.se_init_plugin->defined_in, LOADER_GOOD_PLUGIN);
  EXPECT_FALSE(entries.tfnpd_init_plugin);
  EXPECT_FALSE(entries.tf_init_graph);
  EXPECT_FALSE(entries.tf_init_profiler);

  int params = 0;
  int status = -1;
  entries.se_init_plugin->function(&params, &status);
  EXPECT_EQ(params, 42);
  EXPECT_EQ(status, 0);

  ASSERT_TRUE(entries.get_pjrt_api);
  EXPECT_NE(entries.get_pjrt_api->function(), nullptr);

  auto* kernel_calls =
      reinterpret_cast<int (*)()>(plugin->FindSymbol("loader_good_plugin_kernel_calls"));
  ASSERT_NE(kernel_calls, nullptr);
  const int before = kernel_calls();
  entries.tf_init_kernel->function();
  EXPECT_EQ(kernel_calls(), before + 1);
  EXPECT_EQ(plugin->FindSymbol("NoSuchSymbol"), nullptr);
}

TEST(PluginLibrary, EntryPointFromADependencyIsAttributed) {
  // dlsym on an RTLD_LOCAL handle searches the plugin's dependencies too; TF_InitGraph lives
  // in the library the plugin links against.
  auto plugin = PluginLibrary::Open(LOADER_RUNPATH_PLUGIN);
  ASSERT_TRUE(plugin.ok()) << plugin.error().Describe();
  const EntryPoints entries = plugin->FindEntryPoints();
  ASSERT_TRUE(entries.tf_init_graph);
  EXPECT_FALSE(entries.tf_init_graph->defined_in_plugin);
  EXPECT_THAT(entries.tf_init_graph->defined_in.string(), EndsWith("sub/libloader_runpath_dep.so"));
}

TEST(PluginLibrary, HiddenEntryPointsAreInvisibleToDlsym) {
  auto plugin = PluginLibrary::Open(LOADER_HIDDEN_ENTRY);
  ASSERT_TRUE(plugin.ok()) << plugin.error().Describe();
  EXPECT_THAT(plugin->FindEntryPoints().Found(), ElementsAre("TF_InitKernel"));
}

TEST(PluginLibrary, UndefinedSymbolFailsWithDlerrorText) {
  const std::string path = LOADER_IMPORTS_TF;
  auto plugin = PluginLibrary::Open(path);
  ASSERT_FALSE(plugin.ok());
  EXPECT_EQ(plugin.error().kind, LoaderErrorKind::kDlopenFailed);
  EXPECT_EQ(plugin.error().path, path);
  EXPECT_EQ(plugin.error().message, "dlopen failed: " + LoaderMessage(path));
  EXPECT_THAT(plugin.error().Describe(),
              AllOf(HasSubstr(path + ": dlopen failed: "), HasSubstr("undefined symbol: ")));
  // RTLD_NOW stops at the first unresolved import, whichever the relocations reach first.
  const std::string& message = plugin.error().message;
  EXPECT_TRUE(message.find("undefined symbol: TF_Foo") != std::string::npos ||
              message.find("undefined symbol: SE_Baz") != std::string::npos ||
              message.find("undefined symbol: TF_Hidden") != std::string::npos)
      << message;
}

TEST(PluginLibrary, MissingDependencyFailsWithDlerrorText) {
  auto plugin = PluginLibrary::Open(LOADER_NEEDS_MISSING);
  ASSERT_FALSE(plugin.ok());
  EXPECT_EQ(plugin.error().message, "dlopen failed: " + LoaderMessage(LOADER_NEEDS_MISSING));
  EXPECT_THAT(plugin.error().message,
              HasSubstr("libdoes_not_exist_xyz.so.1: cannot open shared object file: No such file "
                        "or directory"));
}

TEST(PluginLibrary, MissingFileFailsWithDlerrorText) {
  const std::string path = std::string(LOADER_TESTLIB_DIR) + "/no_such_plugin.so";
  auto plugin = PluginLibrary::Open(path);
  ASSERT_FALSE(plugin.ok());
  EXPECT_EQ(plugin.error().Describe(),
            path + ": dlopen failed: " + path +
                ": cannot open shared object file: No such file or directory");
}

TEST(PluginLibrary, WrongArchitectureFailsInDlopenToo) {
  // glibc skips a foreign-machine file even when named by path and then says it cannot find
  // it; ReadElfFile is what explains the real reason ("built for AArch64").
  testing::TempDir dir;
  const auto path = dir / "aarch64_plugin.so";
  testing::CopyAndPatch(LOADER_GOOD_PLUGIN, path, offsetof(Elf64_Ehdr, e_machine), {EM_AARCH64, 0});
  auto plugin = PluginLibrary::Open(path);
  ASSERT_FALSE(plugin.ok());
  EXPECT_EQ(plugin.error().message, "dlopen failed: " + LoaderMessage(path));
}

TEST(PluginLibrary, CloseAndMove) {
  auto plugin = PluginLibrary::Open(LOADER_FAKE_CORE, {.close_on_destruction = true});
  ASSERT_TRUE(plugin.ok()) << plugin.error().Describe();
  PluginLibrary moved = std::move(*plugin);
  EXPECT_FALSE(plugin->is_open());
  EXPECT_TRUE(moved.is_open());
  EXPECT_NE(moved.FindSymbol("TF_Bar"), nullptr);
  EXPECT_TRUE(moved.Close().ok());
  EXPECT_FALSE(moved.is_open());
  EXPECT_EQ(moved.FindSymbol("TF_Bar"), nullptr);
  EXPECT_TRUE(moved.FindEntryPoints().empty());
  EXPECT_TRUE(moved.Close().ok());  // closing twice is harmless
}

TEST(PluginLibrary, DestructorKeepsThePluginLoadedByDefault) {
  {
    auto plugin = PluginLibrary::Open(LOADER_GOOD_PLUGIN);
    ASSERT_TRUE(plugin.ok()) << plugin.error().Describe();
  }
  // RTLD_NOLOAD only succeeds for an object that is still mapped.
  void* handle = dlopen(LOADER_GOOD_PLUGIN, RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(handle, nullptr);
  if (handle != nullptr) dlclose(handle);
}

}  // namespace
}  // namespace conformance::loader
