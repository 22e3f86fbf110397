#pragma once
// Op families for generated cases (specs/ops/families/case_families.yaml): how the inputs of an
// op relate where its OpDef cannot say (an axis within the rank, a permutation, a target shape,
// indices in range, k not above a dimension), written once per family of ops, and the inputs
// real defects need (empty reductions, values above 2^24, NaN, rows wider than 1024, ranks 0
// and 5). generated_cases.cc builds a family op's cases from its family's instead of giving
// every input one shape.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/tensor.h"
#include "kernels/kernel_scenario.h"
#include "ops/op_def.h"

namespace conformance::kernels {

// How one input of a family case is made.
struct FamilyInput {
  // Seeded values of the input's dtype in `shape` (fill: family_fills.h's names), or integers
  // in [0, below) (a list bounds each innermost component), ascending when `sorted`.
  core::Shape shape;
  std::string fill = "random";
  std::vector<std::int64_t> below;
  bool sorted = false;
  // A literal (`value:`): its elements, row-major, and the shape its nesting gives.
  std::optional<std::vector<double>> literal;
  // A literal of a string input (`text:`, a string or nested lists of them): a delimiter, a
  // pattern, a format; row-major, its shape from the nesting. `hex:` gives the same as the hex
  // of each element's bytes (a tiny PNG, a serialized TensorProto).
  std::optional<std::vector<std::string>> text;
  // A resource input (`variable: true`): a variable on the device holding these values, of the
  // cell's dtype; the case's outputs end with its value after the kernel ran. On a reference
  // input (ApplyAdam's Ref(T) var) the same: a device tensor the kernel updates in place.
  bool variable = false;
  // A list input given tensor by tensor (a YAML list of inputs): one per element of a type list
  // (_FusedConv2D's args, typed by its TArgs attr) or of an `N * T` list whose tensors differ in
  // shape (SparseCross's indices); empty where one spec makes every tensor of the input.
  std::vector<FamilyInput> elements;
  // A variable's own dtype (`dtype: int64`) where no attr of the op types it: a stateful random
  // op's Philox state is int64 whatever dtype it draws, and VarIsInitializedOp or RngSkip have
  // no type attr at all. Only with `variable: true` on a resource input.
  std::optional<TF_DataType> dtype;
  Location at;
};

struct FamilyCase {
  std::string variant;
  std::map<std::string, FamilyInput> inputs;
  nlohmann::json attrs = nlohmann::json::object();  // attr -> YAML value as JSON (typed later)
  // Tensor attrs (`attrs: {value: {shape: [2, 3], fill: special}}`: Const's value), each made
  // as an input of the cell's dtype would be (a seeded fill or a literal).
  std::map<std::string, FamilyInput> tensor_attrs;
  // The cells the case is for: dtype names or the classes "floating" and "integer"; empty:
  // every dtype.
  std::vector<std::string> dtypes;
  // The status TensorFlow's CPU gives for the case (`cpu_status: INVALID_ARGUMENT`): the case
  // is the op's error path (CheckNumerics on a NaN), not a call the CPU should accept; empty
  // where the CPU computes.
  std::string cpu_status;
  Location at;
};

struct CaseFamily {
  std::string name;
  std::vector<std::string> ops;
  std::vector<FamilyCase> cases;
  // Defaulted attrs the automatic non-default values leave alone: their other values need other
  // shapes (MatMul's transpose_a), so the family lists them as cases.
  std::vector<std::string> no_variants;
  // Outputs recorded but never compared (FusedBatchNorm's reserve spaces): a device fills them
  // its own way for its own gradient kernel, so TensorFlow's CPU values are no expectation.
  std::vector<std::string> unjudged_outputs;
  // Outputs whose values the op leaves undefined (FakeParam, _ParallelConcatStart allocate and
  // never write): their dtype and shape are judged, never their values, and the record holds
  // zeros of that size instead of whatever TensorFlow's CPU memory held.
  std::vector<std::string> undefined_values;
  // Per dtype, the tolerance of the family's cases where the default few ULP do not fit (a sum
  // over 1100 elements differs from TensorFlow's by its rounding, not a few ULP of the result).
  std::map<TF_DataType, Tolerance> tolerances;
  std::string file;
  Location at;
};

// The bound on a family's cases, so a cell's cases stay few (generated_cases.h states the
// bound per cell).
inline constexpr std::size_t kMaxFamilyCases = 16;

// The families of `text` (the YAML of `file`), or the first error as "file:line:col: message".
std::variant<std::vector<CaseFamily>, std::string> ParseCaseFamilies(std::string_view text,
                                                                     const std::string& file);

// Every family compiled in (specs/ops/families/*.yaml). A file that does not parse is a build
// defect (tests/kernels parse them): it aborts with the error.
const std::vector<CaseFamily>& BuiltinCaseFamilies();

// The families naming `op`, in file order (BatchMatMulV2 is in two).
std::vector<const CaseFamily*> FamiliesOf(std::string_view op);

// Whether the op's families make every resource and reference input of `def` a variable
// (`variable: true`), and it has one: its only state is the variables the case creates, so the
// op is deterministic for given values although TensorFlow marks it stateful
// (ResourceApplyAdam, AssignVariableOp).
bool FamiliesMakeVariables(const ops::OpDef& def);

// The list(type) attr typing the op's first input (IdentityN's T, StringFormat's T) where no
// type attr types an input or an output and a family gives the list's dtypes: a plugin's kernel for
// lists of one dtype constrains that attr, so the generator and the record name the cells by it
// (case elements naming it are the cell's dtype). Empty otherwise.
std::string TypeListCellAttr(const ops::OpDef& def);
// The dtype the op's families give resource input `input`'s variable (`dtype:`), where every
// case of every family names the same; nullopt where none does (the variable then holds the
// op's `dtype` or `T`), or where they disagree (a cell is one variable dtype).
std::optional<TF_DataType> FamiliesVariableDtype(const ops::OpDef& def, const std::string& input);

// Ops whose same-shape cases TensorFlow's CPU cannot judge, measured
// (specs/ops/families/same_shape_refusals.yaml): op -> "rejected", "fatal" or "no_cpu_kernel".
// A file's `same_shape_refusals:` mapping of those three lists; the first error as
// "file:line:col: message".
std::variant<std::map<std::string, std::string>, std::string> ParseSameShapeRefusals(
    std::string_view text, const std::string& file);
const std::map<std::string, std::string>& BuiltinSameShapeRefusals();

}  // namespace conformance::kernels
