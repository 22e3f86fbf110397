#pragma once
// Cells TensorFlow's CPU has no kernel for at their dtype only (half AvgPool3D, MaxPool3D): the
// record holds TensorFlow's refusal there, nothing to compare. Such a cell is judged from the
// record of the op at another dtype (the source) whose CPU kernel exists: the source cell's
// generated cases, their inputs converted to the cell's dtype, held to the cell's own tolerance
// against the recorded source result converted the same way. Only where that is sound, per op (the
// table in borrowed_cells.cc): an op continuous in its inputs whose half kernel stays within half's
// tolerance of the rounded float result (measured on the 2.21.0 wheel with MaxPool and AvgPool,
// which have both kernels).
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/declared_precision.h"
#include "kernels/generated_cases.h"
#include "ops/registry.h"

namespace conformance::kernels {

struct BorrowedCell {
  std::string_view op;
  TF_DataType cell;    // the dtype TensorFlow's CPU lacks
  TF_DataType source;  // the dtype whose record judges it
  // The op whose record judges it, where not `op` itself: a deprecated op whose CPU kernels
  // TensorFlow removed, judged through its successor of the same definition (BatchMatrixDiag
  // through MatrixDiag).
  std::string_view source_op = {};
};

// The table's entry for (op, dtype), or nullptr.
const BorrowedCell* FindBorrowedCell(std::string_view op, TF_DataType dtype);

// In `generated` (GenerateCases' result for `registered`), each borrowed cell's own cases replaced
// by the source cell's, converted (their "borrowed_from" holds the source case the record names).
void BorrowRejectedCells(nlohmann::json& generated, const std::vector<RegisteredKernel>& registered,
                         const ops::OpRegistry& registry,
                         const std::vector<DeclaredPrecision>& precision);

// The case the record is searched for: the source case of a borrowed one, else the case itself.
const nlohmann::json& RecordedAs(const nlohmann::json& kernel_case);

// A recorded CPU result ({"outputs": [...]} or {"error": ...}) for `kernel_case`: a borrowed
// case's source outputs converted to the case's dtype, any other case's unchanged.
nlohmann::json ResultFor(const nlohmann::json& kernel_case, const nlohmann::json& cpu);

// `hex`, elements of `from`, converted to `to` (rounded to nearest); also what the tests use.
std::string ConvertHex(const std::string& hex, TF_DataType from, TF_DataType to);

}  // namespace conformance::kernels
