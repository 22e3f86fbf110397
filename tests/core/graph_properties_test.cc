// TF_InferStatically and the properties getters over small GraphDefs written and read with
// real protobuf (specs/proto/graph.proto): the core's wire-level reader and writer must agree
// with protobuf's, and the inferred shapes must be TensorFlow's.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/grappler_item.h"
#include "graph.pb.h"
#include "recorder_fixture.h"
#include "core/op_registry.h"
#include "tensorflow/c/experimental/grappler/grappler.h"
#include "tensorflow/c/ops.h"
#include "tensorflow/c/tf_buffer.h"

namespace conformance::core {
namespace {

using proto::GraphDef;
using proto::NodeDef;
using proto::TensorProperties;
using proto::TensorShapeProto;

TensorShapeProto Shape(const std::vector<int64_t>& dims) {
  TensorShapeProto shape;
  for (int64_t d : dims) shape.add_dim()->set_size(d);
  return shape;
}

NodeDef* AddNode(GraphDef& graph, const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs = {}) {
  NodeDef* node = graph.add_node();
  node->set_name(name);
  node->set_op(op);
  for (auto& input : inputs) node->add_input(input);
  return node;
}

NodeDef* AddPlaceholder(GraphDef& graph, const std::string& name,
                        const std::vector<int64_t>& dims) {
  NodeDef* node = AddNode(graph, name, "Placeholder");
  (*node->mutable_attr())["dtype"].set_type(TF_FLOAT);
  *(*node->mutable_attr())["shape"].mutable_shape() = Shape(dims);
  return node;
}

void SetType(NodeDef* node, const char* attr, TF_DataType type) {
  (*node->mutable_attr())[attr].set_type(type);
}

// "float:[2,?]" / "float:<unknown>", like TensorFlow's test helper.
std::string Describe(const TensorProperties& p) {
  std::string out = std::to_string(p.dtype()) + ":";
  if (p.shape().unknown_rank()) return out + "<unknown>";
  out += "[";
  for (int i = 0; i < p.shape().dim_size(); ++i) {
    out += (i ? "," : "") + (p.shape().dim(i).size() < 0 ? std::string("?")
                                                         : std::to_string(p.shape().dim(i).size()));
  }
  return out + "]";
}

class GraphPropertiesTest : public testing::RecorderTest {
 protected:
  void Load(const GraphDef& graph) {
    item_.serialized_graph_def = graph.SerializeAsString();
    props_ = TF_NewGraphProperties(item_.c_handle());
  }
  void TearDown() override {
    TF_DeleteGraphProperties(props_);
    TF_DeleteStatus(status_);
    testing::RecorderTest::TearDown();
  }
  void Infer(bool assume_valid_feeds = true, bool input_values = false,
             bool output_values = false) {
    TF_InferStatically(props_, assume_valid_feeds, false, input_values, output_values, status_);
    ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  }
  // Every property of one side of a node, read through the two-call protocol.
  std::vector<TensorProperties> Get(const char* node, bool outputs) {
    int num = -1;
    (outputs ? TF_GetOutputPropertiesListSize : TF_GetInputPropertiesListSize)(props_, node, &num,
                                                                               status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK);
    std::vector<TF_Buffer*> buffers;
    buffers.reserve(static_cast<size_t>(std::max(num, 0)));
    for (int i = 0; i < num; ++i) buffers.push_back(TF_NewBuffer());
    (outputs ? TF_GetOutputPropertiesList : TF_GetInputPropertiesList)(props_, node, buffers.data(),
                                                                       num, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK);
    std::vector<TensorProperties> result(buffers.size());
    for (size_t i = 0; i < buffers.size(); ++i) {
      EXPECT_TRUE(result[i].ParseFromArray(buffers[i]->data, static_cast<int>(buffers[i]->length)));
      TF_DeleteBuffer(buffers[i]);
    }
    return result;
  }
  std::string Out(const char* node, size_t port = 0) {
    auto all = Get(node, true);
    return port < all.size() ? Describe(all[port]) : "missing";
  }

  GrapplerItem item_;
  TF_GraphProperties* props_ = nullptr;
  TF_Status* status_ = TF_NewStatus();
};

constexpr int kFloat = TF_FLOAT;

TEST_F(GraphPropertiesTest, PropagatesThroughElementwiseMatMulAndBiasAdd) {
  GraphDef graph;
  AddPlaceholder(graph, "x", {-1, 3});
  AddPlaceholder(graph, "w", {3, 4});
  AddPlaceholder(graph, "b", {4});
  SetType(AddNode(graph, "mm", "MatMul", {"x", "w"}), "T", TF_FLOAT);
  SetType(AddNode(graph, "bias", "BiasAdd", {"mm", "b"}), "T", TF_FLOAT);
  SetType(AddNode(graph, "relu", "Relu", {"bias"}), "T", TF_FLOAT);
  AddPlaceholder(graph, "row", {1, 4});
  SetType(AddNode(graph, "sum", "AddV2", {"relu", "row"}), "T", TF_FLOAT);
  SetType(AddNode(graph, "out", "Identity", {"sum", "^x"}), "T", TF_FLOAT);
  AddNode(graph, "less", "Less", {"out:0", "b"});
  Load(graph);
  Infer();
  const std::string f = std::to_string(kFloat) + ":";
  EXPECT_EQ(Out("x"), f + "[?,3]");
  EXPECT_EQ(Out("mm"), f + "[?,4]");
  EXPECT_EQ(Out("bias"), f + "[?,4]");
  EXPECT_EQ(Out("relu"), f + "[?,4]");
  EXPECT_EQ(Out("sum"), f + "[?,4]");
  EXPECT_EQ(Out("out"), f + "[?,4]");
  EXPECT_EQ(Out("less"), std::to_string(TF_BOOL) + ":[?,4]");
  // Inputs mirror their producers' outputs; the control input is not one of them.
  const auto in = Get("out", false);
  ASSERT_EQ(in.size(), 1u);
  EXPECT_EQ(Describe(in[0]), f + "[?,4]");
  EXPECT_EQ(Get("mm", false).size(), 2u);
}

TEST_F(GraphPropertiesTest, MatMulTransposesAndBroadcastRules) {
  GraphDef graph;
  AddPlaceholder(graph, "a", {5, 2});
  AddPlaceholder(graph, "b", {7, 5});
  NodeDef* mm = AddNode(graph, "mm", "MatMul", {"a", "b"});
  (*mm->mutable_attr())["transpose_a"].set_b(true);
  (*mm->mutable_attr())["transpose_b"].set_b(true);
  AddPlaceholder(graph, "c", {3, 1, 6});
  AddPlaceholder(graph, "d", {4, 1});
  AddNode(graph, "mul", "Mul", {"c", "d"});
  AddPlaceholder(graph, "e", {2, 3});
  AddNode(graph, "bad", "Sub", {"c", "e"});  // [3,1,6] vs [2,3]: incompatible
  Load(graph);
  Infer();
  EXPECT_EQ(Out("mm"), std::to_string(kFloat) + ":[2,7]");
  EXPECT_EQ(Out("mul"), std::to_string(kFloat) + ":[3,4,6]");
  EXPECT_EQ(Out("bad"), std::to_string(kFloat) + ":<unknown>");
}

TEST_F(GraphPropertiesTest, ConstValuesOnlyWhenAskedFor) {
  GraphDef graph;
  NodeDef* c = AddNode(graph, "c", "Const");
  SetType(c, "dtype", TF_FLOAT);
  proto::TensorProto* value = (*c->mutable_attr())["value"].mutable_tensor();
  value->set_dtype(TF_FLOAT);
  *value->mutable_tensor_shape() = Shape({2});
  value->add_float_val(1.5f);
  value->add_float_val(2.5f);
  AddNode(graph, "neg", "Neg", {"c"});
  Load(graph);
  Infer(/*assume_valid_feeds=*/true, /*input_values=*/true, /*output_values=*/false);
  EXPECT_EQ(Out("c"), std::to_string(kFloat) + ":[2]");
  EXPECT_FALSE(Get("c", true)[0].has_value());
  const auto in = Get("neg", false);
  ASSERT_EQ(in.size(), 1u);
  ASSERT_TRUE(in[0].has_value());
  EXPECT_EQ(in[0].value().float_val_size(), 2);
  EXPECT_FLOAT_EQ(in[0].value().float_val(1), 2.5f);
}

TEST_F(GraphPropertiesTest, UnknownOpsGetUnknownRankOrTheirOutputShapesHint) {
  GraphDef graph;
  AddPlaceholder(graph, "x", {2});
  AddNode(graph, "mystery", "SomeCustomOp", {"x"});
  NodeDef* hinted = AddNode(graph, "hinted", "OtherCustomOp", {"x"});
  auto* list = (*hinted->mutable_attr())["_output_shapes"].mutable_list();
  *list->add_shape() = Shape({2, 2});
  *list->add_shape() = Shape({});
  AddNode(graph, "use", "Identity", {"hinted:1"});
  Load(graph);
  Infer();
  EXPECT_EQ(Out("mystery"), "0:<unknown>");  // dtype and shape not known to the core
  EXPECT_EQ(Get("hinted", true).size(), 2u);
  EXPECT_EQ(Out("hinted", 0), "0:[2,2]");
  EXPECT_EQ(Out("hinted", 1), "0:[]");
  EXPECT_EQ(Out("use"), "0:[]");
}

TEST_F(GraphPropertiesTest, FedPortsAreNotTrustedUnlessFeedsAreValid) {
  GraphDef graph;
  AddPlaceholder(graph, "x", {2, 2});
  AddNode(graph, "y", "Relu", {"x"});
  item_.feed = {"x"};
  Load(graph);
  Infer(/*assume_valid_feeds=*/false);
  EXPECT_EQ(Out("x"), std::to_string(kFloat) + ":<unknown>");
  EXPECT_EQ(Out("y"), std::to_string(kFloat) + ":<unknown>");
}

TEST_F(GraphPropertiesTest, GettersSeeNothingBeforeInferenceOrForUnknownNodes) {
  GraphDef graph;
  AddPlaceholder(graph, "x", {2});
  Load(graph);
  int num = -1;
  TF_GetOutputPropertiesListSize(props_, "x", &num, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_OK);
  EXPECT_EQ(num, 0);
  Infer();
  TF_GetInputPropertiesListSize(props_, "no_such_node", &num, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_OK);
  EXPECT_EQ(num, 0);
  TF_Buffer* buffer = TF_NewBuffer();
  TF_GetOutputPropertiesList(props_, "no_such_node", &buffer, 1, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_OK);
  EXPECT_EQ(buffer->data, nullptr);  // nothing written
  // Asking for fewer than there are writes only those.
  TF_GetOutputPropertiesList(props_, "x", &buffer, 1, status_);
  EXPECT_NE(buffer->data, nullptr);
  TF_DeleteBuffer(buffer);
}

TEST_F(GraphPropertiesTest, ACycleHasNoTopologicalOrder) {
  GraphDef graph;
  AddNode(graph, "a", "Identity", {"b"});
  AddNode(graph, "b", "Identity", {"a"});
  Load(graph);
  TF_InferStatically(props_, true, false, false, false, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(status_), "The graph couldn't be sorted in topological order.");
}

TEST_F(GraphPropertiesTest, LoopBackEdgesDoNotBreakTheOrder) {
  GraphDef graph;
  AddPlaceholder(graph, "x", {3});
  AddNode(graph, "merge", "Merge", {"x", "next"});
  AddNode(graph, "body", "Relu", {"merge"});
  AddNode(graph, "next", "NextIteration", {"body"});
  Load(graph);
  Infer();
  EXPECT_EQ(Get("merge", false).size(), 2u);
}

void SevenVector(TF_ShapeInferenceContext* ctx, TF_Status* status) {
  TF_ShapeHandle* shape = TF_ShapeInferenceContextVectorFromSize(ctx, 7);
  TF_ShapeInferenceContextSetOutput(ctx, 0, shape, status);
  TF_DeleteShapeHandle(shape);
}

void AlwaysFails(TF_ShapeInferenceContext*, TF_Status* status) {
  TF_SetStatus(status, TF_INVALID_ARGUMENT, "refused");
}

void DefineOp(const char* name, const char* output,
              void (*shape_fn)(TF_ShapeInferenceContext*, TF_Status*)) {
  TF_OpDefinitionBuilder* builder = TF_NewOpDefinitionBuilder(name);
  TF_OpDefinitionBuilderAddInput(builder, "x: T");
  TF_OpDefinitionBuilderAddOutput(builder, output);
  TF_OpDefinitionBuilderAddAttr(builder, "T: type");
  TF_OpDefinitionBuilderSetShapeInferenceFunction(builder, shape_fn);
  TF_Status* s = TF_NewStatus();
  TF_RegisterOpDefinition(builder, s);
  ASSERT_EQ(TF_GetCode(s), TF_OK);
  TF_DeleteStatus(s);
}

// TensorFlow runs the shape function a plugin registered through ops.h; so does the core.
TEST_F(GraphPropertiesTest, RunsTheShapeFunctionsPluginsRegistered) {
  DefineOp("Test>Seven", "y: T", SevenVector);
  DefineOp("Test>Refuses", "z: int32", AlwaysFails);
  GraphDef graph;
  AddPlaceholder(graph, "x", {2});
  SetType(AddNode(graph, "seven", "Test>Seven", {"x"}), "T", TF_FLOAT);
  SetType(AddNode(graph, "refuses", "Test>Refuses", {"x"}), "T", TF_FLOAT);
  Load(graph);
  Infer();
  EXPECT_EQ(Out("seven"), std::to_string(kFloat) + ":[7]");
  EXPECT_EQ(Out("refuses"), std::to_string(TF_INT32) + ":<unknown>");
  ClearOpDefinitions();
}

TEST(GraphPropertiesDeathTest, InferringTwiceIsTensorFlowsCheckFailure) {
  GraphDef graph;
  AddPlaceholder(graph, "x", {2});
  GrapplerItem item;
  item.serialized_graph_def = graph.SerializeAsString();
  TF_GraphProperties* props = TF_NewGraphProperties(item.c_handle());
  TF_Status* s = TF_NewStatus();
  TF_InferStatically(props, true, false, false, false, s);
  ASSERT_EQ(TF_GetCode(s), TF_OK);
  EXPECT_DEATH(TF_InferStatically(props, true, false, false, false, s), "already filled");
  int num = 0;
  EXPECT_DEATH(TF_GetInputPropertiesListSize(props, nullptr, &num, s), "node name is NULL");
  TF_DeleteGraphProperties(props);
  TF_DeleteStatus(s);
}

}  // namespace
}  // namespace conformance::core
