#include "models/model_shapes.h"

#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <variant>

#include "ops/catalogue.h"

namespace conformance::models {
namespace {

using KnownShape = std::optional<core::Shape>;  // nullopt: not followed here

// One output with the shape of input 0.
const std::set<std::string_view, std::less<>> kSameShapeOps = {
    "Relu",       "Relu6",     "Elu",  "Sigmoid",  "Tanh",     "Softmax",
    "LogSoftmax", "ZerosLike", "Cast", "Identity", "Snapshot", "Neg",
    "Abs",        "Exp",       "Log",  "Sqrt",     "Rsqrt",    "Square"};

bool NodeBoolAttr(const ModelNode& node, const std::string& name) {
  const auto it = node.attrs.find(name);
  if (it == node.attrs.end()) return false;
  const auto* value = std::get_if<bool>(&it->second);
  return value != nullptr && *value;
}

std::string NodeStringAttr(const ModelNode& node, const std::string& name, std::string fallback) {
  const auto it = node.attrs.find(name);
  if (it == node.attrs.end()) return fallback;
  const auto* value = std::get_if<std::string>(&it->second);
  return value != nullptr ? *value : fallback;
}

// NumPy broadcasting; nullopt when the shapes do not broadcast.
KnownShape BroadcastModelShapes(const core::Shape& a, const core::Shape& b) {
  const std::size_t rank = std::max(a.size(), b.size());
  core::Shape out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[i] = x == 1 ? y : x;
  }
  return out;
}

class ShapeFollower {
 public:
  ShapeFollower(const ModelScenario& model, scenario::ErrorList& errors)
      : model_(model), errors_(errors) {}

  bool Check() {
    for (const ModelInput& input : model_.inputs) shapes_[input.name] = input.shape;
    for (const ModelInput& variable : model_.variables) shapes_[variable.name] = variable.shape;
    for (const ModelNode& node : model_.nodes) Follow(node);
    return ok_;
  }

 private:
  KnownShape ShapeOf(const std::string& tensor) const {
    const auto it = shapes_.find(tensor);
    return it == shapes_.end() ? std::nullopt : it->second;
  }

  void Error(const ModelNode& node, std::size_t input, const std::string& message) {
    errors_.Add(input < node.input_at.size() ? node.input_at[input] : node.at, "inputs",
                node.op + " node '" + node.name + "': " + message +
                    "; TensorFlow's shape function refuses the node");
    ok_ = false;
  }

  // The shape of each input, or nullopt when one is not known (the node is then not checked).
  std::optional<std::vector<core::Shape>> InputShapes(const ModelNode& node) const {
    std::vector<core::Shape> shapes;
    for (const std::string& tensor : node.inputs) {
      KnownShape shape = ShapeOf(tensor);
      if (!shape) return std::nullopt;
      shapes.push_back(std::move(*shape));
    }
    return shapes;
  }

  void Follow(const ModelNode& node) {
    const ops::OpDef* def = ops::FindOp(node.op);
    const auto in = InputShapes(node);
    KnownShape out;
    if (def != nullptr && in && in->size() == def->inputs.size())
      out = OutputShape(node, *def, *in);
    for (const std::string& tensor : node.outputs) shapes_[tensor] = out;
  }

  std::string Named(const ModelNode& node, std::size_t i, const core::Shape& shape) const {
    return node.inputs[i] + " " + core::ShapeString(shape);
  }

  KnownShape OutputShape(const ModelNode& node, const ops::OpDef& def,
                         const std::vector<core::Shape>& in) {
    if (def.broadcasting && in.size() == 2) {
      KnownShape out = BroadcastModelShapes(in[0], in[1]);
      if (!out) {
        Error(node, 1,
              Named(node, 0, in[0]) + " and " + Named(node, 1, in[1]) +
                  " do not broadcast (aligned from the right, each pair of dimensions is equal or "
                  "one of them is 1)");
      }
      return out;
    }
    if (kSameShapeOps.contains(node.op) && in.size() == 1) return in[0];
    if (node.op == "ReluGrad") {
      if (in[0] != in[1]) {
        Error(node, 1,
              Named(node, 0, in[0]) + " and " + Named(node, 1, in[1]) +
                  " differ; gradients and features have one shape");
        return std::nullopt;
      }
      return in[0];
    }
    if (node.op == "MatMul") return MatMulShape(node, in[0], in[1]);
    if (node.op == "BiasAdd") return BiasAddShape(node, in[0], in[1]);
    return std::nullopt;
  }

  KnownShape MatMulShape(const ModelNode& node, const core::Shape& a, const core::Shape& b) {
    for (std::size_t i = 0; i < 2; ++i) {
      if ((i == 0 ? a : b).size() == 2) continue;
      Error(node, i, Named(node, i, i == 0 ? a : b) + " is not a matrix (MatMul takes rank 2)");
      return std::nullopt;
    }
    const bool ta = NodeBoolAttr(node, "transpose_a"), tb = NodeBoolAttr(node, "transpose_b");
    const int64_t inner_a = a[ta ? 0 : 1], inner_b = b[tb ? 1 : 0];
    if (inner_a != inner_b) {
      // The fix that makes the inner dimensions meet, when one does.
      std::string hint;
      if (a[ta ? 0 : 1] == b[tb ? 0 : 1]) {
        hint = " (did you mean transpose_b: " + std::string(tb ? "false" : "true") + "?)";
      } else if (a[ta ? 1 : 0] == b[tb ? 1 : 0]) {
        hint = " (did you mean transpose_a: " + std::string(ta ? "false" : "true") + "?)";
      }
      Error(node, 1,
            "inner dimensions differ: " + Named(node, 0, a) + (ta ? " transposed" : "") + " has " +
                std::to_string(inner_a) + " columns, " + Named(node, 1, b) +
                (tb ? " transposed" : "") + " has " + std::to_string(inner_b) + " rows" + hint);
      return std::nullopt;
    }
    return core::Shape{a[ta ? 1 : 0], b[tb ? 0 : 1]};
  }

  KnownShape BiasAddShape(const ModelNode& node, const core::Shape& value,
                          const core::Shape& bias) {
    const bool nchw = NodeStringAttr(node, "data_format", "NHWC") == "NCHW";
    if (value.size() < 2) {
      Error(node, 0,
            Named(node, 0, value) + " has rank " + std::to_string(value.size()) +
                "; BiasAdd's value has rank 2 or more");
      return std::nullopt;
    }
    const int64_t channels = nchw ? value[1] : value.back();
    if (bias.size() != 1 || bias[0] != channels) {
      Error(node, 1,
            Named(node, 1, bias) + " is not a vector of " + std::to_string(channels) +
                " (the channel dimension of " + Named(node, 0, value) + ", " +
                (nchw ? "dimension 1 in NCHW" : "the last in NHWC") + ")");
      return std::nullopt;
    }
    return value;
  }

  const ModelScenario& model_;
  scenario::ErrorList& errors_;
  std::map<std::string, KnownShape> shapes_;
  bool ok_ = true;
};

}  // namespace

bool CheckModelShapes(const ModelScenario& model, scenario::ErrorList& errors) {
  return ShapeFollower(model, errors).Check();
}

}  // namespace conformance::models
