// The plugin's own op definitions (ops.h): load.kernels.op_definitions and
// load.kernels.shape_functions. Declared in kernel_registrations.h.
#include <algorithm>

#include "core/op_registry.h"
#include "core/shape_inference.h"
#include "isolate/in_flight.h"
#include "ops/op_builder.h"
#include "validate/kernel_registrations.h"

namespace conformance::validate {
namespace {

std::string Contains(const std::vector<std::string>& specs, const std::string& spec,
                     const char* kind) {
  return std::find(specs.begin(), specs.end(), spec) != specs.end() ? kind : "";
}

// TensorFlow's text for a builder error: "<message> from Attr("<spec>") for Op <name>".
std::string TensorFlowText(const core::OpRegistration& op, const ops::SpecError& error) {
  std::string kind = Contains(op.attrs, error.spec, "Attr");
  if (kind.empty()) kind = Contains(op.inputs, error.spec, "Input");
  if (kind.empty()) kind = Contains(op.outputs, error.spec, "Output");
  if (kind.empty()) return error.message;  // about the op name itself
  return error.message + " from " + kind + "(\"" + error.spec + "\") for Op " + op.name;
}

void CheckOpDefinitions(const std::vector<core::OpRegistration>& plugin_ops, CheckLog& log) {
  std::string messages, columns;
  for (const auto& op : plugin_ops) {
    const ops::OpBuild build = ops::BuildFromRegistration(op);
    for (const auto& error : build.tensorflow_errors)
      messages += (messages.empty() ? "" : "\n") + TensorFlowText(op, error);
    for (const auto& error : build.errors)
      columns += (columns.empty() ? "" : "; ") + op.name + ": " + ops::ToString(error);
  }
  if (messages.empty()) {
    log.Pass("load.kernels.op_definitions", {{"ops_defined", std::to_string(plugin_ops.size())}});
    return;
  }
  // TensorFlow registers the op right away (its registry is initialized by then), and a builder
  // error there aborts the process with the builder's INVALID_ARGUMENT status.
  log.Fail("load.kernels.op_definitions", messages, TF_INVALID_ARGUMENT,
           {{"failing_call", "TF_RegisterOpDefinition"},
            {"problem", "op definition does not parse"},
            {"where", columns}});
}

// How many tensors an argument stands for in the probe: its length attr's default or minimum.
int ArgCount(const ops::OpDef& op, const ops::ArgDef& arg) {
  const std::string& length_attr = !arg.number_attr.empty() ? arg.number_attr : arg.type_list_attr;
  if (length_attr.empty()) return 1;
  const ops::AttrDef* attr = op.FindAttr(length_attr);
  if (attr == nullptr) return 1;
  if (const auto* value = std::get_if<int64_t>(&attr->default_value))
    return static_cast<int>(std::max<int64_t>(*value, 1));
  if (const auto* list = std::get_if<core::AttrList>(&attr->default_value);
      list && !list->type.empty()) {
    return static_cast<int>(list->type.size());
  }
  return static_cast<int>(std::max<int64_t>(attr->minimum.value_or(1), 1));
}

int TotalCount(const ops::OpDef& op, const std::vector<ops::ArgDef>& args) {
  int total = 0;
  for (const auto& arg : args) total += ArgCount(op, arg);
  return total;
}

// Attr values a node of the op could have: defaults, else the first allowed value.
core::AttrMap ProbeAttrs(const ops::OpDef& op) {
  core::AttrMap attrs;
  for (const auto& attr : op.attrs) {
    if (!std::holds_alternative<core::AttrNotSet>(attr.default_value)) {
      attrs[attr.name] = attr.default_value;
      continue;
    }
    const std::string element = attr.element_type();
    const TF_DataType dtype = attr.allowed_types.empty() ? TF_FLOAT : attr.allowed_types.front();
    if (attr.is_list()) {
      core::AttrList list;
      const auto length = static_cast<std::size_t>(std::max<int64_t>(attr.minimum.value_or(0), 0));
      if (element == "type") list.type.assign(std::max<std::size_t>(length, 1), dtype);
      if (element == "int") list.i.assign(length, 1);
      attrs[attr.name] = list;
    } else if (element == "type") {
      attrs[attr.name] = dtype;
    } else if (element == "int") {
      attrs[attr.name] = static_cast<int64_t>(std::max<int64_t>(attr.minimum.value_or(1), 1));
    } else if (element == "float") {
      attrs[attr.name] = 0.0f;
    } else if (element == "bool") {
      attrs[attr.name] = false;
    } else if (element == "string") {
      attrs[attr.name] =
          attr.allowed_strings.empty() ? std::string() : attr.allowed_strings.front();
    }
  }
  return attrs;
}

struct Probe {
  const char* name;
  core::PartialShape shape;
  // Inputs of unknown rank are what TensorFlow's graph construction passes for every tensor it
  // knows nothing about, so an error there breaks graphs; a known rank may legitimately be
  // rejected, and is run only to catch crashes.
  bool must_succeed;
};

void CheckShapeFunctions(const std::vector<core::OpRegistration>& plugin_ops, CheckLog& log) {
  const std::vector<Probe> probes = {{"unknown rank", core::PartialShape::Unknown(), true},
                                     {"[?,?]", core::PartialShape::Of({-1, -1}), false},
                                     {"[2,3]", core::PartialShape::Of({2, 3}), false}};
  std::string failures;
  int functions = 0;
  log.Begin("load.kernels.shape_functions");
  for (const auto& registration : plugin_ops) {
    const auto definition = core::FindOpDefinition(registration.name);
    if (!definition || definition->shape_inference == nullptr) continue;
    const ops::OpBuild build = ops::BuildFromRegistration(registration);
    if (!build.ok()) continue;  // load.kernels.op_definitions reports it; no node can exist
    ++functions;
    const ops::OpDef& op = build.op;
    for (const Probe& probe : probes) {
      core::InferenceContext context(
          op.name, std::vector<core::PartialShape>(TotalCount(op, op.inputs), probe.shape),
          TotalCount(op, op.outputs), ProbeAttrs(op));
      core::Status status;
      {
        in_flight::PluginCall call("shape function of " + op.name);
        status = context.Run(definition->shape_inference);
      }
      if (status.ok() || !probe.must_succeed) continue;
      failures += (failures.empty() ? "" : "; ") + op.name + " with inputs of " + probe.name +
                  ": " + status.message;
    }
  }
  if (functions == 0) {
    log.NotSupported("load.kernels.shape_functions",
                     "the plugin sets no shape function through ops.h");
  } else if (!failures.empty()) {
    log.Fail(
        "load.kernels.shape_functions",
        "shape functions that fail on inputs of unknown shape (TensorFlow cannot build a graph "
        "with such a node): " +
            failures,
        std::nullopt,
        {{"failing_call", "TF_OpDefinitionBuilderSetShapeInferenceFunction"},
         {"problem", "shape function fails on unknown shapes"}});
  } else {
    log.Pass("load.kernels.shape_functions", {{"shape_functions", std::to_string(functions)}});
  }
}

}  // namespace

std::vector<std::string> PluginOpCheckIds() {
  return {"load.kernels.op_definitions", "load.kernels.shape_functions"};
}

void CheckPluginOps(const PluginRegistrations& registered, CheckLog& log) {
  if (registered.ops.empty()) {
    for (const auto& id : PluginOpCheckIds())
      log.NotSupported(id, "the plugin defines no op through ops.h");
    return;
  }
  CheckOpDefinitions(registered.ops, log);
  CheckShapeFunctions(registered.ops, log);
}

}  // namespace conformance::validate
