#include "graph/identity_folding.h"

#include <map>
#include <vector>

#include "graph/wire.h"

namespace reference_plugin::graph {
namespace {

// Field numbers of GraphDef and NodeDef.
constexpr uint32_t kGraphNode = 1;
constexpr uint32_t kNodeName = 1;
constexpr uint32_t kNodeOp = 2;
constexpr uint32_t kNodeInput = 3;
constexpr uint32_t kNodeDevice = 4;

struct Node {
  std::vector<wire::Field> fields;
  std::string name, op, device;
  std::vector<std::string> inputs;
};

// "^name" (control), "name:k" or "name" (output k, default 0).
struct InputRef {
  bool control = false;
  std::string node;
  std::string port;  // "" or ":k"
};

InputRef parse_input(std::string_view input) {
  InputRef ref;
  if (!input.empty() && input.front() == '^') {
    ref.control = true;
    input.remove_prefix(1);
  }
  const std::size_t colon = input.rfind(':');
  ref.node = std::string(input.substr(0, colon));
  if (colon != std::string_view::npos) ref.port = std::string(input.substr(colon));
  return ref;
}

Status parse_node(std::string_view bytes, Node* node) {
  if (!wire::parse_fields(bytes, &node->fields))
    return invalid_argument("malformed NodeDef in the GraphDef");
  for (const wire::Field& f : node->fields) {
    if (f.wire_type != wire::kLengthDelimited) continue;
    if (f.number == kNodeName) node->name = std::string(f.bytes);
    if (f.number == kNodeOp) node->op = std::string(f.bytes);
    if (f.number == kNodeDevice) node->device = std::string(f.bytes);
    if (f.number == kNodeInput) node->inputs.emplace_back(f.bytes);
  }
  return Status();
}

class Folder {
 public:
  Folder(std::vector<Node>& nodes, const std::set<std::string>& preserve, const FoldGuard& guard) {
    for (Node& node : nodes) by_name_[node.name] = &node;
    for (Node& node : nodes) {
      if (foldable(node, preserve) && (!guard || guard(node.name))) folded_.insert(node.name);
    }
  }

  bool folded(const Node& node) const { return folded_.contains(node.name); }
  int count() const { return static_cast<int>(folded_.size()); }

  // The input a consumer reads once every folded Identity on its way is bypassed.
  std::string resolve(const std::string& input) const {
    InputRef ref = parse_input(input);
    // Bounded by the node count, so a (malformed) Identity cycle cannot loop forever.
    for (std::size_t hops = 0; hops <= by_name_.size(); ++hops) {
      if (!folded_.contains(ref.node) || (!ref.port.empty() && ref.port != ":0")) break;
      const InputRef source = parse_input(by_name_.at(ref.node)->inputs.front());
      ref.node = source.node;
      if (!ref.control) ref.port = source.port;
    }
    return (ref.control ? "^" : "") + ref.node + (ref.control ? "" : ref.port);
  }

 private:
  bool foldable(const Node& node, const std::set<std::string>& preserve) const {
    if (node.op != "Identity" || preserve.contains(node.name) || node.inputs.size() != 1)
      return false;
    const InputRef source = parse_input(node.inputs.front());
    if (source.control || source.node == node.name) return false;
    // An Identity between devices is a copy, not a no-op.
    const auto producer = by_name_.find(source.node);
    return producer != by_name_.end() && producer->second->device == node.device;
  }

  std::map<std::string, Node*> by_name_;
  std::set<std::string> folded_;
};

std::string serialize_node(const Node& node, const Folder& folder) {
  std::string out;
  std::size_t input = 0;
  for (const wire::Field& f : node.fields) {
    if (f.number == kNodeInput && f.wire_type == wire::kLengthDelimited) {
      wire::put_bytes_field(&out, kNodeInput, folder.resolve(node.inputs[input++]));
    } else {
      out.append(f.raw);
    }
  }
  return out;
}

}  // namespace

Status fold_identity_chains(std::string_view graph_def, const std::set<std::string>& preserve,
                            FoldResult* result, const FoldGuard& guard) {
  std::vector<wire::Field> fields;
  if (!wire::parse_fields(graph_def, &fields))
    return invalid_argument("the input is not a GraphDef");
  std::vector<Node> nodes;
  for (const wire::Field& f : fields) {
    if (f.number != kGraphNode || f.wire_type != wire::kLengthDelimited) continue;
    nodes.emplace_back();
    REFERENCE_RETURN_IF_ERROR(parse_node(f.bytes, &nodes.back()));
  }
  const Folder folder(nodes, preserve, guard);
  result->graph.clear();
  result->folded = folder.count();
  std::size_t next_node = 0;
  for (const wire::Field& f : fields) {
    if (f.number != kGraphNode || f.wire_type != wire::kLengthDelimited) {
      result->graph.append(f.raw);
      continue;
    }
    const Node& node = nodes[next_node++];
    if (!folder.folded(node))
      wire::put_bytes_field(&result->graph, kGraphNode, serialize_node(node, folder));
  }
  return Status();
}

}  // namespace reference_plugin::graph
