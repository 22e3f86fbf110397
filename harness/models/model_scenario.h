#pragma once
// A model scenario as written in its YAML file (specs/scenarios/models.md): a small graph of
// catalogue ops over named tensors, run node by node on the plugin's device. Inputs are filled
// with seeded values (as kernel scenario inputs are), every node's outputs stay on the device
// and feed later nodes, and the model's outputs are read back only at the end of each step.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/attributes.h"
#include "core/tensor.h"
#include "kernels/kernel_scenario.h"
#include "scenario/scenario.h"
#include "tensorflow/c/tf_datatype.h"

namespace conformance::models {

using scenario::Location;

struct ModelInput {
  std::string name;                  // the tensor's name
  std::optional<TF_DataType> dtype;  // default: the model's dtype
  core::Shape shape;
  kernels::InputFill fill;  // random or values, as in kernel scenarios
  Location at;
};

struct ModelNode {
  std::string name;
  std::string op;
  std::vector<std::string> inputs;   // tensor names, in the op's input order
  std::vector<std::string> outputs;  // tensor names, in the op's output order
  core::AttrMap attrs;               // besides the type attr, which the model's dtype sets
  std::string type_attr = "T";
  Location at;                                // of its `op:` value
  std::vector<Location> input_at, output_at;  // of each tensor name
  Location type_attr_at;                      // of `type_attr:`, or of `op:` when defaulted
  std::map<std::string, Location> attr_at;    // of each attr's name in `attrs:`
};

struct ModelScenario {
  std::string name;  // [a-z0-9_]+, unique over all files
  std::string rule, tensorflow, fix;
  std::vector<TF_DataType> dtypes;
  // Steps run with the same kernel instances, each with its own input values, as TensorFlow's
  // executor reuses a node's kernel and (through its allocator) the buffers of earlier steps.
  int steps = 2;
  std::vector<ModelInput> inputs;
  // Resource variables (TensorFlow's VarHandleOp + AssignVariableOp before the first step):
  // seeded once like inputs, kept on the device over every step. A node input naming one is
  // its handle where the op takes a DT_RESOURCE argument (ResourceApplyGradientDescent's
  // `var`) and its current value anywhere else (ReadVariableOp at the start of the step, or
  // again before the first node naming it after a node of the step updated it); a model output
  // naming one reads the variable's value after the step.
  std::vector<ModelInput> variables;
  std::vector<ModelNode> nodes;
  std::vector<std::string> outputs;  // tensor names read back after every step
  // Per dtype; compared on every output. They compose over the chain: a model's tolerance is
  // that of its least precise op times the depth of the chain, stated in the file.
  std::map<TF_DataType, kernels::Tolerance> tolerances;
  std::string file;
  Location at;  // of its `name:` value

  kernels::Tolerance ToleranceFor(TF_DataType dtype) const;
  // The ops of its nodes, each once, in node order.
  std::vector<std::string> Ops() const;
  const ModelInput* FindVariable(const std::string& name) const;
};

// "model.<name>.<dtype>": the model's outputs agree with the reference plugin's, every step.
std::string ModelCheckId(const std::string& model, TF_DataType dtype);

}  // namespace conformance::models
