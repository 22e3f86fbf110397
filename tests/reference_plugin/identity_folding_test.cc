// The reference optimizer's pass, on GraphDefs built and read back with real protobuf
// classes (specs/proto/graph.proto), so the plugin's own wire code is checked against it.
#include "graph/identity_folding.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "graph.pb.h"

namespace reference_plugin::graph {
namespace {

using conformance::proto::GraphDef;
using conformance::proto::NodeDef;

NodeDef* AddNode(GraphDef& graph, const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs,
                 const std::string& device = "/device:REFDEV:0") {
  NodeDef* node = graph.add_node();
  node->set_name(name);
  node->set_op(op);
  node->set_device(device);
  for (const auto& input : inputs) node->add_input(input);
  (*node->mutable_attr())["T"].set_type(1);
  return node;
}

GraphDef Fold(const GraphDef& graph, const std::set<std::string>& preserve, int* folded = nullptr) {
  FoldResult result;
  const Status status = fold_identity_chains(graph.SerializeAsString(), preserve, &result);
  EXPECT_TRUE(status.ok()) << status.message();
  GraphDef out;
  EXPECT_TRUE(out.ParseFromString(result.graph));
  if (folded) *folded = result.folded;
  return out;
}

std::map<std::string, NodeDef> ByName(const GraphDef& graph) {
  std::map<std::string, NodeDef> nodes;
  for (const auto& node : graph.node()) nodes[node.name()] = node;
  return nodes;
}

TEST(IdentityFolding, FoldsAChainAndRewiresItsConsumer) {
  GraphDef graph;
  graph.mutable_versions()->set_producer(42);
  AddNode(graph, "x", "Placeholder", {});
  AddNode(graph, "a", "Identity", {"x"});
  AddNode(graph, "b", "Identity", {"a:0"});
  AddNode(graph, "y", "Relu", {"b"});
  int folded = 0;
  const GraphDef out = Fold(graph, {"x", "y"}, &folded);
  EXPECT_EQ(folded, 2);
  const auto nodes = ByName(out);
  ASSERT_EQ(nodes.size(), 2u);
  ASSERT_EQ(nodes.at("y").input_size(), 1);
  EXPECT_EQ(nodes.at("y").input(0), "x");
  EXPECT_EQ(nodes.at("y").attr().at("T").type(), 1);  // attributes survive unchanged
  EXPECT_EQ(out.versions().producer(), 42);           // so do the graph's other fields
}

TEST(IdentityFolding, KeepsPreservedIdentitiesAndFoldsAroundThem) {
  GraphDef graph;
  AddNode(graph, "x", "Placeholder", {});
  AddNode(graph, "kept", "Identity", {"x"});
  AddNode(graph, "free", "Identity", {"kept"});
  AddNode(graph, "out", "Identity", {"free"});
  const auto nodes = ByName(Fold(graph, {"x", "kept", "out"}));
  EXPECT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodes.at("out").input(0), "kept");
}

TEST(IdentityFolding, ControlInputsFollowTheFoldToTheProducer) {
  GraphDef graph;
  AddNode(graph, "x", "Placeholder", {});
  AddNode(graph, "a", "Identity", {"x:1"});
  AddNode(graph, "y", "Relu", {"a", "^a"});
  const auto nodes = ByName(Fold(graph, {"y"}));
  ASSERT_FALSE(nodes.contains("a"));
  EXPECT_EQ(nodes.at("y").input(0), "x:1");
  EXPECT_EQ(nodes.at("y").input(1), "^x");
}

TEST(IdentityFolding, LeavesCrossDeviceAndControlledIdentitiesAlone) {
  GraphDef graph;
  AddNode(graph, "x", "Placeholder", {}, "/device:CPU:0");
  AddNode(graph, "copy", "Identity", {"x"});  // CPU -> REFDEV: a transfer
  AddNode(graph, "z", "Placeholder", {});
  AddNode(graph, "gated", "Identity", {"copy", "^z"});
  AddNode(graph, "y", "Relu", {"gated"});
  int folded = -1;
  EXPECT_EQ(ByName(Fold(graph, {"y"}, &folded)).size(), 5u);
  EXPECT_EQ(folded, 0);
}

TEST(IdentityFolding, TheGuardVetoesSingleIdentities) {
  GraphDef graph;
  AddNode(graph, "x", "Placeholder", {});
  AddNode(graph, "a", "Identity", {"x"});
  AddNode(graph, "b", "Identity", {"a"});
  AddNode(graph, "y", "Relu", {"b"});
  FoldResult result;
  ASSERT_TRUE(
      fold_identity_chains(graph.SerializeAsString(), {"y"}, &result, [](const std::string& node) {
        return node != "a";
      }).ok());
  EXPECT_EQ(result.folded, 1);
  GraphDef out;
  ASSERT_TRUE(out.ParseFromString(result.graph));
  const auto nodes = ByName(out);
  EXPECT_TRUE(nodes.contains("a"));
  EXPECT_EQ(nodes.at("y").input(0), "a");  // b folded: y reads a directly
}

TEST(IdentityFolding, RefusesBytesThatAreNotAGraphDef) {
  FoldResult result;
  EXPECT_FALSE(fold_identity_chains(std::string("\xff\xff\xff", 3), {}, &result).ok());
}

}  // namespace
}  // namespace reference_plugin::graph
