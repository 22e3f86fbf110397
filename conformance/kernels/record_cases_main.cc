// record_case_dump [--release R] [--seed N] [--op OP]... [OUT]: the generated cases
// (generated_cases.h) of every op of TensorFlow's registry for `release` (default: the record's,
// recorded_oracle.h), as if one plugin registered a kernel for every dtype each op allows, each
// case with the digests of its attrs and inputs. specs/ops/record/record.py runs them on
// TensorFlow's CPU and writes the record; the record's own test compares the digests with it.
// record_case_dump --registered-by PLUGIN: how many of the (op, dtype) cells the plugin registers
// the record can judge (BENCHMARKS.md: DirectML's), as JSON, whether or not it has a device.
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/recorder.h"
#include "kernels/borrowed_cells.h"
#include "kernels/case_families.h"
#include "kernels/dtype_values.h"
#include "kernels/generated_cases.h"
#include "kernels/kernel_scenario_set.h"
#include "kernels/plugin_op_listing.h"
#include "kernels/plugin_stand_ins.h"
#include "kernels/random_draws.h"
#include "kernels/recorded_oracle.h"
#include "kernels/registered_kernels.h"
#include "ops/catalogue.h"
#include "ops/registry.h"

namespace {

using nlohmann::json;
using namespace conformance;

constexpr const char* kUsage =
    "usage: record_case_dump [--release R] [--seed N] [--op OP]... [OUT]\n"
    "       record_case_dump --registered-by PLUGIN\n"
    "Writes the generated cases of every op of TensorFlow R's registry (or of the ops named),\n"
    "one kernel per dtype the op allows, with their digests, as JSON to OUT (default: stdout).\n";

// The attr naming an op's cells, as the generator names a registration's (generated_cases.cc's
// PrimaryAttr): a resource variable's dtype attr (kernels::VariableCellAttr), else the first
// output's type attr where it also types an input (Fill's T, not the index_type of its dims),
// else the first output's where only defaulted attrs type the inputs (StatelessRandomUniform's
// dtype: ops::OutputOnlyCellAttr), else the first type attr typing an input, else none.
std::string PrimaryTypeAttr(const ops::OpDef& def) {
  if (std::string held = kernels::VariableCellAttr(def); !held.empty()) return held;
  const auto types_input = [&](const std::string& attr) {
    return std::any_of(def.inputs.begin(), def.inputs.end(),
                       [&](const ops::ArgDef& input) { return input.type_attr == attr; });
  };
  if (!def.outputs.empty() && !def.outputs.front().type_attr.empty() &&
      types_input(def.outputs.front().type_attr)) {
    return def.outputs.front().type_attr;
  }
  if (std::string output_only = ops::OutputOnlyCellAttr(def); !output_only.empty())
    return output_only;
  for (const ops::ArgDef& input : def.inputs) {
    if (!input.type_attr.empty() && input.number_attr.empty()) return input.type_attr;
  }
  for (const ops::ArgDef& input : def.inputs) {
    if (!input.type_attr.empty()) return input.type_attr;
  }
  return kernels::TypeListCellAttr(def);
}

// Ops TensorFlow marks stateful for a side effect, not for their values, which depend on the
// inputs alone: CheckNumerics (an error instead of a NaN or inf passing silently), DeepCopy (a
// copy no other op shares), Empty, whose family sets init=true (zeros; init=false leaves the
// values undefined and has no case), DebugIdentityV3 (its state is the debug URLs it
// writes to; its family gives none), Print (its input, and a line in the log), Assert (no
// outputs; the condition decides between OK and INVALID_ARGUMENT), XlaDequantize (stateful
// for XLA's sake; its bfloat16 values are a function of the packed codes), and
// CollectiveAssignGroupV2 (stateful for the collectives' sake; its group size and key are a
// function of its inputs, relation_families.yaml), and the sources of source_families.yaml
// TensorFlow marks stateful: GraphDefVersion and IsTensorFloat32Enabled (the release's and the
// process's default setting's value), DeviceIndex (a function of device_names where no name is
// the device's type) and _ParallelConcatStart (its values undefined: the record holds zeros).
// Measured on 2.21.0's CPU: two runs of each give the same bytes (record.py --reproduce checks
// it again).
bool DeterministicStateful(const std::string& op) {
  static const std::set<std::string> ops = {"Assert",
                                            "CheckNumerics",
                                            "CheckNumericsV2",
                                            "CollectiveAssignGroupV2",
                                            "DebugIdentityV3",
                                            "DeepCopy",
                                            "DeviceIndex",
                                            "Empty",
                                            "GraphDefVersion",
                                            "IsTensorFloat32Enabled",
                                            "Print",
                                            "XlaDequantize",
                                            "_ParallelConcatStart"};
  return ops.contains(op);
}

// Strings and quantized dtypes are left out here: an op whose type attr allows any dtype
// (Identity, Reshape, Cast) is recorded at its numeric dtypes, string cells only where
// RecordsStringCells says and quantized ones where RecordsQuantizedCells does.
bool SuiteHasValues(TF_DataType dtype) {
  return dtype != TF_STRING && !kernels::IsQuantized(dtype) &&
         kernels::DtypeFromName(kernels::DtypeName(dtype)).has_value();
}

// Whether a family of `file` (a name under specs/ops/families) names the op.
bool NamedByFamilyFile(const ops::OpDef& def, const char* file) {
  const auto families = kernels::FamiliesOf(def.name);
  return std::any_of(families.begin(), families.end(), [&](const kernels::CaseFamily* family) {
    return family->file.ends_with(file);
  });
}

// Whether the op's quantized cells are recorded: a family of quantized_families.yaml names it,
// giving the float range its quantized inputs stand for (QuantizedAdd's min_x and max_x).
bool RecordsQuantizedCells(const ops::OpDef& def) {
  return NamedByFamilyFile(def, "quantized_families.yaml");
}

// Whether the op's string cell is recorded: a family of specs/ops/families/string_families.yaml
// names it, saying what its text must be (AsString, ReduceJoin). Ops of fixed string inputs
// (StringLength) have no type attr to choose and are recorded as they are.
bool RecordsStringCells(const ops::OpDef& def) {
  return NamedByFamilyFile(def, "string_families.yaml");
}

// An index dtype attr besides the primary one: it types an input and allows integers only,
// int32 and int64 among them (GatherV2's Tindices and Taxis, OneHot's TI, SplitV's Tlen).
bool IsIndexTypeAttr(const ops::OpDef& def, const ops::AttrDef& attr, const std::string& primary) {
  if (attr.name == primary || attr.type != "type" || attr.allowed_types.empty()) return false;
  const bool types_input =
      std::any_of(def.inputs.begin(), def.inputs.end(),
                  [&](const auto& input) { return input.type_attr == attr.name; });
  const auto allows = [&](TF_DataType dtype) {
    return std::find(attr.allowed_types.begin(), attr.allowed_types.end(), dtype) !=
           attr.allowed_types.end();
  };
  const bool integers_only =
      std::all_of(attr.allowed_types.begin(), attr.allowed_types.end(), [](TF_DataType dtype) {
        return dtype == TF_INT8 || dtype == TF_INT16 || dtype == TF_INT32 || dtype == TF_INT64 ||
               dtype == TF_UINT8 || dtype == TF_UINT16 || dtype == TF_UINT32 || dtype == TF_UINT64;
      });
  return types_input && integers_only && allows(TF_INT32) && allows(TF_INT64);
}

// The type attrs without a default that a registration must fix besides the primary one and
// the index dtypes.
std::vector<const ops::AttrDef*> FixedTypeAttrs(const ops::OpDef& def, const std::string& primary) {
  std::vector<const ops::AttrDef*> fixed;
  for (const ops::AttrDef& attr : def.attrs) {
    if (attr.name != primary && attr.type == "type" && !attr.default_text &&
        !IsIndexTypeAttr(def, attr, primary)) {
      fixed.push_back(&attr);
    }
  }
  return fixed;
}

// Each kernel of `kernels` once per integer dtype the attr allows, int32 and int64 first
// (DirectML registers OneHot's TI at uint8 too, and a cell's cases follow its first kernel).
std::vector<kernels::RegisteredKernel> WithIndexDtypes(
    const std::vector<kernels::RegisteredKernel>& kernels, const ops::AttrDef& attr) {
  std::vector<TF_DataType> indices = {TF_INT32, TF_INT64};
  for (TF_DataType allowed : attr.allowed_types) {
    if (allowed != TF_INT32 && allowed != TF_INT64 && SuiteHasValues(allowed) &&
        std::find(indices.begin(), indices.end(), allowed) == indices.end()) {
      indices.push_back(allowed);
    }
  }
  std::vector<kernels::RegisteredKernel> every;
  for (TF_DataType index : indices) {
    for (kernels::RegisteredKernel kernel : kernels) {
      kernel.type_constraints.emplace_back(attr.name, static_cast<int>(index));
      every.push_back(std::move(kernel));
    }
  }
  return every;
}

// A defaulted type attr typing an input besides the primary one and the index dtypes
// (MaxPool3DGrad's TInput = float): plugins register it at the cell's dtype (DirectML's
// T=half TInput=half), so each kernel is recorded at the default and, where the attr allows
// it, at the cell's dtype as well.
std::vector<kernels::RegisteredKernel> WithCellDtype(
    const std::vector<kernels::RegisteredKernel>& kernels, const ops::OpDef& def,
    const ops::AttrDef& attr, TF_DataType cell) {
  std::vector<kernels::RegisteredKernel> both = kernels;
  const auto* given = std::get_if<TF_DataType>(&attr.default_value);
  const std::vector<TF_DataType> allowed = ops::AllowedTypes(def, attr.name);
  if (given == nullptr || *given == cell ||
      std::find(allowed.begin(), allowed.end(), cell) == allowed.end()) {
    return both;
  }
  for (kernels::RegisteredKernel kernel : kernels) {
    kernel.type_constraints.emplace_back(attr.name, static_cast<int>(cell));
    both.push_back(std::move(kernel));
  }
  return both;
}

// Whether `attr` is a defaulted type attr that types an input and is neither the primary nor an
// index dtype (WithCellDtype's).
bool IsDefaultedInputTypeAttr(const ops::OpDef& def, const ops::AttrDef& attr,
                              const std::string& primary) {
  if (attr.name == primary || attr.type != "type" || !attr.default_text ||
      IsIndexTypeAttr(def, attr, primary)) {
    return false;
  }
  return std::any_of(def.inputs.begin(), def.inputs.end(),
                     [&](const auto& input) { return input.type_attr == attr.name; });
}

// The dtypes a quantized op's other type attr without a default is recorded at: not all five
// (most of QuantizedConv2D's 25 pairs no kernel anywhere registers) but those kernels take: the
// cell's dtype, qint8 (oneDNN's filters and weights: QuantizedMatMulWithBias's T2), and where
// the attr is the op's only other one, quint8 and qint32 too (QuantizedBiasAdd's out_type,
// QuantizeDownAndShrinkRange's); an output-only attr at qint32 too (accumulators); and the
// first other dtype the suite has values for (Tbias: float). An attr allowing none of them
// (UniformQuantizedDot's Tout: qint32 only) at its first allowed dtype.
std::vector<TF_DataType> QuantizedAttrDtypes(const ops::OpDef& def, const ops::AttrDef& attr,
                                             TF_DataType cell, bool only_other) {
  const std::vector<TF_DataType> allowed = ops::AllowedTypes(def, attr.name);
  const bool output_only =
      std::none_of(def.inputs.begin(), def.inputs.end(),
                   [&](const auto& input) { return input.type_attr == attr.name; });
  std::vector<TF_DataType> wanted = {cell, TF_QINT8};
  if (only_other) wanted.push_back(TF_QUINT8);
  if (only_other || output_only) wanted.push_back(TF_QINT32);
  const auto plain = std::find_if(allowed.begin(), allowed.end(), SuiteHasValues);
  if (plain != allowed.end()) wanted.push_back(*plain);
  std::vector<TF_DataType> dtypes;
  for (TF_DataType dtype : wanted) {
    if (std::find(allowed.begin(), allowed.end(), dtype) != allowed.end() &&
        std::find(dtypes.begin(), dtypes.end(), dtype) == dtypes.end()) {
      dtypes.push_back(dtype);
    }
  }
  if (dtypes.empty() && !allowed.empty()) dtypes.push_back(allowed.front());
  return dtypes;
}

// A quantized op's kernels of one cell: every combination of its other attrs' dtypes
// (QuantizedAttrDtypes), at most a few: Tfilter and Tsummand at two each, Tbias at one.
std::vector<kernels::RegisteredKernel> QuantizedCellKernels(
    const ops::OpDef& def, const kernels::RegisteredKernel& cell, TF_DataType dtype,
    const std::vector<const ops::AttrDef*>& fixed_attrs) {
  std::vector<kernels::RegisteredKernel> kernels = {cell};
  for (const ops::AttrDef* attr : fixed_attrs) {
    std::vector<kernels::RegisteredKernel> wider;
    for (TF_DataType other : QuantizedAttrDtypes(def, *attr, dtype, fixed_attrs.size() == 1)) {
      for (kernels::RegisteredKernel kernel : kernels) {
        kernel.type_constraints.emplace_back(attr->name, static_cast<int>(other));
        wider.push_back(std::move(kernel));
      }
    }
    kernels = std::move(wider);
  }
  return kernels;
}

// One kernel per dtype of the primary type attr, as a plugin registers them. A single other
// type attr without a default (Cast's DstT) is recorded for every dtype it allows that the suite
// has values for, since plugins register many pairs; with more than one, each is fixed to the
// cell's dtype where it allows it, else to its first allowed dtype with values. Index dtypes
// (IsIndexTypeAttr) are recorded at every integer dtype they allow, defaulted or not: plugins
// register several (DirectML's GatherV2, OneHot, SplitV), and the generator keeps the
// registration's. Other defaulted input type attrs also at the cell's dtype (WithCellDtype).
std::vector<kernels::RegisteredKernel> KernelsOf(const ops::OpDef& def) {
  const std::string primary = PrimaryTypeAttr(def);
  if (primary.empty()) return {{def.name, {}}};
  const std::vector<const ops::AttrDef*> fixed_attrs = FixedTypeAttrs(def, primary);
  std::vector<kernels::RegisteredKernel> kernels;
  const bool quantized = RecordsQuantizedCells(def);
  for (TF_DataType dtype : ops::AllowedTypes(def, primary)) {
    if (!SuiteHasValues(dtype) && !(dtype == TF_STRING && RecordsStringCells(def)) &&
        !(quantized && kernels::IsQuantized(dtype))) {
      continue;
    }
    const kernels::RegisteredKernel cell{def.name, {{primary, static_cast<int>(dtype)}}};
    std::vector<kernels::RegisteredKernel> cell_kernels;
    if (quantized) {
      cell_kernels = QuantizedCellKernels(def, cell, dtype, fixed_attrs);
    } else if (fixed_attrs.size() == 1) {
      for (TF_DataType other : ops::AllowedTypes(def, fixed_attrs.front()->name)) {
        if (!SuiteHasValues(other)) continue;
        kernels::RegisteredKernel kernel = cell;
        kernel.type_constraints.emplace_back(fixed_attrs.front()->name, static_cast<int>(other));
        cell_kernels.push_back(std::move(kernel));
      }
    } else {
      kernels::RegisteredKernel kernel = cell;
      for (const ops::AttrDef* attr : fixed_attrs) {
        const std::vector<TF_DataType> allowed = ops::AllowedTypes(def, attr->name);
        TF_DataType fixed = dtype;
        if (std::find(allowed.begin(), allowed.end(), dtype) == allowed.end()) {
          const auto first = std::find_if(allowed.begin(), allowed.end(), SuiteHasValues);
          if (first == allowed.end()) continue;
          fixed = *first;
        }
        kernel.type_constraints.emplace_back(attr->name, static_cast<int>(fixed));
      }
      cell_kernels.push_back(std::move(kernel));
    }
    for (const ops::AttrDef& attr : def.attrs) {
      if (IsIndexTypeAttr(def, attr, primary)) cell_kernels = WithIndexDtypes(cell_kernels, attr);
      if (IsDefaultedInputTypeAttr(def, attr, primary))
        cell_kernels = WithCellDtype(cell_kernels, def, attr, dtype);
    }
    for (kernels::RegisteredKernel& kernel : cell_kernels) kernels.push_back(std::move(kernel));
  }
  return kernels;
}

// GenerateCases makes one kernel's cases per (op, cell dtype), as one check per cell judges a
// plugin's; the record keeps every registered pair (Cast bool->float and bool->int32), so the
// kernels go in rounds in which no cell repeats, and the rounds' cases are joined.
json GenerateEveryKernel(const std::vector<kernels::RegisteredKernel>& kernels,
                         const ops::OpRegistry& registry, std::uint64_t seed) {
  std::vector<std::vector<kernels::RegisteredKernel>> rounds;
  std::vector<std::set<std::pair<std::string, int>>> cells_in_round;
  std::set<std::pair<std::string, std::vector<std::pair<std::string, int>>>> seen;
  for (const kernels::RegisteredKernel& kernel : kernels) {
    // An op's allowed list may name a dtype twice (Mod's half): one kernel, not two rounds.
    if (!seen.emplace(kernel.op, kernel.type_constraints).second) continue;
    const std::pair<std::string, int> cell{
        kernel.op, kernel.type_constraints.empty() ? -1 : kernel.type_constraints.front().second};
    std::size_t round = 0;
    while (round < rounds.size() && cells_in_round[round].contains(cell)) ++round;
    if (round == rounds.size()) {
      rounds.emplace_back();
      cells_in_round.emplace_back();
    }
    rounds[round].push_back(kernel);
    cells_in_round[round].insert(cell);
  }
  json dump = {{"cases", json::array()}, {"not_generated", json::array()}};
  std::set<std::string> not_generated;
  for (const auto& round : rounds) {
    json part = kernels::GenerateCases(round, {}, registry, {}, seed);
    for (json& kernel_case : part["cases"]) dump["cases"].push_back(std::move(kernel_case));
    for (json& cell : part["not_generated"]) {
      if (not_generated.insert(cell.value("id", "")).second)
        dump["not_generated"].push_back(std::move(cell));
    }
  }
  return dump;
}

// Per registered cell of `plugin`: whether the record holds a TensorFlow result for one of its
// generated cases (a cell a scenario covers counts as covered, as the kernel tier runs it).
// A plugin without a device here (DirectML without D3D12) does not come up in the mock core:
// its TF_InitKernel is called directly and its registrations for a device other than the CPU
// read back (run with LD_LIBRARY_PATH naming the mock core's libraries, which it links).
std::variant<std::vector<kernels::RegisteredKernel>, std::string> InitKernelOnly(
    const std::string& plugin) {
  void* library = dlopen(plugin.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return std::string(dlerror());
  auto* init = reinterpret_cast<void (*)()>(dlsym(library, "TF_InitKernel"));
  if (init == nullptr) return std::string("no TF_InitKernel");
  core::Recorder::Instance().SetCurrentPlugin(plugin);
  init();
  std::vector<kernels::RegisteredKernel> registered;
  for (const core::KernelRegistration& kernel : core::Recorder::Instance().Kernels()) {
    if (kernel.device_type == "CPU" || !kernel.label.empty()) continue;
    registered.push_back({kernel.op_name, kernel.type_constraints});
  }
  return registered;
}

int RegisteredBy(const std::string& plugin, const ops::OpRegistry& registry) {
  auto listed = kernels::ListRegisteredKernels(plugin, 120);
  if (std::holds_alternative<std::string>(listed)) listed = InitKernelOnly(plugin);
  if (const auto* why = std::get_if<std::string>(&listed)) {
    std::cerr << "record_case_dump: " << *why << '\n';
    return 1;
  }
  const auto& registered = std::get<std::vector<kernels::RegisteredKernel>>(listed);
  const std::vector<kernels::KernelScenario> scenarios = kernels::BuiltinKernelScenarios();
  json generated =
      kernels::GenerateCases(registered, scenarios, registry, {}, kernels::kRecordedSeed);
  kernels::BorrowRejectedCells(generated, registered, registry, {});
  // The plugin's own ops that compute a TensorFlow op's values, as the kernel tier judges them.
  kernels::PluginOps plugin_ops(
      [&plugin] { return kernels::ListPluginOps(plugin, kernels::kPluginOpsListingSeconds); });
  kernels::AddStandInCells(generated, registered, registry, {}, plugin_ops);
  std::map<std::string, std::string> cells;  // "Op dtype" -> "recorded", "scenario" or why not
  for (const auto& [op, dtype] : kernels::RegisteredCellNames(registered, &registry))
    cells[op + " " + dtype] = "no case generated (TensorFlow lacks the op, or no values for it)";
  for (const kernels::KernelScenario& scenario : scenarios) {
    for (TF_DataType dtype : scenario.dtypes) {
      const auto cell = cells.find(scenario.op + " " + kernels::DtypeName(dtype));
      if (cell != cells.end()) cell->second = "scenario";
    }
  }
  // A stateful random op's cell is judged by its draws (random_draws.h), as the kernel tier's
  // RandomDrawUnits does for a registration constraining the draws' dtype attr.
  for (const kernels::RegisteredKernel& kernel : registered) {
    const kernels::StatefulRandomOp* random_op = kernels::FindStatefulRandomOp(kernel.op);
    if (random_op == nullptr) continue;
    const auto dtype = kernels::CellDtype(kernel, registry.Find(kernel.op));
    const auto cell = cells.find(kernel.op + " " + (dtype ? kernels::DtypeName(*dtype) : "*"));
    if (dtype && cell != cells.end()) cell->second = "random draws";
  }
  // A case of a kernel registered for every dtype (cell "*") counts for that cell, whichever
  // dtype it was generated at (unconstrained_cells.h).
  const auto cell_of = [&](const std::string& op, const std::string& dtype) {
    const std::string own = op + " " + dtype;
    return !cells.contains(own) && cells.contains(op + " *") ? op + " *" : own;
  };
  for (const json& cell : generated["not_generated"]) {
    std::string& state = cells[cell_of(cell.value("op", ""), cell.value("dtype", ""))];
    if (!state.starts_with("recorded")) state = "not generated: " + cell.value("reason", "");
  }
  const std::string directory = kernels::RecordDirectory();
  std::map<std::string, std::unique_ptr<kernels::RecordedOp>> records;
  for (const json& kernel_case : generated["cases"]) {
    const std::string op = kernel_case.value("op", "");
    std::string& state = cells[cell_of(op, kernel_case.value("dtype", ""))];
    if (state == "recorded" || kernel_case.value("companion", false)) continue;
    const std::string recorded_op = kernels::RecordedAs(kernel_case).value("op", op);
    auto& record = records[recorded_op];
    if (!record) record = std::make_unique<kernels::RecordedOp>(directory, recorded_op);
    const kernels::RecordedCase found = record->Find(kernels::RecordedAs(kernel_case));
    // A cell whose every case TensorFlow's CPU rejects has nothing to compare (skipped).
    if (found.kind != kernels::RecordedCase::Kind::kResult) {
      if (!state.starts_with("recorded")) state = found.reason;
    } else if (found.cpu.contains("outputs")) {
      state = "recorded";  // at another dtype for a borrowed cell (borrowed_cells.h)
    } else {
      state = "recorded, but TensorFlow's CPU rejects every case";
    }
  }
  // A registration at a dtype the op's definition does not allow (DirectML's Mod of int8): no
  // TensorFlow builds such a node, so no record can hold a case of it.
  for (const kernels::RegisteredKernel& kernel : registered) {
    const ops::OpDef* def = registry.Find(kernel.op);
    if (def == nullptr) continue;
    const auto dtype = kernels::CellDtype(kernel, def);
    const auto state = cells.find(kernel.op + " " + (dtype ? kernels::DtypeName(*dtype) : "*"));
    if (state == cells.end() || state->second == "recorded" || state->second == "scenario" ||
        state->second == "random draws")
      continue;
    for (const auto& [attr, type] : kernel.type_constraints) {
      const ops::AttrDef* declared = def->FindAttr(attr);
      if (declared == nullptr || declared->type != "type") continue;
      const std::vector<TF_DataType> allowed = ops::AllowedTypes(*def, attr);
      if (!allowed.empty() && std::find(allowed.begin(), allowed.end(),
                                        static_cast<TF_DataType>(type)) == allowed.end()) {
        state->second = "the op does not allow " + attr + "=" +
                        kernels::DtypeName(static_cast<TF_DataType>(type)) + " in TensorFlow " +
                        registry.release() + "'s registry";
      }
    }
  }
  json summary = {{"plugin", plugin}, {"cells", cells.size()}, {"cells_by_state", json::object()}};
  std::size_t judged = 0;
  for (const auto& [cell, state] : cells) {
    judged += state == "recorded" || state == "scenario" || state == "random draws";
    summary["cells_by_state"][state.substr(0, 80)] =
        summary["cells_by_state"].value(state.substr(0, 80), 0) + 1;
  }
  summary["judgeable"] = judged;
  summary["cell_states"] = cells;
  // What the plugin registered for each cell without a judge ("T=half TInput=half"), so a
  // registration the record's kernels leave out (a type attr at another dtype) is seen.
  json unjudged = json::object();
  for (const kernels::RegisteredKernel& kernel : registered) {
    const auto dtype = kernels::CellDtype(kernel, registry.Find(kernel.op));
    const std::string cell = kernel.op + " " + (dtype ? kernels::DtypeName(*dtype) : "*");
    const auto state = cells.find(cell);
    if (state == cells.end() || state->second == "recorded" || state->second == "scenario" ||
        state->second == "random draws")
      continue;
    std::string constraints;
    for (const auto& [attr, dtype] : kernel.type_constraints) {
      constraints += (constraints.empty() ? "" : " ") + attr + "=" +
                     kernels::DtypeName(static_cast<TF_DataType>(dtype));
    }
    unjudged[cell].push_back(constraints);
  }
  summary["registrations_of_unjudged_cells"] = std::move(unjudged);
  std::cout << summary.dump(1) << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string release = kernels::kRecordedRelease;
  std::uint64_t seed = kernels::kRecordedSeed;
  std::set<std::string> only;
  std::string out_path;
  std::string registered_by;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--release" && i + 1 < argc) {
      release = argv[++i];
    } else if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--registered-by" && i + 1 < argc) {
      registered_by = argv[++i];
    } else if (arg == "--op" && i + 1 < argc) {
      only.insert(argv[++i]);
    } else if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (out_path.empty() && !arg.starts_with("-")) {
      out_path = arg;
    } else {
      std::cerr << kUsage;
      return 2;
    }
  }
  const ops::OpRegistry* registry = ops::FindOpRegistry(release);
  if (registry == nullptr) {
    std::cerr << "record_case_dump: no embedded op registry for TensorFlow " << release << '\n';
    return 1;
  }
  if (!registered_by.empty()) return RegisteredBy(registered_by, *registry);
  std::vector<kernels::RegisteredKernel> kernels;
  json stateful = json::array();
  for (std::string_view name : registry->OpNames()) {
    if (!only.empty() && !only.contains(std::string(name))) continue;
    const ops::OpDef* def = registry->Find(name);
    // An op whose only state is the variables its case creates (ResourceApplyAdam) gives the
    // same values on every run: recorded like any other; so do DeterministicStateful's.
    if (def->is_stateful && !kernels::FamiliesMakeVariables(*def) &&
        !DeterministicStateful(def->name)) {
      stateful.push_back(def->name);
    }
    for (auto& kernel : KernelsOf(*def)) kernels.push_back(std::move(kernel));
  }
  json dump = GenerateEveryKernel(kernels, *registry, seed);
  for (json& kernel_case : dump["cases"]) {
    kernel_case["attrs_digest"] = kernels::AttrsDigest(kernel_case);
    kernel_case["inputs_digest"] = kernels::InputsDigest(kernel_case);
  }
  dump["tensorflow"] = release;
  dump["seed"] = seed;
  dump["stateful"] = std::move(stateful);
  dump["ops"] = registry->size();
  const std::string text = dump.dump() + "\n";
  if (out_path.empty()) {
    std::cout << text;
    return 0;
  }
  std::ofstream out(out_path);
  out << text;
  return out ? 0 : 1;
}
