// TF_InferStatically's engine. Facts followed (TensorFlow's GraphProperties): nodes are visited
// in topological order, loop back edges (out of NextIteration) excepted, and a graph that has
// no such order is INVALID_ARGUMENT "The graph couldn't be sorted in topological order.";
// fed ports are not trusted unless assume_valid_feeds; a Const's tensor is attached to its
// consumers' inputs / its own output only when include_input/output_tensor_values ask for it;
// properties of a node are filled once (TensorFlow CHECK-fails when they already exist).
#include "core/graph_properties.h"

#include <algorithm>
#include <charconv>
#include <deque>
#include <optional>
#include <set>

#include "core/graph_def_reader.h"
#include "core/graph_plugin_ops.h"
#include "core/unimplemented.h"

namespace conformance::core {
namespace {

struct InputRef {
  std::string node;
  int port = 0;
  bool control = false;
};

// "^node" (control), "node:port" or "node" (port 0).
InputRef ParseInput(std::string_view input) {
  if (!input.empty() && input.front() == '^') return {std::string(input.substr(1)), -1, true};
  const size_t colon = input.rfind(':');
  if (colon != std::string_view::npos && colon + 1 < input.size()) {
    int port = 0;
    const char* end = input.data() + input.size();
    const auto [ptr, ec] = std::from_chars(input.data() + colon + 1, end, port);
    if (ec == std::errc() && ptr == end) return {std::string(input.substr(0, colon)), port, false};
  }
  return {std::string(input), 0, false};
}

bool IsLoopBackEdgeSource(const GraphNodeDef& node) {
  return node.op == "NextIteration" || node.op == "RefNextIteration";
}

using NodeIndex = std::map<std::string, size_t, std::less<>>;

// Kahn's algorithm over regular and control edges, file order among ready nodes. Inputs from
// nodes the graph does not have are ignored here (their properties stay unknown).
std::optional<std::vector<size_t>> TopologicalOrder(const std::vector<GraphNodeDef>& nodes,
                                                    const NodeIndex& index) {
  std::vector<int> pending(nodes.size(), 0);
  std::vector<std::vector<size_t>> fanouts(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (const std::string& input : nodes[i].inputs) {
      const auto source = index.find(ParseInput(input).node);
      if (source == index.end() || IsLoopBackEdgeSource(nodes[source->second])) continue;
      fanouts[source->second].push_back(i);
      ++pending[i];
    }
  }
  std::deque<size_t> ready;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (pending[i] == 0) ready.push_back(i);
  }
  std::vector<size_t> order;
  while (!ready.empty()) {
    const size_t next = ready.front();
    ready.pop_front();
    order.push_back(next);
    for (size_t fanout : fanouts[next]) {
      if (--pending[fanout] == 0) ready.push_back(fanout);
    }
  }
  if (order.size() != nodes.size()) return std::nullopt;
  return order;
}

// Output counts as the graph uses them (highest port consumed + 1, at least 1), for ops whose
// definition the core does not have.
std::map<std::string, size_t, std::less<>> UsedOutputCounts(
    const std::vector<GraphNodeDef>& nodes) {
  std::map<std::string, size_t, std::less<>> counts;
  for (const auto& node : nodes) {
    for (const std::string& input : node.inputs) {
      const InputRef ref = ParseInput(input);
      if (ref.control) continue;
      size_t& count = counts[ref.node];
      count = std::max(count, static_cast<size_t>(ref.port) + 1);
    }
  }
  return counts;
}

size_t Lookup(const std::map<std::string, size_t, std::less<>>& counts, const std::string& name) {
  const auto it = counts.find(name);
  return it == counts.end() ? 0 : it->second;
}

// TensorFlow's CHECK that a node's properties are filled once.
void StoreOnce(std::map<std::string, std::vector<TensorProperties>, std::less<>>& map,
               const std::string& node, std::vector<TensorProperties> properties) {
  auto& slot = map[node];
  if (!slot.empty()) {
    Fatal("TF_InferStatically",
          "the properties of node '" + node +
              "' are already filled (TF_InferStatically called twice on one TF_GraphProperties, "
              "or two nodes share the name); TensorFlow CHECK-fails here");
  }
  slot = std::move(properties);
}

}  // namespace

Status GraphProperties::InferStatically(const InferOptions& options) {
  const auto nodes = ReadGraphNodes(item_->serialized_graph_def);
  if (!nodes) return Status::Error(TF_INVALID_ARGUMENT, "Unparseable GraphDef proto");
  NodeIndex index;
  for (size_t i = 0; i < nodes->size(); ++i) index.emplace((*nodes)[i].name, i);
  const auto order = TopologicalOrder(*nodes, index);
  if (!order) {
    return Status::Error(TF_INVALID_ARGUMENT, "The graph couldn't be sorted in topological order.");
  }
  std::set<std::pair<std::string, int>> fed;
  if (!options.assume_valid_feeds) {
    for (const std::string& feed : item_->feed) {
      const InputRef ref = ParseInput(feed);
      fed.emplace(ref.node, ref.port);
    }
  }

  const auto used_outputs = UsedOutputCounts(*nodes);
  // Outputs as inferred, values included; trimmed for the caller when stored.
  std::vector<std::vector<TensorProperties>> outputs(nodes->size());
  for (size_t i : *order) {
    const GraphNodeDef& node = (*nodes)[i];
    std::vector<TensorProperties> inputs;
    for (const std::string& input : node.inputs) {
      const InputRef ref = ParseInput(input);
      if (ref.control) continue;
      const auto source = index.find(ref.node);
      TensorProperties in;
      if (source != index.end() && ref.port >= 0 &&
          static_cast<size_t>(ref.port) < outputs[source->second].size()) {
        in = outputs[source->second][static_cast<size_t>(ref.port)];
      }
      if (!options.include_input_tensor_values) in.value.reset();
      inputs.push_back(std::move(in));
    }
    auto known = KnownOpOutputs(node, inputs);
    if (!known) known = PluginOpOutputs(node, inputs);
    std::vector<TensorProperties> out = known.value_or(
        std::vector<TensorProperties>(std::max<size_t>(1, Lookup(used_outputs, node.name))));
    const auto hints = node.ShapeListAttr("_output_shapes");
    for (size_t port = 0; port < out.size(); ++port) {
      if (hints && port < hints->size() && out[port].shape.unknown_rank) {
        out[port].shape = (*hints)[port];
      }
      if (fed.contains({node.name, static_cast<int>(port)})) {
        out[port].shape = PartialShape::Unknown();
        out[port].value.reset();
      }
    }
    outputs[i] = out;
    if (!options.include_output_tensor_values) {
      for (auto& o : out) o.value.reset();
    }
    StoreOnce(inputs_, node.name, std::move(inputs));
    StoreOnce(outputs_, node.name, std::move(out));
  }
  return Status::Ok();
}

const std::vector<TensorProperties>& GraphProperties::Inputs(std::string_view node) const {
  static const std::vector<TensorProperties> kMissing;
  const auto it = inputs_.find(node);
  return it == inputs_.end() ? kMissing : it->second;
}

const std::vector<TensorProperties>& GraphProperties::Outputs(std::string_view node) const {
  static const std::vector<TensorProperties> kMissing;
  const auto it = outputs_.find(node);
  return it == outputs_.end() ? kMissing : it->second;
}

}  // namespace conformance::core
