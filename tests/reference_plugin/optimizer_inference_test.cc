// The reference optimizer through its exported TF_InitGraph, on GrapplerItems of the mock
// core: it folds an Identity only where TF_InferStatically proves the Identity's output equals
// its input, so these tests exercise the core's static inference from a plugin.
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "core/grappler_item.h"
#include "graph.pb.h"
#include "plugin_test_support.h"
#include "tensorflow/c/experimental/grappler/grappler.h"
#include "tensorflow/c/tf_buffer.h"

namespace reference_plugin_test {
namespace {

using conformance::proto::GraphDef;
using conformance::proto::NodeDef;
using InitGraphFn = void (*)(TP_OptimizerRegistrationParams*, TF_Status*);

NodeDef* AddNode(GraphDef& graph, const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs, const char* type_attr = "T") {
  NodeDef* node = graph.add_node();
  node->set_name(name);
  node->set_op(op);
  node->set_device("/device:REFDEV:0");
  for (const auto& input : inputs) node->add_input(input);
  (*node->mutable_attr())[type_attr].set_type(TF_FLOAT);
  return node;
}

class OptimizerInferenceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto init = reinterpret_cast<InitGraphFn>(plugin_symbol("TF_InitGraph"));
    ASSERT_NE(init, nullptr);
    params_.struct_size = TP_OPTIMIZER_REGISTRATION_PARAMS_STRUCT_SIZE;
    params_.major_version = GO_MAJOR;
    params_.optimizer_configs = &configs_;
    params_.optimizer = &optimizer_;
    init(&params_, status_);
    ASSERT_TRUE(status_.ok()) << describe(status_);
    state_ = optimizer_.create_func();
  }
  void TearDown() override { optimizer_.destroy_func(state_); }

  // Optimizes `graph` (fetching `fetch`) and returns the result parsed.
  GraphDef Optimize(const GraphDef& graph, const std::string& fetch) {
    conformance::core::GrapplerItem item;
    item.serialized_graph_def = graph.SerializeAsString();
    item.fetch = {fetch};
    TF_Buffer* in =
        TF_NewBufferFromString(item.serialized_graph_def.data(), item.serialized_graph_def.size());
    TF_Buffer* out = TF_NewBuffer();
    status_.poison();
    optimizer_.optimize_func(state_, in, item.c_handle(), out, status_);
    EXPECT_TRUE(status_.ok()) << describe(status_);
    GraphDef result;
    EXPECT_TRUE(result.ParseFromArray(out->data, static_cast<int>(out->length)));
    TF_DeleteBuffer(out);
    TF_DeleteBuffer(in);
    return result;
  }

  static bool Has(const GraphDef& graph, const std::string& name) {
    for (const auto& node : graph.node()) {
      if (node.name() == name) return true;
    }
    return false;
  }

  TP_OptimizerRegistrationParams params_{};
  TP_OptimizerConfigs configs_{};
  TP_Optimizer optimizer_{};
  void* state_ = nullptr;
  TfStatus status_;
};

TEST_F(OptimizerInferenceTest, FoldsIdentitiesInferenceProvesTransparent) {
  GraphDef graph;
  AddNode(graph, "x", "Placeholder", {}, "dtype");
  AddNode(graph, "id", "Identity", {"x"});
  AddNode(graph, "y", "Relu", {"id"});
  const GraphDef out = Optimize(graph, "y");
  EXPECT_FALSE(Has(out, "id"));
  EXPECT_EQ(out.node(1).input(0), "x");
}

// The `_output_shapes` hint gives the Identity an output shape its (unknown) input does not
// have: inference cannot prove the two equal, so the Identity stays.
TEST_F(OptimizerInferenceTest, KeepsAnIdentityInferenceCannotProve) {
  GraphDef graph;
  AddNode(graph, "x", "Placeholder", {}, "dtype");
  NodeDef* id = AddNode(graph, "id", "Identity", {"x"});
  auto* hint = (*id->mutable_attr())["_output_shapes"].mutable_list()->add_shape();
  hint->add_dim()->set_size(2);
  AddNode(graph, "y", "Relu", {"id"});
  EXPECT_TRUE(Has(Optimize(graph, "y"), "id"));
}

// A graph inference rejects (a cycle): nothing is proven, nothing folded, no error.
TEST_F(OptimizerInferenceTest, FoldsNothingWhenInferenceFails) {
  GraphDef graph;
  AddNode(graph, "x", "Placeholder", {}, "dtype");
  AddNode(graph, "id", "Identity", {"x"});
  AddNode(graph, "a", "AddV2", {"id", "b"});
  AddNode(graph, "b", "Relu", {"a"});
  EXPECT_TRUE(Has(Optimize(graph, "b"), "id"));
}

}  // namespace
}  // namespace reference_plugin_test
