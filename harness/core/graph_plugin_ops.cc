#include "core/graph_plugin_ops.h"

#include <string>
#include <string_view>

#include "core/datatype.h"
#include "core/op_registry.h"
#include "core/shape_inference.h"

namespace conformance::core {
namespace {

std::string_view Trim(std::string_view text) {
  const size_t first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

// The type expression of "name: type" ("T", "float", "N*T", "Ref(T)", ...).
std::string_view TypeExpr(std::string_view spec) {
  const size_t colon = spec.find(':');
  return colon == std::string_view::npos ? std::string_view() : Trim(spec.substr(colon + 1));
}

std::optional<TF_DataType> DataTypeNamed(std::string_view name) {
  for (int value = 1; value < 64; ++value) {
    if (IsDeclaredDataType(value) && DataTypeName(static_cast<TF_DataType>(value)) == name) {
      return static_cast<TF_DataType>(value);
    }
  }
  return std::nullopt;
}

// The dtype of one output: the node's type attr the spec names, or the type the spec spells;
// nullopt for list outputs, whose count the spec alone does not give.
std::optional<TF_DataType> OutputType(const GraphNodeDef& node, std::string_view spec) {
  const std::string_view expr = TypeExpr(spec);
  if (expr.empty() || expr.find('*') != std::string_view::npos) return std::nullopt;
  if (const auto attr = node.TypeAttr(expr)) return attr;
  if (const auto named = DataTypeNamed(expr)) return named;
  // An attr the node does not set as a type (a list(type) attr, or missing): not countable.
  return std::nullopt;
}

// The node's type-valued attrs, for TF_ShapeInferenceContext_GetAttrType.
AttrMap TypeAttrs(const GraphNodeDef& node) {
  AttrMap attrs;
  for (const auto& [name, value] : node.attrs) {
    if (const auto type = node.TypeAttr(name)) attrs[name] = *type;
  }
  return attrs;
}

}  // namespace

std::optional<std::vector<TensorProperties>> PluginOpOutputs(
    const GraphNodeDef& node, const std::vector<TensorProperties>& inputs) {
  const auto definition = FindOpDefinition(node.op);
  if (!definition || definition->shape_inference == nullptr) return std::nullopt;
  std::vector<TensorProperties> outputs;
  for (const std::string& spec : definition->registration.outputs) {
    const auto dtype = OutputType(node, spec);
    if (!dtype) return std::nullopt;
    outputs.push_back(TensorProperties{*dtype, PartialShape::Unknown(), std::nullopt});
  }
  std::vector<PartialShape> input_shapes;
  input_shapes.reserve(inputs.size());
  for (const auto& input : inputs) input_shapes.push_back(input.shape);
  InferenceContext context(node.name, std::move(input_shapes), static_cast<int>(outputs.size()),
                           TypeAttrs(node));
  // A failing shape function leaves every output unknown (simplification, README).
  if (!context.Run(definition->shape_inference).ok()) return outputs;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (const auto& shape = context.output(static_cast<int>(i))) outputs[i].shape = *shape;
  }
  return outputs;
}

}  // namespace conformance::core
