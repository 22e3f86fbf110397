#include "loader/plugin_library.h"

#include <dlfcn.h>
#include <link.h>

#include <string>
#include <utility>

namespace conformance::loader {

std::vector<std::string_view> EntryPoints::Found() const {
  std::vector<std::string_view> names;
  const bool present[] = {se_init_plugin.has_value(), tfnpd_init_plugin.has_value(),
                          get_pjrt_api.has_value(),   tf_init_kernel.has_value(),
                          tf_init_graph.has_value(),  tf_init_profiler.has_value()};
  for (std::size_t i = 0; i < kEntryPointNames.size(); ++i) {
    if (present[i]) names.push_back(kEntryPointNames[i]);
  }
  return names;
}

namespace {

std::string TakeDlerror() {
  const char* message = dlerror();
  return message != nullptr ? message : "unknown dynamic loader error";
}

template <typename Fn>
std::optional<EntryPoint<Fn>> Lookup(void* handle, std::string_view name) {
  const std::string symbol(name);
  dlerror();  // dlsym reports absence only through dlerror; start from a clean slate
  void* address = dlsym(handle, symbol.c_str());
  if (address == nullptr) {
    dlerror();
    return std::nullopt;
  }
  EntryPoint<Fn> entry;
  entry.function = reinterpret_cast<Fn>(address);
  Dl_info info{};
  link_map* symbol_map = nullptr;
  if (dladdr1(address, &info, reinterpret_cast<void**>(&symbol_map), RTLD_DL_LINKMAP) != 0) {
    if (info.dli_fname != nullptr) entry.defined_in = info.dli_fname;
    link_map* plugin_map = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &plugin_map) == 0 && symbol_map != nullptr) {
      entry.defined_in_plugin = symbol_map == plugin_map;
    }
  }
  return entry;
}

}  // namespace

Result<PluginLibrary> PluginLibrary::Open(const std::filesystem::path& path, OpenOptions options) {
  dlerror();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    return LoaderError{LoaderErrorKind::kDlopenFailed, path.string(),
                       "dlopen failed: " + TakeDlerror()};
  }
  return PluginLibrary(path, handle, options);
}

PluginLibrary::PluginLibrary(PluginLibrary&& other) noexcept
    : path_(std::move(other.path_)),
      handle_(std::exchange(other.handle_, nullptr)),
      options_(other.options_) {}

PluginLibrary& PluginLibrary::operator=(PluginLibrary&& other) noexcept {
  if (this != &other) {
    CloseIfOwned();
    path_ = std::move(other.path_);
    handle_ = std::exchange(other.handle_, nullptr);
    options_ = other.options_;
  }
  return *this;
}

PluginLibrary::~PluginLibrary() { CloseIfOwned(); }

void PluginLibrary::CloseIfOwned() noexcept {
  if (handle_ != nullptr && options_.close_on_destruction) dlclose(handle_);
  handle_ = nullptr;
}

EntryPoints PluginLibrary::FindEntryPoints() const {
  EntryPoints entries;
  if (handle_ == nullptr) return entries;
  // Same order as TensorFlow, which matters only for what a constructor-less lookup could
  // observe, but keeps traces comparable with TensorFlow's.
  entries.se_init_plugin = Lookup<SeInitPluginFn>(handle_, kEntryPointNames[0]);
  entries.tfnpd_init_plugin = Lookup<TfnpdInitPluginFn>(handle_, kEntryPointNames[1]);
  entries.get_pjrt_api = Lookup<GetPjrtApiFn>(handle_, kEntryPointNames[2]);
  entries.tf_init_kernel = Lookup<TfInitKernelFn>(handle_, kEntryPointNames[3]);
  entries.tf_init_graph = Lookup<TfInitGraphFn>(handle_, kEntryPointNames[4]);
  entries.tf_init_profiler = Lookup<TfInitProfilerFn>(handle_, kEntryPointNames[5]);
  return entries;
}

void* PluginLibrary::FindSymbol(const char* name) const {
  if (handle_ == nullptr) return nullptr;
  dlerror();
  void* address = dlsym(handle_, name);
  dlerror();
  return address;
}

Status PluginLibrary::Close() {
  if (handle_ == nullptr) return {};
  void* handle = std::exchange(handle_, nullptr);
  dlerror();
  if (dlclose(handle) != 0) {
    return LoaderError{LoaderErrorKind::kDlcloseFailed, path_.string(),
                       "dlclose failed: " + TakeDlerror()};
  }
  return {};
}

}  // namespace conformance::loader
