#pragma once
// load.graph.optimizer.lifecycle, judged on what the optimizer's create_func hands out.
// TensorFlow builds one plugin optimizer per graph optimization: it calls create_func when set
// (else the instance is NULL), runs optimize_func, then calls destroy_func on the instance when
// set. A NULL destroy_func therefore leaks only a create_func that returns a new object each
// time; one that returns NULL, or the same object every time (a static, a registry handle),
// leaves nothing behind (mock_plugin/optimizer_null_destroy_func: TensorFlow 2.21.0 and 2.15.1
// ran it correctly in 5 of 5 runs).
#include "validate/check_log.h"

namespace conformance::validate {

// What create_func handed out in a few calls, as TensorFlow makes them.
struct OptimizerInstances {
  int calls = 0;
  int distinct_non_null = 0;  // instances neither NULL nor equal to an earlier one
};

// Calls create_func `calls` times (never destroying: the probe runs in the load tier's child).
OptimizerInstances ProbeCreateFunc(void* (*create_func)(), int calls);

// Judges load.graph.optimizer.lifecycle from the two callbacks and, when only create_func is
// set, from what it hands out.
void JudgeOptimizerLifecycle(CheckLog& log, void* (*create_func)(), void (*destroy_func)(void*));

}  // namespace conformance::validate
