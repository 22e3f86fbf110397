#pragma once
// A plugin opened the way TensorFlow opens it (dlopen with RTLD_NOW | RTLD_LOCAL) and its
// entry points looked up the way TensorFlow looks them up (dlsym on the handle, fixed order,
// absent ones are not an error).
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "loader/entry_points.h"
#include "loader/result.h"

namespace conformance::loader {

template <typename Fn>
struct EntryPoint {
  Fn function = nullptr;
  // The object dlsym found the symbol in. dlsym on an RTLD_LOCAL handle also searches the
  // plugin's dependencies, so an entry point can come from a library the plugin links against
  // (TensorFlow would call it all the same); defined_in_plugin tells the two cases apart.
  std::filesystem::path defined_in;
  bool defined_in_plugin = true;
};

struct EntryPoints {
  std::optional<EntryPoint<SeInitPluginFn>> se_init_plugin;
  std::optional<EntryPoint<TfnpdInitPluginFn>> tfnpd_init_plugin;
  std::optional<EntryPoint<GetPjrtApiFn>> get_pjrt_api;
  std::optional<EntryPoint<TfInitKernelFn>> tf_init_kernel;
  std::optional<EntryPoint<TfInitGraphFn>> tf_init_graph;
  std::optional<EntryPoint<TfInitProfilerFn>> tf_init_profiler;

  // Names of the entry points found, in TensorFlow's lookup order.
  std::vector<std::string_view> Found() const;
  bool empty() const { return Found().empty(); }
};

struct OpenOptions {
  // TensorFlow never unloads a plugin (and plugins commonly leave threads and atexit handlers
  // behind that would run into unmapped code), so by default neither does the harness.
  bool close_on_destruction = false;
};

class PluginLibrary {
 public:
  // dlopen(path, RTLD_NOW | RTLD_LOCAL), the path passed through unchanged as TensorFlow does
  // (so a name without '/' is searched for like a DT_NEEDED entry). On failure: kDlopenFailed,
  // message "dlopen failed: " + dlerror()'s full text.
  static Result<PluginLibrary> Open(const std::filesystem::path& path, OpenOptions options = {});

  PluginLibrary(PluginLibrary&& other) noexcept;
  PluginLibrary& operator=(PluginLibrary&& other) noexcept;
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;
  ~PluginLibrary();

  const std::filesystem::path& path() const { return path_; }
  bool is_open() const { return handle_ != nullptr; }
  void* native_handle() const { return handle_; }

  EntryPoints FindEntryPoints() const;
  // dlsym on the handle; nullptr when the name is not found (or the library is closed).
  void* FindSymbol(const char* name) const;

  // dlclose; for tests. kDlcloseFailed with dlerror()'s text on failure.
  Status Close();

 private:
  PluginLibrary(std::filesystem::path path, void* handle, OpenOptions options)
      : path_(std::move(path)), handle_(handle), options_(options) {}
  void CloseIfOwned() noexcept;

  std::filesystem::path path_;
  void* handle_ = nullptr;
  OpenOptions options_;
};

}  // namespace conformance::loader
