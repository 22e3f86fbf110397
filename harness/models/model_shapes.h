#pragma once
// The shapes of a model's tensors, followed from its inputs and variables through the ops whose
// output shapes follow from their inputs' (element-wise, broadcasting, MatMul, BiasAdd, ...),
// and the nodes whose input shapes TensorFlow's shape functions refuse: a MatMul of [8,16] by
// [8,16] is the model's mistake, reported at file:line:col like any other, not a kernel failure
// blamed on the plugin (which the reference plugin would fail too). A tensor of an op not
// followed here has an unknown shape, and nodes reading it are not checked.
#include "models/model_scenario.h"
#include "scenario/scenario_error.h"

namespace conformance::models {

// Adds one error per node TensorFlow's shape function would refuse; false when there was any.
bool CheckModelShapes(const ModelScenario& model, scenario::ErrorList& errors);

}  // namespace conformance::models
