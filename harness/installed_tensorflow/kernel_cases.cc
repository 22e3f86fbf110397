#include "installed_tensorflow/kernel_cases.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "installed_tensorflow/attr_setters.h"
#include "installed_tensorflow/driver_steps.h"
#include "installed_tensorflow/owned_status.h"
#include "installed_tensorflow/string_tensors.h"
namespace tensorflow_driver {

using nlohmann::json;

std::optional<TfDataType> DataTypeOfName(const std::string& name) {
  static constexpr std::array<std::pair<const char*, TfDataType>, 20> kTypes = {{
      {"float", 1},
      {"double", 2},
      {"int32", 3},
      {"uint8", 4},
      {"int16", 5},
      {"int8", 6},
      {"int64", 9},
      {"bool", 10},
      {"bfloat16", 14},
      {"uint16", 17},
      {"half", 19},
      {"uint32", 22},
      {"uint64", 23},
      {"complex64", 8},
      {"complex128", 18},
      // Quantized: integers in storage (harness/kernels/dtype_values.h).
      {"qint8", 11},
      {"quint8", 12},
      {"qint32", 13},
      {"qint16", 15},
      {"quint16", 16},
  }};
  for (const auto& [type_name, value] : kTypes) {
    if (name == type_name) return value;
  }
  return std::nullopt;
}

std::vector<unsigned char> BytesOfHex(const std::string& hex) {
  std::vector<unsigned char> bytes(hex.size() / 2);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = static_cast<unsigned char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  }
  return bytes;
}

namespace {

std::string ToHex(const unsigned char* data, std::size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(size * 2);
  for (std::size_t i = 0; i < size; ++i) {
    hex.push_back(kDigits[data[i] >> 4]);
    hex.push_back(kDigits[data[i] & 15]);
  }
  return hex;
}

// A case that stops at a failed call: {"error": {call, code, message}}.
json ErrorJson(const OwnedStatus& status, const char* call) {
  return {{"error", status.Error(call)}};
}

// Handles the case owns until the op has run.
class Handles {
 public:
  explicit Handles(const TensorFlowCApi& api) : api_(api) {}
  ~Handles() {
    for (TfeTensorHandle* handle : handles_) api_.delete_tensor_handle(handle);
  }
  Handles(const Handles&) = delete;
  Handles& operator=(const Handles&) = delete;
  TfeTensorHandle* Add(TfeTensorHandle* handle) {
    handles_.push_back(handle);
    return handle;
  }

 private:
  const TensorFlowCApi& api_;
  std::vector<TfeTensorHandle*> handles_;
};

// A host tensor on the CPU, as the case gives it; TensorFlow copies it to the op's device.
TfeTensorHandle* InputHandle(const TensorFlowCApi& api, const json& tensor,
                             const OwnedStatus& status) {
  if (tensor.contains("strings")) {  // a string tensor's elements (string_tensors.h)
    std::unique_ptr<TfTensor, void (*)(TfTensor*)> host(StringTensorOf(api, tensor),
                                                        api.delete_tensor);
    return api.new_tensor_handle(host.get(), status.get());
  }
  const auto dtype = DataTypeOfName(tensor.at("dtype").get<std::string>());
  if (!dtype) throw std::invalid_argument("dtype " + tensor.at("dtype").get<std::string>());
  const std::vector<unsigned char> bytes = BytesOfHex(tensor.at("hex").get<std::string>());
  std::vector<int64_t> dims = tensor.at("shape").get<std::vector<int64_t>>();
  std::unique_ptr<TfTensor, void (*)(TfTensor*)> host(
      api.allocate_tensor(*dtype, dims.data(), static_cast<int>(dims.size()), bytes.size()),
      api.delete_tensor);
  if (!bytes.empty()) std::memcpy(api.tensor_data(host.get()), bytes.data(), bytes.size());
  return api.new_tensor_handle(host.get(), status.get());
}

// The case's attrs TensorFlow's op defines (a scenario may carry the harness's own).
void SetAttrs(const TensorFlowCApi& api, TfeOp* op, const json& attrs) {
  // A shape's dimensions are never too many for TensorFlow here: its status says nothing new.
  const auto set_shape = [&api](TfeOp* target, const char* name, const int64_t* dims, int rank) {
    OwnedStatus status(api);
    api.op_set_attr_shape(target, name, dims, rank, status.get());
  };
  const AttrSetters<TfeOp> setters{api.op_set_attr_type,       api.op_set_attr_int,
                                   api.op_set_attr_float,      api.op_set_attr_bool,
                                   api.op_set_attr_string,     api.op_set_attr_int_list,
                                   api.op_set_attr_float_list, api.op_set_attr_string_list,
                                   api.op_set_attr_type_list,  set_shape};
  for (const auto& [name, value] : attrs.items()) {
    OwnedStatus defined(api);
    unsigned char is_list = 0;
    api.op_get_attr_type(op, name.c_str(), &is_list, defined.get());
    if (defined.ok()) SetAttrJson(setters, op, name, value);
  }
}

}  // namespace

json OutputJson(const TensorFlowCApi& api, TfTensor* tensor) {
  if (api.tensor_type(tensor) == 7) return StringOutputJson(api, tensor);  // TF_STRING
  json shape = json::array();
  for (int i = 0; i < api.num_dims(tensor); ++i) shape.push_back(api.dim(tensor, i));
  return {{"dtype", api.tensor_type(tensor)},
          {"shape", shape},
          {"hex", ToHex(static_cast<const unsigned char*>(api.tensor_data(tensor)),
                        api.tensor_byte_size(tensor))}};
}

json RunKernelCase(const TensorFlowCApi& api, TfeContext* context, const json& kernel_case,
                   const std::string& device) {
  OwnedStatus status(api);
  std::unique_ptr<TfeOp, void (*)(TfeOp*)> op(
      api.new_op(context, kernel_case.at("op").get<std::string>().c_str(), status.get()),
      api.delete_op);
  if (!status.ok()) return ErrorJson(status, "TFE_NewOp");
  api.op_set_device(op.get(), device.c_str(), status.get());
  if (!status.ok()) return ErrorJson(status, "TFE_OpSetDevice");
  SetAttrs(api, op.get(), kernel_case.at("attrs"));
  // Consecutive inputs of one name are one list argument (AddN's `inputs`).
  Handles handles(api);
  const json& inputs = kernel_case.at("inputs");
  for (std::size_t i = 0; i < inputs.size();) {
    std::size_t end = i + 1;
    while (end < inputs.size() && inputs[end].value("name", "") == inputs[i].value("name", "")) {
      ++end;
    }
    std::vector<TfeTensorHandle*> argument;
    for (std::size_t j = i; j < end; ++j) {
      argument.push_back(handles.Add(InputHandle(api, inputs[j], status)));
      if (!status.ok()) return ErrorJson(status, "TFE_NewTensorHandle");
    }
    if (argument.size() == 1) {
      api.op_add_input(op.get(), argument.front(), status.get());
    } else {
      api.op_add_input_list(op.get(), argument.data(), static_cast<int>(argument.size()),
                            status.get());
    }
    if (!status.ok()) return ErrorJson(status, "TFE_OpAddInput");
    i = end;
  }
  std::vector<TfeTensorHandle*> outputs(std::max<std::size_t>(kernel_case.at("outputs").size(), 1));
  int count = static_cast<int>(outputs.size());
  api.execute(op.get(), outputs.data(), &count, status.get());
  if (!status.ok()) return ErrorJson(status, "TFE_Execute");
  Handles produced(api);
  for (int i = 0; i < count; ++i) produced.Add(outputs[i]);
  json result = {{"outputs", json::array()}};
  if (count > 0) result["backing_device"] = api.backing_device_name(outputs[0], status.get());
  for (int i = 0; i < count; ++i) {
    // Resolving copies a device result to the host, as a user's `.numpy()` does.
    TfTensor* resolved = api.resolve(outputs[i], status.get());
    if (!status.ok()) return ErrorJson(status, "TFE_TensorHandleResolve");
    std::unique_ptr<TfTensor, void (*)(TfTensor*)> tensor(resolved, api.delete_tensor);
    result["outputs"].push_back(OutputJson(api, tensor.get()));
  }
  return result;
}

std::optional<json> RunFloat64Run(const TensorFlowCApi& api, TfeContext* context,
                                  const json& kernel_case, const json& cpu) {
  const auto run = kernel_case.find("float64_run");
  if (run == kernel_case.end() || !cpu.contains("outputs")) return std::nullopt;
  json wide = kernel_case;
  wide["attrs"] = run->at("attrs");
  wide["inputs"] = run->at("inputs");
  return RunKernelCase(api, context, wide, kCpuDevice);
}

}  // namespace tensorflow_driver
