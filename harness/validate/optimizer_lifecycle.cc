#include "validate/optimizer_lifecycle.h"

#include <set>
#include <string>

#include "isolate/in_flight.h"

namespace conformance::validate {
namespace {

constexpr const char* kId = "load.graph.optimizer.lifecycle";
// Enough graph optimizations to tell "a new object per call" from "one shared object".
constexpr int kProbeCalls = 4;

}  // namespace

OptimizerInstances ProbeCreateFunc(void* (*create_func)(), int calls) {
  OptimizerInstances seen;
  std::set<void*> instances;
  for (int i = 0; i < calls; ++i) {
    void* instance = nullptr;
    {
      in_flight::PluginCall call("TP_Optimizer.create_func");
      instance = create_func();
    }
    ++seen.calls;
    if (instance != nullptr && instances.insert(instance).second) ++seen.distinct_non_null;
  }
  return seen;
}

void JudgeOptimizerLifecycle(CheckLog& log, void* (*create_func)(), void (*destroy_func)(void*)) {
  log.Begin(kId);
  if ((create_func == nullptr) == (destroy_func == nullptr)) {
    log.Pass(kId);
    return;
  }
  if (create_func == nullptr) {
    log.Warn(kId,
             "destroy_func is set but create_func is not: TensorFlow passes destroy_func a NULL "
             "instance after every graph optimization, so it must accept NULL",
             {{"failing_call", "TP_Optimizer.destroy_func"}});
    return;
  }
  const OptimizerInstances seen = ProbeCreateFunc(create_func, kProbeCalls);
  const std::string counts = std::to_string(seen.distinct_non_null) + " distinct instances in " +
                             std::to_string(seen.calls) + " create_func calls";
  const Details details = {{"failing_call", "TP_Optimizer.destroy_func"},
                           {"problem", "optimizer instances never destroyed"},
                           {"create_func_calls", std::to_string(seen.calls)},
                           {"distinct_instances", std::to_string(seen.distinct_non_null)}};
  if (seen.distinct_non_null > 1) {
    log.Fail(kId,
             "create_func is set but destroy_func is not, and create_func returned " + counts +
                 ": TensorFlow creates one optimizer per graph optimization and, with no "
                 "destroy_func, never frees it, so every tf.function trace and session graph "
                 "leaks one",
             std::nullopt, details);
    return;
  }
  log.Pass(kId, {{"create_func_calls", std::to_string(seen.calls)},
                 {"distinct_instances", std::to_string(seen.distinct_non_null)},
                 {"note", "destroy_func is NULL, but create_func returned " + counts +
                              " (NULL or one shared object): nothing per optimization to free"}});
}

}  // namespace conformance::validate
