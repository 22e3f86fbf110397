#include "kernels/plugin_stand_ins.h"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "kernels/case_json.h"
#include "kernels/dtype_values.h"
#include "kernels/kernel_scenario.h"
#include "kernels/recorded_oracle.h"

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
// Not here, their definitions deciding it: _ITEXMatMul (an attr `meta: tensor` without a
// default), _ITEXAvgPool and _ITEXFusedBatchNormV2/V3 (their first input is `input`, not
// `value` or `x`), _ITEXEluGrad (its second input is `features`, EluGrad's is `outputs`: which
// tensor it takes is not certain), _ITEXConv3DBackpropInput(V2) (dilations default to 4 ones,
// Conv3DBackpropInputV2's to 5), _ITEXMaxPool* (a workspace input or output), _ITEXRandomUniform
// (draws, no value to compare), the fused ops (fused_ops without a default) and _OneDnn* (layout
// metadata inputs and outputs).
const std::vector<PluginStandIn>& StandInTable() {
  static const std::vector<PluginStandIn> table = {
      {"_ITEXAddN", "AddN"},
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
      {"_ITEXDepthwiseConv2dNative", "DepthwiseConv2dNative", {{"is_filter_const", "false"}}},
      {"_ITEXDepthwiseConv2dNativeBackpropFilter", "DepthwiseConv2dNativeBackpropFilter"},
      {"_ITEXDepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNativeBackpropInput"},
      {"_ITEXEinsum", "Einsum"},
      {"_ITEXElu", "Elu"},
      {"_ITEXFusedBatchNorm", "FusedBatchNorm", {{"is_inplace", "false"}}},
      {"_ITEXFusedBatchNormGrad", "FusedBatchNormGrad"},
      {"_ITEXLeakyRelu", "LeakyRelu"},
      {"_ITEXLeakyReluGrad", "LeakyReluGrad"},
      {"_ITEXRelu6Grad", "Relu6Grad"},
      {"_ITEXReluGrad", "ReluGrad"},
      {"_ITEXSlice", "Slice"},
      {"_ITEXSoftmax", "Softmax", {{"is_inplace", "false"}}},
      {"_ITEXTranspose", "Transpose"},
      // The suite's own (tests/kernel_defects/stand_in_kernels.cc): MatMul's definition and a
      // bool of its own, off by default.
      {"_VendorMatMul", "MatMul", {{"vendor_fast_path", "false"}}},
  };
  return table;
}

bool SameArgs(const std::vector<ops::ArgDef>& a, const std::vector<ops::ArgDef>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const ops::ArgDef& x, const ops::ArgDef& y) {
                      return x.name == y.name && x.type == y.type && x.type_attr == y.type_attr &&
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
    if (attr != nullptr && !std::holds_alternative<core::AttrNotSet>(attr->default_value))
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
  if (!SameArgs(plugin.inputs, tensorflow.inputs)) return "its inputs differ";
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
    if (attr.default_text && DefaultOf(*own) != DefaultOf(attr)) {
      return "attr " + attr.name + " defaults to " + own->default_text.value_or("nothing") +
             ", not " + *attr.default_text;
    }
  }
  for (const ops::AttrDef& own : plugin.attrs) {
    if (tensorflow.FindAttr(own.name) != nullptr) continue;
    const auto plain = std::find_if(entry.plain_defaults.begin(), entry.plain_defaults.end(),
                                    [&](const auto& named) { return named.first == own.name; });
    if (plain == entry.plain_defaults.end()) return "attr " + own.name + " is its own";
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
