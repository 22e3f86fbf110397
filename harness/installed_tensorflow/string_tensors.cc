#include "installed_tensorflow/string_tensors.h"

#include <cstdint>
#include <string>
#include <vector>

#include "installed_tensorflow/kernel_cases.h"
#include "tensorflow/core/platform/ctstring.h"

namespace tensorflow_driver {
namespace {

using nlohmann::json;

constexpr TfDataType kString = 7;  // TF_STRING

std::string HexOf(const char* data, std::size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * size);
  for (std::size_t i = 0; i < size; ++i) {
    const auto byte = static_cast<unsigned char>(data[i]);
    hex.push_back(kDigits[byte >> 4]);
    hex.push_back(kDigits[byte & 15]);
  }
  return hex;
}

}  // namespace

TfTensor* StringTensorOf(const TensorFlowCApi& api, const json& tensor) {
  std::vector<int64_t> dims = tensor.at("shape").get<std::vector<int64_t>>();
  const json& strings = tensor.at("strings");
  TfTensor* host = api.allocate_tensor(kString, dims.data(), static_cast<int>(dims.size()),
                                       strings.size() * sizeof(TF_TString));
  auto* elements = static_cast<TF_TString*>(api.tensor_data(host));
  for (std::size_t i = 0; i < strings.size() && elements != nullptr; ++i) {
    const std::vector<unsigned char> bytes = BytesOfHex(strings[i].get<std::string>());
    // The buffer is raw memory: each element starts empty, then holds its own copy.
    TF_TString_Init(&elements[i]);
    TF_TString_Copy(&elements[i], reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  return host;
}

json StringOutputJson(const TensorFlowCApi& api, TfTensor* tensor) {
  json shape = json::array();
  std::int64_t count = 1;
  for (int i = 0; i < api.num_dims(tensor); ++i) {
    shape.push_back(api.dim(tensor, i));
    count *= api.dim(tensor, i);
  }
  const auto* elements = static_cast<const TF_TString*>(api.tensor_data(tensor));
  const auto fits = static_cast<std::int64_t>(api.tensor_byte_size(tensor) / sizeof(TF_TString));
  json strings = json::array();
  for (std::int64_t i = 0; i < count && i < fits && elements != nullptr; ++i) {
    const TF_TString* element = &elements[i];
    strings.push_back(HexOf(TF_TString_GetDataPointer(element), TF_TString_GetSize(element)));
  }
  return {{"dtype", kString}, {"shape", shape}, {"strings", strings}};
}

}  // namespace tensorflow_driver
