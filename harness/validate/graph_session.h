#pragma once
// The graph tier: the plugin's optimizer driven the way TensorFlow's grappler drives a plugin
// optimizer (create_func, optimize_func on a serialized GraphDef with its GrapplerItem,
// destroy_func with create_func's result), on small graphs, after TF_InitGraph registered.
#include "model/test_unit.h"

namespace conformance::validate {

TestUnit GraphOptimizerUnit();

}  // namespace conformance::validate
