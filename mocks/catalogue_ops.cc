#include "mocks/catalogue_ops.h"

#include <algorithm>

namespace conformance::mocks {

const CatalogueOp* FindCatalogueOp(std::string_view name) {
  const std::vector<CatalogueOp>& ops = CatalogueOps();
  auto it =
      std::find_if(ops.begin(), ops.end(), [&](const CatalogueOp& op) { return op.name == name; });
  return it == ops.end() ? nullptr : &*it;
}

}  // namespace conformance::mocks
