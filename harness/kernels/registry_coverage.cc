#include "kernels/registry_coverage.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "kernels/case_families.h"
#include "kernels/complex_values.h"
#include "kernels/dtype_values.h"
#include "kernels/no_cpu_oracle.h"
#include "kernels/random_draws.h"
#include "ops/catalogue.h"

namespace conformance::kernels {
namespace {

// A cell's dtype in this order of preference: what most plugins register first.
const std::vector<TF_DataType>& PreferredDtypes() {
  static const std::vector<TF_DataType> dtypes = {
      TF_FLOAT, TF_INT32, TF_BOOL, TF_DOUBLE, TF_HALF, TF_BFLOAT16, TF_INT64, TF_INT8, TF_INT16,
      TF_UINT8, TF_UINT16, TF_UINT32, TF_UINT64,
      // Where an op allows nothing else (QuantizedAdd, Dequantize): quint8 first, the dtype
      // TensorFlow's CPU registers most quantized kernels for.
      TF_QUINT8, TF_QINT8, TF_QINT32, TF_QINT16, TF_QUINT16,
      // Last: an op's complex cells where it allows nothing else (FFT, Conj, Real).
      TF_COMPLEX64, TF_COMPLEX128};
  return dtypes;
}

bool TypesInput(const ops::OpDef& def, const std::string& attr) {
  return std::any_of(def.inputs.begin(), def.inputs.end(),
                     [&](const ops::ArgDef& input) { return input.type_attr == attr; });
}

// The attr a plugin's kernel is registered for first: a resource variable's dtype attr (the
// generator's cell, VariableCellAttr: StatefulUniform's dtype, not the shape_dtype of its shape),
// else the one typing the first output and an input, else the first input's, else the type list
// of the first input where a family gives its dtypes (IdentityN's T, a kernel registered for
// lists of one dtype).
std::string MainTypeAttr(const ops::OpDef& def) {
  if (std::string held = VariableCellAttr(def); !held.empty()) return held;
  if (!def.outputs.empty() && !def.outputs.front().type_attr.empty() &&
      TypesInput(def, def.outputs.front().type_attr))
    return def.outputs.front().type_attr;
  for (const ops::ArgDef& input : def.inputs) {
    if (!input.type_attr.empty()) return input.type_attr;
  }
  return TypeListCellAttr(def);
}

bool Allows(const ops::AttrDef& attr, TF_DataType dtype) {
  return attr.allowed_types.empty() ||
         std::find(attr.allowed_types.begin(), attr.allowed_types.end(), dtype) !=
             attr.allowed_types.end();
}

// The group a reason falls in, for the page's table of what has no cases.
std::string GroupOf(const std::string& reason) {
  const auto has = [&](const char* text) { return reason.find(text) != std::string::npos; };
  if (has(kNoCpuKernelReason.data())) return "no TensorFlow CPU kernel any node finds";
  if (has(kRandomDrawsReason.data())) return "stateful random draws no recorded value judges";
  if (has(kCpuDiesReason.data())) return "TensorFlow's CPU kernel dies on every case";
  if (has(kUnreproducibleReason.data()))
    return "TensorFlow's CPU gives other results on another run (undefined values)";
  if (has(kSharedStateReason.data()))
    return "state earlier calls leave in the process (collectives, staging areas)";
  if (has("(dtype20)")) return "resource handles (variables, tables, iterators, queues)";
  if (has("(dtype21)")) return "variant tensors (datasets, tensor lists, optionals)";
  if (has("(dtype7)") || has("(string)")) return "strings";
  if (has("is a reference")) return "reference inputs (TensorFlow 1 variables)";
  if (has("list of types") || has("(a list of types)"))
    return "lists of types (functions, queues, datasets, summaries)";
  if (has("no inputs")) return "no inputs (sources, constants, test ops)";
  if (has("no dtype the suite") || has("no values in the suite") || has("(dtype"))
    return "dtypes the suite has no values for (quantized, float8, int4)";
  if (has("has no default")) return "attrs without a default that no family gives";
  if (has("is typed by attr")) return "related inputs that no family describes";
  if (has("rejects every same-shape case"))
    return "same-shape cases TensorFlow's CPU rejects (inputs relate; no family yet)";
  if (has("dies on a same-shape case")) return "same-shape cases TensorFlow's CPU dies on";
  return "other";
}

}  // namespace

std::vector<RegisteredKernel> RegistryKernels(const ops::OpDef& def,
                                              const std::vector<TF_DataType>& dtypes, bool every) {
  const std::string main_attr = MainTypeAttr(def);
  // Other type attrs typing inputs, and those without a default typing only outputs: the
  // default, else the main dtype (BatchMatMulV3's Tb), else its complex counterpart (Eig's Tout),
  // else int32 (an index), else the first allowed the suite has values for. Set for each main
  // dtype below.
  const auto others = [&](TF_DataType main) {
    std::vector<std::pair<std::string, int>> fixed;
    for (const ops::AttrDef& attr : def.attrs) {
      if (attr.type != "type" || attr.name == main_attr) continue;
      const auto* given = std::get_if<TF_DataType>(&attr.default_value);
      if (!TypesInput(def, attr.name) && given != nullptr) continue;  // left open: every dtype
      TF_DataType chosen = attr.allowed_types.empty() ? main : attr.allowed_types.front();
      const std::optional<TF_DataType> counterpart = ComplexCounterpart(main);
      if (given != nullptr) {
        chosen = *given;
      } else if (Allows(attr, main)) {
        chosen = main;
      } else if (counterpart && Allows(attr, *counterpart)) {
        chosen = *counterpart;  // Eig's Tout: complex128 for double, as its kernels pair them
      } else if (Allows(attr, TF_INT32)) {
        chosen = TF_INT32;
      } else {
        for (TF_DataType type : PreferredDtypes()) {
          if (Allows(attr, type)) {
            chosen = type;
            break;
          }
        }
      }
      fixed.emplace_back(attr.name, static_cast<int>(chosen));
    }
    return fixed;
  };
  if (main_attr.empty()) return {RegisteredKernel{def.name, others(TF_FLOAT)}};
  const ops::AttrDef* attr = def.FindAttr(main_attr);
  std::vector<RegisteredKernel> kernels;
  for (TF_DataType dtype : dtypes) {
    if (attr == nullptr || !Allows(*attr, dtype)) continue;
    RegisteredKernel kernel{def.name, {{main_attr, static_cast<int>(dtype)}}};
    const auto fixed = others(dtype);
    kernel.type_constraints.insert(kernel.type_constraints.end(), fixed.begin(), fixed.end());
    kernels.push_back(std::move(kernel));
    if (!every) break;
  }
  return kernels;
}

std::vector<OpCoverage> RegistryCoverage(const ops::OpRegistry& registry, std::uint64_t seed) {
  std::vector<OpCoverage> result;
  for (std::string_view name : registry.OpNames()) {
    const ops::OpDef& def = *registry.Find(name);
    OpCoverage coverage;
    coverage.op = std::string(name);
    const std::vector<const CaseFamily*> families = FamiliesOf(name);
    if (!families.empty()) coverage.family = families.front()->name;
    const std::vector<RegisteredKernel> kernels = RegistryKernels(def, PreferredDtypes(), false);
    if (kernels.empty()) {
      coverage.reason = "its main type attr allows no dtype the suite has values for";
    } else if (FindStatefulRandomOp(name) != nullptr) {
      // Judged by its draws (random_draws.h): one check of two computes, no recorded value.
      coverage.cases = 1;
      coverage.family = "stateful random draws";
      const std::optional<TF_DataType> cell = CellDtype(kernels.front(), &def);
      coverage.dtype = cell ? DtypeName(*cell) : std::string();
    } else {
      nlohmann::json generated = GenerateCases(kernels, {}, registry, {}, seed);
      // A family whose cases are for other cells than the preferred one (StatefulUniformInt's
      // integers: TensorFlow has no float kernel of it) is counted at the first dtype, in the
      // preferred order, its cases are for: a plugin registers the op there.
      if (generated.at("cases").empty() && !families.empty()) {
        for (const RegisteredKernel& other : RegistryKernels(def, PreferredDtypes(), true)) {
          nlohmann::json cases = GenerateCases({other}, {}, registry, {}, seed);
          if (!cases.at("cases").empty()) {
            generated = std::move(cases);
            break;
          }
        }
      }
      // A family op whose only open type attr types an output (UnicodeDecode's Tsplits, with a
      // default, left open above): a plugin constrains it, and the generator names the cell by
      // it (ops::OutputOnlyCellAttr), so it is counted at the first such dtype with cases.
      const std::string output_only = ops::OutputOnlyCellAttr(def);
      const ops::AttrDef* output_attr = def.FindAttr(output_only);
      if (generated.at("cases").empty() && !families.empty() && output_attr != nullptr) {
        for (TF_DataType dtype : PreferredDtypes()) {
          if (!Allows(*output_attr, dtype)) continue;
          nlohmann::json cases =
              GenerateCases({RegisteredKernel{def.name, {{output_only, static_cast<int>(dtype)}}}},
                            {}, registry, {}, seed);
          if (!cases.at("cases").empty()) {
            generated = std::move(cases);
            break;
          }
        }
      }
      coverage.cases = generated.at("cases").size();
      if (!generated.at("cases").empty()) {
        coverage.dtype = generated.at("cases").at(0).at("dtype").get<std::string>();
      } else if (!generated.at("not_generated").empty()) {
        coverage.dtype = generated.at("not_generated").at(0).at("dtype").get<std::string>();
        coverage.reason = generated.at("not_generated").at(0).at("reason").get<std::string>();
      } else if (const auto no_oracle = BuiltinNoCpuOracle().find(coverage.op);
                 no_oracle != BuiltinNoCpuOracle().end()) {
        // No cell to name (TypeList's only type attr is a list): no kernel judges it anyway.
        coverage.reason = no_oracle->second;
      } else if (def.inputs.empty()) {
        coverage.reason = "the op has no inputs";
      } else if (!def.inputs.front().type_list_attr.empty()) {
        coverage.reason = "input '" + def.inputs.front().name + "' is a list of types";
      } else {
        const std::optional<TF_DataType> cell = CellDtype(kernels.front(), &def);
        coverage.reason = "its cell's dtype has no values in the suite (" +
                          (cell ? DtypeName(*cell) : std::string("none")) + ")";
      }
    }
    if (coverage.cases > 0) {
      const auto refusal = BuiltinSameShapeRefusals().find(coverage.op);
      coverage.no_cpu_kernel =
          refusal != BuiltinSameShapeRefusals().end() && refusal->second == "no_cpu_kernel";
    }
    if (coverage.cases == 0) {
      if (coverage.reason.empty()) coverage.reason = "every case of its family left out";
      coverage.group = GroupOf(coverage.reason);
    }
    result.push_back(std::move(coverage));
  }
  return result;
}

// Reasons no generated case could remove: what a device kernel's constant-tensor cases cannot
// drive at all.
bool Undrivable(const std::string& group) {
  return group.starts_with("resource") || group.starts_with("variant") ||
         group.starts_with("strings") || group.starts_with("reference") ||
         group.starts_with("lists of types") || group.starts_with("no inputs") ||
         group.starts_with("dtypes the suite");
}

std::string CoveragePage(const ops::OpRegistry& registry, const std::vector<OpCoverage>& ops) {
  const auto percent = [](std::size_t part, std::size_t whole) {
    std::ostringstream text;
    text.precision(1);
    text << std::fixed << (whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / whole) << "%";
    return text.str();
  };
  std::size_t with_cases = 0, judged = 0, undrivable = 0;
  std::map<std::string, std::pair<std::size_t, std::size_t>> by_family;  // with cases, all
  std::map<std::string, std::vector<const OpCoverage*>> by_group;
  std::vector<const OpCoverage*> without_cpu_kernel;
  for (const OpCoverage& op : ops) {
    const std::string family = op.family.empty() ? "(same-shape inputs, no family)" : op.family;
    by_family[family].second++;
    if (op.cases > 0) {
      ++with_cases;
      by_family[family].first++;
      if (op.no_cpu_kernel)
        without_cpu_kernel.push_back(&op);
      else
        ++judged;
    } else {
      by_group[op.group].push_back(&op);
      if (Undrivable(op.group)) ++undrivable;
    }
  }
  const std::size_t drivable = ops.size() - undrivable;
  std::ostringstream page;
  page << "# Generated kernel cases over TensorFlow " << registry.release() << "'s op registry\n\n"
       << "Written by `op_coverage` (conformance/kernels/op_coverage_main.cc); "
          "`kernels.op_coverage_in_sync` keeps it current. Do not edit.\n\n"
       << "One cell per op, as a plugin would register it (float where the op allows it), run "
          "through the case generator (harness/kernels/generated_cases.h) with the op families "
          "of specs/ops/families and TensorFlow's CPU's measured refusals "
          "(specs/ops/families/same_shape_refusals.yaml).\n\n"
       << "- **" << with_cases << " of " << ops.size() << " ops ("
       << percent(with_cases, ops.size())
       << ") have generated cases**; TensorFlow's CPU has a kernel to judge " << judged
       << " of them (" << percent(judged, ops.size()) << " of the registry).\n"
       << "- " << undrivable << " ops take no tensors a kernel case can make (resource handles, "
       << "variants, strings, references, type lists, no inputs, dtypes without values): of the "
       << drivable << " others, " << with_cases << " (" << percent(with_cases, drivable)
       << ") have cases.\n\n"
       << "## By family\n\n| family | ops with cases | ops |\n|---|---:|---:|\n";
  for (const auto& [family, counts] : by_family)
    page << "| " << family << " | " << counts.first << " | " << counts.second << " |\n";
  page << "\n## Without cases, by reason\n\n| reason | ops |\n|---|---:|\n";
  for (const auto& [group, members] : by_group)
    page << "| " << group << " | " << members.size() << " |\n";
  page << "\n## With cases, but no TensorFlow CPU kernel for the cell's dtype ("
       << without_cpu_kernel.size() << ")\n\n";
  for (const OpCoverage* op : without_cpu_kernel) page << "`" << op->op << "` ";
  page << "\n";
  for (const auto& [group, members] : by_group) {
    page << "\n### " << group << " (" << members.size() << ")\n\n";
    for (const OpCoverage* op : members) page << "- `" << op->op << "`: " << op->reason << "\n";
  }
  return page.str();
}

}  // namespace conformance::kernels
