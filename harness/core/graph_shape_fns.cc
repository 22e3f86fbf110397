#include "core/graph_shape_fns.h"

#include <algorithm>
#include <set>
#include <string_view>

#include "core/proto_serialize.h"
#include "core/proto_wire.h"

namespace conformance::core {
namespace {

// Output = input 0, same dtype (Cast and the comparisons change the dtype below).
const std::set<std::string_view, std::less<>> kSameShapeOps = {
    "Identity", "Snapshot",   "StopGradient", "PreventGradient",
    "Neg",      "Abs",        "Exp",          "Log",
    "Sqrt",     "Rsqrt",      "Square",       "Sigmoid",
    "Tanh",     "Relu",       "Relu6",        "Elu",
    "Selu",     "Softplus",   "Sign",         "Floor",
    "Ceil",     "Round",      "Reciprocal",   "Sin",
    "Cos",      "Erf",        "ZerosLike",    "OnesLike",
    "Softmax",  "LogSoftmax", "LeakyRelu",    "BiasAdd",
    "Cast"};
const std::set<std::string_view, std::less<>> kBroadcastOps = {
    "Add",     "AddV2", "Sub",      "Mul",      "Div",      "RealDiv",          "Maximum",
    "Minimum", "Pow",   "FloorDiv", "FloorMod", "DivNoNan", "SquaredDifference"};
const std::set<std::string_view, std::less<>> kComparisonOps = {
    "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"};

TensorProperties Input(const std::vector<TensorProperties>& inputs, size_t i) {
  return i < inputs.size() ? inputs[i] : TensorProperties{};
}

// dtype from the attribute, else from the first input.
TF_DataType DtypeOf(const GraphNodeDef& node, const char* attr, const TensorProperties& in) {
  return node.TypeAttr(attr).value_or(in.dtype);
}

PartialShape MatMulShape(const GraphNodeDef& node, const PartialShape& a, const PartialShape& b) {
  if (a.rank() != 2 || b.rank() != 2) return PartialShape::Unknown();
  const bool ta = node.BoolAttr("transpose_a").value_or(false);
  const bool tb = node.BoolAttr("transpose_b").value_or(false);
  return PartialShape::Of({a.dims[ta ? 1 : 0], b.dims[tb ? 0 : 1]});
}

TensorProperties Output(TF_DataType dtype, PartialShape shape) {
  return TensorProperties{dtype, std::move(shape), std::nullopt};
}

}  // namespace

std::optional<PartialShape> BroadcastShapes(const PartialShape& a, const PartialShape& b) {
  if (a.unknown_rank || b.unknown_rank) return PartialShape::Unknown();
  const size_t rank = std::max(a.dims.size(), b.dims.size());
  std::vector<int64_t> dims(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Aligned from the right; a missing leading dimension is 1.
    const int64_t x = i < rank - a.dims.size() ? 1 : a.dims[i - (rank - a.dims.size())];
    const int64_t y = i < rank - b.dims.size() ? 1 : b.dims[i - (rank - b.dims.size())];
    if (x == y || y == 1) {
      dims[i] = x;
    } else if (x == 1) {
      dims[i] = y;
    } else if (x == -1 || y == -1) {
      dims[i] = x == -1 ? y : x;  // the known one, which is not 1: the only legal outcome
    } else {
      return std::nullopt;
    }
  }
  return PartialShape::Of(std::move(dims));
}

std::optional<std::vector<TensorProperties>> KnownOpOutputs(
    const GraphNodeDef& node, const std::vector<TensorProperties>& inputs) {
  const std::string_view op = node.op;
  const TensorProperties x = Input(inputs, 0);
  if (op == "Placeholder" || op == "PlaceholderV2" || op == "PlaceholderWithDefault") {
    const auto shape = node.ShapeAttr("shape");
    return std::vector{Output(DtypeOf(node, "dtype", x), shape.value_or(x.shape))};
  }
  if (op == "Const") {
    const auto value = node.TensorAttr("value");
    const auto header = value ? ReadTensorHeader(*value) : std::nullopt;
    TensorProperties out =
        Output(DtypeOf(node, "dtype", {}), header ? header->shape : PartialShape::Unknown());
    out.value = value;  // handed out only when the caller asks for tensor values
    return std::vector{out};
  }
  if (op == "NoOp") return std::vector<TensorProperties>{};
  if (kSameShapeOps.contains(op)) {
    const char* dtype_attr = op == "Cast" ? "DstT" : "T";
    return std::vector{Output(DtypeOf(node, dtype_attr, x), x.shape)};
  }
  if (kBroadcastOps.contains(op) || kComparisonOps.contains(op)) {
    const TensorProperties y = Input(inputs, 1);
    // Incompatible shapes fail TensorFlow's shape function; the core reports unknown rank
    // instead of an error (simplification, README).
    const PartialShape shape = BroadcastShapes(x.shape, y.shape).value_or(PartialShape::Unknown());
    const TF_DataType dtype = kComparisonOps.contains(op) ? TF_BOOL : DtypeOf(node, "T", x);
    return std::vector{Output(dtype, shape)};
  }
  if (op == "MatMul") {
    return std::vector{
        Output(DtypeOf(node, "T", x), MatMulShape(node, x.shape, Input(inputs, 1).shape))};
  }
  return std::nullopt;
}

std::string SerializeTensorProperties(const TensorProperties& properties) {
  ProtoWriter out;
  if (properties.dtype != 0) out.Varint(1, static_cast<uint64_t>(properties.dtype));
  out.Bytes(2, SerializeTensorShape(properties.shape));
  if (properties.value) out.Bytes(3, *properties.value);
  return out.data();
}

}  // namespace conformance::core
