#include "validate/graph_cases.h"

#include <initializer_list>
#include <utility>

#include "graph.pb.h"

namespace conformance::validate {
namespace {

constexpr int kDtFloat = 1;  // DataType DT_FLOAT

class GraphBuilder {
 public:
  explicit GraphBuilder(std::string device) : device_(std::move(device)) {
    graph_.mutable_versions()->set_producer(1087);
    graph_.mutable_versions()->set_min_consumer(0);
  }

  GraphBuilder& Node(const std::string& name, const std::string& op,
                     std::initializer_list<const char*> inputs, const char* type_attr) {
    proto::NodeDef* node = graph_.add_node();
    node->set_name(name);
    node->set_op(op);
    node->set_device(device_);
    for (const char* input : inputs) node->add_input(input);
    (*node->mutable_attr())[type_attr].set_type(kDtFloat);
    return *this;
  }

  std::string Serialize() const { return graph_.SerializeAsString(); }

 private:
  std::string device_;
  proto::GraphDef graph_;
};

GraphCase Make(std::string name, const GraphBuilder& graph, std::vector<std::string> fetch,
               std::vector<std::string> feed, std::vector<std::string> keep) {
  GraphCase c;
  c.name = std::move(name);
  c.item.id = c.name;
  c.item.serialized_graph_def = graph.Serialize();
  c.item.fetch = std::move(fetch);
  c.item.feed = std::move(feed);
  c.item.keep_ops = std::move(keep);
  return c;
}

}  // namespace

std::vector<GraphCase> GraphCases(const std::string& device_type) {
  const std::string device = "/job:localhost/replica:0/task:0/device:" + device_type + ":0";
  std::vector<GraphCase> cases;
  // An Identity chain between a feed and a fetch: the nodes an optimizer may fold away are
  // exactly the ones TensorFlow did not ask to preserve. The fetch is serialized last.
  cases.push_back(Make("identity_chain",
                       GraphBuilder(device)
                           .Node("x", "Placeholder", {}, "dtype")
                           .Node("id_a", "Identity", {"x"}, "T")
                           .Node("id_b", "Identity", {"id_a"}, "T")
                           .Node("y", "Relu", {"id_b"}, "T"),
                       {"y"}, {"x"}, {}));
  // Identities that must survive: one is fetched, one is kept (a control dependency target).
  cases.push_back(Make("preserved_identities",
                       GraphBuilder(device)
                           .Node("x", "Placeholder", {}, "dtype")
                           .Node("kept", "Identity", {"x"}, "T")
                           .Node("relu", "Relu", {"kept", "^x"}, "T")
                           .Node("out", "Identity", {"relu"}, "T"),
                       {"out"}, {"x"}, {"kept"}));
  return cases;
}

}  // namespace conformance::validate
