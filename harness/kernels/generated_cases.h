#pragma once
// plugin_conformance --tensorflow: kernel cases generated from TensorFlow's op definition for
// every (op, dtype) the plugin registers that no built-in scenario covers (a vendor's
// --scenarios add cases to the generated ones, they never switch them off), so
// the installed TensorFlow judges every kernel, not only those with hand-written scenarios. The
// cases run on the plugin's device and on TensorFlow's CPU; the CPU result is the expectation
// (tensorflow_cpu_oracle.h), so nothing here needs to know what the op computes.
//
// Covered family: ops whose every input is typed by the kernel's dtype attr or by a fixed
// dtype the suite has values for, with a default for every other attr the registration does
// not fix (a `N * T` list input gets N = max(2, its minimum)). That is the element-wise unary
// and binary ops, comparisons, AddN-style aggregations and anything else whose inputs may
// share one shape (MatMul too: TensorFlow's CPU rejects most same-shape pairs, and those cases
// are skipped with its message). Inputs typed by a second type attr (Sum's reduction_indices,
// Cumsum's axis), type lists and reference inputs must relate to the others in ways an op
// definition does not say: those cells get a not-generated reason instead of cases, unless an
// op family says how (a type list's dtypes are the case's attr, one tensor per element:
// _FusedConv2D's args, IdentityN's input).
//
// Op families (case_families.h, specs/ops/families/case_families.yaml) cover ops whose inputs
// relate (Sum's reduction_indices, ArgMax's dimension, Transpose's perm, GatherV2's indices),
// and ops whose resource inputs a family makes variables (ResourceApplyAdam's var, m and v: the
// case creates each on the device and reads it back after the kernel, as an output):
// their cases replace the same-shape ones, carry the input classes real defects need (an empty
// axis, K = 0, values above 2^24, NaN, rows over 1024), and run even where a built-in scenario
// covers the cell. Ops whose same-shape cases TensorFlow's CPU refuses or dies on (measured,
// same_shape_refusals.yaml) get a not-generated reason. An op without inputs gets cases from its
// families only (source_families.yaml: Const's value attr, GraphDefVersion, NoOp): its attrs
// are the case.
//
// Cases of one cell (all one check, kernel.<Op>.<dtype>.generated; at most 32): every input of one
// shape at ranks 0 to 5, one with an empty dimension and one [6,6,3]; a broadcast pair for
// broadcasting binary ops;
// the dtype's special values (NaN, ±inf, ±0, max, lowest; min/max for integers); ±denormals
// in a case of their own, judged only where TensorFlow's CPU does not flush them to zero;
// each bool attr flipped, each float attr halved (0.5 for a zero default), every other allowed
// type of a defaulted attr typing only outputs (ArgMax's output_type), another allowed string.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/kernel_scenario.h"
#include "model/declared_precision.h"
#include "ops/registry.h"

namespace conformance::kernels {

inline constexpr const char* kGeneratedCaseName = "generated";

// One kernel the plugin registered for its device (no label): the op and its type constraints.
struct RegisteredKernel {
  std::string op;
  std::vector<std::pair<std::string, int>> type_constraints;  // attr -> TF_DataType
};

// {"cases": [case_json.h's cases, each with "generated": true and a "variant" text, and where
//  judged in float64 too its run so (float64_runs.h's "float64_run")],
//  "not_generated": [{"id", "op", "dtype", "reason"}]} for the registered cells `scenarios`
// (the built-in ones) leave uncovered. Values derive from `seed` and each case's id, as every
// case's do.
// Ops whose same-shape cases TensorFlow's CPU rejects or dies on (case_families.h's
// BuiltinSameShapeRefusals) get a not-generated reason, unless `measuring` (what
// tests/tensorflow_oracle/generated_cases_in_cpu.py runs to measure them).
nlohmann::json GenerateCases(const std::vector<RegisteredKernel>& kernels,
                             const std::vector<KernelScenario>& scenarios,
                             const ops::OpRegistry& registry,
                             const std::vector<DeclaredPrecision>& precision, std::uint64_t seed,
                             bool measuring = false);

// The type attr naming a registered kernel's cell (CellDtype's): the draws' dtype attr of a
// stateful random op, a variable's dtype, the attr typing the first output and an input, ...;
// empty when the kernel constrains no type attr.
std::string PrimaryAttr(const RegisteredKernel& kernel, const ops::OpDef* def);

// The dtype naming a registered kernel's cell: its constraint on the attr typing the op's inputs
// (else its first constraint), or the op's fixed input dtype (LogicalAnd: bool), or for an op
// without inputs or type attrs its first output's (GraphDefVersion: int32; float for NoOp, which
// has none); nullopt for a kernel of every dtype. `def` may be null (an op the registry lacks): the
// first constraint.
std::optional<TF_DataType> CellDtype(const RegisteredKernel& kernel, const ops::OpDef* def);

// The attr typing the values of an op's resource variables, which names its cells: `dtype`
// (ResourceGather, ResourceScatterAdd: not their indices' Tindices, so each data dtype is a cell
// of its own) or `T` (ResourceApplyAdam); empty for an op without a resource input.
std::string VariableCellAttr(const ops::OpDef& def);

// Whether a check id is a generated cell's ("kernel.<Op>.<dtype>.generated").
bool IsGeneratedCaseId(const std::string& id);

}  // namespace conformance::kernels
