#include "kernels/unconstrained_cells.h"

#include <algorithm>
#include <optional>
#include <string>

#include "kernels/dtype_values.h"
#include "ops/catalogue.h"

namespace conformance::kernels {
namespace {

// The dtypes the record holds cells of (record_case_dump's SuiteHasValues): neither strings nor
// quantized integers, whose cells only some families record.
bool RecordedDtype(TF_DataType dtype) {
  return dtype != TF_STRING && !IsQuantized(dtype) && DtypeFromName(DtypeName(dtype)).has_value();
}

// The attr a registration constraining every type attr of `def` would be named by.
std::string CellAttrOf(const RegisteredKernel& kernel, const ops::OpDef& def) {
  RegisteredKernel every{kernel.op, {}};
  for (const ops::AttrDef& attr : def.attrs) {
    if (attr.type == "type") every.type_constraints.emplace_back(attr.name, TF_FLOAT);
  }
  return every.type_constraints.empty() ? "" : PrimaryAttr(every, &def);
}

std::optional<TF_DataType> OtherAttrDtype(const ops::OpDef& def, const ops::AttrDef& attr) {
  const std::vector<TF_DataType> allowed = ops::AllowedTypes(def, attr.name);
  if (std::find(allowed.begin(), allowed.end(), TF_INT32) != allowed.end()) return TF_INT32;
  const auto first = std::find_if(allowed.begin(), allowed.end(), RecordedDtype);
  if (first == allowed.end()) return std::nullopt;
  return *first;
}

}  // namespace

std::vector<RegisteredKernel> WithUnconstrainedCells(const std::vector<RegisteredKernel>& kernels,
                                                     const ops::OpRegistry& registry) {
  std::vector<RegisteredKernel> every = kernels;
  for (const RegisteredKernel& kernel : kernels) {
    const ops::OpDef* def = registry.Find(kernel.op);
    if (def == nullptr || !kernel.type_constraints.empty() || CellDtype(kernel, def)) continue;
    const std::string cell_attr = CellAttrOf(kernel, *def);
    if (cell_attr.empty()) continue;
    for (TF_DataType dtype : ops::AllowedTypes(*def, cell_attr)) {
      if (!RecordedDtype(dtype)) continue;
      RegisteredKernel cell{kernel.op, {{cell_attr, static_cast<int>(dtype)}}};
      bool fixed = true;
      for (const ops::AttrDef& attr : def->attrs) {
        if (attr.name == cell_attr || attr.type != "type" || attr.default_text) continue;
        const std::optional<TF_DataType> other = OtherAttrDtype(*def, attr);
        fixed = fixed && other.has_value();
        if (other) cell.type_constraints.emplace_back(attr.name, static_cast<int>(*other));
      }
      if (fixed) every.push_back(std::move(cell));
    }
  }
  return every;
}

}  // namespace conformance::kernels
