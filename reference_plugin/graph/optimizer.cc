#include "graph/optimizer.h"

#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "graph/identity_folding.h"
#include "graph/static_shapes.h"
#include "stream_executor/platform.h"
#include "tensorflow/c/tf_buffer.h"

namespace reference_plugin::graph {
namespace {

// What one grappler instantiation of the optimizer keeps: how much it did, for debugging.
struct OptimizerState {
  long graphs = 0;
  long folded = 0;
};

class ScopedTfStatus {
 public:
  ScopedTfStatus() : status_(TF_NewStatus()) {}
  ~ScopedTfStatus() { TF_DeleteStatus(status_); }
  TF_Status* get() const { return status_; }
  Status to_status() const { return status_from_tf(status_); }

 private:
  TF_Status* status_;
};

// The names TensorFlow must find in the optimized graph (fetch, feed, init and keep nodes).
Status nodes_to_preserve(const TF_GrapplerItem* item, std::set<std::string>* names) {
  ScopedTfStatus status;
  int count = 0;
  std::size_t storage_size = 0;
  TF_GetNodesToPreserveListSize(item, &count, &storage_size, status.get());
  REFERENCE_RETURN_IF_ERROR(status.to_status());
  std::vector<char*> values(static_cast<std::size_t>(count));
  std::vector<std::size_t> lengths(static_cast<std::size_t>(count));
  std::vector<char> storage(storage_size);
  TF_GetNodesToPreserveList(item, values.data(), lengths.data(), count, storage.data(),
                            storage_size, status.get());
  REFERENCE_RETURN_IF_ERROR(status.to_status());
  for (int i = 0; i < count; ++i) names->emplace(values[i], lengths[i]);
  return Status();
}

void free_graph(void* data, std::size_t) { std::free(data); }

// The output buffer owns a malloc'ed copy; TensorFlow's TF_DeleteBuffer frees it through
// data_deallocator.
Status hand_over(const std::string& graph, TF_Buffer* out) {
  void* data = std::malloc(graph.empty() ? 1 : graph.size());
  if (data == nullptr) return resource_exhausted("reference optimizer: out of host memory");
  // NOLINTNEXTLINE(bugprone-not-null-terminated-result): serialized bytes with a length, no NUL
  std::memcpy(data, graph.data(), graph.size());
  out->data = data;
  out->length = graph.size();
  out->data_deallocator = free_graph;
  return Status();
}

void* create_optimizer() { return new (std::nothrow) OptimizerState(); }

void destroy_optimizer(void* optimizer) { delete static_cast<OptimizerState*>(optimizer); }

void optimize(void* optimizer, const TF_Buffer* graph_in, const TF_GrapplerItem* item,
              TF_Buffer* graph_out, TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    std::set<std::string> preserve;
    REFERENCE_RETURN_IF_ERROR(nodes_to_preserve(item, &preserve));
    const std::string_view input(static_cast<const char*>(graph_in->data), graph_in->length);
    // An Identity is folded only where TensorFlow's static inference proves its output is its
    // input (same dtype and shape); where inference fails nothing is proven, nothing folded.
    const StaticShapes shapes(item);
    FoldResult result;
    REFERENCE_RETURN_IF_ERROR(fold_identity_chains(
        input, preserve, &result,
        [&](const std::string& identity) { return shapes.output_matches_input(identity); }));
    REFERENCE_RETURN_IF_ERROR(hand_over(result.graph, graph_out));
    if (auto* state = static_cast<OptimizerState*>(optimizer)) {
      state->graphs += 1;
      state->folded += result.folded;
    }
    return Status();
  });
}

}  // namespace

Status register_optimizer(TP_OptimizerRegistrationParams* params) {
  if (params->major_version != GO_MAJOR) {
    return failed_precondition("reference plugin: graph optimizer API major version ",
                               params->major_version, " is not ", GO_MAJOR);
  }
  // A string literal: TensorFlow re-reads this pointer every time it instantiates the optimizer.
  params->device_type = kDeviceType;
  // Every toggle left at TF_TriState_Default: TensorFlow keeps its own optimizers on.
  params->optimizer_configs->struct_size = TP_OPTIMIZER_CONFIGS_STRUCT_SIZE;
  TP_Optimizer* optimizer = params->optimizer;
  optimizer->struct_size = TP_OPTIMIZER_STRUCT_SIZE;
  optimizer->create_func = create_optimizer;
  optimizer->optimize_func = optimize;
  optimizer->destroy_func = destroy_optimizer;
  return Status();
}

}  // namespace reference_plugin::graph
