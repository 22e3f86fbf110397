#include "kernels/case_builder.h"

#include <variant>

#include "ops/catalogue.h"

namespace conformance::kernels {

core::AttrMap CaseAttrs(const KernelScenario& scenario, TF_DataType dtype) {
  core::AttrMap attrs(scenario.attrs.begin(), scenario.attrs.end());
  attrs[scenario.type_attr] = dtype;
  // TensorFlow adds the op definition's defaults to the NodeDef before it builds the kernel,
  // so a kernel may read any attr that has a default.
  const ops::OpDef* op =
      scenario.definition != nullptr ? scenario.definition : ops::FindOp(scenario.op);
  if (op != nullptr) {
    for (const ops::AttrDef& attr : op->attrs) {
      if (std::holds_alternative<core::AttrNotSet>(attr.default_value)) continue;
      attrs.try_emplace(attr.name, attr.default_value);
    }
  }
  return attrs;
}

CaseSpec BuildCase(const KernelScenario& scenario, TF_DataType dtype, std::size_t shape_index,
                   std::uint64_t seed) {
  CaseSpec spec;
  spec.op = scenario.op;
  spec.attrs = CaseAttrs(scenario, dtype);
  const std::string id = KernelCaseId(scenario.op, dtype, scenario.name);
  const auto& shapes = scenario.shapes.at(shape_index);
  for (std::size_t i = 0; i < scenario.inputs.size(); ++i) {
    const InputSpec& input = scenario.inputs[i];
    const TF_DataType input_dtype = input.dtype.value_or(dtype);
    const std::uint64_t input_seed = InputSeed(seed, id, shape_index, i, input.fill.seed_offset);
    spec.inputs.push_back(
        {input.name, MakeInput(input.fill, input_dtype, shapes[i], input_seed), input.variable});
  }
  for (const OutputSpec& output : scenario.outputs) {
    const InputSpec* variable = scenario.FindVariable(output.name);
    const TF_DataType output_dtype =
        variable != nullptr ? variable->dtype.value_or(dtype) : output.dtype.value_or(dtype);
    spec.outputs.push_back({output.name, output_dtype, variable != nullptr});
  }
  return spec;
}

std::vector<HostTensor> LiteralOutputs(const KernelScenario& scenario, TF_DataType dtype) {
  std::vector<HostTensor> outputs;
  for (std::size_t i = 0; i < scenario.expect.outputs.size() && i < scenario.outputs.size(); ++i) {
    const ExpectedOutput& expected = scenario.expect.outputs[i];
    outputs.push_back(
        MakeLiteral(expected.values, scenario.outputs[i].dtype.value_or(dtype), expected.shape));
  }
  return outputs;
}

}  // namespace conformance::kernels
