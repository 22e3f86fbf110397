#pragma once
// The graph optimizer TF_InitGraph registers for REFDEV: Identity-chain folding
// (identity_folding.h) behind TensorFlow's create/optimize/destroy callbacks.
#include "stream_executor/status.h"
#include "tensorflow/c/experimental/grappler/grappler.h"

namespace reference_plugin::graph {

// Fills the optimizer, its configs and the device type. Writes nothing on failure.
Status register_optimizer(TP_OptimizerRegistrationParams* params);

}  // namespace reference_plugin::graph
