#include "kernels/plugin_stand_ins.h"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "kernels/case_json.h"
#include "kernels/dtype_values.h"
#include "kernels/kernel_scenario.h"
#include "kernels/recorded_oracle.h"
#include "ops/default_value.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

// Each line from the definition the plugin registers (read back through the mock core from
// ITEX 2.x's libitex_cpu.so, its TF_InitKernel), compared with TensorFlow 2.21.0's registry:
// the same inputs, outputs and attrs but those named. is_filter_const=false: the filter may
// change between runs (nothing cached), is_inplace=false: the output has its own buffer;
// use_cudnn_on_gpu and explicit_paddings are Conv2D's own attrs (true and [] are Conv2D's
// defaults). grad_x, grad_y, grad_a and grad_b mark a product as a gradient's, a hint: the
// 2.21.0 wheel gives the same bytes for MatMul, BatchMatMul and BatchMatMulV2 with them true or
// false (float and half, [7,9]x[9,5] and [3,7,9]x[3,9,5]); the plugin's ops lack them.
// ITEX's quantized convolutions and products default is_filter_const, is_bias_const and
// is_weight_const to true (cache the constant operand): set false, as the filter, bias or
// weights of a case are not a graph's constants. Their out_type defaults to qint32 where some
// of TensorFlow's ops default to qint8 or quint8, and _ITEXDequantize's mode to SCALED where
// Dequantize's is MIN_COMBINED: every case sets them.
// Not here, their definitions deciding it: _ITEXMatMul and _ITEXFusedMatMul (an attr `meta:
// tensor` without a default), _ITEXEluGrad (its second input is `features`, EluGrad's is
// `outputs`: which tensor it takes is not certain), _ITEXConv3DBackpropInput (an attr Tshape
// of its own), _ITEXMaxPool* (a workspace input or output), _ITEXFusedConv2D (a bn_args input
// where _FusedConv2D has host_args), _ITEXRandomUniform (draws, no value to compare) and
// _OneDnn* (layout metadata inputs and outputs). Nor, their definitions agreeing but the op
// narrower or its meaning another release's, measured on ITEX 2.15.0.0: _ITEXResizeBilinear and
// its gradient (their kernels CHECK-fail unless half_pixel_centers is true, which its graph
// rewrite must be what guarantees: not the plain op), _ITEXQuantizedConv2DPerChannel (it
// computes what TensorFlow 2.15.1's QuantizedConv2DPerChannel does, which 2.21.0 changed: the
// same inputs give channel 0 half 2.15.1's sums there) and _ITEXQuantizedConcatV2 (TensorFlow's
// CPU re-encodes two quint8 inputs of range [-1, 1] into [0, 1] and loses their negative values,
// where ITEX keeps them: which one a user wants is not the record's to say).

// ITEX's quantized convolutions: TensorFlow's op with data_format, is_filter_const and
// is_bias_const (where it has a bias) and padding_list (where TensorFlow's lacks it) of its own.
PluginStandIn QuantizedConvolution(std::string_view plugin_op, std::string_view tensorflow_op) {
  return {plugin_op,
          tensorflow_op,
          {{"data_format", "'NHWC'"},
           {"is_filter_const", "false"},
           {"is_bias_const", "false"},
           {"padding_list", "[]"}},
          {},
          {},
          {"out_type", "data_format", "is_filter_const", "is_bias_const", "padding_list"}};
}

// ITEX's quantized products: TensorFlow's op with is_weight_const of its own.
PluginStandIn QuantizedProduct(std::string_view plugin_op, std::string_view tensorflow_op) {
  return {plugin_op, tensorflow_op, {{"is_weight_const", "false"}}, {}, {}, {"is_weight_const"}};
}

const std::vector<PluginStandIn>& StandInTable() {
  static const std::vector<PluginStandIn> table = {
      {"_ITEXAddN", "AddN"},
      {"_ITEXAvgPool", "AvgPool", {}, {}, {{"input", "value"}}},
      {"_ITEXAvgPool3D", "AvgPool3D"},
      {"_ITEXAvgPool3DGrad", "AvgPool3DGrad"},
      {"_ITEXAvgPoolGrad", "AvgPoolGrad"},
      {"_ITEXBatchMatMul", "BatchMatMul", {{"is_filter_const", "false"}}, {"grad_x", "grad_y"}},
      {"_ITEXBatchMatMulV2", "BatchMatMulV2", {{"is_filter_const", "false"}}, {"grad_x", "grad_y"}},
      {"_ITEXConv2D", "Conv2D", {{"is_filter_const", "false"}}},
      {"_ITEXConv2DBackpropFilter", "Conv2DBackpropFilter"},
      {"_ITEXConv2DBackpropInput", "Conv2DBackpropInput"},
      {"_ITEXConv3D",
       "Conv3D",
       {{"is_filter_const", "false"}, {"explicit_paddings", "[]"}, {"use_cudnn_on_gpu", "true"}}},
      {"_ITEXConv3DBackpropFilterV2", "Conv3DBackpropFilterV2"},
      {"_ITEXConv3DBackpropInputV2", "Conv3DBackpropInputV2", {}, {}, {}, {"dilations"}},
      {"_ITEXDepthwiseConv2dNative", "DepthwiseConv2dNative", {{"is_filter_const", "false"}}},
      {"_ITEXDepthwiseConv2dNativeBackpropFilter", "DepthwiseConv2dNativeBackpropFilter"},
      {"_ITEXDepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNativeBackpropInput"},
      {"_ITEXDequantize", "Dequantize", {}, {}, {}, {"mode"}},
      {"_ITEXEinsum", "Einsum"},
      {"_ITEXElu", "Elu"},
      {"_ITEXFusedBatchNorm", "FusedBatchNorm", {{"is_inplace", "false"}}},
      {"_ITEXFusedBatchNormEx", "_FusedBatchNormEx", {{"is_inplace", "false"}}},
      {"_ITEXFusedBatchNormGrad", "FusedBatchNormGrad"},
      {"_ITEXFusedBatchNormGradV2", "FusedBatchNormGradV2"},
      {"_ITEXFusedBatchNormGradV3", "FusedBatchNormGradV3"},
      {"_ITEXFusedBatchNormV2",
       "FusedBatchNormV2",
       {{"is_inplace", "false"}},
       {},
       {{"input", "x"}}},
      {"_ITEXFusedBatchNormV3",
       "FusedBatchNormV3",
       {{"is_inplace", "false"}},
       {},
       {{"input", "x"}}},
      {"_ITEXFusedConv3D",
       "_FusedConv3D",
       {{"is_filter_const", "false"}, {"explicit_paddings", "[]"}},
       {"padding_list", "epsilon"}},
      {"_ITEXFusedDepthwiseConv2dNative",
       "_FusedDepthwiseConv2dNative",
       {{"is_filter_const", "false"}, {"explicit_paddings", "[]"}}},
      {"_ITEXLeakyRelu", "LeakyRelu"},
      {"_ITEXLeakyReluGrad", "LeakyReluGrad"},
      // ITEX names its quantized average pooling without the leading underscore.
      {"ITEXQuantizedAvgPool", "QuantizedAvgPool", {{"explicit_paddings", "[]"}}},
      {"_ITEXQuantizedMaxPool", "QuantizedMaxPool", {{"explicit_paddings", "[]"}}},
      {"_ITEXQuantizedReshape", "QuantizedReshape"},
      {"_ITEXRelu6Grad", "Relu6Grad"},
      {"_ITEXReluGrad", "ReluGrad"},
      QuantizedConvolution("_ITEXQuantizedConv2D", "QuantizedConv2D"),
      QuantizedConvolution("_ITEXQuantizedConv2DAndRequantize", "QuantizedConv2DAndRequantize"),
      QuantizedConvolution("_ITEXQuantizedConv2DWithBias", "QuantizedConv2DWithBias"),
      QuantizedConvolution("_ITEXQuantizedConv2DWithBiasAndRelu", "QuantizedConv2DWithBiasAndRelu"),
      QuantizedConvolution("_ITEXQuantizedDepthwiseConv2D", "QuantizedDepthwiseConv2D"),
      QuantizedConvolution("_ITEXQuantizedDepthwiseConv2DWithBias",
                           "QuantizedDepthwiseConv2DWithBias"),
      QuantizedConvolution("_ITEXQuantizedDepthwiseConv2DWithBiasAndRelu",
                           "QuantizedDepthwiseConv2DWithBiasAndRelu"),
      QuantizedConvolution("_ITEXQuantizedDepthwiseConv2DWithBiasAndReluAndRequantize",
                           "QuantizedDepthwiseConv2DWithBiasAndReluAndRequantize"),
      QuantizedProduct("_ITEXQuantizedMatMulWithBias", "QuantizedMatMulWithBias"),
      QuantizedProduct("_ITEXQuantizedMatMulWithBiasAndDequantize",
                       "QuantizedMatMulWithBiasAndDequantize"),
      QuantizedProduct("_ITEXQuantizedMatMulWithBiasAndRelu", "QuantizedMatMulWithBiasAndRelu"),
      QuantizedProduct("_ITEXQuantizedMatMulWithBiasAndReluAndRequantize",
                       "QuantizedMatMulWithBiasAndReluAndRequantize"),
      QuantizedProduct("_ITEXQuantizedMatMulWithBiasAndRequantize",
                       "QuantizedMatMulWithBiasAndRequantize"),
      {"_ITEXSlice", "Slice"},
      {"_ITEXSoftmax", "Softmax", {{"is_inplace", "false"}}},
      {"_ITEXTranspose", "Transpose"},
      // The suite's own (tests/kernel_defects/stand_in_kernels.cc): MatMul's definition and a
      // bool of its own, off by default.
      {"_VendorMatMul", "MatMul", {{"vendor_fast_path", "false"}}},
  };
  return table;
}

// The TensorFlow op's name of the plugin's input `name` (the table's renamed_inputs).
std::string_view TensorFlowInputName(const PluginStandIn& entry, std::string_view name) {
  for (const auto& [plugin, tensorflow] : entry.renamed_inputs) {
    if (plugin == name) return tensorflow;
  }
  return name;
}

// The same arguments in the same order; `entry` given, the plugin's input names through its
// renamed_inputs.
bool SameArgs(const std::vector<ops::ArgDef>& plugin, const std::vector<ops::ArgDef>& tensorflow,
              const PluginStandIn* entry = nullptr) {
  return std::equal(plugin.begin(), plugin.end(), tensorflow.begin(), tensorflow.end(),
                    [&](const ops::ArgDef& x, const ops::ArgDef& y) {
                      const std::string_view name = entry == nullptr
                                                        ? std::string_view(x.name)
                                                        : TensorFlowInputName(*entry, x.name);
                      return name == y.name && x.type == y.type && x.type_attr == y.type_attr &&
                             x.type_list_attr == y.type_list_attr &&
                             x.number_attr == y.number_attr && x.is_ref == y.is_ref;
                    });
}

std::string Trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  return std::string(text.substr(first, text.find_last_not_of(' ') - first + 1));
}

// An attr's default as the case JSON spells it (parsed), else its text.
json DefaultOf(const ops::AttrDef& attr) {
  if (!attr.default_text) return nullptr;
  if (std::holds_alternative<core::AttrNotSet>(attr.default_value))
    return Trimmed(*attr.default_text);
  return AttrJson(attr.default_value);
}

bool Absent(const PluginStandIn& entry, std::string_view attr) {
  return std::find(entry.absent.begin(), entry.absent.end(), attr) != entry.absent.end();
}

bool Explicit(const PluginStandIn& entry, std::string_view attr) {
  return std::find(entry.explicit_attrs.begin(), entry.explicit_attrs.end(), attr) !=
         entry.explicit_attrs.end();
}

// The plugin op's case from the TensorFlow op's: the plugin's own attrs at their plain defaults,
// the absent ones dropped; nullopt when the case sets an absent attr off its default.
std::optional<json> AsPluginCase(const json& source, const ops::OpDef& plugin,
                                 const ops::OpDef& tensorflow, const PluginStandIn& entry,
                                 const std::string& id) {
  json made = source;
  made["borrowed_from"] = source;
  made["op"] = std::string(entry.plugin_op);
  made["id"] = id;
  for (std::string_view absent : entry.absent) {
    const auto given = made["attrs"].find(std::string(absent));
    if (given == made["attrs"].end()) continue;
    const ops::AttrDef* attr = tensorflow.FindAttr(absent);
    if (attr == nullptr || *given != DefaultOf(*attr)) return std::nullopt;
    made["attrs"].erase(given);
  }
  for (const auto& [name, plain] : entry.plain_defaults) {
    const ops::AttrDef* attr = plugin.FindAttr(name);
    // A shared attr (padding_list of the convolutions with a bias) keeps the case's value.
    if (attr == nullptr || tensorflow.FindAttr(name) != nullptr) continue;
    core::AttrValue value = attr->default_value;
    if (Explicit(entry, name)) value = ops::ParseDefaultValue(attr->type, plain).value_or(value);
    if (!std::holds_alternative<core::AttrNotSet>(value))
      made["attrs"][std::string(name)] = AttrJson(value);
  }
  for (std::string_view name : entry.explicit_attrs) {
    const ops::AttrDef* attr = tensorflow.FindAttr(name);
    if (attr == nullptr || made["attrs"].contains(std::string(name))) continue;
    if (!std::holds_alternative<core::AttrNotSet>(attr->default_value))
      made["attrs"][std::string(name)] = AttrJson(attr->default_value);
  }
  made["variant"] = made.value("variant", "") + " (" + std::string(entry.tensorflow_op) + "'s " +
                    made.value("dtype", "") + " record)";
  return made;
}

json NotGenerated(const std::string& id, std::string_view op, TF_DataType dtype,
                  const std::string& reason) {
  return {{"id", id}, {"op", std::string(op)}, {"dtype", DtypeName(dtype)}, {"reason", reason}};
}

// Why no node of the plugin's op has `kernel`'s dtypes: a type constraint its definition's
// attr does not allow (ITEX's half _ITEXReluGrad, whose T allows bfloat16 and float); empty when
// every one is allowed.
std::string Forbidden(const RegisteredKernel& kernel, const ops::OpDef& plugin) {
  for (const auto& [name, type] : kernel.type_constraints) {
    const ops::AttrDef* attr = plugin.FindAttr(name);
    if (attr == nullptr || attr->type != "type" || attr->allowed_types.empty()) continue;
    const auto dtype = static_cast<TF_DataType>(type);
    if (std::find(attr->allowed_types.begin(), attr->allowed_types.end(), dtype) ==
        attr->allowed_types.end()) {
      return "the plugin's own definition of " + kernel.op + " does not allow " + name + "=" +
             DtypeName(dtype);
    }
  }
  return {};
}

}  // namespace

const PluginStandIn* FindPluginStandIn(std::string_view plugin_op) {
  const auto& table = StandInTable();
  const auto found = std::find_if(table.begin(), table.end(), [&](const PluginStandIn& entry) {
    return entry.plugin_op == plugin_op;
  });
  return found == table.end() ? nullptr : &*found;
}

std::string StandInMismatch(const ops::OpDef& plugin, const ops::OpDef& tensorflow,
                            const PluginStandIn& entry) {
  if (!SameArgs(plugin.inputs, tensorflow.inputs, &entry)) return "its inputs differ";
  if (!SameArgs(plugin.outputs, tensorflow.outputs)) return "its outputs differ";
  for (const ops::AttrDef& attr : tensorflow.attrs) {
    const ops::AttrDef* own = plugin.FindAttr(attr.name);
    if (own == nullptr) {
      if (Absent(entry, attr.name) && attr.default_text) continue;
      return "it lacks attr " + attr.name;
    }
    if (Absent(entry, attr.name)) return "it has attr " + attr.name + ", which the table says not";
    if (own->type != attr.type)
      return "attr " + attr.name + " is " + own->type + ", not " + attr.type;
    // Where TensorFlow's attr has no default every case sets it: the plugin's default is unused.
    if (attr.default_text && !Explicit(entry, attr.name) && DefaultOf(*own) != DefaultOf(attr)) {
      return "attr " + attr.name + " defaults to " + own->default_text.value_or("nothing") +
             ", not " + *attr.default_text;
    }
  }
  for (const ops::AttrDef& own : plugin.attrs) {
    if (tensorflow.FindAttr(own.name) != nullptr) continue;
    const auto plain = std::find_if(entry.plain_defaults.begin(), entry.plain_defaults.end(),
                                    [&](const auto& named) { return named.first == own.name; });
    if (plain == entry.plain_defaults.end()) return "attr " + own.name + " is its own";
    if (Explicit(entry, own.name)) {
      if (!ops::ParseDefaultValue(own.type, plain->second))
        return "attr " + own.name + " cannot be " + std::string(plain->second);
      continue;
    }
    if (!own.default_text || Trimmed(*own.default_text) != plain->second) {
      return "attr " + own.name + " defaults to " + own.default_text.value_or("nothing") +
             ", not the plain op's " + std::string(plain->second);
    }
  }
  return {};
}

void AddStandInCells(json& generated, const std::vector<RegisteredKernel>& registered,
                     const ops::OpRegistry& registry,
                     const std::vector<DeclaredPrecision>& precision, PluginOps& plugin_ops) {
  std::set<std::string> done;
  for (const RegisteredKernel& kernel : registered) {
    const PluginStandIn* entry = FindPluginStandIn(kernel.op);
    if (entry == nullptr || registry.Find(kernel.op) != nullptr) continue;
    const ops::OpDef* tensorflow = registry.Find(entry->tensorflow_op);
    const std::shared_ptr<const ops::OpDef> plugin = plugin_ops.Find(kernel.op);
    // The cell as the registrations name it (RegisteredCellNames: no registry definition).
    const std::optional<TF_DataType> dtype = CellDtype(kernel, nullptr);
    if (tensorflow == nullptr || !dtype) continue;
    const std::string id = KernelCaseId(kernel.op, *dtype, kGeneratedCaseName);
    if (!done.insert(id).second) continue;
    if (plugin == nullptr) {
      generated["not_generated"].push_back(
          NotGenerated(id, kernel.op, *dtype,
                       "the plugin's definition of " + kernel.op + " could not be read (" +
                           (plugin_ops.ListingError().empty() ? std::string("not defined")
                                                              : plugin_ops.ListingError()) +
                           "), so nothing says it computes " + std::string(entry->tensorflow_op)));
      continue;
    }
    if (const std::string why = StandInMismatch(*plugin, *tensorflow, *entry); !why.empty()) {
      generated["not_generated"].push_back(
          NotGenerated(id, kernel.op, *dtype,
                       "the plugin's definition of " + kernel.op + " is not " +
                           std::string(entry->tensorflow_op) + "'s: " + why));
      continue;
    }
    // A registration at a dtype the plugin's own definition forbids: no graph holds such a node.
    if (const std::string why = Forbidden(kernel, *plugin); !why.empty()) {
      generated["not_generated"].push_back(NotGenerated(id, kernel.op, *dtype, why));
      continue;
    }
    RegisteredKernel source{std::string(entry->tensorflow_op), {}};
    for (const auto& constraint : kernel.type_constraints) {
      if (tensorflow->FindAttr(constraint.first) != nullptr)
        source.type_constraints.push_back(constraint);
    }
    const json cases = GenerateCases({source}, {}, registry, precision, kRecordedSeed);
    for (const json& cell : cases["not_generated"]) {
      generated["not_generated"].push_back(NotGenerated(
          id, kernel.op, *dtype,
          "as " + std::string(entry->tensorflow_op) + ": " + cell.value("reason", "")));
    }
    for (const json& source_case : cases["cases"]) {
      if (auto made = AsPluginCase(source_case, *plugin, *tensorflow, *entry, id))
        generated["cases"].push_back(std::move(*made));
    }
  }
}

}  // namespace conformance::kernels
