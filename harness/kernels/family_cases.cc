#include "kernels/family_cases.h"

#include <map>

#include "kernels/case_json.h"
#include "kernels/dtype_values.h"
#include "kernels/family_fills.h"
#include "kernels/string_values.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

// The shape an input the case leaves out takes: the first seeded input's.
std::optional<core::Shape> DefaultShape(
    const FamilyCase& family_case, const std::vector<std::pair<std::string, TF_DataType>>& inputs) {
  for (const auto& [name, dtype] : inputs) {
    const auto found = family_case.inputs.find(name);
    if (found != family_case.inputs.end() && found->second.elements.empty() &&
        !found->second.literal && !found->second.text)
      return found->second.shape;
  }
  return std::nullopt;
}

}  // namespace

std::variant<std::vector<HostTensor>, std::string, std::nullopt_t> FamilyCaseInputs(
    const FamilyCase& family_case, const std::vector<std::pair<std::string, TF_DataType>>& inputs,
    const std::function<std::uint64_t(std::size_t)>& seed_of) {
  std::vector<HostTensor> tensors;
  std::map<std::string, std::size_t> copies;  // the tensors of each list input so far
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto& [name, dtype] = inputs[i];
    const std::size_t element = copies[name]++;
    const auto found = family_case.inputs.find(name);
    if (found == family_case.inputs.end()) {
      const std::optional<core::Shape> shape = DefaultShape(family_case, inputs);
      if (!shape)
        return "the family's case '" + family_case.variant + "' gives no input '" + name + "'";
      tensors.push_back(*MakeFill("random", dtype, *shape, seed_of(i)));
      continue;
    }
    const std::vector<FamilyInput>& elements = found->second.elements;
    if (!elements.empty() && element >= elements.size()) {
      return "input '" + name + "' has more tensors than the " + std::to_string(elements.size()) +
             " the case gives";
    }
    const FamilyInput& input = elements.empty() ? found->second : elements[element];
    if (input.text) {
      if (dtype != TF_STRING) return "input '" + name + "' is not a string: `text:` cannot give it";
      tensors.push_back(StringTensor(*input.text, input.shape));
    } else if (dtype == TF_STRING && (input.literal || !input.below.empty())) {
      return "input '" + name + "' is a string: give it `text:` or a string `fill:`";
    } else if (input.literal) {
      std::vector<Number> values(input.literal->begin(), input.literal->end());
      tensors.push_back(MakeLiteral(values, dtype, input.shape));
    } else if (!input.below.empty()) {
      if (input.below.size() > 1 &&
          (input.shape.empty() ||
           input.shape.back() != static_cast<std::int64_t>(input.below.size())))
        return "input '" + name + "': one bound per innermost component needs that many components";
      tensors.push_back(MakeIndices(input.below, input.sorted, dtype, input.shape, seed_of(i)));
    } else {
      std::optional<HostTensor> filled =
          MakeFill(input.fill, dtype, input.shape, seed_of(i), 3 * i);
      if (!filled) return std::nullopt;
      tensors.push_back(std::move(*filled));
    }
  }
  for (const auto& [name, input] : family_case.inputs) {
    const auto given = copies.find(name);
    if (!input.elements.empty() && given != copies.end() && given->second != input.elements.size())
      return "input '" + name + "' has " + std::to_string(given->second) + " tensors, the case " +
             std::to_string(input.elements.size());
  }
  return tensors;
}

std::variant<json, std::string> FamilyCaseAttrs(
    const FamilyCase& family_case, const ops::OpDef& def,
    const std::map<std::string, TF_DataType>& cell_types) {
  json attrs = json::object();
  for (const auto& [name, value] : family_case.attrs.items()) {
    const ops::AttrDef* attr = def.FindAttr(name);
    if (attr == nullptr) continue;
    const std::string type = attr->type;
    // Copies, not the structured bindings: C++17 lambdas cannot capture those.
    const auto wrong = [&, key = name, text = value.dump()] {
      return "attr '" + key + "' (" + type + ") cannot be " + text;
    };
    if (type == "int" && value.is_number_integer()) {
      attrs[name] = {{"i", value}};
    } else if (type == "float" && value.is_number()) {
      attrs[name] = {{"f", value.get<double>()}};
    } else if (type == "bool" && value.is_boolean()) {
      attrs[name] = {{"b", value}};
    } else if (type == "string" && value.is_string()) {
      attrs[name] = {{"s", value}};
    } else if (type == "type" && value.is_string()) {
      const auto dtype = DtypeFromName(value.get<std::string>());
      if (!dtype) return wrong();
      attrs[name] = {{"type", static_cast<int>(*dtype)}};
    } else if (type == "list(int)" && value.is_array()) {
      for (const json& item : value)
        if (!item.is_number_integer()) return wrong();
      attrs[name] = {{"list_i", value}};
    } else if (type == "shape" && value.is_array()) {
      // A fully known shape (ParallelConcat's output): dimensions of zero or more.
      for (const json& item : value)
        if (!item.is_number_integer() || item.get<std::int64_t>() < 0) return wrong();
      attrs[name] = {{"shape", value}};
    } else if (type == "list(float)" && value.is_array()) {
      attrs[name] = {{"list_f", value}};
    } else if (type == "list(string)" && value.is_array()) {
      attrs[name] = {{"list_s", value}};
    } else if (type == "list(type)" && value.is_array()) {
      json types = json::array();
      for (const json& item : value) {
        if (!item.is_string()) return wrong();
        const std::string text = item.get<std::string>();
        const auto named = cell_types.find(text);
        const std::optional<TF_DataType> dtype = named != cell_types.end()
                                                     ? std::optional<TF_DataType>(named->second)
                                                     : DtypeFromName(text);
        if (!dtype) return wrong();
        types.push_back(static_cast<int>(*dtype));
      }
      attrs[name] = {{"list_type", types}};
    } else {
      return wrong();
    }
  }
  return attrs;
}

std::variant<json, std::string, std::nullopt_t> FamilyTensorAttrs(
    const FamilyCase& family_case, const ops::OpDef& def, TF_DataType dtype,
    const std::function<std::uint64_t(std::size_t)>& seed_of) {
  // The attrs are made as inputs of the cell's dtype: one case whose inputs they are.
  FamilyCase as_inputs;
  as_inputs.variant = family_case.variant;
  std::vector<std::pair<std::string, TF_DataType>> names;
  for (const auto& [name, tensor] : family_case.tensor_attrs) {
    const ops::AttrDef* attr = def.FindAttr(name);
    if (attr == nullptr || attr->type != "tensor")
      return "attr '" + name + "' is not a tensor attr of " + def.name;
    as_inputs.inputs[name] = tensor;
    names.emplace_back(name, dtype);
  }
  auto tensors = FamilyCaseInputs(as_inputs, names, seed_of);
  if (std::holds_alternative<std::nullopt_t>(tensors)) return std::nullopt;
  if (const auto* why = std::get_if<std::string>(&tensors)) return *why;
  json attrs = json::object();
  const auto& made = std::get<std::vector<HostTensor>>(tensors);
  for (std::size_t i = 0; i < names.size(); ++i)
    attrs[names[i].first] = {{"tensor", TensorJson(made[i])}};
  return attrs;
}

}  // namespace conformance::kernels
