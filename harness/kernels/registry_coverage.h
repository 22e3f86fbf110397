#pragma once
// How far the generated cases (generated_cases.h) reach over TensorFlow's whole op registry:
// per op, one cell as a plugin would register it (its main dtype float where the op allows it),
// and whether the generator gives that cell cases or the reason it does not. docs/kernels/
// op_coverage.md is written from it (conformance/kernels/op_coverage_main.cc), and a test keeps
// that page current.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/generated_cases.h"
#include "ops/registry.h"

namespace conformance::kernels {

struct OpCoverage {
  std::string op;
  std::string dtype;      // the cell's dtype; empty when the op has none the suite can name
  std::size_t cases = 0;  // generated cases of the cell
  std::string family;     // the op's first family (case_families.h); empty for same-shape cases
  std::string reason;     // why there are none
  std::string group;      // the reason's group ("resource handles", ...)
  // Cases exist but TensorFlow's CPU has no kernel for the cell's dtype (measured,
  // BuiltinSameShapeRefusals): --tensorflow cannot judge them.
  bool no_cpu_kernel = false;
};

// The kernels a plugin would register for `op` to make its cells: the op's main type attr set
// to each of `dtypes` it allows (the first allowed, in that order, when `every` is false), every
// other type attr typing an input set to its default or int32; attrs typing only outputs
// (ArgMax's output_type) left open, as a kernel for every output dtype. Empty when the op has
// no dtype of `dtypes` for its main attr.
std::vector<RegisteredKernel> RegistryKernels(const ops::OpDef& def,
                                              const std::vector<TF_DataType>& dtypes, bool every);

// Every op of `registry`, sorted by name.
std::vector<OpCoverage> RegistryCoverage(const ops::OpRegistry& registry, std::uint64_t seed);

// The page docs/kernels/op_coverage.md: the share of ops with cases, by family and by reason.
std::string CoveragePage(const ops::OpRegistry& registry, const std::vector<OpCoverage>& ops);

}  // namespace conformance::kernels
