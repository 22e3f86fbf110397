#include "kernels/borrowed_cells.h"

#include <algorithm>
#include <iterator>
#include <cstdint>
#include <string>

#include "kernels/case_json.h"
#include "kernels/dtype_values.h"
#include "kernels/kernel_scenario.h"
#include "kernels/recorded_oracle.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

// Measured on the 2.21.0 wheel: each cell's every recorded case is TensorFlow's CPU refusing the
// node (no kernel at that dtype) while the source cell has results. Pooling is continuous in its
// inputs (max and mean of rounded values stay within half's tolerance of the rounded float
// result); MaxPool3DGrad routes each gradient to its window's maximum, which rounding keeps in
// place for the family's 1x1x1 windows (no ties can form).
// Not here: AdjustContrast (AdjustContrastv2 takes no min_value and max_value and gives T, not
// float); Inv and Reciprocal at int64, whose CPU kernels TensorFlow lacks at every integer
// dtype (no record says what 1/x is for integers, or 1/0); Mod, TruncateMod and ApproximateEqual
// are discontinuous in their inputs (a rounded input moves a result across a multiple or the
// tolerance), AdjustHue and AdjustSaturation have no half CPU kernel to measure the tolerance
// against.
const std::vector<BorrowedCell>& Table() {
  static const std::vector<BorrowedCell> table = {
      {"AvgPool3D", TF_HALF, TF_FLOAT},
      {"AvgPool3DGrad", TF_HALF, TF_FLOAT},
      {"MaxPool3D", TF_HALF, TF_FLOAT},
      {"MaxPool3DGrad", TF_HALF, TF_FLOAT},
      // Removed from TensorFlow's CPU (every case: no kernel); their successors' definitions are
      // theirs but for the name (2.21.0's op registry: inputs, outputs, attrs and allowed
      // dtypes), and MatrixBandPart's Tindex at its default, int64, is BatchMatrixBandPart's.
      {"BatchMatrixBandPart", TF_FLOAT, TF_FLOAT, "MatrixBandPart"},
      {"BatchMatrixBandPart", TF_HALF, TF_HALF, "MatrixBandPart"},
      {"BatchMatrixDiag", TF_FLOAT, TF_FLOAT, "MatrixDiag"},
      {"BatchMatrixDiag", TF_HALF, TF_HALF, "MatrixDiag"},
      {"BatchMatrixDiagPart", TF_FLOAT, TF_FLOAT, "MatrixDiagPart"},
      {"BatchMatrixDiagPart", TF_HALF, TF_HALF, "MatrixDiagPart"},
      {"BatchMatrixSetDiag", TF_FLOAT, TF_FLOAT, "MatrixSetDiag"},
      {"BatchMatrixSetDiag", TF_HALF, TF_HALF, "MatrixSetDiag"},
  };
  return table;
}

std::vector<std::uint8_t> Bytes(const std::string& hex) {
  std::vector<std::uint8_t> bytes(hex.size() / 2);
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<std::uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  return bytes;
}

// The registration's kernel of the source cell: every constraint at the cell's dtype moved to
// the source's (MaxPool3DGrad's T and TInput).
RegisteredKernel SourceKernel(const RegisteredKernel& kernel, const BorrowedCell& borrowed) {
  RegisteredKernel source = kernel;
  if (!borrowed.source_op.empty()) source.op = std::string(borrowed.source_op);
  for (auto& [attr, dtype] : source.type_constraints) {
    if (dtype == static_cast<int>(borrowed.cell)) dtype = static_cast<int>(borrowed.source);
  }
  return source;
}

// A source case as the cell's: its id, dtype, type attrs and tolerance from the cell's own
// first case, its inputs of the source's dtype converted.
json Borrow(const json& source_case, const json& own, const BorrowedCell& borrowed) {
  json made = source_case;
  made["borrowed_from"] = source_case;
  made["op"] = own.value("op", "");
  for (const char* key : {"id", "dtype", "tolerance", "type_attr"}) {
    if (own.contains(key)) made[key] = own[key];
  }
  for (auto& [name, value] : made["attrs"].items()) {
    if (value.contains("type") && value["type"] == static_cast<int>(borrowed.source))
      value["type"] = static_cast<int>(borrowed.cell);
  }
  const std::string source_name = DtypeName(borrowed.source);
  for (json& input : made["inputs"]) {
    if (input.value("dtype", "") != source_name || !input.contains("hex")) continue;
    input["hex"] = ConvertHex(input["hex"].get<std::string>(), borrowed.source, borrowed.cell);
    input["dtype"] = DtypeName(borrowed.cell);
  }
  // The case says whose record judged it: the cell's dtype converted from another's, or the
  // record of the op a removed one is judged through (MatrixDiag's for BatchMatrixDiag).
  const std::string source_op = source_case.value("op", "");
  const std::string whose = source_op.empty() || source_op == made["op"].get<std::string>()
                                ? source_name + " record"
                                : source_op + "'s " + source_name + " record";
  made["variant"] = made.value("variant", "") + " (" + whose + ")";
  return made;
}

// Whether `def` (the cell's op) takes the source case: every input of a fixed dtype given that
// dtype (the source op's attrs `def` lacks are dropped from the case).
bool TakenBy(const json& source_case, const ops::OpDef& def) {
  for (const ops::ArgDef& input : def.inputs) {
    if (!input.type) continue;
    for (const json& given : source_case["inputs"]) {
      if (given.value("name", "") == input.name &&
          given.value("dtype", "") != DtypeName(*input.type))
        return false;
    }
  }
  return true;
}

}  // namespace

const BorrowedCell* FindBorrowedCell(std::string_view op, TF_DataType dtype) {
  const auto& table = Table();
  const auto found = std::find_if(table.begin(), table.end(), [&](const BorrowedCell& entry) {
    return entry.op == op && entry.cell == dtype;
  });
  return found == table.end() ? nullptr : &*found;
}

std::string ConvertHex(const std::string& hex, TF_DataType from, TF_DataType to) {
  const std::vector<std::uint8_t> in = Bytes(hex);
  const std::size_t count = in.size() / ElementSize(from);
  std::vector<std::uint8_t> out(count * ElementSize(to));
  for (std::size_t i = 0; i < count; ++i) {
    const auto index = static_cast<std::int64_t>(i);
    WriteElement(to, out.data(), index, ReadElement(from, in.data(), index));
  }
  return Hex(out);
}

void BorrowRejectedCells(json& generated, const std::vector<RegisteredKernel>& registered,
                         const ops::OpRegistry& registry,
                         const std::vector<DeclaredPrecision>& precision) {
  for (const RegisteredKernel& kernel : registered) {
    const std::optional<TF_DataType> dtype = CellDtype(kernel, registry.Find(kernel.op));
    const BorrowedCell* borrowed = dtype ? FindBorrowedCell(kernel.op, *dtype) : nullptr;
    if (borrowed == nullptr) continue;
    const std::string id = KernelCaseId(kernel.op, *dtype, kGeneratedCaseName);
    json& cases = generated["cases"];
    const auto first = std::find_if(cases.begin(), cases.end(), [&](const json& c) {
      return c.value("id", "") == id && !c.contains("borrowed_from");
    });
    if (first == cases.end()) continue;  // a scenario covers it, or it is borrowed already
    const json own = *first;
    const json source = GenerateCases({SourceKernel(kernel, *borrowed)}, {}, registry, precision,
                                      kRecordedSeed)["cases"];
    // Only the source cases the cell's op can take: its attrs, and its fixed input dtypes
    // (MatrixBandPart's cases of Tindex int64, BatchMatrixBandPart's num_lower).
    const ops::OpDef* def = registry.Find(kernel.op);
    json usable = json::array();
    for (const json& source_case : source) {
      if (def != nullptr && TakenBy(source_case, *def)) usable.push_back(source_case);
    }
    if (usable.empty()) continue;
    json replaced = json::array();
    bool inserted = false;
    for (json& kernel_case : cases) {
      if (kernel_case.value("id", "") != id) {
        replaced.push_back(std::move(kernel_case));
      } else if (!inserted) {
        for (const json& source_case : usable) {
          json made = Borrow(source_case, own, *borrowed);
          for (auto attr = made["attrs"].begin(); attr != made["attrs"].end();) {
            attr =
                def->FindAttr(attr.key()) == nullptr ? made["attrs"].erase(attr) : std::next(attr);
          }
          replaced.push_back(std::move(made));
        }
        inserted = true;
      }
    }
    cases = std::move(replaced);
  }
}

const json& RecordedAs(const json& kernel_case) {
  const auto source = kernel_case.find("borrowed_from");
  return source == kernel_case.end() ? kernel_case : *source;
}

json ResultFor(const json& kernel_case, const json& cpu) {
  const auto source = kernel_case.find("borrowed_from");
  if (source == kernel_case.end() || !cpu.contains("outputs")) return cpu;
  const std::optional<TF_DataType> from = DtypeFromName(source->value("dtype", ""));
  const std::optional<TF_DataType> to = DtypeFromName(kernel_case.value("dtype", ""));
  json converted = cpu;
  // A plugin op's case of the TensorFlow op's dtype (plugin_stand_ins.h): the record's bytes.
  if (!from || !to || *from == *to) return converted;
  for (json& output : converted["outputs"]) {
    if (output.value("dtype", -1) != static_cast<int>(*from)) continue;
    for (const char* bytes : {"hex", "every"}) {  // "every": one element for all (the record's)
      if (output.contains(bytes))
        output[bytes] = ConvertHex(output[bytes].get<std::string>(), *from, *to);
    }
    output["dtype"] = static_cast<int>(*to);
  }
  return converted;
}

}  // namespace conformance::kernels
