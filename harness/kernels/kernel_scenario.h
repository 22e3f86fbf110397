#pragma once
// A kernel scenario as written in its YAML file (specs/scenarios/kernels.md): one op with its
// attributes, a dtype x shape matrix, how each input is filled, per-dtype tolerances and the
// expected outcome. Every case of the matrix is run on the candidate's device and, unless the
// scenario gives literal values or an expected error, on the reference plugin's.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/attributes.h"
#include "core/tensor.h"
#include "scenario/scenario.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"

namespace conformance::ops {
struct OpDef;
}  // namespace conformance::ops

namespace conformance::kernels {

using scenario::Location;

// A number in a scenario: a literal, or a name resolved per dtype (nan, inf, max, denorm_min...).
using Number = std::variant<double, std::string>;

// How one input's elements are made.
struct InputFill {
  enum class Kind { kRandom, kValues, kRange };
  Kind kind = Kind::kRandom;
  double min = -10, max = 10;     // random: uniform in [min, max] (integers: whole numbers)
  std::uint64_t seed_offset = 0;  // random: mixed with --seed, the scenario id and the case
  std::vector<Number> values;     // values: repeated to fill the shape
  double start = 0, step = 1;     // range: start, start+step, ...
};

struct InputSpec {
  std::string name;                  // the op's input argument (TF_InputRange, host-memory args)
  std::optional<TF_DataType> dtype;  // fixed dtype; default: the matrix dtype
  InputFill fill;
  // A resource variable (`variable: true`, for a DT_RESOURCE argument such as
  // ResourceApplyGradientDescent's `var`): the case creates a variable holding the filled
  // value (dtype and shape as for any input) and passes its handle; an output of the same
  // name reads the variable after compute.
  bool variable = false;
  Location at;           // of the input's mapping
  Location name_at;      // of its `name:` value
  Location variable_at;  // of its `variable:` value
};

struct OutputSpec {
  std::string name;
  std::optional<TF_DataType> dtype;  // default: the matrix dtype
  Location at;                       // of its `name:` value; {} for the default output
};

// |actual - expected| <= atol + rtol * |expected|, or at most `ulp` units in the last place
// apart. All zero: exact. NaN matches NaN; infinities must match exactly.
struct Tolerance {
  double rtol = 0, atol = 0;
  std::uint64_t ulp = 0;
  bool exact() const { return rtol == 0 && atol == 0 && ulp == 0; }
};

struct ExpectedOutput {
  core::Shape shape;
  std::vector<Number> values;
};

struct Expectation {
  enum class Kind { kReference, kValues, kError };
  Kind kind = Kind::kReference;
  std::vector<ExpectedOutput> outputs;  // kValues, one per output
  TF_Code error = TF_OK;                // kError: the code the kernel must report
};

struct KernelScenario {
  std::string op;
  std::string name;  // [a-z0-9_]+, unique per op over all files
  std::string rule, tensorflow, fix;
  std::string type_attr = "T";                   // the attr the dtype matrix sets
  std::vector<TF_DataType> dtypes;               // the matrix rows
  std::vector<std::vector<core::Shape>> shapes;  // the matrix columns: one shape per input
  std::vector<InputSpec> inputs;
  std::vector<OutputSpec> outputs;
  core::AttrMap attrs;                          // besides type_attr
  std::map<TF_DataType, Tolerance> tolerances;  // given in the file; see ToleranceFor
  Expectation expect;
  std::string file;  // label of the file it came from
  Location at;       // of its `op:` key
  // Where the parts checked against the op definition were written
  // (harness/kernels/op_conformity.h).
  Location type_attr_at;                    // of `type_attr:`, or of `op:` when defaulted
  std::vector<Location> dtype_at;           // one per entry of `dtypes`
  Location inputs_at;                       // of the `inputs:` list
  std::map<std::string, Location> attr_at;  // of each attr's name in `attrs:`
  // The definition it was checked against: the catalogue's, or the TensorFlow registry's for an
  // op outside the catalogue (static data, never freed), or the plugin's own (below); nullptr
  // before it was checked.
  const ops::OpDef* definition = nullptr;
  // Set when the op is one the candidate plugin defines itself (plugin_ops.h): `definition`
  // points here. The reference plugin cannot run such an op, so without literal expected
  // values nothing computes what the outputs should be.
  std::shared_ptr<const ops::OpDef> plugin_definition;

  Tolerance ToleranceFor(TF_DataType dtype) const;
  // The `variable: true` input called `name`; nullptr when there is none.
  const InputSpec* FindVariable(const std::string& name) const;
};

struct KernelScenarioFile {
  std::string label;
  std::vector<KernelScenario> scenarios;
};

// "kernel.<op>.<dtype>.<name>": the check that one row of a scenario's matrix passes.
std::string KernelCaseId(const std::string& op, TF_DataType dtype, const std::string& name);

}  // namespace conformance::kernels
