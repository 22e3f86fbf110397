#include "kernels/case_json.h"

#include <variant>

#include "kernels/case_builder.h"
#include "kernels/dtype_values.h"
#include "kernels/string_values.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

}  // namespace

json AttrJson(const core::AttrValue& value) {
  if (const auto* s = std::get_if<std::string>(&value)) return {{"s", *s}};
  if (const auto* i = std::get_if<std::int64_t>(&value)) return {{"i", *i}};
  if (const auto* f = std::get_if<float>(&value)) return {{"f", *f}};
  if (const auto* b = std::get_if<bool>(&value)) return {{"b", *b}};
  if (const auto* t = std::get_if<TF_DataType>(&value)) return {{"type", static_cast<int>(*t)}};
  // A shape of known rank (ParallelConcat's); an unknown rank has no case that needs it.
  if (const auto* shape = std::get_if<core::PartialShape>(&value); shape && !shape->unknown_rank)
    return {{"shape", shape->dims}};
  if (const auto* tensor = std::get_if<core::Tensor>(&value);
      tensor && tensor->dtype() != TF_STRING) {
    // A tensor attr (Const's value): its bytes, as an input's.
    const auto* data = static_cast<const std::uint8_t*>(tensor->data());
    return {{"tensor",
             TensorJson(HostTensor{tensor->dtype(), tensor->shape(),
                                   std::vector<std::uint8_t>(data, data + tensor->ByteSize())})}};
  }
  if (const auto* list = std::get_if<core::AttrList>(&value)) {
    if (!list->i.empty()) return {{"list_i", list->i}};
    if (!list->s.empty()) return {{"list_s", list->s}};
    if (!list->f.empty()) return {{"list_f", list->f}};
    if (!list->type.empty()) {  // a type list (_FusedConv2D's TArgs), as enum values
      json types = json::array();
      for (TF_DataType type : list->type) types.push_back(static_cast<int>(type));
      return {{"list_type", types}};
    }
    return {{"list_i", json::array()}};
  }
  return {{"unsupported", value.index()}};
}

// Tensors travel as hex of their dense bytes: exact for every dtype, NaN payloads included.
std::string Hex(const std::vector<std::uint8_t>& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  text.reserve(bytes.size() * 2);
  for (std::uint8_t byte : bytes) {
    text.push_back(kDigits[byte >> 4]);
    text.push_back(kDigits[byte & 15]);
  }
  return text;
}

json TensorJson(const HostTensor& tensor) {
  // A string tensor's bytes are pointers: its elements travel instead, each as hex.
  if (tensor.dtype == TF_STRING)
    return {{"dtype", DtypeName(tensor.dtype)},
            {"shape", tensor.shape},
            {"strings", StringsJson(tensor)}};
  return {{"dtype", DtypeName(tensor.dtype)}, {"shape", tensor.shape}, {"hex", Hex(tensor.bytes)}};
}

namespace {

json ToleranceJson(const Tolerance& tolerance) {
  return {{"rtol", tolerance.rtol}, {"atol", tolerance.atol}, {"ulp", tolerance.ulp}};
}

json ExpectJson(const KernelScenario& scenario, TF_DataType dtype) {
  switch (scenario.expect.kind) {
    case Expectation::Kind::kReference: return {{"kind", "reference"}};
    case Expectation::Kind::kError:
      return {{"kind", "error"}, {"code", static_cast<int>(scenario.expect.error)}};
    case Expectation::Kind::kValues: {
      json outputs = json::array();
      for (const auto& tensor : LiteralOutputs(scenario, dtype))
        outputs.push_back(TensorJson(tensor));
      return {{"kind", "values"}, {"outputs", outputs}};
    }
  }
  return {};
}

}  // namespace

json CaseJson(const KernelScenario& scenario, TF_DataType dtype, std::size_t shape,
              std::uint64_t seed) {
  const CaseSpec spec = BuildCase(scenario, dtype, shape, seed);
  json attrs = json::object();
  for (const auto& [name, value] : spec.attrs) attrs[name] = AttrJson(value);
  json inputs = json::array();
  for (const auto& input : spec.inputs) {
    json tensor = TensorJson(input.value);
    tensor["name"] = input.name;
    if (input.variable) tensor["variable"] = true;  // a resource variable holding this value
    inputs.push_back(std::move(tensor));
  }
  json outputs = json::array();
  for (const auto& output : spec.outputs) {
    json entry = {{"name", output.name}, {"dtype", DtypeName(output.dtype)}};
    if (output.variable) entry["variable"] = true;  // the variable input's value after compute
    outputs.push_back(std::move(entry));
  }
  return {{"id", KernelCaseId(scenario.op, dtype, scenario.name)},
          {"op", scenario.op},
          {"scenario", scenario.name},
          {"dtype", DtypeName(dtype)},
          {"type_attr", scenario.type_attr},
          {"shape_index", shape},
          {"attrs", attrs},
          {"inputs", inputs},
          {"outputs", outputs},
          {"tolerance", ToleranceJson(scenario.ToleranceFor(dtype))},
          {"expect", ExpectJson(scenario, dtype)}};
}

json CasesJson(const std::vector<KernelScenario>& scenarios, std::uint64_t seed) {
  json cases = json::array();
  for (const auto& scenario : scenarios) {
    for (TF_DataType dtype : scenario.dtypes) {
      for (std::size_t shape = 0; shape < scenario.shapes.size(); ++shape) {
        cases.push_back(CaseJson(scenario, dtype, shape, seed));
      }
    }
  }
  return {{"seed", seed}, {"cases", cases}};
}

}  // namespace conformance::kernels
