#include "installed_tensorflow/tensorflow_c_api.h"

#include "installed_tensorflow/installed_release.h"

#include <dlfcn.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <stdexcept>

namespace tensorflow_driver {
namespace {

void* Open(const std::string& path, int scope = RTLD_GLOBAL) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | scope);
  if (handle == nullptr) throw std::runtime_error("dlopen " + path + ": " + dlerror());
  return handle;
}

// "3.11" from ".../lib/python3.11/site-packages/tensorflow"; nullopt when the path has no such
// folder.
std::optional<std::string> VersionInPath(const std::string& path) {
  static const std::regex kPythonVersion(R"(/python(\d+\.\d+)/(site|dist)-packages/)");
  std::smatch match;
  if (!std::regex_search(path, match, kPythonVersion)) return std::nullopt;
  return match[1].str();
}

// "3.11" from the wheel's own record beside the package (`pip install --target DIR` leaves no
// pythonX.Y folder): tensorflow*.dist-info/WHEEL's "Tag: cp311-...".
std::optional<std::string> VersionInWheelTag(const std::filesystem::path& package) {
  static const std::regex kTag(R"(^Tag: cp(\d)(\d+)-)");
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(package.parent_path(), error)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("tensorflow") || !name.ends_with(".dist-info")) continue;
    std::ifstream wheel(entry.path() / "WHEEL");
    for (std::string line; std::getline(wheel, line);) {
      std::smatch match;
      if (std::regex_search(line, match, kTag)) return match[1].str() + "." + match[2].str();
    }
  }
  return std::nullopt;
}

// The Python extension library imports the interpreter's C API; the python3 executable
// provides it when TensorFlow is imported, libpython<X.Y> stands in for it here. The version
// comes from the package path (.../lib/pythonX.Y/site-packages/tensorflow), the path with its
// links resolved (a linked package folder), or the wheel's tag beside it (a --target layout).
// Python is never initialized, so only the symbols matter: where that version's runtime is not
// installed (2.10.1's wheel is cp310 only, Debian bookworm has 3.11), the newest Python 3
// runtime the dynamic loader finds stands in (measured: libpython3.11 resolves the Py* imports
// of 2.10.1's _pywrap_tensorflow_internal.so, and the C API, eager context and plugin loading
// work).
void OpenPythonRuntime(const std::string& tensorflow_dir) {
  const std::optional<std::string> version = PythonVersionOf(tensorflow_dir);
  if (!version) {
    throw std::runtime_error(
        "cannot tell the Python version of " + tensorflow_dir +
        " (the Python runtime library to load is named after it): no pythonX.Y/site-packages "
        "folder in its path, with links resolved, and no tensorflow*.dist-info/WHEEL tag "
        "beside it");
  }
  const std::string wanted = "libpython" + *version + ".so.1.0";
  if (dlopen(wanted.c_str(), RTLD_NOW | RTLD_GLOBAL) != nullptr) return;
  const std::string why = dlerror();
  for (int minor = 20; minor >= 6; --minor) {
    const std::string other = "libpython3." + std::to_string(minor) + ".so.1.0";
    if (dlopen(other.c_str(), RTLD_NOW | RTLD_GLOBAL) != nullptr) return;
  }
  throw std::runtime_error("dlopen " + wanted + ": " + why + ", and no other libpython3.N.so.1.0");
}

template <typename Function>
void Resolve(void* library, const char* name, Function*& slot) {
  slot = reinterpret_cast<Function*>(dlsym(library, name));
  if (slot == nullptr) throw std::runtime_error(std::string("dlsym ") + name + ": not exported");
}

// How `import tensorflow` loads TensorFlow's libraries, which decides what a plugin's imports can
// bind to: pywrap_tensorflow.py imports _pywrap_tensorflow_internal.so with RTLD_GLOBAL only when
// the wheel ships python/pywrap_dlopen_global_flags.py (2.21.0 does: after `import tensorflow`,
// dlsym(RTLD_DEFAULT) finds all 409 TF_* functions its libraries define; 2.15.1 does not: it
// finds none of 441, and a plugin sees only the libraries it links itself).
int ScopeOfImportTensorFlow(const std::filesystem::path& dir) {
  return std::filesystem::exists(dir / "python" / "pywrap_dlopen_global_flags.py") ? RTLD_GLOBAL
                                                                                   : RTLD_LOCAL;
}

// The library that holds the C and eager C APIs, opened with the Python extension as `import
// tensorflow` opens them: from 2.12 libtensorflow_cc.so.2 (the extension beside it); up to 2.11
// the extension python/_pywrap_tensorflow_internal.so alone (it links the core library itself).
void* OpenCApiLibrary(const std::filesystem::path& dir, int scope) {
  const std::filesystem::path cc = dir / kTensorFlowLibrary;
  const std::filesystem::path pywrap = dir / kPythonExtensionLibrary;
  void* api = nullptr;
  if (std::filesystem::exists(cc)) api = Open(cc, scope);
  if (std::filesystem::exists(pywrap)) {
    void* extension = Open(pywrap, scope);
    if (api == nullptr) api = extension;
  }
  if (api == nullptr) {
    throw std::runtime_error("neither " + cc.string() + " nor " + pywrap.string() +
                             " exists: not a tensorflow package folder");
  }
  return api;
}

}  // namespace

std::optional<std::string> PythonVersionOf(const std::string& tensorflow_dir) {
  if (auto version = VersionInPath(tensorflow_dir)) return version;
  std::error_code error;
  const std::filesystem::path resolved = std::filesystem::canonical(tensorflow_dir, error);
  if (error) return std::nullopt;
  if (auto version = VersionInPath(resolved.string() + "/")) return version;
  return VersionInWheelTag(resolved);
}

TensorFlowCApi LoadTensorFlow(const std::string& tensorflow_dir) {
  const std::filesystem::path dir(tensorflow_dir);
  OpenPythonRuntime(tensorflow_dir);
  const int scope = ScopeOfImportTensorFlow(dir);
  void* cc = OpenCApiLibrary(dir, scope);
  TensorFlowCApi api{};
  Resolve(cc, "TF_Version", api.version);
  Resolve(cc, "TF_NewStatus", api.new_status);
  Resolve(cc, "TF_DeleteStatus", api.delete_status);
  Resolve(cc, "TF_GetCode", api.get_code);
  Resolve(cc, "TF_Message", api.message);
  Resolve(cc, "TF_LoadPluggableDeviceLibrary", api.load_pluggable_device_library);
  Resolve(cc, "TFE_NewContextOptions", api.new_context_options);
  Resolve(cc, "TFE_ContextOptionsSetDevicePlacementPolicy",
          api.context_options_set_device_placement_policy);
  Resolve(cc, "TFE_DeleteContextOptions", api.delete_context_options);
  Resolve(cc, "TFE_NewContext", api.new_context);
  Resolve(cc, "TFE_DeleteContext", api.delete_context);
  Resolve(cc, "TFE_ContextListDevices", api.context_list_devices);
  Resolve(cc, "TF_DeviceListCount", api.device_list_count);
  Resolve(cc, "TF_DeviceListName", api.device_list_name);
  Resolve(cc, "TF_DeviceListType", api.device_list_type);
  Resolve(cc, "TF_DeleteDeviceList", api.delete_device_list);
  Resolve(cc, "TF_AllocateTensor", api.allocate_tensor);
  Resolve(cc, "TF_TensorData", api.tensor_data);
  Resolve(cc, "TF_TensorByteSize", api.tensor_byte_size);
  Resolve(cc, "TF_TensorType", api.tensor_type);
  Resolve(cc, "TF_DeleteTensor", api.delete_tensor);
  Resolve(cc, "TFE_NewTensorHandle", api.new_tensor_handle);
  Resolve(cc, "TFE_DeleteTensorHandle", api.delete_tensor_handle);
  Resolve(cc, "TFE_TensorHandleCopyToDevice", api.copy_to_device);
  Resolve(cc, "TFE_TensorHandleResolve", api.resolve);
  Resolve(cc, "TFE_TensorHandleBackingDeviceName", api.backing_device_name);
  Resolve(cc, "TFE_NewOp", api.new_op);
  Resolve(cc, "TFE_DeleteOp", api.delete_op);
  Resolve(cc, "TFE_OpSetDevice", api.op_set_device);
  Resolve(cc, "TFE_OpAddInput", api.op_add_input);
  Resolve(cc, "TFE_OpSetAttrType", api.op_set_attr_type);
  Resolve(cc, "TFE_Execute", api.execute);
  Resolve(cc, "TFE_OpGetAttrType", api.op_get_attr_type);
  Resolve(cc, "TFE_OpSetAttrInt", api.op_set_attr_int);
  Resolve(cc, "TFE_OpSetAttrFloat", api.op_set_attr_float);
  Resolve(cc, "TFE_OpSetAttrBool", api.op_set_attr_bool);
  Resolve(cc, "TFE_OpSetAttrString", api.op_set_attr_string);
  Resolve(cc, "TFE_OpSetAttrIntList", api.op_set_attr_int_list);
  Resolve(cc, "TFE_OpSetAttrFloatList", api.op_set_attr_float_list);
  Resolve(cc, "TFE_OpSetAttrStringList", api.op_set_attr_string_list);
  Resolve(cc, "TFE_OpSetAttrTypeList", api.op_set_attr_type_list);
  Resolve(cc, "TFE_OpAddInputList", api.op_add_input_list);
  Resolve(cc, "TFE_OpSetAttrShape", api.op_set_attr_shape);
  Resolve(cc, "TF_NumDims", api.num_dims);
  Resolve(cc, "TF_Dim", api.dim);
  Resolve(cc, "TF_GetRegisteredKernelsForOp", api.registered_kernels_for_op);
  Resolve(cc, "TF_DeleteBuffer", api.delete_buffer);
  Resolve(cc, "TF_NewGraph", api.new_graph);
  Resolve(cc, "TF_DeleteGraph", api.delete_graph);
  Resolve(cc, "TF_NewOperation", api.new_operation);
  Resolve(cc, "TF_SetDevice", api.set_device);
  Resolve(cc, "TF_AddInput", api.add_input);
  Resolve(cc, "TF_SetAttrType", api.set_attr_type);
  Resolve(cc, "TF_SetAttrInt", api.set_attr_int);
  Resolve(cc, "TF_SetAttrFloat", api.set_attr_float);
  Resolve(cc, "TF_SetAttrBool", api.set_attr_bool);
  Resolve(cc, "TF_SetAttrString", api.set_attr_string);
  Resolve(cc, "TF_SetAttrIntList", api.set_attr_int_list);
  Resolve(cc, "TF_SetAttrFloatList", api.set_attr_float_list);
  Resolve(cc, "TF_SetAttrStringList", api.set_attr_string_list);
  Resolve(cc, "TF_SetAttrTypeList", api.set_attr_type_list);
  Resolve(cc, "TF_SetAttrShape", api.set_attr_shape);
  Resolve(cc, "TF_FinishOperation", api.finish_operation);
  Resolve(cc, "TF_NewSessionOptions", api.new_session_options);
  Resolve(cc, "TF_DeleteSessionOptions", api.delete_session_options);
  Resolve(cc, "TF_NewSession", api.new_session);
  Resolve(cc, "TF_CloseSession", api.close_session);
  Resolve(cc, "TF_DeleteSession", api.delete_session);
  Resolve(cc, "TF_SessionRun", api.session_run);
  Resolve(cc, "TF_NewBufferFromString", api.new_buffer_from_string);
  Resolve(cc, "TF_NewBuffer", api.new_buffer);
  return api;
}

}  // namespace tensorflow_driver
