#include "kernels/case_from_json.h"

#include <algorithm>
#include <cstring>

#include "kernels/dtype_values.h"
#include "kernels/string_values.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

// A tensor attr (Const's value, case_json.h's tensor): a host tensor the kernel reads with
// TF_OpKernelConstruction_GetAttrTensor. Numbers only: no family gives a string tensor attr.
std::variant<core::AttrValue, std::string> TensorAttr(const std::string& name, const json& item) {
  const auto dtype = DtypeFromName(item.at("dtype").get<std::string>());
  if (!dtype || *dtype == TF_STRING || !item.contains("hex"))
    return "attr " + name + " is a tensor of a dtype the runner cannot pass";
  const std::vector<std::uint8_t> bytes = BytesFromHex(item.at("hex").get<std::string>());
  core::Status status;
  core::Tensor tensor =
      core::Tensor::Allocate(*dtype, item.at("shape").get<core::Shape>(), &status);
  if (!status.ok()) return "attr " + name + ": " + status.message;
  if (tensor.ByteSize() != bytes.size())
    return "attr " + name + " holds " + std::to_string(bytes.size()) + " bytes, not " +
           std::to_string(tensor.ByteSize());
  if (!bytes.empty()) std::memcpy(tensor.data(), bytes.data(), bytes.size());
  return core::AttrValue(std::move(tensor));
}

std::variant<core::AttrValue, std::string> AttrOf(const std::string& name, const json& value) {
  if (!value.is_object() || value.size() != 1) return "attr " + name + " is not {kind: value}";
  // The iterator, not items(): items() is a temporary whose entries would dangle.
  const auto entry = value.begin();
  const std::string& kind = entry.key();
  const json& item = entry.value();
  if (kind == "type") return core::AttrValue(static_cast<TF_DataType>(item.get<int>()));
  if (kind == "i") return core::AttrValue(item.get<std::int64_t>());
  if (kind == "f") return core::AttrValue(item.get<float>());
  if (kind == "b") return core::AttrValue(item.get<bool>());
  if (kind == "s") return core::AttrValue(item.get<std::string>());
  if (kind == "shape")
    return core::AttrValue(core::PartialShape::Of(item.get<std::vector<std::int64_t>>()));
  if (kind == "tensor") return TensorAttr(name, item);
  core::AttrList list;
  if (kind == "list_i") {
    list.i = item.get<std::vector<std::int64_t>>();
  } else if (kind == "list_s") {
    list.s = item.get<std::vector<std::string>>();
  } else if (kind == "list_f") {
    list.f = item.get<std::vector<float>>();
  } else if (kind == "list_type") {
    for (const json& type : item) list.type.push_back(static_cast<TF_DataType>(type.get<int>()));
  } else {
    return "attr " + name + " of kind '" + kind + "', which the runner cannot pass";
  }
  return core::AttrValue(std::move(list));
}

}  // namespace

std::vector<std::uint8_t> BytesFromHex(const std::string& hex) {
  const auto nibble = [](char c) {
    return static_cast<std::uint8_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
  };
  std::vector<std::uint8_t> bytes(hex.size() / 2);
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<std::uint8_t>(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
  return bytes;
}

std::vector<std::uint8_t> RecordedTensorBytes(const json& tensor) {
  const auto every = tensor.find("every");
  if (every == tensor.end()) return BytesFromHex(tensor.at("hex").get<std::string>());
  const std::vector<std::uint8_t> element = BytesFromHex(every->get<std::string>());
  std::int64_t count = 1;
  for (const json& dim : tensor.at("shape")) count *= dim.get<std::int64_t>();
  std::vector<std::uint8_t> bytes;
  bytes.reserve(element.size() * static_cast<std::size_t>(std::max<std::int64_t>(count, 0)));
  for (std::int64_t i = 0; i < count; ++i)
    bytes.insert(bytes.end(), element.begin(), element.end());
  return bytes;
}

std::variant<CaseSpec, std::string> CaseFromJson(const json& kernel_case, const ops::OpDef& def) {
  CaseSpec spec;
  spec.op = kernel_case.at("op").get<std::string>();
  for (const auto& [name, value] : kernel_case.at("attrs").items()) {
    auto attr = AttrOf(name, value);
    if (const auto* why = std::get_if<std::string>(&attr)) return *why;
    spec.attrs[name] = std::get<core::AttrValue>(std::move(attr));
  }
  // TensorFlow adds the op definition's defaults to the NodeDef before it builds the kernel
  // (case_builder.cc does the same for scenario cases).
  for (const ops::AttrDef& attr : def.attrs) {
    if (!std::holds_alternative<core::AttrNotSet>(attr.default_value))
      spec.attrs.try_emplace(attr.name, attr.default_value);
  }
  for (const json& input : kernel_case.at("inputs")) {
    const auto dtype = DtypeFromName(input.at("dtype").get<std::string>());
    if (!dtype) return "input of dtype " + input.at("dtype").get<std::string>();
    HostTensor value{*dtype, input.at("shape").get<core::Shape>(), {}};
    if (*dtype == TF_STRING) {
      value.strings = StringsFromJson(input.value("strings", nlohmann::json::array()));
    } else {
      value.bytes = BytesFromHex(input.at("hex").get<std::string>());
    }
    spec.inputs.push_back({input.value("name", ""), std::move(value),
                           input.value("variable", false), input.value("ref", false)});
  }
  for (const json& output : kernel_case.at("outputs")) {
    const std::string name = output.at("name").get<std::string>();
    if (output.value("variable", false)) {  // a variable input's value after compute
      const auto held = std::find_if(
          spec.inputs.begin(), spec.inputs.end(),
          [&](const CaseInput& in) { return (in.variable || in.ref) && in.name == name; });
      if (held == spec.inputs.end()) return "output '" + name + "' names no variable input";
      spec.outputs.push_back({name, held->value.dtype, true});
      continue;
    }
    const ops::ArgDef* arg = def.FindOutput(name);
    if (arg == nullptr) return "output '" + name + "' is not one of " + def.name + "'s";
    TF_DataType dtype = arg->type.value_or(TF_FLOAT);
    if (!arg->type_list_attr.empty()) {
      // A type list output (IdentityN's): its k-th tensor has the attr's k-th dtype.
      const auto attr = spec.attrs.find(arg->type_list_attr);
      const auto* types =
          attr != spec.attrs.end() ? std::get_if<core::AttrList>(&attr->second) : nullptr;
      const auto k = static_cast<std::size_t>(
          std::count_if(spec.outputs.begin(), spec.outputs.end(),
                        [&](const CaseOutputSpec& earlier) { return earlier.name == name; }));
      if (types == nullptr || k >= types->type.size())
        return "output '" + name + "' has more tensors than its attr " + arg->type_list_attr +
               " has dtypes";
      dtype = types->type[k];
    } else if (!arg->type) {
      const auto attr = spec.attrs.find(arg->type_attr);
      const auto* type =
          attr != spec.attrs.end() ? std::get_if<TF_DataType>(&attr->second) : nullptr;
      if (type == nullptr) return "output '" + name + "' is typed by an attr the case leaves unset";
      dtype = *type;
    }
    spec.outputs.push_back({name, dtype, output.value("variable", false)});
  }
  return spec;
}

}  // namespace conformance::kernels
