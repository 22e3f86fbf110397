#include "installed_tensorflow/plugin_session.h"

#include <cstring>
#include <fstream>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "installed_tensorflow/cpu_kernel_plugin.h"
#include "installed_tensorflow/driver_steps.h"
#include "installed_tensorflow/kernel_cases.h"
#include "installed_tensorflow/model_graphs.h"
#include "installed_tensorflow/owned_status.h"

namespace tensorflow_driver {
namespace {

using nlohmann::json;

json Load(const TensorFlowCApi& api, const std::string& path) {
  OwnedStatus status(api);
  api.load_pluggable_device_library(path.c_str(), status.get());
  json result = status.ToJson();
  result["path"] = path;
  return result;
}

struct Device {
  std::string name;
  std::string type;
};

std::vector<Device> ListDevices(const TensorFlowCApi& api, TfeContext* context, json& step) {
  OwnedStatus status(api);
  TfDeviceList* list = api.context_list_devices(context, status.get());
  std::vector<Device> devices;
  if (!status.ok()) {
    step["status"] = status.ToJson();
    return devices;
  }
  for (int i = 0; i < api.device_list_count(list); ++i) {
    devices.push_back(
        {api.device_list_name(list, i, status.get()), api.device_list_type(list, i, status.get())});
    step["devices"].push_back({{"name", devices.back().name}, {"type", devices.back().type}});
  }
  api.delete_device_list(list);
  return devices;
}

// The plugin's device: the first one of a type TensorFlow's CPU wheel does not bring itself.
const Device* PluginDevice(const std::vector<Device>& devices) {
  for (const Device& device : devices) {
    if (device.type != "CPU") return &device;
  }
  return nullptr;
}

struct DataType {
  const char* name;
  TfDataType value;
  std::size_t size;
};

// Every fixed-size numeric dtype (TF_DataType values), the ones a plugin's memcpy must carry.
constexpr DataType kDataTypes[] = {{"float", 1, 4},     {"double", 2, 8},  {"int32", 3, 4},
                                   {"uint8", 4, 1},     {"int16", 5, 2},   {"int8", 6, 1},
                                   {"complex64", 8, 8}, {"int64", 9, 8},   {"bool", 10, 1},
                                   {"bfloat16", 14, 2}, {"uint16", 17, 2}, {"complex128", 18, 16},
                                   {"half", 19, 2},     {"uint32", 22, 4}, {"uint64", 23, 8}};

using TensorPtr = std::unique_ptr<TfTensor, void (*)(TfTensor*)>;

class Session {
 public:
  Session(const TensorFlowCApi& api, TfeContext* context) : api_(api), context_(context) {}

  TensorPtr Tensor(TfDataType dtype, std::size_t count, std::size_t size,
                   unsigned char (*byte_at)(std::size_t)) const {
    const int64_t dims[] = {static_cast<int64_t>(count)};
    TensorPtr tensor(api_.allocate_tensor(dtype, dims, 1, count * size), api_.delete_tensor);
    auto* bytes = static_cast<unsigned char*>(api_.tensor_data(tensor.get()));
    for (std::size_t i = 0; i < count * size; ++i) bytes[i] = byte_at(i);
    return tensor;
  }

  // Host → device → host; the bytes that came back, or the first error.
  json RoundTrip(const DataType& dtype, const std::string& device) const {
    constexpr std::size_t kCount = 37;  // odd, so no size happens to be a neat block
    const bool boolean = std::strcmp(dtype.name, "bool") == 0;
    TensorPtr host = Tensor(
        dtype.value, kCount, dtype.size,
        boolean ? +[](std::size_t i) { return static_cast<unsigned char>(i % 2); }
                : +[](std::size_t i) { return static_cast<unsigned char>((i * 37 + 11) & 0x7f); });
    json result = {{"dtype", dtype.name}};
    OwnedStatus status(api_);
    TfeTensorHandle* handle = api_.new_tensor_handle(host.get(), status.get());
    if (!status.ok()) return Failed(result, "TFE_NewTensorHandle", status);
    TfeTensorHandle* on_device =
        api_.copy_to_device(handle, context_, device.c_str(), status.get());
    api_.delete_tensor_handle(handle);
    if (!status.ok()) return Failed(result, "TFE_TensorHandleCopyToDevice", status);
    result["backing_device"] = api_.backing_device_name(on_device, status.get());
    TfeTensorHandle* back = api_.copy_to_device(on_device, context_, kCpuDevice, status.get());
    api_.delete_tensor_handle(on_device);
    if (!status.ok()) return Failed(result, "TFE_TensorHandleCopyToDevice (back)", status);
    TfTensor* resolved = api_.resolve(back, status.get());
    api_.delete_tensor_handle(back);
    if (!status.ok()) return Failed(result, "TFE_TensorHandleResolve", status);
    TensorPtr returned(resolved, api_.delete_tensor);
    const std::size_t bytes = api_.tensor_byte_size(host.get());
    result["equal"] =
        api_.tensor_byte_size(returned.get()) == bytes &&
        std::memcmp(api_.tensor_data(host.get()), api_.tensor_data(returned.get()), bytes) == 0;
    return result;
  }

  // One float op of `arity` inputs on `device`; its output bytes, or the error.
  json RunFloatOp(const char* op_name, int arity, const std::string& device,
                  std::vector<unsigned char>& output) const {
    json result = {{"device", device}};
    OwnedStatus status(api_);
    std::unique_ptr<TfeOp, void (*)(TfeOp*)> op(api_.new_op(context_, op_name, status.get()),
                                                api_.delete_op);
    if (!status.ok()) return Failed(result, "TFE_NewOp", status);
    api_.op_set_device(op.get(), device.c_str(), status.get());
    if (!status.ok()) return Failed(result, "TFE_OpSetDevice", status);
    api_.op_set_attr_type(op.get(), "T", kFloat);
    std::vector<TfeTensorHandle*> inputs;
    for (int i = 0; i < arity; ++i) {
      TensorPtr tensor = Tensor(
          kFloat, 64, 4,
          i == 0
              ? +[](std::size_t b) { return static_cast<unsigned char>(b % 4 == 3 ? 0x3f : b * 7); }
              : +[](std::size_t b) {
                  return static_cast<unsigned char>(b % 4 == 3 ? 0xc0 : b * 13);
                });
      inputs.push_back(api_.new_tensor_handle(tensor.get(), status.get()));
      api_.op_add_input(op.get(), inputs.back(), status.get());
    }
    TfeTensorHandle* out = nullptr;
    int num_outputs = 1;
    if (status.ok()) api_.execute(op.get(), &out, &num_outputs, status.get());
    for (TfeTensorHandle* input : inputs) api_.delete_tensor_handle(input);
    if (!status.ok()) return Failed(result, "TFE_Execute", status);
    result["backing_device"] = api_.backing_device_name(out, status.get());
    TfTensor* resolved = api_.resolve(out, status.get());
    api_.delete_tensor_handle(out);
    if (!status.ok()) return Failed(result, "TFE_TensorHandleResolve", status);
    TensorPtr tensor(resolved, api_.delete_tensor);
    const auto* data = static_cast<const unsigned char*>(api_.tensor_data(tensor.get()));
    output.assign(data, data + api_.tensor_byte_size(tensor.get()));
    return result;
  }

 private:
  static json Failed(json result, const char* call, const OwnedStatus& status) {
    result["error"] = status.ToJson();
    result["error"]["call"] = call;
    return result;
  }

  const TensorFlowCApi& api_;
  TfeContext* context_;
};

struct FloatOp {
  const char* name;
  int arity;
};
constexpr FloatOp kOps[] = {{"AddV2", 2}, {"Mul", 2}, {"Sub", 2}, {"Neg", 1}};

json CompareOp(const Session& session, const FloatOp& op, const std::string& device) {
  std::vector<unsigned char> on_plugin;
  std::vector<unsigned char> on_cpu;
  json result = {{"op", op.name},
                 {"plugin", session.RunFloatOp(op.name, op.arity, device, on_plugin)},
                 {"cpu", session.RunFloatOp(op.name, op.arity, kCpuDevice, on_cpu)}};
  if (!result["plugin"].contains("error") && !result["cpu"].contains("error")) {
    result["equal"] = on_plugin == on_cpu;
  }
  return result;
}

// Every case twice: on the plugin's device and on TensorFlow's CPU, the second oracle.
void RunKernelCases(const TensorFlowCApi& api, TfeContext* context, const PluginRequest& request,
                    const Device& device, std::FILE* report) {
  std::ifstream in(request.kernel_cases_path);
  const json dump = json::parse(in, nullptr, false);
  if (dump.is_discarded() || !dump.contains("cases")) {
    Emit(report, {{"step", "kernel_cases"}, {"error", "cannot read " + request.kernel_cases_path}});
    return;
  }
  for (const json& kernel_case : dump["cases"]) {
    json result = {{"id", kernel_case.value("id", "")},
                   {"shape_index", kernel_case.value("shape_index", 0)}};
    // Named before it runs: a kernel that kills the process leaves the case it died in.
    Emit(report, {{"step", "kernel_case_started"}, {"case", result}});
    try {
      if (kernel_case.value("generated", false)) {
        // A generated case TensorFlow's CPU rejects is skipped, so the plugin never gets
        // inputs TensorFlow itself refuses (a kernel dying on them would end the session).
        result["cpu"] = RunKernelCase(api, context, kernel_case, kCpuDevice);
        result["plugin"] = result["cpu"].contains("error")
                               ? json{{"not_run", "TensorFlow's CPU rejects the case"}}
                               : RunKernelCase(api, context, kernel_case, device.name);
      } else {
        result["plugin"] = RunKernelCase(api, context, kernel_case, device.name);
        result["cpu"] = RunKernelCase(api, context, kernel_case, kCpuDevice);
      }
      if (auto wide = RunFloat64Run(api, context, kernel_case, result["cpu"]))
        result["float64"] = std::move(*wide);
    } catch (const std::exception& error) {
      result["unsupported"] = error.what();
    }
    Emit(report, {{"step", "kernel_case"}, {"result", result}});
  }
}

}  // namespace

void RunPluginSession(const TensorFlowCApi& api, const PluginRequest& request, std::FILE* report) {
  Emit(report, {{"step", "started"}, {"tensorflow_version", api.version()}});
  if (!request.co_load.empty()) {
    json co_load = Load(api, request.co_load);
    Emit(report, {{"step", "co_load"}, {"result", co_load}});
    if (co_load["code"] != 0) return;
  }
  json load = Load(api, request.path);
  Emit(report, {{"step", "load"}, {"result", load}});
  if (load["code"] != 0) return;

  OwnedStatus status(api);
  TfeContextOptions* options = api.new_context_options();
  api.context_options_set_device_placement_policy(options, kDevicePlacementSilent);
  TfeContext* context = api.new_context(options, status.get());
  api.delete_context_options(options);
  if (!status.ok()) {
    Emit(report, {{"step", "devices"}, {"status", status.ToJson()}});
    return;
  }
  json devices_step = {{"step", "devices"}, {"devices", json::array()}};
  const std::vector<Device> devices = ListDevices(api, context, devices_step);
  Emit(report, devices_step);
  const Device* device = PluginDevice(devices);
  if (device == nullptr) {
    // No device of its own: a CPU kernel plugin, whose kernels run on TensorFlow's CPU.
    if (!request.kernel_cases_path.empty()) {
      RunCasesWithCpuKernelPlugin(api, context, request, report);
    }
    if (!request.model_graphs_path.empty()) {
      RunModelGraphs(api, request.model_graphs_path, kCpuDevice, kModelGraphStep, report);
    }
    api.delete_context(context);
    return;
  }

  const Session session(api, context);
  // Each named before it runs: a plugin that kills the process leaves the copy or op it died in.
  for (const DataType& dtype : kDataTypes) {
    Emit(report, {{"step", "copy_started"}, {"dtype", dtype.name}});
    Emit(report, {{"step", "copy"}, {"result", session.RoundTrip(dtype, device->name)}});
  }
  for (const FloatOp& op : kOps) {
    Emit(report, {{"step", "op_started"}, {"op", op.name}});
    Emit(report, {{"step", "op"}, {"result", CompareOp(session, op, device->name)}});
  }
  if (!request.kernel_cases_path.empty()) RunKernelCases(api, context, request, *device, report);
  if (!request.model_graphs_path.empty()) {
    RunModelGraphs(api, request.model_graphs_path, device->name, kModelGraphStep, report);
  }
  api.delete_context(context);
  Emit(report, {{"step", "finished"}});
}

}  // namespace tensorflow_driver
